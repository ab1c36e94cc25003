"""PettingZoo AEC environments for every ddz game: all seats are agents.

Needs the ``rl`` extra (PettingZoo and Gymnasium: ``pip install ".[rl]"`` in a checkout).
Without it this module still imports, but making an environment raises ImportError saying
what to install.

``env(game, **options)`` is the environment as PettingZoo's own games ship it (wrapped to
enforce the call order: PettingZoo's ``OrderEnforcingWrapper``, subclassed so that the
attributes a step reads are found without a failed lookup); ``raw_env`` the class itself.
``game`` is one of ``ddz.envs.GAMES``: ``"classic"``, ``"two-player"``, ``"uno-landlord"``,
``"uno"``. The options, each keyword-only:

* ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns the table as text, every hand
  shown) or ``"human"`` (prints it after every step);
* ``illegal_action``: ``"raise"`` (the default: :class:`ddz.IllegalMoveError`, nothing
  changes) or ``"lose"`` (the game ends, the offender gets ``illegal_reward``);
* ``illegal_reward``: -1 by default;
* ``max_steps``: truncate an episode after this many decisions (default: never);
* ``rules``: replaces the game's preset rules (``ddz.Rules``; ``ddz.uno.Rules`` for UNO);
* UNO only: ``players`` (2..10, default 4) and ``reward`` (``"win"`` or ``"points"``).

Agents are ``"player_0"``, ``"player_1"``, ..., one per seat. Each observes
``{"observation": int8 vector, "action_mask": int8 vector}`` (the mask a
``ddz.envs.ActionMask``, whose nonzero entries numpy finds fast), the mask all 0 for an agent
with nothing to decide; the action space is ``Discrete(num_actions)``. Rewards come at the
end of the game; then every agent is terminated and steps ``None`` once, as PettingZoo
requires. How the games become turns (UNO's out-of-turn actions included), the rewards,
illegal actions and seeds are set out once, in :mod:`ddz.envs`; docs/environments.md has
examples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ddz.envs import IllegalAction, UnoReward, agent_name, make_adapter, render_table

__all__ = ["env", "raw_env"]

_MISSING: ImportError | None = None
if TYPE_CHECKING:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
else:
    try:
        import gymnasium
        from gymnasium import spaces
        from pettingzoo import AECEnv
        from pettingzoo.utils import wrappers
    except ImportError as error:  # the rl extra is not installed
        _MISSING = error
        AECEnv = object


def _require() -> None:
    if _MISSING is not None:
        raise ImportError(
            "ddz.envs.pettingzoo needs PettingZoo and Gymnasium: pip install pettingzoo gymnasium "
            f"({_MISSING})"
        ) from _MISSING


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the class
    """A ddz game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo's class attribute)
        "render_modes": ["ansi", "human"],
        "name": "ddz_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "classic",
        *,
        render_mode: str | None = None,
        illegal_action: IllegalAction = "raise",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        rules: Any = None,
        players: int | None = None,
        reward: UnoReward | None = None,
    ) -> None:
        _require()
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")
        self.adapter = make_adapter(
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
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"ddz_{adapter.name.replace('-', '_')}_v0"}
        self.possible_agents: list[str] = [agent_name(s) for s in range(adapter.num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {agent: self._observation_space() for agent in self._seats}
        self.action_spaces = {agent: spaces.Discrete(adapter.num_actions) for agent in self._seats}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def _observation_space(self) -> spaces.Dict:
        adapter = self.adapter
        low, high = adapter.observation_low, adapter.observation_high
        return spaces.Dict(
            {
                "observation": spaces.Box(low, high, shape=low.shape, dtype=np.int8),
                "action_mask": spaces.Box(0, 1, shape=(adapter.num_actions,), dtype=np.int8),
            }
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``seed`` deals what the ddz game of that seed deals; without one,
        the seed after the last (see :mod:`ddz.envs`). ``options`` is unused."""
        self.adapter.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        to_act = self.adapter.to_act
        assert to_act is not None, "a new game has a seat to act"
        self.agent_selection = self.possible_agents[to_act]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seats[agent]
        return {
            "observation": self.adapter.observation(seat),
            "action_mask": self.adapter.action_mask(seat),
        }

    def step(self, action: Any) -> None:
        """The selected agent takes ``action``, an index of the action space (``None`` for an
        agent that is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        adapter = self.adapter
        adapter.step(action)  # raises, with illegal_action="raise", before anything changes
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        to_act = adapter.to_act  # None exactly when the game is over or truncated
        if to_act is None:
            if adapter.is_over:
                for seat, value in enumerate(adapter.rewards()):
                    self.rewards[self.possible_agents[seat]] = value
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.truncations = dict.fromkeys(self.agents, True)
            if adapter.forfeit is not None:
                self.infos[agent] = {"illegal_action": adapter.forfeit_reason}
        else:
            self.agent_selection = self.possible_agents[to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), or printed (``"human"``)."""
        return render_table(self.adapter, self.render_mode, gymnasium.logger.warn)

    def close(self) -> None:
        """Nothing to release."""


def env(game: str = "classic", **options: Any) -> Any:
    """The environment of ``game`` (see the module docstring for the options), wrapped as
    PettingZoo wraps its own games: the order of calls is enforced."""
    _require()
    return _OrderEnforcing(raw_env(game, **options))


def _forward(name: str, *, checked: bool = True) -> Any:
    """A property doing what ``OrderEnforcingWrapper.__getattr__`` does for ``name``: the
    same AttributeError before reset (when PettingZoo's wrapper checks the name), else the
    wrapped environment's attribute."""

    def get(self: Any) -> Any:
        if checked and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"The wrapped environment's ``{name}``.")


if _MISSING is None:

    class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
        """PettingZoo's OrderEnforcingWrapper with the attributes a step loop reads as
        properties. The wrapper answers them in ``__getattr__``, which Python calls only
        after the ordinary lookup has failed (an AttributeError raised and caught inside):
        about a microsecond each, and ``agent_iter``, ``last()`` and ``step`` read eight of
        them a step. A property is found at once and answers the same."""

        agents = _forward("agents")
        agent_selection = _forward("agent_selection")
        rewards = _forward("rewards")
        terminations = _forward("terminations")
        truncations = _forward("truncations")
        infos = _forward("infos")
        _cumulative_rewards = _forward("_cumulative_rewards", checked=False)

        def __str__(self) -> str:
            return str(self.env)  # as PettingZoo's wrapper prints itself: the env's name
