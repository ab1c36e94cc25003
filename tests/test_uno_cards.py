"""UNO card and action notation, both ways, and the rule switches."""

from __future__ import annotations

import pytest

from ddz import uno
from ddz.uno import CARDS, Action, Card, Rules


def test_every_card_reads_back_from_its_text() -> None:
    for card in CARDS:
        assert Card.parse(str(card)) == card
        assert Card.parse(str(card).lower()) == card
        assert eval(repr(card), {"Card": Card.parse}) == card


def test_card_fields() -> None:
    assert (Card.parse("Y0").colour, Card.parse("Y0").face, Card.parse("Y0").kind) == (
        "yellow",
        "0",
        13,
    )
    assert Card.parse("BR").name == "blue Reverse"
    assert Card.parse("+4") == Card.parse("W+4") == CARDS[53]
    assert Card.parse("W").colour is None and Card.parse("W").is_wild
    assert uno.points(uno.parse_cards("R5 GS W")) == 75
    with pytest.raises(ValueError, match="not one card"):
        Card.parse("R5 R6")
    with pytest.raises(ValueError, match=r"a card kind must lie in 0 \.\. 53"):
        Card(54)


@pytest.mark.parametrize(
    "text",
    [
        "0: play R7",
        "3: play W blue",
        "1: play W+4 red",
        "2: draw",
        "2: keep",
        "4: uno",
        "5: catch 4",
        "0: colour green",
    ],
)
def test_actions_read_back_from_their_text(text: str) -> None:
    action = Action.parse(text, default_player=9)
    assert str(action) == text
    assert Action.from_code(action.code) == action
    assert eval(repr(action), {"Action": Action}) == action


def test_action_text_variants() -> None:
    assert Action.parse("play +4 r", default_player=1) == Action.play(1, "W+4", "red")
    assert Action.parse("color Y", default_player=0) == Action(0, "colour", colour="yellow")
    assert Action.parse("play r7 red", default_player=0) == Action.play(0, "R7")
    for bad in ("", "play", "play W", "play R7 blue", "catch x", "x: draw", "bid 2", "12: draw"):
        with pytest.raises(ValueError):
            Action.parse(bad, default_player=0)


def test_every_core_code_is_one_action() -> None:
    codes = {action.code for action in uno.actions.BY_CODE.values()}
    assert len(codes) == len(uno.actions.BY_CODE)
    with pytest.raises(ValueError, match="no action code"):
        Action.from_code(7)


def test_rules_switches() -> None:
    assert Rules() == uno.LOMBARDY
    assert all(getattr(uno.LOMBARDY, name) for name in ("stacking", "jump_in", "call_out"))
    assert uno.STANDARD.core_flags == 16  # the reshuffle only
    assert uno.LOMBARDY.core_flags == 31
    assert Rules.from_dict(uno.LOMBARDY.to_dict()) == uno.LOMBARDY
    with pytest.raises(TypeError, match="stacking is True or False"):
        Rules(stacking=1)  # type: ignore[arg-type]
