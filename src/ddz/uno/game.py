"""One round of UNO: the deal, the first card, every turn and house rule; undo, copy, records.

The state lives in the native core (``ddz._core.uno``); this module converts and explains.

>>> from ddz import uno
>>> game = uno.Game(players=3, seed=14)
>>> game.current_player, str(game.top), game.colour, [len(h) for h in game.hands]
(0, 'R6', 'red', [7, 7, 7])
>>> [str(a) for a in game.legal_actions()]
['0: play R4', '0: play B6', '0: draw']
>>> game.step("play B6")
Action.parse('0: play B6')
>>> game.current_player, game.colour
(1, 'blue')
>>> game.step("play R9")
Traceback (most recent call last):
...
ddz.errors.IllegalMoveError: player 1 does not hold R9
>>> str(game.undo()), game.current_player
('0: play B6', 0)
"""

from __future__ import annotations

import collections
import dataclasses
import json
import random
import threading
from collections.abc import Iterable, Sequence
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from ddz import _records
from ddz._core import uno as _core
from ddz.errors import (
    ActionTypeError,
    IllegalMoveError,
    RecordError,
    check_integer,
    check_seed,
    check_text,
    shorten,
)
from ddz.uno.actions import BY_CODE, Action, action_at, index_of
from ddz.uno.cards import CARDS, COLOURS, DECK, Card, parse_cards
from ddz.uno.rules import LOMBARDY, Rules

__all__ = [
    "MAX_PLAYERS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "Deal",
    "Game",
    "Observation",
    "PlayoutResult",
]

MAX_PLAYERS = 10
_WRONG_JUMP_IN = _core.WRONG_JUMP_IN_
_ACTION_OF_CODE = BY_CODE.__getitem__
_UNO_INDEX = 63  # ddz.uno.actions: the index of the UNO call
CardsLike = str | Iterable[Card | str]


@dataclasses.dataclass(frozen=True)
class Deal:
    """A fixed deal, for tests and puzzles: ``Game(deal=Deal(...))``.

    ``hands``: each player's cards. ``draw_pile``: the cards to draw, the next one first; the
    first of them is flipped as the starting card (first-card rules apply, a Wild Draw Four is
    shuffled back). ``discard_pile``: cards under the starting card, bottom first. The cards
    named nowhere go, shuffled with the game's seed, under the draw pile (``rest="draw"``) or
    at the bottom of the discard pile (``rest="discard"``, to test a reshuffle soon).

    >>> deal = Deal(hands=["R7 R7", "G2"], draw_pile="B5", rest="discard")
    >>> [str(c) for c in deal.hands[0]], deal.draw_pile
    (['R7', 'R7'], (Card('B5'),))
    """

    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...] = ()
    discard_pile: tuple[Card, ...] = ()
    rest: Literal["draw", "discard"] = "draw"

    def __init__(
        self,
        hands: Sequence[CardsLike],
        draw_pile: CardsLike = (),
        discard_pile: CardsLike = (),
        rest: Literal["draw", "discard"] = "draw",
    ) -> None:
        if isinstance(hands, (str, bytes)) or not hasattr(hands, "__iter__"):
            raise TypeError(f"a deal's hands are a sequence of hands, not {shorten(hands)}")
        hands = list(hands)
        if not 2 <= len(hands) <= MAX_PLAYERS:
            raise ValueError(f"a deal has 2..{MAX_PLAYERS} hands, not {len(hands)}")
        object.__setattr__(self, "hands", tuple(tuple(parse_cards(h)) for h in hands))
        object.__setattr__(self, "draw_pile", tuple(parse_cards(draw_pile)))
        object.__setattr__(self, "discard_pile", tuple(parse_cards(discard_pile)))
        object.__setattr__(self, "rest", rest)
        if not isinstance(rest, str) or rest not in ("draw", "discard"):
            raise ValueError(f"rest is 'draw' or 'discard', not {shorten(rest)}")
        if not 2 <= len(self.hands) <= MAX_PLAYERS:
            raise ValueError(f"a deal has 2..{MAX_PLAYERS} hands, not {len(self.hands)}")
        if any(not hand for hand in self.hands):
            raise ValueError("every hand of a deal holds a card")
        named = collections.Counter(
            card for part in (*self.hands, self.draw_pile, self.discard_pile) for card in part
        )
        in_deck = collections.Counter(DECK)
        for card, count in named.items():
            if count > in_deck[card]:
                raise ValueError(f"the deal holds {count} {card}, the deck {in_deck[card]}")

    def arrange(self, seed: int) -> tuple[list[list[int]], list[int], list[int]]:
        """The complete arrangement as card kinds: hands, draw pile (next first), discard
        pile (bottom first), the unnamed cards placed as ``rest`` says."""
        remaining = collections.Counter(DECK)
        for part in (*self.hands, self.draw_pile, self.discard_pile):
            remaining.subtract(part)
        unnamed = [card.kind for card, count in sorted(remaining.items()) for _ in range(count)]
        rest = _core.shuffled_kinds(unnamed, seed)
        hands = [[card.kind for card in hand] for hand in self.hands]
        draw = [card.kind for card in self.draw_pile]
        discard = [card.kind for card in self.discard_pile]
        if self.rest == "draw":
            draw += rest
        else:
            discard = rest + discard
        return hands, draw, discard


