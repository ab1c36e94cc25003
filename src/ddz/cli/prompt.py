"""The move prompt of the terminal games (``python -m ddz play``, ``python -m ddz solve --play``).

:func:`ask_move` asks the person for the move of the player to act until one is legal, and
answers on the way what every such prompt knows: an empty line asks again, ``quit`` or
``exit`` (not ``q``: that is a queen) and the end of input leave with a goodbye, the legal
words (``?``) list the legal moves, and a move that is not legal says why and asks again. A
command's own words (``hint``, ``undo``, ...) come back to it to answer.

>>> import ddz
>>> game = ddz.Game(seed=7)
>>> typed = iter(["", "?", "bid 4", "hint", "bid 3"])
>>> ask_move(game, prompt="> ", read=lambda _: next(typed), write=print, words=("hint",))
legal (4): pass  bid 1  bid 2  bid 3
Not legal: 'bid 4' is no bidding action (...). Try again ('?' lists your legal moves).
'hint'
>>> ask_move(game, prompt="> ", read=lambda _: next(typed), write=print)
ActionRecord(ply=0, player=2, phase='bidding', action=Bid('bid', 3))
>>> ask_move(game, prompt="> ", read=lambda _: "quit", write=print) is None
Bye.
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ddz.base.errors import IllegalMoveError
from ddz.doudizhu.actions import ActionRecord
from ddz.doudizhu.game import Game
from ddz.doudizhu.render import wrap_items

__all__ = ["QUIT", "ask_move"]

QUIT = ("quit", "exit")
"""The words that leave a game (``q`` is no such word: it is a queen)."""


def ask_move(
    game: Game,
    *,
    prompt: str,
    read: Callable[[str], str],
    write: Callable[[str], None],
    legal_words: Collection[str] = ("?",),
    words: Collection[str] = (),
) -> ActionRecord | str | None:
    """Ask (``read(prompt)``, one line) until the player to act takes a legal move, and take
    it (``game.step``): its record. One of ``words`` typed (in any case) comes back as
    typed in lower case, for the caller to answer; None when the person leaves (``quit``,
    ``exit`` or the end of input: EOFError), after writing ``Bye.``. ``legal_words`` list
    the legal moves; what ``write`` prints is one line or a wrapped block."""
    while True:
        try:
            text = read(prompt).strip()
        except EOFError:
            write("")
            write("Bye.")
            return None
        command = text.lower()
        if not command:
            continue
        if command in QUIT:
            write("Bye.")
            return None
        if command in legal_words:
            legal = [str(action) for action in game.legal_actions()]
            write(wrap_items(f"legal ({len(legal)}):", legal))
            continue
        if command in words:
            return command
        try:
            return game.step(text)
        except IllegalMoveError as error:
            write(f"Not legal: {error}. Try again ('?' lists your legal moves).")
