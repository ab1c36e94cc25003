"""A batched Gymnasium environment: ``n`` Dou Dizhu games stepped together in C.

Needs the ``rl`` extra (``pip install ddz[rl]``). ``DouDizhuVectorEnv(num_envs, game=...)``
is a ``gymnasium.vector.VectorEnv`` backed by one :class:`ddz.VectorGame`: every call takes one
action per game and returns every game's next observation, computed in the core, with no
Python loop over the games. It is made for self-play: in each game the seat to act is the
one deciding, whatever seat that is (``info["current_player"]`` says which).

* Observations: an (n x ``observation_size(history)``) int8 array, each game seen by its
  player to act (``ddz.observation_layout``; ``history`` past moves, default 15).
* Actions: one index of ``ddz.ActionSpace(rules)`` a game (``MultiDiscrete``).
* Legal actions, in ``info`` as ``mask=`` chooses: ``"dense"`` (the default):
  ``info["action_mask"]``, an (n x actions) bool array; ``"packed"``:
  ``info["packed_action_mask"]``, one bit an action (``VectorGame.packed_action_mask``);
  ``"indices"``: ``info["legal_indices"]`` and ``info["legal_offsets"]``, game ``i``'s legal
  indices being ``legal_indices[legal_offsets[i]:legal_offsets[i + 1]]`` (the cheapest).
  The dense mask is the environment's own read-only array, rewritten by the next call
  (copy it to keep it): it is updated touching only the legal entries.
* Rewards: a game's reward is 0 until it ends; on the step that ends it, the payoff of the
  seat that acted (its side won). ``info["payoffs"]`` holds every seat's payoffs (n x
  players; zero-sum), ``terminated`` flags the games that ended, ``truncated`` is all
  False (a Dou Dizhu game always ends; a void deal ends with payoffs 0).
* Resets: a game that ends is dealt again at once (Gymnasium's same-step autoreset): the
  observation returned with ``terminated`` is the new deal's first. The finished game's
  last observation is not returned (nobody decides in it). Deals are seeded: game ``i``'s
  deals follow ``ddz.VectorGame(n, rules=rules, seed=seed)``; ``reset(seed=s)`` starts
  every game again from seed ``s``.

>>> from ddz.envs.vector import DouDizhuVectorEnv
>>> envs = DouDizhuVectorEnv(4, seed=1)
>>> observations, info = envs.reset(seed=1)
>>> observations.shape, info["action_mask"].shape, info["current_player"].tolist()
((4, 441), (4, 12660), [1, 2, 2, 2])
>>> actions = envs.games.sample_legal()            # any legal index a game
>>> observations, rewards, terminated, truncated, info = envs.step(actions)
>>> rewards.tolist(), terminated.tolist()
([0.0, 0.0, 0.0, 0.0], [False, False, False, False])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from ddz.doudizhu.observation import HISTORY, observation_bounds, observation_size
from ddz.doudizhu.rules import Rules
from ddz.envs.base import GAMES
from ddz.envs.doudizhu import PRESETS
from ddz.play.simulation import VectorGame

__all__ = ["DouDizhuVectorEnv", "MaskFormat"]

MaskFormat: TypeAlias = Literal["dense", "packed", "indices"]
"""How ``info`` carries the legal actions (see the module docstring)."""

_MISSING: ImportError | None = None
if TYPE_CHECKING:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode

    _Base: TypeAlias = gymnasium.vector.VectorEnv[
        npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[Any]
    ]
else:
    try:
        import gymnasium
        from gymnasium import spaces
        from gymnasium.vector import AutoresetMode

        _Base = gymnasium.vector.VectorEnv
    except ImportError as error:  # the rl extra is not installed
        _MISSING = error
        _Base = object


class DouDizhuVectorEnv(_Base):
    """``num_envs`` Dou Dizhu games as one Gymnasium vector environment (module docstring)."""

    metadata: dict[str, Any] = {}  # noqa: RUF012  (set below, once Gymnasium is imported)

    def __init__(
        self,
        num_envs: int = 256,
        *,
        game: str = "classic",
        rules: Rules | None = None,
        seed: int = 0,
        history: int = HISTORY,
        mask: MaskFormat = "dense",
    ) -> None:
        if _MISSING is not None:
            raise ImportError(
                f"ddz.envs.vector needs Gymnasium: pip install 'ddz[rl]' ({_MISSING})"
            ) from _MISSING
        if game not in PRESETS:
            names = ", ".join(name for name in GAMES if name in PRESETS)
            raise ValueError(f"no Dou Dizhu game {game!r}; the games are: {names}")
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"the Dou Dizhu games take a ddz.Rules, not {rules!r}")
        if mask not in ("dense", "packed", "indices"):
            raise ValueError(f"mask is 'dense', 'packed' or 'indices', not {mask!r}")
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        self.rules = PRESETS[game] if rules is None else rules
        self.history = history
        self.mask_format: MaskFormat = mask
        self.seed = seed
        """The seed the games were last dealt from."""
        self.games = VectorGame(num_envs, rules=self.rules, seed=seed, history=history)
        """The games behind the environment (read it for anything ``info`` leaves out)."""
        self.num_envs = num_envs
        self.num_players = self.rules.players
        self.num_actions = self.games.num_actions
        low, high = observation_bounds(self.rules, history)
        self.single_observation_space = spaces.Box(
            low, high, shape=(observation_size(history),), dtype=np.int8
        )
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = spaces.Box(
            np.broadcast_to(low, (num_envs, len(low))),
            np.broadcast_to(high, (num_envs, len(high))),
            dtype=np.int8,
        )
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.num_actions))

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.int8], dict[str, Any]]:
        """Deal every game again: from ``seed`` when given (one seed for the whole vector),
        else from the seed the vector was made with."""
        if isinstance(seed, list):
            raise ValueError("the games share one seed: give an integer")
        if seed is not None:
            self.seed = seed
        self.games = VectorGame(
            self.num_envs, rules=self.rules, seed=self.seed, history=self.history
        )
        return self.games.observations(), self._info(None)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.int8], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]
    ]:
        """One action index a game (an illegal one raises ``ValueError`` naming the game, and
        nothing changes)."""
        acting = self.games.current_players
        payoffs, done = self.games.step(actions)
        rewards = payoffs[np.arange(self.num_envs), acting].astype(np.float64)
        observations = self.games.observations()
        return (
            observations,
            rewards,
            done,
            np.zeros(self.num_envs, dtype=np.bool_),
            self._info(payoffs),
        )

    def _info(self, payoffs: npt.NDArray[np.int64] | None) -> dict[str, Any]:
        info: dict[str, Any] = {"current_player": self.games.current_players}
        if payoffs is not None:
            info["payoffs"] = payoffs
        if self.mask_format == "dense":
            info["action_mask"] = self.games.legal_action_mask(copy=False)
        elif self.mask_format == "packed":
            info["packed_action_mask"] = self.games.packed_action_mask()
        else:
            info["legal_indices"], info["legal_offsets"] = self.games.legal_indices()
        return info
