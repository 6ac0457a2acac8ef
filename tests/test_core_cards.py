"""Playing-card decks: draws, discards, reshuffles; table mode names the card drawn."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dedale.core.cards import Card, Deck
from dedale.core.errors import DedaleError
from dedale.core.rng import NeedInput, Roller, SeededSource, TableSource


@given(seed=st.integers(0, 2**64 - 1))
def test_no_card_twice_until_reshuffled(seed: int) -> None:
    deck = Deck()
    roller = Roller(SeededSource(seed), [])
    drawn = [deck.draw(roller, "x") for _ in range(52)]
    assert len(set(drawn)) == 52 and deck.draw(roller, "x") is None
    for card in drawn[:10]:
        deck.discard(card)
    deck.reshuffle(roller, everything=False)
    assert len(deck.pile) == 10 and not deck.discards
    deck.reshuffle(roller)
    assert len(deck.pile) == 52


def test_draws_are_logged() -> None:
    log: list[dict] = []
    card = Deck().draw(Roller(SeededSource(1), log), "paper.card")
    assert log == [{"draw": card.code, "for": "paper.card"}]


def test_table_mode_names_the_card_and_refuses_one_already_drawn() -> None:
    deck = Deck()
    assert deck.draw(Roller(TableSource(["QH"]), []), "x") == Card("Q", "hearts")
    with pytest.raises(NeedInput) as need:
        deck.draw(Roller(TableSource([]), []), "x")
    assert "QH" not in need.value.request.options and len(need.value.request.options) == 51
    with pytest.raises(DedaleError):
        deck.draw(Roller(TableSource(["QH"]), []), "x")


@pytest.mark.parametrize(("code", "card"), [("AH", Card("A", "hearts")), ("10s", Card("10", "spades")),
                                            ("qc", Card("Q", "clubs"))])
def test_card_codes(code: str, card: Card) -> None:
    assert Card.parse(code) == card and Card.parse(card.code) == card


def test_bad_card_code() -> None:
    with pytest.raises(DedaleError):
        Card.parse("11H")
