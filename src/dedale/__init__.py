"""Dédale: procedural tabletop systems to play through or generate, every roll seeded and logged."""

__version__ = "0.1.0"
