#!/usr/bin/env python3
"""DouZeroAgent's decisions per second: the arena's tables in lockstep against one at a time.

The same seeded games (``ddz.DOUZERO``, a DouZeroAgent with random weights at every seat) are
played by ``ddz.play.arena.play_games`` with ``tables=1`` (each decision one forward pass of
a position's model) and with ``tables=--tables`` (all the decisions of a position at one step
one forward pass); the games are checked equal first. A decision is one seat to act the agent
is asked about (one with a single legal action too, which needs no network). The arena hands
the agent the games (``act_games``); ``--observations`` also measures it handed each seat's
observation (``act_batch``), both ways, as the arena did before.

Samples run round-robin (batched, one at a time, ...), each a pass over ``--games`` games
with the garbage collector paused; the median of ``--repeats`` samples of each is reported,
and the ratio of the medians. ``--deep-agent`` adds DouZero's own loop on the same deals
(``douzero.env.game.GameEnv`` with ``DeepAgent``, which runs the LSTM once per legal action),
when DouZero imports.

PyTorch runs on ``--threads`` threads (default 1: the machine is shared; the ratio is
what matters). Needs ddz with its learn extra (``pip install "ddz[learn]"``).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import torch

import ddz
from ddz.learn.agent import DouZeroAgent
from ddz.learn.models import POSITIONS, new_models
from ddz.play.arena import play_games


def games(count: int, agent: DouZeroAgent, seed: int) -> list[tuple[ddz.Game, list[Any]]]:
    return [(ddz.Game(ddz.DOUZERO, seed=seed + k), [agent] * 3) for k in range(count)]


class ObservationAgent(DouZeroAgent):
    """DouZeroAgent without ``act_games``: the arena hands it observations (``act_batch``),
    as before it read the games' state in C (``--observations``)."""

    act_games = None  # type: ignore[assignment]


def arena_sample(agent: DouZeroAgent, count: int, seed: int, tables: int) -> tuple[int, float]:
    decisions = 0
    # the method the arena calls (act_games asks act_batch for bidding: not counted twice)
    name = "act_games" if callable(agent.act_games) else "act_batch"
    original = getattr(agent, name)

    def counted(given: Any) -> Any:
        nonlocal decisions
        decisions += len(given)
        return original(given)

    setattr(agent, name, counted)
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in play_games(games(count, agent, seed), tables=tables):
            pass
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
        delattr(agent, name)
    return decisions, elapsed


def deep_agent_sample(directory: Path, count: int, seed: int) -> tuple[int, float] | None:
    """DouZero's own DeepAgent on the deals of ddz's games (the landlord's seat as DouZero's
    landlord), or None without DouZero."""
    try:
        import douzero
    except ImportError:
        return None
    spec = importlib.util.spec_from_file_location(
        "douzero.dmc.models", Path(douzero.__file__).parent / "dmc" / "models.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["douzero.dmc.models"] = module  # douzero.dmc's __init__ needs GitPython
    from douzero.env.game import GameEnv
    from douzero.evaluation.deep_agent import DeepAgent

    values = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
    deep = {p: DeepAgent(p, str(directory / f"{p}.ckpt")) for p in POSITIONS}
    decisions = 0

    class Counting:
        def __init__(self, position: str) -> None:
            self.position = position

        def act(self, infoset: Any) -> Any:
            nonlocal decisions
            decisions += 1
            return deep[self.position].act(infoset)

    deals = []
    for k in range(count):
        game = ddz.Game(ddz.DOUZERO, seed=seed + k)
        landlord = game.landlord
        assert landlord is not None
        hands = {
            "landlord": game.hands[landlord],
            "landlord_down": game.hands[(landlord + 1) % 3],
            "landlord_up": game.hands[(landlord + 2) % 3],
        }
        deal = {
            p: [v for v, n in zip(values, cards.counts(), strict=True) for _ in range(n)]
            for p, cards in hands.items()
        }
        kitty = game.kitty.counts()
        deal["three_landlord_cards"] = [
            v for v, n in zip(values, kitty, strict=True) for _ in range(n)
        ]
        deals.append(deal)
    gc.disable()
    try:
        start = time.perf_counter()
        with torch.inference_mode():
            for deal in deals:
                env = GameEnv({p: Counting(p) for p in POSITIONS})
                env.card_play_init({k: list(v) for k, v in deal.items()})
                while not env.game_over:
                    env.step()
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return decisions, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=64, help="games per sample (default 64)")
    parser.add_argument("--tables", type=int, default=64, help="tables in lockstep (default 64)")
    parser.add_argument("--repeats", type=int, default=5, help="samples of each (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--deep-agent", action="store_true", help="DouZero's own loop too")
    parser.add_argument(
        "--observations",
        action="store_true",
        help="also hand the agent observations (act_batch), both ways, as before act_games",
    )
    parser.add_argument("--json", metavar="PATH", help="write the samples and medians")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    models = new_models()
    directory = Path(tempfile.mkdtemp())
    for position, model in models.items():
        torch.save(model.state_dict(), directory / f"{position}.ckpt")
    agent = DouZeroAgent(directory)
    # the arena samples: (agent, tables) of each kind
    arenas: dict[str, tuple[DouZeroAgent, int]] = {
        "batched": (agent, args.tables),
        "one table": (agent, 1),
    }
    if args.observations:
        observing = ObservationAgent(directory)
        arenas["batched, observations"] = (observing, args.tables)
        arenas["one table, observations"] = (observing, 1)

    alone = [g.record() for g, _ in play_games(games(args.games, agent, args.seed), tables=1)]
    for kind, (player, tables) in arenas.items():
        if kind != "one table":
            played = play_games(games(args.games, player, args.seed), tables=tables)
            differ = sum(g.record() != a for (g, _), a in zip(played, alone, strict=True))
            print(f"{kind}: {differ} of {args.games} games differ from one table", flush=True)

    kinds = [*arenas] + (["DouZero DeepAgent"] if args.deep_agent else [])
    samples: dict[str, list[tuple[int, float]]] = {kind: [] for kind in kinds}
    for _ in range(args.repeats):
        for kind, (player, tables) in arenas.items():
            samples[kind].append(arena_sample(player, args.games, args.seed, tables))
        if args.deep_agent:
            result = deep_agent_sample(directory, args.games, args.seed)
            if result is None:
                print("DouZero does not import: its loop is skipped", file=sys.stderr)
                kinds.pop()
                del samples["DouZero DeepAgent"]
                args.deep_agent = False
            else:
                samples["DouZero DeepAgent"].append(result)
    medians = {
        kind: statistics.median(n / seconds for n, seconds in samples[kind]) for kind in kinds
    }
    print(
        f"{args.games} games a sample, {samples['batched'][0][0]} decisions, "
        f"{args.repeats} samples, torch threads {args.threads}"
    )
    for kind in kinds:
        ratio = medians[kind] / medians["one table"]
        tables = f" ({args.tables} tables)" if kind.startswith("batched") else ""
        print(f"{kind + tables:<38} {medians[kind]:>10,.0f} decisions/s  {ratio:5.2f}x")
    if args.json:
        Path(args.json).write_text(json.dumps({"samples": samples, "medians": medians}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
