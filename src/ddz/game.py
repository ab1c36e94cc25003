"""A whole game of Dou Dizhu: deal, bidding, play, scoring; undo, copy, records.

The state lives in the native core (``ddz._core.game``); this module converts and explains.

>>> import ddz
>>> game = ddz.Game(seed=7)
>>> game.phase, game.current_player, len(game.hands[0]), len(game.kitty)
('bidding', 2, 17, 3)
>>> [str(a) for a in game.legal_actions()]
['pass', 'bid 1', 'bid 2', 'bid 3']
>>> record = game.step("bid 3")
>>> game.phase, game.landlord, len(game.hands[2]), str(game.kitty)
('play', 2, 20, '88K')
>>> game.step("pass")
Traceback (most recent call last):
...
ddz.errors.IllegalMoveError: the leader of a trick cannot pass
>>> game.undo().action
Bid('bid', 3)
>>> game.phase
'bidding'
"""

from __future__ import annotations

import dataclasses
import functools
import json
import operator
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, TypeGuard

import numpy as np
import numpy.typing as npt

from ddz import _records
from ddz._core import actions as _actions
from ddz._core import game as _core
from ddz.cards import SYMBOLS, Cards, CardsLike
from ddz.errors import (
    MAX_RECORD,
    ActionTypeError,
    IllegalMoveError,
    RecordError,
    check_integer,
    check_seed,
    check_text,
    shorten,
)
from ddz.moves import PASS, Move, why_illegal
from ddz.position import Position
from ddz.rules import CLASSIC, PRESETS, Rules, action_codes

__all__ = [
    "HISTORY",
    "HISTORY_ENTRY_LAYOUT",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "Action",
    "ActionRecord",
    "Bid",
    "Game",
    "Observation",
    "observation_layout",
    "observation_size",
]


_BID_KINDS = {0: "pass", _core.BID_: "bid", _core.CALL_: "call", _core.GRAB_: "grab"}
_TYPE_SHIFT, _RANK_SHIFT, _LENGTH_SHIFT = 51, 56, 60  # layout.pxd: the move-code fields


@dataclasses.dataclass(frozen=True)
class Bid:
    """A bidding action: ``Bid("pass")``, ``Bid("bid", 2)``, ``Bid("call")``, ``Bid("grab")``.

    Text: ``"pass"``, ``"bid 2"``, ``"call"``, ``"grab"``.
    """

    kind: str
    value: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in ("pass", "bid", "call", "grab"):
            raise ValueError(f"{shorten(self.kind)} is no bidding action (pass, bid N, call, grab)")
        object.__setattr__(self, "value", check_integer(self.value, "a bid's value"))
        if (self.kind == "bid") != (1 <= self.value <= 3):
            raise ValueError(f"a bid is 1, 2 or 3, and only a bid has a value: {self!r}")

    @classmethod
    def parse(cls, text: str) -> Bid:
        words = check_text(text, "a bid").split()
        if len(words) == 2 and words[0].lower() == "bid" and words[1] in ("1", "2", "3"):
            return cls("bid", int(words[1]))
        if len(words) == 1 and words[0].lower() in ("pass", "call", "grab"):
            return cls(words[0].lower())
        raise ValueError(
            f"{shorten(text)} is no bidding action (pass, bid 1, bid 2, bid 3, call, grab)"
        )

    @classmethod
    def from_code(cls, code: int) -> Bid:
        """The bidding action of a core action code (an ``int`` or numpy integer, never a
        ``bool``: TypeError); ValueError if it is none."""
        code = check_integer(code, "a bidding action's code")
        kind = _BID_KINDS.get((code >> _TYPE_SHIFT) & 31)
        value = (code >> _RANK_SHIFT) & 15 if kind == "bid" else 0
        if kind is None or (kind == "bid" and not 1 <= value <= 3):
            raise ValueError(f"code {code:#x} is no bidding action")
        bid = cls(kind, value)
        if bid.code != code:
            raise ValueError(f"code {code:#x} is no bidding action")
        return bid

    @property
    def code(self) -> int:
        """The core's action code (0 for the pass, as in play)."""
        kind: int = {"pass": 0, "bid": _core.BID_, "call": _core.CALL_, "grab": _core.GRAB_}[
            self.kind
        ]
        if kind == 0:
            return 0
        return (kind << _TYPE_SHIFT) | (self.value << _RANK_SHIFT) | (1 << _LENGTH_SHIFT)

    def __str__(self) -> str:
        return f"bid {self.value}" if self.kind == "bid" else self.kind

    def __repr__(self) -> str:
        return f"Bid({self.kind!r}, {self.value})" if self.kind == "bid" else f"Bid({self.kind!r})"

    def _repr_svg_(self) -> str:
        """The bid as a label (notebooks call this; ``ddz.svg.bid``)."""
        from ddz.svg import bid  # the picture lives in the API layer, above this module

        return bid(self)


Action: TypeAlias = "Move | Bid"


@dataclasses.dataclass(frozen=True)
class ActionRecord:
    """One action of a game's history: who did what, at which ply and in which phase."""

    ply: int
    player: int
    phase: str
    action: Action

    def __str__(self) -> str:
        return f"{self.player} {self.action}"


OBSERVATION_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 17),  # my cards: a count per card symbol, 3 first, Skip and Reverse last
    ("played", 51),  # cards each seat played so far: me, the next seat, the one after
    ("card_counts", 3),  # cards each seat holds: me, next, after
    ("landlord", 3),  # one-hot, relative (all zero before bidding settles it)
    ("kitty", 17),  # the kitty's cards once shown to all (zero before)
    ("table", 17),  # the cards of the move to beat (zero when leading)
    ("table_player", 3),  # who played it, one-hot, relative
    ("table_type", 17),  # its MoveType, one-hot
    ("phase", 3),  # bidding, play, over
    ("bid", 4),  # the highest bid so far, one-hot 0..3
    ("multiplier", 1),  # log2 of the score multiplier so far
    ("current_player", 3),  # whose turn, one-hot, relative
    ("direction", 1),  # +1 in seat order, -1 reversed (Uno the Landlord)
)
"""The fields of ``Observation.encode()``, in order, with their widths. Seats are relative
to the observing player: index 0 is that player, 1 the next in turn order, 2 the one after."""