class PlayoutResult(NamedTuple):
    """How a random playout ended: who went out (None when blocked), whether the round was
    blocked, the actions taken and each hand's points at the end."""

    winner: int | None
    blocked: bool
    steps: int
    points: tuple[int, ...]


OBSERVATION_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 54),  # my cards: a count per card kind (13 * colour + face; 52 W, 53 W+4)
    ("top", 54),  # the top card's kind, one-hot
    ("colour", 4),  # the colour to match, one-hot (zero while a starting colour is chosen)
    ("discard", 54),  # the discard pile: a count per kind
    ("hand_sizes", 10),  # cards per player: me, the next seat, ... (zero beyond the players)
    ("seats", 10),  # 1 for each seat in the game, in the same relative order
    ("current", 10),  # whose turn, one-hot, relative
    ("direction", 1),  # +1 seat order, -1 reversed
    ("pending", 1),  # stacking: the cards the player to act owes
    ("pending_kind", 2),  # one-hot: Draw Two stack, Wild Draw Four stack
    ("drawn", 54),  # the playable card I just drew and may play (zero for everyone else)
    ("deciding", 1),  # the player to act is deciding whether to play a drawn card
    ("uno", 10),  # one-hot, relative: the player on one card who has not called UNO
    ("jump_in", 1),  # the top card may be jumped on
    ("draw_pile", 1),  # cards left in the draw pile
)
"""The fields of ``Observation.encode()``, in order, with their widths. Seats are relative
to the observing player: index 0 is that player, 1 the next seat in seat order, and so on."""

OBSERVATION_SIZE = sum(width for _, width in OBSERVATION_LAYOUT)


@dataclasses.dataclass(frozen=True)
class Observation:
    """What one player may know: never another player's cards or the draw pile's order.

    :meth:`encode` turns it into a fixed-size int8 vector (``OBSERVATION_LAYOUT``).
    """

    player: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    top: Card
    colour: str | None
    direction: int
    current_player: int | None
    pending: int
    pending_card: Card | None
    drawn: Card | None
    deciding: bool
    uno_player: int | None
    jump_in_open: bool
    discard_pile: tuple[Card, ...]
    draw_pile_size: int
    winner: int | None
    is_over: bool

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    def encode(self) -> npt.NDArray[np.int8]:
        """A fixed-size int8 vector laid out as ``OBSERVATION_LAYOUT`` (``OBSERVATION_SIZE``
        entries).

        >>> from ddz import uno
        >>> vector = uno.Game(players=4, seed=3).observation(0).encode()
        >>> vector.shape, vector.dtype, int(vector[:54].sum())
        ((267,), dtype('int8'), 7)
        """
        seats = self.players
        vector = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
        offset = 0

        def put(width: int, values: dict[int, int]) -> None:
            nonlocal offset
            for index, value in values.items():
                vector[offset + index] = value
            offset += width

        def relative(seat: int | None) -> dict[int, int]:
            return {} if seat is None else {(seat - self.player) % seats: 1}

        put(54, collections.Counter(card.kind for card in self.hand))
        put(54, {self.top.kind: 1})
        put(4, {} if self.colour is None else {COLOURS.index(self.colour): 1})
        put(54, collections.Counter(card.kind for card in self.discard_pile))
        put(10, {i: self.hand_sizes[(self.player + i) % seats] for i in range(seats)})
        put(10, dict.fromkeys(range(seats), 1))
        put(10, relative(self.current_player))
        put(1, {0: self.direction})
        put(1, {0: self.pending})
        pending_kind = {} if self.pending_card is None else {int(self.pending_card.is_wild): 1}
        put(2, pending_kind)
        put(54, {} if self.drawn is None else {self.drawn.kind: 1})
        put(1, {0: int(self.deciding)})
        put(10, relative(self.uno_player))
        put(1, {0: int(self.jump_in_open)})
        put(1, {0: self.draw_pile_size})
        return vector

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (cards in notation) that :meth:`from_dict` reads back."""
        from ddz.uno.records import observation_to_dict

        return observation_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Observation:
        """The observation :meth:`to_dict` wrote; ``ddz.errors.RecordError`` names a bad field."""
        from ddz.uno.records import observation_from_dict

        return observation_from_dict(data)

    def to_json(self) -> str:
        """This observation as JSON, what a server sends one player (``ddz.uno.records``)."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> Observation:
        """The observation :meth:`to_json` wrote; ``ddz.errors.RecordError`` if it is not one."""
        from ddz.uno.records import observation_from_json

        return observation_from_json(text)

    def __str__(self) -> str:
        """The table as this player sees it (``ddz.uno.render.text``)."""
        from ddz.uno.render import text  # ddz.uno.render imports this module

        return text(self)

    def _repr_svg_(self) -> str:
        from ddz.uno.svg import table

        return table(self)


