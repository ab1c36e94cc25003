"""What a game server sends one player: per-seat views of a game and observations as JSON.

A server holds the whole game and sends each seat only that seat's share. :func:`view` is the
game's record (rules, first player, every action) with the other hands, the kitty while
nobody has taken it, and the seed (which would deal every hand again) left out. Observations
go to and from JSON-ready dicts with every card set in card notation. ``Game.view``,
``Game.to_json(seat=...)``, ``Observation.to_json`` and ``Observation.from_json`` call
these functions.

>>> import ddz
>>> game = ddz.Game(seed=7)
>>> record = game.step("bid 3")
>>> seen = game.view(0)
>>> seen["hands"][0] == str(game.deal[0][0]), seen["hands"][1:], seen["kitty"], "seed" in seen
(True, [None, None], '88K', False)
>>> text = game.observation(0).to_json()
>>> ddz.Observation.from_json(text) == game.observation(0)
True
"""

from __future__ import annotations

import collections
import dataclasses
import json
import operator
from collections.abc import Callable, Sequence
from typing import Any

from ddz import _records
from ddz.cards import Cards
from ddz.errors import RecordError, shorten
from ddz.game import Action, ActionRecord, Bid, Game, Observation
from ddz.moves import PASS, Move
from ddz.position import Position
from ddz.rules import Rules

__all__ = [
    "OBSERVATION_FORMAT",
    "VIEW_FORMAT",
    "game_from_view",
    "observation_from_dict",
    "observation_to_dict",
    "seat_of",
    "view",
]

VIEW_FORMAT = "ddz-view/1"
OBSERVATION_FORMAT = "ddz-observation/1"
_PHASES = ("bidding", "play", "over")


def seat_of(players: int, seat: object) -> int:
    """``seat`` as an ``int`` in ``0..players-1`` (numpy integers too); TypeError for
    another type (a ``bool`` too), ValueError outside the seats."""
    if isinstance(seat, bool):
        raise TypeError(f"a seat is an integer 0..{players - 1}, not {seat!r}")
    try:
        number = operator.index(seat)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"a seat is an integer 0..{players - 1}, not {shorten(seat)}") from None
    if not 0 <= number < players:
        raise ValueError(f"there is no seat {number} (seats 0..{players - 1})")
    return number


def rules_dict(game: Game) -> dict[str, Any]:
    """The game's rules as JSON-ready data (as in ``Game.to_json``)."""
    return game.rules.to_dict()


def view(game: Game, seat: int) -> dict[str, Any]:
    """The game's record as ``seat`` may see it, JSON-ready (``json.dumps`` takes it).

    The keys of ``Game.to_json`` with format ``ddz-view/1`` and ``seat``; ``hands`` holds the
    seat's hand as dealt and ``None`` for every other seat; ``kitty`` is ``None`` until a
    landlord takes it (then everyone has seen it); the seed is left out. The actions are
    public: every seat saw them taken. The other hands are never sent, so this record does
    not replay (``Game.from_json`` refuses it).

    A game set up with ``Game.from_position`` has ``start`` instead of the deal: the
    position's fields with ``hands`` hidden the same way and ``card_counts`` added.
    """
    seat = seat_of(game.rules.players, seat)
    actions = [str(record.action) for record in game.history]
    start = game.start
    if start is not None:  # a game set up at a position: its public part and this hand
        return {
            "format": VIEW_FORMAT,
            "seat": seat,
            "rules": rules_dict(game),
            "start": {
                "hands": [
                    str(hand) if index == seat else None for index, hand in enumerate(start.hands)
                ],
                "card_counts": [len(hand) for hand in start.hands],
                "landlord": start.landlord,
                "to_act": start.to_act,
                "table": None if start.table is None else str(start.table),
                "table_player": start.table_player,
                "played": [str(cards) for cards in start.played],
                "kitty": str(start.kitty),
                "bid": start.bid,
                "bombs": start.bombs,
                "grabs": start.grabs,
                "direction": start.direction,
                "landlord_moves": start.landlord_moves,
                "farmer_moves": start.farmer_moves,
            },
            "actions": actions,
        }
    hands, kitty = game.deal
    return {
        "format": VIEW_FORMAT,
        "seat": seat,
        "rules": rules_dict(game),
        "hands": [str(hand) if index == seat else None for index, hand in enumerate(hands)],
        "kitty": str(kitty) if game.landlord is not None else None,
        "first_player": game.first_player,
        "actions": actions,
    }


