"""``python -m ddz solve``: the exact solver on the command line, and a puzzle to play.

A position comes in its text form (``docs/positions.md``) as words on the command line, or
one a line from a file or standard input. For each, the command prints the table with every
hand open, then the verdict for the side to act, the best move, the principal line, and the
nodes and seconds the search took; ``--analyse`` lists every legal move's value instead, and
``--score`` solves for the exact score. A file's line may store the value to check (``+1``
or ``-1``, as ``benchmarks/solver.py`` writes them; with ``--score``, the exact score, such as
``-2``, as its ``*-score.txt`` files do; ``?``, a value not settled, checks nothing);
``--json`` prints JSON lines. ``--play``
plays the position against the solver: the person takes one side, types its moves, and the
solver answers with its best move.

The search runs in the core without the GIL, so a Ctrl-C would wait for it to end: the
command searches on a helper thread and, on Ctrl-C, asks the solver to stop
(:meth:`ddz.Solver.stop`) and ends with status 130 like every command.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import json
import math
import sys
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO, TypeVar

import ddz
from ddz.base.errors import shorten
from ddz.base.fanout import run_interruptible
from ddz.cli.prompt import ask_move
from ddz.doudizhu.render import text as table_text
from ddz.doudizhu.rules import PRESETS
from ddz.doudizhu.solver import MoveValue, Solver, SolveResult, table_memory_message
from ddz.play.agents import AnyAgent, choose, make_agent

T = TypeVar("T")

MAX_POSITIONS = 100_000
"""The most positions one run reads from a file (each is solved in turn)."""
MAX_LINE = 10_000
"""The longest position line read: a real one is well under 200 characters."""
SIDES = ("landlord", "farmers", "farmer")
EXAMPLES = """examples:
  python -m ddz solve 3KK/44A landlord=0              the landlord leads: who wins?
  python -m ddz solve 3KK/44A landlord=0 --analyse    every move's value
  python -m ddz solve 33334/5 landlord=0 --score      the exact score (bomb, spring)
  python -m ddz solve KK/AA/22 landlord=2 turn=0 table=QQ@1 played=-/QQ/-
                                                      three seats, QQ to beat
  python -m ddz solve 3KK/44A landlord=0 --play --side farmers
                                                      play the farmer against the solver
  python -m ddz solve --file positions.txt            one position a line ('-': stdin)
  python -m ddz solve --file positions.txt --json     JSON lines, for scripts

