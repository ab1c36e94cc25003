"""Positions: any play-phase state of a game, set up in one call, and its text form.

A :class:`Position` holds what decides a game from here on: every seat's cards, the landlord,
the seat to act, the move to beat and who made it, the cards each seat has played, the
multiplier's inputs. It validates everything when it is made, reads and writes a compact text
form a person can type (``docs/positions.md``), and starts a :class:`ddz.Game` there.

>>> import ddz
>>> position = ddz.Position.parse("456789/TJQKA2 landlord=0 turn=1 table=3@0")
>>> position.rules is ddz.ENDGAME, str(position.table), str(position.played[0])
(True, '3', '3')
>>> str(position)
'456789/TJQKA2 landlord=0 turn=1 table=3@0 rules=endgame'
>>> game = position.game()
>>> [str(move) for move in game.legal_actions()][:4]
['pass', 'T', 'J', 'Q']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ddz._core import moves as _moves
from ddz.base.errors import check_text, shorten
from ddz.doudizhu.cards import SYMBOLS, Cards, CardsLike
from ddz.doudizhu.moves import Move, MoveType
from ddz.doudizhu.rules import CLASSIC, ENDGAME, PRESETS, Bidding, Rules

if TYPE_CHECKING:
    from ddz.doudizhu.game import Game

__all__ = ["Position"]

_MAX_BOMBS = 14  # thirteen bombs and the rocket: the most one deck can hold
_KEYS = (
    "landlord",
    "turn",
    "table",
    "played",
    "kitty",
    "bid",
    "bombs",
    "grabs",
    "direction",
    "moves",
    "rules",
)


@dataclasses.dataclass(frozen=True, init=False)
class Position:
    """A play-phase position under ``rules`` (validated when made; see the module docstring).

    ``hands``: one card set a seat (``Cards`` or text), any sizes, none empty. ``landlord``
    and ``to_act``: seats. ``table``: the move to beat (a ``Move`` or its text, a reading
    under the rules) and ``table_player`` the seat that made it (not ``to_act``); both
    ``None`` when ``to_act`` leads. ``played``: the cards each seat has played so far, the
    table's move included (default: only the table's move). ``kitty``: the kitty as shown
    (among the landlord's cards, held or played; default none). ``bid``: the base score (1-3
    with points bidding, else 1); ``bombs``: bombs and rockets played so far; ``grabs``:
    call/grab grabs (each doubles the score; with two players each is a let card);
    ``direction``: -1 after an odd number of Reverses (Uno the Landlord).
    ``landlord_moves`` and ``farmer_moves``: moves (not passes) each side has made, which
    only a spring needs; by default 0 for a side that played nothing, 1 for a landlord whose
    only cards played are the table's move, else 2 for the landlord and 1 for the farmers.
    """

    rules: Rules
    hands: tuple[Cards, ...]
    landlord: int
    to_act: int
    table: Move | None
    table_player: int | None
    played: tuple[Cards, ...]
    kitty: Cards
    bid: int
    bombs: int
    grabs: int
    direction: int
    landlord_moves: int
    farmer_moves: int

    def __init__(
        self,
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
    ) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a ddz.Rules, not {type(rules).__name__}")
        players = rules.players
        set_ = object.__setattr__
        set_(self, "rules", rules)
        set_(self, "hands", _card_sets("hands", hands, players))
        set_(self, "landlord", _seat("landlord", landlord, players))
        set_(self, "to_act", _seat("to_act", to_act, players))
        move = _table_move(table, rules)
        if move is None:
            if table_player is not None:
                raise ValueError("table_player is given but there is no table move")
        else:
            table_player = _seat("table_player", table_player, players)
            if table_player == self.to_act:
                raise ValueError(
                    f"table_player {table_player} is the seat to act: nobody answers their own "
                    f"move (the table is cleared when the turn comes back; use table=None)"
                )
        set_(self, "table", move)
        set_(self, "table_player", table_player)
        if played is None:
            done = [Cards()] * players
            if move is not None and table_player is not None:
                done[table_player] = move.cards
            set_(self, "played", tuple(done))
        else:
            set_(self, "played", _card_sets("played", played, players))
            if (
                move is not None
                and table_player is not None
                and not move.cards <= self.played[table_player]
            ):
                raise ValueError(
                    f"the table's move {move} is not among the cards seat {table_player} "
                    f"played ({self.played[table_player] or 'none'})"
                )
        _check_deck(self.hands, self.played, rules)
        for seat, hand in enumerate(self.hands):
            if not hand:
                raise ValueError(f"hand {seat} is empty: the game would be over")
        shown = Cards() if kitty is None else _cards("kitty", kitty)
        if len(shown) > rules.kitty_size:
            raise ValueError(
                f"the kitty {shown} has {len(shown)} cards; these rules' kitty has "
                f"{rules.kitty_size}"
            )
        owned = self.hands[self.landlord] + self.played[self.landlord]
        if not shown <= owned:
            raise ValueError(
                f"the kitty {shown} is not among the landlord's cards (held or played: {owned})"
            )
        set_(self, "kitty", shown)
        set_(self, "bid", _integer("bid", bid, 1, 3 if rules.bidding is Bidding.POINTS else 1))
        set_(self, "bombs", _integer("bombs", bombs, 0, _MAX_BOMBS))
        most_grabs = rules.max_grabs if rules.bidding is Bidding.CALL_GRAB else 0
        set_(self, "grabs", _integer("grabs", grabs, 0, most_grabs))
        if players == 2 and self.grabs:
            farmer = 1 - self.landlord
            if len(self.hands[farmer]) <= self.grabs:
                raise ValueError(
                    f"with {self.grabs} let cards the farmer holding {len(self.hands[farmer])} "
                    f"cards has already won"
                )
        if not _is_integer(direction):  # 1.0, True: the wrong type, not a direction
            raise TypeError(f"direction is the int 1 or -1, not {shorten(direction)}")
        if direction not in (1, -1):
            raise ValueError(f"direction is 1 or -1, not {shorten(direction)}")
        if direction == -1 and not rules.action_cards:
            raise ValueError("direction -1 needs Reverse cards (rules.action_cards)")
        set_(self, "direction", int(direction))
        default_landlord, default_farmers = self._default_moves()
        for name, value, default, side_played in (
            ("landlord_moves", landlord_moves, default_landlord, self._side_played(True)),
            ("farmer_moves", farmer_moves, default_farmers, self._side_played(False)),
        ):
            if value is None:
                value = default
            value = _integer(name, value, 0, 54)
            if (value == 0) != (not side_played):
                raise ValueError(f"{name} is 0 exactly when that side has played no card")
            set_(self, name, value)

    # --- text ------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, *, rules: Rules | None = None) -> Position:
        """Read the text form (``docs/positions.md``). ``rules`` names the rules when the
        text has no ``rules=`` field (or must agree with it); without either, two hands
        mean ``ddz.ENDGAME`` and three ``ddz.CLASSIC``."""
        check_text(text, "a position")  # longer than MAX_TEXT: refused before any work
        tokens = text.split()
        if not tokens:
            raise ValueError("an empty position: write the hands first, seat 0 first, '/' between")
        fields: dict[str, str] = {}
        for token in tokens[1:]:
            key, equals, value = token.partition("=")
            if not equals or key not in _KEYS:
                raise ValueError(
                    f"{shorten(token)} in {shorten(text)}: fields are key=value with keys "
                    f"{', '.join(_KEYS)}"
                )
            if key in fields:
                raise ValueError(f"{key}= given twice in {shorten(text)}")
            fields[key] = value
        hands = _split_sets("hands", tokens[0])
        chosen = _rules_named(fields.get("rules"), rules, len(hands))
        table: str | None = None
        table_player: int | None = None
        if "table" in fields:
            move_text, at, seat_text = fields["table"].rpartition("@")
            if not at or not move_text:
                raise ValueError(f"table={shorten(fields['table'])}: write the move, '@', the seat")
            table, table_player = move_text, _number("table seat", seat_text)
        if "landlord" not in fields:
            raise ValueError(f"landlord= is missing in {shorten(text)}")
        landlord = _number("landlord", fields["landlord"])
        if "turn" in fields:
            to_act = _number("turn", fields["turn"])
        elif table_player is not None:
            step = -1 if fields.get("direction") == "-1" else 1
            to_act = (table_player + step) % len(hands)
        else:
            to_act = landlord
        moves: list[int | None] = [None, None]
        if "moves" in fields:
            parts = fields["moves"].split(",")
            if len(parts) != 2:
                raise ValueError(f"moves={shorten(fields['moves'])}: write landlord,farmers")
            moves = [_number("moves", part) for part in parts]
        return cls(
            chosen,
            hands,
            landlord=landlord,
            to_act=to_act,
            table=table,
            table_player=table_player,
            played=_split_sets("played", fields["played"]) if "played" in fields else None,
            kitty=_text_cards(fields.get("kitty", "-")),
            bid=_number("bid", fields.get("bid", "1")),
            bombs=_number("bombs", fields.get("bombs", "0")),
            grabs=_number("grabs", fields.get("grabs", "0")),
            direction=_number("direction", fields.get("direction", "1")),
            landlord_moves=moves[0],
            farmer_moves=moves[1],
        )

    def __str__(self) -> str:
        """The text form: hands, then only the fields that differ from their defaults."""
        parts = ["/".join(str(hand) or "-" for hand in self.hands), f"landlord={self.landlord}"]
        parts.append(f"turn={self.to_act}")
        if self.table is not None:
            parts.append(f"table={self.table}@{self.table_player}")
        default_played = [Cards()] * self.rules.players
        if self.table is not None and self.table_player is not None:
            default_played[self.table_player] = self.table.cards
        if list(self.played) != default_played:
            parts.append("played=" + "/".join(str(cards) or "-" for cards in self.played))
        if self.kitty:
            parts.append(f"kitty={self.kitty}")
        for name, default in (("bid", 1), ("bombs", 0), ("grabs", 0), ("direction", 1)):
            if getattr(self, name) != default:
                parts.append(f"{name}={getattr(self, name)}")
        if (self.landlord_moves, self.farmer_moves) != self._default_moves():
            parts.append(f"moves={self.landlord_moves},{self.farmer_moves}")
        preset = next((n for n, rules in PRESETS.items() if rules == self.rules), None)
        if preset is not None:
            parts.append(f"rules={preset}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    def game(self) -> Game:
        """A new :class:`ddz.Game` at this position."""
        from ddz.doudizhu.game import Game  # game imports this module

        return Game._at_position(self)

    @property
    def multiplier(self) -> int:
        """The score as it stands: bid x 2 per grab x 2 per bomb and rocket."""
        return self.bid << self.grabs << self.bombs

    # --- helpers ---------------------------------------------------------------------------

    def _side_played(self, landlord: bool) -> bool:
        return any(
            cards for seat, cards in enumerate(self.played) if (seat == self.landlord) == landlord
        )

    def _default_moves(self) -> tuple[int, int]:
        landlord_played = self.played[self.landlord]
        if not landlord_played:
            landlord_moves = 0
        elif (
            self.table is not None
            and self.table_player == self.landlord
            and landlord_played == self.table.cards
        ):
            landlord_moves = 1
        else:
            landlord_moves = 2
        return landlord_moves, 1 if self._side_played(False) else 0

    def _fields(self) -> dict[str, Any]:
        """The keyword arguments that make this position again."""
        return {
            "landlord": self.landlord,
            "to_act": self.to_act,
            "table": self.table,
            "table_player": self.table_player,
            "played": self.played,
            "kitty": self.kitty,
            "bid": self.bid,
            "bombs": self.bombs,
            "grabs": self.grabs,
            "direction": self.direction,
            "landlord_moves": self.landlord_moves,
            "farmer_moves": self.farmer_moves,
        }


def _cards(name: str, value: object) -> Cards:
    if isinstance(value, Cards):
        return value
    if not isinstance(value, str):
        raise TypeError(f"{name} must be Cards or card text, not {type(value).__name__}")
    try:
        return Cards.parse(value)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None


def _card_sets(name: str, values: object, players: int) -> tuple[Cards, ...]:
    if isinstance(values, (str, Cards)) or not isinstance(values, Sequence):
        raise TypeError(f"{name} is a sequence of card sets, one a seat, not {shorten(values)}")
    if len(values) != players:
        raise ValueError(f"{name} has {len(values)} entries; these rules have {players} seats")
    return tuple(_cards(f"{name}[{seat}]", value) for seat, value in enumerate(values))


def _is_integer(value: object) -> bool:
    """An ``int`` or numpy integer (what a seat or count read from an array is), never a
    ``bool`` (numpy's either) or a float."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _integer(name: str, value: object, low: int, high: int) -> int:
    if not _is_integer(value):
        raise TypeError(f"{name} must be an int, not {shorten(value)}")
    number: int = int(value)  # type: ignore[call-overload]
    if not low <= number <= high:
        raise ValueError(f"{name} must be in {low}..{high}, not {shorten(number)}")
    return number


def _seat(name: str, value: object, players: int) -> int:
    if not _is_integer(value):
        raise TypeError(f"{name} must be a seat (an int), not {shorten(value)}")
    number: int = int(value)  # type: ignore[call-overload]
    if not 0 <= number < players:
        raise ValueError(f"{name} must be a seat 0..{players - 1}, not {shorten(number)}")
    return number


def _table_move(table: object, rules: Rules) -> Move | None:
    if table is None:
        return None
    if isinstance(table, str):
        try:
            move = Move.parse(table)
        except ValueError as error:
            raise ValueError(f"table: {error}") from None
    elif isinstance(table, Move):
        move = table
    else:
        raise TypeError(f"table must be a Move, move text or None, not {shorten(table)}")
    if move.is_pass:
        raise ValueError("the table's move cannot be the pass: use table=None when the seat leads")
    if move.type in (MoveType.SKIP, MoveType.REVERSE):
        raise ValueError(f"an action card ({move}) never stays on the table")
    if not _moves.is_reading_code(move.code, rules):
        raise ValueError(f"the table's move {move} is no move under these rules")
    return move


def _check_deck(hands: tuple[Cards, ...], played: tuple[Cards, ...], rules: Rules) -> None:
    counts = [0] * len(SYMBOLS)
    for cards in hands + played:
        for index, count in enumerate(cards.counts(actions=True)):
            counts[index] += count
    for symbol, have, most in zip(SYMBOLS, counts, rules.deck.counts(actions=True), strict=True):
        if have > most:
            raise ValueError(
                f"the hands and played cards hold {have} of {symbol!r}; the deck of these rules "
                f"has {most}"
            )


def _text_cards(text: str) -> Cards:
    return Cards() if text == "-" else _cards("cards", text)


def _split_sets(name: str, text: str) -> list[Cards]:
    return [_text_cards(part) for part in text.split("/")]


def _number(name: str, text: str) -> int:
    # ASCII digits with an optional minus only: int() would also read "1_0", "+1" and
    # other scripts' digits ("٣"), none of which the text form writes
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:
        raise ValueError(f"{name}: {shorten(text)} is not a number")
    return int(text)


def _rules_named(name: str | None, rules: Rules | None, seats: int) -> Rules:
    if name is not None:
        if name not in PRESETS:
            raise ValueError(f"rules={shorten(name)}: presets are {', '.join(PRESETS)}")
        if rules is not None and rules != PRESETS[name]:
            raise ValueError(f"the text says rules={name} but other rules were passed")
        return PRESETS[name]
    if rules is not None:
        return rules
    return ENDGAME if seats == 2 else CLASSIC
