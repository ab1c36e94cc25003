"""The raw entry points: codes into numpy arrays, one hand or many."""

from __future__ import annotations

import contextlib
import random

import numpy as np
import pytest

import ddz
from ddz import batch
from ddz._core import moves as core

from .conftest import DECK


def random_positions(rng: random.Random, count: int, rules: ddz.Rules) -> list[tuple[int, int]]:
    """(hand mask, table code) pairs: leads and answers to a random move of another hand."""
    positions = []
    deck = list(DECK)
    for _ in range(count):
        rng.shuffle(deck)
        hand = ddz.Cards("".join(deck[: rng.choice((17, 20))]))
        other = ddz.legal_moves("".join(deck[20:37]), rules=rules)
        table = rng.choice(list(other)).code if rng.random() < 0.5 else 0
        positions.append((hand.mask, table))
    return positions


@pytest.mark.parametrize("rules", [ddz.CLASSIC, ddz.DOUZERO, ddz.RLCARD])
def test_batch_equals_one_hand_at_a_time(rng: random.Random, rules: ddz.Rules) -> None:
    positions = random_positions(rng, 300, rules)
    hands = np.array([h for h, _ in positions], dtype=np.uint64)
    tables = np.array([t for _, t in positions], dtype=np.uint64)
    codes, offsets = batch.legal_moves_batch(hands, tables, rules=rules)
    assert offsets[0] == 0 and offsets[-1] == len(codes)
    for i, (hand, table) in enumerate(positions):
        expected = [m.code for m in core.legal_moves(hand, table, rules.core_flags)]
        assert codes[offsets[i] : offsets[i + 1]].tolist() == expected
        assert batch.move_codes(hand, table, rules=rules).tolist() == expected


def test_batch_grows_its_buffer_for_rich_hands() -> None:
    rich = ddz.Cards("333444555666777888XD").mask
    codes, _ = batch.legal_moves_batch(np.array([rich] * 3, dtype=np.uint64))
    assert len(codes) == 3 * ddz.legal_moves(ddz.Cards.from_mask(rich)).count() > 64 * 3


def test_moves_into_reports_the_room_it_needs() -> None:
    hand = ddz.Cards("33344456789TJQKA2XD").mask
    total = ddz.legal_moves(ddz.Cards.from_mask(hand)).count()
    small = np.zeros(10, dtype=np.uint64)
    assert batch.moves_into(hand, 0, ddz.CLASSIC, small) == total
    full = np.zeros(total, dtype=np.uint64)
    assert batch.moves_into(hand, 0, ddz.CLASSIC, full) == total
    assert small.tolist() == full[:10].tolist()
    assert batch.moves_into(hand, 0, ddz.CLASSIC, np.zeros(0, dtype=np.uint64)) == total


def test_batch_reports_the_room_it_needs_with_single_readings() -> None:
    hands = batch.hand_masks(["333444555666777888XD", "3456789TJQKA2"])
    offsets = np.zeros(3, dtype=np.int64)
    needed = core.moves_batch(
        hands, np.zeros(2, np.uint64), ddz.DOUZERO.core_flags, np.zeros(5, np.uint64), offsets
    )
    out = np.zeros(needed, np.uint64)
    total = core.moves_batch(hands, np.zeros(2, np.uint64), ddz.DOUZERO.core_flags, out, offsets)
    assert total <= needed
    assert offsets[-1] == total


def test_buffers_are_checked() -> None:
    hand = ddz.Cards("345").mask
    with pytest.raises(TypeError, match="64-bit integers"):
        batch.moves_into(hand, 0, ddz.CLASSIC, np.zeros(8, dtype=np.uint32))
    with pytest.raises(TypeError, match="one-dimensional"):
        batch.moves_into(hand, 0, ddz.CLASSIC, np.zeros((2, 4), dtype=np.uint64))
    with pytest.raises((BufferError, ValueError), match="contiguous"):
        batch.moves_into(hand, 0, ddz.CLASSIC, np.zeros(8, dtype=np.uint64)[::2])
    read_only = np.zeros(8, dtype=np.uint64)
    read_only.flags.writeable = False
    with pytest.raises((BufferError, ValueError)):
        batch.moves_into(hand, 0, ddz.CLASSIC, read_only)
    with pytest.raises(TypeError):
        batch.moves_into(hand, 0, ddz.CLASSIC, [0] * 8)  # type: ignore[arg-type]


def test_bad_hands_and_tables_are_rejected_not_crashed_on() -> None:
    with pytest.raises(ValueError, match="deck does not have"):
        batch.moves_into(5, 0, ddz.CLASSIC, np.zeros(8, np.uint64))  # five 3s
    with pytest.raises(ValueError, match="deck does not have"):
        batch.moves_into(1 << 62, 0, ddz.CLASSIC, np.zeros(8, np.uint64))
    with pytest.raises(ValueError, match="not a move under these rules"):
        batch.moves_into(1, 12345, ddz.CLASSIC, np.zeros(8, np.uint64))
    hands = np.array([1, 5], dtype=np.uint64)
    with pytest.raises(ValueError, match="row 1"):
        batch.legal_moves_batch(hands)
    with pytest.raises(ValueError, match="same length"):
        batch.legal_moves_batch(hands, np.zeros(3, np.uint64))
    with pytest.raises(ValueError, match="impossible chain limits"):
        core.moves_into(1, 0, 0, np.zeros(8, np.uint64))


def test_random_integers_never_crash_the_core(rng: random.Random) -> None:
    out = np.zeros(512, np.uint64)
    for _ in range(20000):
        hand = rng.getrandbits(rng.choice((8, 24, 51, 64)))
        table = rng.getrandbits(64) if rng.random() < 0.5 else 0
        with contextlib.suppress(ValueError):
            core.moves_into(hand, table, ddz.CLASSIC.core_flags, out)


def test_to_moves() -> None:
    codes = batch.move_codes("33", last="2")
    assert [str(m) for m in batch.to_moves(codes)] == ["pass"]


@pytest.mark.parametrize("bad", [True, "2", 2.5, float("nan"), float("inf"), None])
def test_batch_entry_points_refuse_what_is_no_integer(bad: object) -> None:
    from ddz.batch import legal_moves_batch, move_codes, to_moves

    with pytest.raises(TypeError):
        to_moves([bad])  # type: ignore[list-item]
    if not isinstance(bad, str):  # text is a hand in the notation
        with pytest.raises(TypeError):
            move_codes(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        legal_moves_batch([bad])
    with pytest.raises(TypeError):
        legal_moves_batch(np.array([1], dtype=np.uint64), [bad])


def test_batch_entry_points_refuse_negative_numbers() -> None:
    from ddz.batch import legal_moves_batch, move_codes, to_moves

    for call in (
        lambda: to_moves([-1]),
        lambda: move_codes(-1),
        lambda: move_codes("33", -1),
        lambda: legal_moves_batch([-1]),
        lambda: legal_moves_batch(np.array([-1], dtype=np.int64)),
    ):
        with pytest.raises(ValueError):
            call()


def test_legal_moves_batch_takes_ints_and_numpy_integers_mixed() -> None:
    from ddz.batch import legal_moves_batch

    mixed = [ddz.Cards("33").mask, np.uint64(ddz.Cards("4").mask)]
    codes, offsets = legal_moves_batch(mixed)
    assert offsets.tolist() == [0, 2, 3]
    again, _ = legal_moves_batch(np.array(mixed, dtype=np.uint64))
    assert codes.tolist() == again.tolist()
