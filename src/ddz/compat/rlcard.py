"""A drop-in for RLCard 1.2.0's ``rlcard.make("doudizhu")``.

:func:`make` returns an environment with RLCard's interface (``reset``, ``step``,
``step_back``, ``get_state``, ``get_payoffs``, ``get_perfect_information``, ``set_agents``,
``run``, ``num_players``, ``num_actions``, ``state_shape``, ``action_shape``...) whose states
equal RLCard's for the same seed and the same actions: the same ``obs`` vector, the same
``legal_actions`` ids with the same action features, the same ``raw_obs``. The game is ddz's
own: Dou Dizhu under ``ddz.RLCARD`` (its move set is RLCard's, move for move) with the state
encoding in C. There is no UNO drop-in: RLCard's UNO rules differ from ``ddz.uno``'s where
they shape every round (docs/compat.md).

>>> from ddz.compat import rlcard as ddz_rlcard
>>> env = ddz_rlcard.make("doudizhu", config={"seed": 42})
>>> state, player = env.reset()
>>> player, state["obs"].shape, len(state["raw_obs"]["current_hand"])
(0, (790,), 20)
>>> pass_id = 27471
>>> state, player = env.step(min(state["legal_actions"]))
>>> player, state["obs"].shape, pass_id in state["legal_actions"]
(1, (901,), True)

:func:`register` makes ``rlcard.make("ddz-doudizhu")`` return this environment, for RLCard's
own training scripts (docs/compat.md).
"""

from __future__ import annotations

import copy
import functools
import gzip
import hashlib
import importlib
import os
import struct
from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from ddz._core.rlcard import RlcardCore, cards_text
from ddz.base.errors import IllegalMoveError, check_integer, shorten
from ddz.doudizhu.action_space import _rlcard_actions, action_space, rlcard_action_ids
from ddz.doudizhu.rules import RLCARD

__all__ = ["DEFAULT_CONFIG", "GAMES", "DoudizhuEnv", "make", "register"]

DEFAULT_CONFIG: dict[str, Any] = {"allow_step_back": False, "seed": None}
"""RLCard's ``rlcard.envs.registration.DEFAULT_CONFIG``."""

_PASS_ID = 27471
_RANKS = "3456789TJQKA2BR"
_RANK_ORDER = {rank: index for index, rank in enumerate(_RANKS)}
# RLCard's deck after Dealer sorts it: rank by rank (3 .. 2), suits S H D C, then the jokers
_SORTED_DECK = [suit + rank for rank in _RANKS[:13] for suit in "SHDC"] + ["BJ", "RJ"]


def _card_rank(card: str) -> int:
    return 13 if card == "BJ" else 14 if card == "RJ" else _RANK_ORDER[card[1]]


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[tuple[str, ...], dict[str, int], RLCardTables]:
    actions = _rlcard_actions()
    data = resources.files("ddz").joinpath("data/rlcard_answer_order.txt.gz").read_bytes()
    order = np.array(gzip.decompress(data).split(), dtype=np.int32)
    space = action_space(RLCARD)
    codes = np.ascontiguousarray(space.codes)
    tables = RLCardTables(codes, rlcard_action_ids(), np.argsort(codes, kind="stable"), order)
    return actions, {text: index for index, text in enumerate(actions)}, tables


class RLCardTables:
    """What a Dou Dizhu core needs of RLCard's action table (built once a process)."""

    def __init__(
        self,
        codes: npt.NDArray[np.uint64],
        ids: npt.NDArray[np.int64],
        sorted_positions: npt.NDArray[np.int64],
        order: npt.NDArray[np.int32],
    ) -> None:
        self.codes = codes
        self.ids = ids
        self.sorted_positions = sorted_positions
        self.order = order


