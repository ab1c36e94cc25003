"""Games as text: the table ``str(game)`` prints, for everyone or from one seat.

:func:`text` draws a Dou Dizhu game (classic, two-player, Uno the Landlord) or one seat's
:class:`~ddz.Observation` as a small table: a header (rules, phase, ply, who acts), one row
per seat (role, cards left, the hand or ``hidden``), then the kitty, the move to beat, the
last trick and the score. ``seat=None`` shows every hand (what ``str(game)`` does);
``seat=k`` shows what seat ``k`` may see: their own hand, the others' counts, and the kitty
only once the landlord has taken it. UNO's table is :func:`ddz.uno.render.text`.

>>> import ddz
>>> game = ddz.Game(seed=7)
>>> _ = game.step("bid 3")
>>> print(text(game, seat=0))
Dou Dizhu, classic rules: play, ply 1, seat 2 to act (you are seat 0)
  seat  role      cards  hand
  0     farmer       17  33 4 5 66 777 9 TT J QQ K 2
  1     farmer       17  hidden
> 2     landlord     20  hidden
kitty   88 K
to beat -  (seat 2 leads)
score   x3: bid 3
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from ddz.doudizhu.actions import ActionRecord
from ddz.doudizhu.cards import Cards
from ddz.doudizhu.game import Game
from ddz.doudizhu.moves import Move
from ddz.doudizhu.observation import Observation
from ddz.doudizhu.rules import PRESETS, Bidding, Rules

__all__ = [
    "TableView",
    "grouped",
    "last_trick",
    "role",
    "rules_name",
    "text",
    "view",
    "wrap_items",
]


def grouped(cards: Cards) -> str:
    """Cards with a space between ranks, ``-`` for none: ``3 44 5 TT XD`` reads more easily
    than ``3445TTXD``.

    >>> grouped(Cards("3445TTXD")), grouped(Cards())
    ('3 44 5 TT X D', '-')
    """
    return " ".join("".join(group) for _, group in itertools.groupby(str(cards))) or "-"


def wrap_items(heading: str, items: Sequence[str], width: int = 78) -> str:
    """``heading`` and the items two spaces apart, in lines of at most ``width``, never
    breaking an item (``bid 2`` holds a space).

    >>> print(wrap_items("legal (3):", ["pass", "bid 1", "bid 2"], width=24))
    legal (3): pass  bid 1
      bid 2
    """
    lines = [heading + " "]
    for item in items:
        if len(lines[-1]) + len(item) > width:
            lines.append(" ")
        lines[-1] += item + "  "
    return "\n".join(line.rstrip() for line in lines)


def rules_name(rules: Rules) -> str:
    """The preset's name (``classic``, ``two-player``, ...) or ``custom``."""
    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")


def last_trick(game: Game) -> list[ActionRecord]:
    """The actions of the trick in play, from its lead; once a trick is over (the player to
    act leads), the trick just finished. ``[]`` before the first card.

    Found by taking actions back on a copy until the one that led: who leads depends on
    passes, Skips and Reverses, which the core already decides.

    >>> import ddz
    >>> game = ddz.Game(seed=7)
    >>> for action in ["bid 3", "44", "66", "pass", "pass"]:
    ...     _ = game.step(action)
    >>> [str(record) for record in last_trick(game)]
    ['2 44', '0 66', '1 pass', '2 pass']
    >>> game.table is None, game.current_player  # seat 0 leads the next trick
    (True, 0)
    """
    if game.phase == "bidding":
        return []
    probe = game.copy()
    trick: list[ActionRecord] = []
    history = game.history
    while history and history[-1].phase == "play":
        record = history.pop()
        probe.undo()
        trick.append(record)
        if probe.table is None:  # the undone action was played on an empty table: a lead
            break
    trick.reverse()
    return trick


@dataclasses.dataclass(frozen=True)
class TableView:
    """What a picture of the table shows, decided once for the text and the SVG: a hand is
    None when it is hidden from the viewer, and so is the kitty while it lies face down."""

    title: str
    phase: str
    ply: int
    viewer: int | None
    current: int | None
    landlord: int | None
    counts: tuple[int, ...]
    hands: tuple[Cards | None, ...]
    kitty: Cards | None
    kitty_size: int
    set_aside: Cards | None  # cards out of play (two-player's undealt cards), every-hand view only
    table: Move | None
    table_player: int | None
    trick: tuple[ActionRecord, ...]  # the bids so far while bidding
    trick_is_recent: bool  # an observation's most recent actions rather than the exact trick
    direction: int
    score: str
    result: str | None


def view(game: Game | Observation, *, seat: int | None = None) -> TableView:
    """The table as ``seat`` may see it (every hand for ``seat=None``); an observation is
    seen from its own seat.

    >>> import ddz
    >>> seen = view(ddz.Game(seed=7), seat=1)
    >>> seen.hands[1] is not None, seen.hands[0], seen.kitty, seen.kitty_size
    (True, None, None, 3)
    """
    if isinstance(game, Observation):
        return _observation_view(game)
    players = game.rules.players
    if seat is not None and seat not in range(players):
        raise ValueError(f"seat must be 0..{players - 1} or None (every hand), not {seat!r}")
    hands = game.hands
    kitty: Cards | None = game.kitty
    if seat is not None and game.landlord is None:
        kitty = None  # still face down
    return TableView(
        title=f"Dou Dizhu, {rules_name(game.rules)} rules",
        phase=game.phase,
        ply=len(game.history),
        viewer=seat,
        current=game.current_player,
        landlord=game.landlord,
        counts=tuple(len(hand) for hand in hands),
        hands=tuple(h if seat is None or p == seat else None for p, h in enumerate(hands)),
        kitty=kitty,
        kitty_size=len(game.kitty),
        # a dealt game's cards out of play (two-player's 9); a position's unmentioned cards
        # are most of the deck and say nothing, so they stay out of the picture
        set_aside=game.set_aside if seat is None and game._position is None else None,
        table=game.table,
        table_player=game.table_player,
        trick=tuple(game.history if game.phase == "bidding" else last_trick(game)),
        trick_is_recent=False,
        direction=game.direction,
        score=_score(game),
        result=_result(game) if game.is_over else None,
    )


