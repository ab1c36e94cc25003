"""ddz.solve side by side with the two public endgame solvers ("anchors"), on the same
positions under the closest ddz rules: verdict agreement and solve times.

    python benchmarks/anchors.py --doudizhu-endgame PATH --chinese-poker-game PATH \\
        [--sizes 10 14 18 22 26 30 34] [--count 12] [--seed 0] [--time-limit 60] \\
        [--puzzles benchmarks/positions/puzzles.txt] [--json PATH]

The anchors are GPL programs and nothing of them is in this repository: build them yourself
and pass the binaries' paths (either one may be left out). This script only talks to their
unmodified interactive programs through a pipe, as a person would:

* YunyanDeng/doudizhu_endgame (``doudizhu/*.cc``, built with ``g++ -O3 -std=c++11
  -pthread``): it asks for the landlord's hand, then the farmer's (``0`` for a ten, ``y``
  and ``z`` for the small and big joker), prints ``search_multithreading time: S seconds.``
  and then ``play: [...]`` (the landlord wins) or ``can not win``.
* Whotakesmyname/ChinesePokerGame (``ChinesePokerGame/*.cpp``, needs boost's hash headers,
  built with ``g++ -O2 -DNDEBUG -std=c++17 -pthread -include iostream -include iterator``,
  as its Release configuration: with assertions on, its off-by-one answers below trip an
  assertion in ``HandPool::Delete`` and the program aborts): it asks
  for the landlord's hand, the farmer's (``O`` for a ten, ``Y``/``Z`` for the jokers) and the
  move to answer (empty: the landlord leads), prints ``共花费S秒`` (the seconds) and then
  ``地主必胜`` (the landlord wins) or ``地主无必胜策略``.

Both then wait for the farmer's moves; the script reads the verdict and the time the program
reports for its own search, and ends the process. Both solve one question only: two seats, the
landlord to lead, every card of the 54-card deck possible. The positions are those of
``benchmarks/solver.py`` (seeded random deals, landlord seat 0 to lead) and, with
``--puzzles``, the lines of a position file of that kind.

Rules: neither anchor's rules are exactly a ``ddz.Rules``. Both allow the two jokers as the
two kickers of four + two (and doudizhu_endgame as airplane wings), so ddz solves under
``ddz.ENDGAME.replace(rocket_as_kickers=True)``. What remains different (docs/solver.md
lists it with the evidence) is flagged per position, and agreement is reported over all
positions and over the positions where no difference can arise:

* ``quad+pair``: a hand holds four of a rank and a pair (or more) of another. Both anchors
  let four + two take a pair as its two kickers (``4444+55``); ddz's rules keep single kickers
  distinct and have no switch for "a pair, but not two equal wings".
* ``airplane``: a hand holds two consecutive trios (3..A). ChinesePokerGame has no airplane
  with wings at all and answers an airplane with the wrong cards; doudizhu_endgame answers an
  airplane with pair wings by a move it then treats as one with single wings.
* ``pair-chains``: both hands hold a pair straight. ChinesePokerGame answers a pair straight
  with the wrong cards (its answer generator is off by one rank).

Memory: ``--memory-gb`` caps each anchor process's address space (ChinesePokerGame keeps its
whole search tree); a process that runs out counts as unknown. The peak RSS of every anchor
run is recorded (``os.wait4``).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import resource
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import ddz

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solver import random_positions, read_positions  # benchmarks/solver.py

ANCHOR_RULES = ddz.ENDGAME.replace(rocket_as_kickers=True)
CHAIN_RANKS = "3456789TJQKA"


@dataclass
class Run:
    """One program's answer on one position."""

    value: int | None  # +1 the landlord (to lead) wins, -1 it loses, None unknown
    seconds: float  # the program's own search time (the limit when unknown)
    peak_mb: float = 0.0  # the process's peak RSS (anchors only)
    note: str = ""  # why unknown: "time", "memory", "crash ..."


# --- the anchors -------------------------------------------------------------------------


def anchor_cards(cards: ddz.Cards, anchor: str) -> str:
    text = str(cards)
    if anchor == "doudizhu_endgame":
        return text.replace("T", "0").replace("X", "y").replace("D", "z")
    return " ".join(text.replace("T", "O").replace("X", "Y").replace("D", "Z"))


