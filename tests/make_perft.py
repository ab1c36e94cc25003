"""Write tests/data/perft.json: game-tree node counts ("perft") from fixed deals.

    python tests/make_perft.py            # count with ddz, check with the reference, write
    python tests/make_perft.py --no-check # count with ddz only (faster)

For each position (a seeded deal, a fixed first bidder, some actions already taken) the
number of nodes of the game tree at depths 1..D: ``ddz.perft.perft``, a plain recursive
walk over ``Game.legal_actions()`` with ``push``/``undo``, a node counted at every depth it
reaches (a finished game has no children). The per-action breakdown at depth D
(``ddz.perft.divide``) is stored too, so that a mismatch points at the subtree that changed
(tests/test_perft.py).

Before writing, the counts are checked against an independent walk: the game of docs/rules.md
sections 3 to 5 written out below in plain Python over tests/reference.py's move generator, which
imports nothing from ddz. The two must agree node for node, or nothing is written.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ddz.perft import divide, perft
from tests import reference as ref

PATH = Path(__file__).resolve().parent / "data" / "perft.json"

POSITIONS: list[dict[str, Any]] = [
    # From the deal: bidding, then the first tricks.
    {"name": "points-start-1", "preset": "classic", "seed": 1, "first_player": 0, "depth": 7},
    {"name": "points-start-2", "preset": "classic", "seed": 2, "first_player": 1, "depth": 7},
    {"name": "call-grab-start", "preset": "call-grab", "seed": 3, "first_player": 2, "depth": 9},
    # After bidding: the landlord leads.
    {
        "name": "points-played-1",
        "preset": "classic",
        "seed": 1,
        "first_player": 0,
        "actions": ["bid 1", "pass", "bid 2"],
        "depth": 7,
    },
    {
        "name": "points-played-3",
        "preset": "classic",
        "seed": 3,
        "first_player": 0,
        "actions": ["bid 3"],
        "depth": 7,
    },
    {"name": "douzero-start", "preset": "douzero", "seed": 4, "first_player": 1, "depth": 7},
    # The variants: two players (call, grab, let cards) and Uno the Landlord (Skip, Reverse).
    {"name": "two-player-start", "preset": "two-player", "seed": 5, "first_player": 0, "depth": 7},
    {"name": "uno-start", "preset": "uno-landlord", "seed": 7, "first_player": 1, "depth": 6},
    {
        "name": "two-player-endgame",
        "preset": "two-player",
        "seed": 8,
        "first_player": 1,
        "agent_until_cards": 16,
        "depth": 12,
    },
    {
        "name": "uno-endgame",
        "preset": "uno-landlord",
        "seed": 10,
        "first_player": 0,
        "agent_until_cards": 24,
        "depth": 10,
    },
    # Late in a game (reached by a seeded random agent): the walk reaches the ends of games.
    {
        "name": "points-endgame",
        "preset": "classic",
        "seed": 6,
        "first_player": 0,
        "agent_until_cards": 21,
        "depth": 11,
    },
    {
        "name": "douzero-endgame",
        "preset": "douzero",
        "seed": 9,
        "first_player": 2,
        "agent_until_cards": 21,
        "depth": 11,
    },
]


# --- the independent walk: docs/rules.md sections 3-5 over the reference move generator -------

REFERENCE_RULES = {  # move options, bidding, players
    "classic": ({}, "points", 3),
    "call-grab": ({}, "call-grab", 3),
    "douzero": (ref.DOUZERO_OPTIONS, "random", 3),
    "two-player": ({"excluded_ranks": "34"}, "call-grab", 2),
    "uno-landlord": ({"action_cards": 2}, "points", 3),
}
MAX_GRABS = 4


class ReferenceGame:
    """The game as the rule book says it (sections 3 to 5), for counting: plain tuples."""

    def __init__(self, preset: str, hands: list[str], kitty: str, first_player: int) -> None:
        self.preset = preset
        self.bidding = REFERENCE_RULES[preset][1]
        self.players = REFERENCE_RULES[preset][2]
        self.direction = 1
        self.landlord = -1
        self.hands = [ref.to_counts(hand) for hand in hands]
        self.kitty = ref.to_counts(kitty)
        self.current = first_player
        self.phase = "bidding"
        self.table: ref.Reading | None = None
        self.table_player = -1
        self.bid = 0
        self.high_bidder = -1
        self.turns = 0
        self.caller = -1
        self.declined: frozenset[int] = frozenset()
        self.grab_queue: tuple[int, ...] = ()
        self.grabs = 0
        self.caller_grabbed_back = False
        if self.bidding == "random":
            self.settle(first_player)

    def snapshot(self) -> tuple[Any, ...]:
        return tuple(vars(self).items())

    def restore(self, snapshot: tuple[Any, ...]) -> None:
        self.__dict__.update(dict(snapshot))

    def settle(self, landlord: int) -> None:
        self.hands = list(self.hands)
        self.hands[landlord] = tuple(
            a + b for a, b in zip(self.hands[landlord], self.kitty, strict=True)
        )
        self.phase, self.current, self.table, self.table_player = "play", landlord, None, -1
        self.landlord = landlord

    def actions(self) -> list[Any]:
        if self.phase == "over":
            return []
        if self.phase == "play":
            return sorted(_moves(self.hands[self.current], self.table, self.preset))
        if self.bidding == "points":
            return ["pass"] + [f"bid {value}" for value in range(self.bid + 1, 4)]
        if self.caller < 0:
            return ["pass", "call"]
        if self.players == 2:
            return ["pass", "grab"]  # bidding ends by itself when the grabs run out
        return ["pass", "grab"] if self.grabs < MAX_GRABS else ["pass"]

    def act(self, action: Any) -> None:
        seat = self.current
        if self.phase == "play":
            self.play(seat, action)
        elif self.bidding == "points":
            self.turns += 1
            if action != "pass":
                self.bid, self.high_bidder = int(action.split()[1]), seat
            if self.bid == 3 or self.turns == self.players:
                if self.high_bidder < 0:
                    self.phase = "over"  # a void deal
                else:
                    self.settle(self.high_bidder)
            else:
                self.current = (seat + 1) % 3
        elif self.players == 2:
            self.two_player_call(seat, action)
        elif self.caller < 0:
            # Calling: each seat in turn calls or declines; if all decline, the deal is void.
            self.turns += 1
            if action == "call":
                self.caller = seat
                # Each other seat that did not decline to call may grab once, in seat order.
                others = ((seat + 1) % 3, (seat + 2) % 3)
                self.grab_queue = tuple(s for s in others if s not in self.declined)
                self.next_grabber()
            else:
                self.declined = self.declined | {seat}
                if self.turns == 3:
                    self.phase = "over"
                else:
                    self.current = (seat + 1) % 3
        else:
            if action == "grab":
                self.grabs += 1
                self.high_bidder = seat
            if seat == self.caller:
                self.caller_grabbed_back = True
            self.next_grabber()

    def two_player_call(self, seat: int, action: str) -> None:
        """Section 4: call or decline; then grabs back and forth by the player who does not
        hold the landlord, until one declines or MAX_GRABS; a decliner never grabs."""
        other = 1 - seat
        if self.caller < 0:
            self.turns += 1
            if action == "call":
                self.caller = seat
                if other in self.declined:
                    self.settle(seat)
                else:
                    self.current = other
            else:
                self.declined = self.declined | {seat}
                if self.turns == 2:
                    self.phase = "over"
                else:
                    self.current = other
        elif action == "grab":
            self.grabs += 1
            self.high_bidder = seat
            if self.grabs >= MAX_GRABS:
                self.settle(seat)
            else:
                self.current = other
        else:
            self.settle(other)  # the player who declines leaves the landlord to the holder

    def seat_after(self, seat: int, steps: int) -> int:
        return (seat + steps * self.direction) % self.players

    def next_grabber(self) -> None:
        if self.grab_queue:
            self.current, self.grab_queue = self.grab_queue[0], self.grab_queue[1:]
        elif self.grabs > 0 and not self.caller_grabbed_back:
            self.current = self.caller  # the caller may grab back once, at the end
            self.caller_grabbed_back = True
        else:
            self.settle(self.high_bidder if self.high_bidder >= 0 else self.caller)

    def play(self, seat: int, move: ref.Reading) -> None:
        if move.type == "PASS":
            self.current = self.seat_after(seat, 1)
            if self.current == self.table_player:
                self.table, self.table_player = None, -1
            return
        self.hands = list(self.hands)
        self.hands[seat] = tuple(a - b for a, b in zip(self.hands[seat], move.cards, strict=True))
        if move.type == "SKIP":  # docs/uno-landlord.md#skip: the next player loses their turn
            following = self.seat_after(seat, 2)
            if following == self.table_player:
                self.table, self.table_player = None, -1
        elif move.type == "REVERSE":  # the direction flips; nobody answers their own move
            self.direction = -self.direction
            following = self.seat_after(seat, 1)
            if following == self.table_player:
                following = self.seat_after(following, 1)
        else:
            self.table, self.table_player = move, seat
            following = self.seat_after(seat, 1)
        let_out = (
            self.players == 2 and seat != self.landlord and 0 < sum(self.hands[seat]) <= self.grabs
        )
        if not any(self.hands[seat]) or let_out:
            self.phase = "over"
        else:
            self.current = following


@functools.cache
def _rules(preset: str) -> Any:
    return ref.make_rules(**REFERENCE_RULES[preset][0])


@functools.cache
def _leads(hand: tuple[int, ...], preset: str) -> frozenset[ref.Reading]:
    return frozenset(ref.moves(hand, None, _rules(preset)))


@functools.cache
def _moves(hand: tuple[int, ...], table: ref.Reading | None, preset: str) -> set[ref.Reading]:
    """ref.moves, with the leads of a hand computed once: the answers are the leads that
    beat the table, the action cards held, and the pass."""
    leads = _leads(hand, preset)
    if table is None:
        return set(leads)
    return {
        move
        for move in leads
        if move.type in ("SKIP", "REVERSE") or ref.beats(move, table, _rules(preset))
    } | {ref.PASS}


def reference_perft(game: ReferenceGame, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(level: int) -> None:
        actions = game.actions()
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:
                saved = game.snapshot()
                game.act(action)
                walk(level + 1)
                game.restore(saved)

    walk(0)
    return counts


def reference_position(
    position: dict[str, Any], hands: list[str], kitty: str, actions: list[str]
) -> ReferenceGame:
    game = ReferenceGame(position["preset"], hands, kitty, position["first_player"])
    for text in actions:
        if game.phase == "play":
            cards = ref.to_counts("" if text == "pass" else text.replace("+", ""))
            (action,) = [m for m in game.actions() if m.cards == cards]
        else:
            action = text
        game.act(action)
    return game


# --- positions -----------------------------------------------------------------------------


def setup_actions(position: dict[str, Any], game: Any) -> list[str]:
    """The actions that lead to the position from the deal (game: a ddz.Game at the deal)."""
    if "agent_until_cards" not in position:
        return list(position.get("actions", []))
    # A seeded random agent plays until few cards are left and someone leads.
    scratch, agent, actions = game.copy(), random.Random(position["seed"]), []
    while scratch.table is not None or sum(map(len, scratch.hands)) > position["agent_until_cards"]:
        action = agent.choice(scratch.legal_actions())
        scratch.step(action)
        actions.append(str(action))
    assert not scratch.is_over, position["name"]
    return actions


def ddz_position(position: dict[str, Any]) -> tuple[Any, list[str], str, list[str]]:
    """The position as a ddz.Game (the seeded deal and first bidder, the actions taken), and
    the hands, kitty and actions that make it."""
    import ddz

    rules = {
        "classic": ddz.CLASSIC,
        "call-grab": ddz.CLASSIC.replace(bidding=ddz.Bidding.CALL_GRAB),
        "douzero": ddz.DOUZERO,
        "two-player": ddz.TWO_PLAYER,
        "uno-landlord": ddz.UNO_LANDLORD,
    }[position["preset"]]
    seeded = ddz.Game(rules, seed=position["seed"])
    hands, kitty = [str(hand) for hand in seeded.deal[0]], str(seeded.deal[1])
    game = ddz.Game(rules, deal=(hands, kitty), first_player=position["first_player"])
    actions = setup_actions(position, game)
    for action in actions:
        game.step(action)
    return game, hands, kitty, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-check", action="store_true", help="skip the reference walk")
    args = parser.parse_args()
    entries = []
    for position in POSITIONS:
        game, hands, kitty, actions = ddz_position(position)
        depth = position["depth"]
        start = time.perf_counter()
        counts = perft(game, depth)
        elapsed = time.perf_counter() - start
        print(f"{position['name']}: {counts} ({elapsed:.2f} s)")
        if not args.no_check:
            start = time.perf_counter()
            expected = reference_perft(reference_position(position, hands, kitty, actions), depth)
            print(f"  reference: {expected} ({time.perf_counter() - start:.2f} s)")
            if expected != counts:
                sys.exit(f"{position['name']}: ddz and the reference disagree; nothing written")
        entries.append(
            {
                "name": position["name"],
                "preset": position["preset"],
                "hands": hands,
                "kitty": kitty,
                "first_player": position["first_player"],
                "actions": actions,
                "counts": counts,
                "divide": divide(game, depth),
            }
        )
    PATH.write_text(json.dumps(entries, indent=1) + "\n")
    print(f"wrote {len(entries)} positions to {PATH}")


if __name__ == "__main__":
    main()
