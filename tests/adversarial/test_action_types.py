"""One meaning per argument type, and the errors for the others (issue 9, items 5 and 6).

Every public method of the action spaces (``ddz.ActionSpace``, ``ddz.uno.ActionSpace`` and the
functions behind it), the games' action entry points (``step``, ``push``, ``step_code``,
``push_code``, ``why_illegal``, ``parse_action``, ``player=``) and the vectors' ``step``:

* a value of the wrong type (``None``, a float, a ``bool``, bytes, a list, ...) raises
  ``TypeError`` (for a game's actions ``ddz.errors.ActionTypeError``, which is also an
  ``IllegalMoveError``), never ``ValueError``, ``KeyError`` or ``AttributeError``, and
  changes nothing;
* a numpy integer scalar is taken wherever an ``int`` is, with the same result;
* a ``bool`` is never an index or a code;
* a message quotes the input at most ~80 characters.

Before the fix, ``ActionSpace.index(np.uint64(code))`` (the type ``Game.legal_codes()`` hands
out) raised AttributeError, ``ActionSpace.action(True)`` returned action 1,
``ActionSpace.indices([16.7])`` read code 16, ``mask("33")`` raised AttributeError,
``uno.ActionSpace(2.5)`` made a space of 2.5 players and ``index_of(catch, 0)`` divided by
zero, ``Game.step(3.0)`` raised a plain ValueError, ``Move.from_code(True)`` ValueError.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable

import numpy as np
import pytest

import ddz
from ddz import Bid, IllegalMoveError, Move, uno
from ddz.errors import MAX_ECHO, ActionTypeError
from ddz.uno.actions import action_at, index_of

WRONG_TYPES: list[object] = [
    None,
    3.0,
    2.5,
    np.float64(1.0),
    True,
    False,
    np.bool_(True),
    b"33",
    ["3"],
    {"a": 1},
    object(),
    1 + 2j,
]
"""Values of a type no action, index, code or seat has."""


def _id(value: object) -> str:
    """A test id that is the same in every process (pytest-xdist compares them): an
    ``object()``'s repr holds its address."""
    return "object()" if type(value) is object else repr(value)


NUMPY_INTEGERS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)

SPACE = ddz.ActionSpace(ddz.CLASSIC)
USPACE = uno.ActionSpace(players=4)


def _in_bidding() -> ddz.Game:
    return ddz.Game(seed=1)


def _in_play() -> ddz.Game:
    game = ddz.Game(seed=1)
    while game.phase == "bidding":
        game.step(game.legal_actions()[-1])
    return game


def _uno() -> uno.Game:
    return uno.Game(4, seed=1)


def _short(error: BaseException) -> None:
    assert len(str(error)) <= 2 * MAX_ECHO + 120, str(error)[:300]


# --- the action spaces ------------------------------------------------------------------------

SPACE_CALLS: dict[str, Callable[[object], object]] = {
    "ActionSpace": ddz.ActionSpace,  # type: ignore[dict-item]
    "ActionSpace.index": SPACE.index,  # type: ignore[dict-item]
    "ActionSpace.indices": SPACE.indices,  # type: ignore[dict-item]
    "ActionSpace.action": SPACE.action,  # type: ignore[dict-item]
    "ActionSpace.mask": SPACE.mask,  # type: ignore[dict-item]
    "ActionSpace.legal_mask": SPACE.legal_mask,  # type: ignore[dict-item]
    "Move.from_index": lambda index: Move.from_index(index, ddz.CLASSIC),
    "Move.from_index rules": lambda rules: Move.from_index(1, rules),
    "Move.index rules": lambda rules: Move.parse("3").index(rules),
    "Move.from_code": Move.from_code,
    "Bid.from_code": Bid.from_code,
    "uno.ActionSpace": uno.ActionSpace,  # type: ignore[dict-item]
    "uno.ActionSpace.index": USPACE.index,  # type: ignore[dict-item]
    "uno.ActionSpace.action index": lambda index: USPACE.action(index, 0),  # type: ignore[arg-type]
    "uno.ActionSpace.action player": lambda player: USPACE.action(1, player),  # type: ignore[arg-type]
    "uno.ActionSpace.mask": USPACE.mask,  # type: ignore[dict-item]
    "uno.ActionSpace.mask passing": lambda passing: USPACE.mask([], passing=passing),  # type: ignore[arg-type]
    "uno.index_of action": lambda action: index_of(action, 4),  # type: ignore[arg-type]
    "uno.index_of players": lambda players: index_of(uno.Action(0, "draw"), players),  # type: ignore[arg-type]
    "uno.action_at index": lambda index: action_at(index, 0, 4),  # type: ignore[arg-type]
    "uno.action_at player": lambda player: action_at(61, player, 4),  # type: ignore[arg-type]
    "uno.action_at players": lambda players: action_at(61, 0, players),  # type: ignore[arg-type]
    "uno.Action.from_code": uno.Action.from_code,
}
# Calls that take an iterable: a list of strings is a wrong *element* there, still TypeError.


