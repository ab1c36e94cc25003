"""Where PIMCAgent loses to GreedyAgent: the arena's games (pimc_arena.py's deals, seatings and
agent seeds) with every lost game played back and solved with every hand open.

    python benchmarks/pimc_losses.py --deals 20 --seed 1 [--counterfactual] [key=value ...]

(``key=value``: PIMCAgent's parameters, on top of the arena command's ``exact_cards=20
node_limit=5000 solve_nodes=100000 opponent=auto``.)

For every game PIMC's side lost it walks the play, solving each position (40 cards or fewer
left, within ``--nodes``) for PIMC's side: the first settled verdict says whether the game
was lost against perfect play when the solver first settles it, and each move that turns a
proved win into a proved loss is counted by who made it (PIMC, its greedy partner) and how
(a lead, a follow, a pass; over the partner's move; a bomb). With ``--counterfactual`` it
also finds the last of PIMC's decisions from which the open-handed solver, playing PIMC's
seats on (the greedy seats as they are), still wins, and says how PIMC played there (or
that the solver wins only from the deal, or not at all). A seating of two PIMC copies in
which one is the landlord is not played back: one copy wins, the other loses, whatever is
played. Prints a count per category,
the landlord's seat counts, and how many of PIMC's sampled worlds were consistent with the
greedy seats' observed play (the exact posterior against a deterministic greedy opponent).
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from typing import Any, ClassVar

from duplicate_losses import side_value  # benchmarks/duplicate_losses.py

import ddz
from ddz.agents import GreedyAgent
from ddz.play.arena import agent_seed, play_game, seatings
from ddz.play.inference import model_disagreements
from ddz.search_agents import PIMCAgent

STATS: collections.Counter[str] = collections.Counter()


class Watched(PIMCAgent):
    """PIMCAgent counting, at play decisions after the other seats have played, how many of
    its sampled worlds the greedy seats' play could come from (no greedy disagreement)."""

    greedy_seats: ClassVar[set[int]] = set()

    def _sample_models(self, observation, rules, seed):  # type: ignore[no-untyped-def]
        worlds, models = super()._sample_models(observation, rules, seed)
        if observation.phase == "play":
            counts = model_disagreements(observation, rules, worlds.hands, ["greedy"] * 3)
            if counts is not None:
                seats = [s for s in self.greedy_seats if s != observation.player]
                if seats:
                    ok = (counts[:, seats].sum(axis=1) == 0) & (counts[:, 0] >= 0)
                    STATS["decisions read"] += 1
                    STATS["worlds"] += len(ok)
                    STATS["worlds consistent"] += int(ok.sum())
                    distinct = {tuple(row) for row in worlds.hands.tolist()}
                    STATS["distinct worlds"] += len(distinct)
                    STATS["decisions with no consistent world"] += int(not ok.any())
        return worlds, models


def kind(game: ddz.Game, action: Any, mover: int) -> str:
    """How a move is played: lead/follow/pass, over the partner, a bomb."""
    landlord = game.landlord
    role = "landlord" if mover == landlord else "farmer"
    table = game.observation(mover).table_player
    if table is None or table == mover:
        how = "lead"
    elif mover != landlord and table != landlord:
        how = "over partner: " + ("pass" if action.is_pass else "cover")
    else:
        how = "follow: " + ("pass" if action.is_pass else "play")
    if not action.is_pass and action.is_bomb:
        how += " (bomb)"
    return f"{role} {how}"


def post_mortem(game: ddz.Game, pimc: set[int], nodes: int) -> list[str]:
    landlord = game.landlord
    ours_landlord = landlord in pimc
    plays = [e for e in game.history if e.phase == "play"]
    back = game.copy()
    for _ in plays:
        back.undo()
    first = None
    out = []
    value = None
    for entry in plays:
        left = sum(map(len, back.hands))
        value = side_value(back, ours_landlord, nodes) if left <= 40 else None
        if value is not None and first is None:
            first = value
            out.append(f"first settled: {'won' if value > 0 else 'lost'}")
        mover = entry.player
        label = kind(back, entry.action, mover)
        back.push(entry.action)
        if value is not None and value > 0 and not back.is_over:
            after = side_value(back, ours_landlord, nodes)
            if after is not None and after < 0:
                who = "PIMC" if mover in pimc else "greedy partner"
                out.append(f"blunder by {who}: {label}; {left} cards")
    if first is None:
        out.append("never settled")
    return out


