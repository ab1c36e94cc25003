"""Fixed action spaces: every action of a rule set, numbered, and legal-action masks.

Learning code wants a fixed-size output: ``ActionSpace(rules)`` numbers every distinct move
those rules allow (each reading its own move) that fits in the largest hand (the landlord's,
kitty included), and the bidding actions after them:

* index 0: the pass (in play) and the bidding pass (in bidding);
* indices 1 .. M: the moves, grouped by ``MoveType`` in its order, and within a type by
  move code (chain length, then main rank, then cards: ``docs/layout.md``);
* indices M + 1 .. M + 5: ``bid 1``, ``bid 2``, ``bid 3``, ``call``, ``grab``.

The numbering depends only on the rules and the code layout, so it is the same on every
machine and run.

>>> import ddz
>>> space = ddz.ActionSpace(ddz.CLASSIC)
>>> space.size, ddz.CLASSIC.num_actions
(12660, 12660)
>>> space.index(ddz.Move.parse("33")), str(space.action(1)), str(space.action(space.size - 1))
(16, '3', 'grab')
>>> mask = space.mask(ddz.legal_moves("3345", last="4"))
>>> [str(space.action(i)) for i in mask.nonzero()[0]]
['pass', '5']
"""

from __future__ import annotations

import functools
import gzip
from collections.abc import Iterable
from importlib import resources

import numpy as np
import numpy.typing as npt

from ddz._core import moves as _core
from ddz.base.errors import check_integer, check_text, shorten
from ddz.doudizhu.actions import Bid
from ddz.doudizhu.game import Game
from ddz.doudizhu.moves import PASS, Move, MoveLike
from ddz.doudizhu.rules import RLCARD, Rules, action_codes

__all__ = ["BIDDING_ACTIONS", "ActionSpace", "rlcard_action_ids"]

BIDDING_ACTIONS = (Bid("bid", 1), Bid("bid", 2), Bid("bid", 3), Bid("call"), Bid("grab"))
"""The bidding actions at the end of every action space (the pass is index 0)."""


