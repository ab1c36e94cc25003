"""The public path of Dou Dizhu as SVG pictures: ``ddz.svg`` as documented.

The code lives in :mod:`ddz.doudizhu.svg` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.svg`` keep working.
"""

from ddz.base.svgkit import (
    CARD_HEIGHT,
    CARD_WIDTH,
    FELT,
    FONT,
    INK,
    RED,
    REVERSE_COLOUR,
    SKIP_COLOUR,
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
from ddz.doudizhu.svg import TABLE_WIDTH, bid, card, fan, fan_width, hand, move, table

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "FELT",
    "FONT",
    "INK",
    "RED",
    "REVERSE_COLOUR",
    "SKIP_COLOUR",
    "TABLE_WIDTH",
    "back",
    "backs",
    "bid",
    "card",
    "document",
    "fan",
    "fan_width",
    "fitting_step",
    "hand",
    "move",
    "num",
    "pill",
    "pill_width",
    "placement",
    "reverse_mark",
    "skip_mark",
    "table",
    "text",
    "to_act",
]
