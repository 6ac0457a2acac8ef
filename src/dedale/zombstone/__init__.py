"""Zombstone: a weird-west skirmish game on poker dice, with its exact odds."""
