"""What every environment shares: the :class:`Adapter` that turns a game into one decision
at a time (actions as indices of a fixed action space), the options' types and the seat
names. The rules of the environments are written down once, in ``ddz.envs``' docstring.
"""

from __future__ import annotations

import abc
import operator
import random
from collections.abc import Callable
from typing import Any, Literal, SupportsIndex, TypeAlias, cast

import numpy as np
import numpy.typing as npt

from ddz.base.errors import IllegalMoveError, check_integer, check_number
from ddz.doudizhu.game import Game
from ddz.doudizhu.rules import VARIANTS
from ddz.uno.game import Game as UnoGame

__all__ = [
    "GAMES",
    "ActionMask",
    "Adapter",
    "IllegalAction",
    "UnoReward",
    "Vector",
    "agent_name",
    "render_table",
]

GAMES = (*(variant.name for variant in VARIANTS if variant.environment), "uno")
"""The games every environment plays, by name: the Dou Dizhu presets ``ddz.rules.VARIANTS``
marks for the environments, then UNO."""

IllegalAction: TypeAlias = Literal["raise", "lose"]
"""What an illegal action does (see the module docstring)."""

UnoReward: TypeAlias = Literal["win", "points"]
"""How a round of UNO is rewarded (see the module docstring)."""

Vector: TypeAlias = npt.NDArray[np.int8]