def counterfactual(game: ddz.Game, pimc: set[int], deal_seed: int, nodes: int) -> str:
    """The last of PIMC's play decisions from which the open-handed solver, playing PIMC's
    seats on, wins against the same greedy seats (and how PIMC played there); else whether
    the solver in PIMC's seats from the deal (it bids as the greedy agent does) wins."""
    from ddz.search_agents import SolverAgent

    history = list(game.history)
    bids = sum(1 for e in history if e.phase == "bidding")
    decisions = [
        k for k, e in enumerate(history) if e.phase == "play" and e.player in pimc and k >= bids
    ]
    start = game.copy()
    while len(start.history):
        start.undo()

    def solver_wins(upto: int | None) -> bool:
        g = start.copy()
        if upto is None:
            g = ddz.Game(game.rules, seed=deal_seed)
        else:
            for e in history[:upto]:
                g.push(e.action)
        players = [
            SolverAgent(node_limit=nodes) if seat in pimc else GreedyAgent() for seat in range(3)
        ]
        done, _ = play_game(g, players)
        return (done.winner == done.landlord) == (done.landlord in pimc)

    for k in reversed(decisions):
        g = start.copy()
        for e in history[:k]:
            g.push(e.action)
        if len(g.legal_actions()) < 2:
            continue
        if solver_wins(k):
            left = sum(map(len, g.hands))
            return f"last winnable: {kind(g, history[k].action, history[k].player)}; {left} cards"
    if solver_wins(None):
        return "bidding: the open solver in PIMC's seats from the deal wins"
    return "not winnable: the open solver loses from PIMC's first move and from the deal"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="skip this many deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--counterfactual", action="store_true")
    parser.add_argument("--cf-nodes", type=int, default=20_000)
    parser.add_argument("options", nargs="*")
    args = parser.parse_args()
    options: dict[str, Any] = {
        "exact_cards": 20,
        "node_limit": 5000,
        "solve_nodes": 100_000,
        "opponent": "auto",
    }
    for item in args.options:
        key, value = item.split("=")
        try:
            options[key] = int(value)
        except ValueError:
            try:
                options[key] = float(value)
            except ValueError:
                options[key] = value
    rules = ddz.CLASSIC
    plan = seatings(["pimc", "greedy"], 3)
    rng = random.Random(args.seed)
    counts: collections.Counter[str] = collections.Counter()
    for deal in range(args.first + args.deals):
        deal_seed = rng.getrandbits(63)
        if deal < args.first:
            continue
        for index, seating in enumerate(plan):
            pimc = {seat for seat, name in enumerate(seating) if name == "pimc"}
            Watched.greedy_seats = {0, 1, 2} - pimc
            players: list[Any] = []
            for seat, name in enumerate(seating):
                s = agent_seed(deal_seed, 3 * index + seat)
                players.append(Watched(s, **options) if name == "pimc" else GreedyAgent(s))
            game, _ = play_game(ddz.Game(rules, seed=deal_seed), players)
            landlord = game.landlord
            solo = len(pimc) == 1
            tag = ("solo " if solo else "pair ") + ("landlord" if landlord in pimc else "farmer")
            won = (game.winner == landlord) == (landlord in pimc)
            counts[f"{tag} games"] += 1
            counts[f"{tag} won"] += won
            if won:
                continue
            if not solo and landlord in pimc:
                continue  # one PIMC seat wins, the other loses, whatever is played
            lines = post_mortem(game, pimc, args.nodes)
            if args.counterfactual:
                lines.append(counterfactual(game, pimc, deal_seed, args.cf_nodes))
            for line in lines:
                counts[f"{tag} lost: {line.split(';')[0]}"] += 1
            print(f"deal {deal} seating {index} {tag}: {' | '.join(lines)}", flush=True)
    for key in sorted(counts):
        print(f"{key}: {counts[key]}")
    for key in sorted(STATS):
        print(f"{key}: {STATS[key]}")
    if STATS["worlds"]:
        print(f"share consistent: {STATS['worlds consistent'] / STATS['worlds']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