def _observation_view(seen: Observation) -> TableView:
    players = len(seen.card_counts)
    score = f"x{seen.multiplier}" if seen.multiplier else "no bid yet"
    if seen.bid:
        score += f" (highest bid {seen.bid})"
    return TableView(
        title="Dou Dizhu",
        phase=seen.phase,
        ply=len(seen.history),
        viewer=seen.player,
        current=seen.current_player,
        landlord=seen.landlord,
        counts=tuple(seen.card_counts),
        hands=tuple(seen.hand if p == seen.player else None for p in range(players)),
        kitty=seen.kitty,
        kitty_size=len(seen.kitty) if seen.kitty is not None else 0,
        set_aside=None,  # a seat never sees the cards out of play
        table=seen.table,
        table_player=seen.table_player,
        trick=tuple(record for record in seen.history if record.phase == "play")[-players:],
        trick_is_recent=True,
        direction=seen.direction,
        score=score,
        result=_observed_result(seen) if seen.phase == "over" else None,
    )


def _observed_result(seen: Observation) -> str:
    """Who won, as a seat sees it: the seat out of cards and its side (the payoffs need the
    spring, which an observation does not hold)."""
    if seen.landlord is None:
        return "void deal: everyone passed"
    winner = next((p for p, count in enumerate(seen.card_counts) if count == 0), None)
    if winner is None:  # an observation read from JSON may say less than a game would
        return "over"
    side = "landlord wins" if winner == seen.landlord else "farmers win"
    return f"{side} (seat {winner} out)"


def text(game: Game | Observation | TableView, *, seat: int | None = None) -> str:
    """The table as text: every hand (``seat=None``), or what ``seat`` may see.

    An :class:`~ddz.Observation` is always drawn from its own seat, and its last trick is
    the most recent actions (an observation cannot take actions back)."""
    seen = game if isinstance(game, TableView) else view(game, seat=seat)
    turn = "over" if seen.current is None else f"seat {seen.current} to act"
    you = "" if seen.viewer is None else f" (you are seat {seen.viewer})"
    if seen.phase == "over":
        state = f"over after {seen.ply} plies"
    else:
        state = f"{seen.phase}, ply {seen.ply}, {turn}"
    lines = [f"{seen.title}: {state}{you}", "  seat  role      cards  hand"]
    for player, count in enumerate(seen.counts):
        marker = ">" if player == seen.current else " "
        hand = seen.hands[player]
        shown = "hidden" if hand is None else grouped(hand)
        lines.append(f"{marker} {player:<5} {role(seen, player):<9} {count:>5}  {shown}")
    if seen.kitty:  # a position set up without a kitty has none to show
        lines.append(f"kitty   {grouped(seen.kitty)}")
    elif seen.kitty_size:
        lines.append(f"kitty   {seen.kitty_size} cards, face down")
    if seen.set_aside:
        lines.append(f"aside   {grouped(seen.set_aside)}  (out of play)")
    if seen.phase == "play":
        if seen.table is None:
            lines.append(f"to beat -  (seat {seen.current} leads)")
        else:
            lines.append(f"to beat {seen.table}  (seat {seen.table_player})")
    if seen.trick:
        label = "recent" if seen.trick_is_recent else "bids" if seen.phase == "bidding" else "trick"
        lines.append(f"{label:<7} " + ", ".join(f"{r.player}: {r.action}" for r in seen.trick))
    if seen.direction < 0:
        lines.append("turns   reversed")
    lines.append(f"score   {seen.score}")
    if seen.result is not None:
        lines.append(f"result  {seen.result}")
    return "\n".join(lines)


def role(seen: TableView, player: int) -> str:
    """``landlord``, ``farmer``, or ``-`` before bidding settles it."""
    if seen.landlord is None:
        return "-"
    return "landlord" if player == seen.landlord else "farmer"


def _score(game: Game) -> str:
    if not game.multiplier:
        return "no bid yet"
    if game.rules.bidding is Bidding.POINTS:
        parts = [f"bid {game.bid}"] if game.bid else []
    elif game.rules.bidding is Bidding.CALL_GRAB:
        parts = ["called"]
    else:
        parts = []  # a landlord drawn at random (or a puzzle's): nobody bid, the base is 1
    if game.grabs:
        parts.append(f"{game.grabs} grab{'s' if game.grabs > 1 else ''}")
        if game.rules.players == 2:
            parts.append(f"let cards {game.grabs}")
    if game.bombs:
        parts.append(f"{game.bombs} bomb{'s' if game.bombs > 1 else ''}")
    if game.is_over and game.spring and game.rules.spring:
        parts.append("spring")
    return f"x{game.multiplier}" + (": " + ", ".join(parts) if parts else "")


def _result(game: Game) -> str:
    if game.is_void:
        return "void deal: everyone passed"
    side = "landlord wins" if game.winner == game.landlord else "farmers win"
    payoffs = " ".join(f"{p:+d}" for p in game.payoffs())
    return f"{side} (seat {game.winner} out), payoffs {payoffs}"
