"""Check the reference move generator against DouZero 1.1.0 and RLCard 1.2.0.

A script, not a pytest test:

    python tests/check_golden_reference.py              # the golden files only
    python tests/check_golden_reference.py --probe 2000 # also random hands against the live engines
    python tests/check_golden_reference.py --rlcard-table  # RLCard's 27,471 moves, both ways

Golden lines (tests/data/golden-*.jsonl.gz) hold a hand, an optional move to answer and the distinct
moves each engine offers (for an answer: every move but the pass). The table's move is read the
way the engine reads it: its first reading by ``reference.PRIORITY`` under the engine's options
with every reading allowed. ``--probe`` and ``--rlcard-table`` need ``douzero`` and ``rlcard``
installed; with them, the script also checks that this reading agrees with the engine's own
(DouZero's ``get_move_type``, RLCard's ``CARD_TYPE``).

Exit status 0 when everything matches.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import reference as ref

GOLDEN = Path(__file__).resolve().parent / "data"
ENGINES = {"douzero": ref.DOUZERO_OPTIONS, "rlcard": ref.RLCARD_OPTIONS}


def engine_rules(engine: str, **changes: Any) -> SimpleNamespace:
    return ref.make_rules(**{**ENGINES[engine], **changes})


def table_reading(cards: str, engine: str) -> ref.Reading | None:
    """How the engine reads the table's move: its first reading by PRIORITY."""
    readings = ref.classify(ref.parse(cards), engine_rules(engine, multiple_readings=True))
    return readings[0] if readings else None


def offered(hand: str, last: str | None, engine: str) -> set[str]:
    """The reference's distinct move multisets (no pass), as card strings."""
    reading = None if last is None else table_reading(last, engine)
    if last is not None and reading is None:
        raise ValueError(f"{engine} cannot read the table's move {last!r}")
    found = ref.moves(ref.parse(hand), reading, engine_rules(engine))
    return {ref.fmt(move.cards) for move in found if move.type != "PASS"}


def report(
    engine: str, where: str, hand: str, last: str | None, got: set[str], want: set[str]
) -> None:
    print(f"{engine} {where}: hand {hand} last {last}")
    print(f"    reference only: {sorted(got - want)}")
    print(f"    {engine} only:  {sorted(want - got)}")


def check_golden() -> int:
    """Every golden line under both option sets; returns the number of mismatches."""
    failures = 0
    for name in ("random", "rich"):
        with gzip.open(GOLDEN / f"golden-{name}.jsonl.gz", "rt") as file:
            lines = file.read().splitlines()
        for engine in ENGINES:
            matched = 0
            for number, line in enumerate(lines, 1):
                case = json.loads(line)
                want = set(case[engine])
                got = offered(case["hand"], case["last"], engine)
                if got == want and len(want) == len(case[engine]):
                    matched += 1
                else:
                    failures += 1
                    where = f"golden-{name}.jsonl.gz:{number}"
                    report(engine, where, case["hand"], case["last"], got, want)
            print(f"golden-{name}.jsonl.gz {engine}: {matched}/{len(lines)} lines match")
    return failures


# --- the live engines --------------------------------------------------------------------

DOUZERO_CARD = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]
RLCARD_CHAR = "3456789TJQKA2BR"


def douzero_cards(cards: str) -> list[int]:
    return sorted(DOUZERO_CARD[ref.RANKS.index(char)] for char in cards)


def from_douzero(cards: list[int]) -> str:
    return ref.fmt(ref.Counter(DOUZERO_CARD.index(card) for card in cards))


def douzero_offered(hand: str, last: str | None) -> set[str]:
    """DouZero's GameEnv.get_legal_card_play_actions for one hand and table move."""
    from douzero.env.game import GameEnv

    seat = "landlord"
    env = SimpleNamespace(
        info_sets={seat: SimpleNamespace(player_hand_cards=douzero_cards(hand))},
        acting_player_position=seat,
        card_play_action_seq=[] if last is None else [douzero_cards(last)],
    )
    return {from_douzero(move) for move in GameEnv.get_legal_card_play_actions(env) if move}


