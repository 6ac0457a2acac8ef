"""Key-lock diagrams: level-design trees of unique, multi and permanent keys, solvable by construction.

Rules: docs/rules/keylock.md
"""
