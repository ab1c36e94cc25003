"""A drop-in for DouZero 1.1.0's ``douzero.env.env.Env``, its card play and encodings in C.

DouZero trains on the card-play phase of a deal (no bidding: the landlord holds 20 cards).
:class:`Env` has the interface of ``douzero.env.env.Env`` and, for the same deal and the same
actions, returns observations equal to DouZero's ``get_obs`` array for array: the same keys,
shapes, dtypes and values, and ``legal_actions`` in DouZero's own order, duplicates included,
so row ``k`` of ``x_batch`` is the row DouZero computes for its ``legal_actions[k]``.
``reset()`` draws the deal from numpy's global generator exactly as DouZero does, so a
seeded ``np.random`` gives both the same games.

>>> import numpy as np
>>> from ddz.compat.douzero import Env
>>> np.random.seed(0)
>>> env = Env("adp")
>>> obs = env.reset()
>>> obs["position"], obs["x_batch"].shape, obs["z_batch"].shape, obs["x_no_action"].dtype
('landlord', (46, 373), (46, 5, 162), dtype('int8'))
>>> obs, reward, done, info = env.step(obs["legal_actions"][0])
>>> obs["position"], obs["x_batch"].shape[1], done
('landlord_down', 484, False)

To train DouZero on it, swap one import in ``douzero/dmc/utils.py`` (docs/compat.md).

:class:`VectorEnv` plays ``n`` such games in lockstep for batched actors: one call writes
every table's observation, grouped by position so that each of DouZero's three models takes
its rows in one forward pass, and one call plays a move at every table.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Sequence
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from ddz._core.douzero import DouzeroCore, DouzeroSeats, DouzeroTables
from ddz._core.moves import CARDS_MASK
from ddz.base.errors import IllegalMoveError, shorten
from ddz.doudizhu.actions import Action
from ddz.doudizhu.game import Game
from ddz.doudizhu.moves import Move, classify
from ddz.doudizhu.observation import Observation
from ddz.doudizhu.rules import DOUZERO

__all__ = [
    "NO_CODE",
    "OBJECTIVES",
    "POSITIONS",
    "SEAT_STATUS",
    "SEVERAL_CODES",
    "CompactBatch",
    "CompactObservation",
    "Env",
    "GameFeatures",
    "InfoSet",
    "PositionBatch",
    "SeatEncoder",
    "SeatFeatures",
    "VectorEnv",
    "VectorObservation",
    "action_for",
    "action_for_mask",
    "get_obs",
    "seat_observation",
]

POSITIONS = ("landlord", "landlord_up", "landlord_down")
"""DouZero's positions; the landlord plays first, then landlord_down, then landlord_up."""

_CARD_VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
_RANK_OF = {value: rank for rank, value in enumerate(_CARD_VALUES)}
_DECK_COUNTS = np.array([4] * 13 + [1, 1], dtype=np.int64)
# douzero.env.env.deck, in its order: shuffling a copy of it with np.random.shuffle draws
# the same deal DouZero draws from the same generator state
_DECK = [value for value in _CARD_VALUES[:13] for _ in range(4)] + [20, 30]
_PLAY_ORDER = (0, 2, 1)  # ply k is played by position _PLAY_ORDER[k % 3]
_HAND_LIMITS = {"landlord": 20, "landlord_up": 17, "landlord_down": 17}
_ACTION_WIDTH = 54  # the action's columns, the last of an x_batch row

OBJECTIVES = ("adp", "logadp", "wp")
"""DouZero's objectives (its ``--objective`` flag): the rewards :class:`Env` and
:class:`VectorEnv` give."""


class InfoSet:
    """DouZero's ``InfoSet``: everything about the position to act, other hands included.

    Built on demand by :attr:`Env.infoset`, with DouZero's attribute names and values.
    """

    player_position: str
    player_hand_cards: list[int]
    num_cards_left_dict: dict[str, int]
    three_landlord_cards: list[int]
    card_play_action_seq: list[list[int]]
    other_hand_cards: list[int]
    legal_actions: list[list[int]]
    last_move: list[int]
    last_two_moves: list[list[int]]
    last_move_dict: dict[str, list[int]]
    played_cards: dict[str, list[int]]
    all_handcards: dict[str, list[int]]
    last_pid: str
    bomb_num: int

    def __repr__(self) -> str:
        return f"<InfoSet {self.player_position} {self.player_hand_cards}>"


def _draw_deal() -> dict[str, list[int]]:
    """DouZero's deal: its deck list shuffled by ``np.random.shuffle`` and cut as it cuts."""
    deck = _DECK.copy()
    np.random.shuffle(deck)
    return {
        "landlord": deck[:20],
        "landlord_up": deck[20:37],
        "landlord_down": deck[37:54],
        "three_landlord_cards": deck[17:20],
    }


