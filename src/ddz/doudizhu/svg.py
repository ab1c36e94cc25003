"""Dou Dizhu as SVG pictures: a card, a hand, a move and the whole table.

Plain strings, no dependencies: every function returns a complete ``<svg>`` document
(``width``, ``height`` and a ``viewBox``), the same bytes for the same input, with its text
escaped. Notebooks show them through ``_repr_svg_`` on :class:`ddz.Cards`,
:class:`ddz.Move`, :class:`ddz.Bid`, :class:`ddz.Game` and :class:`ddz.Observation`. The
symbols are drawn as shapes (the jokers' stars, Skip's barred circle, Reverse's arrows), so
they look the same whatever fonts a browser has. UNO's pictures are :mod:`ddz.uno.svg`.

Each card is a ``<g class="card">`` with ``data-card`` (its symbol) and, on the table,
``data-seat``: a page can find and click them (``python -m ddz serve`` does).

>>> import ddz
>>> picture = hand(ddz.Cards("34XD"))
>>> picture.startswith("<svg") and picture.count('class="card"')
4
>>> import xml.etree.ElementTree as ET
>>> ET.fromstring(table(ddz.Game(seed=7))).get("width")
'880'
"""

from __future__ import annotations

from collections.abc import Iterable

from ddz.base.svgkit import (
    CARD_HEIGHT,
    CARD_STEP,
    CARD_WIDTH,
    FELT,
    INK,
    RED,
    REVERSE_COLOUR,
    SKIP_COLOUR,
    backs,
    document,
    fitting_step,
    pill,
    pill_width,
    placement,
    reverse_mark,
    skip_mark,
    star,
    text,
    to_act,
)
from ddz.doudizhu.actions import ActionRecord, Bid
from ddz.doudizhu.cards import Cards
from ddz.doudizhu.game import Game
from ddz.doudizhu.moves import Move
from ddz.doudizhu.observation import Observation
from ddz.doudizhu.render import TableView, role, view

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "bid", "card", "hand", "move", "table"]

_NAMES = {"X": "JOKER", "D": "JOKER", "S": "SKIP", "V": "REV"}  # the ten is T, as in text
_STEP = CARD_STEP


# --- Dou Dizhu cards -------------------------------------------------------------------------


def card(symbol: str, *, x: float = 0, y: float = 0, seat: int | None = None) -> str:
    """One card face up as an SVG element (``<g>``) at ``x, y``: ``3`` .. ``2``, ``T`` for
    the 10 (drawn ``T``, as text writes it), ``X``/``D`` the small and big joker, ``S`` Skip,
    ``V`` Reverse. A document of one card is ``hand(Cards(symbol))``."""
    if len(symbol) != 1 or symbol not in "3456789TJQKA2XDSV":
        raise ValueError(f"{symbol!r} is no card symbol (3..9, T, J, Q, K, A, 2, X, D, S, V)")
    seat_attr = "" if seat is None else f' data-seat="{seat}"'
    parts = [
        f'<g class="card" data-card="{symbol}"{seat_attr} transform="{placement(x, y, 1)}">',
        f'<rect width="{CARD_WIDTH}" height="{CARD_HEIGHT}" rx="6" fill="#fffdf7" '
        'stroke="#555555" stroke-width="1"/>',
    ]
    middle_x, middle_y = CARD_WIDTH / 2 + 4, CARD_HEIGHT / 2 + 6
    if symbol in "XD":
        colour = INK if symbol == "X" else RED
        for row, letter in enumerate("JOKER"):
            parts.append(
                text(9, 14 + row * 10, letter, size=10, fill=colour, anchor="middle", weight="bold")
            )
        parts.append(star(middle_x + 2, middle_y - 4, 13, colour))
        parts.append(
            text(
                middle_x + 2,
                middle_y + 22,
                "BIG" if symbol == "D" else "SMALL",
                size=7,
                fill=colour,
                anchor="middle",
            )
        )
    elif symbol == "S":
        parts.append(skip_mark(10, 12, 5, SKIP_COLOUR, 2))
        parts.append(skip_mark(middle_x, middle_y, 12, SKIP_COLOUR, 3.5))
        parts.append(
            text(
                middle_x,
                CARD_HEIGHT - 6,
                "SKIP",
                size=8,
                fill=SKIP_COLOUR,
                anchor="middle",
                weight="bold",
            )
        )
    elif symbol == "V":
        parts.append(reverse_mark(10, 12, 5, REVERSE_COLOUR, 1.8))
        parts.append(reverse_mark(middle_x, middle_y, 12, REVERSE_COLOUR, 3))
        parts.append(
            text(
                middle_x,
                CARD_HEIGHT - 6,
                "REVERSE",
                size=7,
                fill=REVERSE_COLOUR,
                anchor="middle",
                weight="bold",
            )
        )
    else:
        name = _NAMES.get(symbol, symbol)
        corner = 14 if len(name) == 1 else 11
        parts.append(text(4 if len(name) > 1 else 5, 18, name, size=corner, weight="bold"))
        # the big index sits right of the strip a fanned neighbour leaves showing
        parts.append(
            text(
                CARD_WIDTH - 6,
                CARD_HEIGHT - 12,
                name,
                size=24 if len(name) == 1 else 17,
                anchor="end",
                weight="bold",
            )
        )
    parts.append("</g>")
    return "".join(parts)


