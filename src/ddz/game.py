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
import json
import random
from collections.abc import Callable, Sequence
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from ddz import _records
from ddz._core import game as _core
from ddz.cards import Cards, CardsLike
from ddz.errors import (
    MAX_RECORD,
    IllegalMoveError,
    RecordError,
    check_int,
    check_seed,
    check_text,
    shorten,
)
from ddz.moves import PASS, Move, why_illegal
from ddz.rules import CLASSIC, PRESETS, Rules

__all__ = [
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "Action",
    "ActionRecord",
    "Bid",
    "Game",
    "Observation",
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
        object.__setattr__(self, "value", check_int(self.value, "a bid's value"))
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
        kind = _BID_KINDS[(code >> _TYPE_SHIFT) & 31]
        return cls(kind, (code >> _RANK_SHIFT) & 15 if kind == "bid" else 0)

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


class Game:
    """One game under ``rules``: deal, bidding, play, scoring (RULES.md sections 3-5: the
    classic game, the two-player game and Uno the Landlord).

    ``Game(rules, seed=...)`` deals from a seeded generator that gives the same game on every
    machine; ``deal=(hands, kitty)`` fixes the cards instead, and ``first_player`` who bids
    first (or, with random-landlord rules, who is landlord). Actions are ``Move`` objects,
    ``Bid`` objects or their text. :meth:`step` checks an action and raises
    :class:`ddz.IllegalMoveError` (leaving the game as it was); :meth:`push` does not check.
    """

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
        elif first_player not in range(rules.players):
            raise ValueError(f"first_player must be a seat 0..{rules.players - 1}")
        self._core = _core.GameCore(
            rules, [h.mask for h in hands], kitty.mask, first_player, first_player
        )
        self._deal = (tuple(hands), kitty, first_player)

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
        """Cards dealt to nobody (the two-player game's 9): never shown to any player."""
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

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """The legal actions as a bool vector over ``ddz.ActionSpace(self.rules)``."""
        from ddz.actions import action_space  # built from the engine, once per rules

        return action_space(self.rules).legal_mask(self)

    def parse_action(self, action: Action | str) -> Action:
        """An action object from text: ``"pass"`` (in either phase), ``"bid 2"``,
        ``"call"``, ``"grab"``, or a move in the notation."""
        if isinstance(action, (Move, Bid)):
            # The pass is one action in both phases: give it the phase's own type, so that
            # records read the same however it was passed in.
            if action.code == 0:
                return Bid("pass") if self.phase == "bidding" else PASS
            return action
        if not isinstance(action, str):
            raise IllegalMoveError(f"an action is a Move, a Bid or text, not {shorten(action)}")
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

    def why_illegal(self, action: Action | str) -> str | None:
        """None if the action is legal now, else why not (unreadable text included)."""
        try:
            parsed = self.parse_action(action)
        except IllegalMoveError as error:
            return str(error)
        reason = self._core.check(parsed.code)
        if reason == 0:
            return None
        if reason == 1:
            return "the game is over"
        if reason == 2:
            if self.phase == "bidding":
                return f"{parsed} is a move, but the game is in bidding (bid, call, grab or pass)"
            return f"{parsed} is a bidding action, but bidding is over"
        if reason == 3:
            legal = ", ".join(str(a) for a in self.legal_actions())
            return f"{parsed} is not a bidding action seat {self.current_player} has: {legal}"
        seat = self._core.current
        assert isinstance(parsed, Move)  # in play, every action is a move
        return (
            why_illegal(
                Cards.from_mask(self._core.hands[seat]), parsed, self.table, rules=self.rules
            )
            or f"{parsed} is not legal"
        )

    def step(self, action: Action | str) -> ActionRecord:
        """Take an action, checked: IllegalMoveError (with the reason) leaves the game as it
        was. Returns the record appended to the history."""
        parsed = self.parse_action(action)
        core = self._core
        if core.check(parsed.code) != 0:
            raise IllegalMoveError(self.why_illegal(parsed) or "illegal")
        record = ActionRecord(core.ply, core.current, core.phase, parsed)
        core.push(parsed.code)
        return record

    def push(self, action: Action | int) -> None:
        """Take an action without checking it: the fast path for search and simulation, for
        actions from :meth:`legal_actions` (or their codes). An action that is not legal
        here leaves the game in a state no rule allows; use :meth:`step` to check."""
        self._core.push(action if action.__class__ is int else action.code)  # type: ignore[union-attr]

    def undo(self) -> ActionRecord:
        """Take back the last action, restoring the state exactly; returns its record.
        IndexError when there is nothing to undo."""
        code = self._core.undo()
        return ActionRecord(
            self._core.ply,
            self._core.current,
            self._core.phase,
            self._action_of(code, self._core.phase),
        )

    def copy(self) -> Game:
        """An independent copy, history and undo included."""
        other = object.__new__(Game)
        other.rules = self.rules
        other.seed = self.seed
        other._deal = self._deal
        other._core = self._core.copy()
        return other

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
        seat played, the kitty once the landlord took it, the table, bids and history.

        ``history=False`` leaves the history out (an empty tuple): building it costs time in
        proportion to the game's length, and ``encode()`` does not use it."""
        if player not in range(self.rules.players):
            raise ValueError(f"player must be a seat 0..{self.rules.players - 1}")
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
        )

    def state_bytes(self) -> bytes:
        """The core state as bytes: two games with equal bytes are in the same state."""
        return bytes(self._core.state_bytes())

    def __repr__(self) -> str:
        return (
            f"<Game {self.phase}, ply {self._core.ply}, to act {self.current_player}, "
            f"landlord {self.landlord}>"
        )

    # --- records -------------------------------------------------------------------------

    def to_json(self) -> str:
        """The game as JSON: rules, seed, deal, first player and every action; from_json
        replays it exactly."""
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
        lines = [f"rules {name}" if name else f"rules {rules}", f"seed {self.seed}"]
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
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        header: dict[str, str] = {}
        hands: dict[int, str] = {}
        moves: list[tuple[int, str]] = []
        for line in lines:
            word, _, rest = line.partition(" ")
            if word == "hand":
                seat_text, _, cards = rest.partition(" ")
                seat = _read_number(seat_text, "hand")
                if seat in hands:
                    raise RecordError("the seat's hand is given twice", field=f"hand {seat}")
                hands[seat] = cards
            elif word in ("rules", "seed", "kitty", "first", "result"):
                if word in header:
                    raise RecordError("given twice", field=word)
                header[word] = rest
            elif word.isascii() and word.isdigit():
                moves.append((_read_number(word, "action"), rest))
            else:
                raise RecordError(f"unreadable record line: {shorten(line)}", ply=None)
        for name in ("rules", "seed", "first"):
            if name not in header:
                raise RecordError("missing", field=name)
        rules_text = header["rules"]
        if rules_text in PRESETS:
            rules = PRESETS[rules_text]
        else:
            fields = _records.load_object(rules_text, "the rules", field="rules")
            rules = _read_rules(fields, "rules")
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
        lambda value: check_int(value, "the first player", 0, rules.players - 1), first, first_field
    )
    try:
        return Game(rules, seed=seed, deal=(hands, kitty), first_player=first)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field="hands") from None


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
            raise ValueError("the deal holds a card twice") from None
    if not total <= rules.deck:
        raise ValueError(f"the deal holds cards the deck of these rules does not have: {total}")
    return hands, kitty