def _cards(counts: npt.NDArray[np.uint8]) -> list[int]:
    pairs = zip(_CARD_VALUES, counts.tolist(), strict=True)
    return [value for value, count in pairs for _ in range(count)]


def _counts(cards: object, what: str) -> npt.NDArray[np.uint8]:
    if not isinstance(cards, (list, tuple)):
        raise TypeError(f"{what} must be a list of card values, not {shorten(cards)}")
    counts = np.zeros(15, dtype=np.int64)
    for card in cards:
        rank = _RANK_OF.get(int(card)) if isinstance(card, (int, np.integer)) else None
        if rank is None:
            raise ValueError(
                f"{what}: {shorten(card)} is no DouZero card value "
                "(3..14 for 3..A, 17 for 2, 20 and 30 for the jokers)"
            )
        counts[rank] += 1
    if (counts > _DECK_COUNTS).any():
        raise ValueError(f"{what} holds more of a card than the deck has")
    return counts.astype(np.uint8)


def _deal_counts(card_play_data: dict[str, Any]) -> tuple[npt.NDArray[np.uint8], list[int]]:
    if not isinstance(card_play_data, dict):
        raise TypeError(f"card_play_data must be a dict, not {shorten(card_play_data)}")
    rows = []
    for position in POSITIONS:
        if position not in card_play_data:
            raise ValueError(f"card_play_data has no {position!r} hand")
        counts = _counts(card_play_data[position], position)
        cards = int(counts.sum())
        if not 1 <= cards <= _HAND_LIMITS[position]:
            raise ValueError(
                f"the {position} hand holds {cards} cards: DouZero's encodings take 1 to "
                f"{_HAND_LIMITS[position]}"
            )
        rows.append(counts)
    hands = np.stack(rows)
    if (hands.sum(axis=0) > _DECK_COUNTS).any():
        raise ValueError("the hands hold more of a card than the deck has")
    kitty = card_play_data.get("three_landlord_cards", [])
    kitty_counts = _counts(kitty, "three_landlord_cards")
    if (kitty_counts > hands[0]).any():
        raise ValueError("three_landlord_cards are not all in the landlord's hand")
    return hands, sorted(int(card) for card in kitty)


class Env:
    """``douzero.env.env.Env``: reset, step, and the observations of ``get_obs``.

    ``objective`` is DouZero's: ``"adp"`` rewards the landlord's side ``±2 ** bombs``,
    ``"logadp"`` ``±(bombs + 1)``, ``"wp"`` ``±1`` (the landlord's sign; DouZero's training
    loop negates it for the farmers).
    """

    def __init__(self, objective: str) -> None:
        self.objective = objective
        self._core = DouzeroCore()
        self._kitty: list[int] = []
        self._final: InfoSet | None = None
        self._dealt = False

    def __copy__(self) -> Env:
        # the game must not be shared with the copy (a shallow copy would share the core)
        return copy.deepcopy(self)

    def reset(self, card_play_data: dict[str, Any] | None = None) -> dict[str, Any]:
        """Deal a new game and return the landlord's observation.

        Without ``card_play_data`` the deck is shuffled with ``np.random.shuffle``, as
        DouZero does; with it (DouZero's dict: ``landlord``, ``landlord_up``,
        ``landlord_down`` lists of card values, optionally ``three_landlord_cards``) that
        deal is played.
        """
        if card_play_data is None:
            card_play_data = _draw_deal()
        hands, self._kitty = _deal_counts(card_play_data)
        self._core.deal(hands)
        self._final = None
        self._dealt = True
        return self._core.observation()

    def step(self, action: list[int]) -> tuple[dict[str, Any] | None, float, bool, dict[str, Any]]:
        """Play ``action`` (one of the observation's ``legal_actions``) for the position to
        act; returns ``(obs, reward, done, {})``, ``obs`` None and the reward set when the
        game is over. An action that is not legal raises :class:`ddz.IllegalMoveError` and
        changes nothing."""
        if not self._dealt or self._core.winner >= 0:
            raise IllegalMoveError("no game in progress: call reset() first")
        index = self._core.index_of(action)
        if index < 0:
            raise IllegalMoveError(
                f"{shorten(action)} is not a legal action for {self._core.position}: "
                "give one of infoset.legal_actions (card values, low to high)"
            )
        if len(action) == self._core.cards_left(self._core.acting):
            # DouZero's infoset stays the one the game ended from
            self._final = self._infoset()
        if self._core.play(index):
            return None, self._reward(), True, {}
        return self._core.observation(), 0.0, False, {}

    def _reward(self) -> float:
        bombs = self._core.bomb_num
        sign = 1.0 if self._core.winner == 0 else -1.0
        if self.objective == "adp":
            return sign * 2.0**bombs
        if self.objective == "logadp":
            return sign * (bombs + 1.0)
        return sign

    @property
    def infoset(self) -> InfoSet | None:
        """DouZero's ``InfoSet`` for the position to act (None before the first reset);
        after the game ends, the one the last move was played from, as in DouZero."""
        if not self._dealt:
            return None
        if self._final is not None:
            return self._final
        return self._infoset()

    def _infoset(self) -> InfoSet:
        core = self._core
        hands = [_cards(row) for row in core.hand_counts()]
        sequence = [_cards(row) for row in core.history_counts()]
        played: dict[str, list[int]] = {position: [] for position in POSITIONS}
        last_moves: dict[str, list[int]] = {position: [] for position in POSITIONS}
        kitty = list(self._kitty)
        last_pid = "landlord"
        for ply, move in enumerate(sequence):
            position = POSITIONS[_PLAY_ORDER[ply % 3]]
            played[position] += move
            last_moves[position] = list(move)
            if move:
                last_pid = position
            if position == "landlord" and move and kitty:
                for card in move:
                    if not kitty:
                        break
                    if card in kitty:
                        kitty.remove(card)
        acting = core.acting
        info = InfoSet()
        info.player_position = POSITIONS[acting]
        info.player_hand_cards = hands[acting]
        info.num_cards_left_dict = {p: len(hands[k]) for k, p in enumerate(POSITIONS)}
        info.three_landlord_cards = kitty
        info.card_play_action_seq = sequence
        info.other_hand_cards = [c for k in range(3) if k != acting for c in hands[k]]
        info.legal_actions = core.legal_actions()
        info.last_move = _last_move(sequence)
        info.last_two_moves = ([*sequence[-2:][::-1], [], []])[:2]
        info.last_move_dict = last_moves
        info.played_cards = played
        info.all_handcards = {p: hands[k] for k, p in enumerate(POSITIONS)}
        info.last_pid = last_pid
        info.bomb_num = core.bomb_num
        return info