_MESSAGES = {
    2: "the round is over",
    3: "{action} is not a well-formed action",
    4: "there is no player {player} in a {players}-player game",
    5: "player {player} does not hold {card}",
    6: "it is player {current}'s turn, not player {player}'s",
    7: "the first card is a Wild: player {current} chooses the colour first (colour red, ...)",
    8: "player {player} just drew {drawn}: play it or keep it",
    9: "player {player} faces +{pending}: stack a {pending_card} or draw",
    10: "no going out on a Wild Draw Four: it cannot be the last card",
    11: "{card} matches neither the colour ({colour}) nor the face of {top}",
    12: "player {player} already drew: play the drawn card or keep it",
    13: "nothing is left to draw: player {player} must play a card",
    14: "keep follows the draw of a playable card",
    15: "UNO calls and catches are off in these rules",
    16: "player {player} has no UNO to call (a player left with one card calls it)",
    17: "player {target} cannot be caught: only a player on one card who has not called UNO",
    18: "the colour is chosen only when the first card is a Wild",
}


class Game:
    """One round of UNO under ``rules`` (docs/uno.md).

    ``Game(players, seed=..., rules=...)`` shuffles with a seeded generator that gives the
    same round on every machine; ``deal=Deal(...)`` fixes the cards instead. ``dealer``
    defaults to the last seat, so seat 0 (the dealer's left) plays first.

    Actions are :class:`Action` objects, their text, or an action *index* (an ``int`` or
    numpy integer: the numbering of ``ddz.uno.ActionSpace`` and the masks, for the player
    to act unless ``player=`` says otherwise). :meth:`legal_actions` lists what every player
    may do now, out-of-turn jump-ins, UNO calls and catches included. :meth:`step` checks an
    action and raises :class:`ddz.IllegalMoveError` (leaving the game unchanged); :meth:`push`
    does not check the rules. Raw core codes go through :meth:`push_code`, :meth:`step_code`
    and :meth:`legal_codes`. :meth:`resolve` settles actions several players take at the same
    moment.

    One game may be used from several threads: :meth:`step` checks and applies in one core
    call, and a lock serialises steps, undos and resolutions with each other; the unchecked
    fast paths :meth:`push` and :meth:`push_code` are single core calls that skip the lock
    (atomic each, never outside the state). ``copy.copy``, ``copy.deepcopy`` and ``pickle``
    give independent games in the same state.
    """

    def __init__(
        self,
        players: int | None = None,
        *,
        seed: int | None = None,
        rules: Rules = LOMBARDY,
        dealer: int | None = None,
        deal: Deal | None = None,
    ) -> None:
        if deal is not None and not isinstance(deal, Deal):
            raise TypeError(f"deal is a ddz.uno.Deal, not {shorten(deal)}")
        if players is None:
            players = len(deal.hands) if deal is not None else 4
        players = check_players(players)
        if deal is not None and len(deal.hands) != players:
            raise ValueError(f"the deal has {len(deal.hands)} hands for {players} players")
        seed = random.SystemRandom().getrandbits(63) if seed is None else check_seed(seed)
        if dealer is None:
            dealer = players - 1
        if isinstance(dealer, bool) or not hasattr(type(dealer), "__index__"):
            raise TypeError(f"the dealer is a seat 0..{players - 1}, not {shorten(dealer)}")
        dealer = int(dealer)
        if dealer not in range(players):
            raise ValueError(f"the dealer is a seat 0..{players - 1}, not {dealer!r}")
        if not isinstance(rules, Rules):
            raise TypeError(f"rules are a ddz.uno.Rules, not {shorten(rules)}")
        self._lock = threading.RLock()
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.deal = deal
        self._arrangement: tuple[list[list[int]], list[int], list[int]] | None = None
        if deal is None:
            self._core = _core.UnoCore.seeded(rules.core_flags, players, dealer, seed)
        else:
            self._arrangement = deal.arrange(seed)
            hands, draw, discard = self._arrangement
            self._core = _core.UnoCore.arranged(
                rules.core_flags, dealer, seed, hands, draw, discard
            )

    # --- state ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return int(self._core.players)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every player's cards, each hand in card-kind order."""
        return tuple(self.hand(seat) for seat in range(self.players))

    def hand(self, player: int) -> tuple[Card, ...]:
        """One player's cards, in card-kind order."""
        counts = self._core.hand_counts(self._seat(player))
        return tuple(CARDS[kind] for kind, count in enumerate(counts) for _ in range(count))

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(self._core.sizes)

    @property
    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile in order: ``draw_pile[0]`` is the next card drawn."""
        return tuple(CARDS[kind] for kind in self._core.draw_pile())

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first: ``discard_pile[-1]`` is the top card."""
        return tuple(CARDS[kind] for kind in self._core.discard_pile())

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return CARDS[self._core.top]

    @property
    def colour(self) -> str | None:
        """The colour to match (a wild's chosen colour); None while the first player chooses
        the colour of a starting Wild."""
        colour = self._core.colour
        return None if colour < 0 else COLOURS[colour]

    @property
    def direction(self) -> int:
        """+1: seat order (0, 1, 2, ..., to the dealer's left); -1 once reversed."""
        return int(self._core.direction)

    @property
    def current_player(self) -> int | None:
        """The player whose turn it is; None once the round is over."""
        seat = self._core.current
        return None if seat < 0 else int(seat)

    @property
    def pending(self) -> int:
        """Stacking: the cards the player to act must draw unless they stack (0 if none)."""
        return int(self._core.pending)

    @property
    def pending_card(self) -> Card | None:
        """Stacking: the card that stacks on the pending penalty (a Draw Two, of any colour,
        shown as red's; or the Wild Draw Four); None without a penalty."""
        if not self._core.pending:
            return None
        return CARDS[53] if self._core.pending_face == 14 else CARDS[12]

    @property
    def drawn(self) -> Card | None:
        """The playable card the player to act just drew (play it or keep it), else None."""
        kind = self._core.drawn
        return None if kind < 0 else CARDS[kind]

    @property
    def uno_player(self) -> int | None:
        """The player on one card who has not called UNO and may still be caught, else None."""
        seat = self._core.uno_seat
        return None if seat < 0 else int(seat)

    @property
    def jump_in_player(self) -> int | None:
        """Who played the top card, while others may still jump in on it; else None."""
        seat = self._core.jump_seat
        return None if seat < 0 else int(seat)

    @property
    def is_over(self) -> bool:
        return bool(self._core.over)

    @property
    def is_blocked(self) -> bool:
        """The round ended because a player had to draw and no card was left (reshuffle off,
        or every card in the hands): nobody went out."""
        return bool(self._core.over == 2)

    @property
    def winner(self) -> int | None:
        """The player who went out; None while playing and for a blocked round."""
        seat = self._core.winner
        return None if seat < 0 else int(seat)

    @property
    def ply(self) -> int:
        """Actions taken so far."""
        return int(self._core.ply)

    @property
    def history(self) -> list[Action]:
        """Every action so far, oldest first."""
        return [Action.from_code(code) for code in self._core.action_codes()]

    def points(self) -> list[int]:
        """Each player's golf points for this round as it stands: the value of their hand
        (the player who went out holds nothing and scores 0)."""
        return [int(self._core.hand_points(seat)) for seat in range(self.players)]

    # --- actions -------------------------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every legal action now, of every player (or of ``player``): the turn actions of
        the player to act first, then the UNO call, the catches and the jump-ins. A wrong
        jump-in is not listed (see :meth:`is_wrong_jump_in`). ``[]`` once the round is over.
        """
        actions = list(map(_ACTION_OF_CODE, self._core.legal_codes()))
        if player is None:
            return actions
        seat = self._seat(player)
        return [action for action in actions if action.player == seat]

    def legal_codes(self) -> list[int]:
        """The core codes of :meth:`legal_actions`, for fast loops with :meth:`push_code`."""
        return self._core.legal_codes()

    def legal_indices(self, player: int | None = None) -> list[int]:
        """The action indices (``ddz.uno.ActionSpace``) of ``player``'s legal actions
        (default: the player to act), sorted; what :meth:`step` and :meth:`push` take as an
        ``int``."""
        if player is None:
            player = self.current_player
            if player is None:
                return []
        seat = self._seat(player)
        players = self.players
        return sorted(
            index_of(action, players) for action in self.legal_actions() if action.player == seat
        )

    def parse_action(self, action: Action | str | int, *, player: int | None = None) -> Action:
        """An action from text; without an ``N:`` prefix the player is the one the action
        belongs to most naturally: the player on one card for ``uno``, the player to act for
        the rest (for ``catch N`` when N is the player to act: the next player). An ``int``
        (or numpy integer) is an action index of ``player`` (default: the player to act; for
        the UNO call, the player on one card)."""
        if isinstance(action, Action):
            return action
        if is_index(action):
            return self._action_of_index(action, player)  # type: ignore[arg-type]
        if not isinstance(action, str):
            raise ActionTypeError(
                f"an action is an Action, text or an action index, not {shorten(action)}"
            )
        try:
            check_text(action, "an UNO action")
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        default = self.current_player if self.current_player is not None else 0
        words = action.lower().split()
        if words[:1] == ["uno"] and self.uno_player is not None:
            default = self.uno_player
        elif words[:1] == ["catch"] and len(words) == 2 and words[1] == str(default):
            default = (default + self.direction) % self.players
        try:
            return Action.parse(action, default_player=default)
        except (TypeError, ValueError) as error:
            raise IllegalMoveError(str(error)) from None

    def why_illegal(self, action: Action | str | int) -> str | None:
        """None if the action is legal now (a wrong jump-in counts as legal: the rules punish
        it rather than forbid it), else why not (unreadable text and indices outside the
        space included). A value of another type raises
        :class:`ddz.errors.ActionTypeError` (a TypeError)."""
        try:
            parsed = self.parse_action(action)
        except ActionTypeError:
            raise
        except IllegalMoveError as error:
            return str(error)
        reason = self._core.check(parsed.code)
        if reason in (0, _WRONG_JUMP_IN):
            return None
        return self._explain(parsed, reason)

    def is_wrong_jump_in(self, action: Action | str | int) -> bool:
        """Is this an out-of-turn play the house rules punish: a card the player holds that is
        not the exact twin of the card just played (or comes too late)? It costs two cards."""
        return bool(self._core.check(self.parse_action(action).code) == _WRONG_JUMP_IN)

    def step(self, action: Action | str | int, *, player: int | None = None) -> Action:
        """Take an action, checked: IllegalMoveError (with the reason) leaves the game as it
        was. A wrong jump-in is taken: its player draws two. Returns the action.

        ``player`` is the seat taking the action: an ``int`` action is an action index of
        that seat (default: the player to act, see :meth:`parse_action`); text without ``N:``
        is that seat's action, and an action of another seat raises IllegalMoveError (a
        server's check)."""
        with self._lock:
            if is_index(action):
                parsed = self.parse_action(action, player=player)
            else:
                parsed = self._parse_for(action, player)  # type: ignore[arg-type]
            reason = self._core.step_checked(parsed.code)  # check and apply: one core call
            if reason not in (0, _WRONG_JUMP_IN):
                raise IllegalMoveError(self._explain(parsed, reason))
            return parsed

    def _parse_for(self, action: Action | str, player: object) -> Action:
        if player is None:
            return self.parse_action(action)
        from ddz.records import seat_of

        try:
            seat = seat_of(self.players, player)
        except TypeError as error:
            raise ActionTypeError(str(error)) from None
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        if isinstance(action, str):
            try:
                parsed = Action.parse(action, default_player=seat)
            except ValueError as error:
                raise IllegalMoveError(str(error)) from None
        else:
            parsed = self.parse_action(action)
        if parsed.player != seat:
            raise IllegalMoveError(f"player {seat} cannot take player {parsed.player}'s action")
        return parsed

    def push(self, action: Action | int, *, player: int | None = None) -> None:
        """Take an action (or an action index of ``player``, default the player to act)
        without checking the rules: the fast path for simulation, for actions from
        :meth:`legal_actions` or :meth:`legal_indices`. An illegal action leaves the game in a
        state no rule allows (use :meth:`step` to check), but never one outside the core's
        memory: an index outside the space, a seat outside the game, a card its player does
        not hold, or any action once the round is over raises IllegalMoveError and changes
        nothing. One core call, atomic by itself but (like :meth:`push_code`) not serialised
        with the lock that :meth:`step` and :meth:`resolve` hold: it is the fast path."""
        if action.__class__ is not Action:
            action = self.parse_action(action, player=player)
        self._push_code(action.code)

    def push_code(self, code: int) -> None:
        """Take a raw core action code (``legal_codes()``, ``Action.code``) without checking
        the rules; like :meth:`push`, a code that would reach outside the state (malformed, a
        seat or card not in play, the round over) raises IllegalMoveError and changes
        nothing. The raw fast path: one core call, atomic by itself, not serialised with the
        lock :meth:`step` and :meth:`resolve` hold."""
        if not is_index(code):
            raise ActionTypeError(f"an action code is an integer, not {shorten(code)}")
        self._push_code(code)

    def step_code(self, code: int) -> Action:
        """Take a raw core action code, checked as :meth:`step` checks. Returns the action."""
        try:
            action = Action.from_code(code)
        except TypeError as error:
            raise ActionTypeError(str(error)) from None
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        return self.step(action)

    def undo(self) -> Action:
        """Take back the last action, restoring the state exactly; returns it. IndexError
        when there is nothing to undo."""
        with self._lock:
            return Action.from_code(self._core.undo())

    def resolve(self, intents: Iterable[Action | str]) -> list[Action]:
        """Settle actions several players take at the same moment; returns those taken.

        At most one action per player. Each must be legal (or a wrong jump-in) now, else
        IllegalMoveError and nothing changes. Order (docs/uno.md): the UNO call of the player
        on one card comes first (a call and a catch at once: the call wins); then catches,
        nearest to the player to act in turn order first (only the first one counts); then
        out-of-turn plays, nearest first: a jump-in ends the resolution, since play moves to
        the jumper, and a wrong jump-in costs two cards and lets the next one be tried; last,
        the player to act's own action, if it is still legal.
        """
        with self._lock:
            return self._resolve(intents)

    def _resolve(self, intents: Iterable[Action | str]) -> list[Action]:
        if isinstance(intents, (str, bytes)) or not hasattr(intents, "__iter__"):
            raise IllegalMoveError(f"resolve takes a list of actions, not {shorten(intents)}")
        parsed = []
        for intent in intents:  # at most one a player: stop reading past that
            parsed.append(self.parse_action(intent))
            if len(parsed) > self.players:
                raise IllegalMoveError("resolve takes at most one action per player")
        players = [action.player for action in parsed]
        if len(set(players)) != len(players):
            raise IllegalMoveError("resolve takes at most one action per player")
        for action in parsed:
            reason = self._core.check(action.code)
            if reason not in (0, _WRONG_JUMP_IN):
                raise IllegalMoveError(self._explain(action, reason))
        current = self.current_player
        if current is None:
            return []
        direction, seats = self.direction, self.players

        def distance(action: Action) -> int:
            return ((action.player - current) * direction) % seats

        calls = [a for a in parsed if a.kind == "uno"]
        catches = sorted((a for a in parsed if a.kind == "catch"), key=distance)
        jumps = sorted(
            (a for a in parsed if a.kind == "play" and a.player != current), key=distance
        )
        turn = [a for a in parsed if a.player == current and a.kind not in ("uno", "catch")]
        taken: list[Action] = []
        # Each is checked and taken in one core call (a call, a catch and the turn action
        # are never wrong jump-ins, so "taken" is reason 0 for them).
        step = self._core.step_checked
        for action in (*calls, *catches):
            if step(action.code) == 0:
                taken.append(action)
        for action in jumps:
            reason = step(action.code)
            if reason in (0, _WRONG_JUMP_IN):
                taken.append(action)
                if reason == 0:
                    return taken
        for action in turn:
            if step(action.code) == 0:
                taken.append(action)
        return taken

    def copy(self) -> Game:
        """An independent copy, history and undo included."""
        with self._lock:
            core = self._core.copy()
        return Game._restore(self.rules, self.seed, self.dealer, self.deal, self._arrangement, core)

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        with self._lock:
            core = self._core.copy()
        return (
            Game._restore,
            (self.rules, self.seed, self.dealer, self.deal, self._arrangement, core),
        )

    @staticmethod
    def _restore(
        rules: Rules,
        seed: int,
        dealer: int,
        deal: Deal | None,
        arrangement: tuple[list[list[int]], list[int], list[int]] | None,
        core: Any,
    ) -> Game:
        other = object.__new__(Game)
        other._lock = threading.RLock()
        other.rules = rules
        other.seed = seed
        other.dealer = dealer
        other.deal = deal
        other._arrangement = arrangement
        other._core = core
        return other

    def playout(
        self, seed: int, *, eager: bool = False, max_steps: int = 1_000_000
    ) -> PlayoutResult:
        """Play random legal actions to the end of the round in the core, on a copy (this
        game is unchanged): uniform over every listed action, or (``eager``) never drawing
        or keeping while any other action is legal. For fast rollouts and benchmarks."""
        seed = check_seed(seed)
        max_steps = check_integer(max_steps, "max_steps", 0, 2**31 - 1)
        winner, blocked, steps, points = self._core.playout(seed, max_steps, bool(eager))
        return PlayoutResult(
            None if winner < 0 else int(winner), bool(blocked), int(steps), tuple(points)
        )

    # --- views ---------------------------------------------------------------------------

    def observation(self, player: int) -> Observation:
        """What ``player`` may know now: their cards, everyone's card counts, the discard
        pile, whose turn, the penalty, UNO and jump-in windows; never another player's cards
        or the order of the draw pile."""
        player = self._seat(player)
        core = self._core
        drawn = self.drawn
        return Observation(
            player=player,
            hand=self.hand(player),
            hand_sizes=tuple(core.sizes),
            top=CARDS[core.top],
            colour=self.colour,
            direction=int(core.direction),
            current_player=self.current_player,
            pending=int(core.pending),
            pending_card=self.pending_card,
            drawn=drawn if player == self.current_player else None,
            deciding=drawn is not None,
            uno_player=self.uno_player,
            jump_in_open=core.jump_seat >= 0,
            discard_pile=self.discard_pile,
            draw_pile_size=int(core.draw_size),
            winner=self.winner,
            is_over=self.is_over,
        )

    def observation_vector(
        self, player: int, *, out: npt.NDArray[np.int8] | None = None
    ) -> npt.NDArray[np.int8]:
        """``observation(player).encode()`` computed in the core, into ``out`` when given (a
        writable, contiguous int8 array of ``OBSERVATION_SIZE`` entries), else a new array.

        >>> from ddz import uno
        >>> game = uno.Game(players=4, seed=3)
        >>> bool((game.observation_vector(1) == game.observation(1).encode()).all())
        True
        """
        if out is None:
            out = np.empty(OBSERVATION_SIZE, dtype=np.int8)
        elif not (
            isinstance(out, np.ndarray)
            and out.dtype == np.int8
            and out.ndim == 1
            and out.flags.c_contiguous
            and out.flags.writeable
        ):
            raise ValueError("out is a writable, contiguous, one-dimensional int8 array")
        self._core.observation_into(player, out)
        return out

    def state_bytes(self) -> bytes:
        """The core state as bytes: two games with equal bytes are in the same state."""
        return bytes(self._core.state_bytes())

    @property
    def key(self) -> int:
        """The state key: a 64-bit integer, equal for equal states and, with near certainty,
        different for different ones, kept up to date on every push and undo (Zobrist
        hashing of the hands and piles; ``docs/positions.md``, "The state key")."""
        return int(self._core.key)

    def __repr__(self) -> str:
        if self.is_over:
            end = "blocked" if self.is_blocked else f"won by {self.winner}"
            return f"<uno.Game over ({end}), ply {self.ply}>"
        return (
            f"<uno.Game {self.players} players, ply {self.ply}, top {self.top} "
            f"({self.colour}), to act {self.current_player}>"
        )

    def __str__(self) -> str:
        """The table with every hand (``ddz.uno.render.text(game, seat=k)``: one seat's view)."""
        from ddz.uno.render import text  # ddz.uno.render imports this module

        return text(self)

    def _repr_svg_(self) -> str:
        from ddz.uno.svg import table

        return table(self)

    # --- records -------------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """The round as ``seat`` may see it, JSON-ready: the public record, the seat's hand
        and the discard pile; no seed, no deal (``ddz.uno.records.view``)."""
        from ddz.uno.records import view

        return view(self, seat)

    def to_json(self, *, seat: int | None = None) -> str:
        """The round as JSON: players, rules, seed, dealer, the deal when one was given (as
        the complete arrangement) and every action; :meth:`from_json` replays it exactly.
        With ``seat``: :meth:`view` as JSON, what a server sends that seat."""
        if seat is not None:
            return json.dumps(self.view(seat))
        arrangement: dict[str, Any] | None = None
        if self._arrangement is not None:
            hands, draw, discard = self._arrangement
            arrangement = {
                "hands": [_text(kinds) for kinds in hands],
                "draw_pile": _text(draw),
                "discard_pile": _text(discard),
            }
        return json.dumps(
            {
                "format": "ddz-uno-game/1",
                "players": self.players,
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "dealer": self.dealer,
                "deal": arrangement,
                "actions": [str(action) for action in self.history],
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Game:
        """The round :meth:`to_json` wrote, replayed action by action. Any fault in the
        record (not JSON, a missing or mistyped field, an action that does not read or is not
        legal) raises :class:`ddz.errors.RecordError` naming the field and the action number
        (counted from 1)."""
        data = _records.load_json(text, "ddz-uno-game/1", "a ddz UNO game record")
        game = _start_round(data, "dealer")
        for number, action in enumerate(_records.strings(data, "actions"), start=1):
            try:
                game.step(action)
            except ValueError as error:
                raise RecordError(str(error), ply=number, field="actions") from None
        return game

    # --- helpers -------------------------------------------------------------------------

    def _seat(self, player: object) -> int:
        """A seat of this game, checked (numpy integers too)."""
        try:
            return check_integer(player, "player", 0, self.players - 1)
        except TypeError as error:
            raise TypeError(f"{error} (a seat 0..{self.players - 1})") from None

    def _action_of_index(self, index: int, player: int | None) -> Action:
        if player is None:
            if int(index) == _UNO_INDEX and self.uno_player is not None:
                player = self.uno_player
            elif self.current_player is not None:
                player = self.current_player
            else:
                raise IllegalMoveError("the round is over")
        try:
            action = action_at(index, self._seat(player), self.players)
        except TypeError as error:
            raise ActionTypeError(str(error)) from None
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        if action is None:
            raise IllegalMoveError(
                "action index 0 is the pass, which only an environment takes (out of turn)"
            )
        return action

    def _push_code(self, code: int) -> None:
        try:
            self._core.push(code)
        except (TypeError, ValueError, OverflowError) as error:
            raise IllegalMoveError(str(error)) from None

    def _explain(self, action: Action, reason: int) -> str:
        pending_card = self.pending_card
        message = _MESSAGES.get(reason, "{action} is not legal now")
        return message.format(
            action=action,
            player=action.player,
            players=self.players,
            card=action.card,
            current=self.current_player,
            drawn=self.drawn,
            pending=self.pending,
            pending_card="Draw Two" if pending_card == CARDS[12] else "Wild Draw Four",
            colour=self.colour,
            top=self.top,
            target=action.target,
        )


def check_players(players: object) -> int:
    """A number of UNO players, checked: an integer 2..10 (numpy integers too)."""
    if isinstance(players, bool) or not hasattr(type(players), "__index__"):
        raise TypeError(f"UNO is for 2..{MAX_PLAYERS} players, not {shorten(players)}")
    number = check_integer(players, "players")
    if not 2 <= number <= MAX_PLAYERS:
        raise ValueError(f"UNO is for 2..{MAX_PLAYERS} players, not {number}")
    return number


def is_index(action: object) -> bool:
    """Is action an action index (an ``int`` or numpy integer, not a ``bool``)?"""
    return isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))


def _start_round(data: dict[str, Any], dealer_field: str) -> Game:
    """The round a record's header describes (players, seed, rules, dealer, deal), each field
    checked; RecordError names the first bad one."""
    players = _records.field(data, "players", int)
    seed = _records.field(data, "seed", int)
    dealer = _records.field(data, dealer_field, int)
    rules_data = _records.field(data, "rules", dict)
    try:
        rules = Rules.from_dict(rules_data)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field="rules") from None
    deal = None
    deal_data = _records.field(data, "deal", (dict, type(None))) if "deal" in data else None
    if deal_data is not None:
        try:
            deal = Deal(
                _records.field(deal_data, "hands", list),
                _records.field(deal_data, "draw_pile", str),
                _records.field(deal_data, "discard_pile", str),
            )
        except RecordError as error:
            raise RecordError(f"{error}", field="deal") from None
        except (TypeError, ValueError) as error:
            raise RecordError(str(error), field="deal") from None
    for name, check in (
        ("players", check_players),
        ("seed", check_seed),
        (dealer_field, lambda value: check_integer(value, dealer_field, 0, players - 1)),
    ):
        try:
            check(data[name])
        except (TypeError, ValueError) as error:
            raise RecordError(str(error), field=name) from None
    try:
        return Game(players, seed=seed, rules=rules, dealer=dealer, deal=deal)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field="deal") from None


def _text(kinds: Sequence[int]) -> str:
    return " ".join(str(CARDS[kind]) for kind in kinds)
