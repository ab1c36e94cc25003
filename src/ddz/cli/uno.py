"""The UNO command line: ``main(argv)``, meant to sit behind ``python -m ddz uno``.

``simulate [--players 4] [--games 100] [--seed 0] [--agents greedy,random] [--rules lombardy]``
    seeded matches between agents; prints each seat's results (``--json`` for JSON).
``play [--players 4] [--seed S] [--seat 0] [--agents greedy] [--rules lombardy]``
    a person plays a match in the terminal against agents.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections.abc import Sequence

from ddz.base.clikit import SEED, Parser, integer, run
from ddz.uno.actions import Action
from ddz.uno.agents import AGENTS, Agent, choose, make_agent
from ddz.uno.game import Game
from ddz.uno.match import Match, round_seed
from ddz.uno.render import text
from ddz.uno.rules import PRESETS
from ddz.uno.simulate import simulate

__all__ = ["build_parser", "main"]


def _agent_names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in AGENTS:
            raise argparse.ArgumentTypeError(f"no agent {name!r} (one of {', '.join(AGENTS)})")
    if not names:
        raise argparse.ArgumentTypeError("name at least one agent")
    return names


def _simulate(args: argparse.Namespace) -> int:
    stats = simulate(
        args.players, args.games, seed=args.seed, agents=args.agents, rules=PRESETS[args.rules]
    )
    if args.json:
        print(json.dumps([dataclasses.asdict(s) for s in stats], indent=2))
        return 0
    rounds = stats[0].rounds if stats else 0
    print(
        f"{args.games} matches, {rounds} rounds, {args.players} players, {args.rules} rules, "
        f"seed {args.seed}"
    )
    print(
        f"{'seat':>4}  {'agent':<8} {'wins':>7} {'win %':>6} {'out':>6} {'score':>8} {'pts/rd':>7}"
    )
    for s in stats:
        print(
            f"{s.seat:>4}  {s.agent:<8} {s.matches_won:>7.1f} {100 * s.win_rate:>5.1f}% "
            f"{s.rounds_won:>6} {s.mean_score:>8.1f} {s.mean_round_points:>7.1f}"
        )
    return 0


# --- play ------------------------------------------------------------------------------------


def _show(game: Game, match: Match, seat: int) -> None:
    print(f"\nround {match.round}, scores {list(match.scores)}")
    print(text(game, seat=seat))


def _ask(game: Game, seat: int, actions: list[Action]) -> Action | None:
    """The person's action: a number from the list, or an action's text. None (Enter) only
    out of turn. EOFError and 'quit' end the program."""
    my_turn = game.current_player == seat
    for number, action in enumerate(actions, start=1):
        print(f"  {number}. {action.text}")
    prompt = "your move: " if my_turn else "out of turn (Enter to let it pass): "
    while True:
        text = input(prompt).strip()
        if text.lower() in ("quit", "exit"):
            raise EOFError
        if not text:
            if not my_turn:
                return None
            continue
        if text.isdigit() and 1 <= int(text) <= len(actions):
            return actions[int(text) - 1]
        try:
            action = Action.parse(text, default_player=seat)
        except ValueError as error:
            print(f"  {error}")
            continue
        if action.player != seat:
            print("  you play for yourself only")
            continue
        reason = game.why_illegal(action)
        if reason is not None:
            print(f"  {reason}")
            continue
        if game.is_wrong_jump_in(action):
            print("  a wrong jump-in: you draw two")
        return action


def _play(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    match = Match(args.players, seed=seed, rules=PRESETS[args.rules])
    if args.seat not in range(args.players):
        raise ValueError(f"--seat is 0..{args.players - 1}")
    agents: dict[int, Agent] = {}
    others = [p for p in range(args.players) if p != args.seat]
    for index, player in enumerate(others):
        agents[player] = make_agent(args.agents[index % len(args.agents)], round_seed(seed, player))
    again = replay_command(args, seed)
    print(f"UNO, {args.rules} rules, seed {seed}: you are player {args.seat}. 'quit' to stop.")
    print(f"'{again}' deals this match again.")
    shown = 0
    try:
        while not match.is_over:
            game = match.game
            if shown != match.round:
                shown = match.round
                print(f"\nround {shown}, dealer {game.dealer}: the first card is {game.top}")
            by_player: dict[int, list[Action]] = {}
            for action in game.legal_actions():
                by_player.setdefault(action.player, []).append(action)
            intents: list[Action] = []
            for player, actions in by_player.items():
                if player == args.seat:
                    _show(game, match, args.seat)
                    choice = _ask(game, args.seat, actions)
                else:
                    choice = choose(agents[player], game, player, actions)
                if choice is not None:
                    intents.append(choice)
            rounds = len(match.results)
            for action in match.resolve(intents):
                print(
                    f"player {action.player}: {action.text}"
                    if action.player != args.seat
                    else f"you: {action.text}"
                )
            if len(match.results) > rounds:
                result = match.results[-1]
                who = "nobody (blocked)" if result.winner is None else f"player {result.winner}"
                print(f"\nround {result.round} over: {who} went out; points {list(result.points)}")
    except EOFError:
        print("\nbye")
        return 0
    winners = ", ".join(str(p) for p in match.winners)
    print(f"\nmatch over: scores {list(match.scores)}; lowest total: player {winners}")
    return 0


def replay_command(args: argparse.Namespace, seed: int) -> str:
    """The command that deals the same match again: every option that is not the default."""
    words = ["python -m ddz uno play", f"--seed {seed}"]
    if args.players != 4:
        words.append(f"--players {args.players}")
    if args.rules != "lombardy":
        words.append(f"--rules {args.rules}")
    if args.seat != 0:
        words.append(f"--seat {args.seat}")
    if args.agents != ["greedy"]:
        words.append(f"--agents {','.join(args.agents)}")
    return " ".join(words)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m ddz uno",
        description="UNO with the Lombardy house rules (or the standard ones): simulate matches "
        "between agents, or play one in the terminal. 'python -m ddz uno COMMAND --help' "
        "explains a command.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sim = commands.add_parser("simulate", help="seeded matches between agents")
    sim.add_argument("--games", type=integer(1), default=100, help="matches to play (default 100)")
    sim.add_argument("--seed", type=SEED, default=0, help="the first match's seed (default 0)")
    sim.add_argument(
        "--agents",
        type=_agent_names,
        default=["greedy", "random"],
        help="agents by seat, comma-separated, repeated to fill (greedy,random)",
    )
    sim.add_argument("--json", action="store_true", help="print the results as JSON")
    play = commands.add_parser("play", help="play a match in the terminal against agents")
    play.add_argument("--seed", type=SEED, default=None, help="the match (default: a new one)")
    play.add_argument("--seat", type=integer(0, 9), default=0, help="your seat (default 0)")
    play.add_argument(
        "--agents",
        type=_agent_names,
        default=["greedy"],
        help="the other seats' agents, comma-separated (default greedy)",
    )
    for command in (sim, play):
        command.add_argument("--players", type=integer(2, 10), default=4, help="2..10 (default 4)")
        command.add_argument(
            "--rules", choices=sorted(PRESETS), default="lombardy", help="(default lombardy)"
        )
    for command, summary in ((sim, "Seeded matches between agents."), (play, "Play a match.")):
        command.description = summary
    sim.set_defaults(run=_simulate)
    play.set_defaults(run=_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the UNO command line with ``argv`` (the arguments after ``uno``); the exit code."""
    args = build_parser().parse_args(argv)
    return run(args.run, args)


if __name__ == "__main__":
    sys.exit(main())
