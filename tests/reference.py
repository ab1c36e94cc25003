"""A slow, obviously correct reference move generator for Dou Dizhu (docs/rules.md#combinations).

Pure Python on purpose: ``collections.Counter`` and plain loops, no bit tricks,
no numpy, no import of ``ddz``. The fast core is checked against this module.

Conventions (the core uses exactly these):

- Rank indices 0..16 are the characters of :data:`RANKS`: ``3`` is 0, ``A`` is 11, ``2`` is 12,
  ``X`` (small joker) 13, ``D`` (big joker) 14, ``S`` (Skip) 15, ``V`` (Reverse) 16.
- A :class:`Reading` is ``(type, rank, length, cards)`` with ``cards`` a 17-tuple of counts.
  ``rank`` is the main rank: the highest rank of a chain (for an airplane, of its trio chain),
  the trio or quad rank of a kicker type, 14 for the rocket, 0 for PASS, SKIP and REVERSE
  (one option, for DouZero, ranks an airplane with single wings by a higher wing trio).
  ``length`` is the number of ranks of a chain, 0 for PASS and 1 for everything else.

Rule options are read by attribute name from any object with the fields of ``ddz.Rules``
(:func:`make_rules` builds such an object without ``ddz``). Options that ``ddz.Rules`` may
not have yet are read with a default (see :data:`EXTRA_DEFAULTS`).

Cards that the rules' deck does not hold (more than four of a rank, an excluded rank, an
action card when ``action_cards`` is 0) make a multiset that has no reading.

>>> rules = make_rules()
>>> [(r.type, r.rank, r.length) for r in classify(parse("33344456"), rules)]
[('AIRPLANE_SINGLES', 1, 2)]
>>> [(r.type, r.rank, r.length) for r in classify(parse("333444555666"), rules)]
[('AIRPLANE', 3, 4)]
>>> loose = make_rules(single_kickers_distinct=False, trio_as_wings=True)
>>> [(r.type, r.rank, r.length) for r in classify(parse("333444555666"), loose)]
[('AIRPLANE', 3, 4), ('AIRPLANE_SINGLES', 3, 3), ('AIRPLANE_SINGLES', 2, 3)]
>>> sorted(fmt(m.cards) for m in moves(parse("3334"), None, rules))
['3', '33', '333', '3334', '4']
>>> sorted(fmt(m.cards) for m in moves(parse("44455XD"), classify(parse("3335"), rules)[0], rules))
['', '4445', '444D', '444X', 'XD']
"""

from __future__ import annotations

from collections import Counter, namedtuple
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

RANKS = "3456789TJQKA2XDSV"
"""One character per rank index, low to high."""

ACE = 11  # the highest rank a chain may hold
TWO = 12
SMALL_JOKER = 13
BIG_JOKER = 14
SKIP_CARD = 15
REVERSE_CARD = 16
NUM_RANKS = 17

Reading = namedtuple("Reading", ["type", "rank", "length", "cards"])
"""One way to read a multiset of cards as a move."""

TYPES = (
    "PASS",
    "SINGLE",
    "PAIR",
    "TRIO",
    "TRIO_SINGLE",
    "TRIO_PAIR",
    "STRAIGHT",
    "PAIR_STRAIGHT",
    "AIRPLANE",
    "AIRPLANE_SINGLES",
    "AIRPLANE_PAIRS",
    "FOUR_TWO_SINGLES",
    "FOUR_TWO_PAIRS",
    "BOMB",
    "ROCKET",
    "SKIP",
    "REVERSE",
)

PRIORITY = (
    "PASS",
    "SKIP",
    "REVERSE",
    "ROCKET",
    "BOMB",
    "SINGLE",
    "PAIR",
    "TRIO",
    "STRAIGHT",
    "PAIR_STRAIGHT",
    "AIRPLANE",
    "TRIO_SINGLE",
    "TRIO_PAIR",
    "AIRPLANE_SINGLES",
    "AIRPLANE_PAIRS",
    "FOUR_TWO_SINGLES",
    "FOUR_TWO_PAIRS",
)
"""Order of readings. With ``multiple_readings`` off a multiset keeps only its first reading:
the first type in this list (bombs and plain chains before kicker types), and among readings
of that type the one with the highest rank. This is how DouZero 1.1.0 types the table's move
(``move_detector.get_move_type``: ``333444555666`` is a four-trio airplane, not three trios
with wings). Under RLCard's options no multiset has two readings."""

