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
import threading
from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ddz._core.rlcard import RlcardCore, RlcardTables, cards_text
from ddz.base.errors import IllegalMoveError, check_integer, shorten
from ddz.doudizhu.action_space import _rlcard_actions, action_space, rlcard_action_ids
from ddz.doudizhu.rules import RLCARD

__all__ = [
    "DEFAULT_CONFIG",
    "GAMES",
    "DoudizhuEnv",
    "SeatBatch",
    "VectorEnv",
    "VectorObservation",
    "make",
    "register",
]

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


def _draw_deal(
    np_random: np.random.RandomState,
) -> tuple[tuple[int, int, int, int], list[list[str]], list[str]]:
    """RLCard's deal from its generator: the masks of the three hands and the kitty, the
    hands as sorted card lists and the kitty's cards."""
    order = list(range(54))
    np_random.shuffle(order)
    deck = [_SORTED_DECK[index] for index in order]
    hands = [sorted(deck[17 * p : 17 * p + 17], key=_card_rank) for p in range(3)]
    kitty = deck[51:]
    return (_mask(hands[0]), _mask(hands[1]), _mask(hands[2]), _mask(kitty)), hands, kitty


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
        deal, hands, kitty = _draw_deal(self.np_random)
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


class SeatBatch(NamedTuple):
    """The states of the tables where one seat is to act, stacked (:meth:`VectorEnv.observe`).

    ``tables`` are those tables (ascending), ``obs[j]`` table ``tables[j]``'s ``obs``
    (RLCard's state vector: 790 entries for the landlord, 901 for a farmer). Its legal
    actions are rows ``offsets[j]:offsets[j + 1]`` of ``action_ids`` (RLCard's ids, in the
    order of the drop-in's ``legal_actions``) and ``action_features`` (each id's 54 card
    features: the ``legal_actions`` dict's values); ``row_slot[r]`` is the ``j`` of row
    ``r``'s table, so ``obs[row_slot]`` is the obs repeated per action, as RLCard's DMC
    agent feeds its network.
    """

    seat: int
    tables: npt.NDArray[np.int64]
    offsets: npt.NDArray[np.int64]
    obs: npt.NDArray[np.int8]
    action_ids: npt.NDArray[np.int64]
    action_features: npt.NDArray[np.int8]
    row_slot: npt.NDArray[np.int64]


class VectorObservation:
    """Every table's state for its seat to act (:meth:`VectorEnv.observe`): ``player[i]``
    the seat to act at table ``i`` (0 the landlord), ``legal_count[i]`` its number of legal
    actions, ``row_start[i]`` its first row in ``groups[player[i]]``; ``groups`` one
    :class:`SeatBatch` per seat."""

    __slots__ = ("groups", "legal_count", "player", "row_start")

    def __init__(
        self,
        player: npt.NDArray[np.int8],
        legal_count: npt.NDArray[np.int32],
        row_start: npt.NDArray[np.int64],
        groups: tuple[SeatBatch, SeatBatch, SeatBatch],
    ) -> None:
        self.player = player
        self.legal_count = legal_count
        self.row_start = row_start
        self.groups = groups

    def __repr__(self) -> str:
        sizes = ", ".join(f"seat {g.seat}: {g.tables.size}" for g in self.groups)
        return f"<VectorObservation of {self.player.size} tables ({sizes})>"

    def legal_ids(self, table: int) -> npt.NDArray[np.int64]:
        """Table ``table``'s legal RLCard ids (a view of its rows)."""
        group = self.groups[int(self.player[table])]
        start = int(self.row_start[table])
        return group.action_ids[start : start + int(self.legal_count[table])]