OBSERVATION_SIZE = sum(width for _, width in OBSERVATION_LAYOUT)

HISTORY = 15
"""How many past moves ``Game.observation_vector`` and the environments show by default."""

HISTORY_ENTRY_LAYOUT: tuple[tuple[str, int], ...] = (
    ("cards", 17),  # the move's cards, a count per card symbol (all zero for a pass)
    ("player", 3),  # who made it, one-hot, relative to the observer
)
"""One past move of the history part of ``observation_layout``."""


def observation_layout(history: int = HISTORY) -> tuple[tuple[str, int], ...]:
    """The fields of the core's observation vector (``Game.observation_vector``,
    ``VectorGame.observations``) with ``history`` past moves, in order, with their widths:

    * the base part, ``OBSERVATION_LAYOUT``: equal to ``Observation.encode()``; it holds the
      cards each seat has left (``card_counts``) and everything else on the table;
    * ``bombs``: bombs and rockets played so far (each doubled the score);
    * ``history``: the last ``history`` moves of the play phase, newest first, each laid out
      as ``HISTORY_ENTRY_LAYOUT`` (its cards, and who played it, relative to the observer:
      a pass is a move without cards); slots before the first move of play stay zero.

    >>> observation_layout(2)[-2:], observation_size(2), observation_size()
    ((('bombs', 1), ('history', 40)), 181, 441)
    """
    if history.__class__ is not int or not 0 <= history <= _core.HISTORY_LIMIT:
        raise ValueError(f"history is 0 .. {_core.HISTORY_LIMIT} moves, not {history!r}")
    entry = sum(width for _, width in HISTORY_ENTRY_LAYOUT)
    return (*OBSERVATION_LAYOUT, ("bombs", 1), ("history", entry * history))


_SIZES: dict[int, int] = {}  # observation_size by history, filled as histories are asked for


def observation_size(history: int = HISTORY) -> int:
    """Entries of the core's observation vector with ``history`` past moves."""
    if history.__class__ is int:  # (not True for 1: the layout refuses a bool)
        size = _SIZES.get(history)
        if size is not None:
            return size
    size = sum(width for _, width in observation_layout(history))
    _SIZES[history] = size  # observation_layout checked it: an int in range
    return size


@functools.lru_cache(maxsize=32)
def action_index(rules: Rules) -> _actions.ActionIndex:
    """The core's code -> index table of ``rules``' action space, built once (read-only)."""
    return _actions.ActionIndex(np.ascontiguousarray(action_codes(rules)))


# The last rule set's action tables, found by identity: a lookup in action_index's and
# action_codes' caches hashes every field of the Rules (about 2 us), which a learner's loop
# (legal_indices, step(index)) would pay on every step.
_LAST_TABLES: tuple[Rules, _actions.ActionIndex, npt.NDArray[np.uint64]] | None = None


def _tables(rules: Rules) -> tuple[Rules, _actions.ActionIndex, npt.NDArray[np.uint64]]:
    """``(rules, action_index(rules), action_codes(rules))``."""
    global _LAST_TABLES
    last = _LAST_TABLES
    if last is None or last[0] is not rules:
        last = (rules, action_index(rules), action_codes(rules))
        _LAST_TABLES = last  # one assignment: a thread reads the old tuple or the new
    return last


_MAX_CARDS = 64  # a seat's card count: more than any deck holds, action cards included
_MAX_MULTIPLIER = 1 << 62  # above any score the core holds (capped at 2**60 x the bid)
_MAX_GRABS = 8  # Rules.max_grabs' bound