def game_from_view(view: str | bytes | dict[str, Any]) -> Game:
    """A game that replays a seat's view (:func:`view`, ``Game.to_json(seat=...)``), to
    step through what that seat saw: ``render.text(game, seat=view["seat"])`` at any ply.

    The view holds the seat's hand and every action, not the other hands: the cards the seat
    never saw are **stand-ins**, dealt so that every recorded action is legal (each seat
    holds the cards it later plays; the rest fill the hands to their sizes). So show the game
    only from the view's seat, never the other hands, and read nothing from them. Any fault
    (a missing or mistyped field, an action that cannot be legal whatever the hidden cards
    were) raises :class:`ddz.errors.RecordError` naming the field and the action number.

    >>> import ddz
    >>> from ddz import render
    >>> game = ddz.Game(seed=7)
    >>> for action in ["bid 3", "44", "66"]:
    ...     _ = game.step(action)
    >>> seen = game_from_view(game.to_json(seat=0))
    >>> render.text(seen, seat=0) == render.text(game, seat=0)
    True
    >>> seen.hands[0] == game.hands[0], len(seen.hands[2]) == len(game.hands[2])
    (True, True)
    """
    if isinstance(view, dict):
        data = view
        if data.get("format") != VIEW_FORMAT:
            raise RecordError(f"not a ddz view (format {VIEW_FORMAT})", field="format")
    else:
        data = _records.load_json(view, VIEW_FORMAT, "a ddz view")
    try:
        rules = Rules.from_dict(_records.field(data, "rules", dict))
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field="rules") from None
    seat = _records.field(data, "seat", int)
    if not 0 <= seat < rules.players:
        raise RecordError(f"there is no seat {seat} (seats 0..{rules.players - 1})", field="seat")
    actions = _records.strings(data, "actions")
    if "start" in data:
        deal = _position_dealer(rules, seat, _records.field(data, "start", dict))
    else:
        deal = _deal_dealer(rules, seat, data)
    needed = [Cards()] * rules.players  # cards each hidden hand must hold: its plays
    while True:  # each pass adds cards to `needed`, so this ends within a deck's size
        game = deal(needed)
        for number, text in enumerate(actions, start=1):
            player = game.current_player
            try:
                game.step(text)
                continue
            except ValueError as error:
                missing = None if player in (None, seat) else _missing(game, player, text)
                if not missing:
                    raise RecordError(str(error), ply=number, field="actions") from None
            try:
                needed[player] = needed[player] + missing  # type: ignore[index]
                deal(needed)
            except ValueError:
                raise RecordError(
                    f"seat {player} cannot have held {missing} as well as the cards it "
                    f"played before (or another seat holds them)",
                    ply=number,
                    field="actions",
                ) from None
            break
        else:
            return game


def _missing(game: Game, player: int, text: str) -> Cards | None:
    """The cards a play by ``player`` needs that its (stand-in) hand lacks; None if the text
    is no move."""
    try:
        cards = Move.parse(text).cards
    except ValueError:
        return None
    lacking = _less(cards, game.hands[player])
    return lacking or None


def _less(cards: Cards, other: Cards) -> Cards:
    """The cards of ``cards`` that ``other`` does not hold (a multiset difference)."""
    rest = collections.Counter(str(cards)) - collections.Counter(str(other))
    return Cards("".join(rest.elements()))


def _stand_ins(pool: Cards, sizes: Sequence[int], needed: Sequence[Cards]) -> list[Cards]:
    """Hands of the given sizes, each holding its ``needed`` cards, filled from ``pool`` (which
    must not hold them); ValueError if the cards do not go round."""
    rest = list(str(pool - sum(needed, Cards())))
    hands = []
    for size, cards in zip(sizes, needed, strict=True):
        extra = size - len(cards)
        if extra < 0 or extra > len(rest):
            raise ValueError("the hidden cards do not go round")
        hands.append(cards + Cards("".join(rest[:extra])))
        del rest[:extra]
    return hands


def _deal_dealer(rules: Rules, seat: int, data: dict[str, Any]) -> Callable[[list[Cards]], Game]:
    """Deals a game from a view's hand, kitty and first player, the hidden cards stand-ins."""
    hands = _records.field(data, "hands", list)
    if len(hands) != rules.players or not isinstance(hands[seat], str):
        raise RecordError(
            f"hands holds {rules.players} entries, the seat's own hand as text", field="hands"
        )
    own = _cards(hands[seat], "hands")
    kitty_text = data.get("kitty")
    kitty = None if kitty_text is None else _cards(kitty_text, "kitty")
    first = _records.field(data, "first_player", int)
    if not 0 <= first < rules.players:
        raise RecordError(f"there is no seat {first}", field="first_player")
    hidden = [p for p in range(rules.players) if p != seat]
    try:
        pool = rules.deck - own - (kitty or Cards())
    except ValueError as error:
        raise RecordError(f"the hand and the kitty: {error}", field="hands") from None

    def deal(needed: list[Cards]) -> Game:
        sizes = [rules.hand_size] * len(hidden)
        if kitty is None:  # nobody has seen the kitty: it is a stand-in too
            sizes.append(rules.kitty_size)
        filled = _stand_ins(pool, sizes, [needed[p] for p in hidden] + [Cards()] * (kitty is None))
        dealt = dict(zip(hidden, filled, strict=False))
        dealt[seat] = own
        cards = [dealt[p] for p in range(rules.players)]
        try:
            return Game(rules, seed=0, deal=(cards, kitty or filled[-1]), first_player=first)
        except ValueError as error:
            raise RecordError(str(error), field="hands") from None

    try:
        deal([Cards()] * rules.players)  # the record's own faults surface here
    except RecordError:
        raise  # already names its field
    except ValueError as error:
        raise RecordError(str(error), field="hands") from None
    return deal


