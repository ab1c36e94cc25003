"""One round of UNO as an :class:`~ddz.envs.base.Adapter`, a moment at a time (the
out-of-turn rules are in ``ddz.envs``' docstring); actions index ``ddz.uno.ActionSpace``."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np

from ddz import uno
from ddz.envs.base import ActionMask, Adapter, IllegalAction, UnoReward, Vector
from ddz.uno import agents as uno_agents
from ddz.uno import render as uno_render
from ddz.uno.actions import ActionSpace as UnoActionSpace

__all__ = ["UnoActionSpace", "UnoAdapter"]


def _uno_bounds() -> tuple[Vector, Vector]:
    copies = collections.Counter(card.kind for card in uno.DECK)
    most = max(copies.values())
    deck = len(uno.DECK)
    pending = max(2 * copies[12], 4 * copies[53])  # a whole stack of Draw Twos or of +4s
    highs = {
        "hand": most,
        "discard": most,
        "hand_sizes": deck,
        "pending": pending,
        "draw_pile": deck,
    }
    low: list[int] = []
    high: list[int] = []
    for field, width in uno.OBSERVATION_LAYOUT:
        low += [-1 if field == "direction" else 0] * width
        high += [highs.get(field, 1)] * width
    return np.array(low, dtype=np.int8), np.array(high, dtype=np.int8)


class UnoAdapter(Adapter):
    """One round of UNO for ``players`` under ``rules``, a moment at a time (see the module
    docstring), actions indexing :class:`UnoActionSpace`.

    >>> adapter = UnoAdapter(players=3)
    >>> adapter.reset(seed=14)
    >>> legal = adapter.action_mask(0).nonzero()[0]
    >>> adapter.to_act, [adapter.action_text(int(index), 0) for index in legal]
    (0, ['play R4', 'play B6', 'draw'])
    """

    game: uno.Game

    def __init__(
        self,
        players: int = 4,
        rules: uno.Rules = uno.LOMBARDY,
        *,
        reward: UnoReward = "win",
        illegal_action: IllegalAction = "raise",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
    ) -> None:
        if not isinstance(rules, uno.Rules):
            raise TypeError(f"the UNO game takes a ddz.uno.Rules, not {rules!r}")
        if reward not in ("win", "points"):
            raise ValueError(f"reward is 'win' or 'points', not {reward!r}")
        super().__init__(
            illegal_action=illegal_action, illegal_reward=illegal_reward, max_steps=max_steps
        )
        self.name = "uno"
        self.space = UnoActionSpace(players)
        self.rules = rules
        self.reward: UnoReward = reward
        self.num_players = players
        self.num_actions = self.space.size
        self.observation_low, self.observation_high = _uno_bounds()
        self.game = uno.Game(players, seed=0, rules=rules)
        self._options: dict[int, list[uno.Action]] = {}
        self._queue: list[int] = []
        self._intents: list[uno.Action] = []
        self._cached_mask: Vector | None = None

    def _deal(self, seed: int) -> None:
        self.game = uno.Game(self.num_players, seed=seed, rules=self.rules)
        self._begin_moment()

    def _begin_moment(self) -> None:
        """Ask everyone with a legal action, the player to act first, then in turn order."""
        game = self.game
        options: dict[int, list[uno.Action]] = {}
        for action in game.legal_actions():
            options.setdefault(action.player, []).append(action)
        current = game.current_player
        if current is None:
            current = 0
        self._options = options
        self._queue = sorted(
            options, key=lambda seat: ((seat - current) * game.direction) % self.num_players
        )
        self._intents = []
        self._cached_mask = None

    def _to_act(self) -> int | None:
        return self._queue[0] if self._queue else None

    def _game_over(self) -> bool:
        return self.game.is_over

    def _final_rewards(self) -> list[float]:
        game = self.game
        if self.reward == "points":
            return [-float(points) for points in game.points()]
        if game.winner is None:
            return [0.0] * self.num_players
        rewards = [-1.0 / (self.num_players - 1)] * self.num_players
        rewards[game.winner] = 1.0
        return rewards

    def _mask(self, seat: int) -> Vector:
        if self._cached_mask is None:
            passing = seat != self.game.current_player
            mask = self.space.mask(self._options[seat], passing=passing)
            self._cached_mask = mask.view(ActionMask)
        return self._cached_mask

    def _apply(self, seat: int, index: int) -> None:
        action = self.space.action(index, seat)
        if action is not None:
            self._intents.append(action)
        self._queue.pop(0)
        self._cached_mask = None
        if not self._queue:
            self.game.resolve(self._intents)
            self._begin_moment()

    def observation(self, seat: int) -> Vector:
        # the core's vector: equal to observation(seat).encode(), without building the
        # Observation (about 13 us against 210 here)
        return self.game.observation_vector(seat)

    def action_text(self, index: int, seat: int | None = None) -> str:
        if self.space.CATCH + self.num_players <= index < self.space.size:
            return f"catch the player {index - self.space.CATCH} seats on: there is none"
        action = self.space.action(index, 0 if seat is None else seat)
        return "pass" if action is None else action.text

    def make_agent(self, name: str, seed: int | None = None) -> Any:
        return uno.make_agent(name, seed)

    def agent_action(self, agent: Any, seat: int) -> int:
        choice = uno_agents.choose(agent, self.game, seat, self._options[seat])
        if choice is None:
            if seat == self.game.current_player:
                raise ValueError(f"agent {agent!r} did nothing on its turn")
            return self.space.PASS
        return self.space.index(choice)

    def render(self) -> str:
        lines = [uno_render.text(self.game)]
        if self.to_act is not None and self.to_act != self.game.current_player:
            lines.append(f"deciding player {self.to_act} (out of turn)")
        if self.forfeit is not None:
            lines.append(f"forfeit player {self.forfeit} played an illegal action")
        return "\n".join(lines)