@dataclasses.dataclass(frozen=True)
class Observation:
    """What one player may know: never another player's hand or the unshown kitty.

    :meth:`encode` turns it into a fixed-size int8 vector (``OBSERVATION_LAYOUT``).
    """

    player: int
    phase: str
    hand: Cards
    card_counts: tuple[int, ...]
    played: tuple[Cards, ...]
    landlord: int | None
    kitty: Cards | None
    table: Move | None
    table_player: int | None
    current_player: int | None
    bid: int
    multiplier: int
    history: tuple[ActionRecord, ...]
    direction: int = 1
    grabs: int = 0
    """Grabs so far (call/grab bidding); with two players, also the farmer's let count."""
    legal_actions: tuple[Action, ...] = ()
    """The observing player's legal actions when it is their turn, else empty: an agent
    chooses one of them."""

    def fault(self) -> tuple[str, str] | None:
        """``(field, what is wrong)`` if this observation is not one a game can give (seats
        outside the game, a seat's played cards missing, counts a deck cannot hold, the
        player's hand not its count, bid, multiplier, direction or grabs out of range); None
        if it is well formed. Records (:meth:`from_dict`) and ``ddz.sample_worlds`` check
        it, so a hand-edited observation is refused with the field named instead of failing
        later inside ``encode`` or the sampler."""
        seats = len(self.card_counts)
        if seats not in (2, 3):
            return "card_counts", f"one count per seat (2 or 3), not {seats}"
        if any(not 0 <= count <= _MAX_CARDS for count in self.card_counts):
            return "card_counts", f"counts are 0..{_MAX_CARDS}, not {shorten(self.card_counts)}"
        if len(self.played) != seats:
            return "played", f"one set of played cards per seat ({seats}), not {len(self.played)}"
        for name in ("player", "landlord", "table_player", "current_player"):
            seat = getattr(self, name)
            if (seat is not None or name == "player") and not 0 <= seat < seats:
                return name, f"there is no seat {shorten(seat)} (seats 0..{seats - 1})"
        if len(self.hand) != self.card_counts[self.player]:
            return "hand", (
                f"the player's hand holds {len(self.hand)} cards, its count says "
                f"{self.card_counts[self.player]}"
            )
        if (self.table is None) != (self.table_player is None):
            return "table_player", "a table move and the seat that made it come together"
        if not 0 <= self.bid <= 3:
            return "bid", f"a bid is 0..3, not {shorten(self.bid)}"
        if not 0 <= self.multiplier <= _MAX_MULTIPLIER:
            return "multiplier", f"the multiplier is 0..2**62, not {shorten(self.multiplier)}"
        if self.direction not in (1, -1):
            return "direction", f"direction is 1 or -1, not {shorten(self.direction)}"
        if not 0 <= self.grabs <= _MAX_GRABS:
            return "grabs", f"grabs are 0..{_MAX_GRABS}, not {shorten(self.grabs)}"
        for record in self.history:
            if not 0 <= record.player < seats or record.ply < 0:
                return "history", (
                    f"an action at ply {shorten(record.ply)} by seat {shorten(record.player)}: "
                    f"plies count from 0, seats are 0..{seats - 1}"
                )
        return None

    def encode(self) -> npt.NDArray[np.int8]:
        """A fixed-size int8 vector of this observation, laid out as ``OBSERVATION_LAYOUT``
        (``OBSERVATION_SIZE`` entries); the history beyond the cards played is left out.

        >>> import ddz
        >>> vector = ddz.Game(seed=1).observation(0).encode()
        >>> vector.shape, vector.dtype, int(vector[:17].sum())
        ((140,), dtype('int8'), 17)
        """
        seats = len(self.card_counts)
        order = [(self.player + offset) % seats for offset in range(seats)]
        missing = 3 - seats  # two players: the third seat's fields stay zero

        def one_hot(width: int, index: int | None) -> list[int]:
            vector = [0] * width
            if index is not None:
                vector[index] = 1
            return vector

        def relative(seat: int | None) -> int | None:
            return None if seat is None else (seat - self.player) % seats

        parts: list[int] = list(self.hand.counts(actions=True))
        for seat in order:
            parts += self.played[seat].counts(actions=True)
        parts += [0] * (17 * missing)
        parts += [self.card_counts[seat] for seat in order] + [0] * missing
        parts += one_hot(3, relative(self.landlord))
        parts += self.kitty.counts(actions=True) if self.kitty is not None else [0] * 17
        parts += self.table.cards.counts(actions=True) if self.table is not None else [0] * 17
        parts += one_hot(3, relative(self.table_player))
        parts += one_hot(17, None if self.table is None else int(self.table.type))
        parts += one_hot(3, ("bidding", "play", "over").index(self.phase))
        parts += one_hot(4, self.bid)
        parts.append(self.multiplier.bit_length() - 1 if self.multiplier > 0 else 0)
        parts += one_hot(3, relative(self.current_player))
        parts.append(self.direction)
        return np.array(parts, dtype=np.int8)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (cards and moves in notation) that :meth:`from_dict` reads back."""
        from ddz.records import observation_to_dict

        return observation_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Observation:
        """The observation :meth:`to_dict` wrote; ``ddz.errors.RecordError`` names a bad field."""
        from ddz.records import observation_from_dict

        return observation_from_dict(data)

    def to_json(self) -> str:
        """This observation as JSON, what a server sends one player (``ddz.records``).

        >>> import ddz
        >>> seen = ddz.Game(seed=1).observation(0)
        >>> ddz.Observation.from_json(seen.to_json()) == seen
        True
        """
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> Observation:
        """The observation :meth:`to_json` wrote; ``ddz.errors.RecordError`` if it is not one."""
        from ddz.records import observation_from_json

        return observation_from_json(text)

    def __str__(self) -> str:
        """The table as this seat sees it (``ddz.render.text``)."""
        from ddz.render import text  # ddz.render imports this module

        return text(self)

    def _repr_svg_(self) -> str:
        from ddz.svg import table

        return table(self)


class Game:
    """One game under ``rules``: deal, bidding, play, scoring (docs/rules.md and its chapters: the
    classic game, the two-player game and Uno the Landlord).

    ``Game(rules, seed=...)`` deals from a seeded generator that gives the same game on every
    machine; ``deal=(hands, kitty)`` fixes the cards instead, and ``first_player`` who bids
    first (or, with random-landlord rules, who is landlord). Actions are ``Move`` objects,
    ``Bid`` objects, their text, or action indices (``int``: ``ddz.ActionSpace`` numbering);
    raw core codes go through :meth:`step_code` and :meth:`push_code`. :meth:`step` checks an
    action and raises :class:`ddz.IllegalMoveError` (leaving the game as it was); :meth:`push`
    does not check the rules, yet refuses what would break the state (``docs/safety.md``).

    A game may be shared by threads: each call is one atomic step of the core (serialised),
    so no interleaving corrupts it. ``copy.copy``, ``copy.deepcopy`` and ``pickle`` give
    independent games in an equal state, history and undo included.

    :meth:`from_position` starts a game at any play-phase position instead
    (``docs/positions.md``).
    """

    _position: Position | None = None  # where a game from from_position started

    def __init__(
        self,
        rules: Rules = CLASSIC,
        *,
        seed: int | None = None,
        deal: tuple[Sequence[CardsLike], CardsLike] | None = None,
        first_player: int | None = None,
    ) -> None:
        seed = random.SystemRandom().getrandbits(63) if seed is None else check_seed(seed)
        self.rules = rules
        self.seed = seed
        dealt_hands, dealt_kitty, state = _core.shuffled_deal(rules, seed)
        if deal is None:
            hands = [Cards.from_mask(mask) for mask in dealt_hands]
            kitty = Cards.from_mask(dealt_kitty)
        else:
            hands, kitty = _check_deal(deal, rules)
        if first_player is None:
            first_player, _ = _core.seeded_below(state, rules.players)
        else:
            first_player = check_integer(first_player, "first_player", 0, rules.players - 1)
        self._core = _core.GameCore(
            rules, [h.mask for h in hands], kitty.mask, first_player, first_player
        )
        self._deal = (tuple(hands), kitty, first_player)

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        hands: Sequence[CardsLike],
        *,
        landlord: int,
        to_act: int,
        table: Move | str | None = None,
        table_player: int | None = None,
        played: Sequence[CardsLike] | None = None,
        kitty: CardsLike | None = None,
        bid: int = 1,
        bombs: int = 0,
        grabs: int = 0,
        direction: int = 1,
        landlord_moves: int | None = None,
        farmer_moves: int | None = None,
    ) -> Game:
        """A game in its play phase at any position under ``rules``: every seat's cards (any
        sizes), the landlord, the seat to act, the move to beat and who made it, the cards
        played so far and the multiplier's inputs. Validated (``ValueError``/``TypeError``
        saying what is wrong); see :class:`ddz.Position` for every argument.

        >>> import ddz
        >>> game = ddz.Game.from_position(ddz.ENDGAME, ["33", "4"], landlord=0, to_act=1,
        ...                               table="3", table_player=0)
        >>> [str(a) for a in game.legal_actions()], game.position()
        (['pass', '4'], Position.parse('33/4 landlord=0 turn=1 table=3@0 rules=endgame'))
        """
        return cls._at_position(
            Position(
                rules,
                hands,
                landlord=landlord,
                to_act=to_act,
                table=table,
                table_player=table_player,
                played=played,
                kitty=kitty,
                bid=bid,
                bombs=bombs,
                grabs=grabs,
                direction=direction,
                landlord_moves=landlord_moves,
                farmer_moves=farmer_moves,
            )
        )

    @classmethod
    def _at_position(cls, position: Position) -> Game:
        game = object.__new__(cls)
        game.rules = position.rules
        game.seed = 0
        game._position = position
        game._deal = (position.hands, position.kitty, position.landlord)
        game._core = _core.GameCore(position.rules, [0] * position.rules.players, 0, 0, 0)
        game._core.set_position(
            [hand.mask for hand in position.hands],
            [cards.mask for cards in position.played],
            position.kitty.mask,
            position.landlord,
            position.to_act,
            0 if position.table is None else position.table.code,
            -1 if position.table_player is None else position.table_player,
            position.bid,
            position.bombs,
            position.grabs,
            position.direction,
            position.landlord_moves,
            position.farmer_moves,
        )
        return game

    def position(self) -> Position:
        """The position now (play phase only): ``str(game.position())`` is its text form,
        ``game.position().game()`` a new game there, without this one's history."""
        if self.phase != "play":
            raise ValueError(f"a position is a play-phase state; this game is in {self.phase}")
        landlord = self._core.landlord
        return Position(
            self.rules,
            self.hands,
            landlord=landlord,
            to_act=self._core.current,
            table=self.table,
            table_player=self.table_player,
            played=[Cards.from_mask(cards) for cards in self._core.played],
            kitty=self.kitty,
            bid=self.bid,
            bombs=self.bombs,
            grabs=self.grabs,
            direction=self.direction,
            landlord_moves=self._core.landlord_plays,
            farmer_moves=self._core.farmer_plays,
        )

    @property
    def start(self) -> Position | None:
        """The position a game from :meth:`from_position` started at; None for a dealt game."""
        return self._position

    # --- state ---------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``"bidding"``, ``"play"`` or ``"over"``."""
        return str(self._core.phase)

    @property
    def current_player(self) -> int | None:
        """The seat to act; None once the game is over."""
        seat = self._core.current
        return None if seat < 0 else int(seat)

    @property
    def landlord(self) -> int | None:
        """The landlord's seat; None until bidding settles it (and for a void deal)."""
        seat = self._core.landlord
        return None if seat < 0 else int(seat)

    @property
    def hands(self) -> tuple[Cards, ...]:
        """Every seat's cards now (the landlord's with the kitty once settled)."""
        return tuple(Cards.from_mask(mask) for mask in self._core.hands)

    @property
    def kitty(self) -> Cards:
        return Cards.from_mask(self._core.kitty)

    @property
    def deal(self) -> tuple[tuple[Cards, ...], Cards]:
        """The cards as dealt: the hands before bidding and the kitty."""
        return self._deal[0], self._deal[1]

    @property
    def first_player(self) -> int:
        """Who bid first (or, with random-landlord rules, who was made landlord)."""
        return self._deal[2]

    @property
    def table(self) -> Move | None:
        """The move to beat; None when the player to act leads."""
        code = self._core.table
        return Move.from_code(code) if code else None

    @property
    def table_player(self) -> int | None:
        seat = self._core.table_player
        return None if seat < 0 else int(seat)

    @property
    def history(self) -> list[ActionRecord]:
        """Every action so far, oldest first."""
        return [
            ActionRecord(ply, player, phase, self._action_of(code, phase))
            for ply, player, phase, code in self._core.history_entries()
        ]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def is_void(self) -> bool:
        """Everyone passed in bidding: nobody is landlord and the payoffs are zero."""
        return bool(self._core.void)

    @property
    def winner(self) -> int | None:
        """The seat that emptied its hand (its side won); None while playing and when void."""
        seat = self._core.winner
        return None if seat < 0 else int(seat)

    @property
    def bid(self) -> int:
        """The highest bid so far (points bidding); the base score once settled."""
        return int(self._core.bid)

    @property
    def grabs(self) -> int:
        """Grabs so far (call/grab bidding): each doubles the score; with two players each is
        also a let card."""
        return int(self._core.grabs)

    @property
    def direction(self) -> int:
        """+1 while play runs in seat order (0, 1, 2), -1 after an odd number of Reverses."""
        return int(self._core.direction)

    @property
    def set_aside(self) -> Cards:
        """Cards dealt to nobody (the two-player game's 9): never shown to any player. For a
        game from a position: the cards no seat held or had played there."""
        if self._position is not None:
            held = Cards()
            for cards in self._position.hands + self._position.played:
                held = held + cards
            return self.rules.deck - held
        dealt = self._deal[1]
        for hand in self._deal[0]:
            dealt = dealt + hand
        return self.rules.deck - dealt

    @property
    def bombs(self) -> int:
        """Bombs and rockets played so far."""
        return int(self._core.bombs)

    @property
    def spring(self) -> bool:
        """Over, and the losers played no card (or the landlord only the opening move)."""
        return bool(self._core.spring)

    @property
    def multiplier(self) -> int:
        """The score as it stands: base x 2 per bomb and rocket (x 2 per grab) x 2 for a
        spring at the end when the rules count springs. 0 while no bid or call has set a
        base."""
        return int(self._core.multiplier())

    def payoffs(self) -> list[int]:
        """Points per seat, zero-sum: the landlord wins or loses twice the score, each farmer
        the opposite once; all zero until the game is over and for a void deal."""
        return list(self._core.payoffs())

    # --- actions -------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act (``[]`` once the game is over)."""
        if self._core.phase == "play":
            return self._core.legal_moves()  # type: ignore[return-value]
        return [Bid.from_code(code) for code in self._core.bidding_codes()]

    def legal_codes(self) -> npt.NDArray[np.uint64]:
        """The legal actions' core codes (``Move.code``, ``Bid.code``), in the order of
        :meth:`legal_actions`, as a new uint64 array: no objects are built."""
        out = np.empty(256, dtype=np.uint64)
        count = self._core.legal_codes_into(out)
        if count > len(out):
            out = np.empty(count, dtype=np.uint64)
            count = self._core.legal_codes_into(out)
        return out[:count]

    def legal_indices(self) -> npt.NDArray[np.int64]:
        """The legal actions' indices in ``ddz.ActionSpace(self.rules)``, in the order of
        :meth:`legal_actions`, as a new int64 array (from the core, no objects built).

        >>> import ddz
        >>> game = ddz.Game(seed=7)
        >>> [str(ddz.ActionSpace(game.rules).action(int(i))) for i in game.legal_indices()]
        ['pass', 'bid 1', 'bid 2', 'bid 3']
        """
        index = _tables(self.rules)[1]
        out = np.empty(256, dtype=np.int64)
        count = self._core.legal_indices_into(index, out)
        if count > len(out):
            out = np.empty(count, dtype=np.int64)
            count = self._core.legal_indices_into(index, out)
        return out[:count]

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """The legal actions as a bool vector over ``ddz.ActionSpace(self.rules)``."""
        mask = np.zeros(self.rules.num_actions, dtype=np.bool_)
        mask[self.legal_indices()] = True
        return mask

    def parse_action(self, action: Action | str | int) -> Action:
        """An action object from text: ``"pass"`` (in either phase), ``"bid 2"``,
        ``"call"``, ``"grab"``, or a move in the notation; or from an action index (an
        ``int`` or numpy integer, as in :meth:`step`). :class:`ddz.errors.ActionTypeError`
        (an IllegalMoveError and a TypeError) for a value of another type."""
        if _is_index(action):
            index = int(action)
            code, _ = self._code_of(index)  # the range check and its message
            # ddz.ActionSpace's numbering: the five bidding actions come last
            bidding = index >= self.rules.num_actions - 5  # bid 1..3, call, grab
            action = Bid.from_code(code) if bidding else Move.from_code(code)
        if isinstance(action, (Move, Bid)):
            # The pass is one action in both phases: give it the phase's own type, so that
            # records read the same however it was passed in.
            if action.code == 0:
                return Bid("pass") if self.phase == "bidding" else PASS
            return action
        if not isinstance(action, str):
            raise ActionTypeError(
                f"an action is a Move, a Bid, text or an action index, not {shorten(action)}"
            )
        try:
            check_text(action, "an action")
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        if action.strip().lower() == "pass":
            return Bid("pass") if self.phase == "bidding" else PASS
        first_word = action.split()[0].lower() if action.split() else ""
        try:
            if first_word in ("bid", "call", "grab"):
                return Bid.parse(action)  # its own message for a mistyped bid
            return Move.parse(action)
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None

    def why_illegal(self, action: Action | str | int) -> str | None:
        """None if the action is legal now, else why not (unreadable text included). An
        ``int`` is an action index, as in :meth:`step`; a value of another type raises
        :class:`ddz.errors.ActionTypeError` (a TypeError)."""
        try:
            code, parsed = self._code_of(action)
        except ActionTypeError:
            raise
        except IllegalMoveError as error:
            return str(error)
        reason = self._core.check(code)
        return None if reason == 0 else self._reason(code, parsed, reason)

    def step(self, action: Action | str | int, *, player: int | None = None) -> ActionRecord:
        """Take an action, checked: IllegalMoveError (with the reason) leaves the game as it
        was. Returns the record appended to the history. ``player`` is the seat sending the
        action (a server's check): IllegalMoveError unless it is that seat's turn.

        ``action`` is a ``Move``, a ``Bid``, their text, or an ``int`` (or numpy integer):
        an action *index* of ``ddz.ActionSpace(self.rules)``, what masks and environments
        hand out. Raw core move codes go through :meth:`step_code`. The check and the
        change are one call into the core, so threads sharing a game cannot interleave them.
        """
        if player is not None:
            self._check_turn(player)
        code, parsed = self._code_of(action)
        return self._step(code, parsed)

    def _check_turn(self, player: object) -> None:
        from ddz.records import seat_of

        try:
            seat = seat_of(self.rules.players, player)
        except TypeError as error:
            raise ActionTypeError(str(error)) from None
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        if self.current_player is None:
            raise IllegalMoveError("the game is over")
        if seat != self.current_player:
            raise IllegalMoveError(f"it is seat {self.current_player}'s turn, not seat {seat}'s")

    def step_code(self, code: int) -> ActionRecord:
        """:meth:`step` for a raw core action code (``Move.code``, ``Bid.code``;
        ``docs/layout.md``): checked the same way."""
        return self._step(_raw_code(code), None)

    def push(self, action: Action | str | int) -> None:
        """Take an action without checking the rules: the fast path for search and
        simulation, for actions from :meth:`legal_actions` (or their indices: an ``int`` is
        an action index, as in :meth:`step`). An action that is not legal here leaves the
        game in a state no rule allows; use :meth:`step` to check.

        Unchecked skips the rules of turn (beating the table, the leader's pass, the bidding
        order), never the shape of an action: any action once the game is over, a move in
        bidding or a bid in play, text that is no move under the rules, or cards the player
        does not hold raise :class:`ddz.IllegalMoveError` and change nothing
        (``docs/safety.md``)."""
        cls = action.__class__
        code = action.code if cls is Move or cls is Bid else self._code_of(action)[0]  # type: ignore[union-attr]
        if self._core.push(code):
            self._refuse_push(code)

    def push_code(self, code: int) -> None:
        """:meth:`push` for a raw core action code: unchecked in the same way, and refused
        in the same way when it would take the state outside what the core can hold."""
        code = _raw_code(code)
        if self._core.push(code):
            self._refuse_push(code)

    def undo(self) -> ActionRecord:
        """Take back the last action, restoring the state exactly; returns its record.
        IndexError when there is nothing to undo."""
        code, ply, player, phase = self._core.undo()
        return ActionRecord(ply, player, phase, self._action_of(code, phase))

    def copy(self) -> Game:
        """An independent copy, history and undo included (``copy.copy``, ``copy.deepcopy``
        and ``pickle`` give the same)."""
        other = object.__new__(Game)
        other.rules = self.rules
        other.seed = self.seed
        other._deal = self._deal
        other._position = self._position
        other._core = self._core.copy()
        return other

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()  # everything but the core state is immutable

    # --- the meaning of an action --------------------------------------------------------

    def _code_of(self, action: Action | str | int) -> tuple[int, Action | None]:
        """(core code, action object or None) of what step/push/why_illegal accept."""
        if _is_index(action):
            codes = _tables(self.rules)[2]  # ddz.ActionSpace's numbering, built once
            index = operator.index(action)
            if not 0 <= index < len(codes):
                raise IllegalMoveError(
                    f"action index {shorten(index)} is outside 0..{len(codes) - 1} "
                    "(ddz.ActionSpace of these rules); raw move codes go through "
                    "step_code/push_code"
                )
            return codes.item(index), None
        parsed = self.parse_action(action)  # a bool: refused there
        return parsed.code, parsed

    def _step(self, code: int, parsed: Action | None) -> ActionRecord:
        reason, ply, player, phase = self._core.step(code)
        if reason:
            raise IllegalMoveError(self._reason(code, parsed, reason))
        if parsed is None or parsed.code == 0:
            parsed = self._action_of(code, phase)
        return ActionRecord(ply, player, phase, parsed)

    def _reason(self, code: int, parsed: Action | None, reason: int) -> str:
        """The text of the core's reason for refusing code."""
        if reason == 1:
            return "the game is over"
        if parsed is None:
            try:
                parsed = self._action_of(code, self.phase if reason != 2 else "play")
            except ValueError:
                if reason == 2 and self.phase == "bidding":
                    return f"code {code:#x} is no bidding action, and the game is in bidding"
                return f"code {code:#x} is no action of this game"
        if reason == 2:
            if self.phase == "bidding":
                return f"{parsed} is a move, but the game is in bidding (bid, call, grab or pass)"
            return f"{parsed} is a bidding action, but bidding is over"
        if reason == 3:
            legal = ", ".join(str(a) for a in self.legal_actions())
            return f"{parsed} is not a bidding action seat {self.current_player} has: {legal}"
        if not isinstance(parsed, Move):
            return f"{parsed} is not legal here"
        seat = self._core.current
        if seat < 0:
            return "the game is over"
        return (
            why_illegal(
                Cards.from_mask(self._core.hands[seat]), parsed, self.table, rules=self.rules
            )
            or f"{parsed} is not legal"
        )

    def _refuse_push(self, code: int) -> None:
        """Raise for an action push refused (it would leave the state's invariants)."""
        if self.is_over:
            raise IllegalMoveError("the game is over: nothing can be pushed")
        if self.phase == "bidding":
            raise IllegalMoveError(
                f"code {code:#x} is no bidding action (pass, bid 1..3, call, grab), and the "
                "game is in bidding: push checks no rules, but only these can be applied here"
            )
        raise IllegalMoveError(
            f"code {code:#x} is no move under these rules of cards seat {self.current_player} "
            "holds: push skips the rules of turn, never the shape of a move"
        )

    def redeal(self) -> Game:
        """The next game after a void deal (or any game): same rules, the next seed, and the
        next seat bids first."""
        return Game(
            self.rules,
            seed=(self.seed + 1) % (1 << 64),
            first_player=(self.first_player + 1) % self.rules.players,
        )

    # --- views ---------------------------------------------------------------------------

    def observation(self, player: int, *, history: bool = True) -> Observation:
        """What ``player`` may know now: their hand, the others' card counts, the cards each
        seat played, the kitty once the landlord took it, the table, bids and history, and
        their legal actions when it is their turn (what an agent receives, ``ddz.agents``).

        ``history=False`` leaves the history out (an empty tuple): building it costs time in
        proportion to the game's length, and ``encode()`` does not use it."""
        player = check_integer(player, "player", 0, self.rules.players - 1)
        records = tuple(self.history) if history else ()
        played = [Cards.from_mask(cards) for cards in self._core.played]
        hands = self.hands
        return Observation(
            player=player,
            phase=self.phase,
            hand=hands[player],
            card_counts=tuple(len(hand) for hand in hands),
            played=tuple(played),
            landlord=self.landlord,
            kitty=self.kitty if self.landlord is not None else None,
            table=self.table,
            table_player=self.table_player,
            current_player=self.current_player,
            bid=self.bid,
            multiplier=self.multiplier,
            history=records,
            direction=self.direction,
            grabs=self.grabs,
            legal_actions=(tuple(self.legal_actions()) if player == self._core.current else ()),
        )

    def observation_vector(
        self,
        player: int,
        *,
        history: int = HISTORY,
        out: npt.NDArray[np.int8] | None = None,
    ) -> npt.NDArray[np.int8]:
        """What ``player`` may know now as an int8 vector computed in the core, laid out as
        ``observation_layout(history)``: ``Observation.encode()``'s fields, the bombs so
        far, and the last ``history`` moves of play (read from the game's own undo stack,
        nothing rebuilt). Written into ``out`` when given (a contiguous int8 array of
        ``observation_size(history)`` entries), else into a new array.

        >>> game = Game(seed=7)
        >>> vector = game.observation_vector(0)
        >>> vector.shape, bool((vector[:140] == game.observation(0).encode()).all())
        ((441,), True)
        """
        if out is None:
            out = np.empty(observation_size(history), dtype=np.int8)
        elif not (
            isinstance(out, np.ndarray)
            and out.dtype == np.int8
            and out.ndim == 1
            and out.flags.c_contiguous
            and out.flags.writeable
        ):
            raise ValueError("out is a writable, contiguous, one-dimensional int8 array")
        self._core.observation_into(player, history, out)
        return out

    @property
    def key(self) -> int:
        """The state key: a 64-bit integer, equal for equal states and, with near certainty,
        different for different ones, kept up to date on every push and undo (Zobrist
        hashing). It covers what decides the game from here on (hands, seat to act, table and
        its maker, phase, landlord, ...) and leaves out the history, so transposed move orders
        meet on one key (``docs/positions.md``, "The state key")."""
        return int(self._core.key)

    def state_bytes(self) -> bytes:
        """The core state as bytes: two games with equal bytes are in the same state."""
        return bytes(self._core.state_bytes())

    def __repr__(self) -> str:
        return (
            f"<Game {self.phase}, ply {self._core.ply}, to act {self.current_player}, "
            f"landlord {self.landlord}>"
        )

    def __str__(self) -> str:
        """The table with every hand (``ddz.render.text(game, seat=k)``: one seat's view)."""
        from ddz.render import text  # ddz.render imports this module

        return text(self)

    def _repr_svg_(self) -> str:
        from ddz.svg import table

        return table(self)

    # --- records -------------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """The record as ``seat`` may see it, JSON-ready: the other hands, the kitty until a
        landlord takes it and the seed left out (``ddz.records.view``)."""
        from ddz.records import view

        return view(self, seat)

    def to_json(self, *, seat: int | None = None) -> str:
        """The game as JSON: rules, seed, deal, first player and every action; from_json
        replays it exactly. With ``seat``: :meth:`view` as JSON, what a server sends that
        seat (it does not replay)."""
        if seat is not None:
            return json.dumps(self.view(seat))
        rules = self.rules.to_dict()
        if self._position is not None:  # a game set up at a position: the position, no deal
            start = {"format": "ddz-game/1", "rules": rules, "position": str(self._position)}
            actions = [str(record.action) for record in self.history]
            return json.dumps({**start, "actions": actions})
        return json.dumps(
            {
                "format": "ddz-game/1",
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "hands": [str(hand) for hand in self._deal[0]],
                "kitty": str(self._deal[1]),
                "first_player": self._deal[2],
                "actions": [str(record.action) for record in self.history],
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Game:
        """The game :meth:`to_json` wrote, replayed action by action. Any fault (not JSON, a
        missing or mistyped field, cards that do not read, an action that is not legal)
        raises :class:`ddz.RecordError` naming the field and the action number (from 1)."""
        data = _records.load_json(text, "ddz-game/1", "a ddz game record")
        rules = _read_rules(_records.field(data, "rules", dict), "rules")
        if "position" in data:  # a game that started at a position
            position = _records.field(data, "position", str)
            game = _at_position(position, rules, "position")
        else:
            seed = _read(check_seed, _records.field(data, "seed", int), "seed")
            hands = _records.strings(data, "hands")
            kitty = _records.field(data, "kitty", str)
            first = _records.field(data, "first_player", int)
            game = _start(rules, seed, hands, kitty, first, "first_player")
        for number, action in enumerate(_records.strings(data, "actions"), start=1):
            try:
                game.step(action)
            except ValueError as error:
                raise RecordError(str(error), ply=number, field="actions") from None
        return game

    def record(self) -> str:
        """A compact, readable record of the game that :meth:`from_record` replays."""
        name = next((n for n, preset in PRESETS.items() if preset == self.rules), None)
        rules = json.dumps(self.rules.to_dict())
        lines = [f"rules {name}" if name else f"rules {rules}"]
        if self._position is not None:
            lines.append(f"position {self._position}")
        else:
            lines.append(f"seed {self.seed}")
            lines += [f"hand {seat} {hand}" for seat, hand in enumerate(self._deal[0])]
            lines += [f"kitty {self._deal[1]}", f"first {self._deal[2]}"]
        lines += [str(record) for record in self.history]
        if self.is_over:
            lines.append(f"result {self._result()}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_record(cls, text: str) -> Game:
        """The game :meth:`record` wrote, replayed. Any fault raises :class:`ddz.RecordError`
        naming the line's field (``seed``, ``hand 1``, ...) or the action number (from 1)."""
        if not isinstance(text, str):
            raise RecordError(f"a game record is text, not {type(text).__name__}")
        if len(text) > MAX_RECORD:
            raise RecordError(
                f"a game record of {len(text)} characters is longer than {MAX_RECORD}"
            )
        lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        header: dict[str, str] = {}
        hands: dict[int, str] = {}
        moves: list[tuple[int, str]] = []
        for line_number, line in lines:
            word, _, rest = line.partition(" ")
            if word == "hand":
                seat_text, _, cards = rest.partition(" ")
                seat = _read_number(seat_text, "hand")
                if seat in hands:
                    raise RecordError("the seat's hand is given twice", field=f"hand {seat}")
                hands[seat] = cards
            elif word in ("rules", "seed", "kitty", "first", "result", "position"):
                if word in header:
                    raise RecordError("given twice", field=word)
                header[word] = rest
            elif word.isascii() and word.isdigit():
                moves.append((_read_number(word, "action"), rest))
            else:
                raise RecordError(
                    f"unreadable record line: {shorten(line)}", field=f"line {line_number}"
                )
        if "rules" not in header:
            raise RecordError("missing", field="rules")
        rules_text = header["rules"]
        if rules_text in PRESETS:
            rules = PRESETS[rules_text]
        else:
            fields = _records.load_object(rules_text, "the rules", field="rules")
            rules = _read_rules(fields, "rules")
        if "position" in header:
            game = _at_position(header["position"], rules, "position")
        else:
            for name in ("seed", "first"):
                if name not in header:
                    raise RecordError("missing", field=name)
            seed = _read(check_seed, _read_number(header["seed"], "seed"), "seed")
            if sorted(hands) != list(range(len(hands))):
                raise RecordError(f"hands for seats {sorted(hands)}", field="hand")
            deal_hands = [hands[seat] for seat in sorted(hands)]
            first = _read_number(header["first"], "first")
            game = _start(rules, seed, deal_hands, header.get("kitty", ""), first, "first")
        for number, (player, action) in enumerate(moves, start=1):
            if player != game.current_player:
                raise RecordError(
                    f"record says seat {player} acts at ply {game._core.ply}, "
                    f"but it is seat {game.current_player}'s turn",
                    ply=number,
                )
            try:
                game.step(action)
            except ValueError as error:
                raise RecordError(str(error), ply=number) from None
        if "result" in header and header["result"] != game._result():
            raise RecordError(
                f"record's result {shorten(header['result'])} differs from the replay's "
                f"{game._result()!r}",
                field="result",
            )
        return game

    # --- helpers -------------------------------------------------------------------------

    def _result(self) -> str:
        if self.is_void:
            return "void deal"
        side = "landlord" if self.winner == self.landlord else "farmers"
        payoffs = " ".join(f"{p:+d}" for p in self.payoffs())
        return f"{side} win, seat {self.winner} out, score {self.multiplier}, payoffs {payoffs}"

    @staticmethod
    def _action_of(code: int, phase: str) -> Action:
        if phase == "bidding":
            return Bid.from_code(code)
        return Move.from_code(code) if code else PASS


