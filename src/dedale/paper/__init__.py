"""The paper dungeon: corridors and rooms drawn from a 52-card deck and suit dice, on squared paper.

Rules: docs/rules/paper-dungeon.md
"""