A position is its hands, seat 0 first, '/' between, then key=value fields: landlord=N
(required), turn=N, table=MOVE@SEAT, played=C/C/C, bombs=N, rules=NAME, ...
(docs/positions.md). The verdict is for the side to act: the landlord, or the farmers as
a team."""


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shorten(text)} is not a number of seconds") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def side(text: str) -> str:
    """An argparse type: ``landlord``, ``farmers`` (``farmer``) or a seat number."""
    word = text.strip().lower()
    if word in SIDES or (word.isascii() and word.isdigit() and len(word) < 3):
        return "farmers" if word == "farmer" else word
    raise argparse.ArgumentTypeError(
        f"must be landlord, farmers or a seat number, not {shorten(text)}"
    )


def add_arguments(
    parser: argparse.ArgumentParser, integer: Callable[..., Callable[[str], int]]
) -> None:
    """The ``solve`` command's arguments (``integer`` is the command line's integer type)."""
    parser.add_argument(
        "position",
        nargs="*",
        metavar="POSITION",
        help="a position in its text form, e.g. 3KK/44A landlord=0 (the hands, seat 0 first, "
        "then key=value fields; see docs/positions.md); quotes are optional",
    )
    parser.add_argument(
        "--file",
        metavar="FILE",
        help="read positions from FILE, one a line ('-': standard input), each optionally "
        "after a stored value +1 or -1 to check (benchmarks/solver.py's files) and before a "
        "' # comment'; blank lines and lines starting with # are skipped",
    )
    parser.add_argument(
        "--rules",
        choices=sorted(PRESETS),
        default=None,
        help="the rules of a position whose text has no rules= (default: endgame for two "
        "hands, classic for three)",
    )
    parser.add_argument(
        "--analyse", action="store_true", help="list every legal move with its value"
    )
    parser.add_argument(
        "--score",
        action="store_true",
        help="solve for the exact score (bombs, rocket and spring doublings), not only win/loss",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object a position (JSON lines): position, value, move, line, nodes, "
        "seconds (and score; with --analyse, every move's value)",
    )
    parser.add_argument(
        "--play",
        action="store_true",
        help="play the position against the solver in the terminal",
    )
    parser.add_argument(
        "--side",
        type=side,
        default=None,
        help="with --play, the side you play: landlord, farmers or a seat's number "
        "(default: the side to act)",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="stop a search after this long: the verdict is then unknown (default: none)",
    )
    parser.add_argument(
        "--node-limit",
        type=integer(1, (1 << 64) - 1, bounds="1..2**64-1"),
        default=None,
        metavar="N",
        help="stop a search after this many nodes (default: none)",
    )
    parser.add_argument(
        "--memory-mb",
        type=integer(1, 1 << 16, bounds="1..65536"),
        default=256,
        metavar="MB",
        help="the transposition table's bound in megabytes (default 256)",
    )
    parser.add_argument(
        "--threads",
        type=integer(1, 64),
        default=1,
        help="search threads, 1..64 (default 1)",
    )


# --- positions -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Entry:
    """A position to solve, and the value a position file stores for it (``+1``/``-1``
    for the side to act, as ``benchmarks/solver.py``'s files write it; with ``--score`` the
    exact score), if any."""

    position: ddz.Position
    stored: int | None = None


def positions(args: argparse.Namespace) -> list[Entry]:
    """The positions to solve: the words of the command line, or the lines of ``--file``."""
    rules = None if args.rules is None else PRESETS[args.rules]
    if args.position and args.file is not None:
        raise ValueError("give a position or --file, not both")
    if args.file is None:
        if not args.position:
            raise ValueError(
                "no position: write one, e.g. 'python -m ddz solve 3KK/44A landlord=0', "
                "or read them with --file"
            )
        return [Entry(_parse(" ".join(args.position), rules))]
    where = "standard input" if args.file == "-" else shorten(args.file)
    found: list[Entry] = []
    for number, line in _lines(args.file, where):
        text = line.partition(" #")[0].strip()  # a comment may follow the position
        if not text or text.startswith("#"):
            continue
        if len(found) == MAX_POSITIONS:
            raise ValueError(f"{where} holds more than {MAX_POSITIONS:,} positions")
        stored = None
        first, _, rest = text.partition(" ")
        signed = first[:1] in ("+", "-") and first[1:].isdigit()
        if first == "?":  # a value the set's maker could not settle: nothing to check
            text = rest.strip()
        elif first in ("+1", "-1") or (args.score and signed and first[1:2] != "0"):
            stored, text = int(first), rest.strip()  # VALUE POSITION
        elif signed:
            kind = "a score such as -2" if args.score else "+1 or -1 (a score with --score)"
            raise ValueError(
                f"{where}, line {number}: a stored value is {kind}, not {shorten(first)}"
            )
        found.append(Entry(_parse(text, rules, f"{where}, line {number}: "), stored))
    if not found:
        raise ValueError(f"{where} holds no position")
    return found


def _parse(text: str, rules: ddz.Rules | None, where: str = "") -> ddz.Position:
    try:
        return ddz.Position.parse(text, rules=rules)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{where}{error}") from None


def _lines(path: str, where: str) -> Iterator[tuple[int, str]]:
    """The lines of ``path`` (``-``: standard input), none longer than ``MAX_LINE``: a
    file of one endless line is refused, not read whole."""
    try:
        with contextlib.ExitStack() as stack:
            if path == "-":
                file: TextIO = sys.stdin
            else:
                file = stack.enter_context(open(path, encoding="utf-8"))
            number = 0
            while line := file.readline(MAX_LINE + 1):
                number += 1
                if len(line) > MAX_LINE:
                    raise ValueError(f"{where}, line {number}: longer than {MAX_LINE:,} characters")
                yield number, line
    except OSError as error:
        raise ValueError(f"cannot read {where}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{where} is not UTF-8 text") from None


# --- solving -------------------------------------------------------------------------------


class _SolverStop:
    """A solver's ``stop()`` as the stop flag ``run_interruptible`` asks for."""

    def __init__(self, solver: Solver) -> None:
        self.request_stop = solver.stop


