#!/usr/bin/env python3
"""Move-generation speed of ddz against OpenSpiel, DouZero and RLCard, in one process.

Every engine answers the same questions: the legal moves of the same seeded random hands,
leading on an empty table and answering a move on the table. Each hand is converted to each
engine's own representation (an OpenSpiel state, a DouZero card list, an RLCard string or
player, a ``ddz.Cards``) before any clock starts, so only move generation is timed. The
engines run round-robin, each sample a full pass over all positions (repeated until it lasts
``--min-time``), and the median of ``--repeats`` samples is reported, as timeit does with the
garbage collector paused.

This script installs nothing: a peer that does not import is skipped with a message. Run it
with a Python that has ddz and the peers installed (see ``benchmarks/README.md``).

Positions (see ``make_positions``)
    Leads: one hand of a shuffled 54-card deck, a third of them the landlord's 20 cards, the
    rest a farmer's 17. Answers: the 17 cards of the farmer who moves after the landlord,
    facing a random legal lead of the landlord's 20 cards from the same deal. Answering hands
    all hold 17 cards because no game reaches a 20-card hand facing a move (the landlord
    leads the first trick), so OpenSpiel, which builds states only by playing, has no such
    state; see ``OpenSpiel`` for how its states are built.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import importlib.metadata
import json
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np

import ddz
from ddz import batch

# Card ids are OpenSpiel's: card c < 52 has rank c % 13 (rank 0 is the 3, as in ddz.RANKS),
# 52 is the small joker and 53 the big joker. Suits never matter to any engine.
DECK_SIZE = 54
RANK_COUNT = 15

# The moves placed on the table to answer are drawn under rules every engine can represent:
# no four + two (OpenSpiel has none), distinct non-joker-pair single wings, and one reading
# per multiset, so that each engine reads the table move the same way.
TABLE_RULES = ddz.CLASSIC.replace(four_with_two=False, multiple_readings=False)

RULE_SETS: dict[str, ddz.Rules] = {
    "classic": ddz.CLASSIC,
    "douzero": ddz.DOUZERO,
    "rlcard": ddz.RLCARD,
}

# Speed targets for ddz, as multiples of OpenSpiel's sets/s: (leads, answers).
TARGETS: dict[str, tuple[float, float]] = {
    "objects": (2.0, 1.0),
    "raw": (10.0, 3.0),
    "batch": (20.0, 20.0),
}

# OpenSpiel's figures measured on another machine (leads and answer sets per second), the
# baseline when OpenSpiel cannot be imported here.
REFERENCE_OPENSPIEL = {"leads": 135_000.0, "answers": 2_470_000.0}

Cards = tuple[int, ...]


def rank_of(card: int) -> int:
    return card % 13 if card < 52 else card - 39


def rank_counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * RANK_COUNT
    for card in cards:
        counts[rank_of(card)] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# Positions


@dataclass(frozen=True)
class Deal:
    """One shuffled deck: the landlord's 20 cards (the 3-card kitty last), two farmers' 17."""

    landlord: Cards
    farmer1: Cards  # moves right after the landlord
    farmer2: Cards


@dataclass(frozen=True)
class Position:
    """A hand to move: ``seat`` names which hand of ``deal`` it is; ``table`` is the move to
    answer (``None``: leading)."""

    deal: Deal
    seat: str
    table: ddz.Move | None = None

    @property
    def hand(self) -> Cards:
        return getattr(self.deal, self.seat)  # type: ignore[no-any-return]


def make_positions(count: int, seed: int) -> tuple[list[Position], list[Position]]:
    """``count`` lead positions and ``count`` answer positions from ``count`` seeded deals."""
    rng = random.Random(seed)
    deals: list[Deal] = []
    for _ in range(count):
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        deals.append(Deal(tuple(deck[:20]), tuple(deck[20:37]), tuple(deck[37:])))
    seats = ("landlord", "farmer1", "farmer2")
    leads = [Position(deal, seats[i % 3]) for i, deal in enumerate(deals)]
    answers = []
    for deal in deals:
        landlord = ddz.Cards.from_counts(rank_counts(deal.landlord))
        table = rng.choice(list(ddz.legal_moves(landlord, rules=TABLE_RULES)))
        answers.append(Position(deal, "farmer1", table))
    return leads, answers


# ---------------------------------------------------------------------------------------------
# Contenders: one engine's pass over all positions, with everything it needs built beforehand


@dataclass
class Contender:
    name: str
    run: Callable[[], object]  # one pass over every position
    sizes: list[int]  # moves offered per position, for a sanity check of what is generated
    kind: str = "peer"  # "peer", or the ddz API level: "objects", "raw", "batch"
    samples: list[float] = field(default_factory=list)  # sets/s, one per repeat

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


@functools.cache  # one message per peer, not one per section
def try_import(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except Exception as error:  # a peer may fail on import for reasons of its own
        print(f"skipping {name}: cannot import it ({type(error).__name__}: {error})")
        return None


class OpenSpiel:
    """OpenSpiel's ``dou_dizhu`` states with chosen hands, built by replaying a game.

    A state is reached only by play: chance deals 51 cards one at a time in turn (seat k % 3
    gets the k-th card) after choosing which dealt card is face up, whose holder bids first;
    the 3 undealt cards are the kitty. With the first card face up, seat 0 bids first, bids
    3, becomes the landlord and leads. Then:

    * a 20-card lead: seat 0 is dealt the hand's first 17 cards, the kitty is its last 3;
    * a 17-card lead: seat 0 is dealt the hand, takes 3 other cards as the kitty and plays
      them as three singles that both farmers pass, and leads again holding exactly the hand
      (an OpenSpiel farmer can never lead with 17 cards: a farmer leads only after winning
      a trick);
    * an answer: seat 0 is dealt the landlord's 17 cards, leads the table move, and seat 1
      holds the farmer's 17 cards facing it.

    Legal actions depend only on the mover's cards and the trick's winning action, so these
    states ask exactly the question put to the other engines. Each built state is checked:
    its mover, its hand (from ``observation_string``) and whether it may pass.
    """

    def __init__(self, pyspiel: Any) -> None:
        self.game = pyspiel.load_game("dou_dizhu")
        probe = self.game.new_initial_state()
        # Action ids by what they play, read from the action strings rather than assuming
        # one release's numbering: "Pass", "Bid 3", "33344", "333444-57", "(BWJ)(CJ)".
        self.actions: dict[tuple[tuple[int, ...], tuple[int, ...] | None], int] = {}
        for action in range(self.game.num_distinct_actions()):
            text = probe.action_to_string(0, action)
            if text == "Pass":
                self.pass_action = action
            elif text == "Bid 3":
                self.bid3_action = action
            elif not text.startswith("Bid"):
                key = self._key_of_text(text)
                if key in self.actions:
                    raise RuntimeError(f"two OpenSpiel actions play {text!r}")
                self.actions[key] = action

    @staticmethod
    def _counts_of_text(text: str) -> tuple[int, ...]:
        counts = [0] * RANK_COUNT
        text = text.replace("(BWJ)", "X").replace("(CJ)", "D")
        for char in text:
            counts[ddz.RANKS.index(char)] += 1
        return tuple(counts)

    def _key_of_text(self, text: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        # Only airplanes with wings are written with a '-' (main part, then the wings); it
        # tells apart 333444555666 the airplane from 333444555-666 the winged airplane.
        main, dash, wings = text.partition("-")
        return self._counts_of_text(main), self._counts_of_text(wings) if dash else None

    def action_of(self, move: ddz.Move) -> int:
        winged = move.type in (ddz.MoveType.AIRPLANE_SINGLES, ddz.MoveType.AIRPLANE_PAIRS)
        if winged:
            key = (tuple(move.main.counts()), tuple(move.kickers.counts()))
        else:
            key = (tuple(move.cards.counts()), None)
        return self.actions[key]

    def _single(self, card: int) -> int:
        counts = [0] * RANK_COUNT
        counts[rank_of(card)] = 1
        return self.actions[(tuple(counts), None)]

    def _play(self, seats: tuple[Cards, Cards, Cards], plays: Sequence[int]) -> Any:
        state = self.game.new_initial_state()
        state.apply_action(0)  # the first card dealt is face up: seat 0 bids first
        deal_base = state.chance_outcomes()[0][0]  # "deal card 0" with all 54 cards unseen
        for k in range(51):
            state.apply_action(deal_base + seats[k % 3][k // 3])
        state.apply_action(self.bid3_action)
        for action in plays:
            state.apply_action(action)
        return state

    def state(self, position: Position) -> Any:
        deal, hand = position.deal, position.hand
        seats = (deal.landlord[:17], deal.farmer1, deal.farmer2)
        if position.table is not None:
            state = self._play(seats, [self.action_of(position.table)])
        elif position.seat == "landlord":
            state = self._play(seats, [])
        else:
            other = deal.farmer2 if position.seat == "farmer1" else deal.farmer1
            kitty = deal.landlord[17:]
            passes = [self.pass_action, self.pass_action]
            plays = [action for card in kitty for action in [self._single(card), *passes]]
            state = self._play((hand, deal.landlord[:17], other), plays)
        self._check(state, position)
        return state

    def _check(self, state: Any, position: Position) -> None:
        mover = 0 if position.table is None else 1
        if state.current_player() != mover:
            raise RuntimeError(f"OpenSpiel state has seat {state.current_player()} to move")
        first_line = state.observation_string(mover).splitlines()[0]
        held = self._counts_of_text(first_line.removeprefix("My hand ").strip())
        if list(held) != rank_counts(position.hand):
            raise RuntimeError(f"OpenSpiel state holds {first_line!r}, not the position's hand")
        may_pass = self.pass_action in state.legal_actions()
        if may_pass != (position.table is not None):
            raise RuntimeError("OpenSpiel state leads where it should answer, or vice versa")


def openspiel_contender(positions: list[Position]) -> Contender | None:
    pyspiel = try_import("pyspiel")
    if pyspiel is None:
        return None
    builder = OpenSpiel(pyspiel)
    states = [builder.state(position) for position in positions]

    def run() -> None:
        for state in states:
            state.legal_actions()

    sizes = [len(state.legal_actions()) for state in states]
    return Contender("OpenSpiel legal_actions", run, sizes)


# DouZero's card values by rank: 3..14 for 3..A, 17 for the 2, 20 and 30 for the jokers.
DOUZERO_VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)


def douzero_cards(counts: Sequence[int]) -> list[int]:
    return [DOUZERO_VALUES[rank] for rank, count in enumerate(counts) for _ in range(count)]


def douzero_contender(positions: list[Position]) -> Contender | None:
    if try_import("douzero.env.game") is None:
        return None
    from douzero.env.game import GameEnv
    from douzero.env.move_generator import MovesGener

    hands = [douzero_cards(rank_counts(position.hand)) for position in positions]
    if positions[0].table is None:

        def run() -> None:
            for hand in hands:
                MovesGener(hand).gen_moves()

        name = "DouZero MovesGener.gen_moves"

        def moves(index: int) -> list[list[int]]:
            return MovesGener(hands[index]).gen_moves()  # type: ignore[no-any-return]

    else:
        # DouZero answers inside GameEnv.get_legal_card_play_actions: it reads the table
        # move's type (move_detector), generates that type and bombs and filters them
        # (move_selector). The method reads only these three attributes of the game, so it
        # runs as is on a stand-in holding them.
        envs = []
        for hand, position in zip(hands, positions, strict=True):
            assert position.table is not None
            table = douzero_cards(position.table.cards.counts())
            envs.append(
                SimpleNamespace(
                    acting_player_position="landlord_down",
                    info_sets={"landlord_down": SimpleNamespace(player_hand_cards=hand)},
                    card_play_action_seq=[table],
                )
            )
        answer = GameEnv.get_legal_card_play_actions

        def run() -> None:
            for env in envs:
                answer(env)

        name = "DouZero GameEnv legal actions"

        def moves(index: int) -> list[list[int]]:
            return answer(envs[index])  # type: ignore[no-any-return]

    # DouZero may list a move twice (it combines kickers with repeats): count distinct ones.
    sizes = [len({tuple(sorted(move)) for move in moves(i)}) for i in range(len(hands))]
    return Contender(name, run, sizes)


RLCARD_RANKS = "3456789TJQKA2BR"  # RLCard writes the jokers B and R
RLCARD_SUITS = "SHDC"


def rlcard_text(counts: Sequence[int]) -> str:
    return "".join(RLCARD_RANKS[rank] * count for rank, count in enumerate(counts))


def rlcard_contender(positions: list[Position]) -> Contender | None:
    if try_import("rlcard.games.doudizhu.judger") is None:
        return None
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.player import DoudizhuPlayer

    if positions[0].table is None:
        # The judger computes a hand's plays once per game with playable_cards_from_hand
        # (later it only strikes out what the hand no longer holds): the generator to time.
        texts = [rlcard_text(rank_counts(position.hand)) for position in positions]
        generate = DoudizhuJudger.playable_cards_from_hand

        def run() -> None:
            for text in texts:
                generate(text)

        sizes = [len(generate(text)) for text in texts]
        return Contender("RLCard playable_cards_from_hand", run, sizes)

    # Answers: DoudizhuPlayer.available_actions(greater_player) calls get_gt_cards, which
    # scans RLCard's table of moves by type for those the hand holds that beat the table.
    pairs = []
    for position in positions:
        player = DoudizhuPlayer(1, np_random=None)
        player.set_current_hand([rlcard_card(card) for card in sorted(position.hand)])
        greater = DoudizhuPlayer(0, np_random=None)
        assert position.table is not None
        greater.played_cards = rlcard_text(position.table.cards.counts())
        pairs.append((player, greater))

    def run() -> None:
        for player, greater in pairs:
            player.available_actions(greater, None)

    sizes = [len(player.available_actions(greater, None)) for player, greater in pairs]
    return Contender("RLCard available_actions", run, sizes)


def rlcard_card(card: int) -> Any:
    from rlcard.games.base import Card

    if card == 52:
        return Card("BJ", "")
    if card == 53:
        return Card("RJ", "")
    return Card(RLCARD_SUITS[card // 13], RLCARD_RANKS[card % 13])


def ddz_contenders(positions: list[Position], label: str, rules: ddz.Rules) -> list[Contender]:
    """ddz at its three API levels: Move objects, raw codes per hand, one batch call."""
    hands = [ddz.Cards.from_counts(rank_counts(position.hand)) for position in positions]
    lasts = [position.table for position in positions]
    masks = [hand.mask for hand in hands]
    tables = [0 if last is None else last.code for last in lasts]
    hand_array = np.array(masks, dtype=np.uint64)
    table_array = np.array(tables, dtype=np.uint64)
    sizes = [
        len(ddz.legal_moves(hand, last, rules=rules))
        for hand, last in zip(hands, lasts, strict=True)
    ]
    out = np.empty(max(sizes), dtype=np.uint64)  # room for the largest set: no reallocation
    # Local names, as the peers' loops use: a module attribute lookup per call is no engine's.
    legal_moves, moves_into = ddz.legal_moves, batch.moves_into
    moves_batch = batch.legal_moves_batch

    def objects() -> None:
        for hand, last in zip(hands, lasts, strict=True):
            list(legal_moves(hand, last, rules=rules))

    def raw() -> None:
        for mask, table in zip(masks, tables, strict=True):
            moves_into(mask, table, rules, out)

    def batched() -> None:
        moves_batch(hand_array, table_array, rules=rules)

    return [
        Contender(f"ddz legal_moves -> Move ({label})", objects, sizes, "objects"),
        Contender(f"ddz raw moves_into ({label})", raw, sizes, "raw"),
        Contender(f"ddz legal_moves_batch ({label})", batched, sizes, "batch"),
    ]


# ---------------------------------------------------------------------------------------------
# Whole random games


def openspiel_game_contenders(count: int, seed: int) -> list[Contender]:
    """OpenSpiel's random games: whole games (chance deals, random bids, random play) and the
    play phase alone, from states prepared after the auction (cloned before each run)."""
    pyspiel = try_import("pyspiel")
    if pyspiel is None:
        return []
    game = pyspiel.load_game("dou_dizhu")
    probe = game.new_initial_state()
    auction = {
        a
        for a in range(game.num_distinct_actions())
        if probe.action_to_string(0, a) in ("Pass", "Bid 1", "Bid 2", "Bid 3")
    }
    rng = random.Random(seed)

    def play_out(state: Any, choose: Callable[[Sequence[int]], int]) -> int:
        plies = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                state.apply_action(choose(state.legal_actions()))
                plies += 1
        return plies

    starts = []
    while len(starts) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
                continue
            legal = state.legal_actions()
            if not set(legal) <= auction:
                starts.append(state)  # the auction is over: play begins here
                break
            state.apply_action(rng.choice(legal))
    choose = rng.choice

    def whole() -> None:
        for _ in range(count):
            play_out(game.new_initial_state(), choose)

    def play_phase() -> None:
        for start in starts:
            play_out(start.clone(), choose)

    sizes = [play_out(start.clone(), choose) for start in starts[:200]]
    return [
        Contender("OpenSpiel random games, play phase", play_phase, sizes, "games-play"),
        Contender("OpenSpiel random games, deal + bid + play", whole, sizes, "games-whole"),
    ]


def ddz_game_contenders(count: int, seed: int, rules: ddz.Rules, label: str) -> list[Contender]:
    """ddz's random games through the Python loop: legal_actions() and push()."""
    rng = random.Random(seed)
    choose = rng.choice
    starts = []
    next_seed = seed
    while len(starts) < count:
        game = ddz.Game(rules, seed=next_seed)
        next_seed += 1
        while game.phase == "bidding":
            game.push(choose(game.legal_actions()))
        if game.phase == "play":
            starts.append(game)

    def play_out(game: ddz.Game) -> int:
        plies = 0
        while not game.is_over:
            game.push(choose(game.legal_actions()))
            plies += 1
        return plies

    def whole() -> None:
        for index in range(count):
            play_out(ddz.Game(rules, seed=seed + index))

    def play_phase() -> None:
        for start in starts:
            play_out(start.copy())

    sizes = [play_out(start.copy()) for start in starts[:200]]
    return [
        Contender(f"ddz random games, play phase ({label})", play_phase, sizes, "games-play"),
        Contender(f"ddz random games, deal + bid + play ({label})", whole, sizes, "games-whole"),
    ]