def fan_width(count: int, *, step: float = _STEP) -> int:
    """The width of ``count`` cards fanned ``step`` apart."""
    return 0 if count == 0 else int(CARD_WIDTH + (count - 1) * step)


def fan(
    cards: Cards | Iterable[str],
    x: float,
    y: float,
    *,
    seat: int | None = None,
    step: float = _STEP,
    scale: float = 1.0,
) -> str:
    """Cards face up, overlapping ``step`` apart, low to high, as one ``<g>``."""
    symbols = list(cards)
    body = "".join(card(s, x=i * step, seat=seat) for i, s in enumerate(symbols))
    return f'<g class="hand" transform="{placement(x, y, scale)}">{body}</g>'


def _move_cards(played: Move) -> tuple[list[str], list[str]]:
    main = list(played.main) if played.main is not None else list(played.cards)
    kickers = list(played.kickers) if played.kickers is not None else []
    return main, kickers


def _move_group(
    played: Move, x: float, y: float, *, scale: float = 1.0, room: float = 10_000
) -> tuple[str, float]:
    """A move's cards (kickers after a small gap), or a ``pass`` label; and its width. The
    cards close up to fit in ``room`` (drawn width)."""
    if played.is_pass:
        return pill(x, y + CARD_HEIGHT * scale / 2, "pass", fill="#546e7a"), 48
    main, kickers = _move_cards(played)
    # main and kickers fan with one step; the kickers' first card and the gap take a card more
    extra = CARD_WIDTH + 8 if kickers else 0
    step = fitting_step(len(main) + len(kickers) - (1 if kickers else 0), room / scale, extra=extra)
    parts = [card(s, x=i * step) for i, s in enumerate(main)]
    offset = fan_width(len(main), step=step) + 8
    parts += [card(s, x=offset + i * step) for i, s in enumerate(kickers)]
    width = offset - 8 + (fan_width(len(kickers), step=step) + 8 if kickers else 0)
    body = "".join(parts)
    return f'<g class="move" transform="{placement(x, y, scale)}">{body}</g>', width * scale


def hand(cards: Cards | str) -> str:
    """Cards face up, fanned low to high, as an SVG document.

    >>> import xml.etree.ElementTree as ET
    >>> picture = ET.fromstring(hand("33XD"))
    >>> picture.get("width"), picture.get("height")
    ('117', '76')
    """
    held = cards if isinstance(cards, Cards) else Cards(cards)
    width = max(fan_width(len(held)), CARD_WIDTH) + 4
    body = fan(held, 2, 2) if held else _empty(2, 2)
    return document(width, CARD_HEIGHT + 4, [body], label=str(held) or "no cards")


