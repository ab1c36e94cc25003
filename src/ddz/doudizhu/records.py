"""Dou Dizhu's record formats: a game's JSON record (``ddz-game/1``) and text record, read
into a :class:`GameRecord` value that ``Game.from_json``/``Game.from_record`` replay, and the
per-seat views a game server sends one player (``ddz-view/1``).

A server holds the whole game and sends each seat only that seat's share. :func:`view` is the
game's record (rules, first player, every action) with the other hands, the kitty while
nobody has taken it, and the seed (which would deal every hand again) left out. Observations
go to and from JSON-ready dicts in ``ddz.doudizhu.observation``. Nothing here imports the
``Game`` class: a record is a value, and the game replays it.

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

import dataclasses
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ddz.base import fields as _records
from ddz.base.errors import MAX_RECORD, RecordError, check_integer, check_seed, shorten
from ddz.base.seats import seat_of
from ddz.doudizhu.cards import Cards
from ddz.doudizhu.observation import (
    OBSERVATION_FORMAT,
    observation_from_dict,
    observation_from_json,
    observation_to_dict,
    observation_to_json,
)
from ddz.doudizhu.position import Position
from ddz.doudizhu.rules import PRESETS, Rules

if TYPE_CHECKING:  # the records take a game; the game module imports this one
    from ddz.doudizhu.game import Game

__all__ = [
    "GAME_FORMAT",
    "OBSERVATION_FORMAT",
    "VIEW_FORMAT",
    "GameRecord",
    "game_json",
    "game_text",
    "observation_from_dict",
    "observation_from_json",
    "observation_to_dict",
    "observation_to_json",
    "read_json",
    "read_text",
    "result_text",
    "seat_of",
    "view",
]

GAME_FORMAT = "ddz-game/1"
VIEW_FORMAT = "ddz-view/1"


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """A game record as read (checked field by field), before ``Game`` replays it: where the
    game starts (a ``position``, or the seed and deal) and its actions in order."""

    rules: Rules
    position: Position | None
    """The start of a game set up at a position; None for a dealt game."""
    seed: int
    hands: tuple[Cards, ...]
    kitty: Cards
    first_player: int
    actions: tuple[str, ...]
    players: tuple[int | None, ...]
    """The seat the record says takes each action (text records), or None (JSON)."""
    actions_field: str | None
    """The field an action's fault is reported in (``actions`` for JSON, none for text)."""
    result: str | None = None
    """The result line of a text record, which the replay must reproduce."""


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


def result_text(game: Game) -> str:
    """The result line of a finished game's text record."""
    if game.is_void:
        return "void deal"
    side = "landlord" if game.winner == game.landlord else "farmers"
    payoffs = " ".join(f"{p:+d}" for p in game.payoffs())
    return f"{side} win, seat {game.winner} out, score {game.multiplier}, payoffs {payoffs}"


def game_json(game: Game) -> dict[str, Any]:
    """The game's JSON record as data (``Game.to_json``): rules, seed, deal, first player and
    every action; or, for a game set up at a position, the position and every action."""
    actions = [str(record.action) for record in game.history]
    start = game.start
    if start is not None:
        return {"format": GAME_FORMAT, "rules": rules_dict(game), "position": str(start),
                "actions": actions}  # fmt: skip
    hands, kitty = game.deal
    return {
        "format": GAME_FORMAT,
        "rules": rules_dict(game),
        "seed": game.seed,
        "hands": [str(hand) for hand in hands],
        "kitty": str(kitty),
        "first_player": game.first_player,
        "actions": actions,
    }


def game_text(game: Game) -> str:
    """The game's compact text record (``Game.record``)."""
    name = next((n for n, preset in PRESETS.items() if preset == game.rules), None)
    lines = [f"rules {name}" if name else f"rules {json.dumps(game.rules.to_dict())}"]
    start = game.start
    if start is not None:
        lines.append(f"position {start}")
    else:
        hands, kitty = game.deal
        lines.append(f"seed {game.seed}")
        lines += [f"hand {seat} {hand}" for seat, hand in enumerate(hands)]
        lines += [f"kitty {kitty}", f"first {game.first_player}"]
    lines += [str(record) for record in game.history]
    if game.is_over:
        lines.append(f"result {result_text(game)}")
    return "\n".join(lines) + "\n"