def interruptible(solver: Solver, work: Callable[[], T]) -> T:
    """``work()`` (a call into ``solver``) where Ctrl-C reaches it: on a helper thread, the
    solver asked to stop until it returns, then the ``KeyboardInterrupt`` goes on
    (``ddz.base.fanout.run_interruptible``). ``Solver`` does this itself for long searches;
    here it also covers the short ones and the principal line."""
    return run_interruptible(_SolverStop(solver), work)


def _solver(rules: ddz.Rules, args: argparse.Namespace) -> Solver:
    try:
        return Solver(rules, memory_mb=args.memory_mb, threads=args.threads)
    except MemoryError:
        raise ValueError(table_memory_message(args.memory_mb, "--memory-mb")) from None


def _side_name(game: ddz.Game, seat: int | None) -> str:
    """``the landlord (seat 0)`` or ``the farmers (seats 1, 2)``: the side ``seat`` is on."""
    if seat == game.landlord:
        return f"the landlord (seat {seat})"
    farmers = [p for p in range(game.rules.players) if p != game.landlord]
    if len(farmers) == 1:
        return f"the farmer (seat {farmers[0]})"
    return f"the farmers (seats {', '.join(map(str, farmers))})"


def _limits_text(args: argparse.Namespace) -> str:
    limits = []
    if args.time_limit is not None:
        limits.append(f"--time-limit {args.time_limit:g}")
    if args.node_limit is not None:
        limits.append(f"--node-limit {args.node_limit}")
    return " and ".join(limits)


def line_text(game: ddz.Game, moves: Sequence[ddz.Move]) -> str:
    """The principal line as ``seat:move`` words, replayed on a copy of ``game``."""
    walk = game.copy()
    words = []
    for move in moves:
        words.append(f"{walk.current_player}:{move}")
        walk.push(move)
    return " ".join(words)


def report(game: ddz.Game, result: SolveResult, args: argparse.Namespace) -> list[str]:
    """The verdict lines for one solved position."""
    seat = game.current_player
    who = _side_name(game, seat)
    if result.value is None:
        lines = [f"verdict  unknown: {_limits_text(args)} stopped the search"]
    else:
        verdict = "win" if result.value > 0 else "loss"
        lines = [f"verdict  {verdict} for the side to act, {who}"]
        if result.score is not None:
            lines.append(f"score    {result.score:+d} for {who}: {_payoffs(game, result)}")
        elif args.score:
            # score mode settles the verdict first; the limits stopped the score's search
            lines.append(f"score    unknown: {_limits_text(args)} stopped the search")
        lines.append(f"best     {result.move}")
        if not args.score or result.score is not None:
            lines.append(_wrapped("line     ", line_text(game, result.line)))
    nodes = f"{result.nodes:,} node{'s' if result.nodes != 1 else ''}"
    lines.append(f"searched {nodes} in {result.seconds:.3f} s")
    return lines


def _wrapped(heading: str, text: str, width: int = 78) -> str:
    """``text`` after ``heading``, its continuation lines indented to match."""
    indent = " " * len(heading)
    lines = textwrap.wrap(text, width, initial_indent=heading, subsequent_indent=indent)
    return "\n".join(lines) or heading.rstrip()