def _empty(x: float, y: float) -> str:
    return (
        f'<rect x="{x}" y="{y}" width="{CARD_WIDTH}" height="{CARD_HEIGHT}" rx="6" '
        'fill="none" stroke="#9e9e9e" stroke-dasharray="4 3"/>'
    )


def move(played: Move | str) -> str:
    """A move as an SVG document: its cards, the kickers set a little apart, or ``pass``.

    >>> import xml.etree.ElementTree as ET
    >>> ET.fromstring(move("333+4")).get("width")
    '154'
    """
    chosen = played if isinstance(played, Move) else Move.parse(played)
    group, width = _move_group(chosen, 2, 2)
    return document(int(width) + 4, CARD_HEIGHT + 4, [group], label=str(chosen))


def bid(action: Bid | str) -> str:
    """A bidding action (``bid 3``, ``call``, ``grab``, ``pass``) as an SVG document: a label,
    as the table shows bids.

    >>> import xml.etree.ElementTree as ET
    >>> picture = ET.fromstring(bid("bid 3"))
    >>> picture.get("width"), "".join(picture.itertext())
    ('53', 'bid 3bid 3')
    """
    chosen = action if isinstance(action, Bid) else Bid.parse(action)
    words = str(chosen)
    label = pill(2, 12, words, fill="#546e7a")
    return document(int(pill_width(words)) + 4, 24, [label], label=words)


# --- the table ------------------------------------------------------------------------------

TABLE_WIDTH = 880
_HEADER = 40
_ROW = 96
_HAND_X = 150
_PLAY_X = 620


def table(game: Game | Observation | TableView, *, seat: int | None = None) -> str:
    """The table as an SVG document: a header (rules, phase, score), one row per seat (its
    role, cards left, its hand face up or down, what it did in the current trick; the seat
    to act highlighted), then the kitty, the move to beat and the result. ``seat=None``
    shows every hand; ``seat=k`` what seat ``k`` may see (as :func:`ddz.doudizhu.render.view`)."""
    seen = game if isinstance(game, TableView) else view(game, seat=seat)
    players = len(seen.counts)
    height = _HEADER + players * _ROW + 96
    parts = [
        f'<rect width="{TABLE_WIDTH}" height="{height}" rx="12" fill="{FELT}"/>',
        text(16, 26, _title(seen), size=16, fill="#ffffff", weight="bold"),
        text(
            TABLE_WIDTH - 16,
            26,
            seen.score if seen.score == "no bid yet" else f"score {seen.score}",
            size=14,
            fill="#ffe082",
            anchor="end",
            weight="bold",
        ),
        text(
            _PLAY_X,
            _HEADER - 2,
            _trick_label(seen),
            size=11,
            fill="#a5d6a7",
        ),
    ]
    last_by_seat: dict[int, ActionRecord] = {}
    for record in seen.trick:
        last_by_seat[record.player] = record
    for player in range(players):
        parts.append(_seat_row(seen, player, _HEADER + player * _ROW, last_by_seat.get(player)))
    parts.append(_footer(seen, _HEADER + players * _ROW + 8))
    return document(TABLE_WIDTH, height, parts, label=f"{seen.title}: {seen.phase}")


def _trick_label(seen: TableView) -> str:
    if seen.trick_is_recent:
        return "recent"
    return "bids" if seen.phase == "bidding" else "this trick"


def _title(seen: TableView) -> str:
    if seen.phase == "over":
        state = f"over after {seen.ply} plies"
    else:
        state = f"{seen.phase}, ply {seen.ply}"
    you = "" if seen.viewer is None else f" - you are seat {seen.viewer}"
    return f"{seen.title}: {state}{you}"


_ROLE_FILL = {"landlord": "#f9a825", "farmer": "#1565c0"}


