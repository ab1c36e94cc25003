"""UNO's record formats: a round's JSON record (``ddz-uno-game/1``), read into a
:class:`RoundRecord` value that ``Game.from_json`` replays, and the per-seat view a server
sends one player (``ddz-uno-view/1``).

:func:`view` is the round's public record (players, rules, dealer, every action: a draw
says who drew, never the card) with the seat's own hand and the discard pile, and without
the seed or a fixed deal (either would show every hand). Observations go to and from
JSON-ready dicts in ``ddz.uno.observation`` (re-exported here). Nothing here imports the
``Game`` class at run time: a record is a value, and the game replays it.

>>> from ddz import uno
>>> game = uno.Game(players=3, seed=14)
>>> taken = game.step("play B6")
>>> seen = game.view(1)
>>> seen["hand"] == " ".join(str(card) for card in game.hand(1)), seen["actions"]
(True, ['0: play B6'])
>>> read_json(game.to_json()).actions
('0: play B6',)
>>> uno.Observation.from_json(game.observation(1).to_json()) == game.observation(1)
True
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ddz.base import fields as _records
from ddz.base.errors import RecordError, check_integer, check_seed, shorten
from ddz.base.seats import seat_of
from ddz.uno.cards import CARDS, Arrangement, Deal, cards_text
from ddz.uno.observation import (
    OBSERVATION_FORMAT,
    observation_from_dict,
    observation_from_json,
    observation_to_dict,
    observation_to_json,
)
from ddz.uno.rules import Rules, check_players

if TYPE_CHECKING:  # the records take a game; the game module imports this one
    from ddz.uno.game import Game

__all__ = [
    "GAME_FORMAT",
    "OBSERVATION_FORMAT",
    "VIEW_FORMAT",
    "RoundRecord",
    "game_json",
    "observation_from_dict",
    "observation_from_json",
    "observation_to_dict",
    "observation_to_json",
    "read_json",
    "view",
]

GAME_FORMAT = "ddz-uno-game/1"
VIEW_FORMAT = "ddz-uno-view/1"


@dataclasses.dataclass(frozen=True)
class RoundRecord:
    """A round's record as read (checked field by field), before ``Game`` replays it: how
    the round starts and its actions in order."""

    players: int
    rules: Rules
    seed: int
    dealer: int
    deal: Deal | None
    """The complete arrangement of a round with a fixed deal; None for a shuffled one."""
    actions: tuple[str, ...]


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
        "hand": cards_text(game.hand(seat)),
        "discard_pile": cards_text(game.discard_pile),
    }


def game_json(game: Game, arrangement: Arrangement | None) -> dict[str, Any]:
    """The round's JSON record as data (``Game.to_json``): players, rules, seed, dealer, the
    deal when one was given (as its complete ``arrangement``) and every action."""
    deal: dict[str, Any] | None = None
    if arrangement is not None:
        hands, draw, discard = arrangement
        deal = {
            "hands": [_kinds_text(kinds) for kinds in hands],
            "draw_pile": _kinds_text(draw),
            "discard_pile": _kinds_text(discard),
        }
    return {
        "format": GAME_FORMAT,
        "players": game.players,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "dealer": game.dealer,
        "dealt": "shuffled" if deal is None else "fixed",
        "deal": deal,
        "actions": [str(action) for action in game.history],
    }


def read_json(text: object) -> RoundRecord:
    """The record :func:`game_json` wrote, checked field by field (players, seed, rules,
    dealer, deal, then the actions); :class:`ddz.errors.RecordError` names the first bad
    one."""
    data = _records.load_json(text, GAME_FORMAT, "a ddz UNO game record")
    players = _records.field(data, "players", int)
    seed = _records.field(data, "seed", int)
    dealer = _records.field(data, "dealer", int)
    rules_data = _records.field(data, "rules", dict)
    try:
        rules = Rules.from_dict(rules_data)
    except (TypeError, ValueError) as error:
        raise RecordError(str(error), field="rules") from None
    deal = None
    deal_data = _records.field(data, "deal", (dict, type(None))) if "deal" in data else None
    # how the round was dealt, said twice so neither can be lost unnoticed; a record without
    # "dealt" (written before it was) is read by its "deal" alone
    if "dealt" in data:
        dealt = _records.field(data, "dealt", str)
        if dealt not in ("shuffled", "fixed"):
            raise RecordError(f"'shuffled' or 'fixed', not {shorten(dealt)}", field="dealt")
        if dealt == "fixed" and deal_data is None:
            raise RecordError(
                "the round was dealt from a fixed deal (dealt: 'fixed') and the record "
                "holds no deal",
                field="deal",
            )
        if dealt == "shuffled" and deal_data is not None:
            raise RecordError(
                "the round was shuffled from its seed (dealt: 'shuffled') and the record "
                "holds a deal",
                field="deal",
            )
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
        ("dealer", lambda value: check_integer(value, "dealer", 0, players - 1)),
    ):
        try:
            check(data[name])
        except (TypeError, ValueError) as error:
            raise RecordError(str(error), field=name) from None
    if deal is not None and len(deal.hands) != players:  # as Game refuses it
        raise RecordError(
            f"the deal has {len(deal.hands)} hands for {players} players", field="deal"
        )
    actions = tuple(_records.strings(data, "actions"))
    return RoundRecord(players, rules, seed, dealer, deal, actions)


def _kinds_text(kinds: list[int]) -> str:
    return cards_text(CARDS[kind] for kind in kinds)
