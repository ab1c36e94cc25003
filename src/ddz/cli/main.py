"""The command line: ``python -m ddz COMMAND``.

``moves HAND [--last MOVE] [--rules NAME]``
    every legal move of a hand, grouped by type (leads, or answers to ``--last``).
``classify CARDS [--rules NAME]``
    every reading of a multiset.
``bench [--positions N] [--games N]``
    how fast this machine generates moves, through each entry point, and plays random
    games through the Python loop.
``simulate [--games N] [--agents random,greedy] [--seed S] [--rules NAME] [--tables N]``
    an arena: the agents play the same deals from every seat; WP and ADP per agent (agents:
    random, greedy, the search agents pimc and solver, ``ddz.play.search_agents``, and
    ``douzero:PATH``, DouZero's checkpoints, ``ddz.learn.agent``).
``arena AGENT... [--against rlcard-rule] [--deals N] [--seed S] [--rules rlcard]``
    duplicate matches: each agent plays every deal as landlord and as the farmers against
    the opponent, and as a farmer beside it; WP and ADP per side (``ddz.play.duplicate``;
    ``rlcard-rule`` is RLCard's rule agent, ``ddz.compat.rlcard_rule``).
``play [--seat 0] [--agents greedy,greedy] [--seed S] [--rules NAME]``
    play a game in the terminal against agents.
``perft [--seed S] [--first-player P] [--actions A,B] [--record FILE] --depth D [--divide]``
    the number of game-tree nodes at each depth below a position (``ddz.doudizhu.perft``).
``uno simulate ...``, ``uno play ...``
    UNO with the Lombardy house rules (``ddz.cli.uno``).
``solve POSITION [--analyse] [--score] [--play] [--time-limit S] ...``
    the exact solver on a position in its text form: verdict, best move, line
    (``ddz.cli.solve``).
``review RECORD [--score] [--json] [--node-limit N] [--time-limit S]``
    a played game judged move by move with every hand open: blunders and the best moves
    (``ddz.cli.review``).
``train [--xpid NAME] [--num-actors N] [--tables-per-actor N] [--total-frames N] ...``
    DouZero's Deep Monte-Carlo training on the DouZero drop-in, with DouZero's flags and
    checkpoints (``ddz.cli.train``; needs PyTorch).
``serve [--port 8000] [--host 127.0.0.1]``
    a local web page to play any game against agents and to replay records (``ddz.web``).

Every command takes ``--help``. Bad arguments end with one line on stderr and exit status 2;
Ctrl-C ends any command with exit status 130 and no traceback.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import TextIO

import numpy as np

import ddz
from ddz.base.clikit import SEED, Parser, integer, run
from ddz.base.errors import MAX_RECORD
from ddz.cli import review as review_cli
from ddz.cli import solve as solver_cli
from ddz.cli import train as train_cli
from ddz.cli.prompt import ask_move
from ddz.doudizhu import batch
from ddz.doudizhu.render import grouped as _grouped
from ddz.doudizhu.render import text as _table
from ddz.doudizhu.render import wrap_items
from ddz.doudizhu.rules import PRESETS
from ddz.play.agents import (
    AGENT_KINDS,
    AGENTS,
    AgentFactory,
    AnyAgent,
    GreedyAgent,
    agent_factory,
    agent_names,
    choose,
)
from ddz.play.arena import CORE_AGENTS, run_arena, run_core_arena, seatings
from ddz.play.duplicate import run_duplicate
from ddz.play.search_agents import SolverAgent

MAX_GAMES = 10**8
"""The most games one ``simulate`` plays: its per-deal results are held in memory (a few
hundred megabytes at this bound)."""
MAX_POSITIONS = 10**6
"""The most hands ``bench`` times (they are held as Python objects)."""


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
    for name, timed in runs:
        rate = _median_rate(len(hands), timed, args.repeats)
        print(f"  {name:<24} {rate:>12,.0f} hands/s")
    if args.games > 0:
        try:
            ddz.Game(rules, seed=0)
        except ValueError as error:
            print(f"  random games: not timed ({error})")
            return 0
        plies: list[int] = []
        rate = _median_rate(
            args.games, lambda: plies.append(_random_games(rules, args.games, args.seed)), 3
        )
        print(
            f"{args.games} random games, legal_actions() + push() (void deals too), "
            "median of 3 runs\n"
            f"  {'random games':<24} {rate:>12,.0f} games/s, "
            f"{rate * plies[0] / args.games:,.0f} actions/s"
        )
    return 0


def _random_games(rules: ddz.Rules, games: int, seed: int) -> int:
    """Play random games (void deals included) through the Python API; returns the actions."""
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    for index in range(games):
        game = ddz.Game(rules, seed=seed + index)
        while not game.is_over:
            game.push(choice(game.legal_actions()))
            actions += 1
    return actions


# --- simulate ------------------------------------------------------------------------------


class _Progress:
    """Progress on stderr: one updating line on a terminal, else a line every 10 seconds."""

    def __init__(
        self, total: int, stream: TextIO, *, enabled: bool = True, label: str = "simulate"
    ) -> None:
        self.total = total
        self.label = label
        self.stream = stream
        self.enabled = enabled
        self.tty = stream.isatty()
        self.start = self.last = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if done < total and now - self.last < (0.2 if self.tty else 10.0):
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        left = (total - done) / rate if rate else math.inf
        percent = 100 * done / max(total, 1)
        line = f"{self.label}: {done}/{total} deals ({percent:.0f}%), {rate:,.1f} deals/s"
        if done < total:
            line += f", {left:,.0f} s left"
        if self.tty:
            self.stream.write("\r" + line + "\033[K")
            if done == total:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def _factory(name: str) -> AgentFactory:
    """:func:`agent_factory` for the command line: what is wrong with a ``douzero:PATH``
    (no such file, a directory without the checkpoints, no PyTorch) is one line, not a
    traceback (the resolver says it with FileNotFoundError or ImportError)."""
    try:
        return agent_factory(name)
    except (OSError, ImportError) as error:
        raise ValueError(str(error)) from None


def _agent_names(text: str) -> tuple[list[str], dict[str, AgentFactory]]:
    """The names of ``--agents`` and a registry holding them: ``douzero:PATH`` is resolved
    (its checkpoint read) here, once."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    registry = dict(AGENTS)
    for name in names:
        registry[name] = _factory(name)
    return names, registry


