"""The hexcrawl: a hex map that appears as the party explores, each hex inheriting from its neighbours.

Rules: docs/rules/hexcrawl.md
"""