@pytest.mark.parametrize("name", sorted(SPACE_CALLS))
@pytest.mark.parametrize("value", WRONG_TYPES, ids=_id)
def test_action_spaces_refuse_wrong_types_with_type_error(name: str, value: object) -> None:
    if name == "uno.ActionSpace.mask passing" and isinstance(value, (bool, np.bool_)):
        return  # a bool is what passing takes
    if name == "ActionSpace.indices" and isinstance(value, (list, dict)):
        value = [value]  # a list of a list / dict: still no integers
    with pytest.raises(TypeError) as caught:
        SPACE_CALLS[name](value)
    _short(caught.value)


def test_action_space_index_takes_numpy_codes_and_text() -> None:
    game = _in_play()
    for code, move in zip(game.legal_codes(), game.legal_actions(), strict=True):
        # legal_codes() hands out numpy uint64: they index like the Python int
        expected = SPACE.index(move)
        assert SPACE.index(code) == SPACE.index(int(code)) == expected
        assert SPACE.index(np.int64(code)) == expected if code < 2**63 else True
        assert SPACE.index(str(move)) == expected
    for index in (0, 1, 16, SPACE.num_moves, SPACE.size - 1):
        for kind in NUMPY_INTEGERS:
            if np.iinfo(kind).max >= index:
                assert SPACE.action(kind(index)) == SPACE.action(index)
                if not isinstance(SPACE.action(index), Bid):
                    assert Move.from_index(kind(index), ddz.CLASSIC) == SPACE.action(index)
    codes = game.legal_codes()
    for dtype in (np.uint64, np.int64):
        assert SPACE.indices(codes.astype(dtype)).tolist() == [SPACE.index(int(c)) for c in codes]
    assert SPACE.indices([int(c) for c in codes]).tolist() == SPACE.indices(codes).tolist()
    assert SPACE.indices([]).tolist() == []


def test_action_space_values_are_refused_in_range_not_cast() -> None:
    # numpy would cast these silently: 16.7 -> 16, True -> 1, "16" -> 16, -1 -> 2**64 - 1
    code_of_33 = Move.parse("33").code
    for bad in ([16.7], np.array([code_of_33], dtype=np.float64), [True], np.array([True])):
        with pytest.raises(TypeError):
            SPACE.indices(bad)
    for bad in (["16"], "16", b"16"):
        with pytest.raises(TypeError):
            SPACE.indices(bad)
    for bad in ([-1], np.array([-1]), [2**64], [0, 2**70]):
        with pytest.raises(ValueError):
            SPACE.indices(bad)
    for bad in (-1, 2**64, 10**30):
        with pytest.raises(ValueError):
            SPACE.index(bad)
    for bad in (-1, SPACE.size, np.int64(SPACE.size), 10**30):
        with pytest.raises(ValueError, match="outside"):
            SPACE.action(bad)
    for bad in (-1, USPACE.size, np.int64(USPACE.size), 10**30):  # UNO's alike
        with pytest.raises(ValueError, match="outside"):
            USPACE.action(bad, 0)
    with pytest.raises(ValueError, match="not in the action space"):
        SPACE.mask([Move.parse("33344455")])  # a move, but not under these rules