def _last_move(sequence: list[list[int]]) -> list[int]:
    if not sequence:
        return []
    return sequence[-2] if not sequence[-1] and len(sequence) >= 2 else sequence[-1]


def get_obs(env: Env) -> dict[str, Any]:
    """The observation of the position to act in ``env`` (what ``reset``/``step`` return).

    DouZero's ``get_obs`` takes an ``InfoSet``; this one takes the :class:`Env`, whose
    state it reads in C.
    """
    if not env._dealt or env._core.winner >= 0:
        raise ValueError("no position to observe: the game is over or not dealt")
    return env._core.observation()


class PositionBatch(NamedTuple):
    """The observations of the tables where one position is to act, stacked.

    ``tables`` are those tables (ascending); table ``tables[j]``'s rows are
    ``offsets[j]:offsets[j + 1]`` of ``x_batch`` and ``z_batch``, row ``k`` of them the one
    :class:`Env`'s observation has for that table's ``legal_actions[k]``; ``x_no_action[j]``
    and ``z[j]`` are its ``x_no_action`` and ``z``. Every array has the one width of the
    position (``x_batch`` 373 for the landlord, 484 for the farmers), so ``x_batch`` and
    ``z_batch`` are one forward pass of that position's model. ``row_slot[r]`` is the ``j``
    of row ``r``'s table: ``z_batch`` equals ``z[row_slot]``, which is what
    ``observe(z_batch=False)`` leaves to the caller (``z_batch`` is then None), e.g. to run
    DouZero's LSTM once per table rather than once per row.
    """

    position: str
    tables: npt.NDArray[np.int64]
    offsets: npt.NDArray[np.int64]
    x_batch: npt.NDArray[np.float32]
    z_batch: npt.NDArray[np.float32] | None
    x_no_action: npt.NDArray[np.int8]
    z: npt.NDArray[np.int8]
    row_slot: npt.NDArray[np.int64]


class CompactBatch(NamedTuple):
    """A :class:`PositionBatch` without its repeats: what :meth:`VectorEnv.observe_compact`
    gives per position.

    A row of ``x_batch`` is its table's ``x_no_action`` (the state: 319 columns for the
    landlord, 430 for a farmer) followed by 54 columns for its action (the action's cards,
    as DouZero encodes them), and ``z_batch`` repeats the table's ``z`` per row. This form
    keeps each part once: ``x_no_action[j]`` and ``z[j]`` per table ``tables[j]``,
    ``action_rows[r]`` (int8, 54 wide) per row, ``row_slot[r]`` the ``j`` of row ``r``'s
    table, ``offsets`` as in :class:`PositionBatch`. So
    ``np.hstack([x_no_action[row_slot], action_rows])`` is ``x_batch`` (as float32:
    :meth:`x_batch`), ``z[row_slot]`` is ``z_batch``; a model can also take the parts as
    they are (``ddz.learn.models.DeepMonteCarloNet.compact_values``), computing the state's
    share of its first layer once per table rather than once per row.
    """

    position: str
    tables: npt.NDArray[np.int64]
    offsets: npt.NDArray[np.int64]
    x_no_action: npt.NDArray[np.int8]
    z: npt.NDArray[np.int8]
    action_rows: npt.NDArray[np.int8]
    row_slot: npt.NDArray[np.int64]

    def x_batch(self) -> npt.NDArray[np.float32]:
        """The group's ``x_batch``, rebuilt (a new float32 array, equal to
        :class:`PositionBatch`'s)."""
        rows = np.empty(
            (self.row_slot.size, self.x_no_action.shape[1] + _ACTION_WIDTH), dtype=np.float32
        )
        rows[:, :-_ACTION_WIDTH] = self.x_no_action[self.row_slot]
        rows[:, -_ACTION_WIDTH:] = self.action_rows
        return rows

    def z_batch(self) -> npt.NDArray[np.float32]:
        """The group's ``z_batch``, rebuilt (a new float32 array)."""
        return self.z[self.row_slot].astype(np.float32)


