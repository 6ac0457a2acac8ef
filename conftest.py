"""The root of the pytest tree: the tests, and the docstrings' examples in `src/`."""
