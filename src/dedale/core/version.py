"""Dédale's version, at the bottom: a batch checks that its cluster's workers run the same one (core/batch);
`dedale.__version__` re-exports it."""

__version__ = "0.1.0"