NO_CARDS = (0,) * NUM_RANKS
PASS = Reading("PASS", 0, 0, NO_CARDS)

CLASSIC_DEFAULTS: dict[str, Any] = {
    "excluded_ranks": "",
    "action_cards": 0,
    "four_with_two": True,
    "single_kickers_distinct": True,
    "pair_kickers_distinct": True,
    "kicker_matches_main": False,
    "rocket_as_kickers": False,
    "quad_as_wings": False,
    "trio_as_wings": False,
    "min_straight": 5,
    "max_straight": 12,
    "min_pair_straight": 3,
    "max_pair_straight": 12,
    "min_airplane": 2,
    "max_airplane": 12,
    "multiple_readings": True,
}
"""The move options of ``ddz.CLASSIC`` (src/ddz/rules.py)."""

EXTRA_DEFAULTS: dict[str, Any] = {
    # With trio_as_wings: may a wing trio sit right next to the trio chain, so that the
    # trios together form a longer chain (333444555+666, 333444555666+7778)? RLCard: no.
    "trio_wings_adjacent": True,
    # An airplane with single wings is ranked by the highest rank held exactly three times in
    # the move, a wing trio included (333444555+999 has rank 9). DouZero: yes.
    "airplane_rank_includes_wing_trios": False,
    # Only a bomb or the rocket answers an airplane with single wings that holds four cards of
    # one rank, or, with four or more trios in the chain, more trios than the chain has: DouZero
    # offers such moves but cannot type them (get_move_type: TYPE_15_WRONG). DouZero: yes.
    "bombs_only_on_heavy_wings": False,
}
"""Options this reference knows that ``ddz.Rules`` may lack; read with these defaults."""

DOUZERO_OPTIONS: dict[str, Any] = {
    "single_kickers_distinct": False,
    "rocket_as_kickers": True,
    "quad_as_wings": True,
    "trio_as_wings": True,
    "trio_wings_adjacent": True,
    "airplane_rank_includes_wing_trios": True,
    "bombs_only_on_heavy_wings": True,
    "multiple_readings": True,
}
"""DouZero 1.1.0 (douzero.env): the options that differ from CLASSIC."""

RLCARD_OPTIONS: dict[str, Any] = {
    "single_kickers_distinct": False,
    "trio_as_wings": True,
    "trio_wings_adjacent": False,
    "max_pair_straight": 10,
    "max_airplane": 6,
    "multiple_readings": False,
}
"""RLCard 1.2.0 (rlcard.games.doudizhu): the options that differ from CLASSIC."""


def make_rules(**overrides: Any) -> SimpleNamespace:
    """A stand-in for ``ddz.Rules``: CLASSIC's move options with some changed.

    >>> make_rules(four_with_two=False).four_with_two
    False
    """
    unknown = set(overrides) - set(CLASSIC_DEFAULTS) - set(EXTRA_DEFAULTS)
    if unknown:
        raise TypeError(f"unknown rule options: {sorted(unknown)}")
    return SimpleNamespace(**{**CLASSIC_DEFAULTS, **EXTRA_DEFAULTS, **overrides})


def option(rules: Any, name: str) -> Any:
    """The value of one rule option (the defaults of :data:`EXTRA_DEFAULTS` if missing)."""
    if name in EXTRA_DEFAULTS:
        return getattr(rules, name, EXTRA_DEFAULTS[name])
    return getattr(rules, name)


# --- cards -------------------------------------------------------------------------------


def parse(text: str) -> Counter[int]:
    """A card string such as ``"33344456"`` as a Counter of rank indices (spaces ignored).

    >>> parse("3XD3")
    Counter({0: 2, 13: 1, 14: 1})
    """
    counts: Counter[int] = Counter()
    for position, char in enumerate(text):
        if char == " ":
            continue
        if char not in RANKS:
            raise ValueError(f"bad card {char!r} at position {position} in {text!r}")
        counts[RANKS.index(char)] += 1
    return counts