def _payoffs(game: ddz.Game, result: SolveResult) -> str:
    """The payoffs at the end of the line, both sides playing for the score."""
    walk = game.copy()
    for move in result.line:
        walk.push(move)
    if not walk.is_over:
        return "the line is incomplete"
    payoffs = ", ".join(f"seat {p} {v:+d}" for p, v in enumerate(walk.payoffs()))
    return f"payoffs {payoffs}"


def analysis(game: ddz.Game, values: list[MoveValue], seconds_taken: float | None) -> list[str]:
    """Every legal move and its value, best first (winning moves, unknown ones, losing
    ones; by score within each with ``--score``; the generator's order among equals), and
    the time it took unless ``seconds_taken`` is None."""

    def rank(entry: MoveValue) -> tuple[int, int]:
        value = 0 if entry.value is None else entry.value
        return (-value, -(entry.score or 0))

    ordered = sorted(values, key=rank)
    width = max((len(str(entry.move)) for entry in ordered), default=4)
    wins = sum(entry.value == 1 for entry in values)
    plural = "s" if len(values) != 1 else ""
    lines = [
        f"{len(values)} legal move{plural} for {_side_name(game, game.current_player)}, "
        f"best first; {wins} win{'s' if wins != 1 else ''}"
    ]
    for entry in ordered:
        verdict = {1: "win", -1: "loss", None: "unknown"}[entry.value]
        row = f"  {entry.move!s:<{width}}  {verdict}"
        if entry.score is not None:
            row = f"{row:<{width + 12}}score {entry.score:+d}"
        lines.append(row.rstrip())
    if seconds_taken is not None:
        lines.append(f"searched in {seconds_taken:.3f} s")
    return lines


def run(args: argparse.Namespace) -> int:
    """The ``solve`` command: 0, or 1 when a verdict disagrees with a stored value."""
    found = positions(args)
    if args.play:
        if len(found) != 1:
            raise ValueError(f"--play takes one position, not {len(found)}")
        if args.json:
            raise ValueError("--json is not for --play")
        return play_puzzle(found[0].position, args)
    if args.side is not None:
        raise ValueError("--side is for --play")
    solvers: dict[ddz.Rules, Solver] = {}
    tally = Tally()
    for index, entry in enumerate(found):
        position = entry.position
        game = position.game()
        if position.rules not in solvers:
            solvers[position.rules] = _solver(position.rules, args)
        solver = solvers[position.rules]
        if not args.json:
            if index:
                print()
            print(f"position {position}")
            print(table_text(game))
            print(flush=True)  # the table shows while the search runs
        limits = {"time_limit": args.time_limit, "node_limit": args.node_limit}
        start = time.perf_counter()
        if args.analyse:
            values = interruptible(
                solver, functools.partial(solver.analyse, game, score=args.score, **limits)
            )
            seconds_taken = time.perf_counter() - start
            value = _best_value(values)
            solved = _best_score(values) if args.score else value
            tally.add(value, entry.stored, seconds_taken, solved=solved)
            if args.json:
                record = _analysis_record(position, values, seconds_taken)
            else:
                lines = analysis(game, values, seconds_taken)
        else:
            result = interruptible(
                solver, functools.partial(solver.solve, game, score=args.score, **limits)
            )
            value = result.value
            solved = result.score if args.score else value
            tally.add(value, entry.stored, result.seconds, result.nodes, solved=solved)
            if args.json:
                record = _result_record(position, result, args.score)
            else:
                lines = report(game, result, args)
        if args.json:
            if entry.stored is not None:
                record["stored"] = entry.stored
            print(json.dumps(record), flush=True)
            continue
        if entry.stored is not None:
            lines.append(_stored_line(solved, entry.stored, args.score))
        print("\n".join(lines), flush=True)
    if len(found) > 1 and not args.json:
        print()
        print(tally.summary())
    return 1 if tally.disagree else 0


def _best_value(values: list[MoveValue]) -> int | None:
    """The position's value from its moves' values: a win if one wins, a loss if all lose."""
    known = [entry.value for entry in values]
    if 1 in known:
        return 1
    return None if None in known else -1


