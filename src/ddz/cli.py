"""The command line: ``python -m ddz COMMAND``.

``moves HAND [--last MOVE] [--rules NAME]``
    every legal move of a hand, grouped by type (leads, or answers to ``--last``).
``classify CARDS [--rules NAME]``
    every reading of a multiset.
``bench [--positions N]``
    how fast this machine generates moves, through each entry point.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

import ddz
from ddz import batch

PRESETS = {
    "classic": ddz.CLASSIC,
    "douzero": ddz.DOUZERO,
    "rlcard": ddz.RLCARD,
    "two-player": ddz.TWO_PLAYER,
    "uno-landlord": ddz.UNO_LANDLORD,
}


def _moves(args: argparse.Namespace) -> int:
    rules = PRESETS[args.rules]
    moves = ddz.legal_moves(args.hand, args.last, rules=rules)
    hand = moves.hand
    heading = f"answers to {moves.last}" if moves.last is not None else "leads"
    print(f"{hand} ({len(hand)} cards), {args.rules} rules: {len(moves)} {heading}")
    by_type: dict[ddz.MoveType, list[str]] = {}
    for move in moves:
        by_type.setdefault(move.type, []).append(str(move))
    width = max((len(t.name) for t in by_type), default=0)
    for move_type, texts in by_type.items():
        print(f"  {move_type.name.lower():<{width}}  {' '.join(texts)}")
    return 0


def _classify(args: argparse.Namespace) -> int:
    readings = ddz.classify(args.cards, rules=PRESETS[args.rules])
    if not readings:
        print(f"{ddz.Cards(args.cards)} is no move under {args.rules} rules")
        return 1
    for move in readings:
        print(f"{move}  {move.type.name.lower()}, rank {move.rank_name}, length {move.length}")
    return 0


def _median_rate(count: int, run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return count / statistics.median(times)


def _bench(args: argparse.Namespace) -> int:
    rules = PRESETS[args.rules]
    rng = random.Random(args.seed)
    deck = list(str(rules.deck))
    hands = []
    for i in range(args.positions):
        rng.shuffle(deck)
        hands.append(ddz.Cards("".join(deck[: 20 if i % 3 == 0 else 17])))
    masks = [hand.mask for hand in hands]
    mask_array = np.array(masks, dtype=np.uint64)
    out = np.empty(4096, dtype=np.uint64)
    runs: list[tuple[str, Callable[[], object]]] = [
        ("leads as Move objects", lambda: [list(ddz.legal_moves(h, rules=rules)) for h in hands]),
        ("leads, raw codes", lambda: [batch.moves_into(m, 0, rules, out) for m in masks]),
        ("leads, batch", lambda: batch.legal_moves_batch(mask_array, rules=rules)),
    ]
    print(f"{args.positions} random hands, {args.rules} rules, median of {args.repeats} runs")
    for name, run in runs:
        rate = _median_rate(len(hands), run, args.repeats)
        print(f"  {name:<24} {rate:>12,.0f} hands/s")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m ddz", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    moves = commands.add_parser("moves", help="list the legal moves of a hand")
    moves.add_argument("hand", help="the hand, e.g. 33344456789TJQKA2XD")
    moves.add_argument("--last", help="the move to answer, e.g. 55 or 333+4")
    classify = commands.add_parser("classify", help="every reading of some cards")
    classify.add_argument("cards")
    bench = commands.add_parser("bench", help="time move generation on this machine")
    bench.add_argument("--positions", type=int, default=2000)
    bench.add_argument("--repeats", type=int, default=5)
    bench.add_argument("--seed", type=int, default=1)
    for command in (moves, classify, bench):
        command.add_argument("--rules", choices=sorted(PRESETS), default="classic")
    moves.set_defaults(run=_moves)
    classify.set_defaults(run=_classify)
    bench.set_defaults(run=_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
