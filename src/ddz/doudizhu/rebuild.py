"""A Dou Dizhu game rebuilt from what one seat saw (:func:`game_from_view`): the seat's own
hand and every action, with **stand-ins** for the cards it never saw.

This module sits above ``ddz.doudizhu.game`` (it replays actions in a ``Game``); the view it
reads is :func:`ddz.doudizhu.records.view`'s.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Sequence
from typing import Any

from ddz.base import fields as _records
from ddz.base.errors import RecordError, shorten
from ddz.doudizhu.cards import Cards
from ddz.doudizhu.game import Game
from ddz.doudizhu.moves import Move
from ddz.doudizhu.observation import read_cards
from ddz.doudizhu.position import Position
from ddz.doudizhu.records import VIEW_FORMAT
from ddz.doudizhu.rules import Rules

__all__ = ["game_from_view"]


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
    >>> from ddz.doudizhu import render
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
    own = read_cards(hands[seat], "hands")
    kitty_text = data.get("kitty")
    kitty = None if kitty_text is None else read_cards(kitty_text, "kitty")
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
    own = read_cards(hands[seat], "start.hands")
    fields = {name: start[name] for name in known if name in start}
    played_texts = fields.get("played") or [""] * rules.players
    if not isinstance(played_texts, list) or len(played_texts) != rules.players:
        raise RecordError(
            f"start.played is one card text a seat, not {shorten(played_texts)}",
            field="start.played",
        )
    played = [read_cards(text, "start.played") for text in played_texts]
    kitty = read_cards(fields.get("kitty") or "", "start.kitty")
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
