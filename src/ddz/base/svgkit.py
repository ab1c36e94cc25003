"""The SVG drawing kit every game's pictures are made of: documents, text, pills, card backs,
the marks of the action cards, and how tightly a fan of cards fits a row.

Plain strings, no dependencies; the same bytes for the same input, text escaped. The games'
pictures (``ddz.doudizhu.svg``, ``ddz.uno.svg``) are built from these.

>>> document(10, 10, [pill(0, 0, "hi", fill=FELT)]).startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

__all__ = [
    "CARD_HEIGHT",
    "CARD_STEP",
    "CARD_WIDTH",
    "FELT",
    "FONT",
    "INK",
    "RED",
    "REVERSE_COLOUR",
    "SKIP_COLOUR",
    "back",
    "backs",
    "document",
    "fitting_step",
    "num",
    "pill",
    "pill_width",
    "placement",
    "reverse_mark",
    "skip_mark",
    "star",
    "text",
    "to_act",
]

CARD_WIDTH = 50
CARD_HEIGHT = 72
CARD_STEP = 21  # how far apart the cards of a fanned hand are: enough to read each corner
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
INK = "#1b1b1b"
RED = "#c62828"
SKIP_COLOUR = "#e65100"
REVERSE_COLOUR = "#00796b"
FELT = "#1f6f4a"


def document(width: int, height: int, body: Iterable[str], *, label: str = "") -> str:
    """A complete SVG document of ``width`` x ``height`` around ``body``'s elements."""
    title = f"<title>{escape(label)}</title>" if label else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family={quoteattr(FONT)}>'
        f"{title}{''.join(body)}</svg>"
    )


def text(
    x: float,
    y: float,
    words: str,
    *,
    size: float = 14,
    fill: str = INK,
    anchor: str = "start",
    weight: str = "normal",
) -> str:
    """One line of escaped text with its baseline at ``y``."""
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{fill}" '
        f'text-anchor="{anchor}" font-weight="{weight}">{escape(words)}</text>'
    )


def pill_width(words: str) -> float:
    return 12 + 7.5 * len(words)


def pill(x: float, y: float, words: str, *, fill: str, ink: str = "#ffffff") -> str:
    """A rounded label (a role, ``pass``) whose left edge is ``x`` and middle ``y``."""
    width = pill_width(words)
    return (
        f'<g class="pill"><rect x="{num(x)}" y="{num(y - 10)}" width="{num(width)}" height="20" '
        f'rx="10" fill="{fill}"/>'
        + text(x + width / 2, y + 4.5, words, size=12, fill=ink, anchor="middle", weight="bold")
        + "</g>"
    )


def back(x: float, y: float, *, scale: float = 1.0) -> str:
    """A card face down."""
    return (
        f'<g class="card back" transform="{placement(x, y, scale)}">'
        f'<rect width="{CARD_WIDTH}" height="{CARD_HEIGHT}" rx="6" fill="#7b1f3a" '
        'stroke="#ffffff" stroke-width="1.5"/>'
        f'<rect x="5" y="5" width="{CARD_WIDTH - 10}" height="{CARD_HEIGHT - 10}" rx="3" '
        'fill="none" stroke="#e8b4c4" stroke-width="1" stroke-dasharray="3 2"/></g>'
    )


def backs(x: float, y: float, count: int, *, scale: float = 1.0, step: float = 7) -> str:
    """``count`` cards face down, fanned ``step`` apart, with their number on top."""
    parts = [back(x + i * step * scale, y, scale=scale) for i in range(count)]
    if count:
        middle_x = x + ((count - 1) * step + CARD_WIDTH) * scale / 2
        parts.append(
            f'<circle cx="{num(middle_x)}" cy="{num(y + CARD_HEIGHT * scale / 2)}" r="13" '
            'fill="#ffffff" stroke="#7b1f3a" stroke-width="1.5"/>'
            + text(
                middle_x,
                y + CARD_HEIGHT * scale / 2 + 5,
                str(count),
                size=13,
                anchor="middle",
                weight="bold",
            )
        )
    return "".join(parts)