def read_json(text: object) -> GameRecord:
    """The record ``game_json`` wrote, checked field by field: :class:`ddz.RecordError`
    names the field at fault."""
    data = _records.load_json(text, GAME_FORMAT, "a ddz game record")
    rules = _read_rules(_records.field(data, "rules", dict), "rules")
    if "position" in data:  # a game that started at a position
        position = _read_position(_records.field(data, "position", str), rules, "position")
        start = _position_start(rules, position)
    else:
        seed = _read(check_seed, _records.field(data, "seed", int), "seed")
        hands = _records.strings(data, "hands")
        kitty = _records.field(data, "kitty", str)
        first = _records.field(data, "first_player", int)
        start = _deal_start(rules, seed, hands, kitty, first, "first_player")
    actions = tuple(_records.strings(data, "actions"))
    return GameRecord(**start, actions=actions, players=(None,) * len(actions),
                      actions_field="actions")  # fmt: skip


def read_text(text: object) -> GameRecord:
    """The record ``game_text`` wrote, checked line by line: :class:`ddz.RecordError` names
    the line's field (``seed``, ``hand 1``, ...) or the action number (from 1)."""
    if not isinstance(text, str):
        raise RecordError(f"a game record is text, not {type(text).__name__}")
    if len(text) > MAX_RECORD:
        raise RecordError(f"a game record of {len(text)} characters is longer than {MAX_RECORD}")
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
        rules = _read_rules(_records.load_object(rules_text, "the rules", field="rules"), "rules")
    if "position" in header:
        start = _position_start(rules, _read_position(header["position"], rules, "position"))
    else:
        for name in ("seed", "first"):
            if name not in header:
                raise RecordError("missing", field=name)
        seed = _read(check_seed, _read_number(header["seed"], "seed"), "seed")
        if sorted(hands) != list(range(len(hands))):
            raise RecordError(f"hands for seats {sorted(hands)}", field="hand")
        deal_hands = [hands[seat] for seat in sorted(hands)]
        first = _read_number(header["first"], "first")
        start = _deal_start(rules, seed, deal_hands, header.get("kitty", ""), first, "first")
    return GameRecord(
        **start,
        actions=tuple(action for _, action in moves),
        players=tuple(player for player, _ in moves),
        actions_field=None,
        result=header.get("result"),
    )


def _position_start(rules: Rules, position: Position) -> dict[str, Any]:
    return {"rules": rules, "position": position, "seed": 0, "hands": position.hands,
            "kitty": position.kitty, "first_player": position.landlord}  # fmt: skip


def _deal_start(
    rules: Rules, seed: int, hands: list[str], kitty: str, first: int, first_field: str
) -> dict[str, Any]:
    """The start a record's header describes; RecordError names the field at fault."""
    cards = [_read(Cards, hand, f"hands[{seat}]") for seat, hand in enumerate(hands)]
    kitty_cards = _read(Cards, kitty, "kitty")
    _read(lambda value: check_integer(value, "the first player", 0, rules.players - 1),
          first, first_field)  # fmt: skip
    return {"rules": rules, "position": None, "seed": seed, "hands": tuple(cards),
            "kitty": kitty_cards, "first_player": first}  # fmt: skip


def _read_rules(data: dict[str, object], field: str) -> Rules:
    try:
        return Rules.from_dict(data)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field=field) from None


def _read_position(text: str, rules: Rules, field: str) -> Position:
    try:
        return Position.parse(text, rules=rules)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field=field) from None


def _read(check: Callable[[Any], Any], value: object, field: str) -> Any:
    try:
        return check(value)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field=field) from None


def _read_number(text: str, field: str) -> int:
    """A non-negative decimal number from a text record (at most 20 digits)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 20):
        raise RecordError(f"expected a number, not {shorten(text)}", field=field)
    return int(text)
