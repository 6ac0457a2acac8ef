"""The crawler: a dungeon of room tiles on a board of zones, grown room by room.

Rules: docs/rules/crawler.md
"""

from dedale.core.tables import shipped_label
from dedale.i18n import register_labels

register_labels("crawler", shipped_label)  # the rows of its shipped tables, kept in documents by id