VERDICTS = {
    "doudizhu_endgame": (
        re.compile(r"search_multithreading time: ([0-9.e+-]+) seconds"),
        re.compile(r"^(play: \[|can not win)"),
        "play: [",
    ),
    "ChinesePokerGame": (
        re.compile(r"共花费([0-9.e+-]+)秒"),
        re.compile(r"(地主必胜|地主无必胜策略)"),
        "地主必胜",
    ),
}


def run_anchor(
    anchor: str, binary: str, position: ddz.Position, limit: float, memory_gb: float
) -> Run:
    """Feed one position to an anchor's interactive program and read its verdict."""
    landlord, farmer = position.hands[position.landlord], position.hands[1 - position.landlord]
    lines = [anchor_cards(landlord, anchor), anchor_cards(farmer, anchor)]
    if anchor == "ChinesePokerGame":
        lines.append("")  # no move to answer: the landlord leads
    cap = int(memory_gb * 2**30)

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    process = subprocess.Popen(
        [binary],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=limit_memory,
        env={**os.environ, "MALLOC_ARENA_MAX": "2"},  # threads' arenas would eat the cap
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(("\n".join(lines) + "\n").encode())
    process.stdin.flush()
    output: queue.Queue[str | None] = queue.Queue()
    stdout = process.stdout

    def reader() -> None:
        for raw in iter(stdout.readline, b""):
            output.put(raw.decode("utf-8", "replace"))
        output.put(None)

    threading.Thread(target=reader, daemon=True).start()
    time_pattern, verdict_pattern, win_text = VERDICTS[anchor]
    deadline = time.monotonic() + limit
    seconds: float | None = None
    value: int | None = None
    note = "time"
    while True:
        try:
            line = output.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        if line is None:
            note = "crash"
            break
        if seconds is None and (found := time_pattern.search(line)):
            seconds = float(found.group(1))
        if seconds is not None and verdict_pattern.search(line):
            value = 1 if win_text in line else -1
            break
    # kill and reap by hand: Popen.poll/kill would reap the child and lose its rusage
    os.kill(process.pid, signal.SIGKILL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = -signal.SIGKILL
    peak_mb = usage.ru_maxrss / 1024
    if value is None:
        if note == "crash":
            note = "memory" if peak_mb > memory_gb * 1024 * 0.5 else f"crash (status {status})"
        return Run(None, limit, peak_mb, note)
    assert seconds is not None
    return Run(value, seconds, peak_mb)


# --- ddz ---------------------------------------------------------------------------------


def run_ddz(position: ddz.Position, limit: float) -> Run:
    game = ddz.Game.from_position(
        ANCHOR_RULES,
        list(position.hands),
        landlord=position.landlord,
        to_act=position.to_act,
    )
    result = ddz.Solver(ANCHOR_RULES).solve(game, time_limit=limit, line=False)
    if result.value is None:
        return Run(None, limit, note="time")
    return Run(result.value, result.seconds)


# --- where the rules differ --------------------------------------------------------------


def counts(cards: ddz.Cards) -> dict[str, int]:
    text = str(cards)
    return {rank: text.count(rank) for rank in set(text)}


def run_of(hand: dict[str, int], least: int, length: int) -> bool:
    """Whether the hand holds ``length`` consecutive chain ranks with ``least`` cards each."""
    streak = 0
    for rank in CHAIN_RANKS:
        streak = streak + 1 if hand.get(rank, 0) >= least else 0
        if streak >= length:
            return True
    return False


def differences(position: ddz.Position) -> list[str]:
    hands = [counts(hand) for hand in position.hands]
    flags = []
    for hand in hands:
        quads = [rank for rank, n in hand.items() if n == 4]
        if any(n >= 2 and rank != quad for quad in quads for rank, n in hand.items()):
            flags.append("quad+pair")
            break
    if any(run_of(hand, 3, 2) for hand in hands):
        flags.append("airplane")
    if all(run_of(hand, 2, 3) for hand in hands):
        flags.append("pair-chains")
    return flags


RELEVANT = {
    "doudizhu_endgame": {"quad+pair", "airplane"},
    "ChinesePokerGame": {"quad+pair", "airplane", "pair-chains"},
}


# --- the report --------------------------------------------------------------------------


def seconds_text(value: float) -> str:
    if value < 1:
        return f"{value * 1000:.1f} ms" if value < 0.01 else f"{value * 1000:.0f} ms"
    return f"{value:.2f} s"


def time_cell(runs: list[Run], limit: float) -> str:
    times = [run.seconds if run.value is not None else limit for run in runs]
    unknown = sum(run.value is None for run in runs)
    slowest = f">{limit:g} s on {unknown} of {len(runs)}" if unknown else seconds_text(max(times))
    return f"{seconds_text(statistics.median(times))} / {slowest}"


def report(rows: list[dict[str, Any]], anchors: list[str], limit: float) -> str:
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(row["group"], []).append(row)
    head = "| positions | n | ddz median / slowest |"
    rule = "| --- | ---: | --- |"
    for anchor in anchors:
        head += f" {anchor} median / slowest | verdicts equal (all; rules alike) |"
        rule += " --- | --- |"
    lines = [head, rule]
    for group, members in groups.items():
        line = f"| {group} | {len(members)} | " + time_cell([r["ddz"] for r in members], limit)
        for anchor in anchors:
            runs = [r[anchor] for r in members]
            both = [
                r for r in members if r["ddz"].value is not None and r[anchor].value is not None
            ]
            alike = [r for r in both if not set(r["flags"]) & RELEVANT[anchor]]
            same = sum(r["ddz"].value == r[anchor].value for r in both)
            same_alike = sum(r["ddz"].value == r[anchor].value for r in alike)
            line += f" | {time_cell(runs, limit)} | {same}/{len(both)}; {same_alike}/{len(alike)}"
        lines.append(line + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--doudizhu-endgame", metavar="PATH", help="the built binary")
    parser.add_argument("--chinese-poker-game", metavar="PATH", help="the built binary")
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 14, 18, 22, 26, 30, 34])
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds a position")
    parser.add_argument("--memory-gb", type=float, default=8.0, help="an anchor's cap")
    parser.add_argument("--puzzles", type=Path, help="a position file to add (two seats)")
    parser.add_argument("--json", type=Path, help="write every run here")
    args = parser.parse_args(argv)
    anchors = {
        name: path
        for name, path in (
            ("doudizhu_endgame", args.doudizhu_endgame),
            ("ChinesePokerGame", args.chinese_poker_game),
        )
        if path
    }
    jobs: list[tuple[str, ddz.Position, str]] = []
    for size in args.sizes:
        for position in random_positions(2, size, args.count, args.seed):
            jobs.append((f"{size} cards", position, ""))
    if args.puzzles:
        for _, position, comment in read_positions(args.puzzles):
            if len(position.hands) != 2 or position.table is not None:
                continue
            if position.to_act != position.landlord:
                continue
            jobs.append(("puzzles", position, comment))

    rows = []
    for group, position, comment in jobs:
        row: dict[str, Any] = {
            "group": group,
            "position": str(position),
            "comment": comment,
            "flags": differences(position),
            "ddz": run_ddz(position, args.time_limit),
        }
        for anchor, binary in anchors.items():
            row[anchor] = run_anchor(anchor, binary, position, args.time_limit, args.memory_gb)
        rows.append(row)
        cells = [f"ddz {row['ddz'].value} {row['ddz'].seconds:.3f}s"] + [
            f"{a} {row[a].value} {row[a].seconds:.3f}s {row[a].note}" for a in anchors
        ]
        print(
            f"{group}: {position} [{','.join(row['flags'])}]: " + "; ".join(cells),
            file=sys.stderr,
            flush=True,
        )

    print(report(rows, list(anchors), args.time_limit))
    print(
        f"\nddz rules: {ANCHOR_RULES!r}; time limit {args.time_limit:g} s; "
        f"anchor memory cap {args.memory_gb:g} GB"
    )
    disagreements = [
        (row, anchor)
        for row in rows
        for anchor in anchors
        if row["ddz"].value is not None
        and row[anchor].value is not None
        and row["ddz"].value != row[anchor].value
    ]
    for row, anchor in disagreements:
        print(
            f"differs: {anchor} says {row[anchor].value:+d}, ddz {row['ddz'].value:+d}: "
            f"{row['position']} [{','.join(row['flags'])}] {row['comment']}"
        )
    if args.json:
        serial = [
            {k: asdict(v) if isinstance(v, Run) else v for k, v in row.items()} for row in rows
        ]
        args.json.write_text(
            json.dumps(
                {"rows": serial, "arguments": {k: str(v) for k, v in vars(args).items()}},
                indent=1,
                ensure_ascii=False,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
