"""The metadata is in pyproject.toml. This adds what is compiled, all of it optional: without a C compiler (or
with DEDALE_PURE_PYTHON=1) the package installs and the same code runs as Python, slower and identical.

- The two C extensions of the key-lock diagrams at scale: the generator's weighted picks (`_grow.c`) and the
  analysis's walk (`_walk.c`).
- The skirmish's inner loop, compiled from its own Python by mypyc (`COMPILED`): a compiled module is imported
  in place of its `.py`, so edit the `.py` and rebuild (`make`, or `pip install -e .`).
"""

import os
import shutil
import sysconfig

from setuptools import Extension, setup

# No floating-point contraction: each sum and product must be rounded as Python rounds it.
FLAGS = [] if os.name == "nt" else ["-O2", "-ffp-contract=off"]
COMPILED = [f"src/dedale/zombstone/skirmish/{name}.py" for name in ("battlefield", "table", "fight", "turn", "ai")]


def compiler_at_hand() -> bool:
    command = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return bool(command) and shutil.which(command[0]) is not None


def skirmish_modules() -> list[Extension]:
    """The skirmish's modules compiled by mypyc, or none when compiling is off or cannot be done."""
    if os.environ.get("DEDALE_PURE_PYTHON") == "1" or not compiler_at_hand():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # a build without mypy (pyproject's build requirements name it)
        return []
    try:
        # the build runs before the dependencies are installed: numpy's types may be missing (then Any)
        modules = mypycify(["--ignore-missing-imports", *COMPILED], group_name="dedale_skirmish")
    except (Exception, SystemExit) as failed:  # mypy found an error (it exits): install them as Python, and say so
        print(f"setup.py: the skirmish modules are not compiled ({failed}); `make lint` names the error")
        return []
    for module in modules:  # mypyc's own flags, and no contraction (as for the C extensions): the same floats
        module.extra_compile_args = [*module.extra_compile_args, *FLAGS[1:]]  # a list they share
    return modules


setup(ext_modules=[
    *(Extension(f"dedale.keylock._{name}", [f"src/dedale/keylock/_{name}.c"], optional=True, extra_compile_args=FLAGS)
      for name in ("grow", "walk")),
    *skirmish_modules(),
])
