"""What every game of ddz is: the outer methods the games share, written once.

Each game (``ddz.doudizhu.game.Game``, ``ddz.uno.game.Game``) keeps its state in a native core
object (``_core``) and inherits from :class:`GameBase` the methods that read that core the same
way for every game, with the same return types: the legal actions' core codes as a uint64
array, the state key and bytes, copies, and the JSON record with or without a seat's view.
Observations inherit their JSON form from :class:`ObservationBase` the same way.

A game subclass provides ``copy``, ``view(seat)`` (the record one seat may see) and
``_record()`` (the record that replays); an observation provides ``to_dict`` and
``from_dict``. ``docs/architecture.md`` walks through adding a game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ddz.base import fields

__all__ = ["ActionList", "GameBase", "ObservationBase"]

_Game = TypeVar("_Game", bound="GameBase")
_Observation = TypeVar("_Observation", bound="ObservationBase")
_Action = TypeVar("_Action")


class ActionList(list[_Action]):
    """What ``legal_actions()`` returns: a plain ``list`` of the actions (indexing, ``len``,
    iteration, slicing, equality with lists: all the list's own), whose ``in`` also takes
    text: ``"3" in game.legal_actions()`` asks whether the action the text names in this
    position is listed. Text that names no action is not in it (no error). Each game says
    how it reads text (:meth:`_named`)."""

    __slots__ = ()

    def __contains__(self, action: object) -> bool:
        if list.__contains__(self, action):
            return True
        return any(list.__contains__(self, named) for named in self._named(action))

    def _named(self, action: object) -> Iterable[object]:
        """The actions ``action`` (text, or an action written another way) may name here;
        nothing if it names none."""
        return ()


class GameBase:
    """The outer methods of a game whose state is a native core object, ``_core``."""

    _core: Any

    # --- provided by each game ---------------------------------------------------------------

    def copy(self: _Game) -> _Game:
        """An independent copy, history and undo included."""
        raise NotImplementedError

    def view(self, seat: int) -> dict[str, Any]:
        """The record as ``seat`` may see it, JSON-ready (no hidden card, no seed)."""
        raise NotImplementedError

    def _record(self) -> dict[str, Any]:
        """The record that replays the game exactly, JSON-ready."""
        raise NotImplementedError

    # --- shared ------------------------------------------------------------------------------

    def legal_codes(self) -> npt.NDArray[np.uint64]:
        """The legal actions' core codes, in the order of ``legal_actions()``, as a new
        uint64 array: no action objects are built."""
        return np.asarray(self._core.legal_codes(), dtype=np.uint64)

    @property
    def key(self) -> int:
        """The state key: a 64-bit integer, equal for equal states and, with near certainty,
        different for different ones, kept up to date on every push and undo (Zobrist
        hashing; ``docs/positions.md``, "The state key")."""
        return int(self._core.key)

    def state_bytes(self) -> bytes:
        """The core state as bytes: two games with equal bytes are in the same state."""
        return bytes(self._core.state_bytes())

    def __copy__(self: _Game) -> _Game:
        return self.copy()

    def __deepcopy__(self: _Game, memo: dict[int, Any]) -> _Game:
        return self.copy()  # everything but the core state is immutable

    def to_json(self, *, seat: int | None = None) -> str:
        """The game as JSON that ``from_json`` replays exactly. With ``seat``: the record
        that seat may see (``view``), what a server sends it; that one does not replay."""
        if seat is not None:
            return json.dumps(self.view(seat))
        return json.dumps(self._record())


class ObservationBase:
    """The JSON form of an observation, from its ``to_dict``/``from_dict``."""

    _json_name = "an observation"  # what from_json's errors call the text

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (cards in notation) that ``from_dict`` reads back."""
        raise NotImplementedError

    @classmethod
    def from_dict(cls: type[_Observation], data: dict[str, Any]) -> _Observation:
        """The observation ``to_dict`` wrote; ``ddz.errors.RecordError`` names a bad field."""
        raise NotImplementedError

    def to_json(self) -> str:
        """This observation as JSON, what a server sends one player."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls: type[_Observation], text: str | bytes) -> _Observation:
        """The observation ``to_json`` wrote; ``ddz.errors.RecordError`` if it is not one
        (not text, not JSON, too long, nested too deeply, a field at fault)."""
        return cls.from_dict(fields.load_object(text, cls._json_name))