_Group = TypeVar("_Group", PositionBatch, CompactBatch)


class _ByPosition(Generic[_Group]):
    """Every table's position to act, its legal count, its first row, and one group of
    rows per position: what the full and the compact observations share."""

    __slots__ = ("groups", "legal_count", "position", "row_start")
    groups: tuple[_Group, _Group, _Group]

    def __init__(
        self,
        position: npt.NDArray[np.int8],
        legal_count: npt.NDArray[np.int32],
        row_start: npt.NDArray[np.int64],
        groups: tuple[_Group, _Group, _Group],
    ) -> None:
        self.position = position
        self.legal_count = legal_count
        self.row_start = row_start
        self.groups = groups

    def __repr__(self) -> str:
        sizes = ", ".join(f"{g.position}: {g.tables.size}" for g in self.groups)
        return f"<{type(self).__name__} of {self.position.size} tables ({sizes})>"

    def __getitem__(self, position: str) -> _Group:
        """The group of a position by name: ``obs["landlord"]``."""
        return self.groups[POSITIONS.index(position)]


class VectorObservation(_ByPosition[PositionBatch]):
    """Every table's observation of its position to act (:meth:`VectorEnv.observe`).

    ``position[i]`` is the position to act at table ``i`` as an index into
    :data:`POSITIONS` (0 landlord, 1 landlord_up, 2 landlord_down), ``legal_count[i]`` its
    number of legal actions, ``row_start[i]`` its first row in ``groups[position[i]]``;
    ``groups`` holds one :class:`PositionBatch` per position, in :data:`POSITIONS` order
    (empty where no table has that position to act). A plain class with slots, as
    :class:`PositionBatch` is a named tuple: made at every :meth:`VectorEnv.observe`, they
    cost about a microsecond where frozen dataclasses cost several.
    """

    __slots__ = ()


class CompactObservation(_ByPosition[CompactBatch]):
    """Every table's observation in the compact form (:meth:`VectorEnv.observe_compact`):
    ``position``, ``legal_count`` and ``row_start`` as in :class:`VectorObservation`,
    ``groups`` one :class:`CompactBatch` per position, in :data:`POSITIONS` order."""

    __slots__ = ()


