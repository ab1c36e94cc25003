"""Sure wins passed up: how often an agent could empty its hand and played something else.

Each agent plays ``--games`` seeded games, one seat each (rotating through the seats), the
other seats played by ``--against``; every finished game's record is then replayed ply by
ply, and at each of the agent's play decisions where a legal move empties the mover's hand
the move played is checked to be one of them. Going out ends the game with a win for the
mover's side, so any other move there gives up a certain win (or, at best, delays it).

    python benchmarks/sure_wins.py --games 2000 --agents greedy pimc solver

prints, per agent, the games, the decisions where going out was legal, and how many of
those did not go out (the strength table's "no sure win passed up" count).
"""

from __future__ import annotations

import argparse
import sys
import time

import ddz
from ddz.play.agents import AnyAgent, make_agent
from ddz.play.arena import play_game
from ddz.rules import PRESETS


def replay_counts(game: ddz.Game, seat: int) -> tuple[int, int]:
    """(decisions of ``seat`` where going out was legal, those where it was not taken),
    found by replaying the finished game's play phase from its record."""
    walk = game.copy()
    while walk.history and walk.history[-1].phase == "play":
        walk.undo()
    plies = game.history[len(walk.history) :]
    chances = missed = 0
    for record in plies:
        if record.player == seat:
            left = len(walk.hands[seat])
            outs = [m for m in walk.legal_actions() if not m.is_pass and len(m.cards) == left]
            if outs:
                chances += 1
                missed += record.action not in outs
        walk.push(record.action)
    return chances, missed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--agents", nargs="+", default=["greedy", "pimc", "solver"])
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--rules", default="classic", choices=PRESETS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = PRESETS[args.rules]
    print(
        f"{args.rules} rules, {args.games} games an agent against {args.against}, seed {args.seed}"
    )
    print(f"{'agent':<8} {'games':>6} {'could go out':>13} {'did not':>8} {'seconds':>8}")
    for name in args.agents:
        start = time.perf_counter()
        chances = missed = 0
        for index in range(args.games):
            seat = index % rules.players
            seed = args.seed * 1_000_003 + index
            agents: list[AnyAgent] = [
                make_agent(name if s == seat else args.against, seed * 7 + s)
                for s in range(rules.players)
            ]
            game, _ = play_game(ddz.Game(rules, seed=seed), agents)
            c, m = replay_counts(game, seat)
            chances += c
            missed += m
            if sys.stderr.isatty():
                print(f"\r{name}: {index + 1}/{args.games}", end="", file=sys.stderr)
        if sys.stderr.isatty():
            print("\r\033[K", end="", file=sys.stderr)
        seconds = time.perf_counter() - start
        print(f"{name:<8} {args.games:>6} {chances:>13} {missed:>8} {seconds:>8.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
