"""Zombstone's skirmish: characters and bands, the battlefield, the full turn, AI opponents, the duel."""