def _best_score(values: list[MoveValue]) -> int | None:
    """The position's score from its moves' scores: the best, once every move's is known."""
    scores = [entry.score for entry in values]
    return None if not scores or None in scores else max(s for s in scores if s is not None)


def _stored_line(solved: int | None, stored: int, score: bool = False) -> str:
    """The stored value beside the search's: a verdict, or with ``score`` the exact score."""
    text = f"stored   {f'score {stored:+d}' if score else 'win' if stored > 0 else 'loss'}"
    if solved is None:
        return text + " (not checked: the search stopped)"
    return text + (" (agrees)" if solved == stored else " (DISAGREES with the search)")


def _result_record(
    position: ddz.Position, result: SolveResult, score: bool = False
) -> dict[str, object]:
    record: dict[str, object] = {
        "position": str(position),
        "value": result.value,
        "move": None if result.move is None else str(result.move),
        "line": [str(move) for move in result.line],
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
    }
    if score or result.score is not None:
        record["score"] = result.score  # null: the limits stopped the score's search
    return record


def _analysis_record(
    position: ddz.Position, values: list[MoveValue], seconds_taken: float
) -> dict[str, object]:
    moves = []
    for entry in values:
        item: dict[str, object] = {"move": str(entry.move), "value": entry.value}
        if entry.score is not None:
            item["score"] = entry.score
        moves.append(item)
    return {
        "position": str(position),
        "value": _best_value(values),
        "moves": moves,
        "seconds": round(seconds_taken, 6),
    }


@dataclasses.dataclass
class Tally:
    """The verdicts of a run of positions, for the summary line."""

    wins: int = 0
    losses: int = 0
    unknown: int = 0
    agree: int = 0
    disagree: int = 0
    nodes: int = 0
    seconds: float = 0.0

    def add(
        self,
        value: int | None,
        stored: int | None,
        seconds_taken: float,
        nodes: int = 0,
        *,
        solved: int | None = None,
    ) -> None:
        """Count a verdict; ``solved`` (the verdict, or with ``--score`` the score) is what
        is compared with the stored value."""
        if value is None:
            self.unknown += 1
        elif value > 0:
            self.wins += 1
        else:
            self.losses += 1
        if stored is not None and solved is not None:
            if solved == stored:
                self.agree += 1
            else:
                self.disagree += 1
        self.nodes += nodes
        self.seconds += seconds_taken

    def summary(self) -> str:
        total = self.wins + self.losses + self.unknown
        lines = [
            f"summary  {total} positions: {self.wins} won, {self.losses} lost, "
            f"{self.unknown} unknown (for the side to act)"
        ]
        if self.agree or self.disagree:
            disagree = f"{self.disagree} DISAGREE" if self.disagree else "none disagrees"
            lines.append(f"         stored values: {self.agree} agree, {disagree}")
        nodes = f"{self.nodes:,} nodes in " if self.nodes else ""
        lines.append(f"         {nodes}{self.seconds:.3f} s")
        return "\n".join(lines)


# --- the puzzle ----------------------------------------------------------------------------


