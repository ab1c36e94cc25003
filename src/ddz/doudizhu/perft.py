"""Perft: the number of nodes of a game tree, depth by depth, to check a rules engine.

Chess engines check their move generators this way: walk every legal action to a depth,
count the positions, and compare with counts another engine (or an older version) found.
A finished game has no children. :func:`divide` breaks the deepest count down by the first
action, so that a mismatch points at the subtree that differs. ddz's own counts, checked
against an independent walk of the rule book, are in the repository's
``tests/data/perft.json``; ``python -m ddz perft`` prints them for any deal.

Both walks push and undo on the game itself and leave it exactly as it was. They work for
``ddz.Game`` and ``ddz.uno.Game`` (whose legal actions include out-of-turn ones).

>>> import ddz
>>> game = ddz.Game(seed=1, first_player=0)
>>> perft(game, 3)
[4, 65, 747]
>>> divide(game, 2)
{'pass': 4, 'bid 1': 3, 'bid 2': 2, 'bid 3': 56}
>>> sum(divide(game, 3).values())
747
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["divide", "perft"]

MAX_DEPTH = 64
"""The deepest walk :func:`perft` takes (a guard against typing a seed for a depth)."""


class Walkable(Protocol):
    """What a perft walk needs of a game: its legal actions, push and undo."""

    def legal_actions(self) -> Sequence[Any]: ...

    def push(self, action: Any) -> None: ...

    def undo(self) -> Any: ...


def _check_depth(depth: object) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"a perft depth is an integer 1..{MAX_DEPTH}, not {depth!r}")
    return depth


def perft(game: Walkable, depth: int) -> list[int]:
    """The number of nodes at depths 1..``depth`` below the game's position (a node is
    counted at every depth it reaches); the game is left as it was."""
    depth = _check_depth(depth)
    counts = [0] * depth
    legal_actions, push, undo = game.legal_actions, game.push, game.undo

    def walk(level: int) -> None:
        actions = legal_actions()
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:
                push(action)
                walk(level + 1)
                undo()

    walk(0)
    return counts


def divide(game: Walkable, depth: int) -> dict[str, int]:
    """The nodes at ``depth`` below the position under each legal action, keyed by the
    action's text, in the order of ``legal_actions()``; their sum is ``perft(game, depth)[-1]``.
    """
    depth = _check_depth(depth)
    result: dict[str, int] = {}
    for action in game.legal_actions():
        game.push(action)
        result[str(action)] = perft(game, depth - 1)[-1] if depth > 1 else 1
        game.undo()
    return result
