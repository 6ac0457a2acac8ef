"""The hexcrawl: a hex map that appears as the party explores, each hex inheriting from its neighbours.

Rules: docs/rules/hexcrawl.md
"""

from dedale.core.tables import shipped_label
from dedale.i18n import register_labels

register_labels("hexcrawl", shipped_label)  # the rows of its shipped tables, kept in documents by id
