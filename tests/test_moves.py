"""The Move value, legal_moves and its lazy view, is_legal and why_illegal."""

from __future__ import annotations

import ast
import enum
import pickle
from pathlib import Path

import numpy as np
import pytest

import ddz
from ddz import PASS, Move, MoveType
from ddz._core import moves as core


@pytest.mark.parametrize(
    "text",
    [
        "3",
        "D",
        "XD",
        "22",
        "QQQ",
        "333+4",
        "333+44",
        "34567",
        "334455",
        "333444",
        "333444+57",
        "333444+5566",
        "3333+45",
        "3333+4455",
        "3333",
        "pass",
        "S",
        "V",
    ],
)
def test_str_and_repr_round_trip(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert eval(repr(move), {"Move": Move}) == move
    assert pickle.loads(pickle.dumps(move)) == move
    assert Move.from_code(move.code) == move
    assert hash(move) == hash(Move.parse(text))


def test_reading_fields() -> None:
    move = Move.parse("333444+57")
    assert move.type is MoveType.AIRPLANE_SINGLES
    assert (move.rank, move.rank_name, move.length) == (1, "4", 2)
    assert str(move.cards) == "33344457"
    assert str(move.main) == "333444" and str(move.kickers) == "57"
    straight = Move.parse("TJQKA")
    assert (straight.rank_name, straight.length) == ("A", 5)
    assert PASS.is_pass and PASS.type is MoveType.PASS and PASS.length == 0
    assert not PASS.cards and PASS.rank_name == ""


def test_parse_accepts_loose_notation_and_kickers_in_any_order() -> None:
    assert Move.parse("10 J Q K A") == Move.parse("TJQKA")
    assert Move.parse("444 + 3") == Move.parse("444+3")
    assert Move.parse("33344475") == Move.parse("333444+57")
    assert Move.parse(" Pass ") is PASS


def test_parse_without_plus_prefers_the_reading_without_kickers() -> None:
    assert Move.parse("3333").type is MoveType.BOMB
    assert Move.parse("333444555666").type is MoveType.AIRPLANE
    assert Move.parse("333444555+666").type is MoveType.AIRPLANE_SINGLES


def test_parse_reports_ambiguity_and_nonsense() -> None:
    several = r"several readings; write one of '333444\+34', '3333\+4444', '4444\+3333'"
    with pytest.raises(ValueError, match=several):
        Move.parse("33334444")
    with pytest.raises(ValueError, match="is no move"):
        Move.parse("3456")
    with pytest.raises(ValueError, match="is no move"):
        Move.parse("333+45")
    with pytest.raises(ValueError, match="no kickers after"):
        Move.parse("333+")
    with pytest.raises(ValueError, match="unknown card"):
        Move.parse("33Z")
    with pytest.raises(ValueError, match="is no move"):
        Move.parse("3333+3")
    with pytest.raises(TypeError):
        Move.parse(3)  # type: ignore[arg-type]


def test_from_code_takes_numpy_integers_and_refuses_other_types() -> None:
    # legal_codes() hands out numpy uint64: they are integers like any other
    move = Move.parse("333+4")
    assert Move.from_code(np.uint64(move.code)) == move
    assert Move.from_code(np.int64(move.code)) == move
    for value in (True, np.bool_(True), 2.0, "7", None):
        with pytest.raises(TypeError, match="a move code is an integer"):
            Move.from_code(value)


def test_from_code_rejects_codes_that_are_no_move() -> None:
    for code in (1, 1 << 63, -1, 2**64):
        with pytest.raises(ValueError, match="is not a move code"):
            Move.from_code(code)


def test_moves_are_values() -> None:
    assert Move.parse("33") == Move.parse("33")
    assert Move.parse("33") != Move.parse("44")
    assert Move.parse("33") != "33"
    assert len({Move.parse("33"), Move.parse("33"), PASS}) == 2
    with pytest.raises(AttributeError):
        Move.parse("33").code = 0  # type: ignore[misc]


def test_leads_and_answers() -> None:
    hand = ddz.Cards("3345")
    assert [str(m) for m in ddz.legal_moves(hand)] == ["3", "4", "5", "33"]
    assert [str(m) for m in ddz.legal_moves(hand, last="4")] == ["pass", "5"]
    assert [str(m) for m in ddz.legal_moves(hand, last=PASS)] == ["3", "4", "5", "33"]
    assert [str(m) for m in ddz.legal_moves("3333XD", last="XD")] == ["pass"]
    assert [str(m) for m in ddz.legal_moves("3333XD", last="2222")] == ["pass", "XD"]
    answers = [str(m) for m in ddz.legal_moves("44445", last="3333+KQ")]
    assert answers == ["pass", "4444"]


def test_legal_moves_is_a_lazy_sequence() -> None:
    moves = ddz.legal_moves("33344456789")
    assert "333444" in moves and Move.parse("333+4") in moves
    assert "2" not in moves and "33Z" not in moves and 3 not in moves
    assert moves.count() == len(list(moves)) == len(moves)
    assert moves[0] == Move.parse("3") and moves[-1] == moves[len(moves) - 1]
    assert moves.count(Move.parse("3")) == 1
    assert moves.index(Move.parse("4")) == 1
    assert bool(moves) and list(ddz.legal_moves("3", last="4")) == [ddz.PASS]
    assert str(moves.hand) == "33344456789" and moves.last is None
    assert repr(ddz.legal_moves("34")) == "<LegalMoves 2: 3, 4>"
    from collections.abc import Sequence

    assert isinstance(moves, Sequence)


def test_is_legal_and_why_illegal() -> None:
    hand = "33345"
    assert ddz.is_legal(hand, "333+4")
    assert ddz.is_legal(hand, "4", last="3")
    assert ddz.is_legal(hand, "pass", last="3")
    assert ddz.why_illegal(hand, "pass") == "the leader of a trick cannot pass"
    assert ddz.why_illegal(hand, "3", last="4") == "3 does not beat 4"
    assert ddz.why_illegal(hand, "55") == "55 plays cards the hand does not hold"
    assert ddz.why_illegal("33334445", "333444+35") == "333444+35 is not a move under these rules"
    rules = ddz.CLASSIC.replace(kicker_matches_main=True)
    assert ddz.is_legal("33334445", "333444+35", rules=rules)
    assert ddz.is_legal("3S", "S", last="2", rules=ddz.UNO_LANDLORD)


def test_bad_input_raises_value_error() -> None:
    with pytest.raises(ValueError, match="unknown card"):
        ddz.legal_moves("33Z")
    with pytest.raises(ValueError, match="five 3s"):
        ddz.legal_moves("333334")
    with pytest.raises(ValueError, match="is no move"):
        ddz.legal_moves("3", last="3456")
    with pytest.raises(TypeError):
        ddz.legal_moves(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a move under these rules"):
        ddz.legal_moves("4444", last="333+3")


def test_count_is_exact_when_the_rules_filter_answers() -> None:
    # DouZero's comparison quirks filter the airplanes generated for an answer: count() must
    # count what is kept, not what was generated (found by hypothesis).
    hand, last = "22334455666777", ddz.Move.parse("888999+6T")
    moves = ddz.legal_moves(hand, last, rules=ddz.DOUZERO)
    assert moves.count() == len(list(ddz.legal_moves(hand, last, rules=ddz.DOUZERO))) == 1


def test_the_move_type_stub_lists_the_core_values() -> None:
    # MoveType is built from layout.pxd's values; the stub is written out for type checkers
    # (beside the package's Python files: an editable install keeps the compiled module apart)
    stub = Path(ddz.__file__).parent / "_core" / "moves.pyi"
    tree = ast.parse(stub.read_text())
    (stub_class,) = [
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "MoveType"
    ]
    written = {
        statement.targets[0].id: ast.literal_eval(statement.value)
        for statement in stub_class.body
        if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name)
    }
    assert written == {kind.name: kind.value for kind in MoveType}
    assert [kind.value for kind in MoveType] == list(range(len(MoveType)))
    assert MoveType is core.MoveType and issubclass(MoveType, enum.IntEnum)


def test_legal_moves_are_a_value_pickled_copied_and_compared() -> None:
    import copy
    import pickle

    moves = ddz.legal_moves("33344456", last="4")
    same = ddz.legal_moves("33344456", last="4")
    assert moves == same and hash(moves) == hash(same) and (moves != same) is False
    assert moves != ddz.legal_moves("33344456") and moves != ddz.legal_moves("3334445", last="4")
    assert moves != ddz.legal_moves("33344456", last="4", rules=ddz.RLCARD)
    assert ddz.RLCARD != ddz.CLASSIC
    assert moves != list(moves)  # a value of its own, not a list
    for twin in (pickle.loads(pickle.dumps(moves)), copy.copy(moves), copy.deepcopy(moves)):
        assert twin == moves and list(twin) == list(moves) and twin.rules == moves.rules
        assert "5" in twin and twin.last == moves.last
    assert len({moves, same, copy.deepcopy(moves)}) == 1