def _simulate(args: argparse.Namespace) -> int:
    names, registry = _agent_names(args.agents)
    rules = PRESETS[args.rules]
    plan = seatings(names, rules.players)
    # --games counts games played to a result, whatever the engine; every deal is played once
    # per seating, so round up to whole deals. A void deal is redealt (python) or, with a void
    # game under any seating, replaced by the next deal (core): either way every deal counted
    # is played to a result under every seating.
    deals = -(-args.games // len(plan))
    progress = _Progress(deals, sys.stderr, enabled=not args.quiet)
    start = time.perf_counter()
    engine = args.engine
    if engine == "auto":
        engine = "core" if set(names) <= CORE_AGENTS else "python"
    if engine == "core":
        result = run_core_arena(
            names,
            deals=deals,
            seed=args.seed,
            rules=rules,
            threads=args.threads,
            progress=progress,
            void="replace",
        )
    else:
        result = run_arena(
            names,
            deals=deals,
            seed=args.seed,
            rules=rules,
            progress=progress,
            registry=registry,
            tables=args.tables,
        )
    if not args.quiet:
        elapsed = time.perf_counter() - start
        print(
            f"{result.games} games in {elapsed:.1f} s ({result.games / max(elapsed, 1e-9):,.0f}"
            f" games/s, {engine} engine)",
            file=sys.stderr,
        )
    print(result.table())
    return 0


# --- arena ---------------------------------------------------------------------------------


def _rlcard_rule(seed: int | None) -> AnyAgent:
    from ddz.compat.rlcard_rule import RLCardRuleAgent  # needs rlcard: loaded when asked for

    return RLCardRuleAgent(seed)


ARENA_AGENTS: dict[str, AgentFactory] = {**AGENTS, "rlcard-rule": _rlcard_rule}
"""The agents ``arena`` plays: ddz's, and RLCard 1.2.0's rule agent (``rlcard-rule``);
``solver:MODEL`` is ``SolverAgent`` told its opponents play as ``MODEL``, one of these."""


def _modelling_solver(model: AgentFactory) -> AgentFactory:
    """``SolverAgent`` whose playouts play its opponents as ``model`` does."""

    def factory(seed: int | None) -> AnyAgent:
        return SolverAgent(seed, opponent=model)

    return factory


def _arena_registry(names: Sequence[str]) -> dict[str, AgentFactory]:
    """ARENA_AGENTS, ``solver:MODEL`` and ``kind:ARGUMENT`` (``douzero:PATH``, its
    checkpoint read here, once) for each such name (ValueError for another)."""
    registry = dict(ARENA_AGENTS)
    for name in names:
        kind, colon, model = name.partition(":")
        if colon and kind == "solver" and model in ARENA_AGENTS:
            if getattr(ARENA_AGENTS[model](0), "perfect_information", False):
                raise ValueError(f"{name}: {model} reads every hand, it cannot model a seat")
            registry[name] = _modelling_solver(ARENA_AGENTS[model])
        elif colon and kind in AGENT_KINDS:
            registry[name] = _factory(name)
        elif name not in registry:
            kinds = "".join(f", {k.usage}" for k in AGENT_KINDS.values())
            raise ValueError(
                f"no agent {name!r}; the agents are: {', '.join(ARENA_AGENTS)}, solver:MODEL "
                f"(the solver told its opponents play as MODEL, one of these){kinds}"
            )
    return registry


def _arena(args: argparse.Namespace) -> int:
    names = [*args.agents, args.against]
    registry = _arena_registry(names)
    # RLCard's own agent, asked move by move (pimc:rlcard-rule plays its C port instead)
    if any(name in ("rlcard-rule", "solver:rlcard-rule") for name in names):
        if args.rules != "rlcard":
            raise ValueError("rlcard-rule plays RLCard's moves: --rules rlcard")
        try:
            _rlcard_rule(None)
        except ImportError as error:
            raise ValueError(str(error)) from None
    progress = _Progress(args.deals, sys.stderr, enabled=not args.quiet, label="arena")
    result = run_duplicate(
        args.agents,
        args.against,
        deals=args.deals,
        seed=args.seed,
        rules=PRESETS[args.rules],
        registry=registry,
        mixed=not args.no_mixed,
        progress=progress,
    )
    print(result.table())
    return 0


# --- play ----------------------------------------------------------------------------------


def play(
    *,
    seat: int = 0,
    agents: Sequence[str] = ("greedy",),
    seed: int | None = None,
    rules: ddz.Rules = ddz.CLASSIC,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """A game in the terminal: the person at ``seat`` against ``agents`` in the other seats
    (in seat order; one name fills them all). ``read`` asks for a line (EOFError ends the
    game), ``write`` prints one. Returns the exit status: 0 (the game ended or the player
    quit)."""
    seats = rules.players
    if seat not in range(seats):
        raise ValueError(f"--seat must be a seat 0..{seats - 1}, not {seat}")
    others = [other for other in range(seats) if other != seat]
    names = list(agents) or ["greedy"]
    if len(names) == 1:
        names *= len(others)
    if len(names) != len(others):
        raise ValueError(f"name one agent, or one for each of the {len(others)} other seats")
    factories = {name: _factory(name) for name in names}  # a checkpoint is read once
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    pairs = list(zip(others, names, strict=True))
    players = {other: factories[name](seed + other) for other, name in pairs}
    labels = {other: f"seat {other} ({name})" for other, name in pairs}
    labels[seat] = "you"

    def label(player: int) -> str:
        if game.landlord is None:
            return labels[player]
        return f"{labels[player]}, {'landlord' if player == game.landlord else 'farmer'}"

    write(f"ddz: you are seat {seat}, against {' and '.join(labels[o] for o in others)}.")
    again = replay_command(seed=seed, seat=seat, agents=agents, rules=rules)
    write(f"Seed {seed}: '{again}' deals this game again.")
    instructions = _instructions(rules)
    write(instructions)
    adviser = GreedyAgent()
    game = ddz.Game(rules, seed=seed)
    _deal_lines(game, seat, write)
    landlord_known = False
    while True:
        if game.is_over:
            if not game.is_void:
                break
            write("Nobody bid: the deal is void. Redealing.")
            game = game.redeal()
            _deal_lines(game, seat, write)
            continue
        if game.landlord is not None and not landlord_known:
            landlord_known = True
            write(_landlord_line(game, seat))
            if seats == 2 and game.grabs:
                write(f"Let cards: the farmer wins on holding {game.grabs} card(s) or fewer.")
        player = game.current_player
        assert player is not None
        if player != seat:
            who = label(player)  # before the action: a bid can make the landlord
            action = choose(players[player], game)
            game.step(action)
            write(f"{who}: {action}")
            continue
        _show(game, seat, write)
        who = label(seat)  # before the action, as above
        while True:
            record = ask_move(
                game,
                prompt="your move> ",
                read=read,
                write=write,
                legal_words=("?",),
                words=("hint", "help"),
            )
            if record == "help":
                write(instructions)
            elif record == "hint":
                legal = [str(action) for action in game.legal_actions()]
                write(wrap_items(f"legal ({len(legal)}):", legal))
                suggestion = choose(adviser, game)  # from what your seat sees, as any agent
                write(f"hint: the greedy agent would choose {suggestion}")
            else:
                break
        if record is None:
            return 0
        assert not isinstance(record, str)
        write(f"{who}: {record.action}")
    write("Every hand at the end:")
    write(_table(game))
    _show_result(game, seat, labels, write)
    return 0


def replay_command(
    *, seed: int, seat: int = 0, agents: Sequence[str] = ("greedy",), rules: ddz.Rules = ddz.CLASSIC
) -> str:
    """The command that plays the same game again: every option that differs from the
    default.

    >>> replay_command(seed=3, rules=ddz.UNO_LANDLORD, seat=1, agents=["random", "greedy"])
    'python -m ddz play --seed 3 --rules uno-landlord --seat 1 --agents random,greedy'
    """
    words = ["python -m ddz play", f"--seed {seed}"]
    name = next((name for name, preset in PRESETS.items() if preset == rules), None)
    if name is None:
        raise ValueError("the command line plays the preset rules only")
    if name != "classic":
        words.append(f"--rules {name}")
    if seat != 0:
        words.append(f"--seat {seat}")
    if list(agents) not in ([], ["greedy"]):
        words.append(f"--agents {','.join(agents)}")
    return " ".join(words)


def _instructions(rules: ddz.Rules) -> str:
    """What the person may type, under these rules (no bids where the landlord is drawn)."""
    bids = {
        ddz.Bidding.POINTS: " or a bid (bid 1, bid 2, bid 3, pass)",
        ddz.Bidding.CALL_GRAB: " or a bid (call, grab, pass)",
        ddz.Bidding.RANDOM: "",
    }[rules.bidding]
    text = textwrap.fill(
        f"Type a move in the notation (333+4, 34567, XD, pass){bids}; 'hint' asks the greedy "
        "agent for a move and lists your legal moves, '?' lists them, 'help' shows this, "
        "'quit' leaves.".replace("bid ", "bid\N{NO-BREAK SPACE}"),  # a bid is one word
        width=80,
    )
    return text.replace("\N{NO-BREAK SPACE}", " ")


def _deal_lines(game: ddz.Game, seat: int, write: Callable[[str], None]) -> None:
    """Your hand, and who bids first (where there is bidding)."""
    write(f"Your hand: {_grouped(game.hands[seat])}")
    if game.rules.bidding is not ddz.Bidding.RANDOM:
        write(f"Seat {game.first_player} bids first.")


def _landlord_line(game: ddz.Game, seat: int) -> str:
    """Who is the landlord, how (drawn or bid) and the kitty it takes, if the rules have one."""
    mine = game.landlord == seat
    who = "You are" if mine else f"Seat {game.landlord} is"
    drawn = " (drawn at random: no bidding)" if game.rules.bidding is ddz.Bidding.RANDOM else ""
    if game.rules.kitty_size == 0:
        leads = "lead" if mine else "leads"
        return f"{who} the landlord{drawn} and {leads}; there is no kitty."
    takes = "take" if mine else "takes"
    return f"{who} the landlord{drawn} and {takes} the kitty: {_grouped(game.kitty)}."


def _show_result(
    game: ddz.Game, seat: int, labels: dict[int, str], write: Callable[[str], None]
) -> None:
    winner = game.winner
    assert winner is not None
    side = "the landlord wins" if winner == game.landlord else "the farmers win"
    how = "went out" if not game.hands[winner] else "reached the let count"
    details = [f"bid {game.bid}" if game.rules.bidding is ddz.Bidding.POINTS else "base 1"]
    if game.grabs:
        details.append(f"{game.grabs} grab{'s' if game.grabs > 1 else ''} x2 each")
    if game.bombs:
        details.append(f"{game.bombs} bomb{'s' if game.bombs > 1 else ''} or rocket x2 each")
    if game.spring and game.rules.spring:
        details.append("spring x2")
    payoffs = game.payoffs()
    write(f"{labels[winner].capitalize()} {how}: {side}.")
    write(f"Score {game.multiplier} ({', '.join(details)}).")
    write("Payoffs: " + ", ".join(f"{labels[p]} {v:+d}" for p, v in enumerate(payoffs)) + ".")
    write("You win!" if payoffs[seat] > 0 else "You lose.")


def _show(game: ddz.Game, seat: int, write: Callable[[str], None]) -> None:
    """What the person at ``seat`` sees before acting: the table from their seat."""
    write(_table(game, seat=seat))


def _play(args: argparse.Namespace) -> int:
    return play(
        seat=args.seat,
        agents=[name.strip() for name in args.agents.split(",") if name.strip()],
        seed=args.seed,
        rules=PRESETS[args.rules],
    )


def _perft(args: argparse.Namespace) -> int:
    from ddz.doudizhu.perft import divide, perft

    if args.record is not None:
        try:
            with open(args.record, encoding="utf-8") as file:
                # at most one character past the longest record: /dev/zero, a pipe that never
                # ends or a huge file is refused after a bounded read, not read for ever
                text = file.read(MAX_RECORD + 1)
        except OSError as error:
            raise ValueError(f"cannot read {args.record}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise ValueError(f"cannot read {args.record}: it is not UTF-8 text") from None
        if len(text) > MAX_RECORD:
            raise ValueError(
                f"{args.record} is longer than a record may be ({MAX_RECORD:,} characters)"
            )
        game = ddz.Game.from_json(text) if text.lstrip().startswith("{") else None
        if game is None:
            game = ddz.Game.from_record(text)
        where = args.record
    else:
        game = ddz.Game(PRESETS[args.rules], seed=args.seed, first_player=args.first_player)
        where = f"{args.rules} rules, seed {args.seed}, first player {game.first_player}"
    for action in _actions(args.actions):
        game.step(action)
    to_act = "over" if game.current_player is None else f"seat {game.current_player} to act"
    taken = f"{len(game.history)} action{'s' if len(game.history) != 1 else ''}"
    print(f"perft: {where}, after {taken} ({game.phase}, {to_act})")
    start = time.perf_counter()
    if args.divide:
        parts = divide(game, args.depth)
        width = max((len(action) for action in parts), default=5)
        for action, nodes in parts.items():
            print(f"  {action:<{width}}  {nodes:>12}")
        total = sum(parts.values())
        print(f"  {'total':<{width}}  {total:>12} at depth {args.depth}")
    else:
        counts = perft(game, args.depth)
        total = sum(counts)
        print(f"  {'depth':>5}  {'nodes':>14}")
        for depth, nodes in enumerate(counts, start=1):
            print(f"  {depth:>5}  {nodes:>14}")
    elapsed = time.perf_counter() - start
    print(f"{elapsed:.2f} s, {total / max(elapsed, 1e-9):,.0f} nodes/s", file=sys.stderr)
    return 0


def _actions(text: str) -> list[str]:
    return [action.strip() for action in text.split(",") if action.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m ddz",
        description="ddz: the rules engine for Dou Dizhu and its family, on the command line. "
        "'python -m ddz COMMAND --help' explains a command.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    moves = commands.add_parser("moves", help="list the legal moves of a hand")
    moves.add_argument("hand", help="the hand, e.g. 33344456789TJQKA2XD")
    moves.add_argument("--last", help="the move to answer, e.g. 55 or 333+4")
    classify = commands.add_parser("classify", help="every reading of some cards")
    classify.add_argument("cards", help="the cards, e.g. 33334455")
    bench = commands.add_parser("bench", help="time move generation on this machine")
    bench.add_argument(
        "--positions",
        type=integer(1, MAX_POSITIONS),
        default=2000,
        help="random hands to time (default 2000)",
    )
    bench.add_argument(
        "--repeats", type=integer(1, 1000), default=5, help="runs to time, at most 1000 (default 5)"
    )
    bench.add_argument("--seed", type=SEED, default=1, help="the hands' seed (default 1)")
    bench.add_argument(
        "--games", type=integer(0), default=1000, help="random games to time (0: none; 1000)"
    )
    simulate = commands.add_parser(
        "simulate", help="agents play the same deals from every seat: WP and ADP per agent"
    )
    simulate.add_argument(
        "--games",
        type=integer(1, MAX_GAMES, bounds="1..10**8"),
        default=600,
        help="games to play to a result, at most 10**8, whatever the engine (rounded up to "
        "whole deals: each deal is played once per seating; a void deal is redealt, or on the "
        "core engine replaced by the next deal)",
    )
    simulate.add_argument(
        "--agents",
        default="random,greedy",
        help=f"1 to 3 comma-separated agents of {agent_names()} (default random,greedy)",
    )
    simulate.add_argument("--seed", type=SEED, default=0, help="the first deal's seed (default 0)")
    simulate.add_argument(
        "--engine",
        choices=("auto", "core", "python"),
        default="auto",
        help="core: every game in C (random and greedy agents; a deal with a void game is "
        "replaced by the next deal); python: the Python arena, which redeals void deals; auto: "
        "core when every agent is one the core plays",
    )
    simulate.add_argument(
        "--threads",
        type=integer(1, 1024),
        default=os.cpu_count() or 1,
        help="threads for the core engine (default: one per core)",
    )
    simulate.add_argument(
        "--tables",
        type=integer(1, 4096),
        default=64,
        help="games played at a time in lockstep by the python engine, so that an agent "
        "with a network (douzero:PATH) chooses at all of them in one forward pass; the "
        "results are the same whatever it is (default 64)",
    )
    simulate.add_argument("--quiet", action="store_true", help="no progress on stderr")
    arena = commands.add_parser(
        "arena",
        help="duplicate matches against one opponent: every deal played from both sides",
    )
    arena.add_argument(
        "agents",
        nargs="+",
        metavar="AGENT",
        help=f"the agents to measure, each in its own games: {', '.join(ARENA_AGENTS)}, "
        "solver:MODEL (the solver playing its opponents in its playouts as MODEL does: "
        "solver:rlcard-rule), pimc:MODEL (PIMC's playouts playing the other seats as MODEL: "
        "greedy, rlcard-rule or auto, the default), douzero:PATH (DouZero's checkpoints, "
        "--rules douzero)",
    )
    arena.add_argument(
        "--against",
        default="rlcard-rule",
        help="the opponent (default rlcard-rule: RLCard's rule agent, needs rlcard)",
    )
    arena.add_argument(
        "--deals",
        type=integer(1, MAX_GAMES, bounds="1..10**8"),
        default=100,
        help="deals to play, 4 games each per agent (2 with --no-mixed; default 100)",
    )
    arena.add_argument("--seed", type=SEED, default=0, help="the deals' seed (default 0)")
    arena.add_argument(
        "--rules",
        choices=sorted(
            name
            for name, rules in PRESETS.items()
            if rules.players == 3 and rules.bidding is ddz.Bidding.RANDOM
        ),
        default="rlcard",
        help="rules that name the landlord when play starts (default rlcard)",
    )
    arena.add_argument(
        "--no-mixed", action="store_true", help="leave out the mixed-team games (2 games a deal)"
    )
    arena.add_argument("--quiet", action="store_true", help="no progress on stderr")
    arena.set_defaults(run=_arena)
    play_ = commands.add_parser("play", help="play a game in the terminal against agents")
    play_.add_argument("--seat", type=integer(0, 2), default=0, help="your seat: 0, 1 or 2")
    play_.add_argument(
        "--agents",
        default="greedy",
        help=f"the agents in the other seats, in seat order, of {agent_names()}; one name "
        "fills them all (default greedy)",
    )
    play_.add_argument("--seed", type=SEED, default=None, help="the deal (default: a new one)")
    perft = commands.add_parser(
        "perft", help="count the game tree's nodes at each depth below a position"
    )
    perft.add_argument("--seed", type=SEED, default=1, help="the deal (default 1)")
    perft.add_argument(
        "--first-player",
        type=integer(0, 2),
        default=None,
        help="who bids first (random-landlord rules: who is landlord); default: the seed's",
    )
    perft.add_argument(
        "--actions", default="", help="actions taken first, comma-separated: 'bid 1,pass,bid 2'"
    )
    perft.add_argument(
        "--record",
        metavar="FILE",
        help="start from a game record (JSON or text) instead of a seeded deal",
    )
    perft.add_argument("--depth", type=integer(1, 64), default=4, help="plies to walk (default 4)")
    perft.add_argument(
        "--divide", action="store_true", help="the deepest count per first action instead"
    )
    uno = commands.add_parser(
        "uno",
        help="UNO with the Lombardy house rules: uno simulate ..., uno play ...",
        add_help=False,
    )
    uno.add_argument("uno_args", nargs=argparse.REMAINDER, help="see python -m ddz uno --help")
    for command in (moves, classify, bench, simulate, play_, perft):
        command.add_argument(
            "--rules", choices=sorted(PRESETS), default="classic", help="(default classic)"
        )
    moves.set_defaults(run=_moves)
    classify.set_defaults(run=_classify)
    bench.set_defaults(run=_bench)
    simulate.set_defaults(run=_simulate)
    play_.set_defaults(run=_play)
    perft.set_defaults(run=_perft)
    uno.set_defaults(run=_uno)
    solve = commands.add_parser(
        "solve",
        help="solve a position with every hand open: verdict, best move, line",
        epilog=solver_cli.EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solver_cli.add_arguments(solve, integer)
    solve.set_defaults(run=_solve)
    review = commands.add_parser(
        "review",
        help="judge a played game move by move with every hand open: blunders, best moves",
        epilog=review_cli.EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    review_cli.add_arguments(review, integer)
    review.set_defaults(run=review_cli.run)
    train = commands.add_parser(
        "train",
        help="train DouZero's networks by Deep Monte-Carlo on the DouZero drop-in (needs torch)",
        epilog=train_cli.EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    train_cli.add_arguments(train, integer)
    train.set_defaults(run=train_cli.run)
    serve = commands.add_parser("serve", help="play and replay games in a browser (local page)")
    serve.add_argument("--port", type=int, default=8000, help="default 8000; 0: any free port")
    serve.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1 (this machine)")
    serve.add_argument("--verbose", action="store_true", help="log every request on stderr")
    serve.set_defaults(run=_serve)
    for summary in commands._choices_actions:  # each command's --help opens with its summary
        command = commands.choices[summary.dest]
        text = summary.help or ""
        command.description = command.description or f"{text[:1].upper()}{text[1:]}."
    return parser


def _solve(args: argparse.Namespace) -> int:
    return solver_cli.run(args)


def _serve(args: argparse.Namespace) -> int:
    from ddz.web.server import serve  # the web server loads only when asked for

    return serve(args.host, args.port, quiet=not args.verbose)


def _uno(args: argparse.Namespace) -> int:
    from ddz.cli.uno import main as uno_main  # the UNO engine loads only when asked for

    return uno_main(args.uno_args)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["uno"]:
        return _uno(argparse.Namespace(uno_args=arguments[1:]))  # its own parser and --help
    args = build_parser().parse_args(arguments)
    return run(args.run, args)