class VectorEnv:
    """``n`` DouZero card-play games stepped in lockstep, observed with one call.

    DouZero's actors run one forward pass of a position's model per decision; with ``n``
    tables in lockstep the decisions of all tables where the landlord is to act are one
    forward pass of the landlord's model, and so on. :meth:`observe` writes, in one C call
    (the GIL released while it loops), every table's :class:`Env` observation into arrays
    kept and reused by this object, **grouped by position**: the landlord's rows are 373
    values wide and the farmers' 484, so one array per position is what a model's forward
    pass takes as it is, where one array for all would have to be padded or split again.
    Within a group the rows are ragged: each table has as many rows as legal actions, found
    through ``offsets`` (or ``row_start`` and ``legal_count``). :meth:`step` takes for every
    table the index of the chosen row within that table's rows, which is the index of the
    action in its ``legal_actions``.

    **Deals.** DouZero's: 20 cards to the landlord (its 3 extra cards included), 17 to each
    farmer, no bidding. With an integer ``seed`` (0 to 2**64 - 1), table ``i``'s ``k``-th
    deal is drawn in C from a stream of its own (splitmix64 of the seed, ``i`` and ``k``),
    so the same seed gives the same games whatever is played elsewhere. With ``seed=None``
    the deals come from numpy's global generator, as :meth:`Env.reset` draws them: after
    ``np.random.seed(s)`` the tables 0, 1, ... are dealt what ``n`` successive
    ``Env.reset()`` calls would deal, and a finished table's next deal is drawn after the
    step that finished it (tables in ascending order).

    **Finished games reset themselves.** When a table's game ends in :meth:`step`, its
    reward and ``done`` are reported and the table is dealt its next game at once, so
    every table always has a position to act and the next :meth:`observe` shows the new
    game's landlord there. Rewards are :class:`Env`'s: the landlord's sign, ``objective``
    as DouZero's (:data:`OBJECTIVES`); DouZero's training loop negates them for the
    farmers.

    The arrays of a :class:`VectorObservation` belong to this object and are overwritten
    by the next :meth:`observe`: copy what must outlive it. Calls from several threads are
    serialised by a lock.

    >>> import numpy as np
    >>> from ddz.compat.douzero import VectorEnv
    >>> env = VectorEnv(4, "adp", seed=7)
    >>> obs = env.reset()
    >>> landlord = obs["landlord"]
    >>> landlord.tables, landlord.x_batch.shape[1], obs["landlord_down"].tables.size
    (array([0, 1, 2, 3]), 373, 0)
    >>> rewards, dones = env.step(np.zeros(4, dtype=np.int64))   # each table's first action
    >>> obs = env.observe()
    >>> obs["landlord_down"].tables, obs["landlord_down"].x_batch.shape[1]
    (array([0, 1, 2, 3]), 484)
    """

    def __init__(self, n: int, objective: str = "adp", seed: int | None = None) -> None:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"n must be an int, not {shorten(n)}")
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, not {shorten(objective)}")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise TypeError(f"seed must be an int or None, not {shorten(seed)}")
            if not 0 <= seed < 2**64:
                raise ValueError(f"seed must be 0 to 2**64 - 1, not {shorten(seed)}")
        self.objective = objective
        self.seed = seed
        self._core = DouzeroTables(
            int(n), 0 if seed is None else int(seed), OBJECTIVES.index(objective)
        )
        self._dealt = False
        self._observed: VectorObservation | None = None
        self._lock = threading.RLock()

    @property
    def n(self) -> int:
        """The number of tables."""
        return int(self._core.n)

    def reset(self) -> VectorObservation:
        """Deal every table a new game (its next deal) and return :meth:`observe`."""
        with self._lock:
            self._deal(np.arange(self.n, dtype=np.int64))
            self._dealt = True
            return self.observe()

    def _deal(self, tables: npt.NDArray[np.int64]) -> None:
        self._observed = None
        if self.seed is not None:
            self._core.deal_seeded(tables)
            return
        hands = np.empty((tables.size, 3, 15), dtype=np.uint8)
        kitty = np.empty((tables.size, 15), dtype=np.uint8)
        for k in range(tables.size):
            deal = _draw_deal()
            hands[k], _ = _deal_counts(deal)
            kitty[k] = _counts(deal["three_landlord_cards"], "three_landlord_cards")
        self._core.deal(tables, hands, kitty)

    def _check_dealt(self) -> None:
        if not self._dealt:
            raise ValueError("no games yet: call reset() first")

    def observe(self, z_batch: bool = True) -> VectorObservation:
        """Every table's observation of its position to act, grouped by position (see the
        class); the arrays are reused by the next call.

        ``z_batch=False`` skips writing ``z_batch`` (each table's ``z`` repeated for each
        of its rows, the largest array: 810 floats a row): the groups' ``z_batch`` is then
        None, and ``z[row_slot]`` is the same array."""
        with self._lock:
            self._check_dealt()
            position, count, start, (landlord, up, down) = self._core.observe(bool(z_batch))
            self._observed = VectorObservation(
                position,
                count,
                start,
                (
                    PositionBatch("landlord", *landlord),
                    PositionBatch("landlord_up", *up),
                    PositionBatch("landlord_down", *down),
                ),
            )
            return self._observed

    def observe_compact(self) -> CompactObservation:
        """Every table's observation in the compact form (:class:`CompactBatch`): each
        table's state (``x_no_action``, ``z``) once, each legal action's 54 columns once,
        from which :meth:`observe`'s rows are rebuilt exactly. It is the same one C call
        with a fraction of the writes (about 1/18 of ``observe()``'s bytes at a typical
        position). The arrays are reused by the next :meth:`observe` or
        :meth:`observe_compact`."""
        with self._lock:
            self._check_dealt()
            position, count, start, (landlord, up, down) = self._core.observe_compact()
            # table_observation reads the full form: it observes again when asked
            self._observed = None
            return CompactObservation(
                position,
                count,
                start,
                _compact_groups((landlord, up, down)),
            )

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """Play at every table ``i`` its legal action ``actions[i]`` (an index into its
        ``legal_actions``, which is its row within its rows of the observation).

        Returns ``(rewards, dones)``, one value a table: where a game ended, ``done`` is
        True, the reward is :class:`Env`'s and the table has been dealt its next game
        already; elsewhere 0.0 and False. The actions are all checked before any is
        played: a wrong one (``IndexError``: not an index of a legal action) changes
        nothing."""
        self._check_dealt()
        chosen = np.asarray(actions)
        if chosen.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {chosen.dtype}")
        if chosen.shape != (self.n,):
            raise ValueError(f"one action per table: shape ({self.n},), not {chosen.shape}")
        with np.errstate(over="ignore"):
            indexes = np.ascontiguousarray(chosen, dtype=np.int64)
        if chosen.dtype.kind == "u" and (chosen > np.iinfo(np.int64).max).any():
            raise IndexError("an action index is larger than any table's legal actions")
        with self._lock:
            self._observed = None
            rewards, dones = self._core.step(indexes, self.seed is not None)
            if self.seed is None and dones.any():
                self._deal(np.flatnonzero(dones).astype(np.int64))
            return rewards, dones

    def legal_actions(self, table: int) -> list[list[int]]:
        """Table ``table``'s legal actions as :class:`Env` lists them (fresh lists)."""
        with self._lock:
            self._check_dealt()
            return self._core.legal_actions(table)

    def table_observation(self, table: int) -> dict[str, Any]:
        """Table ``table``'s observation as :class:`Env` returns it (``get_obs``'s dict,
        copies of its rows of the current :meth:`observe`)."""
        with self._lock:
            self._check_dealt()
            obs = self._observed if self._observed is not None else self.observe()
            if isinstance(table, bool) or not isinstance(table, (int, np.integer)):
                raise TypeError(f"table must be an int, not {shorten(table)}")
            if not 0 <= table < self.n:
                raise IndexError(f"no table {table} (there are {self.n})")
            group = obs.groups[int(obs.position[table])]
            slot = int(np.searchsorted(group.tables, table))
            rows = slice(int(group.offsets[slot]), int(group.offsets[slot + 1]))
            z_rows = group.z[group.row_slot[rows]] if group.z_batch is None else group.z_batch[rows]
            return {
                "position": group.position,
                "x_batch": group.x_batch[rows].copy(),
                "z_batch": z_rows.astype(np.float32),
                "legal_actions": self._core.legal_actions(table),
                "x_no_action": group.x_no_action[slot].copy(),
                "z": group.z[slot].copy(),
            }

    def card_play_data(self, table: int) -> dict[str, list[int]]:
        """Table ``table``'s current deal as DouZero's ``card_play_data`` dict:
        ``Env.reset(card_play_data)`` (DouZero's too) plays the same game from it."""
        with self._lock:
            self._check_dealt()
            hands, kitty = self._core.deal_counts(table)
            deal = {position: _cards(hands[k]) for k, position in enumerate(POSITIONS)}
            deal["three_landlord_cards"] = _cards(kitty)
            return deal


