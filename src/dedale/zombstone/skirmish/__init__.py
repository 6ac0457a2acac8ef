"""Zombstone's skirmish: characters and bands, the battlefield, the full turn, AI opponents, the duel."""

from dedale.i18n import register_labels
from dedale.zombstone.skirmish.catalogue import shipped_label

register_labels("zombstone", shipped_label)  # its profiles and scenarios, kept in documents by id
