"""UNO as SVG pictures: a card, a hand and the whole table (plain strings, no dependencies).

Coloured cards carry their face in a white oval; Skip is a barred circle, Reverse two
arrows, Draw Two ``+2``; the Wild shows the four colours, the Wild Draw Four adds ``+4``.
The symbols are drawn as shapes, so they look the same whatever fonts a browser has. Each
card is a ``<g class="card">`` with ``data-card`` (its text, ``R7``, ``W+4``) and, on the
table, ``data-seat``. :class:`ddz.uno.Card`, :class:`ddz.uno.Action`, :class:`ddz.uno.Game`
and :class:`ddz.uno.Observation` show these pictures in notebooks (``_repr_svg_``).

>>> from ddz import uno
>>> import xml.etree.ElementTree as ET
>>> picture = ET.fromstring(hand(uno.parse_cards("R7 GS BR Y+2 W W+4")))
>>> picture.get("height"), len(picture.findall(".//{http://www.w3.org/2000/svg}g[@class='card']"))
('78', 6)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ddz.base.svgkit import (
    back,
    backs,
    document,
    fitting_step,
    num,
    pill,
    pill_width,
    placement,
    reverse_mark,
    skip_mark,
    text,
    to_act,
)
from ddz.uno.actions import Action
from ddz.uno.cards import Card
from ddz.uno.game import Game
from ddz.uno.observation import Observation
from ddz.uno.render import narrate, rules_name

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "action", "card", "card_document", "hand", "table"]

CARD_WIDTH = 50
CARD_HEIGHT = 74
COLOUR_FILLS = {
    "red": "#d32f2f",
    "yellow": "#f9a825",
    "green": "#2e7d32",
    "blue": "#1565c0",
}
WILD_FILL = "#212121"
_STEP = 22
_QUADRANTS = ("red", "blue", "yellow", "green")  # clockwise from the top right


def _oval(cx: float, cy: float, rx: float, ry: float, fill: str) -> str:
    return (
        f'<ellipse cx="{num(cx)}" cy="{num(cy)}" rx="{num(rx)}" ry="{num(ry)}" fill="{fill}" '
        f'transform="rotate(-30 {num(cx)} {num(cy)})"/>'
    )


def _wild_oval(cx: float, cy: float, r: float) -> str:
    """A circle of four quarters in the four colours."""
    return "".join(
        _slice(cx, cy, r, start, COLOUR_FILLS[colour])
        for start, colour in zip((-90, 0, 90, 180), _QUADRANTS, strict=True)
    )


_AXES = {-90: (0, -1), 0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}


def _slice(cx: float, cy: float, r: float, start: int, fill: str) -> str:
    (x0, y0), (x1, y1) = _AXES[start], _AXES[start + 90]
    return (
        f'<path d="M{num(cx)},{num(cy)} L{num(cx + r * x0)},{num(cy + r * y0)} '
        f'A{num(r)},{num(r)} 0 0 1 {num(cx + r * x1)},{num(cy + r * y1)} Z" fill="{fill}"/>'
    )


def card(
    played: Card | str,
    *,
    x: float = 0,
    y: float = 0,
    seat: int | None = None,
    scale: float = 1.0,
) -> str:
    """One card face up as an SVG element (``<g>``) at ``x, y``."""
    chosen = played if isinstance(played, Card) else Card.parse(played)
    seat_attr = "" if seat is None else f' data-seat="{seat}"'
    colour = chosen.colour
    fill = WILD_FILL if colour is None else COLOUR_FILLS[colour]
    parts = [
        f'<g class="card" data-card="{chosen}"{seat_attr} transform="{placement(x, y, scale)}">',
        f'<rect width="{CARD_WIDTH}" height="{CARD_HEIGHT}" rx="6" fill="#ffffff" '
        'stroke="#424242" stroke-width="1"/>',
        f'<rect x="3" y="3" width="{CARD_WIDTH - 6}" height="{CARD_HEIGHT - 6}" rx="4" '
        f'fill="{fill}"/>',
    ]
    cx, cy = CARD_WIDTH / 2 + 4, CARD_HEIGHT / 2 + 4
    face = chosen.face
    if chosen.is_wild:
        parts.append(_wild_oval(cx, cy, 15))
        parts.append(_wild_oval(12, 14, 6))
        if face == "W+4":  # also in the corner, the strip a neighbour leaves showing
            parts.append(text(4, 33, "+4", size=11, fill="#ffffff", weight="bold"))
            parts.append(
                text(cx, cy + 6, "+4", size=17, fill="#ffffff", anchor="middle", weight="bold")
            )
        parts.append(
            text(
                CARD_WIDTH / 2,
                CARD_HEIGHT - 7,
                "WILD",
                size=8,
                fill="#ffffff",
                anchor="middle",
                weight="bold",
            )
        )
    else:
        parts.append(_oval(cx, cy, 15, 22, "#ffffff"))
        if face == "S":
            parts.append(skip_mark(11, 14, 6, "#ffffff", 2))
            parts.append(skip_mark(cx, cy, 10, fill, 3.5))
        elif face == "R":
            parts.append(reverse_mark(11, 14, 6, "#ffffff", 2))
            parts.append(reverse_mark(cx, cy, 10, fill, 3))
        else:
            corner = 14 if len(face) == 1 else 11  # "+2" fits the strip a neighbour leaves
            parts.append(text(5, 19, face, size=corner, fill="#ffffff", weight="bold"))
            parts.append(
                text(
                    cx,
                    cy + 8,
                    face,
                    size=22 if len(face) == 1 else 18,
                    fill=fill,
                    anchor="middle",
                    weight="bold",
                )
            )
    parts.append("</g>")
    return "".join(parts)


def _fan(
    cards: Sequence[Card], x: float, y: float, *, seat: int | None = None, step: float = _STEP
) -> str:
    return "".join(card(c, x=x + i * step, y=y, seat=seat) for i, c in enumerate(cards))


def _fan_width(count: int) -> int:
    return 0 if count == 0 else CARD_WIDTH + (count - 1) * _STEP


def hand(cards: Sequence[Card | str]) -> str:
    """Cards face up, fanned in the order given, as an SVG document."""
    chosen = [c if isinstance(c, Card) else Card.parse(c) for c in cards]
    width = max(_fan_width(len(chosen)), CARD_WIDTH) + 4
    label = " ".join(map(str, chosen)) or "no cards"
    return document(width, CARD_HEIGHT + 4, [_fan(chosen, 2, 2)], label=label)


def card_document(played: Card | str) -> str:
    """One card as an SVG document."""
    chosen = played if isinstance(played, Card) else Card.parse(played)
    return document(CARD_WIDTH + 4, CARD_HEIGHT + 4, [card(chosen, x=2, y=2)], label=str(chosen))


def action(chosen: Action | str) -> str:
    """An action as an SVG document: who acts, then a play's card (and a wild's chosen
    colour) or the action's words (``draw``, ``uno``, ``catch 2``).

    >>> import xml.etree.ElementTree as ET
    >>> picture = ET.fromstring(action("1: play W+4 blue"))
    >>> picture.find(".//{http://www.w3.org/2000/svg}g[@class='card']").get("data-card")
    'W+4'
    >>> "".join(ET.fromstring(action("2: catch 0")).itertext())
    '2: catch 0player 2catch 0'
    """
    taken = chosen if isinstance(chosen, Action) else Action.parse(chosen)
    who = f"player {taken.player}"
    x = pill_width(who) + 8
    height = CARD_HEIGHT + 4 if taken.kind == "play" else 24  # a label alone is one line
    parts = [pill(2, height / 2, who, fill="#37474f")]
    if taken.kind == "play" and taken.card is not None:
        parts.append(card(taken.card, x=x, y=2))
        x += CARD_WIDTH + 6
        if taken.card.is_wild and taken.colour is not None:
            fill = COLOUR_FILLS[taken.colour]
            parts.append(pill(x, height / 2, taken.colour, fill=fill))
            x += pill_width(taken.colour) + 4
    else:
        parts.append(pill(x, height / 2, taken.text, fill="#546e7a"))
        x += pill_width(taken.text) + 4
    return document(int(x) + 2, height, parts, label=str(taken))


# --- the table ------------------------------------------------------------------------------

TABLE_WIDTH = 880
_HEADER = 40
_PILES = 104
_ROW = 90
_HAND_X = 150
FELT = "#263238"


@dataclasses.dataclass(frozen=True)
class _Seen:
    """What the picture shows, from a round or an observation: a hand is None if hidden."""

    title: str
    viewer: int | None
    hands: tuple[Sequence[Card] | None, ...]
    sizes: tuple[int, ...]
    top: Card
    colour: str | None
    direction: int
    current: int | None
    pending: int
    draw: int
    uno_player: int | None
    over: bool
    winner: int | None
    last: str | None


def _seen(game: Game | Observation, seat: int | None) -> _Seen:
    if isinstance(game, Observation):
        return _Seen(
            title=f"UNO, {game.players} players",
            viewer=game.player,
            hands=tuple(game.hand if p == game.player else None for p in range(game.players)),
            sizes=game.hand_sizes,
            top=game.top,
            colour=game.colour,
            direction=game.direction,
            current=game.current_player,
            pending=game.pending,
            draw=game.draw_pile_size,
            uno_player=game.uno_player,
            over=game.is_over,
            winner=game.winner,
            last=None,
        )
    players = game.players
    if seat is not None and seat not in range(players):
        raise ValueError(f"seat must be 0..{players - 1} or None (every hand), not {seat!r}")
    return _Seen(
        title=f"UNO, {rules_name(game.rules)} rules, {players} players, ply {game.ply}",
        viewer=seat,
        hands=tuple(game.hand(p) if seat in (None, p) else None for p in range(players)),
        sizes=game.hand_sizes,
        top=game.top,
        colour=game.colour,
        direction=game.direction,
        current=game.current_player,
        pending=game.pending,
        draw=len(game.draw_pile),
        uno_player=game.uno_player,
        over=game.is_over,
        winner=game.winner,
        last=next(iter(narrate(game, last=1)), None),
    )


def table(game: Game | Observation, *, seat: int | None = None) -> str:
    """The round as an SVG document: a header, the piles (draw pile, the top card, the
    colour to match, the direction and a penalty owed), then one row per player with their
    hand face up or down; ``seat=None`` shows every hand, ``seat=k`` what player ``k`` may
    see. An observation is drawn from its own seat."""
    seen = _seen(game, seat)
    players = len(seen.sizes)
    height = _HEADER + _PILES + players * _ROW + 12
    you = "" if seen.viewer is None else f" - you are player {seen.viewer}"
    parts = [
        f'<rect width="{TABLE_WIDTH}" height="{height}" rx="12" fill="{FELT}"/>',
        text(16, 26, seen.title + you, size=16, fill="#ffffff", weight="bold"),
    ]
    if seen.over:
        end = (
            "blocked: nobody went out" if seen.winner is None else f"player {seen.winner} went out"
        )
        parts.append(
            text(TABLE_WIDTH - 16, 26, end, size=14, fill="#ffe082", anchor="end", weight="bold")
        )
    parts.append(_piles(seen, _HEADER))
    for player in range(players):
        parts.append(_row(seen, player, _HEADER + _PILES + player * _ROW))
    return document(TABLE_WIDTH, height, parts, label=seen.title)


def _piles(seen: _Seen, y: int) -> str:
    top, colour, draw, pending, last = seen.top, seen.colour, seen.draw, seen.pending, seen.last
    parts = [text(22, y + 16, "draw pile", size=12, fill="#b0bec5")]
    parts.append(back(22, y + 22) if draw else "")
    parts.append(
        text(22 + CARD_WIDTH + 8, y + 60, str(draw), size=15, fill="#ffffff", weight="bold")
    )
    parts.append(text(120, y + 16, "top", size=12, fill="#b0bec5"))
    parts.append(card(top, x=120, y=y + 22))
    swatch = COLOUR_FILLS.get(colour or "", "#9e9e9e")
    parts.append(
        f'<circle cx="200" cy="{y + 58}" r="16" fill="{swatch}" stroke="#ffffff" stroke-width="2"/>'
    )
    parts.append(
        text(224, y + 54, colour or "colour to choose", size=14, fill="#ffffff", weight="bold")
    )
    arrow = "turns in seat order" if seen.direction > 0 else "turns reversed"
    parts.append(text(224, y + 74, arrow, size=12, fill="#b0bec5"))
    if pending:
        parts.append(pill(420, y + 58, f"player {seen.current} owes +{pending}", fill="#c62828"))
    if last is not None:
        parts.append(
            text(TABLE_WIDTH - 16, y + 58, f"last: {last}", size=13, fill="#ffe082", anchor="end")
        )
    return "".join(parts)


def _row(seen: _Seen, player: int, top: int) -> str:
    size, cards, acting = seen.sizes[player], seen.hands[player], player == seen.current
    parts = [
        f'<g class="seat" data-seat="{player}">',
        f'<rect x="8" y="{top + 3}" width="{TABLE_WIDTH - 16}" height="{_ROW - 6}" rx="10" '
        f'fill="{"#455a64" if acting else "#37474f"}" '
        f'stroke="{"#ffeb3b" if acting else "none"}" stroke-width="2.5"/>',
        text(
            22,
            top + 32,
            f"player {player}" + (" (you)" if player == seen.viewer else ""),
            size=15,
            fill="#ffffff",
            weight="bold",
        ),
        text(22, top + 56, f"{size} card{'s' if size != 1 else ''}", size=13, fill="#cfd8dc"),
    ]
    if player == seen.uno_player:
        parts.append(pill(22, top + 72, "UNO?", fill="#c62828"))
    if acting:
        parts.append(to_act(100, top + 56))
    card_top = top + (_ROW - CARD_HEIGHT) / 2
    room = TABLE_WIDTH - 16 - _HAND_X
    if cards is None:
        parts.append(backs(_HAND_X, card_top, size, step=fitting_step(size, room, step=7)))
    elif cards:
        step = fitting_step(len(cards), room, step=_STEP)
        parts.append(_fan(cards, _HAND_X, card_top, seat=player, step=step))
    else:
        parts.append(
            text(_HAND_X, top + _ROW / 2 + 5, "out", size=15, fill="#ffe082", weight="bold")
        )
    parts.append("</g>")
    return "".join(parts)