def games_section(
    count: int,
    seed: int,
    repeats: int,
    min_time: float,
    labels: Sequence[str],
    results: dict[str, Any],
) -> None:
    contenders = openspiel_game_contenders(count, seed)
    for label in labels:
        contenders += ddz_game_contenders(count, seed, RULE_SETS[label], label)
    measure(contenders, count, repeats, min_time)
    baselines = {c.kind: c.median for c in contenders if c.name.startswith("OpenSpiel")}
    print(f"\nrandom games ({count:,} games; OpenSpiel measured here)")
    header = f"{'engine':<48} {'games/s':>10} {'x OpenSpiel':>11} {'plies':>6} {'spread':>7}"
    print(header)
    print("-" * len(header))
    rows = []
    for contender in contenders:
        baseline = baselines.get(contender.kind)
        ratio = contender.median / baseline if baseline else float("nan")
        spread = (max(contender.samples) - min(contender.samples)) / contender.median
        rows.append(
            {
                "engine": contender.name,
                "games_per_s": contender.median,
                "ratio_to_openspiel": ratio,
                "spread": spread,
                "avg_plies": statistics.fmean(contender.sizes),
                "samples": contender.samples,
            }
        )
        print(
            f"{contender.name:<48} {contender.median:>10,.0f} {ratio:>10.2f}x "
            f"{statistics.fmean(contender.sizes):>6.1f} {spread:>6.0%}"
        )
    print(
        "plies: actions of the players in the play phase (OpenSpiel's random games end "
        "when all pass the auction; ddz's void deals are over after the auction)."
    )
    results["sections"]["games"] = {"rows": rows}


