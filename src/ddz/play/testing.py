"""Conformance checks for users who build on ddz's environments.

>>> import ddz
>>> from ddz.play.testing import check_env
>>> check_env(ddz.CLASSIC, games=4, steps=100, seed=1) > 0
True
"""

from __future__ import annotations

import numpy as np

from ddz.doudizhu.action_space import action_space
from ddz.doudizhu.game import Game
from ddz.doudizhu.rules import CLASSIC, Rules
from ddz.play.simulation import VectorGame

__all__ = ["check_env"]


def check_env(rules: Rules = CLASSIC, *, games: int = 8, steps: int = 400, seed: int = 0) -> int:
    """Random play, single and batched, agree: a ``VectorGame`` of ``games`` games and as many
    ``ddz.Game`` objects take the same random legal actions for ``steps`` steps, and at every
    step their legal actions (indices, packed and dense masks), observations (the core's
    vector with its history; its base part equal to ``Observation.encode()``), players to
    act, state keys, rewards and game ends must be equal. Raises AssertionError naming the
    first difference; returns the number of games that ran to their end (each followed by
    its next deal)."""
    vector = VectorGame(games, rules=rules, seed=seed)
    space = action_space(rules)
    singles = [Game(rules, seed=vector.deal_seed(i)) for i in range(games)]
    finished = 0
    for step in range(steps):
        masks = vector.legal_action_mask()
        bits = vector.packed_action_mask()
        indices, offsets = vector.legal_indices()
        observations = vector.observations()
        players = vector.current_players
        keys = vector.keys
        for i, game in enumerate(singles):
            where = f"step {step}, game {i} (deal seed {vector.deal_seed(i)})"
            player = game.current_player
            assert player is not None and players[i] == player, f"{where}: player to act"
            assert int(keys[i]) == game.key, f"{where}: state key"
            assert np.array_equal(masks[i], game.legal_action_mask()), f"{where}: legal actions"
            unpacked = np.unpackbits(bits[i], count=space.size, bitorder="little")
            assert np.array_equal(unpacked.astype(bool), masks[i]), f"{where}: packed mask"
            assert np.array_equal(indices[offsets[i] : offsets[i + 1]], game.legal_indices()), (
                f"{where}: legal indices"
            )
            assert np.array_equal(observations[i], game.observation_vector(player)), (
                f"{where}: observation"
            )
            assert np.array_equal(
                observations[i][: len(game.observation(player).encode())],
                game.observation(player, history=False).encode(),
            ), f"{where}: observation's base part"
        actions = vector.sample_legal()
        assert masks[np.arange(games), actions].all(), f"step {step}: an illegal sample"
        rewards, done = vector.step(actions)
        for i, game in enumerate(singles):
            game.push(space.action(int(actions[i])))
            where = f"step {step}, game {i}"
            assert game.is_over == bool(done[i]), f"{where}: game end"
            if done[i]:
                assert rewards[i].tolist() == game.payoffs(), f"{where}: payoffs"
                finished += 1
                singles[i] = Game(rules, seed=vector.deal_seed(i))
            else:
                assert not rewards[i].any(), f"{where}: a reward before the end"
    return finished