def test_action_space_messages_quote_at_most_80_characters() -> None:
    text = "3 " * 490 + "Z"  # under the parsers' limit, unreadable
    for call in (SPACE.index, lambda t: USPACE.index("0: " + t)):
        with pytest.raises(ValueError) as caught:
            call(text)
        _short(caught.value)
        assert text not in str(caught.value)
    with pytest.raises(ValueError) as caught:
        SPACE.index("3" * 10_000_000)  # refused on its length, unread
    _short(caught.value)
    padded = " " * 900 + "33344455"  # reads (a move of other rules), quoted short
    with pytest.raises(ValueError) as caught:
        SPACE.index(padded)
    _short(caught.value)


def test_uno_action_space_checks_players_and_seats() -> None:
    for bad in (0, 1, 11, -2, np.int64(11)):
        with pytest.raises(ValueError):
            uno.ActionSpace(bad)  # type: ignore[arg-type]
    space = uno.ActionSpace(np.int64(3))  # type: ignore[arg-type]
    assert type(space.players) is int and space.players == 3
    with pytest.raises(ValueError, match="beyond the 3 players"):
        space.index(uno.Action(5, "draw"))  # seat 5 of a 3-player game
    with pytest.raises(ValueError):
        space.action(61, 3)  # seat 3 of a 3-player game
    with pytest.raises(ValueError):
        space.action(0, 7)  # even for the pass
    with pytest.raises(ValueError):
        index_of(uno.Action(0, "catch", target=1), 0)  # was ZeroDivisionError
    for kind in NUMPY_INTEGERS:
        assert space.action(kind(61), kind(2)) == space.action(61, 2) == uno.Action(2, "draw")
        assert action_at(kind(69), kind(2), kind(3)) == action_at(69, 2, 3)
    action = uno.Action.parse("2: play W+4 green")
    assert space.index(action) == space.index("2: play W+4 green") == space.index(action.code)
    assert space.index(np.uint16(action.code)) == space.index(action)
    with pytest.raises(ValueError):
        space.index("play W+4 green")  # text without its player
    assert space.mask([action], passing=np.bool_(True)).sum() == 2


# --- the games --------------------------------------------------------------------------------

GAME_CALLS: dict[str, Callable[[object], Callable[[object], object]]] = {
    "Game.step": lambda game: game.step,  # type: ignore[attr-defined]
    "Game.push": lambda game: game.push,  # type: ignore[attr-defined]
    "Game.step_code": lambda game: game.step_code,  # type: ignore[attr-defined]
    "Game.push_code": lambda game: game.push_code,  # type: ignore[attr-defined]
    "Game.why_illegal": lambda game: game.why_illegal,  # type: ignore[attr-defined]
    "Game.parse_action": lambda game: game.parse_action,  # type: ignore[attr-defined]
    "Game.step player": lambda game: (
        lambda p: game.step(  # type: ignore[attr-defined]
            game.legal_actions()[0],
            player=p,  # type: ignore[attr-defined]
        )
    ),
}


@pytest.mark.parametrize("make", [_in_bidding, _in_play, _uno], ids=["bidding", "play", "uno"])
@pytest.mark.parametrize("name", sorted(GAME_CALLS))
@pytest.mark.parametrize("value", WRONG_TYPES, ids=_id)
def test_game_action_entry_points_refuse_wrong_types(
    make: Callable[[], ddz.Game | uno.Game], name: str, value: object
) -> None:
    if name == "Game.step player" and value is None:
        return  # player=None: no seat named, nothing to check
    game = make()
    before = game.state_bytes()
    call = GAME_CALLS[name](game)
    with pytest.raises(ActionTypeError) as caught:
        call(value)
    # one error, both families: TypeError for the type, IllegalMoveError for the action
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, IllegalMoveError)
    _short(caught.value)
    assert game.state_bytes() == before


