"""Where an agent loses its duplicate games: the lost games played back and solved.

Plays the games of ``python -m ddz arena AGENT --against OPPONENT`` (the same deals, seats
and agent seeds as ``ddz.play.duplicate.run_duplicate``) and, for every game the agent's
side lost, walks the positions of its play with every hand open and solves each (within
``--nodes``): the first position whose solve settles says whether the loss was already
determined there (lost against perfect play) or the side held a proved win it later gave up,
and by whom (the agent, or a partner of the opponent's kind). Prints one line per lost game
and a count per kind of game.

    python benchmarks/duplicate_losses.py solver --deals 100 --seed 1
"""

from __future__ import annotations

import argparse
import collections
import random
import sys

import ddz
from ddz.cli.main import _arena_registry
from ddz.play.arena import agent_seed, play_game
from ddz.play.duplicate import duplicate_seatings


def side_value(game: ddz.Game, ours: bool, nodes: int) -> int | None:
    """+1: the agent's side wins against perfect play, -1 loses, None: unknown."""
    result = ddz.solve(game, node_limit=nodes, line=False)
    if result.value is None:
        return None
    landlord = game.landlord
    mover_is_landlord = game.current_player == landlord
    won = (result.value > 0) == (mover_is_landlord == ours)
    return 1 if won else -1


def post_mortem(game: ddz.Game, agent_seats: set[int], nodes: int) -> str:
    """How a lost game went: the first settled verdict, and the move that lost a won one."""
    landlord = game.landlord
    ours_is_landlord = landlord in agent_seats
    plays = [entry for entry in game.history if entry.phase == "play"]
    back = game.copy()
    for _ in plays:
        back.undo()
    first: tuple[int, int] | None = None
    won_at: int | None = None
    blame = "-"
    for ply, entry in enumerate(plays):
        if sum(map(len, back.hands)) <= 40:
            value = side_value(back, ours_is_landlord, nodes)
            if value is not None:
                if first is None:
                    first = (ply, value)
                if value > 0:
                    won_at = ply
        mover = entry.player
        back.push(entry.action)
        if won_at == ply and not back.is_over:
            after = side_value(back, ours_is_landlord, nodes)
            if after is not None and after < 0:
                ours = (mover == landlord) == ours_is_landlord
                blame = "agent" if mover in agent_seats else "partner" if ours else "opponent"
    if first is None:
        return "never settled"
    cards = "lost" if first[1] < 0 else "won"
    return f"first settled at play ply {first[0]}: {cards}; a won position lost by: {blame}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent")
    parser.add_argument("--against", default="rlcard-rule")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=200_000)
    args = parser.parse_args()
    registry = _arena_registry([args.agent, args.against])
    rules = ddz.RLCARD
    rng = random.Random(args.seed)
    counts: collections.Counter[str] = collections.Counter()
    for deal in range(args.deals):
        deal_seed = rng.getrandbits(63)
        landlord = ddz.Game(rules, seed=deal_seed).landlord
        assert landlord is not None
        plan = duplicate_seatings(args.agent, args.against, landlord)
        for index, (side, seating) in enumerate(plan):
            players = [
                registry[who](agent_seed(deal_seed, 3 * index + seat))
                for seat, who in enumerate(seating)
            ]
            game, _ = play_game(ddz.Game(rules, seed=deal_seed), players)
            counts[f"{side} games"] += 1
            agent_seats = {seat for seat, who in enumerate(seating) if who == args.agent}
            ours_won = (game.winner == landlord) == (landlord in agent_seats)
            if ours_won:
                continue
            verdict = post_mortem(game, agent_seats, args.nodes)
            counts[f"{side} lost"] += 1
            counts[f"{side} lost, {verdict.split(';')[0].split(': ')[-1]}"] += 1
            counts[f"{side} lost, {verdict.split('; ')[-1]}"] += 1
            print(f"deal {deal} ({side}): {verdict}", flush=True)
    for key in sorted(counts):
        print(f"{key}: {counts[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
