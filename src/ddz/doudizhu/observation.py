"""What one player may know of a Dou Dizhu game: :class:`Observation`, its fixed-size
encoding's layout (``OBSERVATION_LAYOUT``, ``observation_layout``), and its JSON form.

The layout is defined here once; the core's encoder (``_core/observe.pxd``) writes the same
fields and a test checks the two agree. The observation's JSON form (``ddz-observation/1``)
lives here too, beside the value it writes.

>>> import ddz
>>> seen = ddz.Game(seed=1).observation(0)
>>> seen.phase, len(seen.hand), seen.card_counts
('bidding', 17, (17, 17, 17))
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ddz._core import game as _core
from ddz.base import fields as _records
from ddz.base.errors import RecordError, shorten
from ddz.base.protocol import ObservationBase
from ddz.doudizhu.actions import Action, ActionRecord, Bid, read_action
from ddz.doudizhu.cards import Cards
from ddz.doudizhu.moves import Move

if TYPE_CHECKING:  # observe reads a game; the game module imports this one
    from ddz.doudizhu.game import Game
    from ddz.doudizhu.rules import Rules

__all__ = [
    "HISTORY",
    "HISTORY_ENTRY_LAYOUT",
    "OBSERVATION_FORMAT",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "Observation",
    "observation_bounds",
    "observation_from_dict",
    "observation_from_json",
    "observation_layout",
    "observation_size",
    "observation_to_dict",
    "observation_to_json",
    "observe",
    "read_cards",
]

OBSERVATION_FORMAT = "ddz-observation/1"
_PHASES = ("bidding", "play", "over")

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


def observation_bounds(
    rules: Rules, history: int
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """The lowest and highest value of every entry of ``observation_layout(history)`` under
    ``rules`` (what an environment declares as its observation space)."""
    most = max(max(rules.deck.counts(actions=True)), 1)
    highs = {
        "hand": most,
        "played": most,
        "card_counts": rules.hand_size + rules.kitty_size,
        "kitty": most,
        "table": most,
        "multiplier": 127,  # log2 of the multiplier: an int8 holds it
        "bombs": 127,
    }
    entry = [most] * HISTORY_ENTRY_LAYOUT[0][1] + [1] * HISTORY_ENTRY_LAYOUT[1][1]
    low: list[int] = []
    high: list[int] = []
    for field, width in observation_layout(history):
        low += [-1 if field == "direction" else 0] * width
        high += entry * history if field == "history" else [highs.get(field, 1)] * width
    return np.array(low, dtype=np.int8), np.array(high, dtype=np.int8)


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


_MAX_CARDS = 64  # a seat's card count: more than any deck holds, action cards included
_MAX_MULTIPLIER = 1 << 62  # above any score the core holds (capped at 2**60 x the bid)
_MAX_GRABS = 8  # Rules.max_grabs' bound


@dataclasses.dataclass(frozen=True)
class Observation(ObservationBase):
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
        (``OBSERVATION_SIZE`` entries), written by the core's encoder (the one the core's
        observation vectors use); the history beyond the cards played is left out.

        >>> import ddz
        >>> vector = ddz.Game(seed=1).observation(0).encode()
        >>> vector.shape, vector.dtype, int(vector[:17].sum())
        ((140,), dtype('int8'), 17)
        """
        out = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
        none = -1
        _core.encode_observation(
            self.player,
            [cards.mask for cards in self.played],
            list(self.card_counts),
            self.hand.mask,
            none if self.landlord is None else self.landlord,
            0 if self.kitty is None else self.kitty.mask,
            0 if self.table is None else self.table.code,
            none if self.table_player is None else self.table_player,
            _PHASES.index(self.phase),
            self.bid,
            self.multiplier.bit_length() - 1 if self.multiplier > 0 else 0,
            none if self.current_player is None else self.current_player,
            self.direction,
            out,
        )
        return out

    _json_name = "a ddz observation"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (cards and moves in notation) that :meth:`from_dict` reads back.

        >>> import ddz
        >>> seen = ddz.Game(seed=1).observation(0)
        >>> ddz.Observation.from_json(seen.to_json()) == seen
        True
        """
        return observation_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Observation:
        """The observation :meth:`to_dict` wrote; ``ddz.errors.RecordError`` names a bad field."""
        return observation_from_dict(data)

    def __str__(self) -> str:
        """The table as this seat sees it (``ddz.doudizhu.render.text``)."""
        from ddz.doudizhu.render import text  # ddz.doudizhu.render imports this module

        return text(self)

    def _repr_svg_(self) -> str:
        from ddz.doudizhu.svg import table

        return table(self)


def observation_to_dict(observation: Observation) -> dict[str, Any]:
    """An observation as JSON-ready data: cards and moves in notation, actions as text,
    history entries as ``{"ply", "player", "phase", "action"}``."""
    data: dict[str, Any] = {"format": OBSERVATION_FORMAT}
    for field in dataclasses.fields(observation):
        data[field.name] = _plain(getattr(observation, field.name))
    return data


def _plain(value: object) -> object:
    if isinstance(value, ActionRecord):
        return {
            "ply": value.ply,
            "player": value.player,
            "phase": value.phase,
            "action": str(value.action),
        }
    if isinstance(value, (Cards, Move, Bid)):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    return value


def _int(data: dict[str, Any], name: str, *, optional: bool = False) -> int | None:
    value = data.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        kind = "an integer or null" if optional else "an integer"
        raise RecordError(f"{name} is {kind}, not {shorten(value)}", field=name)
    return value


def read_cards(value: object, name: str) -> Cards:
    """Cards a record writes in notation; RecordError naming the field ``name``."""
    if not isinstance(value, str):
        raise RecordError(f"cards are written in notation, not {shorten(value)}", field=name)
    try:
        return Cards.parse(value)
    except ValueError as error:
        raise RecordError(str(error), field=name) from None


def _list(data: dict[str, Any], name: str) -> list[Any]:
    value = data.get(name)
    if not isinstance(value, list):
        raise RecordError(f"{name} is a list, not {shorten(value)}", field=name)
    return value


def observation_from_dict(data: object) -> Observation:
    """The observation :func:`observation_to_dict` wrote; :class:`ddz.errors.RecordError`
    (naming the field) for data that is not one."""
    if not isinstance(data, dict) or data.get("format") != OBSERVATION_FORMAT:
        raise RecordError(f"not a ddz observation (format {OBSERVATION_FORMAT})", field="format")
    known = {field.name for field in dataclasses.fields(Observation)}
    unknown = sorted(set(data) - known - {"format"})
    if unknown:
        raise RecordError(f"unknown field {shorten(unknown[0])}", field=str(unknown[0]))
    phase = data.get("phase")
    if phase not in _PHASES:
        raise RecordError(
            f"phase is one of {', '.join(_PHASES)}, not {shorten(phase)}", field="phase"
        )
    counts = _list(data, "card_counts")
    for count in counts:
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RecordError(
                f"a card count is an integer >= 0, not {shorten(count)}", field="card_counts"
            )
    seats = len(counts)
    if seats not in (2, 3):
        raise RecordError(
            f"card_counts has one count per seat (2 or 3), not {seats}", field="card_counts"
        )
    values: dict[str, Any] = {"phase": phase, "card_counts": tuple(counts)}
    for name in ("player", "landlord", "table_player", "current_player"):
        if name not in data:
            if name == "player":
                raise RecordError("missing", field=name)
            continue
        seat = _int(data, name, optional=name != "player")
        if seat is not None and not 0 <= seat < seats:
            raise RecordError(f"there is no seat {seat} (seats 0..{seats - 1})", field=name)
        values[name] = seat
    for name in ("bid", "multiplier", "direction", "grabs"):
        if name in data:
            values[name] = _int(data, name)
    values["hand"] = read_cards(data.get("hand"), "hand")
    values["played"] = tuple(read_cards(item, "played") for item in _list(data, "played"))
    kitty = data.get("kitty")
    values["kitty"] = None if kitty is None else read_cards(kitty, "kitty")
    table = data.get("table")
    values["table"] = None if table is None else read_action(table, "play", "table")
    if isinstance(values["table"], Bid):  # pragma: no cover - _read_action gives a Move
        raise RecordError("the table holds a move", field="table")
    history = []
    for entry in _list(data, "history"):
        if not isinstance(entry, dict) or set(entry) != {"ply", "player", "phase", "action"}:
            raise RecordError(
                f"a history entry is {{ply, player, phase, action}}, not {shorten(entry)}",
                field="history",
            )
        ply = _int(entry, "ply")
        player = _int(entry, "player")
        if entry["phase"] not in ("bidding", "play"):
            raise RecordError(
                f"an action's phase is bidding or play, not {shorten(entry['phase'])}",
                field="history",
                ply=ply,
            )
        action = read_action(entry["action"], entry["phase"], "history")
        history.append(ActionRecord(ply, player, entry["phase"], action))  # type: ignore[arg-type]
    values["history"] = tuple(history)
    if "legal_actions" in known and "legal_actions" in data:
        values["legal_actions"] = tuple(
            read_action(text, phase, "legal_actions") for text in _list(data, "legal_actions")
        )
    missing = sorted(
        field.name
        for field in dataclasses.fields(Observation)
        if field.name not in values
        and field.default is dataclasses.MISSING
        and field.default_factory is dataclasses.MISSING
    )
    if missing:
        raise RecordError("missing", field=missing[0])
    try:
        observation = Observation(**values)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error)) from None
    fault = observation.fault()
    if fault is not None:
        raise RecordError(fault[1], field=fault[0])
    return observation


def observation_to_json(observation: Observation) -> str:
    return json.dumps(observation_to_dict(observation))


def observation_from_json(text: str | bytes) -> Observation:
    """The observation ``observation_to_json`` wrote; RecordError for anything else (not
    text, not JSON, too long, nested too deeply, a field at fault)."""
    return observation_from_dict(_records.load_object(text, "a ddz observation"))


def observe(game: Game, player: int, history: bool = True) -> Observation:
    """What ``player`` (a checked seat) may know of ``game`` now (``Game.observation``)."""
    core = game._core
    # the core's card masks are valid by construction: Cards._of skips from_mask's checks,
    # which an agent reading an observation at every turn would otherwise pay 7 times
    hands = tuple(map(Cards._of, core.hands))
    landlord = game.landlord
    observation = object.__new__(Observation)
    # what the frozen dataclass's __init__ does (each field set, no check, no default left
    # to fill), in one dict update rather than one object.__setattr__ a field: the arena
    # builds an observation for every decision
    observation.__dict__.update(
        player=player,
        phase=game.phase,
        hand=hands[player],
        card_counts=tuple(map(len, hands)),
        played=tuple(map(Cards._of, core.played)),
        landlord=landlord,
        kitty=Cards._of(core.kitty) if landlord is not None else None,
        table=game.table,
        table_player=game.table_player,
        current_player=game.current_player,
        bid=game.bid,
        multiplier=game.multiplier,
        history=tuple(game.history) if history else (),
        direction=game.direction,
        grabs=game.grabs,
        legal_actions=(tuple(game.legal_actions()) if player == core.current else ()),
    )
    return observation