def to_counts(cards: Any) -> tuple[int, ...]:
    """A 17-tuple of counts from a Counter/dict of rank indices, a 17-sequence or a string."""
    if isinstance(cards, str):
        cards = parse(cards)
    if isinstance(cards, dict):
        counts = [0] * NUM_RANKS
        for rank, count in cards.items():
            counts[rank] += count
        return tuple(counts)
    counts = tuple(cards)
    if len(counts) != NUM_RANKS:
        raise ValueError(f"need {NUM_RANKS} counts, got {len(counts)}")
    return counts


def fmt(cards: Any) -> str:
    """Canonical notation, low to high: ``fmt(parse("D33")) == "33D"``."""
    counts = to_counts(cards)
    return "".join(RANKS[rank] * counts[rank] for rank in range(NUM_RANKS))


def deck_counts(rules: Any) -> tuple[int, ...]:
    """How many cards of each rank the rules' deck holds."""
    deck = [4] * 13 + [1, 1] + [rules.action_cards] * 2
    for char in rules.excluded_ranks:
        deck[RANKS.index(char)] = 0
    return tuple(deck)


def minus(counts: tuple[int, ...], removed: dict[int, int]) -> tuple[int, ...]:
    """``counts`` less ``removed`` (a count may go negative: the caller checks)."""
    return tuple(counts[rank] - removed.get(rank, 0) for rank in range(NUM_RANKS))


# --- classify ----------------------------------------------------------------------------


def is_run(ranks: list[int]) -> bool:
    """Consecutive ranks within 3..A."""
    return ranks[-1] <= ACE and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def plain_readings(counts: tuple[int, ...], rules: Any) -> list[Reading]:
    """Readings without kickers: single, pair, trio, bomb, rocket, chains, action cards."""
    ranks = [rank for rank in range(NUM_RANKS) if counts[rank]]
    widths = {counts[rank] for rank in ranks}
    if len(widths) != 1:
        return []
    width = widths.pop()
    top = ranks[-1]
    if len(ranks) == 1:
        rank = ranks[0]
        if width == 1:
            kind = {SKIP_CARD: "SKIP", REVERSE_CARD: "REVERSE"}.get(rank, "SINGLE")
            return [Reading(kind, 0 if kind != "SINGLE" else rank, 1, counts)]
        if rank <= TWO:
            kind = {2: "PAIR", 3: "TRIO", 4: "BOMB"}[width]
            return [Reading(kind, rank, 1, counts)]
        return []
    if ranks == [SMALL_JOKER, BIG_JOKER]:
        return [Reading("ROCKET", BIG_JOKER, 1, counts)]
    chains = {
        1: ("STRAIGHT", rules.min_straight, rules.max_straight),
        2: ("PAIR_STRAIGHT", rules.min_pair_straight, rules.max_pair_straight),
        3: ("AIRPLANE", rules.min_airplane, rules.max_airplane),
    }
    if width in chains and is_run(ranks):
        kind, shortest, longest = chains[width]
        if shortest <= len(ranks) <= longest:
            return [Reading(kind, top, len(ranks), counts)]
    return []


KICKER_TYPES = (
    # type, cards per main rank, chain?, kicker kind, kickers per main rank
    ("TRIO_SINGLE", 3, False, "single", 1),
    ("TRIO_PAIR", 3, False, "pair", 1),
    ("AIRPLANE_SINGLES", 3, True, "single", 1),
    ("AIRPLANE_PAIRS", 3, True, "pair", 1),
    ("FOUR_TWO_SINGLES", 4, False, "single", 2),
    ("FOUR_TWO_PAIRS", 4, False, "pair", 2),
)


def main_parts(rules: Any, chain: bool) -> list[list[int]]:
    """Every possible main part as a list of ranks: one rank 3..2, or a run of trios."""
    if not chain:
        return [[rank] for rank in range(TWO + 1)]
    return [
        list(range(low, low + length))
        for length in range(rules.min_airplane, rules.max_airplane + 1)
        for low in range(ACE + 2 - length)
    ]


