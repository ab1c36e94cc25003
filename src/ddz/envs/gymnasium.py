"""A Gymnasium environment for every ddz game: one seat learns, ddz agents play the others.

Needs the ``rl`` extra (Gymnasium: ``pip install ".[rl]"`` in a checkout). Without it this
module still imports, but making an environment raises ImportError saying what to install.
Importing it registers the games with Gymnasium: ``gymnasium.make("ddz/Classic-v0")``,
``"ddz/TwoPlayer-v0"``, ``"ddz/UnoLandlord-v0"`` and ``"ddz/Uno-v0"``, each taking the
options below.

``SingleAgentEnv(game, seat=0, opponents="random", ...)``: the learner plays ``seat``; the
other seats are ddz agents that act inside :meth:`~SingleAgentEnv.reset` and
:meth:`~SingleAgentEnv.step` until the learner has a decision or the game is over.

* ``opponents``: ``"random"`` or ``"greedy"`` for every other seat, or a sequence with one
  entry per other seat in seat order, each an agent name or an agent object (for Dou
  Dizhu anything with ``act(observation)``, as in ``ddz.play.agents``; for UNO anything with
  ``act(observation, actions)``, as in ``ddz.uno.agents``). Agents made by name are made
  again at every reset, seeded from the game's seed, so ``reset(seed=s)`` replays exactly;
  agent objects are used as they are.
* ``illegal_action``: ``"lose"`` (the default here: Gymnasium has no action masks, and
  learners that sample the whole action space must not crash) ends the episode with reward
  ``illegal_reward`` (default -1) and ``info["illegal_action"]`` saying why; ``"raise"``
  raises :class:`ddz.IllegalMoveError` and changes nothing.
* ``render_mode`` (``"ansi"``, ``"human"``), ``max_steps``, ``rules``, and UNO's
  ``players`` and ``reward``: as in :mod:`ddz.envs.pettingzoo`.

The observation is ``{"observation": int8 vector, "action_mask": int8 vector}`` and the action
space ``Discrete(num_actions)``, the same as the PettingZoo environment's. The reward is 0
until the episode ends, then the learner's reward (:mod:`ddz.envs`); ``terminated`` at the
end of the game, ``truncated`` after ``max_steps`` decisions (all seats' decisions count).
Stepping a finished episode raises :class:`ddz.IllegalMoveError`: reset it. A deal that ends
before the learner has decided anything (a void deal, say) is not shown: reset deals the
next seed. docs/environments.md has examples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import numpy as np
import numpy.typing as npt

from ddz.envs import Adapter, IllegalAction, UnoReward, make_adapter, render_table

__all__ = ["ENV_IDS", "SingleAgentEnv"]

Observation: TypeAlias = dict[str, npt.NDArray[np.int8]]

_MISSING: ImportError | None = None
if TYPE_CHECKING:
    import gymnasium
    from gymnasium import spaces

    _Base: TypeAlias = gymnasium.Env[Observation, np.int64]
else:
    try:
        import gymnasium
        from gymnasium import spaces

        _Base = gymnasium.Env
    except ImportError as error:  # the rl extra is not installed
        _MISSING = error
        _Base = object

ENV_IDS = {
    "classic": "ddz/Classic-v0",
    "two-player": "ddz/TwoPlayer-v0",
    "uno-landlord": "ddz/UnoLandlord-v0",
    "uno": "ddz/Uno-v0",
}
"""The Gymnasium ids this module registers, by game."""

_MAX_DEALS = 1000  # deals tried in one reset for one the learner plays a part in


class SingleAgentEnv(_Base):
    """One seat of a ddz game as a Gymnasium environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str = "classic",
        *,
        seat: int = 0,
        opponents: str | Sequence[Any] = "random",
        render_mode: str | None = None,
        illegal_action: IllegalAction = "lose",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        rules: Any = None,
        players: int | None = None,
        reward: UnoReward | None = None,
    ) -> None:
        if _MISSING is not None:
            raise ImportError(
                f"ddz.envs.gymnasium needs Gymnasium: pip install gymnasium ({_MISSING})"
            ) from _MISSING
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")
        self.adapter: Adapter = make_adapter(
            game,
            rules=rules,
            players=players,
            reward=reward,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            max_steps=max_steps,
        )
        """The game behind the environment (``adapter.game`` is the ddz game itself)."""
        adapter = self.adapter
        if seat not in range(adapter.num_players):
            raise ValueError(f"seat is 0..{adapter.num_players - 1}, not {seat!r}")
        self.seat = seat
        others = [s for s in range(adapter.num_players) if s != seat]
        if isinstance(opponents, str):
            opponents = [opponents] * len(others)
        if len(opponents) != len(others):
            raise ValueError(f"opponents: one for each of the seats {others}, not {opponents!r}")
        self._opponent_specs = dict(zip(others, opponents, strict=True))
        for spec in opponents:
            if isinstance(spec, str):
                adapter.make_agent(spec)  # ValueError for an unknown name, now
        self.opponents: dict[int, Any] = {}
        """The agent in each other seat, for the current episode."""
        self.render_mode = render_mode
        low, high = adapter.observation_low, adapter.observation_high
        self.observation_space = cast(
            "spaces.Space[Observation]",
            spaces.Dict(
                {
                    "observation": spaces.Box(low, high, shape=low.shape, dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, shape=(adapter.num_actions,), dtype=np.int8),
                }
            ),
        )
        self.action_space = spaces.Discrete(adapter.num_actions)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game (``seed``: the ddz game of that seed; without one, the seed after
        the last) and let the opponents play up to the learner's first decision.
        ``options`` is unused."""
        super().reset(seed=seed)
        adapter = self.adapter
        for _ in range(_MAX_DEALS):
            adapter.reset(seed)
            seed = None  # a deal the learner plays no part in: the next seed
            assert adapter.seed is not None
            self.opponents = {
                other: adapter.make_agent(spec, adapter.seed * 16 + other)
                if isinstance(spec, str)
                else spec
                for other, spec in self._opponent_specs.items()
            }
            self._play_opponents()
            if adapter.to_act == self.seat:
                break
        else:
            raise RuntimeError(f"{_MAX_DEALS} deals in a row ended before seat {self.seat} acted")
        if self.render_mode == "human":
            self.render()
        return self._observation(), {"seed": adapter.seed, "seat": self.seat}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The learner takes ``action`` (an index of the action space); the opponents play
        on until the learner's next decision or the end of the episode."""
        adapter = self.adapter
        # Between calls only the learner has a decision; none once the episode is over, and
        # then the adapter raises.
        adapter.step(action)
        self._play_opponents()
        info: dict[str, Any] = {}
        terminated = adapter.is_over
        if adapter.forfeit is not None:
            info["illegal_action"] = adapter.forfeit_reason
        if terminated:
            info["rewards"] = adapter.rewards()
        reward = adapter.rewards()[self.seat] if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, adapter.is_truncated, info

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), or printed (``"human"``)."""
        return render_table(self.adapter, self.render_mode, gymnasium.logger.warn)

    def _observation(self) -> Observation:
        return {
            "observation": self.adapter.observation(self.seat),
            "action_mask": self.adapter.action_mask(self.seat),
        }

    def _play_opponents(self) -> None:
        adapter = self.adapter
        while (seat := adapter.to_act) is not None and seat != self.seat:
            adapter.step(adapter.agent_action(self.opponents[seat], seat))


if _MISSING is None:
    for _game, _id in ENV_IDS.items():
        if _id not in gymnasium.registry:
            gymnasium.register(
                id=_id, entry_point="ddz.envs.gymnasium:SingleAgentEnv", kwargs={"game": _game}
            )
