#!/usr/bin/env python3
"""The other engines as ``peers.py`` asks them: seeded positions, each converted to every
engine's own representation, and one contender per engine that answers them.

OpenSpiel, DouZero and RLCard are imported only when a contender is built; one that does not
import is skipped with a message. ``peers.py`` times these contenders beside ddz's own.

Positions (see ``make_positions``)
    Leads: one hand of a shuffled 54-card deck, a third of them the landlord's 20 cards, the
    rest a farmer's 17. Answers: the 17 cards of the farmer who moves after the landlord,
    facing a random legal lead of the landlord's 20 cards from the same deal. Answering hands
    all hold 17 cards because no game reaches a 20-card hand facing a move (the landlord
    leads the first trick), so OpenSpiel, which builds states only by playing, has no such
    state; see ``OpenSpiel`` for how its states are built.
"""

from __future__ import annotations

import functools
import importlib
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType, SimpleNamespace
from typing import Any

import ddz

# Card ids are OpenSpiel's: card c < 52 has rank c % 13 (rank 0 is the 3, as in ddz.RANKS),
# 52 is the small joker and 53 the big joker. Suits never matter to any engine.
DECK_SIZE = 54
RANK_COUNT = 15

# The moves placed on the table to answer are drawn under rules every engine can represent:
# no four + two (OpenSpiel has none), distinct non-joker-pair single wings, and one reading
# per multiset, so that each engine reads the table move the same way.
TABLE_RULES = ddz.CLASSIC.replace(four_with_two=False, multiple_readings=False)

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
