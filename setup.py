"""The metadata is in pyproject.toml. This adds the one C extension, the key-lock generator's weighted picks
(`src/dedale/keylock/_grow.c`): optional, so that without a C compiler the package installs and the same picks
are made in Python (slower at a hundred thousand objects, identical)."""

import os

from setuptools import Extension, setup

# No floating-point contraction: each sum and product must be rounded as Python rounds it.
FLAGS = [] if os.name == "nt" else ["-O2", "-ffp-contract=off"]

setup(ext_modules=[Extension("dedale.keylock._grow", ["src/dedale/keylock/_grow.c"], optional=True,
                             extra_compile_args=FLAGS)])