def douzero_type(cards: str) -> dict[str, int]:
    from douzero.env import move_detector

    return move_detector.get_move_type(douzero_cards(cards))


def rlcard_string(cards: str) -> str:
    return "".join(RLCARD_CHAR[ref.RANKS.index(char)] for char in cards)


def from_rlcard(cards: str) -> str:
    return ref.fmt(ref.Counter(RLCARD_CHAR.index(char) for char in cards))


def rlcard_offered(hand: str, last: str | None) -> set[str]:
    """RLCard's legal actions: the judger's playable cards when leading, get_gt_cards else."""
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards

    if last is None:
        found = DoudizhuJudger.playable_cards_from_hand(rlcard_string(hand))
    else:
        cards = [SimpleNamespace(rank=char, suit="S") for char in rlcard_string(hand)]
        for card in cards:
            if card.rank in "BR":
                card.rank, card.suit = "", card.rank + "J"
        player = SimpleNamespace(current_hand=cards)
        found = get_gt_cards(player, SimpleNamespace(played_cards=rlcard_string(last)))
    return {from_rlcard(move) for move in found if move != "pass"}


DOUZERO_TYPES = {
    1: "SINGLE",
    2: "PAIR",
    3: "TRIO",
    4: "BOMB",
    5: "ROCKET",
    6: "TRIO_SINGLE",
    7: "TRIO_PAIR",
    8: "STRAIGHT",
    9: "PAIR_STRAIGHT",
    10: "AIRPLANE",
    11: "AIRPLANE_SINGLES",
    12: "AIRPLANE_PAIRS",
    13: "FOUR_TWO_SINGLES",
    14: "FOUR_TWO_PAIRS",
    15: "WRONG",
}


def check_reading(cards: str, engine: str) -> str | None:
    """Why the engine reads ``cards`` differently from table_reading, or None."""
    reading = table_reading(cards, engine)
    if engine == "douzero":
        found = douzero_type(cards)
        kind = DOUZERO_TYPES[found["type"]]
        if kind == "WRONG" and reading is not None and ref.heavy_wings(reading):
            return None  # DouZero offers it but cannot type it: only bombs answer it
        if reading is None or kind != reading.type or found.get("len", 1) != reading.length:
            return f"douzero reads {cards} as {kind} {found}, reference {reading}"
        return None
    from rlcard.games.doudizhu.utils import CARD_TYPE

    types = CARD_TYPE[0].get(rlcard_string(cards))
    if reading is None or types is None:
        return None if reading is types else f"rlcard reads {cards} as {types}, ref {reading}"
    return None


def random_hand(rng: random.Random, rich: bool) -> str:
    deck = [rank for rank in range(13) for _ in range(4)] + [13, 14]
    size = rng.choice((17, 20))
    if not rich:
        return ref.fmt(ref.Counter(rng.sample(deck, size)))
    # rich: whole trios and quads of a few neighbouring ranks, then jokers, then the rest
    picked: list[int] = []
    low = rng.randrange(12)
    for rank in range(low, min(low + rng.randrange(2, 6), 13)):
        picked += [rank] * rng.choice((3, 3, 4))
    picked += [13, 14][: rng.randrange(3)]
    rest = list((ref.Counter(deck) - ref.Counter(picked)).elements())
    picked += rng.sample(rest, max(0, size - len(picked)))
    return ref.fmt(ref.Counter(picked[:size]))


CRAFTED = [
    # hands whose leads show where the engines differ (docs/rules.md#engines-differ), then
    # table moves to answer
    ("333345", None),
    ("33334455", None),
    ("333344", None),
    ("3333XD", None),
    ("33334444", None),
    ("333444XD", None),
    ("3334445555", None),
    ("33344455", None),
    ("3334445556667777", None),
    ("3334445556667779", None),
    ("333444555999JQKA2XD", None),
    ("333444555666777888XD", None),
    ("33344455566677788899", None),
    ("3334445552222XD", None),
    ("444555666777789JJJQ2", "333444555999"),  # DouZero ranks it by its highest trio, 9
    ("444555666777789JJJQ2", "3334445558TK"),  # 444555666777 answers as a 3-trio airplane
    ("444555666777789JJJQ2", "333444555666"),
    ("333444555666777888XD", "3334445556667779"),  # DouZero: heavy wings, only bombs
    ("4444555566667777", "3334445556667777"),
    ("3334445556667779JQKA", "4445556667778TJQ"),
    ("333444555666999JQKA", "4445556667778TJQ"),
    ("33334444555566667777", "33334455"),
    ("3333444455XD", "4444XD"),
    ("333444555666777888XD", "XD"),
    ("33334444XD", "5555"),
]