# --- a ddz seat seen as DouZero sees it -------------------------------------------------------
#
# DouZero's features of a position read its own hand, the others' cards as one set, each
# position's count, played cards and last move, the bombs and the moves: never how the unseen
# cards are split between the other two. So they are written in C from the seat's own view
# (DouzeroSeats), with each move of the history checked as DouZero's game would check it, and
# no DouZero game replayed.

_SINGLE_READING = DOUZERO.replace(multiple_readings=False)

SEAT_STATUS = (
    "written",
    "not DouZero's move",
    "not DouZero's deal",
    "not its turn",
    "one legal action",
)
"""What :class:`SeatFeatures`' ``status`` codes say (see there; 4 from
:meth:`SeatEncoder.encode_games` only)."""

NO_CODE = (1 << 64) - 1
"""In :class:`GameFeatures`' ``codes``: no legal action of the game plays the row's cards."""

SEVERAL_CODES = (1 << 64) - 2
"""In :class:`GameFeatures`' ``codes``: several legal actions (readings) play the row's
cards; :func:`action_for_mask` chooses."""

_REFUSALS = (
    "",
    "DouZero's rules do not allow a move of this game's history where it was played "
    "(DouZero reads each played multiset one way: ddz.DOUZERO.replace(multiple_readings=False))",
    "DouZero plays the whole 54-card deck (20 cards to the landlord, 17 to each farmer) and "
    "its features need the moves played: give a three-player game of it with its history "
    "(game.observation(seat), not history=False)",
    "the history does not lead to this seat's turn in the card play",
    "the seat has one legal action",
)


def _compact_groups(
    groups: Sequence[Sequence[Any]],
) -> tuple[CompactBatch, CompactBatch, CompactBatch]:
    """Each position's group of the core's compact form (its first six arrays: tables,
    offsets, x_no_action, z, actions, row_slot) as a :class:`CompactBatch`."""
    landlord, up, down = (
        CompactBatch(position, *group[:6])
        for position, group in zip(POSITIONS, groups, strict=True)
    )
    return landlord, up, down