def num(value: float) -> str:
    """A coordinate as short, stable text: ``12``, ``12.5`` (never ``12.000001``)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def placement(x: float, y: float, scale: float) -> str:
    """A ``transform`` that moves an element to ``x, y`` and scales it."""
    where = f"translate({num(x)},{num(y)})"
    return where if scale == 1 else f"{where} scale({num(scale)})"


def star(cx: float, cy: float, radius: float, fill: str) -> str:
    points = []
    for i, (x, y) in enumerate(_STAR_UNIT):
        r = radius if i % 2 == 0 else radius * 0.45  # outer and inner points alternate
        points.append(f"{num(cx + r * x)},{num(cy + r * y)}")
    return f'<polygon points="{" ".join(points)}" fill="{fill}"/>'


_STAR_UNIT = (
    (0.0, -1.0),
    (0.5878, -0.809),
    (0.9511, -0.309),
    (0.9511, 0.309),
    (0.5878, 0.809),
    (0.0, 1.0),
    (-0.5878, 0.809),
    (-0.9511, 0.309),
    (-0.9511, -0.309),
    (-0.5878, -0.809),
)
"""Ten directions 36 degrees apart, the first straight up: a five-pointed star's points."""


_STAR_UNIT = (
    (0.0, -1.0),
    (0.5878, -0.809),
    (0.9511, -0.309),
    (0.9511, 0.309),
    (0.5878, 0.809),
    (0.0, 1.0),
    (-0.5878, 0.809),
    (-0.9511, 0.309),
    (-0.9511, -0.309),
    (-0.5878, -0.809),
)
"""Ten directions 36 degrees apart, the first straight up: a five-pointed star's points."""


def skip_mark(cx: float, cy: float, radius: float, colour: str, width: float) -> str:
    """A Skip's symbol: a barred circle (Uno the Landlord's and UNO's Skip share it)."""
    offset = radius * 0.707
    return (
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(radius)}" fill="none" stroke="{colour}" '
        f'stroke-width="{num(width)}"/>'
        f'<line x1="{num(cx - offset)}" y1="{num(cy + offset)}" x2="{num(cx + offset)}" '
        f'y2="{num(cy - offset)}" stroke="{colour}" stroke-width="{num(width)}"/>'
    )


def reverse_mark(cx: float, cy: float, size: float, colour: str, width: float) -> str:
    """Two arrows, one each way (the symbol of a Reverse)."""
    half, gap, head = size, size * 0.38, size * 0.42

    def arrow(y: float, direction: int) -> str:
        tip = cx + direction * half
        return (
            f'<line x1="{num(cx - direction * half)}" y1="{num(y)}" x2="{num(tip)}" y2="{num(y)}" '
            f'stroke="{colour}" stroke-width="{num(width)}" stroke-linecap="round"/>'
            f'<polyline points="{num(tip - direction * head)},{num(y - head)} {num(tip)},{num(y)} '
            f'{num(tip - direction * head)},{num(y + head)}" fill="none" stroke="{colour}" '
            f'stroke-width="{num(width)}" stroke-linecap="round" stroke-linejoin="round"/>'
        )

    return arrow(cy - gap, 1) + arrow(cy + gap, -1)


def fitting_step(count: int, room: float, *, step: float = CARD_STEP, extra: float = 0) -> float:
    """How far apart ``count`` cards go to fit in ``room`` (``extra`` taken by gaps):
    ``step`` when they fit, closer when not, never under 4."""
    if count < 2:
        return step
    return max(4.0, min(step, (room - extra - CARD_WIDTH) / (count - 1)))


def to_act(x: float, y: float) -> str:
    """The tag on the row of the seat to act (its outline says it too)."""
    return text(x, y, "to act", size=12, fill="#ffeb3b", weight="bold")
