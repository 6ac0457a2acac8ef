"""The metadata is in pyproject.toml. This adds the two C extensions of the key-lock diagrams at scale: the
generator's weighted picks (`_grow.c`) and the analysis's walk (`_walk.c`). Both optional: without a C compiler
the package installs and the same work is done in Python (slower at a hundred thousand objects, identical)."""

import os

from setuptools import Extension, setup

# No floating-point contraction: each sum and product must be rounded as Python rounds it.
FLAGS = [] if os.name == "nt" else ["-O2", "-ffp-contract=off"]

setup(ext_modules=[Extension(f"dedale.keylock._{name}", [f"src/dedale/keylock/_{name}.c"], optional=True,
                             extra_compile_args=FLAGS) for name in ("grow", "walk")])