def crafted() -> int:
    """The CRAFTED cases against the live engines; returns mismatches."""
    failures = 0
    for hand, last in CRAFTED:
        for engine, live in (("douzero", douzero_offered), ("rlcard", rlcard_offered)):
            if last is not None and engine == "rlcard" and table_reading(last, engine) is None:
                continue  # not an RLCard move: it never reaches the table
            want = live(hand, last)
            got = offered(hand, last, engine)
            if got != want:
                failures += 1
                report(engine, "crafted", hand, last, got, want)
    print(f"crafted: {len(CRAFTED)} cases, {failures} mismatches")
    return failures


def probe(count: int, seed: int) -> int:
    """Random hands and table moves against the live engines; returns mismatches."""
    rng = random.Random(seed)
    failures = 0
    heavy = 0
    for case in range(count):
        hand = random_hand(rng, rich=case % 2 == 1)
        for engine, live in (("douzero", douzero_offered), ("rlcard", rlcard_offered)):
            leads = sorted(live(hand, None))
            want = set(leads)
            got = offered(hand, None, engine)
            if got != want:
                failures += 1
                report(engine, f"probe {case} lead", hand, None, got, want)
            # a table move: one the engine offers from another hand, often a long one
            other = sorted(live(random_hand(rng, rich=case % 4 > 1), None), key=len)
            size = rng.choice((1, 8, 12))
            last = rng.choice([cards for cards in other if len(cards) >= size] or other)
            problem = check_reading(last, engine)
            if problem:
                failures += 1
                print(problem)
                continue
            reading = table_reading(last, engine)
            heavy += engine == "douzero" and reading is not None and ref.heavy_wings(reading)
            want = live(hand, last)
            got = offered(hand, last, engine)
            if got != want:
                failures += 1
                report(engine, f"probe {case} answer", hand, last, got, want)
    print(
        f"probe: {count} hands, {failures} mismatches "
        f"({heavy} DouZero table moves with heavy wings)"
    )
    return failures


def check_rlcard_table() -> int:
    """RLCard's action table equals the multisets the RLCARD options accept (<= 20 cards)."""
    from rlcard.games.doudizhu.utils import CARD_TYPE

    rules = engine_rules("rlcard")
    table = {from_rlcard(action) for action in CARD_TYPE[0]}
    failures = 0
    for cards in sorted(table):
        readings = ref.classify(ref.parse(cards), rules)
        if not readings:
            failures += 1
            print(f"rlcard table move {cards} has no reading")
    deck = ref.Counter({rank: 4 for rank in range(13)} | {13: 1, 14: 1})
    ours = {ref.fmt(m.cards) for m in ref.moves(deck, None, rules) if sum(m.cards) <= 20}
    for cards in sorted(ours - table):
        failures += 1
        print(f"reference move {cards} is not in rlcard's table")
    print(
        f"rlcard table: {len(table)} moves, reference {len(ours)} (<= 20 cards), "
        f"{failures} mismatches"
    )
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--probe",
        type=int,
        default=0,
        metavar="N",
        help="also compare N random hands with the live engines",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rlcard-table", action="store_true", help="also compare RLCard's whole action table"
    )
    args = parser.parse_args()
    failures = check_golden()
    if args.probe:
        failures += crafted()
        failures += probe(args.probe, args.seed)
    if args.rlcard_table:
        failures += check_rlcard_table()
    print("all match" if failures == 0 else f"{failures} mismatches")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
