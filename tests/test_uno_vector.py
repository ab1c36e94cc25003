"""ddz.uno.VectorGame and ddz.uno.simulate_rounds: n rounds in C, checked against uno.Game."""

from __future__ import annotations

import numpy as np
import pytest

from ddz import uno
from ddz.envs import UnoActionSpace
from ddz.uno.vector import NUM_ACTIONS, check_vector

RULES = {"lombardy": uno.LOMBARDY, "standard": uno.STANDARD}


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", sorted(RULES))
def test_batched_equals_single_step_for_step(players: int, preset: str) -> None:
    finished = check_vector(players, RULES[preset], games=8, steps=600, seed=players)
    assert finished > 0


@pytest.mark.parametrize("players", [3, 7, 10])
def test_other_player_counts_and_points_rewards(players: int) -> None:
    assert check_vector(players, uno.LOMBARDY, games=4, steps=500, seed=9, reward="points") > 0
    rules = uno.LOMBARDY.replace(reshuffle=False, jump_in=False)
    assert check_vector(players, rules, games=4, steps=500, seed=11) > 0


def test_blocked_rounds_reward_nobody() -> None:
    # Without the reshuffle, long random rounds end blocked: every reward 0.
    rules = uno.STANDARD.replace(reshuffle=False)
    vector = uno.VectorGame(32, players=2, rules=rules, seed=4)
    ends = 0
    for _ in range(3000):
        rewards, done = vector.step(vector.sample_legal())
        for row in rewards[done]:
            ends += 1
            assert row.tolist() in ([0.0, 0.0], [1.0, -1.0], [-1.0, 1.0])
    assert ends > 0


def test_space_and_shapes() -> None:
    assert NUM_ACTIONS == UnoActionSpace.SIZE == 77
    vector = uno.VectorGame(5, players=3, seed=1)
    assert vector.num_actions == 77
    assert vector.legal_action_mask().shape == (5, 77)
    assert vector.observations().shape == (5, uno.OBSERVATION_SIZE)
    assert set(vector.current_players.tolist()) <= {0, 1, 2}
    rewards, done = vector.step(vector.sample_legal())
    assert rewards.shape == (5, 3) and rewards.dtype == np.float64 and done.shape == (5,)
    # The first deals are the rounds round_seed deals.
    assert [vector.deal_seed(i) for i in range(5)] == [uno.round_seed(1, i) for i in range(5)]


def test_turn_actions_only() -> None:
    """No pass, no UNO call, no catch is ever legal in the vector: it steps the turn player."""
    vector = uno.VectorGame(16, players=4, rules=uno.LOMBARDY, seed=3)
    space = UnoActionSpace(4)
    for _ in range(300):
        mask = vector.legal_action_mask()
        assert mask.any(axis=1).all()
        assert not mask[:, [space.PASS, space.UNO]].any()
        assert not mask[:, space.CATCH + 1 :].any()  # CATCH + k: k seats on
        vector.step(vector.sample_legal())


def _state(vector: uno.VectorGame) -> tuple[object, ...]:
    return (
        vector.legal_action_mask().tobytes(),
        vector.observations().tobytes(),
        vector.current_players.tobytes(),
        tuple(vector.deal_seed(i) for i in range(vector.n)),
    )


@pytest.mark.parametrize("bad", [0, 63, 68, 76, -1, 77, 10**6])
def test_illegal_action_changes_nothing(bad: int) -> None:
    vector = uno.VectorGame(6, players=4, rules=uno.LOMBARDY, seed=5)
    twin = uno.VectorGame(6, players=4, rules=uno.LOMBARDY, seed=5)
    for _ in range(20):
        actions = vector.sample_legal()
        assert actions.tolist() == twin.sample_legal().tolist()
        vector.step(actions)
        twin.step(actions)
    before = _state(vector)
    actions = vector.sample_legal()
    twin_actions = twin.sample_legal()
    assert actions.tolist() == twin_actions.tolist()
    wrong = actions.copy()
    wrong[3] = bad
    with pytest.raises(ValueError, match="round 3"):
        vector.step(wrong)
    assert _state(vector) == before
    # Nothing changed: both carry on alike.
    for _ in range(50):
        actions = vector.sample_legal()
        assert actions.tolist() == twin.sample_legal().tolist()
        rewards, done = vector.step(actions)
        twin_rewards, twin_done = twin.step(actions)
        assert np.array_equal(rewards, twin_rewards) and np.array_equal(done, twin_done)
    assert _state(vector) == _state(twin)