@pytest.mark.parametrize("make", [_in_bidding, _in_play, _uno], ids=["bidding", "play", "uno"])
def test_games_take_numpy_integers_as_they_take_ints(
    make: Callable[[], ddz.Game | uno.Game],
) -> None:
    reference = make()
    indices = [int(i) for i in reference.legal_indices()]
    codes = [int(c) for c in reference.legal_codes()]
    for kind in NUMPY_INTEGERS:
        for index in indices[:3]:
            if np.iinfo(kind).max < index:
                continue
            game, twin = make(), make()
            assert str(game.parse_action(kind(index))) == str(twin.parse_action(index))
            assert game.why_illegal(kind(index)) is None
            game.step(kind(index))
            twin.step(index)
            assert game.state_bytes() == twin.state_bytes()
            game, twin = make(), make()
            game.push(kind(index))
            twin.push(index)
            assert game.state_bytes() == twin.state_bytes()
        for code in codes[:3]:
            if np.iinfo(kind).max < code:
                continue
            game, twin = make(), make()
            game.step_code(kind(code))
            twin.step_code(code)
            assert game.state_bytes() == twin.state_bytes()
            game, twin = make(), make()
            game.push_code(kind(code))
            twin.push_code(code)
            assert game.state_bytes() == twin.state_bytes()
    game, twin = make(), make()
    seat = game.current_player
    assert seat is not None
    game.step(indices[0], player=np.int8(seat))
    twin.step(indices[0], player=seat)
    assert game.state_bytes() == twin.state_bytes()


def test_an_int_means_one_thing_in_every_entry_point_of_a_game() -> None:
    # parse_action takes an index like step and why_illegal (it used to refuse it with a
    # message saying it took one)
    game = _in_bidding()
    space = ddz.ActionSpace(game.rules)
    bid = space.index(Bid("bid", 1))
    assert game.parse_action(bid) == Bid("bid", 1) == space.action(bid)
    assert game.parse_action(0) == Bid("pass")  # the pass, in the phase's own type
    assert _in_play().parse_action(0) == ddz.PASS
    assert game.why_illegal(bid) is None
    assert game.step(np.int64(bid)).action == Bid("bid", 1)
    for bad in (-1, space.size, 10**30):
        for call in (game.parse_action, game.step, game.push):
            with pytest.raises(IllegalMoveError, match="outside"):
                call(bad)
        assert "outside" in (game.why_illegal(bad) or "")


def test_why_illegal_answers_for_unreadable_values_and_raises_for_wrong_types() -> None:
    for game in (_in_bidding(), _uno()):
        assert game.why_illegal("no such action") is not None
        assert game.why_illegal("3" * 5000) is not None
        assert game.why_illegal(10**6) is not None
        with pytest.raises(TypeError):
            game.why_illegal(3.5)  # type: ignore[arg-type]


def test_uno_match_refuses_wrong_types_and_changes_nothing() -> None:
    match = uno.Match(3, seed=2)
    before = pickle.dumps(match)
    for value in WRONG_TYPES:
        for call in (match.step, match.push, match.push_code):
            with pytest.raises(TypeError):
                call(value)  # type: ignore[arg-type]
        assert pickle.dumps(match) == before
    index = match.game.legal_indices()[0]
    other = pickle.loads(before)
    match.step(np.uint8(index))
    other.step(int(index))
    assert match.to_json() == other.to_json()


# --- the vectors ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["ddz", "uno"])
def test_vector_step_refuses_wrong_types_and_takes_every_integer_dtype(kind: str) -> None:
    vector: ddz.VectorGame | uno.VectorGame = (
        ddz.VectorGame(3, seed=4) if kind == "ddz" else uno.VectorGame(3, players=3, seed=4)
    )
    legal = vector.sample_legal()
    before = pickle.dumps(vector)
    for bad in (
        legal.astype(np.float64),
        legal.astype(bool),
        [str(a) for a in legal],
        [None, None, None],
        [1.5, 2.5, 3.5],
    ):
        with pytest.raises(TypeError):
            vector.step(bad)
        assert pickle.dumps(vector) == before
    results = []
    for dtype in (np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64):
        copy = pickle.loads(before)
        rewards, done = copy.step(legal.astype(dtype))
        results.append((rewards.tolist(), done.tolist(), pickle.dumps(copy)))
    copy = pickle.loads(before)
    rewards, done = copy.step([int(a) for a in legal])
    assert all(r == (rewards.tolist(), done.tolist(), pickle.dumps(copy)) for r in results)