class ActionSpace:
    """Every action of a rule set, numbered (see the module docstring for the order)."""

    def __init__(self, rules: Rules) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"an action space is made of a ddz.Rules, not {shorten(rules)}")
        self.rules = rules
        self.codes: npt.NDArray[np.uint64] = action_codes(rules)
        """The action codes in index order (0 is the pass; read-only)."""
        self.num_moves = len(self.codes) - 1 - len(BIDDING_ACTIONS)
        self._order = np.argsort(self.codes, kind="stable")
        self._sorted = self.codes[self._order]
        # An action space is shared (action_space() caches one per rules) by every game and
        # thread: it holds only arrays nobody writes after this point.
        for array in (self._order, self._sorted):
            array.flags.writeable = False

    @property
    def size(self) -> int:
        """How many actions: the pass, every move, five bidding actions."""
        return len(self.codes)

    def __len__(self) -> int:
        return self.size

    def index(self, action: MoveLike | Bid | int) -> int:
        """The index of an action: a Move, a Bid, their text, or an ``int`` (or numpy
        integer, never a ``bool``), which is an action *code* (``Move.code``, ``Bid.code``,
        ``Game.legal_codes()``). TypeError for another type, ValueError for an action these
        rules do not have."""
        code = _code_of(action)
        position = int(np.searchsorted(self._sorted, np.uint64(code)))
        if position == self.size or int(self._sorted[position]) != code:
            raise ValueError(f"{_text_of(action)} is not in the action space of these rules")
        return int(self._order[position])

    def indices(self, codes: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """The indices of many action codes at once: an integer array (any integer dtype) or
        a sequence of ints. TypeError for floats, bools, text; ValueError if a code is not
        in the space."""
        wanted = _code_array(codes)
        positions = np.searchsorted(self._sorted, wanted)
        found = positions < self.size
        found[found] = self._sorted[positions[found]] == wanted[found]
        if not found.all():
            missing = int(wanted[~found][0])
            raise ValueError(f"action code {missing:#x} is not in the action space of these rules")
        return self._order[positions].astype(np.int64)

    def action(self, index: int) -> Move | Bid:
        """The action at an index (an ``int`` or numpy integer, never a ``bool``): a Move,
        or a Bid for the bidding actions. ValueError outside ``0 .. size - 1``, as for every
        value out of range (``ddz.uno.ActionSpace.action`` too; IndexError until 2026-12-02)."""
        index = check_integer(index, "an action index")
        if not 0 <= index < self.size:
            raise ValueError(f"action index {shorten(index)} is outside 0..{self.size - 1}")
        if index > self.num_moves:
            return BIDDING_ACTIONS[index - self.num_moves - 1]
        return Move.from_code(int(self.codes[index])) if index else PASS

    def mask(self, actions: Iterable[Move | Bid]) -> npt.NDArray[np.bool_]:
        """A bool vector over the space, True at each given action (e.g. the legal ones):
        ``Move`` and ``Bid`` objects (TypeError for anything else: for indices, set
        ``mask[indices] = True``)."""
        if isinstance(actions, (str, bytes)) or not hasattr(actions, "__iter__"):
            raise TypeError(f"mask takes an iterable of Moves and Bids, not {shorten(actions)}")
        mask = np.zeros(self.size, dtype=np.bool_)
        codes = []
        for action in actions:
            if not isinstance(action, (Move, Bid)):
                raise TypeError(f"mask takes Moves and Bids, not {shorten(action)}")
            codes.append(action.code)
        if codes:
            mask[self.indices(np.array(codes, dtype=np.uint64))] = True
        return mask

    def legal_mask(self, game: Game) -> npt.NDArray[np.bool_]:
        """The legal-action mask of a game's player to act (all False once it is over),
        straight from the core: no action objects are built (``Game.legal_action_mask``)."""
        if not isinstance(game, Game):
            raise TypeError(f"legal_mask takes a ddz.Game, not {shorten(game)}")
        if game.rules != self.rules:
            raise ValueError("the game plays other rules than this action space")
        return game.legal_action_mask()

    def __repr__(self) -> str:
        return f"<ActionSpace {self.size} actions>"


@functools.lru_cache(maxsize=32)
def action_space(rules: Rules) -> ActionSpace:
    """The action space of a rule set, built once."""
    return ActionSpace(rules)


def _code_of(action: object) -> int:
    if isinstance(action, (Move, Bid)):
        return action.code
    if isinstance(action, str):
        text = check_text(action, "an action").strip()
        words = text.split()
        try:
            if words and words[0].lower() in ("bid", "call", "grab"):
                return Bid.parse(text).code
            return Move.parse(text).code
        except ValueError as error:
            raise ValueError(f"{shorten(action)} is no action: {error}") from None
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(
            f"an action is a Move, a Bid, their text or an action code, not {shorten(action)}"
        )
    return check_integer(action, "an action code", 0, (1 << 64) - 1)


def _text_of(action: object) -> str:
    if isinstance(action, (Move, Bid)):
        return str(action)
    if isinstance(action, str):
        return shorten(action)
    return f"code {int(action):#x}"  # type: ignore[call-overload]


def _code_array(codes: npt.ArrayLike) -> npt.NDArray[np.uint64]:
    """Action codes as a flat uint64 array: integers only (numpy's any integer dtype, or
    Python ints, each checked to lie in 0 .. 2**64 - 1), never floats, bools or text,
    which numpy would otherwise cast without a word."""
    if isinstance(codes, (str, bytes)):
        raise TypeError(f"action codes are integers, not {shorten(codes)}")
    array = np.asarray(codes)
    if array.size == 0:
        return np.zeros(0, dtype=np.uint64)
    if array.dtype == object:
        values = [check_integer(x, "an action code", 0, (1 << 64) - 1) for x in array.flat]
        return np.array(values, dtype=np.uint64)
    if array.dtype.kind not in "iu":
        raise TypeError(f"action codes are integers, not an array of {array.dtype}")
    if array.dtype.kind == "i" and (array < 0).any():
        raise ValueError(f"action code {int(array[array < 0].flat[0])} is negative")
    return np.ascontiguousarray(array, dtype=np.uint64).reshape(-1)


@functools.lru_cache(maxsize=1)
def _rlcard_actions() -> tuple[str, ...]:
    data = resources.files("ddz").joinpath("data/rlcard_actions.txt.gz").read_bytes()
    return tuple(gzip.decompress(data).decode().split())


def rlcard_action_ids() -> npt.NDArray[np.int64]:
    """For each index of ``ActionSpace(RLCARD)``, RLCard 1.2.0's action id (its 27,472-action
    table: 27,471 moves and the pass, id 27,471); -1 for the bidding actions, which RLCard
    does not have. RLCard's table ships with ddz (``ddz/data``, MIT licensed, from RLCard).

    >>> ids = rlcard_action_ids()
    >>> space = ActionSpace(RLCARD)
    >>> len(ids) == space.size, int(ids[0]), int(ids[space.index("3")])
    (True, 27471, 0)
    """
    return _rlcard_action_ids().copy()


_RLCARD_SYMBOLS = "3456789TJQKA2BR"
"""RLCard's symbol of each of ddz's ranks, low to high (B, R: the black and red jokers)."""


@functools.lru_cache(maxsize=1)
def _rlcard_action_ids() -> npt.NDArray[np.int64]:
    """:func:`rlcard_action_ids`, made once a process (read-only). Under ``RLCARD`` every
    multiset of cards is one move, so a move's cards name its index."""
    space = action_space(RLCARD)
    masks = (np.asarray(space.codes, dtype=np.uint64) & np.uint64(_core.CARDS_MASK)).tolist()
    index_of = {mask: index for index, mask in enumerate(masks) if mask}  # not pass, not bids
    if len(index_of) != sum(1 for mask in masks if mask):
        raise AssertionError("two moves of RLCARD's action space play the same cards")
    ids = np.full(space.size, -1, dtype=np.int64)
    for rlcard_id, text in enumerate(_rlcard_actions()):
        if text == "pass":
            ids[0] = rlcard_id
            continue
        # RLCard's text is one symbol a card (B, R the jokers): its counts in ddz's rank
        # order, packed (Cards.parse, which reads every notation, takes far longer)
        mask = _core.pack_counts([text.count(symbol) for symbol in _RLCARD_SYMBOLS])
        ids[index_of[mask]] = rlcard_id
    ids.flags.writeable = False
    return ids
