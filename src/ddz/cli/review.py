"""``python -m ddz review RECORD``: a played game judged move by move with every hand open.

RECORD is the path of a game's JSON record (``Game.to_json()``, as the web page saves a
finished game; the text form of ``Game.record()`` is read too), or ``-`` for standard input.
The command prints :func:`ddz.review`'s table: for every ply of the play phase, the verdict
for the mover's side before and after the move, the solver's best move, the nodes searched,
and ``blunder`` where a won position was turned into a lost one; ``--json`` prints one JSON
object a ply instead (JSON lines). ``--node-limit`` and ``--time-limit`` are the budget of
each position; past it a verdict is unknown, never a guess. Ctrl-C stops the review (the
solver stops its search) and the command ends with status 130.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TextIO

import ddz
from ddz.base.errors import MAX_RECORD, shorten
from ddz.cli.solve import seconds
from ddz.doudizhu.review import DEFAULT_NODE_LIMIT, review

EXAMPLES = """examples:
  python -m ddz review game.json                       every move judged, all hands open
  python -m ddz review game.json --score               with the exact scores
  python -m ddz review game.json --node-limit 100000   a smaller budget a position
  python -m ddz review - --json < game.json            JSON lines, for scripts

A verdict is for the mover's side (the landlord, or the farmers as a team): before the
move, and after it; 'blunder' marks a move that turned a win into a loss, and 'best' is
the solver's move there. 'unknown' is past the budget, never a guess. On a terminal the
positions searched so far are counted on standard error while the review runs."""


def add_arguments(
    parser: argparse.ArgumentParser, integer: Callable[..., Callable[[str], int]]
) -> None:
    """The ``review`` command's arguments (``integer`` is the command line's integer type)."""
    parser.add_argument(
        "record",
        metavar="RECORD",
        help="a game's JSON record (Game.to_json(), as the web page saves it) or text "
        "record (Game.record()); '-' reads standard input",
    )
    parser.add_argument(
        "--score",
        action="store_true",
        help="the exact scores (bombs, rocket and spring doublings), not only win/loss",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object a ply (JSON lines), for scripts"
    )
    parser.add_argument(
        "--node-limit",
        type=integer(1, (1 << 64) - 1, bounds="1..2**64-1"),
        default=DEFAULT_NODE_LIMIT,
        metavar="N",
        help=f"stop a position's search after this many nodes (default {DEFAULT_NODE_LIMIT:,})",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="stop a position's search after this long (default: none)",
    )
    parser.add_argument(
        "--memory-mb",
        type=integer(1, 1 << 16, bounds="1..65536"),
        default=256,
        metavar="MB",
        help="the solver's table bound in megabytes (default 256)",
    )


def read(path: str) -> str:
    """The record's text from ``path`` (``-``: standard input), bounded in length."""
    where = "standard input" if path == "-" else shorten(path)
    try:
        if path == "-":
            text = sys.stdin.read(MAX_RECORD + 1)
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read(MAX_RECORD + 1)  # a bounded read: /dev/zero is refused
    except OSError as error:
        raise ValueError(f"cannot read {where}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError(f"cannot read {where}: it is not UTF-8 text") from None
    if len(text) > MAX_RECORD:
        raise ValueError(f"{where} is longer than a record may be ({MAX_RECORD:,} characters)")
    if not text.strip():
        raise ValueError(f"{where} is empty: no record to review")
    return text


def progress_line(stream: TextIO) -> Callable[[int, int], None] | None:
    """A ``progress`` callback that keeps one line on ``stream`` up to date, or None when
    ``stream`` is not a terminal (a pipe or a file gets the table alone)."""
    if not stream.isatty():
        return None

    def show(done: int, total: int) -> None:
        end = "\r\033[K" if done == total else ""  # the line is cleared before the table
        stream.write(f"\rreviewing: {done}/{total} positions searched{end}")
        stream.flush()

    return show


def run(args: argparse.Namespace) -> int:
    """The ``review`` command."""
    text = read(args.record)
    record: ddz.Game | str = text
    if not text.lstrip().startswith("{"):  # the text form of Game.record()
        record = ddz.Game.from_record(text)
    result = review(
        record,
        node_limit=args.node_limit,
        time_limit=args.time_limit,
        score=args.score,
        memory_mb=args.memory_mb,
        progress=progress_line(sys.stderr),
    )
    if args.json:
        for row in result.rows:
            print(json.dumps(row.to_dict()))
    else:
        print(result)
    return 0