def _np_random(seed: int | None) -> tuple[np.random.RandomState, int]:
    """``rlcard.utils.seeding.np_random``: the generator RLCard seeds from ``seed``."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"a seed is a non-negative integer or None, not {shorten(seed)}")
    if seed is not None and seed < 0:
        raise ValueError(f"a seed is a non-negative integer or None, not {shorten(seed)}")
    if seed is None:
        seed = _bigint_from_bytes(os.urandom(8))
    else:
        seed %= 2**64
    digest = hashlib.sha512(str(seed).encode("utf8")).digest()
    bigint = _bigint_from_bytes(digest[:8])
    ints = []
    while bigint > 0:
        bigint, low = divmod(bigint, 2**32)
        ints.append(low)
    rng = np.random.RandomState()
    rng.seed(ints or [0])
    return rng, seed


def _bigint_from_bytes(data: bytes) -> int:
    data += b"\0" * (4 - len(data) % 4)
    words = struct.unpack(f"{len(data) // 4}I", data)
    return sum(word << (32 * index) for index, word in enumerate(words))


def _mask(cards: Sequence[str]) -> int:
    mask = 0
    for card in cards:
        mask += 1 << (3 * _card_rank(card))
    return mask


class DoudizhuEnv:
    """``rlcard.envs.doudizhu.DoudizhuEnv`` on ddz's engine (``make("doudizhu")``).

    Seat 0 is the landlord, as in RLCard; it takes the last three cards of the deal and
    leads. States are RLCard's: ``obs`` (790 entries for the landlord, 901 for a farmer),
    ``legal_actions`` (RLCard action id -> its 54-entry card features), ``raw_obs``,
    ``raw_legal_actions`` and ``action_record``. Answers to a move are listed in RLCard's
    order; leads in id order (RLCard's lead order is a Python set's and changes from process
    to process). ``step`` raises :class:`ddz.IllegalMoveError` for an action that is not
    legal (RLCard would corrupt its game) and changes nothing.
    """

    name = "doudizhu"
    num_players = 3
    num_actions = 27472

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"config is a dict or None, not {shorten(config)}")
        config = {**DEFAULT_CONFIG, **(config or {})}
        self._actions, self._action_ids, tables = _tables()
        self._core = RlcardCore(
            RLCARD, tables.codes, tables.ids, tables.sorted_positions, tables.order
        )
        self.allow_step_back: bool = bool(config["allow_step_back"])
        self.action_recorder: list[tuple[int, str]] = []
        self.state_shape = [[790], [901], [901]]
        self.action_shape = [[54] for _ in range(self.num_players)]
        self.timestep = 0
        self.agents: list[Any] = []
        self._current = 0
        self._dealt = False
        self._trace: list[tuple[int, str]] = []
        self._played = ["", "", ""]
        self._seen = ""
        self._deal_cards: list[list[str]] = [[], [], []]
        self._ops: list[tuple[int, str]] = []  # (seat, action) plays; (seat, "") step_backs
        self._deal: tuple[int, int, int, int] | None = None  # the dealt masks, for pickling
        self.seed(config["seed"])

    # --- pickling: RLCard's DMC trainer hands the environment to spawned actor processes ---

    def __getstate__(self) -> dict[str, Any]:
        # the C core is not pickled but rebuilt from the deal and the plays and step backs
        # (so its undo states come back too); the action tables are the process's own
        state = self.__dict__.copy()
        for name in ("_core", "_actions", "_action_ids"):
            del state[name]
        return state

    def __copy__(self) -> DoudizhuEnv:
        # a shallow copy would share the trace and records with this game: copy the game
        # (deep), keep the same agents (as a shallow copy does)
        agents, self.agents = self.agents, []
        try:
            twin = copy.deepcopy(self)
        finally:
            self.agents = agents
        twin.agents = list(agents)
        return twin

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._actions, self._action_ids, tables = _tables()
        self._core = RlcardCore(
            RLCARD, tables.codes, tables.ids, tables.sorted_positions, tables.order
        )
        if self._deal is None:
            return
        self._core.deal(*self._deal)
        for player, action in self._ops:
            if not action:
                if not self._core.step_back():
                    raise ValueError("not a pickled DoudizhuEnv: a step back with no play")
            elif player != self._core.current or not self._core.step(
                self._action_ids.get(action, -1)
            ):
                raise ValueError(f"not a pickled DoudizhuEnv: {action!r} is not legal there")

    # --- RLCard's Env interface ------------------------------------------------------------

    def seed(self, seed: int | None = None) -> int:
        """Seed the deals as RLCard does (``rlcard.utils.seeding``): the same seed, the same
        games."""
        self.np_random, seed = _np_random(seed)
        return seed

    def reset(self) -> tuple[OrderedDict[str, Any], int]:
        order = list(range(54))
        self.np_random.shuffle(order)
        deck = [_SORTED_DECK[index] for index in order]
        hands = [sorted(deck[17 * p : 17 * p + 17], key=_card_rank) for p in range(3)]
        kitty = deck[51:]
        deal = (_mask(hands[0]), _mask(hands[1]), _mask(hands[2]), _mask(kitty))
        self._core.deal(*deal)
        self._deal = deal
        hands[0] = sorted(hands[0] + kitty, key=_card_rank)
        self._deal_cards = hands
        self._ops = []
        self._trace = []
        self._played = ["", "", ""]
        self._seen = cards_text(_mask(kitty))
        self._current = 0
        self._dealt = True
        self.action_recorder = []
        return self._extract_state(0), 0

    def step(
        self, action: int | str, raw_action: bool = False
    ) -> tuple[OrderedDict[str, Any], int]:
        if not self._dealt:
            raise IllegalMoveError("no game in progress: call reset() first")
        if raw_action:
            rlcard_id = self._action_ids.get(action) if isinstance(action, str) else None
        else:
            rlcard_id = int(action) if isinstance(action, (int, np.integer)) else None
        if (
            rlcard_id is None
            or not 0 <= rlcard_id < self.num_actions
            or not self._core.step(rlcard_id)
        ):
            raise IllegalMoveError(
                f"{shorten(action)} is not a legal action for player {self._current}"
                + (" (raw_action=True takes RLCard's text, e.g. '33')" if raw_action else "")
            )
        player = self._current
        text = self._actions[rlcard_id]
        self.timestep += 1
        self.action_recorder.append((player, text))
        self._trace.append((player, text))
        self._ops.append((player, text))
        if text != "pass":
            self._played = [cards_text(cards) for cards in self._core.played()]
            if player == 0:
                for card in text:
                    if card in self._seen:
                        self._seen = self._seen.replace(card, "")
        self._current = (player + 1) % 3
        return self._extract_state(self._current), self._current

    def step_back(self) -> tuple[OrderedDict[str, Any], int] | bool:
        if not self.allow_step_back:
            raise Exception(
                "Step back is off. To use step_back, please set allow_step_back=True in rlcard.make"
            )
        if not self._dealt or not self._core.step_back():
            return False
        player, _ = self._trace.pop()
        self._ops.append((player, ""))
        # RLCard does not put the landlord's seen cards back (Round.step_back keeps them)
        self._played = [cards_text(cards) for cards in self._core.played()]
        self._current = player
        return self._extract_state(player), player

    def set_agents(self, agents: list[Any]) -> None:
        self.agents = agents

    def run(self, is_training: bool = False) -> tuple[list[list[Any]], npt.NDArray[np.int64]]:
        """RLCard's ``Env.run``: one game with ``self.agents``; the trajectories and payoffs."""
        trajectories: list[list[Any]] = [[] for _ in range(self.num_players)]
        state, player_id = self.reset()
        trajectories[player_id].append(state)
        while not self.is_over():
            agent = self.agents[player_id]
            if not is_training:
                action, _ = agent.eval_step(state)
            else:
                action = agent.step(state)
            next_state, next_player_id = self.step(action, agent.use_raw)
            trajectories[player_id].append(action)
            state = next_state
            player_id = next_player_id
            if not self.is_over():
                trajectories[player_id].append(state)
        for player_id in range(self.num_players):
            trajectories[player_id].append(self.get_state(player_id))
        return trajectories, self.get_payoffs()

    def is_over(self) -> bool:
        return self._dealt and self._core.over

    def get_player_id(self) -> int:
        return self._current

    def get_state(self, player_id: int) -> OrderedDict[str, Any]:
        """The state as ``player_id`` (0, 1 or 2: an integer, numpy's too) sees it."""
        return self._extract_state(check_integer(player_id, "player_id", 0, 2))

    def get_payoffs(self) -> npt.NDArray[np.int64]:
        """RLCard's ``judge_payoffs``: 1 for each winner, 0 for the others (before the game
        ends RLCard counts the farmers as winners, and so does this)."""
        winner = self._core.winner if self._dealt else -1
        return np.array([1, 0, 0]) if winner == 0 else np.array([0, 1, 1])

    def get_perfect_information(self) -> dict[str, Any]:
        hands = self._suited_hands()
        return {
            "hand_cards_with_suit": [" ".join(hand) for hand in hands],
            "hand_cards": [cards_text(cards) for cards in self._core.hands()],
            "trace": list(self._trace),
            "current_player": self._current,
            "legal_actions": self._raw_actions(self._current),
        }

    def get_action_feature(self, action: int) -> npt.NDArray[np.int8]:
        """RLCard's card features of an action id (54 entries; zeros for the pass)."""
        return _feature(check_integer(action, "action", 0, self.num_actions - 1)).copy()

    # --- states ----------------------------------------------------------------------------

    def _raw_actions(self, player: int) -> list[str]:
        return self._core.legal_parts(player, _FEATURES, self._actions, _feature)[1]

    def _extract_state(self, player: int) -> OrderedDict[str, Any]:
        core = self._core
        hand, others, left = core.view(player)
        obs = np.empty(790 if player == 0 else 901, dtype=np.int8)
        core.encode(player, obs)
        legal, raw_actions = core.legal_parts(player, _FEATURES, self._actions, _feature)
        state: OrderedDict[str, Any] = OrderedDict()
        state["obs"] = obs
        state["legal_actions"] = legal
        state["raw_obs"] = {
            "seen_cards": self._seen,
            "landlord": 0,
            "trace": self._trace.copy(),
            "played_cards": self._played,
            "self": player,
            "current_hand": hand,
            "others_hand": others,
            "num_cards_left": left,
            "actions": raw_actions,
        }
        state["raw_legal_actions"] = raw_actions.copy()
        state["action_record"] = self.action_recorder
        return state

    def _suited_hands(self) -> list[list[str]]:
        """The hands with suits, as RLCard's players hold them (plays remove the first card
        of each rank; a step back puts the cards back and sorts the hand)."""
        hands = [list(hand) for hand in self._deal_cards]
        removed: list[list[list[str]]] = [[], [], []]
        for player, action in self._ops:
            hand = hands[player]
            if action == "":
                hand.extend(removed[player].pop())
                hand.sort(key=_card_rank)
                continue
            taken: list[str] = []
            if action != "pass":
                for card in action:
                    rank = _RANK_ORDER[card]
                    for index, held in enumerate(hand):
                        if _card_rank(held) == rank:
                            taken.append(hand.pop(index))
                            break
            removed[player].append(taken)
        return hands