class SeatFeatures(_ByPosition[CompactBatch]):
    """DouZero's features of many ddz seats' observations (:meth:`SeatEncoder.encode`), in
    the compact form of :class:`CompactBatch`, one group per position.

    For observation ``i``: ``status[i]`` is 0 when its features were written, else why not
    (:data:`SEAT_STATUS`: 1 a move of its history DouZero's rules do not allow where it was
    played, 2 not a seat of DouZero's deal with its history, 3 not its turn in the card
    play); ``position[i]`` its DouZero position (an index into :data:`POSITIONS`; 0 where
    not written), ``legal_count[i]`` its number of DouZero's legal actions and
    ``row_start[i]`` its first row in ``groups[position[i]]`` (both 0 where not written).
    A group's ``tables`` are the indexes of its observations. ``moves[p][r]`` is row ``r``
    of group ``p``'s legal action as a ddz card mask (``Move.code & CARDS_MASK``), so
    :func:`action_for_mask` gives the ddz action that plays it. The arrays are the
    encoder's and are overwritten by its next call."""

    __slots__ = ("moves", "status")

    def __init__(
        self,
        position: npt.NDArray[np.int8],
        legal_count: npt.NDArray[np.int32],
        row_start: npt.NDArray[np.int64],
        groups: tuple[CompactBatch, CompactBatch, CompactBatch],
        status: npt.NDArray[np.int8],
        moves: tuple[npt.NDArray[np.uint64], ...],
    ) -> None:
        super().__init__(position, legal_count, row_start, groups)
        self.status = status
        self.moves = moves


class GameFeatures(SeatFeatures):
    """DouZero's features of the seats to act of many ddz games
    (:meth:`SeatEncoder.encode_games`): :class:`SeatFeatures`, where game ``i``'s status 3
    also stands for a game not in its card play, and status 4 for a seat with one legal
    action (nothing written: ``single[i]`` is that action's core code). ``codes[p][r]`` is
    row ``r`` of group ``p`` as the game's action: the core code (``Move.code``) of the legal
    action playing the row's cards (the one :func:`action_for_mask` gives), or
    :data:`NO_CODE` where none does, :data:`SEVERAL_CODES` where several readings of them
    do (:func:`action_for_mask` then chooses among them). The encoder's arrays, as
    :class:`SeatFeatures`'."""

    __slots__ = ("codes", "single")

    def __init__(
        self,
        position: npt.NDArray[np.int8],
        legal_count: npt.NDArray[np.int32],
        row_start: npt.NDArray[np.int64],
        groups: tuple[CompactBatch, CompactBatch, CompactBatch],
        status: npt.NDArray[np.int8],
        moves: tuple[npt.NDArray[np.uint64], ...],
        codes: tuple[npt.NDArray[np.uint64], ...],
        single: npt.NDArray[np.uint64],
    ) -> None:
        super().__init__(position, legal_count, row_start, groups, status, moves)
        self.codes = codes
        self.single = single


class SeatEncoder:
    """Writes DouZero's features of ddz seats' observations, many in one C call.

    An observation is a three-player game of DouZero's deal (the whole 54-card deck, 17
    cards each and a kitty of 3) in its card play at the observing seat's turn, with its
    history (``game.observation(seat)``, not ``history=False``). Its features are DouZero's
    ``get_obs`` for the seat's position, written from the observation alone: the seat's
    hand, the other two hands as one set (the cards it has not seen), the counts, the moves
    played. The moves are checked as DouZero's game checks them, each against the move it
    answers (DouZero reads a multiset one way: one another agent played under another
    reading, then answered under that reading, is a history DouZero cannot play).

    The arrays :meth:`encode` returns are this object's, overwritten by its next call;
    calls from several threads are serialised by a lock.
    """

    def __init__(self) -> None:
        self._core = DouzeroSeats()
        self._lock = threading.Lock()

    def encode(self, observations: Sequence[Observation]) -> SeatFeatures:
        """The features of each observation (see :class:`SeatFeatures`); an observation
        that is not a seat of DouZero's card play at its turn gets a nonzero status, not an
        exception."""
        # the core reads each observation's fields itself (a view that is not an
        # Observation is passed as None: refused)
        views = [seen if isinstance(seen, Observation) else None for seen in observations]
        with self._lock:
            position, status, count, start, groups = self._core.observe(views)
            return SeatFeatures(
                position,
                count,
                start,
                _compact_groups(groups),
                status,
                (groups[0][6], groups[1][6], groups[2][6]),
            )

    def encode_games(self, games: Sequence[Game]) -> GameFeatures:
        """The features of the seat to act in each game, as :meth:`encode` writes them from
        ``game.observation(game.current_player)``, with no observation object built (see
        :class:`GameFeatures`).

        Only what that seat may know is read, in C: its observation vector as the core
        writes it (``game.observation_vector(seat)``'s fields: its hand, each seat's number
        of cards and played cards, the landlord, the moves of play) and its legal actions'
        codes, to say which of the game's actions plays a row. A seat with one legal action
        gets status 4 and nothing else, as DouZero plays it without features; the others
        get what :meth:`encode` gives their observations."""
        # the core's state is what Game.observation reads (the C side checks its type)
        cores = [game._core for game in games if isinstance(game, Game)]
        if len(cores) != len(games):
            wrong = next(game for game in games if not isinstance(game, Game))
            raise TypeError(f"encode_games takes ddz Games, not {shorten(wrong)}")
        with self._lock:
            position, status, count, start, groups, single = self._core.observe_games(cores)
            return GameFeatures(
                position,
                count,
                start,
                _compact_groups(groups),
                status,
                (groups[0][6], groups[1][6], groups[2][6]),
                (groups[0][7], groups[1][7], groups[2][7]),
                single,
            )


