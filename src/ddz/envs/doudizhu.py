"""The Dou Dizhu games as an :class:`~ddz.envs.base.Adapter`: observations and legal
actions straight from the core (``Game.observation_vector``, ``Game.legal_indices``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ddz.doudizhu import render
from ddz.doudizhu.action_space import ActionSpace, action_space
from ddz.doudizhu.game import Game
from ddz.doudizhu.observation import HISTORY, observation_bounds
from ddz.doudizhu.rules import CLASSIC, VARIANTS, Rules
from ddz.envs.base import ActionMask, Adapter, IllegalAction, Vector
from ddz.play import agents

__all__ = ["PRESETS", "DouDizhuAdapter", "observation_bounds"]

PRESETS = {variant.name: variant.rules for variant in VARIANTS if variant.environment}
"""The Dou Dizhu games by name (the presets ``ddz.rules.VARIANTS`` marks for the environments)."""


class DouDizhuAdapter(Adapter):
    """Dou Dizhu under ``rules``: seats take turns, actions index ``ddz.ActionSpace(rules)``;
    the observation is ``Game.observation_vector(seat, history=history)``.

    >>> import ddz
    >>> adapter = DouDizhuAdapter(ddz.TWO_PLAYER)
    >>> adapter.reset(seed=3)
    >>> adapter.name, adapter.num_players, adapter.game.seed, adapter.observation(0).shape
    ('two-player', 2, 3, (441,))
    """

    game: Game

    def __init__(
        self,
        rules: Rules = CLASSIC,
        *,
        history: int = HISTORY,
        illegal_action: IllegalAction = "raise",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"the Dou Dizhu games take a ddz.Rules, not {rules!r}")
        super().__init__(
            illegal_action=illegal_action, illegal_reward=illegal_reward, max_steps=max_steps
        )
        self.rules = rules
        self.history = history
        self.name = next((name for name, preset in PRESETS.items() if preset == rules), "custom")
        self.space: ActionSpace = action_space(rules)
        self.num_players = rules.players
        self.num_actions = self.space.size
        self.observation_low, self.observation_high = observation_bounds(rules, history)
        self.game = Game(rules, seed=0)
        self._codes = self.space.codes
        self._cached_mask: Vector | None = None

    def _deal(self, seed: int) -> None:
        self.game = Game(self.rules, seed=seed)
        self._cached_mask = None

    def _to_act(self) -> int | None:
        return self.game.current_player

    def _game_over(self) -> bool:
        return self.game.is_over

    def _final_rewards(self) -> list[float]:
        return [float(payoff) for payoff in self.game.payoffs()]

    def _mask(self, seat: int) -> Vector:
        if self._cached_mask is None:
            mask = np.zeros(self.num_actions, dtype=np.int8).view(ActionMask)
            mask[self.game.legal_indices()] = 1
            self._cached_mask = mask
        return self._cached_mask

    def _apply(self, seat: int, index: int) -> None:
        self.game.push_code(int(self._codes[index]))
        self._cached_mask = None

    def observation(self, seat: int) -> Vector:
        return self.game.observation_vector(seat, history=self.history)

    def action_text(self, index: int, seat: int | None = None) -> str:
        return str(self.space.action(index))

    def make_agent(self, name: str, seed: int | None = None) -> Any:
        return agents.make_agent(name, seed)

    def agent_action(self, agent: Any, seat: int) -> int:
        return self.space.index(agents.choose(agent, self.game))

    def render(self) -> str:
        lines = [f"{self.name}: " + render.text(self.game)]
        if self.forfeit is not None:
            lines.append(f"forfeit seat {self.forfeit} played an illegal action")
        return "\n".join(lines)
