"""Every text parser attacked: arbitrary text, huge text, wrong types. A parser either reads
the text or raises ``ValueError`` (``IllegalMoveError`` where an action is read) or, for a
value that is not text at all, ``TypeError``; its message quotes at most ``MAX_ECHO``
characters of the input; over-long text is refused before any reading.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ddz
from ddz import uno
from ddz.errors import MAX_ECHO, MAX_TEXT
from ddz.game import Bid

_ALPHABET = st.sampled_from(
    [
        *list("3456789TJQKA2XDSVBRtjqkaxdsvbr10 ,+-/|;:hcW♠♥♦♣yglopwnu\n\t"),
        "10",
        "+4",
        "W+4",
        "play ",
        "bid ",
        "catch ",
        "colour ",
    ]
)
TEXT = st.one_of(st.text(max_size=60), st.lists(_ALPHABET, max_size=30).map("".join))

_GAME = ddz.Game(seed=3)
_UNO = uno.Game(3, seed=3)

PARSERS: dict[str, Callable[[str], object]] = {
    "Cards.parse": ddz.Cards.parse,
    "Cards.count": ddz.Cards("33").count,
    "Move.parse": ddz.Move.parse,
    "Bid.parse": Bid.parse,
    "legal_moves": ddz.legal_moves,
    "Game.parse_action": _GAME.parse_action,
    "Game.why_illegal": _GAME.why_illegal,
    "uno.parse_cards": uno.parse_cards,
    "uno.Card.parse": uno.Card.parse,
    "uno.Action.parse": lambda text: uno.Action.parse(text, default_player=0),
    "uno.colour_index": uno.cards.colour_index,
    "uno.Game.parse_action": _UNO.parse_action,
    "uno.Game.why_illegal": _UNO.why_illegal,
}


def _message_is_short(error: Exception, text: str) -> None:
    message = str(error)
    # The message may quote the input, but never more than MAX_ECHO characters of it.
    assert len(message) <= 3 * MAX_ECHO + 160, message[:300]
    if len(text) > MAX_ECHO:
        assert text not in message


@pytest.mark.parametrize("name", sorted(PARSERS))
@given(text=TEXT)
def test_arbitrary_text_reads_or_raises_value_error(name: str, text: str) -> None:
    parse = PARSERS[name]
    game_state = _GAME.state_bytes(), _UNO.state_bytes()
    try:
        parse(text)
    except ValueError as error:  # IllegalMoveError is a ValueError
        _message_is_short(error, text)
    assert (_GAME.state_bytes(), _UNO.state_bytes()) == game_state


@pytest.mark.parametrize("name", sorted(PARSERS))
@pytest.mark.parametrize("size", [MAX_TEXT + 1, 10_000_000])
def test_over_long_text_is_refused_unread(name: str, size: int) -> None:
    text = "3" * size
    if name in ("Game.why_illegal", "uno.Game.why_illegal"):  # the reason, not an error
        reason = PARSERS[name](text)
        assert isinstance(reason, str)
        assert reason is not None and f"{size} characters" in reason
        _message_is_short(ValueError(reason), text)
        return
    with pytest.raises(ValueError, match=f"{size} characters") as caught:
        PARSERS[name](text)
    _message_is_short(caught.value, text)


@pytest.mark.parametrize("name", sorted(PARSERS))
@pytest.mark.parametrize("value", [None, 3, 3.5, b"33", ["3"], object()])
def test_non_text_is_a_type_error(name: str, value: object) -> None:
    if name in (
        "Game.parse_action",
        "Game.why_illegal",
        "uno.Game.parse_action",
        "uno.Game.why_illegal",
        "uno.parse_cards",
        "legal_moves",
    ):
        pytest.skip("takes other types too (actions, indices, card lists)")
    with pytest.raises((TypeError, ValueError)):
        PARSERS[name](value)  # type: ignore[arg-type]


def test_long_messages_are_cut() -> None:
    text = "3333" + "Z" * 500
    with pytest.raises(ValueError) as caught:
        ddz.Cards.parse(text)
    assert "(504 chars)" in str(caught.value) and len(str(caught.value)) < 200
    with pytest.raises(ValueError) as caught:
        uno.Action.parse("play " + "R" * 900, default_player=0)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("Kd", "K"),
        ("kd", "K"),
        ("3d", "3"),
        ("10d", "T"),
        ("3h 3d 10s", "33T"),
        ("33 Kd", "33K"),
        ("33KD", "33KD"),
        ("xd", "XD"),
        ("d", "D"),
        ("XD", "XD"),
        ("3S", "3S"),
        ("3 s", "3S"),
        ("K♦", "K"),
        ("BR", "XD"),
    ],
)
def test_suit_letters_and_cards_one_reading(text: str, cards: str) -> None:
    assert str(ddz.Cards.parse(text)) == cards


@pytest.mark.parametrize("text", ["33kd", "Kkd", "55s", "2d3", "1010d", "33Kd"])
def test_a_letter_that_could_be_a_suit_or_a_card_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="could be a suit or the"):
        ddz.Cards.parse(text)


@given(st.lists(st.integers(-(2**70), 2**70), max_size=20))
def test_from_counts_takes_integers_only(counts: list[int]) -> None:
    try:
        cards = ddz.Cards.from_counts(counts)
    except ValueError:
        return
    assert list(cards.counts(actions=len(counts) == 17)) == counts


def test_from_counts_and_masks_take_numpy_integers() -> None:
    import numpy as np

    counts = np.array([1] * 15, dtype=np.int8)
    assert len(ddz.Cards.from_counts(counts)) == 15
    assert ddz.Cards.from_mask(np.uint64(ddz.Cards("33").mask)) == ddz.Cards("33")
    for bad in ([1.0] * 15, [True] * 15, "1" * 15):
        with pytest.raises(TypeError):
            ddz.Cards.from_counts(bad)  # type: ignore[arg-type]
    for mask in (-1, 2**64, 2**200, 1.5, True):
        with pytest.raises(ValueError):
            ddz.Cards.from_mask(mask)  # type: ignore[arg-type]


def test_hands_outside_the_deck_are_named_in_card_notation() -> None:
    for call in (
        lambda: ddz.legal_moves("3S"),
        lambda: ddz.why_illegal("33S", "33"),
        lambda: ddz.is_legal("3V", "3"),
    ):
        with pytest.raises(ValueError, match=r"hand '3+[SV]' holds cards") as caught:
            call()
        assert "0o" not in str(caught.value)


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_values_copy_and_pickle_to_equal_values(how: str) -> None:
    import copy
    import pickle

    def clone(value: object) -> object:
        if how == "copy":
            return copy.copy(value)
        if how == "deepcopy":
            return copy.deepcopy(value)
        return pickle.loads(pickle.dumps(value))

    moves = [ddz.PASS, *ddz.legal_moves("333444555666XD", rules=ddz.DOUZERO)]
    values: list[object] = [ddz.Cards(), ddz.Cards("33456789TJQKA2XD"), ddz.Cards("3SV"), *moves]
    values += [uno.Card.parse("W+4"), uno.Action.parse("2: play W blue"), Bid("bid", 2)]
    for value in values:
        other = clone(value)
        assert other == value and hash(other) == hash(value) and str(other) == str(value)
