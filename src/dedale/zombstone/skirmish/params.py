"""A skirmish's parameters: the scenario, which side the player takes (or none: the AIs play each other;
or two people play, `opponent`), each AI's policy and level, reroll rounds, and a folder of the player's own
data files."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dedale.core.errors import DedaleError
from dedale.core.params import Declared, param
from dedale.i18n import data_word, word
from dedale.zombstone.policy import MAX_ROUNDS, UNARMED_READINGS
from dedale.zombstone.skirmish.ai import POLICIES
from dedale.zombstone.skirmish.catalogue import SIDES, load_catalogue
from dedale.zombstone.skirmish.lookahead import LEVELS


def _scenarios() -> tuple[str, ...]:
    return tuple(load_catalogue().scenarios)


@dataclass(frozen=True)
class SkirmishParams(Declared):
    system: ClassVar[str] = "zombstone"

    scenario: str = param("ok_corral", menu=_scenarios,
                          word_label=lambda item: data_word("zombstone", "scenario", item),
                          label=("Scenario", "Scénario"), first=True,
                          en="The scenario (a folder of data of your own may add some).",
                          fr="Le scénario (un dossier de données à vous peut en ajouter).")
    side: str | None = param("lawmen", choices=SIDES, word_label=lambda side: word(f"skirmish.side.{side}"),
                             label=("Your side", "Votre camp"), first=True,
                             en="Your side: lawmen or zombies (none: two AIs play).",
                             fr="Votre camp : lawmen (la loi) ou zombies (aucun : deux IA jouent).")
    policy_lawmen: str = param("default", choices=POLICIES,
                               label=("Lawmen's AI", "IA de la loi"),
                               en="The lawmen's AI: default, cautious or aggressive.",
                               fr="L'IA de la loi : default, cautious (prudente) ou aggressive.")
    policy_zombies: str = param("default", choices=POLICIES,
                                label=("Zombies' AI", "IA des zombies"),
                                en="The zombies' AI: default, cautious or aggressive.",
                                fr="L'IA des zombies : default, cautious (prudente) ou aggressive.")
    rounds: int = param(1, low=1, high=MAX_ROUNDS, label=("Rerolls", "Relances"), en="Reroll rounds (the rules: 1).",
                        fr="Tours de relance (la règle : 1).")
    data: str | None = param(None, web=False, en="A folder whose weapons/profiles/bands/scenarios.toml replace the "
                             "shipped ones.", fr="Un dossier dont les weapons/profiles/bands/scenarios.toml "
                             "remplacent ceux fournis.")
    opponent: str = param("ai", choices=("ai", "human"), omit_default=True,
                          en="Who plays the other side: the AI, or a second person (human: seat 0 plays the lawmen, "
                          "seat 1 the zombies, whatever the side).",
                          fr="Qui joue l'autre camp : l'IA (ai), ou une seconde personne (human : le siège 0 joue "
                          "la loi, le siège 1 les zombies, quel que soit le camp).")
    unarmed_malus: str = param("potential", choices=UNARMED_READINGS, omit_default=True,
                               label=("Unarmed malus", "Malus sans arme"),
                               en="A fighter in contact without a melee weapon has \"a malus of one base die\": "
                               "potential (one Potential die off, as every malus in the text) or first_roll (one "
                               "die off its first roll).",
                               fr="Un combattant au contact sans arme de contact a « un malus d'un dé de base » : "
                               "potential (un dé de Potentiel en moins, comme tout malus du texte) ou first_roll "
                               "(un dé en moins à son premier jet).")
    ai: str = param("standard", choices=LEVELS, omit_default=True, label=("AI level", "Niveau de l'IA"),
                    en="How the AI plays: standard, or lookahead (before each activation and action it plays the "
                    "options out some 160 times in all: stronger, about a second a decision).",
                    fr="Comment joue l'IA : standard, ou lookahead (avant chaque activation et chaque action, elle "
                    "joue les options quelque 160 fois en tout : plus forte, environ une seconde par décision).")

    def check(self) -> None:
        load_catalogue(self.data).scenario(self.scenario)  # a scenario that exists, in data that loads

    def check_web(self) -> None:
        super().check_web()
        if self.side is None:  # a game between two AIs is a battle run: the command line's `simulate`
            raise DedaleError("error.one_of", param="side", value="-", accepted=", ".join(SIDES))

    @property
    def human(self) -> bool:
        """Two people play: seat 0 the lawmen, seat 1 the zombies."""
        return self.opponent == "human"

    def policy(self, side: str) -> str:
        return self.policy_lawmen if side == "lawmen" else self.policy_zombies