def _position_dealer(
    rules: Rules, seat: int, start: dict[str, Any]
) -> Callable[[list[Cards]], Game]:
    """Sets up a game from a view's starting position, the hidden hands stand-ins."""
    known = {
        "landlord", "to_act", "table", "table_player", "played", "kitty", "bid", "bombs",
        "grabs", "direction", "landlord_moves", "farmer_moves",
    }  # fmt: skip
    hands = _records.field(start, "hands", list)
    counts = _records.field(start, "card_counts", list)
    if len(hands) != rules.players or not isinstance(hands[seat], str):
        raise RecordError(
            f"start.hands holds {rules.players} entries, the seat's own hand as text",
            field="start.hands",
        )
    if len(counts) != rules.players or not all(
        isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in counts
    ):
        raise RecordError("start.card_counts is one count > 0 a seat", field="start.card_counts")
    own = _cards(hands[seat], "start.hands")
    fields = {name: start[name] for name in known if name in start}
    played_texts = fields.get("played") or [""] * rules.players
    if not isinstance(played_texts, list) or len(played_texts) != rules.players:
        raise RecordError(
            f"start.played is one card text a seat, not {shorten(played_texts)}",
            field="start.played",
        )
    played = [_cards(text, "start.played") for text in played_texts]
    kitty = _cards(fields.get("kitty") or "", "start.kitty")
    if "landlord" not in start:
        raise RecordError("missing", field="start.landlord")
    landlord = start["landlord"]
    if type(landlord) is not int or landlord not in range(rules.players):
        raise RecordError(
            f"the landlord is a seat 0..{rules.players - 1}, not {shorten(landlord)}",
            field="start.landlord",
        )
    try:
        held_kitty = _less(kitty, played[landlord]) if landlord != seat else Cards()
        pool = rules.deck - own - sum(played, Cards())
    except (TypeError, ValueError, IndexError) as error:
        raise RecordError(str(error), field="start") from None
    hidden = [p for p in range(rules.players) if p != seat]

    def deal(needed: list[Cards]) -> Game:
        wanted = [needed[p] + (held_kitty if p == landlord else Cards()) for p in hidden]
        filled = _stand_ins(pool, [counts[p] for p in hidden], wanted)
        dealt = dict(zip(hidden, filled, strict=True))
        dealt[seat] = own
        try:
            position = Position(rules, [dealt[p] for p in range(rules.players)], **fields)
        except (TypeError, ValueError) as error:
            raise RecordError(str(error), field="start") from None
        return position.game()

    try:
        deal([Cards()] * rules.players)
    except RecordError:
        raise
    except ValueError as error:
        raise RecordError(str(error), field="start") from None
    return deal


def _read_action(text: object, phase: object, field: str) -> Action:
    if not isinstance(text, str):
        raise RecordError(f"an action is text, not {shorten(text)}", field=field)
    try:
        if phase == "bidding":
            return Bid.parse(text)
        return PASS if text.strip().lower() == "pass" else Move.parse(text)
    except ValueError as error:
        raise RecordError(str(error), field=field) from None


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


def _cards(value: object, name: str) -> Cards:
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
    values["hand"] = _cards(data.get("hand"), "hand")
    values["played"] = tuple(_cards(item, "played") for item in _list(data, "played"))
    kitty = data.get("kitty")
    values["kitty"] = None if kitty is None else _cards(kitty, "kitty")
    table = data.get("table")
    values["table"] = None if table is None else _read_action(table, "play", "table")
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
        action = _read_action(entry["action"], entry["phase"], "history")
        history.append(ActionRecord(ply, player, entry["phase"], action))  # type: ignore[arg-type]
    values["history"] = tuple(history)
    if "legal_actions" in known and "legal_actions" in data:
        values["legal_actions"] = tuple(
            _read_action(text, phase, "legal_actions") for text in _list(data, "legal_actions")
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
