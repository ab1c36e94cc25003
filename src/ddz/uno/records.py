"""What a UNO server sends one player: per-seat views of a round and observations as JSON.

:func:`view` is the round's public record (players, rules, dealer, every action: a draw
says who drew, never the card) with the seat's own hand and the discard pile, and without
the seed or a fixed deal (either would show every hand). Observations go to and from
JSON-ready dicts with cards in the UNO notation (``R7``, ``B+2``, ``W+4``).

>>> from ddz import uno
>>> game = uno.Game(players=3, seed=14)
>>> taken = game.step("play B6")
>>> seen = game.view(1)
>>> seen["hand"] == " ".join(str(card) for card in game.hand(1)), seen["actions"]
(True, ['0: play B6'])
>>> uno.Observation.from_json(game.observation(1).to_json()) == game.observation(1)
True
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ddz import _records
from ddz.errors import RecordError, shorten
from ddz.records import seat_of
from ddz.uno.cards import COLOURS, Card, parse_cards
from ddz.uno.game import Game, Observation

__all__ = [
    "OBSERVATION_FORMAT",
    "VIEW_FORMAT",
    "observation_from_dict",
    "observation_to_dict",
    "view",
]

VIEW_FORMAT = "ddz-uno-view/1"
OBSERVATION_FORMAT = "ddz-uno-observation/1"

_CARD_FIELDS = ("top", "pending_card", "drawn")
_PILE_FIELDS = ("hand", "discard_pile")
_SEAT_FIELDS = ("current_player", "uno_player", "winner")
_INT_FIELDS = ("direction", "pending", "draw_pile_size")
_BOOL_FIELDS = ("deciding", "jump_in_open", "is_over")


def _cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(str(card) for card in cards)


def view(game: Game, seat: int) -> dict[str, Any]:
    """The round as ``seat`` may see it, JSON-ready: format ``ddz-uno-view/1``, ``seat``,
    ``players``, ``rules``, ``dealer``, ``actions`` (every action, public), ``hand`` (the
    seat's cards now) and ``discard_pile`` (bottom first). It does not replay."""
    seat = seat_of(game.players, seat)
    return {
        "format": VIEW_FORMAT,
        "seat": seat,
        "players": game.players,
        "rules": game.rules.to_dict(),
        "dealer": game.dealer,
        "actions": [str(action) for action in game.history],
        "hand": _cards_text(game.hand(seat)),
        "discard_pile": _cards_text(game.discard_pile),
    }


def observation_to_dict(observation: Observation) -> dict[str, Any]:
    """An observation as JSON-ready data: one card as its text, several as texts separated
    by spaces, ``None`` as ``null``."""
    data: dict[str, Any] = {"format": OBSERVATION_FORMAT}
    for field in dataclasses.fields(observation):
        value = getattr(observation, field.name)
        if isinstance(value, Card):
            value = str(value)
        elif field.name in _PILE_FIELDS:
            value = _cards_text(value)
        elif isinstance(value, tuple):
            value = list(value)
        data[field.name] = value
    return data


def observation_from_dict(data: object) -> Observation:
    """The observation :func:`observation_to_dict` wrote; :class:`ddz.errors.RecordError`
    (naming the field) for data that is not one."""
    if not isinstance(data, dict) or data.get("format") != OBSERVATION_FORMAT:
        raise RecordError(
            f"not a ddz UNO observation (format {OBSERVATION_FORMAT})", field="format"
        )
    fields = {field.name for field in dataclasses.fields(Observation)}
    unknown = sorted(set(data) - fields - {"format"})
    if unknown:
        raise RecordError(f"unknown field {shorten(unknown[0])}", field=str(unknown[0]))
    missing = sorted(fields - set(data))
    if missing:
        raise RecordError("missing", field=missing[0])
    sizes = data["hand_sizes"]
    if not isinstance(sizes, list) or not all(
        isinstance(size, int) and not isinstance(size, bool) and size >= 0 for size in sizes
    ):
        raise RecordError(f"a list of card counts, not {shorten(sizes)}", field="hand_sizes")
    values: dict[str, Any] = {"hand_sizes": tuple(sizes)}
    seats = len(sizes)
    for name in ("player", *_SEAT_FIELDS):
        value = data[name]
        if value is None and name != "player":
            values[name] = None
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
            raise RecordError(f"a seat 0..{seats - 1}, not {shorten(value)}", field=name)
        values[name] = value
    for name in _INT_FIELDS:
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise RecordError(f"an integer, not {shorten(value)}", field=name)
        values[name] = value
    for name in _BOOL_FIELDS:
        if not isinstance(data[name], bool):
            raise RecordError(f"true or false, not {shorten(data[name])}", field=name)
        values[name] = data[name]
    colour = data["colour"]
    if colour is not None and colour not in COLOURS:
        raise RecordError(
            f"one of {', '.join(COLOURS)} or null, not {shorten(colour)}", field="colour"
        )
    values["colour"] = colour
    for name in _CARD_FIELDS:
        text = data[name]
        if text is None and name != "top":
            values[name] = None
            continue
        if not isinstance(text, str):
            raise RecordError(f"a card in notation, not {shorten(text)}", field=name)
        try:
            values[name] = Card.parse(text)
        except ValueError as error:
            raise RecordError(str(error), field=name) from None
    for name in _PILE_FIELDS:
        text = data[name]
        if not isinstance(text, str):
            raise RecordError(f"cards in notation, not {shorten(text)}", field=name)
        try:
            values[name] = tuple(parse_cards(text))
        except ValueError as error:
            raise RecordError(str(error), field=name) from None
    return Observation(**values)


def observation_to_json(observation: Observation) -> str:
    return json.dumps(observation_to_dict(observation))


def observation_from_json(text: str | bytes) -> Observation:
    """The observation ``observation_to_json`` wrote; RecordError for anything else (not
    text, not JSON, too long, nested too deeply, a field at fault)."""
    return observation_from_dict(_records.load_object(text, "a ddz UNO observation"))
