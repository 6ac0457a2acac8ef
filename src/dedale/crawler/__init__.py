"""The crawler: a dungeon of room tiles on a board of zones, grown room by room.

Rules: docs/rules/crawler.md
"""