def _raw_code(code: object) -> int:
    """A raw action code as a Python int: any integer (numpy's too) in 0 .. 2**64 - 1."""
    if type(code) is int and 0 <= code < 1 << 64:  # the search loop's case, checked first
        return code
    if not _is_index(code):
        raise ActionTypeError(f"an action code is an integer, not {shorten(code)}")
    value = operator.index(code)
    if not 0 <= value < 1 << 64:
        raise IllegalMoveError(f"an action code lies in 0 .. 2**64 - 1, not {shorten(value)}")
    return value


def _is_index(value: object) -> TypeGuard[int | np.integer[Any]]:
    """Is value an integer (``int`` or numpy integer; a ``bool`` is none)?"""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _read_rules(data: dict[str, object], field: str) -> Rules:
    try:
        return Rules.from_dict(data)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field=field) from None


def _read(check: Callable[[object], int], value: object, field: str) -> int:
    try:
        return check(value)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field=field) from None


def _read_number(text: str, field: str) -> int:
    """A non-negative decimal number from a text record (at most 20 digits)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 20):
        raise RecordError(f"expected a number, not {shorten(text)}", field=field)
    return int(text)


def _start(
    rules: Rules, seed: int, hands: list[str], kitty: str, first: int, first_field: str
) -> Game:
    """The game a record's header describes; RecordError names the field at fault."""
    for seat, hand in enumerate(hands):
        _read(lambda text: len(Cards(text)), hand, f"hands[{seat}]")  # type: ignore[arg-type]
    _read(lambda text: len(Cards(text)), kitty, "kitty")  # type: ignore[arg-type]
    _read(
        lambda value: check_integer(value, "the first player", 0, rules.players - 1),
        first,
        first_field,
    )
    try:
        return Game(rules, seed=seed, deal=(hands, kitty), first_player=first)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field="hands") from None