# Each action id's card features, made once a process and shared by every state (read-only,
# so that one state's arrays cannot change another's).
_FEATURES: list[npt.NDArray[np.int8] | None] = [None] * 27472


def _feature(rlcard_id: int) -> npt.NDArray[np.int8]:
    features = np.zeros(54, dtype=np.int8)
    text = _rlcard_actions()[rlcard_id] if rlcard_id != _PASS_ID else ""
    for rank, card in enumerate(_RANKS):
        count = text.count(card)
        if count and rank >= 13:
            features[39 + rank] = 1
        elif count:
            features[4 * rank : 4 * rank + count] = 1
    features.flags.writeable = False
    _FEATURES[rlcard_id] = features
    return features


_ENVIRONMENTS: dict[str, type[Any]] = {"doudizhu": DoudizhuEnv}
GAMES = tuple(_ENVIRONMENTS)
"""The RLCard games with a drop-in here."""


def make(env_id: str, config: dict[str, Any] | None = None) -> Any:
    """``rlcard.make``: ``"doudizhu"`` (or ``"ddz-doudizhu"``) with RLCard's configuration
    keys (``seed``, ``allow_step_back``)."""
    if not isinstance(env_id, str):
        raise TypeError(f"env_id is a name such as 'doudizhu', not {shorten(env_id)}")
    if config is not None and not isinstance(config, dict):
        raise TypeError(f"config is a dict or None, not {shorten(config)}")
    name = env_id.removeprefix("ddz-")
    if name not in _ENVIRONMENTS:
        raise ValueError(
            f"no drop-in for {shorten(env_id)}: ddz.compat.rlcard has {sorted(_ENVIRONMENTS)}"
        )
    return _ENVIRONMENTS[name]({**DEFAULT_CONFIG, **(config or {})})