class VectorEnv:
    """``n`` RLCard Dou Dizhu games in lockstep: one call writes every table's ``obs`` and
    legal actions, one call plays an action at every table.

    Table ``i`` plays the games ``make("doudizhu", config={"seed": seed + i})`` plays over
    successive ``reset()`` calls (with ``seed=None``, each table seeds itself from the
    operating system as RLCard does), and its states are that environment's, array for
    array: :meth:`observe` writes them grouped by the seat to act (:class:`SeatBatch`: the
    landlord's ``obs`` are 790 wide, the farmers' 901), each seat's rows one forward pass
    of its model. ``raw_obs`` and the other Python parts of a state are not made here: a
    table's full state is that of ``make`` with the table's seed, playing the same ids.

    :meth:`step` takes one RLCard action id a table (RLCard's ``step(action)``); where a
    game ends, it reports ``done`` and RLCard's payoffs and deals that table its next game
    at once. The arrays of an observation belong to this object and are overwritten by the
    next :meth:`observe`. Calls from several threads are serialised by a lock.

    >>> import numpy as np
    >>> from ddz.compat.rlcard import VectorEnv
    >>> env = VectorEnv(4, seed=42)
    >>> obs = env.reset()
    >>> landlord = obs.groups[0]
    >>> landlord.tables, landlord.obs.shape, landlord.action_features.shape[1]
    (array([0, 1, 2, 3]), (4, 790), 54)
    >>> payoffs, dones = env.step([obs.legal_ids(i)[0] for i in range(4)])
    >>> obs = env.observe()
    >>> obs.player, obs.groups[1].obs.shape
    (array([1, 1, 1, 1], dtype=int8), (4, 901))
    """

    num_players = 3
    num_actions = 27472

    def __init__(self, n: int, seed: int | None = None) -> None:
        n = check_integer(n, "n", 1, 2**16)
        if seed is not None:
            seed = check_integer(seed, "seed", 0)
        self.seed = seed
        _, _, tables = _tables()
        self._np_randoms = [_np_random(None if seed is None else seed + i)[0] for i in range(n)]
        cores = [
            RlcardCore(RLCARD, tables.codes, tables.ids, tables.sorted_positions, tables.order)
            for _ in range(n)
        ]
        self._core = RlcardTables(cores)
        self._dealt = False
        self._lock = threading.RLock()

    @property
    def n(self) -> int:
        """The number of tables."""
        return int(self._core.n)

    def reset(self) -> VectorObservation:
        """Deal every table its next game and return :meth:`observe`."""
        with self._lock:
            for table in range(self.n):
                self._deal(table)
            self._dealt = True
            return self.observe()

    def _deal(self, table: int) -> None:
        deal, _, _ = _draw_deal(self._np_randoms[table])
        self._core.core(table).deal(*deal)

    def _check_dealt(self) -> None:
        if not self._dealt:
            raise ValueError("no games yet: call reset() first")

    def observe(self) -> VectorObservation:
        """Every table's ``obs`` and legal actions, grouped by the seat to act (see the
        class); the arrays are reused by the next call."""
        with self._lock:
            self._check_dealt()
            player, count, start, (seat0, seat1, seat2) = self._core.observe()
            return VectorObservation(
                player,
                count,
                start,
                (SeatBatch(0, *seat0), SeatBatch(1, *seat1), SeatBatch(2, *seat2)),
            )

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """Play RLCard action id ``actions[i]`` at every table ``i``.

        Returns ``(payoffs, dones)``: where a game ended, ``done`` is True and the payoffs
        row is RLCard's ``get_payoffs()`` (1 for each winner, 0 for the others), and the
        table has been dealt its next game already; elsewhere False and zeros. The actions
        are all checked before any is played: one that is not a legal id at its table
        raises :class:`ddz.IllegalMoveError` and changes nothing."""
        chosen = np.asarray(actions)
        if chosen.dtype.kind not in "iu":
            raise TypeError(f"actions must be integer RLCard ids, not {chosen.dtype}")
        if chosen.shape != (self.n,):
            raise ValueError(f"one action per table: shape ({self.n},), not {chosen.shape}")
        if ((chosen < 0) | (chosen >= self.num_actions)).any():
            raise IllegalMoveError(f"RLCard ids are 0 to {self.num_actions - 1}")
        with self._lock:
            self._check_dealt()
            try:
                dones = self._core.step(chosen.astype(np.int64))
            except ValueError as error:
                raise IllegalMoveError(str(error)) from None
            payoffs = np.zeros((self.n, 3), dtype=np.int64)
            for table in np.flatnonzero(dones).tolist():
                landlord_won = self._core.core(table).winner == 0
                payoffs[table] = (1, 0, 0) if landlord_won else (0, 1, 1)
                self._deal(table)
            return payoffs, dones

    def legal_actions(self, table: int) -> OrderedDict[int, npt.NDArray[np.int8]]:
        """Table ``table``'s ``legal_actions`` as the drop-in's state gives them (id ->
        features, in its order)."""
        with self._lock:
            self._check_dealt()
            core = self._core.core(check_integer(table, "table", 0, self.n - 1))
            legal: OrderedDict[int, npt.NDArray[np.int8]] = OrderedDict()
            for rlcard_id in core.legal_ids():
                feature = _FEATURES[rlcard_id]
                legal[rlcard_id] = _feature(rlcard_id) if feature is None else feature
            return legal


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
