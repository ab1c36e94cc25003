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
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import numpy.typing as npt

from ddz._core.douzero import DouzeroCore
from ddz.base.errors import IllegalMoveError, shorten

__all__ = ["POSITIONS", "Env", "InfoSet", "get_obs"]

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
            deck = _DECK.copy()
            np.random.shuffle(deck)
            card_play_data = {
                "landlord": deck[:20],
                "landlord_up": deck[20:37],
                "landlord_down": deck[37:54],
                "three_landlord_cards": deck[17:20],
            }
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
