"""A skirmish's parameters: the scenario, which side the player takes (or none: the AIs play each other;
or two people play, `opponent`), each AI's policy and level, reroll rounds, a folder of the player's own data files, and
the readings of the text: each defaults to what the text says, and the other is Dédale's earlier reading (or,
for difficult ground, the letter of the text)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dedale.core.errors import DedaleError
from dedale.core.params import Declared, param
from dedale.i18n import data_word, word
from dedale.zombstone.policy import MAX_ROUNDS, UNARMED_READINGS
from dedale.zombstone.skirmish.ai import POLICIES
from dedale.zombstone.skirmish.battlefield import MOVE_READINGS
from dedale.zombstone.skirmish.catalogue import SIDES, load_catalogue
from dedale.zombstone.skirmish.duel import WINNINGS
from dedale.zombstone.skirmish.lookahead import LEVELS
from dedale.zombstone.skirmish.table import AIM_COSTS, CARD_LIMITS, DUEL_CHOICES, TURNED_DICE, Readings, readings_of


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
                             fr="Votre camp : lawmen (la loi) ou zombies (aucun : deux IA jouent).")
    policy_lawmen: str = param("default", choices=POLICIES,
                               label=("Lawmen's AI", "IA de la loi"),
                               en="The lawmen's AI: default, cautious or aggressive.",
                               fr="L'IA de la loi : default, cautious (prudente) ou aggressive.")
    policy_zombies: str = param("default", choices=POLICIES,
                                label=("Zombies' AI", "IA des zombies"),
                                en="The zombies' AI: default, cautious or aggressive.",
                                fr="L'IA des zombies : default, cautious (prudente) ou aggressive.")
    rounds: int = param(1, low=1, high=MAX_ROUNDS, label=("Rerolls", "Relances"), en="Reroll rounds (the rules: 1).",
                        fr="Tours de relance (la règle : 1).")
    data: str | None = param(None, web=False, en="A folder whose weapons/profiles/bands/scenarios.toml replace the "
                             "shipped ones.", fr="Un dossier dont les weapons/profiles/bands/scenarios.toml "
                             "remplacent ceux fournis.")
    opponent: str = param("ai", choices=("ai", "human"), omit_default=True,
                          en="Who plays the other side: the AI, or a second person (human: seat 0 plays the lawmen, "
                          "seat 1 the zombies, whatever the side).",
                          fr="Qui joue l'autre camp : l'IA (ai), ou une seconde personne (human : le siège 0 joue "
                          "la loi, le siège 1 les zombies, quel que soit le camp).")
    unarmed_malus: str = param("first_roll", choices=UNARMED_READINGS, omit_default=True,
                               label=("Unarmed malus", "Malus sans arme"),
                               en="A fighter in contact without a melee weapon has \"a malus of one base die\": "
                               "first_roll (the text: one die off its first roll, a base die) or potential (one "
                               "Potential die off, as the text's other maluses; Dédale's reading before).",
                               fr="Un combattant au contact sans arme de contact a « un malus d'un dé de base » : "
                               "first_roll (le texte : un dé en moins à son premier jet, un dé de base) ou potential "
                               "(un dé de Potentiel en moins, comme les autres malus du texte ; la lecture "
                               "précédente de Dédale).")
    climb: str = param("halve_move", choices=MOVE_READINGS, omit_default=True,
                       label=("Climbing a wall", "Escalader un mur"),
                       en="A \"wall to climb\" halves the move: halve_move (the text: a move that climbs one covers "
                       "half its inches) or per_inch (each inch over the wall costs two; Dédale's reading before).",
                       fr="Un « mur à escalader » divise le mouvement par deux : halve_move (le texte : un "
                       "mouvement qui l'escalade couvre la moitié de ses pouces) ou per_inch (chaque pouce sur le "
                       "mur en coûte deux ; la lecture précédente de Dédale).")
    difficult: str = param("per_inch", choices=MOVE_READINGS, omit_default=True,
                           label=("Difficult ground", "Terrain difficile"),
                           en="Difficult ground, stairs and ladders \"halve the move\": per_inch (a reading: only "
                           "the part of the move over them, each inch costing two) or halve_move (the letter: a "
                           "move that enters them covers half its inches).",
                           fr="Terrain difficile, escaliers et échelles « divisent par deux le mouvement » : per_inch "
                           "(une lecture : seule la part du mouvement qui les traverse, chaque pouce en coûtant deux) "
                           "ou halve_move (la lettre : un mouvement qui y entre couvre la moitié de ses pouces).")
    aim_cost: str = param("joker", choices=AIM_COSTS, omit_default=True,
                          label=("Aimed shot's cost", "Coût du tir visé"),
                          en="What an Aimed shot costs (Precise aims \"without spending a Joker card\"): joker (the "
                          "text: a Joker, two in the inspiration deck) or any_card (any inspiration card; Dédale's "
                          "reading before, with no Joker in the deck).",
                          fr="Ce que coûte un Tir visé (Précis vise « sans dépenser de carte Joker ») : joker (le "
                          "texte : un Joker, deux dans le paquet d'inspiration) ou any_card (n'importe quelle carte "
                          "d'inspiration ; la lecture précédente de Dédale, sans Joker dans le paquet).")
    turned_die: str = param("face", choices=TURNED_DICE, omit_default=True,
                            label=("Turned die", "Dé changé"),
                            en="King of the Hill and A certain taste turn \"a die showing any figure\": face (the "
                            "text: a Jack, Queen or King) or any (any die, a 9, a 10 or an Ace too; Dédale's reading "
                            "before).",
                            fr="Roi de la colline et Une certaine idée du bon goût changent « un dé indiquant une "
                            "figure quelconque » : face (le texte : un Valet, une Dame ou un Roi) ou any (n'importe "
                            "quel dé, un 9, un 10 ou un As aussi ; la lecture précédente de Dédale).")
    card_limit: str = param("activation", choices=CARD_LIMITS, omit_default=True,
                            label=("Hand limit", "Limite de la Main"),
                            en="The Hand limits the cards a character plays \"at its activation, or in reaction\": "
                            "activation (the text: every card of an activation or a reaction counts, a Guts test's "
                            "and Last Breath's too) or apart (a Guts test and Last Breath each have a Hand of their "
                            "own; Dédale's reading before).",
                            fr="La Main limite les cartes qu'un personnage joue « à son activation, ou alors en "
                            "réaction » : activation (le texte : toute carte d'une activation ou d'une réaction "
                            "compte, celles d'un test de Tripes et du Dernier souffle aussi) ou apart (un test de "
                            "Tripes et le Dernier souffle ont chacun leur propre Main ; la lecture précédente de "
                            "Dédale).")
    winnings: str = param("pot", choices=WINNINGS, omit_default=True,
                          label=("Duel's winnings", "Gains du duel"),
                          en="What a poker duel's winner may spend (it \"takes the stakes\"): pot (the text: the "
                          "whole pot) or won (only what the other put in; Dédale's reading before).",
                          fr="Ce que le vainqueur d'un duel de poker peut dépenser (il « remporte les mises ») : pot "
                          "(le texte : tout le pot) ou won (seulement ce que l'autre y a mis ; la lecture précédente "
                          "de Dédale).")
    duel: str = param("scenario", choices=DUEL_CHOICES, omit_default=True,
                      label=("Duel", "Duel"),
                      en="The duel a duel scenario opens with: scenario (the scenario's own), holdem (the poker "
                      "deal) or simple (a Guts roll each, the better wins a Fame point).",
                      fr="Le duel qui ouvre un scénario à duel : scenario (celui du scénario), holdem (la donne "
                      "de poker) ou simple (un jet de Tripes chacun, le meilleur gagne un point de Renommée).")

    ai: str = param("standard", choices=LEVELS, omit_default=True, label=("AI level", "Niveau de l'IA"),
                    en="How the AI plays: standard, or lookahead (before each activation and action it plays the "
                    "options out some 160 times in all, twelve activations ahead: stronger, under a second a "
                    "decision).",
                    fr="Comment joue l'IA : standard, ou lookahead (avant chaque activation et chaque action, elle "
                    "joue les options quelque 160 fois en tout, douze activations plus loin : plus forte, moins "
                    "d'une seconde par décision).")

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

    def readings(self) -> Readings:
        """The readings of the text a table plays by (`Table`'s fields of the same names)."""
        return readings_of(self)

    def policy(self, side: str) -> str:
        return self.policy_lawmen if side == "lawmen" else self.policy_zombies