def seat_observation(observation: Observation, *, z_batch: bool = True) -> dict[str, Any]:
    """DouZero's ``get_obs`` for the seat of ``observation`` at its turn in the card play:
    the dict :class:`Env` returns (equal to DouZero's for the same position), with
    ``legal_actions`` in DouZero's order and its move set (``ddz.DOUZERO``'s).

    ``observation`` is a ddz :class:`ddz.Observation` of a three-player game of the whole
    54-card deck (17 cards each and a kitty of 3) in its play phase, with its history
    (``game.observation(seat)``, not ``history=False``); ValueError if it is not, or if
    DouZero's rules do not allow a move of the history where it was played (a multiset
    another player made under a reading DouZero does not give it, then answered under that
    reading). The features are written from the observation alone (:class:`SeatEncoder`,
    which writes many at once in their compact form). ``z_batch=False`` leaves ``z_batch``
    out (None: its rows repeat ``z``).

    >>> import ddz
    >>> game = ddz.Game(ddz.DOUZERO, seed=3)
    >>> obs = seat_observation(game.observation(game.current_player))
    >>> obs["position"], obs["x_batch"].shape, len(obs["legal_actions"])
    ('landlord', (62, 373), 62)
    """
    if not isinstance(observation, Observation):
        raise TypeError(f"a ddz Observation, not {shorten(observation)}")
    features = SeatEncoder().encode([observation])
    status = int(features.status[0])
    if status:
        raise ValueError(_REFUSALS[status])
    group = features.groups[int(features.position[0])]
    moves = features.moves[int(features.position[0])]
    return {
        "position": group.position,
        "x_batch": group.x_batch(),
        "z_batch": group.z_batch() if z_batch else None,
        "legal_actions": [_values_of(int(mask)) for mask in moves],
        "x_no_action": group.x_no_action[0].copy(),
        "z": group.z[0].copy(),
    }


def _values_of(mask: int) -> list[int]:
    """A ddz card mask as DouZero's card values, low to high."""
    return [value for rank, value in enumerate(_CARD_VALUES) for _ in range(mask >> 3 * rank & 7)]


_SHIFT_OF = {value: 3 * rank for rank, value in enumerate(_CARD_VALUES)}
_DECK_LIST = _DECK_COUNTS.tolist()


def _action_mask(action: object) -> int:
    """The card mask of DouZero's ``action`` (card values), checked like :func:`_counts`."""
    if type(action) is list:
        # the network's choices are lists of ints: their mask without numpy round trips
        mask = 0
        for card in action:
            shift = _SHIFT_OF.get(card) if type(card) is int else None
            if shift is None:
                break
            mask += 1 << shift
        else:
            digits = [mask >> shift & 7 for shift in range(0, 45, 3)]
            # a digit past 7 carries (the digits' sum falls short of the cards)
            if sum(digits) == len(action) and all(
                digit <= most for digit, most in zip(digits, _DECK_LIST, strict=True)
            ):
                return mask
    counts = _counts(action, "action").astype(np.int64)
    return sum(int(count) << (3 * rank) for rank, count in enumerate(counts))


def action_for(observation: Observation, action: list[int]) -> Action:
    """The legal action of ``observation`` that plays DouZero's ``action`` (card values):
    the pass for ``[]``; of several readings of the cards, DouZero's reading first (the one
    DouZero's game goes on from). ValueError if no legal action plays these cards."""
    return action_for_mask(observation, _action_mask(action), action)


def action_for_mask(observation: Observation, mask: int, action: object = None) -> Action:
    """:func:`action_for` of the cards of a ddz card mask (``Move.code & CARDS_MASK``, as
    :class:`SeatFeatures`' ``moves`` give them); the error names ``action`` if given."""
    found = [
        legal
        for legal in observation.legal_actions
        if isinstance(legal, Move) and legal.code & CARDS_MASK == mask
    ]
    if not found:
        cards = _values_of(mask) if action is None else action
        raise ValueError(f"no legal action plays {shorten(cards)}")
    if len(found) > 1 and mask:
        reading = classify(found[0].cards, rules=_SINGLE_READING)
        if reading and reading[0] in found:
            return reading[0]
    return found[0]