def play_puzzle(
    position: ddz.Position,
    args: argparse.Namespace,
    *,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Play ``position`` against the solver: the person takes ``args.side`` (default: the
    side to act) and types its moves; the solver plays the other side's best move (within
    the limits: past them, the greedy agent's move, and it says so). ``read`` asks for a
    line (EOFError ends the game), ``write`` prints one. Returns the exit status, 0."""
    game = position.game()
    players = game.rules.players
    mine = _my_seats(game, args.side)
    solver = _solver(position.rules, args)
    fallback = make_agent("greedy", 0)
    you = _side_name(game, next(iter(mine)))
    them = _side_name(game, next(p for p in range(players) if p not in mine))
    write(f"puzzle   {position}")
    write(f"You play {you}; the solver plays {them}.")
    instructions = (
        "Every hand is open. Type a move in the notation (3, 55, 333+4, 34567, XD, pass);\n"
        "'?' lists your legal moves, 'hint' asks the solver for one, 'analyse' for the\n"
        "value of each, 'undo' takes your last move back, 'help' shows this, 'quit'\n"
        "leaves."
    )
    write(instructions)
    shown = False
    while not game.is_over:
        player = game.current_player
        assert player is not None
        if player not in mine:
            move = _solver_move(solver, game, args, fallback, write)
            game.push(move)
            write(f"solver (seat {player}, {_role(game, player)}): {move}")
            shown = False
            continue
        if not shown:
            write(table_text(game))
            shown = True
        answer = ask_move(
            game,
            prompt=f"your move (seat {player})> ",
            read=read,
            write=write,
            legal_words=("?", "moves"),
            words=("hint", "analyse", "analyze", "undo", "help"),
        )
        if answer is None:
            return 0
        if answer == "help":
            write(instructions)
            continue
        if answer == "hint":
            result = interruptible(
                solver,
                lambda: solver.solve(
                    game, time_limit=args.time_limit, node_limit=args.node_limit, line=False
                ),
            )
            if result.value is None:
                write(f"hint: unknown within {_limits_text(args)}")
            elif result.value > 0:
                write(f"hint: {result.move} wins for {you}")
            else:
                write(f"hint: {result.move} holds out longest; {you} loses against best play")
            continue
        if answer in ("analyse", "analyze"):
            values = interruptible(
                solver,
                functools.partial(
                    solver.analyse, game, time_limit=args.time_limit, node_limit=args.node_limit
                ),
            )
            write("\n".join(analysis(game, values, None)))
            continue
        if answer == "undo":
            if _undo(game, mine):
                shown = False
            else:
                write("Nothing to take back: this is the puzzle's start.")
            continue
        assert not isinstance(answer, str)  # every word is answered above
        write(f"you (seat {player}, {_role(game, player)}): {answer.action}")
        shown = False
    write(table_text(game))
    winner = game.winner
    assert winner is not None
    side_won = "the landlord wins" if winner == game.landlord else "the farmers win"
    write(f"Seat {winner} went out: {side_won}, score x{game.multiplier}.")
    write("You win!" if winner in mine or _same_side(game, winner, mine) else "You lose.")
    return 0


def _my_seats(game: ddz.Game, chosen: str | None) -> frozenset[int]:
    """The seats the person plays: one side's (the farmers play as a team)."""
    players = game.rules.players
    if chosen is None:
        anchor = game.current_player
    elif chosen == "landlord":
        anchor = game.landlord
    elif chosen == "farmers":
        anchor = next(p for p in range(players) if p != game.landlord)
    else:
        anchor = int(chosen)
        if anchor not in range(players):
            raise ValueError(f"--side {chosen}: the seats are 0..{players - 1}")
    landlord = anchor == game.landlord
    return frozenset(p for p in range(players) if (p == game.landlord) == landlord)


def _same_side(game: ddz.Game, seat: int, mine: frozenset[int]) -> bool:
    return (seat == game.landlord) == (game.landlord in mine)


def _role(game: ddz.Game, seat: int) -> str:
    return "landlord" if seat == game.landlord else "farmer"


def _undo(game: ddz.Game, mine: frozenset[int]) -> bool:
    """Take back the person's last move and the solver's answers after it; False at the
    start of the puzzle (nothing of theirs to take back)."""
    history = game.history
    last = max((i for i, record in enumerate(history) if record.player in mine), default=None)
    if last is None:
        return False
    for _ in range(len(history) - last):
        game.undo()
    return True


def _solver_move(
    solver: Solver,
    game: ddz.Game,
    args: argparse.Namespace,
    fallback: AnyAgent,
    write: Callable[[str], None],
) -> ddz.Move:
    result = interruptible(
        solver,
        lambda: solver.solve(
            game, time_limit=args.time_limit, node_limit=args.node_limit, line=False
        ),
    )
    if result.move is not None:
        return result.move
    write(f"(the solver found no verdict within {_limits_text(args)}: a greedy move)")
    action = choose(fallback, game)
    assert isinstance(action, ddz.Move)
    return action