def _at_position(text: str, rules: Rules, field: str) -> Game:
    """The game a record's position describes; RecordError names the field at fault."""
    try:
        return Position.parse(text, rules=rules).game()
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field=field) from None


def _too_many(hands: Sequence[Cards], kitty: Cards) -> str:
    """Which card a deal holds more of than one deck has, and where: the message for a
    deal whose parts overlap."""
    parts = [(f"hand {seat}", hand) for seat, hand in enumerate(hands)] + [("the kitty", kitty)]
    for card in SYMBOLS:
        held = [(name, cards.count(card)) for name, cards in parts if cards.count(card)]
        total = sum(count for _, count in held)
        most = 1 if card in "XD" else 2 if card in "SV" else 4  # jokers; Skips, Reverses
        if total > most:
            where = ", ".join(f"{name} {count}" for name, count in held)
            return f"the deal holds {total} of {card} ({where}); a deck holds {most}"
    return "the deal holds a card more often than a deck does"


def _check_deal(
    deal: tuple[Sequence[CardsLike], CardsLike], rules: Rules
) -> tuple[list[Cards], Cards]:
    hands_given, kitty_given = deal
    hands = [Cards(hand) for hand in hands_given]
    kitty = Cards(kitty_given)
    if len(hands) != rules.players:
        raise ValueError(f"a deal has {rules.players} hands, not {len(hands)}")
    for seat, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            raise ValueError(f"hand {seat} has {len(hand)} cards, not {rules.hand_size}")
    if len(kitty) != rules.kitty_size:
        raise ValueError(f"the kitty has {len(kitty)} cards, not {rules.kitty_size}")
    total = kitty
    for hand in hands:
        try:
            total = total + hand
        except ValueError:
            raise ValueError(_too_many(hands, kitty)) from None
    if not total <= rules.deck:
        raise ValueError(f"the deal holds cards the deck of these rules does not have: {total}")
    return hands, kitty