def single_kickers_ok(kickers: Counter[int], main: list[int], rules: Any, chain: bool) -> bool:
    """The single kickers (airplane wings, trio + one, four + two) are allowed."""
    if any(rank > BIG_JOKER for rank in kickers):
        return False  # action cards are never kickers
    if not rules.kicker_matches_main and any(rank in main for rank in kickers):
        return False
    if kickers[SMALL_JOKER] and kickers[BIG_JOKER] and not rules.rocket_as_kickers:
        return False
    for rank, count in kickers.items():
        if count == 1:
            continue
        if rules.single_kickers_distinct:
            return False
        if count == 3:
            if not (chain and rules.trio_as_wings):
                return False
            adjacent = rank in (main[0] - 1, main[-1] + 1) and rank <= ACE
            if adjacent and not option(rules, "trio_wings_adjacent"):
                return False
        if count >= 4 and not (chain and rules.quad_as_wings):
            return False
    return True


def pair_kickers_ok(kickers: Counter[int], main: list[int], rules: Any) -> bool:
    """The pair kickers (airplane wings, trio + pair, four + two pairs) are allowed."""
    for rank, count in kickers.items():
        if rank > TWO or count % 2:
            return False  # jokers and action cards never pair
        if count > 2 and rules.pair_kickers_distinct:
            return False
        if rank in main and not rules.kicker_matches_main:
            return False
    return True


def kicker_readings(counts: tuple[int, ...], rules: Any) -> list[Reading]:
    """Readings as a main part (trio, quad or trio chain) plus kickers."""
    total = sum(counts)
    found = []
    for kind, width, chain, kicker_kind, per_main in KICKER_TYPES:
        if kind.startswith("FOUR") and not rules.four_with_two:
            continue
        kicker_width = 1 if kicker_kind == "single" else 2
        for main in main_parts(rules, chain):
            if total != len(main) * (width + per_main * kicker_width):
                continue
            if any(counts[rank] < width for rank in main):
                continue
            rest = minus(counts, dict.fromkeys(main, width))
            kickers = Counter({rank: count for rank, count in enumerate(rest) if count})
            if kicker_kind == "single":
                if not single_kickers_ok(kickers, main, rules, chain):
                    continue
            elif not pair_kickers_ok(kickers, main, rules):
                continue
            found.append(Reading(kind, main[-1], len(main) if chain else 1, counts))
    return found


def priority(reading: Reading) -> tuple[int, int]:
    """Sort key: see :data:`PRIORITY`."""
    return (PRIORITY.index(reading.type), -reading.rank)


def classify(cards: Any, rules: Any) -> list[Reading]:
    """Every reading of a multiset under the rules, first by :data:`PRIORITY`; [] if none.

    With ``multiple_readings`` off, only the first reading is kept.

    >>> classify(parse(""), make_rules()) == [PASS]
    True
    >>> classify(parse("34567"), make_rules(min_straight=6))
    []
    """
    counts = to_counts(cards)
    if any(count > limit for count, limit in zip(counts, deck_counts(rules), strict=True)):
        return []
    if sum(counts) == 0:
        return [PASS]
    readings = set(plain_readings(counts, rules)) | set(kicker_readings(counts, rules))
    ordered = sorted(readings, key=priority)
    if not rules.multiple_readings:
        return ordered[:1]
    return ordered


# --- compare -----------------------------------------------------------------------------


def heavy_wings(reading: Reading) -> bool:
    """An airplane with single wings that holds four cards of one rank (a wing quad), or whose
    chain has four or more trios and that holds more ranks three times than the chain has (a
    wing trio). With ``bombs_only_on_heavy_wings`` only bombs and the rocket answer it."""
    if reading.type != "AIRPLANE_SINGLES":
        return False
    trios = reading.cards.count(3)
    return 4 in reading.cards or (reading.length >= 4 and trios > reading.length)


def comparison_rank(reading: Reading, rules: Any) -> int:
    """The rank a move compares by: its main rank, except that with
    ``airplane_rank_includes_wing_trios`` an airplane with single wings counts its highest
    rank held exactly three times, wing trios included (DouZero's
    ``filter_type_11_serial_3_1``)."""
    if reading.type == "AIRPLANE_SINGLES" and option(rules, "airplane_rank_includes_wing_trios"):
        trios = [rank for rank, count in enumerate(reading.cards) if count == 3]
        return max([reading.rank, *trios])
    return reading.rank


