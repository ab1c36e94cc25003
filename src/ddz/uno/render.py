"""UNO rounds as text: the table ``str(game)`` prints, for everyone or from one seat.

:func:`text` draws a round (or one player's :class:`~ddz.uno.Observation`): a header
(rules, players, ply, whose turn), the top card and the colour to match, the draw and
discard piles, the direction, a penalty owed, then one row per player (cards left, the hand
or ``hidden``) and the last actions. ``seat=None`` shows every hand (``str(game)``);
``seat=k`` what player ``k`` may see.

>>> from ddz import uno
>>> game = uno.Game(players=3, seed=14)
>>> _ = game.step("play B6")
>>> print(text(game, seat=1))
UNO, lombardy rules, 3 players: ply 1, player 1 to act (you are player 1)
top     B6, colour blue; turns 1 -> 2 -> 0
piles   draw 86, discard 2
  seat  cards  hand
  0         6  hidden
> 1         7  R8 R8 Y+2 G3 G7 G8 G9
  2         7  hidden
last    0: play B6
"""

from __future__ import annotations

from collections.abc import Sequence

from ddz.uno.actions import Action
from ddz.uno.cards import Card
from ddz.uno.game import Game
from ddz.uno.observation import Observation
from ddz.uno.rules import PRESETS, Rules

__all__ = ["narrate", "rules_name", "text"]


def rules_name(rules: Rules) -> str:
    """The preset's name (``lombardy``, ``standard``) or ``custom``."""
    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")


def narrate(game: Game, *, last: int | None = None) -> list[str]:
    """The round's actions as text (the ``last`` ones; all for None), each with the cards it
    made anyone draw: a draw says how many (``2: draw 4 cards`` under a +4), a catch or a
    wrong jump-in who drew (``1: catch 3 (player 3 draws 2)``).

    >>> from ddz import uno
    >>> game = uno.Game(players=3, seed=14)
    >>> for action in ["play B6", "draw"]:
    ...     _ = game.step(action)
    >>> narrate(game)
    ['0: play B6', '1: draw 1 card']
    """
    history = game.history
    count = len(history) if last is None else max(0, min(last, len(history)))
    probe = game.copy()
    for _ in range(count):
        probe.undo()
    lines = []
    for action in history[len(history) - count :]:
        before = probe.hand_sizes
        probe.step(action)
        after = probe.hand_sizes
        drew = [(p, after[p] - before[p]) for p in range(len(after)) if after[p] > before[p]]
        lines.append(_told(action, drew))
    return lines


def _told(action: Action, drew: list[tuple[int, int]]) -> str:
    line = str(action)
    others = []
    for player, count in drew:
        cards = f"{count} card{'s' if count != 1 else ''}"
        if action.kind == "draw" and player == action.player:
            line += f" {cards}"
        else:
            who = "draws" if player == action.player else f"player {player} draws"
            others.append(f"{who} {count}")
    return line + (f" ({'; '.join(others)})" if others else "")


def text(game: Game | Observation, *, seat: int | None = None, last: int = 4) -> str:
    """The round as text: every hand (``seat=None``) or what ``seat`` may see, with the
    ``last`` most recent actions. An observation is drawn from its own seat (its history is
    not part of it, so it shows no actions)."""
    if isinstance(game, Observation):
        seen = game
        hands: list[Sequence[Card] | None] = [
            seen.hand if player == seen.player else None for player in range(seen.players)
        ]
        lines = [f"UNO, {seen.players} players: {_turn(seen.current_player, seen.player)}"]
        lines += _piles(
            seen.top,
            seen.colour,
            seen.direction,
            seen.players,
            seen.draw_pile_size,
            len(seen.discard_pile),
            seen.pending,
            seen.pending_card,
            seen.current_player,
        )
        lines += _rows(seen.hand_sizes, hands, seen.current_player, seen.uno_player)
        lines += _over(seen.is_over, seen.winner, blocked=seen.is_over and seen.winner is None)
        return "\n".join(lines)
    players = game.players
    if seat is not None and seat not in range(players):
        raise ValueError(f"seat must be 0..{players - 1} or None (every hand), not {seat!r}")
    turn = _turn(game.current_player, seat)
    lines = [f"UNO, {rules_name(game.rules)} rules, {players} players: ply {game.ply}, {turn}"]
    lines += _piles(
        game.top,
        game.colour,
        game.direction,
        players,
        len(game.draw_pile),
        len(game.discard_pile),
        game.pending,
        game.pending_card,
        game.current_player,
    )
    shown = [game.hand(p) if seat is None or p == seat else None for p in range(players)]
    lines += _rows(game.hand_sizes, shown, game.current_player, game.uno_player)
    if game.drawn is not None:
        lines.append(f"drawn   {game.drawn}: play it or keep it")
    history = narrate(game, last=last) if last > 0 else []
    if history:
        lines.append("last    " + ", ".join(history))
    lines += _over(game.is_over, game.winner, blocked=game.is_blocked)
    if game.is_over:
        lines.append("points  " + " ".join(str(p) for p in game.points()))
    return "\n".join(lines)


def _turn(current: int | None, seat: int | None) -> str:
    turn = "round over" if current is None else f"player {current} to act"
    return turn + ("" if seat is None else f" (you are player {seat})")


def _piles(
    top: Card,
    colour: str | None,
    direction: int,
    players: int,
    draw: int,
    discard: int,
    pending: int,
    pending_card: Card | None,
    current: int | None,
) -> list[str]:
    colour_text = f"colour {colour}" if colour is not None else "colour to choose"
    top_line = f"top     {top}, {colour_text}"
    if current is not None:
        order = [(current + direction * step) % players for step in range(min(players, 3))]
        top_line += "; turns " + " -> ".join(map(str, order)) + (" ..." if players > 3 else "")
    lines = [top_line, f"piles   draw {draw}, discard {discard}"]
    if pending:
        wild = pending_card is not None and pending_card.is_wild
        stack = "Wild Draw Four" if wild else "Draw Two"
        lines.append(f"penalty +{pending}: player {current} stacks a {stack} or draws")
    lines.append("  seat  cards  hand")
    return lines


def _rows(
    sizes: Sequence[int],
    hands: Sequence[Sequence[Card] | None],
    current: int | None,
    uno_player: int | None,
) -> list[str]:
    rows = []
    for player, size in enumerate(sizes):
        marker = ">" if player == current else " "
        hand = hands[player]
        cards = "hidden" if hand is None else " ".join(map(str, hand)) or "-"
        note = "  (one card, no UNO called)" if player == uno_player else ""
        rows.append(f"{marker} {player:<5} {size:>5}  {cards}{note}")
    return rows


def _over(is_over: bool, winner: int | None, *, blocked: bool) -> list[str]:
    if not is_over:
        return []
    return ["result  blocked: nobody went out" if blocked else f"result  player {winner} went out"]