class ActionMask(np.ndarray[Any, np.dtype[np.int8]]):
    """The environments' action mask: an int8 numpy array (``isinstance(mask, np.ndarray)``,
    ``mask.dtype == np.int8``, the same values), whose ``nonzero`` reads it as booleans.

    numpy finds the nonzero entries of an int8 array one element at a time, and those of a
    bool array with its fast path: over 12,660 entries (classic Dou Dizhu's action space)
    about 17 µs against 2. ``np.flatnonzero(mask)``, ``np.nonzero(mask)``, ``np.where(mask)``
    and ``np.argwhere(mask)`` all call ``mask.nonzero()``; here it compares the bytes with 0
    (a bool array, so any value a caller wrote in is read as numpy reads it) and takes the
    fast path. Comparisons (``mask == 1``, ``mask != 0``) give plain bool arrays, as they
    do for an int8 array: Gymnasium's ``Discrete.sample(mask)`` compares the mask and then
    reduces the results, which a subclass would slow by about a fifth. Slices, copies and
    arithmetic on a mask are masks.

    >>> mask = np.array([0, 1, 0, 0, 1], dtype=np.int8).view(ActionMask)
    >>> np.flatnonzero(mask).tolist(), mask.dtype.name, isinstance(mask, np.ndarray)
    ([1, 4], 'int8', True)
    """

    __slots__ = ()

    def __eq__(self, other: object) -> Any:
        return self.view(np.ndarray) == other

    def __ne__(self, other: object) -> Any:
        return self.view(np.ndarray) != other

    __hash__ = None  # as ndarray's: not hashable

    def nonzero(self) -> tuple[npt.NDArray[np.intp], ...]:
        plain: np.ndarray[Any, Any] = self.view(np.ndarray)
        if plain.dtype != np.bool_:
            plain = plain != 0
        return plain.nonzero()


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat: ``player_0``, ``player_1``, ..."""
    return f"player_{seat}"


class Adapter(abc.ABC):
    """A game as one decision at a time: who decides, what they see, which action indices
    are legal, and the rewards at the end. Subclasses: :class:`DouDizhuAdapter` and
    :class:`UnoAdapter`; :func:`make_adapter` makes one by game name."""

    name: str
    """The game's name (one of :data:`GAMES`, or ``"custom"`` for other Dou Dizhu rules)."""
    game: Game | UnoGame
    """The game being played (a new one on every reset): read it for anything the
    observation leaves out."""
    num_players: int
    num_actions: int
    observation_low: Vector
    observation_high: Vector

    def __init__(
        self,
        *,
        illegal_action: IllegalAction = "raise",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
    ) -> None:
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action is 'raise' or 'lose', not {illegal_action!r}")
        if max_steps is not None:
            max_steps = check_integer(max_steps, "max_steps", 1)
        self.illegal_action: IllegalAction = illegal_action
        self.illegal_reward = check_number(illegal_reward, "illegal_reward")
        self.max_steps = max_steps
        self.seed: int | None = None
        """The seed of the game being played (None before the first reset)."""
        self.steps = 0
        """Decisions taken in this game."""
        self.forfeit: int | None = None
        """The seat whose illegal action ended the game (``illegal_action="lose"``)."""
        self.forfeit_reason: str | None = None
        """Why that action was illegal."""
        self._next_seed: int | None = None

    # --- the episode -------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> None:
        """Deal a new game: ``seed``, else the seed after the last one, else a random one."""
        if seed is None:
            seed = self._next_seed
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        seed = operator.index(seed) % (1 << 64)
        self.seed = seed
        self._next_seed = (seed + 1) % (1 << 64)
        self.steps = 0
        self.forfeit = self.forfeit_reason = None
        self._deal(seed)

    def step(self, action: object) -> None:
        """The seat in :attr:`to_act` takes the action with this index (see the module
        docstring for illegal actions)."""
        seat = self.to_act
        if seat is None:
            raise IllegalMoveError(
                "reset before stepping" if self.seed is None else "the episode is over: reset it"
            )
        # hasattr on the type is what isinstance(action, SupportsIndex) checks, at a
        # hundredth of its cost (a runtime protocol check takes microseconds)
        index = (
            operator.index(cast(SupportsIndex, action))
            if hasattr(type(action), "__index__")
            else None
        )
        reason = self._why_illegal(seat, action, index)
        if reason is not None:
            if self.illegal_action == "raise":
                raise IllegalMoveError(f"{agent_name(seat)}: {reason}")
            self.forfeit, self.forfeit_reason = seat, reason
            return
        assert index is not None
        self.steps += 1
        self._apply(seat, index)

    @property
    def to_act(self) -> int | None:
        """The seat that decides now; None once the episode is over (or truncated)."""
        if self.seed is None or self.forfeit is not None or self.is_truncated:
            return None
        return self._to_act()

    @property
    def is_over(self) -> bool:
        """The game is over: someone won, a void deal or blocked round, or a forfeit."""
        return self.forfeit is not None or self._game_over()

    @property
    def is_truncated(self) -> bool:
        """``max_steps`` decisions were taken and the game is not over."""
        return (
            self.max_steps is not None
            and self.steps >= self.max_steps
            and self.forfeit is None
            and not self._game_over()
        )

    def rewards(self) -> list[float]:
        """Each seat's reward: 0 until the game is over (see the module docstring)."""
        if self.forfeit is not None:
            rewards = [0.0] * self.num_players
            rewards[self.forfeit] = self.illegal_reward
            return rewards
        if not self._game_over():
            return [0.0] * self.num_players
        return self._final_rewards()

    def action_mask(self, seat: int) -> ActionMask:
        """1 for each legal action of ``seat`` (a new :class:`ActionMask`, an int8 array);
        all 0 if it has no decision."""
        if seat != self.to_act:
            return np.zeros(self.num_actions, dtype=np.int8).view(ActionMask)
        mask = self._mask(seat)
        if type(mask) is not ActionMask:  # the adapters' own masks are already masks
            mask = mask.view(ActionMask)
        return cast(ActionMask, mask.copy())

    # --- what subclasses provide -------------------------------------------------------

    @abc.abstractmethod
    def observation(self, seat: int) -> Vector:
        """What ``seat`` may know, encoded (a new array)."""

    @abc.abstractmethod
    def action_text(self, index: int, seat: int | None = None) -> str:
        """An action index in words (``seat``: who takes it, where that matters)."""

    @abc.abstractmethod
    def render(self) -> str:
        """The whole table as text, every hand shown."""

    @abc.abstractmethod
    def make_agent(self, name: str, seed: int | None = None) -> Any:
        """A ddz agent for this game by name (``"random"``, ``"greedy"``)."""

    @abc.abstractmethod
    def agent_action(self, agent: Any, seat: int) -> int:
        """The action index ``agent`` chooses for ``seat``, which is to act."""

    @abc.abstractmethod
    def _deal(self, seed: int) -> None: ...

    @abc.abstractmethod
    def _to_act(self) -> int | None: ...

    @abc.abstractmethod
    def _game_over(self) -> bool: ...

    @abc.abstractmethod
    def _final_rewards(self) -> list[float]: ...

    @abc.abstractmethod
    def _mask(self, seat: int) -> Vector:
        """The legal mask of the seat to act (may be cached: callers copy it)."""

    @abc.abstractmethod
    def _apply(self, seat: int, index: int) -> None:
        """Take a legal action."""

    def _why_illegal(self, seat: int, action: object, index: int | None) -> str | None:
        if index is None:
            return f"an action is an integer index, not {action!r}"
        if not 0 <= index < self.num_actions:
            return f"action {index} is outside 0..{self.num_actions - 1}"
        if not self._mask(seat)[index]:
            return f"action {index} ({self.action_text(index, seat)}) is not legal now"
        return None


def render_table(
    adapter: Adapter, render_mode: str | None, warn: Callable[[str], None]
) -> str | None:
    """What both environments' ``render()`` does: the table as text (``"ansi"``), printed
    (``"human"``), or a warning when the environment has no render mode."""
    if render_mode is None:
        warn("render() was called without a render_mode: nothing to do")
        return None
    text = adapter.render()
    if render_mode == "ansi":
        return text
    print(text)
    return None