def _seat_row(seen: TableView, player: int, top: int, played: ActionRecord | None) -> str:
    acting = player == seen.current
    parts = [
        f'<g class="seat" data-seat="{player}">',
        f'<rect x="8" y="{top + 4}" width="{TABLE_WIDTH - 16}" height="{_ROW - 8}" rx="10" '
        f'fill="{"#2e8b5f" if acting else "#186040"}" '
        f'stroke="{"#ffeb3b" if acting else "none"}" stroke-width="2.5"/>',
    ]
    name = f"seat {player}" + (" (you)" if player == seen.viewer else "")
    parts.append(text(22, top + 30, name, size=15, fill="#ffffff", weight="bold"))
    seat_role = role(seen, player)
    tag_x = 22.0
    if seat_role != "-":  # no role until bidding settles the landlord
        parts.append(pill(22, top + 48, seat_role, fill=_ROLE_FILL[seat_role]))
        tag_x += pill_width(seat_role) + 8
    count = seen.counts[player]
    parts.append(
        text(22, top + 78, f"{count} card{'s' if count != 1 else ''}", size=13, fill="#e0f2f1")
    )
    if acting:
        parts.append(to_act(tag_x, top + 52))
    cards = seen.hands[player]
    card_top = top + (_ROW - CARD_HEIGHT) / 2
    room = _PLAY_X - 10 - _HAND_X
    if cards is None:
        parts.append(backs(_HAND_X, card_top, count, step=fitting_step(count, room, step=7)))
    elif cards:
        step = fitting_step(len(cards), room)
        parts.append(fan(cards, _HAND_X, card_top, seat=player, step=step))
    else:
        parts.append(
            text(_HAND_X, top + _ROW / 2 + 5, "out", size=15, fill="#ffe082", weight="bold")
        )
    if played is not None:
        parts.append(_played(played, _PLAY_X, top))
    parts.append("</g>")
    return "".join(parts)


def _played(record: ActionRecord, x: float, top: int) -> str:
    """What a seat did last in this trick (or bid): its cards, smaller, or a label."""
    action = record.action
    if isinstance(action, Bid) or action.is_pass:
        return pill(x, top + _ROW / 2, str(action), fill="#546e7a")
    group, _ = _move_group(action, x, top + 16, scale=0.8, room=TABLE_WIDTH - 16 - x)
    return group


def _footer(seen: TableView, top: int) -> str:
    parts = []
    if seen.kitty or seen.kitty_size:
        parts.append(text(22, top + 20, "kitty", size=13, fill="#e0f2f1", weight="bold"))
    if seen.kitty:
        parts.append(fan(seen.kitty, 22, top + 28, step=_STEP, scale=0.7))
    elif seen.kitty_size:
        parts.append(backs(22, top + 28, seen.kitty_size, scale=0.7, step=10))
    x = 260
    if seen.phase == "play":
        if seen.table is None:
            lead = f"seat {seen.current} leads" if seen.current is not None else ""
            parts.append(
                text(
                    x,
                    top + 20,
                    f"to beat: nothing - {lead}",
                    size=13,
                    fill="#e0f2f1",
                    weight="bold",
                )
            )
        else:
            parts.append(
                text(
                    x,
                    top + 20,
                    f"to beat: {seen.table} (seat {seen.table_player})",
                    size=13,
                    fill="#e0f2f1",
                    weight="bold",
                )
            )
            group, _ = _move_group(seen.table, x, top + 28, scale=0.7)
            parts.append(group)
    elif seen.phase == "bidding":
        bids = [record for record in seen.trick if str(record.action) != "pass"]
        standing = f"{bids[-1].action} by seat {bids[-1].player}" if bids else "nobody has bid"
        parts.append(
            text(x, top + 20, f"bidding: {standing}", size=13, fill="#e0f2f1", weight="bold")
        )
    if seen.direction < 0:
        parts.append(
            text(
                TABLE_WIDTH - 16, top + 44, "turns reversed", size=13, fill="#ffe082", anchor="end"
            )
        )
    if seen.result is not None:
        parts.append(
            text(
                TABLE_WIDTH - 16,
                top + 20,
                seen.result,
                size=13,
                fill="#ffe082",
                anchor="end",
                weight="bold",
            )
        )
    return "".join(parts)
