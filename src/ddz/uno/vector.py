"""Many UNO rounds at once, in C: a vector of rounds stepped together, and whole random rounds
across threads.

``VectorGame`` holds ``n`` rounds in C arrays and steps them all with one call (numpy in,
numpy out), dealing each round's next deal when it ends; ``simulate_rounds`` plays whole
rounds with random agents in the core, across threads. Both act for the *turn* player only:
the actions are the turn actions of the player to act (plays, draw, keep, the starting
colour), indexed as ``ddz.uno.ActionSpace`` indexes them; out-of-turn actions (jump-ins,
UNO calls, catches) and the pass are left out. Rounds still play to their end.

>>> from ddz import uno
>>> rounds = uno.VectorGame(4, players=3, rules=uno.LOMBARDY, seed=2)
>>> rounds.legal_action_mask().shape, rounds.observations().shape
((4, 77), (4, 267))
>>> rewards, done = rounds.step(rounds.sample_legal())
>>> rewards.shape, done.dtype
((4, 3), dtype('bool'))
>>> result = uno.simulate_rounds(100, players=2, seed=1, threads=2)
>>> result == uno.simulate_rounds(100, players=2, seed=1), result.points.shape
(True, (100, 2))
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ddz._core import uno as _core
from ddz.base.errors import check_integer, check_seed, shorten
from ddz.base.fanout import ArrayResult, CoreVector, run_split
from ddz.uno.actions import ActionSpace
from ddz.uno.game import Game
from ddz.uno.observation import OBSERVATION_SIZE
from ddz.uno.rules import LOMBARDY, Rules, check_players

__all__ = [
    "MAX_ROUNDS",
    "MAX_THREADS",
    "NUM_ACTIONS",
    "RoundsResult",
    "VectorGame",
    "check_vector",
    "round_seed",
    "simulate_rounds",
]

NUM_ACTIONS: int = _core.NUM_INDICES_
"""The size of the action space: ``ddz.uno.ActionSpace.SIZE`` (77)."""

MAX_ROUNDS: int = _core.MAX_ROUNDS_
"""The most rounds one ``VectorGame`` holds (2**22, about 3.7 GB of round states)."""

MAX_THREADS = 256
"""The most threads ``simulate_rounds`` starts."""


def round_seed(seed: int, index: int) -> int:
    """The deal seed of round ``index`` of a ``simulate_rounds`` run seeded with ``seed``
    (and of round ``index`` of a ``VectorGame``'s first deals):
    ``uno.Game(players, seed=round_seed(seed, index), rules=rules)`` deals that round."""
    return int(_core.round_seed_(check_seed(seed), check_integer(index, "index", 0, 2**64 - 1)))


def _check(players: int, rules: Rules) -> int:
    players = check_players(players)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules are a ddz.uno.Rules, not {shorten(rules)}")
    return players


class VectorGame(CoreVector):
    """``n`` UNO rounds of ``players`` players under ``rules``, in C arrays, stepped together.

    Round ``i`` starts as ``uno.Game(players, seed=vector.deal_seed(i), rules=rules)`` (the
    dealer is the last seat, so seat 0 plays first), and each step acts for the player to
    act in every round:

    * ``legal_action_mask()``: an (n x 77) bool array over ``ddz.uno.ActionSpace``: the
      turn actions of the player to act (``Game.legal_actions(current)`` without UNO calls,
      catches and jump-ins, which are out-of-turn actions; no pass).
    * ``step(actions)``: one action index a round. Returns ``(rewards, done)``: rewards an
      (n x players) float64 array, zeros except on the step a round ends; done an n bool
      array. A round that ends is dealt again at once (auto-reset): every round always has a
      player to act, and ``deal_seed(i)`` tells the new deal's seed (one per round and
      episode, from ``seed``).
    * Rewards (``reward=``, as the environments' ``"win"`` and ``"points"``): ``"win"`` gives
      the player who went out +1 and every other player ``-1 / (players - 1)`` (0 for
      everyone in a blocked round); ``"points"`` gives every player minus the golf value of
      the cards left in their hand.
    * Illegal actions are defined once: if any action is not a legal turn action in its
      round, ``step`` raises ``ValueError`` naming the round, and no round changes.
    * ``observations()``: an (n x ``OBSERVATION_SIZE``) int8 array, each round seen by its
      player to act (``Observation.encode()``'s layout).
    * ``sample_legal()``: one uniformly random legal action index a round, drawn in C.

    ``n`` is 1..``MAX_ROUNDS``; ``seed`` an integer ``0 <= seed < 2**64``. One vector may be
    used from several threads: a lock serialises its calls (each returns new arrays, never a
    shared buffer). ``copy.copy``, ``copy.deepcopy`` and ``pickle`` give an independent
    vector in the same state (rounds, episode counts, sampling generator).
    """

    def __init__(
        self,
        n: int,
        *,
        players: int = 4,
        rules: Rules = LOMBARDY,
        seed: int = 0,
        reward: Literal["win", "points"] = "win",
    ) -> None:
        players = _check(players, rules)
        n = check_integer(n, "n (rounds)", 1, MAX_ROUNDS)
        seed = check_seed(seed)
        if not isinstance(reward, str) or reward not in ("win", "points"):
            raise ValueError(f"reward is 'win' or 'points', not {shorten(reward)}")
        self.rules = rules
        self.players = players
        self.n = n
        self._observation_size = OBSERVATION_SIZE
        self.reward = reward
        self._lock = threading.RLock()
        self._core: Any = _core.UnoVector(
            rules.core_flags, players, players - 1, n, seed, reward == "points"
        )

    def copy(self) -> VectorGame:
        """An independent vector in the same state."""
        import pickle

        with self._lock:
            core = pickle.loads(pickle.dumps(self._core))
        return VectorGame._restore(self.rules, self.players, self.n, self.reward, core)

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> VectorGame:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        with self._lock:
            return (
                VectorGame._restore,
                (self.rules, self.players, self.n, self.reward, self._core),
            )

    @staticmethod
    def _restore(
        rules: Rules, players: int, n: int, reward: Literal["win", "points"], core: Any
    ) -> VectorGame:
        vector = object.__new__(VectorGame)
        vector.rules = rules
        vector.players = players
        vector.n = n
        vector._observation_size = OBSERVATION_SIZE
        vector.reward = reward
        vector._lock = threading.RLock()
        vector._core = core
        return vector

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """Each round's legal turn actions, one row a round (a new array each call)."""
        mask = np.zeros((self.n, NUM_ACTIONS), dtype=np.bool_)
        with self._lock:
            self._core.legal_action_mask(mask.view(np.uint8))
        return mask

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """Apply one action index a round: ``(rewards, done)`` (see the class docstring).
        ``actions`` is anything numpy reads as n integers (a list, an integer array of any
        integer dtype); floats, booleans and text are refused with TypeError, other shapes
        with ValueError."""
        array = np.asarray(actions)
        if array.dtype.kind not in "iu":
            raise TypeError(f"actions are integers, not an array of {array.dtype}")
        chosen = np.ascontiguousarray(array, dtype=np.int64).reshape(-1)
        if array.ndim != 1 or len(chosen) != self.n:
            raise ValueError(f"step takes one action a round ({self.n}), not shape {array.shape}")
        rewards = np.zeros((self.n, self.players), dtype=np.float64)
        done = np.zeros(self.n, dtype=np.bool_)
        with self._lock:
            self._core.step(chosen, rewards, done.view(np.uint8))
        return rewards, done

    def sample_legal(self) -> npt.NDArray[np.int64]:
        with self._lock:
            return super().sample_legal()

    def observations(self) -> npt.NDArray[np.int8]:
        with self._lock:
            return super().observations()

    @property
    def current_players(self) -> npt.NDArray[np.int8]:
        with self._lock:
            return super().current_players

    @property
    def keys(self) -> npt.NDArray[np.uint64]:
        with self._lock:
            return super().keys

    def deal_seed(self, game: int) -> int:
        game = check_integer(game, "game")
        if not 0 <= game < self.n:
            raise IndexError(f"no round {game} in a vector of {self.n}")
        with self._lock:
            return super().deal_seed(game)


@dataclasses.dataclass(frozen=True, eq=False)
class RoundsResult(ArrayResult):
    """What ``simulate_rounds`` returns: one row a round. ``winners`` (-1 for a blocked
    round), ``blocked``, ``lengths`` (the actions taken) and ``points`` (n x players: each
    hand's golf value at the end; 0 for the player who went out)."""

    winners: npt.NDArray[np.int8]
    blocked: npt.NDArray[np.bool_]
    lengths: npt.NDArray[np.int64]
    points: npt.NDArray[np.int64]


def simulate_rounds(
    n: int,
    *,
    players: int = 4,
    rules: Rules = LOMBARDY,
    seed: int = 0,
    threads: int = 1,
    eager: bool = False,
    first_round: int = 0,
) -> RoundsResult:
    """Play ``n`` complete rounds with random agents entirely in C, on ``threads`` threads.
    Round i is ``uno.Game(players, seed=round_seed(seed, i), rules=rules)`` played with
    random turn actions (uniform over the legal turn actions, as ``VectorGame.sample_legal``;
    or ``eager``: never drawing or keeping while a card can be played, RLCard's policy); no
    out-of-turn actions. The same seed gives the same results whatever the number of
    threads; ``first_round`` plays rounds ``first_round .. first_round + n - 1`` of the run.
    """
    players = _check(players, rules)
    n = check_integer(n, "n (rounds)", 0)
    threads = check_integer(threads, "threads", 1, MAX_THREADS)
    first_round = check_integer(first_round, "first_round", 0, 2**62)
    seed = check_seed(seed)
    winners = np.zeros(n, dtype=np.int8)
    blocked = np.zeros(n, dtype=np.bool_)
    lengths = np.zeros(n, dtype=np.int64)
    points = np.zeros((n, players), dtype=np.int64)

    def run(start: int, stop: int) -> None:
        _core.simulate_rounds_(
            rules.core_flags,
            players,
            players - 1,
            seed,
            first_round,
            start,
            stop,
            eager,
            winners,
            blocked.view(np.uint8),
            lengths,
            points,
        )

    run_split(n, threads, run)
    return RoundsResult(winners, blocked, lengths, points)


def check_vector(
    players: int = 4,
    rules: Rules = LOMBARDY,
    *,
    games: int = 8,
    steps: int = 400,
    seed: int = 0,
    reward: Literal["win", "points"] = "win",
) -> int:
    """Random play, single and batched, agree: a ``VectorGame`` of ``games`` rounds and as
    many ``uno.Game`` objects take the same random legal actions for ``steps`` steps, and at
    every step their legal-action masks (over ``ddz.uno.ActionSpace``), observations,
    players to act, state keys, rewards and round ends must be equal. Raises AssertionError
    naming the first difference; returns the number of rounds that ran to their end
    (``ddz.play.testing.check_env`` for UNO).

    >>> check_vector(2, games=8, steps=400, seed=1)
    3
    """

    vector = VectorGame(games, players=players, rules=rules, seed=seed, reward=reward)
    space = ActionSpace(players)
    singles = [Game(players, seed=vector.deal_seed(i), rules=rules) for i in range(games)]
    finished = 0
    for step in range(steps):
        masks = vector.legal_action_mask()
        observations = vector.observations()
        current = vector.current_players
        keys = vector.keys
        for i, game in enumerate(singles):
            where = f"step {step}, round {i} (deal seed {vector.deal_seed(i)})"
            player = game.current_player
            assert player is not None and current[i] == player, f"{where}: player to act"
            assert int(keys[i]) == game.key, f"{where}: state key"
            turn = [a for a in game.legal_actions(player) if a.kind not in ("uno", "catch")]
            assert np.array_equal(masks[i], space.mask(turn).astype(bool)), (
                f"{where}: legal actions"
            )
            assert np.array_equal(observations[i], game.observation(player).encode()), (
                f"{where}: observation"
            )
        actions = vector.sample_legal()
        assert masks[np.arange(games), actions].all(), f"step {step}: an illegal sample"
        rewards, done = vector.step(actions)
        for i, game in enumerate(singles):
            action = space.action(int(actions[i]), int(current[i]))
            assert action is not None, f"step {step}, round {i}: a pass"
            game.step(action)
            where = f"step {step}, round {i}"
            assert game.is_over == bool(done[i]), f"{where}: round end"
            if done[i]:
                assert rewards[i].tolist() == _rewards(game, reward), f"{where}: rewards"
                finished += 1
                singles[i] = Game(players, seed=vector.deal_seed(i), rules=rules)
            else:
                assert not rewards[i].any(), f"{where}: a reward before the end"
    return finished


def _rewards(game: Game, reward: str) -> list[float]:
    """A finished round's rewards, as ddz.envs.UnoAdapter gives them."""
    if reward == "points":
        return [-float(points) for points in game.points()]
    if game.winner is None:
        return [0.0] * game.players
    rewards = [-1.0 / (game.players - 1)] * game.players
    rewards[game.winner] = 1.0
    return rewards