def register(replace: bool = False) -> list[str]:
    """Register the drop-in with RLCard as ``"ddz-doudizhu"`` (once a process), so that
    ``rlcard.make("ddz-doudizhu")`` returns :class:`DoudizhuEnv`; returns the ids. With
    ``replace=True``, RLCard's own ``"doudizhu"`` is pointed at the drop-in too, so that a
    script that makes ``rlcard.make("doudizhu")`` (RLCard's examples, whose ``--env`` takes
    only RLCard's names) trains on ddz unchanged. Needs ``rlcard`` installed.

    The registry is the process's: code that makes environments in worker processes
    started with the spawn method must register there too (call this at the top level of
    the script the workers import, not under ``if __name__ == "__main__"``).
    """
    registration = importlib.import_module("rlcard.envs.registration")

    ids = []
    for name, cls in _ENVIRONMENTS.items():
        entry_point = f"{__name__}:{cls.__name__}"
        env_id = f"ddz-{name}"
        if env_id not in registration.registry.env_specs:
            registration.register(env_id=env_id, entry_point=entry_point)
        ids.append(env_id)
        if replace:
            # RLCard's registry refuses a second register() of an id: replace the spec
            registration.registry.env_specs[name] = registration.EnvSpec(name, entry_point)
            ids.append(name)
    return ids
