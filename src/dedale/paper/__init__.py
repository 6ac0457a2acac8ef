"""The paper dungeon: corridors and rooms drawn from a 52-card deck and suit dice, on squared paper.

Rules: docs/rules/paper-dungeon.md
"""

from dedale.core.tables import shipped_label
from dedale.i18n import register_labels

register_labels("paper", shipped_label)  # the rows of its shipped tables, kept in documents by id