def beats(a: Reading, b: Reading, rules: Any = None) -> bool:
    """Whether move ``a`` beats the table's move ``b`` (under ``rules``' comparison options,
    when given).

    Same type and length and a higher rank; a bomb beats every non-bomb and lower bombs; the
    rocket beats everything. PASS, SKIP and REVERSE beat nothing and are never beaten (they
    never stay on the table).
    """
    idle = ("PASS", "SKIP", "REVERSE")
    if a.type in idle or b.type in idle:
        return False
    if b.type == "ROCKET":
        return False
    if a.type == "ROCKET":
        return True
    if a.type == "BOMB" and b.type != "BOMB":
        return True
    if rules is not None:
        if option(rules, "bombs_only_on_heavy_wings") and heavy_wings(b):
            return a.type == "BOMB" and b.type == "BOMB" and a.rank > b.rank
        a_rank, b_rank = comparison_rank(a, rules), comparison_rank(b, rules)
    else:
        a_rank, b_rank = a.rank, b.rank
    return a.type == b.type and a.length == b.length and a_rank > b_rank


# --- generate ----------------------------------------------------------------------------


def fits(part: dict[int, int], hand: tuple[int, ...]) -> bool:
    """Whether the hand holds every card of ``part``."""
    return all(hand[rank] >= count for rank, count in part.items())


def sub_multisets(
    available: tuple[int, ...], groups: int, width: int, start: int = 0
) -> Iterator[dict[int, int]]:
    """Every way to take ``groups`` groups of ``width`` equal cards from ``available``
    (groups of one rank may repeat), as dicts rank -> cards taken."""
    if groups == 0:
        yield {}
        return
    for rank in range(start, NUM_RANKS):
        for taken in range(1, min(groups, available[rank] // width) + 1):
            for rest in sub_multisets(available, groups - taken, width, rank + 1):
                yield {rank: taken * width, **rest}


def candidates(hand: tuple[int, ...]) -> set[tuple[int, ...]]:
    """A superset of every multiset in the hand that could be a move under some rules.

    Loose on purpose: :func:`classify` alone decides what is a move.
    """
    held = [rank for rank in range(NUM_RANKS) if hand[rank]]
    found: list[dict[int, int]] = []
    # no kickers: n of a kind, the rocket, chains of singles, pairs and trios
    for rank in held:
        found.extend({rank: width} for width in range(1, hand[rank] + 1))
    found.append({SMALL_JOKER: 1, BIG_JOKER: 1})
    runs = []
    for width in (1, 2, 3):
        for low in range(ACE + 1):
            for high in range(low + 1, ACE + 1):
                if all(hand[rank] >= width for rank in range(low, high + 1)):
                    runs.append((width, list(range(low, high + 1))))
                    found.append(dict.fromkeys(range(low, high + 1), width))
    # main part + kickers: a trio, a quad or a trio chain, then any kickers of the right count
    mains = [(3, [rank]) for rank in held] + [(4, [rank]) for rank in held]
    mains += [(width, main) for width, main in runs if width == 3]
    for width, main in mains:
        main_part = dict.fromkeys(main, width)
        if not fits(main_part, hand):
            continue
        rest = minus(hand, main_part)
        count = 2 if width == 4 else len(main)
        for kicker_width in (1, 2):
            for kickers in sub_multisets(rest, count, kicker_width):
                found.append(dict(Counter(main_part) + Counter(kickers)))
    return {to_counts(part) for part in found if fits(part, hand)}


def moves(hand: Any, last: Reading | None, rules: Any) -> set[Reading]:
    """Every legal move: every lead when ``last`` is None, else every reading that beats
    ``last``, the PASS reading, and any action card held (played whether leading or not)."""
    counts = to_counts(hand)
    leads: set[Reading] = set()
    for part in candidates(counts):
        leads.update(classify(part, rules))
    leads.discard(PASS)
    if last is None:
        return leads
    answers = {move for move in leads if beats(move, last, rules)}
    answers |= {move for move in leads if move.type in ("SKIP", "REVERSE")}
    answers.add(PASS)
    return answers