def test_masked_out_action_is_illegal() -> None:
    vector = uno.VectorGame(8, players=2, rules=uno.STANDARD, seed=6)
    mask = vector.legal_action_mask()
    actions = vector.sample_legal()
    game = int(np.flatnonzero(~mask.all(axis=1))[-1])
    actions[game] = int(np.flatnonzero(~mask[game])[-1])
    before = _state(vector)
    with pytest.raises(ValueError, match=f"round {game}"):
        vector.step(actions)
    assert _state(vector) == before
    with pytest.raises(ValueError, match="one action a round"):
        vector.step(actions[:-1])


def test_arguments() -> None:
    with pytest.raises(ValueError):
        uno.VectorGame(0)
    with pytest.raises(ValueError):
        uno.VectorGame(2, players=1)
    with pytest.raises(ValueError):
        uno.VectorGame(2, players=11)
    with pytest.raises(TypeError):
        uno.VectorGame(2, rules="lombardy")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        uno.VectorGame(2, reward="score")  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        uno.VectorGame(2).deal_seed(2)
    with pytest.raises(ValueError):
        uno.simulate_rounds(-1)
    with pytest.raises(ValueError):
        uno.simulate_rounds(3, threads=0)


def _run(seed: int, steps: int = 400) -> list[bytes]:
    vector = uno.VectorGame(12, players=3, rules=uno.LOMBARDY, seed=seed)
    trace = []
    for _ in range(steps):
        actions = vector.sample_legal()
        rewards, done = vector.step(actions)
        trace += [actions.tobytes(), rewards.tobytes(), done.tobytes()]
    trace.append(vector.observations().tobytes())
    return trace


def test_deterministic() -> None:
    assert _run(7) == _run(7)
    assert _run(7) != _run(8)


def test_simulate_rounds_deterministic_whatever_the_threads() -> None:
    for players, rules in ((2, uno.STANDARD), (4, uno.LOMBARDY)):
        one = uno.simulate_rounds(300, players=players, rules=rules, seed=3)
        assert one == uno.simulate_rounds(300, players=players, rules=rules, seed=3, threads=3)
        parts = [
            uno.simulate_rounds(100, players=players, rules=rules, seed=3, first_round=first)
            for first in (0, 100, 200)
        ]
        for name in ("winners", "blocked", "lengths", "points"):
            joined = np.concatenate([getattr(part, name) for part in parts])
            assert np.array_equal(joined, getattr(one, name))
        assert one != uno.simulate_rounds(300, players=players, rules=rules, seed=4)
        won = one.winners >= 0
        assert (one.blocked == ~won).all()
        assert (one.points[np.flatnonzero(won), one.winners[won]] == 0).all()
        assert (one.lengths > 0).all()


_MASK = (1 << 64) - 1


def _splitmix(state: list[int]) -> int:
    state[0] = (state[0] + 0x9E3779B97F4A7C15) & _MASK
    z = state[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _below(state: list[int], n: int) -> int:
    limit = (_MASK // n) * n
    draw = _splitmix(state)
    while draw >= limit:
        draw = _splitmix(state)
    return draw % n


def _agent_seed(seed: int, index: int) -> int:
    state = [seed ^ ((index * 0xD1B54A32D192ED03) & _MASK) ^ 0x8CB92BA72F3D8DD7]
    return _splitmix(state)


@pytest.mark.parametrize("eager", [False, True])
def test_simulate_rounds_replays_in_python(eager: bool) -> None:
    """Each simulated round is uno.Game(seed=round_seed(seed, i)) played with the random
    turn actions its agent seed draws."""
    players, rules, seed = 3, uno.LOMBARDY, 12
    result = uno.simulate_rounds(6, players=players, rules=rules, seed=seed, eager=eager)
    for index in range(6):
        game = uno.Game(players, seed=uno.round_seed(seed, index), rules=rules)
        rng = [_agent_seed(seed, index)]
        steps = 0
        while not game.is_over:
            turn = [
                a for a in game.legal_actions(game.current_player) if a.kind not in ("uno", "catch")
            ]
            if eager:
                turn = [a for a in turn if a.kind not in ("draw", "keep")] or turn
            game.push(turn[_below(rng, len(turn))])
            steps += 1
        assert result.lengths[index] == steps
        assert result.winners[index] == (-1 if game.winner is None else game.winner)
        assert result.points[index].tolist() == game.points()
