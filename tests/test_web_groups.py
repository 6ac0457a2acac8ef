"""A long list of choices folds into the groups its system names (issue 30: Move > where, Shoot > whom); a
short list, a group of one and a list that would be one group alone stay one by one."""

from __future__ import annotations

from dedale.core.rules import Choice
from dedale.i18n import word
from dedale.web.views import GROUP_FROM, grouped


def choices(*groups: str | None) -> list[Choice]:
    return [Choice(f"c{i}", word("skirmish.option.end"), {} if g is None else {"group": f"skirmish.group.{g}"})
            for i, g in enumerate(groups)]


def test_a_long_list_folds_by_group_where_each_first_stood() -> None:
    listed = choices("shoot", "shoot", "move", "move", "move", "move", "shoot", "move", None, "dodge")
    assert len(listed) >= GROUP_FROM
    shown = grouped(listed, "en")
    assert [heading for heading, _ in shown] == ["Shoot: whom (3)", "Move: where to (5)", None, None]
    assert [c.id for c in shown[0][1]] == ["c0", "c1", "c6"]
    assert shown[3][1][0].id == "c9"  # a group of one is no group
    assert grouped(listed, "fr")[1][0] == "Se déplacer\u00a0: où (5)"


def test_a_short_list_or_a_single_group_stays_one_by_one() -> None:
    for listed in (choices("move", "move", "shoot", None), choices(*["dodge"] * (GROUP_FROM + 3))):
        assert all(heading is None and len(members) == 1 for heading, members in grouped(listed, "en"))