def simulation_section(count: int, seed: int, repeats: int, results: dict[str, Any]) -> None:
    """ddz.simulate (whole games in C, one and two threads) and VectorGame (sample + step in
    C) against OpenSpiel's random play-phase loop, per game and per step."""
    baseline_games = baseline_steps = float("nan")
    peers = openspiel_game_contenders(min(count, 500), seed)
    if peers:
        measure(peers[:1], min(count, 500), repeats, 0.2)
        baseline_games = peers[0].median
        baseline_steps = baseline_games * statistics.fmean(peers[0].sizes)

    def median_rate(units: int, run: Callable[[], object]) -> float:
        run()
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        return units / statistics.median(times)

    games = max(count, 20000)
    rows = []
    for threads in (1, 2):
        rate = median_rate(games, lambda t=threads: ddz.simulate(games, seed=seed, threads=t))
        rows.append(
            (f"ddz.simulate, random agents, {threads} thread(s)", rate, rate / baseline_games)
        )
    for hand_size in (9, 13, 17):
        rules = ddz.CLASSIC.replace(hand_size=hand_size)
        rate = median_rate(games, lambda r=rules: ddz.simulate(games, rules=r, seed=seed))
        rows.append(
            (f"ddz.simulate, {hand_size}-card hands, 1 thread", rate, rate / baseline_games)
        )
    print(
        f"\nwhole games in the core ({games:,} games; OpenSpiel play phase {baseline_games:,.0f}/s)"
    )
    header = f"{'engine':<48} {'games/s':>12} {'x OpenSpiel':>11}"
    print(header)
    print("-" * len(header))
    for name, rate, ratio in rows:
        print(f"{name:<48} {rate:>12,.0f} {ratio:>10.1f}x")
    results["sections"]["simulate"] = [
        {"engine": name, "games_per_s": rate, "ratio_to_openspiel": ratio}
        for name, rate, ratio in rows
    ]

    steps_rows = []
    for n in (64, 256, 1024):
        vector = ddz.VectorGame(n, seed=seed)
        rounds = max(1, 200_000 // n)

        def run(vector: ddz.VectorGame = vector, rounds: int = rounds) -> None:
            for _ in range(rounds):
                vector.step(vector.sample_legal())

        rate = median_rate(n * rounds, run)
        steps_rows.append((f"VectorGame({n}): sample_legal + step", rate, rate / baseline_steps))
        masks = median_rate(n * 20, lambda v=vector: [v.legal_action_mask() for _ in range(20)])
        steps_rows.append(
            (f"VectorGame({n}): legal_action_mask (rows)", masks, masks / baseline_steps)
        )
    print(f"\nVectorGame steps (OpenSpiel play phase {baseline_steps:,.0f} steps/s)")
    header = f"{'engine':<48} {'steps/s':>12} {'x OpenSpiel':>11}"
    print(header)
    print("-" * len(header))
    for name, rate, ratio in steps_rows:
        print(f"{name:<48} {rate:>12,.0f} {ratio:>10.1f}x")
    results["sections"]["vector"] = [
        {"engine": name, "steps_per_s": rate, "ratio_to_openspiel": ratio}
        for name, rate, ratio in steps_rows
    ]


# ---------------------------------------------------------------------------------------------
# Timing


def sample(contender: Contender, passes: int, positions: int) -> float:
    """Sets/s over ``passes`` full passes, with the collector paused as timeit does."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(passes):
            contender.run()
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return passes * positions / elapsed


def measure(contenders: list[Contender], positions: int, repeats: int, min_time: float) -> None:
    # Warm up once and size each sample to last min_time: a 2,000-hand batch call takes a
    # millisecond, far below the clock's noise on a busy machine.
    passes = {}
    for contender in contenders:
        contender.run()
        start = time.perf_counter()
        contender.run()
        once = max(time.perf_counter() - start, 1e-9)
        passes[contender.name] = max(1, math.ceil(min_time / once))
    for repeat in range(repeats):
        # Round-robin, the order rotated each repeat, so drift in the machine's speed (other
        # load, thermal limits) spreads over every engine instead of landing on one.
        shift = repeat % len(contenders)
        for contender in contenders[shift:] + contenders[:shift]:
            contender.samples.append(sample(contender, passes[contender.name], positions))


# ---------------------------------------------------------------------------------------------
# Report


def section_rows(
    section: str, contenders: list[Contender], baseline: float
) -> list[dict[str, Any]]:
    index = 0 if section == "leads" else 1
    rows = []
    for contender in contenders:
        target = TARGETS[contender.kind][index] if contender.kind in TARGETS else None
        ratio = contender.median / baseline
        spread = (max(contender.samples) - min(contender.samples)) / contender.median
        rows.append(
            {
                "engine": contender.name,
                "sets_per_s": contender.median,
                "ratio_to_openspiel": ratio,
                "target": target,
                "met": None if target is None else ratio >= target,
                "spread": spread,
                "avg_moves": statistics.fmean(contender.sizes),
                "samples": contender.samples,
            }
        )
    return rows


def print_table(title: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n{title}")
    header = (
        f"{'engine':<40} {'sets/s':>12} {'x OpenSpiel':>11} {'target':>7} {'met':>4} "
        f"{'spread':>7} {'avg moves':>9}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        target = "" if row["target"] is None else f">={row['target']:g}x"
        met = "" if row["met"] is None else ("yes" if row["met"] else "NO")
        print(
            f"{row['engine']:<40} {row['sets_per_s']:>12,.0f} {row['ratio_to_openspiel']:>10.2f}x "
            f"{target:>7} {met:>4} {row['spread']:>6.0%} {row['avg_moves']:>9.1f}"
        )


def versions() -> dict[str, str]:
    found = {"python": platform.python_version(), "ddz": ddz.__version__}
    for distribution in ("open_spiel", "douzero", "rlcard", "numpy"):
        try:
            found[distribution] = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            found[distribution] = "not installed"
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=2000, help="hands per section")
    parser.add_argument("--repeats", type=int, default=7, help="samples per engine (median)")
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per sample")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--rules",
        nargs="+",
        choices=sorted(RULE_SETS),
        default=["classic", "douzero"],
        help="ddz rule sets to time",
    )
    parser.add_argument("--games", type=int, default=500, help="random games (0: skip)")
    parser.add_argument("--json", metavar="PATH", help="also write the results here")
    args = parser.parse_args(argv)
    if args.positions < 3 or args.repeats < 1:
        parser.error("need --positions >= 3 and --repeats >= 1")

    leads, answers = make_positions(args.positions, args.seed)
    landlords = sum(position.seat == "landlord" for position in leads)
    print(
        f"{args.positions:,} positions (seed {args.seed}); leads: {landlords:,} hands of 20 "
        f"cards, {args.positions - landlords:,} of 17; answers: hands of 17 facing a random "
        f"lead of the landlord's 20; median of {args.repeats} samples of >= {args.min_time} s"
    )
    print("versions: " + ", ".join(f"{name} {version}" for name, version in versions().items()))

    results: dict[str, Any] = {
        "positions": args.positions,
        "repeats": args.repeats,
        "min_time": args.min_time,
        "seed": args.seed,
        "versions": versions(),
        "machine": platform.platform(),
        "sections": {},
    }
    for section, positions in (("leads", leads), ("answers", answers)):
        peers = [
            make(positions) for make in (openspiel_contender, douzero_contender, rlcard_contender)
        ]
        contenders = [peer for peer in peers if peer is not None]
        for label in args.rules:
            contenders += ddz_contenders(positions, label, RULE_SETS[label])
        measure(contenders, len(positions), args.repeats, args.min_time)
        if peers[0] is not None:
            baseline, source = peers[0].median, "measured here"
        else:
            baseline, source = REFERENCE_OPENSPIEL[section], "PEERS.md reference (not measured)"
        rows = section_rows(section, contenders, baseline)
        results["sections"][section] = {"openspiel_baseline": source, "rows": rows}
        kind = "leading-move sets" if section == "leads" else "answer sets"
        print_table(f"{kind} (OpenSpiel baseline: {baseline:,.0f}/s, {source})", rows)

    if args.games:
        games_section(args.games, args.seed, args.repeats, args.min_time, args.rules, results)
        simulation_section(args.games, args.seed, args.repeats, results)

    print(
        "\nspread: (max - min) / median of the samples. avg moves: moves per set as each "
        "engine offers them\n(answers include the pass); engines differ in rules (PEERS.md)."
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(results, file, indent=2)
            file.write("\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
