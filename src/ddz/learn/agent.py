"""Agents from DouZero's checkpoints: :class:`DouZeroAgent` plays ddz games with DouZero's
networks, as DouZero's own ``DeepAgent`` plays DouZero's.

At its turn in the card play a seat's observation is turned into DouZero's features
(:class:`ddz.compat.douzero.SeatEncoder`, equal to DouZero's ``get_obs``), the model of
the seat's position values every legal action, and the agent plays the highest (the first
of equal values, as ``np.argmax``); a seat with one legal action plays it unasked, as
``DeepAgent`` does. DouZero has no bidding: the agent bids as its ``bidder`` does
(:class:`ddz.agents.GreedyAgent` unless told otherwise).

:meth:`DouZeroAgent.act_batch` chooses for many observations at once: one forward pass of
each position's model for all the decisions of that position, their features written in one
C call, the LSTM and the state's share of the first layer run once per decision
(:meth:`ddz.learn.models.DeepMonteCarloNet.compact_values`). :meth:`DouZeroAgent.act_games`
chooses the same for many games' seats to act, their features read from the games' state
in C, only each seat's view (no observation built), and gives the actions' codes: the
arena's lockstep tables use it (``run_arena(..., tables=N)``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import torch

from ddz.base.errors import shorten
from ddz.compat.douzero import SEVERAL_CODES, CompactBatch, SeatEncoder, action_for_mask
from ddz.doudizhu.actions import Action
from ddz.doudizhu.game import Game
from ddz.doudizhu.observation import Observation
from ddz.doudizhu.rules import DOUZERO, Rules
from ddz.learn.models import POSITIONS, DeepMonteCarloNet, group_values, new_models
from ddz.play.agents import Agent, GreedyAgent, seen_by

__all__ = ["CHECKPOINT_FILES", "DouZeroAgent", "accepts_rules", "load_models"]

Checkpoint = str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | Mapping[str, Any]
"""What :func:`load_models` reads (see there)."""

CHECKPOINT_FILES = {position: f"{position}.ckpt" for position in POSITIONS}
"""The file of each position in a directory laid out as DouZero's baselines are
(``baselines/douzero_ADP/landlord.ckpt``, ...)."""

_WEIGHTS = re.compile(r"^(landlord|landlord_up|landlord_down)_weights_(\d+)\.ckpt$")

# The fields that change the bidding or the score only: DouZero's networks play the card play
# of any of them.
_FREE_FIELDS = ("bidding", "max_grabs", "spring")


def accepts_rules(rules: Rules) -> bool:
    """Whether DouZero's networks play under ``rules``: DouZero's card play, that is
    ``ddz.DOUZERO`` with any ``bidding``, ``max_grabs`` and ``spring`` (the landlord is then
    chosen, and the score kept, as those say; the move set is DouZero's).

    >>> import ddz
    >>> accepts_rules(ddz.DOUZERO), accepts_rules(ddz.DOUZERO.replace(bidding="points"))
    (True, True)
    >>> accepts_rules(ddz.CLASSIC)
    False
    """
    free = {name: getattr(DOUZERO, name) for name in _FREE_FIELDS}
    return isinstance(rules, Rules) and rules.replace(**free) == DOUZERO


def _load_file(path: Path) -> Any:
    if not path.is_file():
        raise FileNotFoundError(f"no checkpoint file {str(path)!r}")
    try:
        # weights_only: a checkpoint is data; unpickling anything else could run code
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several kinds for a file it cannot read
        raise ValueError(
            f"{str(path)!r} is not a checkpoint torch.load reads as weights "
            f"({type(error).__name__}: {shorten(str(error))})"
        ) from None


def _checkpoint_files(directory: Path) -> dict[str, Path]:
    """The three files of a directory: DouZero's baselines' names, else the trainer's
    ``{position}_weights_{frames}.ckpt`` with the most frames all three have."""
    named = {position: directory / name for position, name in CHECKPOINT_FILES.items()}
    if all(path.is_file() for path in named.values()):
        return named
    frames: dict[str, set[int]] = {position: set() for position in POSITIONS}
    for entry in directory.iterdir():
        match = _WEIGHTS.match(entry.name)
        if match:
            frames[match[1]].add(int(match[2]))
    common = set.intersection(*frames.values())
    if common:
        last = max(common)
        return {position: directory / f"{position}_weights_{last}.ckpt" for position in POSITIONS}
    missing = [str(path) for path in named.values() if not path.is_file()]
    raise FileNotFoundError(
        f"{str(directory)!r} holds neither DouZero's three position files "
        f"({', '.join(CHECKPOINT_FILES.values())}: {', '.join(missing)} missing) nor "
        "landlord_weights_N.ckpt, landlord_up_weights_N.ckpt and "
        "landlord_down_weights_N.ckpt of one N, nor is it a model.tar"
    )


def _state_dicts(checkpoint: Checkpoint) -> dict[str, Any]:
    if isinstance(checkpoint, Mapping):
        if set(checkpoint) != set(POSITIONS):
            raise ValueError(
                f"a mapping of checkpoints has the keys {', '.join(POSITIONS)}, not "
                f"{shorten(sorted(map(str, checkpoint)))}"
            )
        return {position: _load_file(Path(checkpoint[position])) for position in POSITIONS}
    if isinstance(checkpoint, (str, os.PathLike)):
        path = Path(checkpoint)
        if path.is_dir():
            if (path / "model.tar").is_file() and not (path / "landlord.ckpt").is_file():
                path = path / "model.tar"
            else:
                files = _checkpoint_files(path)
                return {position: _load_file(files[position]) for position in POSITIONS}
        saved = _load_file(path)
        if not (isinstance(saved, dict) and isinstance(saved.get("model_state_dict"), dict)):
            raise ValueError(
                f"{str(path)!r} is one file: a trainer checkpoint (model.tar) whose dict holds "
                "model_state_dict[position] for landlord, landlord_up and landlord_down; give "
                "a directory or three files for DouZero's position files"
            )
        states = saved["model_state_dict"]
        missing = [position for position in POSITIONS if position not in states]
        if missing:
            raise ValueError(f"{str(path)!r}: model_state_dict has no {', '.join(missing)}")
        return {position: states[position] for position in POSITIONS}
    if isinstance(checkpoint, Sequence) and not isinstance(checkpoint, bytes):
        if len(checkpoint) != 3:
            raise ValueError(
                f"three checkpoint files ({', '.join(POSITIONS)}), not {len(checkpoint)}"
            )
        return {
            position: _load_file(Path(path))
            for position, path in zip(POSITIONS, checkpoint, strict=True)
        }
    raise TypeError(
        "a checkpoint is a directory, a model.tar file, three files (landlord, landlord_up, "
        f"landlord_down) or a mapping of them, not {shorten(checkpoint)}"
    )


def load_models(
    checkpoint: Checkpoint, *, device: str | torch.device = "cpu"
) -> dict[str, DeepMonteCarloNet]:
    """DouZero's three models with the weights of ``checkpoint``, in eval mode on ``device``.

    ``checkpoint`` is one of:

    - a directory holding ``landlord.ckpt``, ``landlord_up.ckpt`` and ``landlord_down.ckpt``
      (DouZero's baselines), or DouZero's trainer's ``{position}_weights_{frames}.ckpt`` files
      (the most frames all three have), or a ``model.tar``;
    - a trainer checkpoint file (``model.tar``): a dict whose ``model_state_dict[position]``
      is each position's state dict;
    - three files, landlord, landlord_up, landlord_down, or a mapping of the positions to
      files.

    Each state dict must hold exactly the model's parameters with their shapes (DouZero's
    ``DeepAgent`` ignores unknown keys and leaves missing ones random; this refuses both,
    naming them). Files are read with ``torch.load(weights_only=True)``.
    """
    states = _state_dicts(checkpoint)
    models = new_models("cpu")
    for position in POSITIONS:
        state = states[position]
        model = models[position]
        if not isinstance(state, Mapping):
            raise ValueError(f"{position}: a state dict, not {shorten(state)}")
        expected = model.state_dict()
        missing = sorted(set(expected) - set(state))
        unexpected = sorted(set(state) - set(expected))
        if missing or unexpected:
            raise ValueError(
                f"{position}: not DouZero's {position} model (missing {shorten(missing)}, "
                f"unexpected {shorten(unexpected)})"
            )
        for name, tensor in expected.items():
            given = state[name]
            if not isinstance(given, torch.Tensor) or given.shape != tensor.shape:
                shape = tuple(given.shape) if isinstance(given, torch.Tensor) else given
                raise ValueError(
                    f"{position}: {name} has the shape {shorten(shape)}, DouZero's "
                    f"{position} model {tuple(tensor.shape)}"
                )
        model.load_state_dict(state)
        model.to(device)
        model.eval()
    return models


class DouZeroAgent:
    """An agent playing DouZero's networks (see the module): ``act(observation)`` like every
    ddz agent, ``act_batch(observations)`` for many at once, ``act_games(games)`` for the
    seats to act of many games (the arena's).

    ``checkpoint`` is what :func:`load_models` reads; ``device`` where the models run.
    It plays DouZero's card play only: :meth:`set_rules` (which the arena and
    :func:`ddz.agents.choose` call) refuses rules other than :func:`accepts_rules`'s
    (``ddz.DOUZERO``, any bidding). ``bidder`` bids for it (default
    :class:`ddz.agents.GreedyAgent`). Its choices depend on the observation alone (it keeps
    nothing between decisions), so one agent may play every seat of many games.

    A history DouZero's game does not allow (a multiset another agent played under a reading
    DouZero does not give it, then answered under that reading: see
    :class:`ddz.compat.douzero.SeatEncoder`) is decided by ``bidder`` instead, and
    counted in :attr:`fallbacks`; so is a choice of DouZero's the game's rules do not allow.
    """

    batched: ClassVar[bool] = True

    def __init__(
        self,
        checkpoint: Checkpoint,
        *,
        device: str | torch.device = "cpu",
        bidder: Agent | None = None,
    ) -> None:
        self.device = torch.device(device)
        self.models = load_models(checkpoint, device=self.device)
        self.bidder: Agent = GreedyAgent() if bidder is None else bidder
        self.fallbacks = 0
        """Decisions of the card play left to ``bidder`` (see the class)."""
        self._checked: Rules | None = None
        self._encoder = SeatEncoder()

    @classmethod
    def from_models(
        cls, models: Mapping[str, DeepMonteCarloNet], *, bidder: Agent | None = None
    ) -> DouZeroAgent:
        """An agent playing these models (e.g. a learner's, as they train)."""
        agent = cls.__new__(cls)
        if set(models) != set(POSITIONS):
            raise ValueError(f"one model for each of {', '.join(POSITIONS)}")
        agent.models = dict(models)
        agent.device = next(models["landlord"].parameters()).device
        agent.bidder = GreedyAgent() if bidder is None else bidder
        agent.fallbacks = 0
        agent._checked = None
        agent._encoder = SeatEncoder()
        return agent

    def __repr__(self) -> str:
        return "DouZeroAgent()"

    def set_rules(self, rules: Rules) -> None:
        """Refuse rules whose card play is not DouZero's (ValueError naming those it plays)."""
        if rules is self._checked:
            return
        if not accepts_rules(rules):
            raise ValueError(
                f"DouZeroAgent plays DouZero's card play: ddz.DOUZERO, with any bidding, "
                f"max_grabs and spring (e.g. ddz.DOUZERO.replace(bidding='points')); not "
                f"{rules!r}"
            )
        self._checked = rules

    def act(self, observation: Observation | Game) -> Action:
        """The action DouZero's network values highest for the observing seat (a game: its
        seat to act); in bidding, ``bidder``'s."""
        return self.act_batch([seen_by(self, observation)])[0]

    def act_batch(self, observations: Sequence[Observation]) -> list[Action]:
        """:meth:`act` for each observation, with one forward pass of each position's model
        for all the decisions of that position."""
        chosen: list[Action | None] = [None] * len(observations)
        asked: list[Observation] = []  # the decisions for the networks
        where: list[int] = []  # their indexes in observations
        for index, seen in enumerate(observations):
            if seen.phase != "play":
                chosen[index] = self.bidder.act(seen)
            elif len(seen.legal_actions) == 1:
                chosen[index] = seen.legal_actions[0]
            else:
                asked.append(seen)
                where.append(index)
        if not asked:
            return chosen  # type: ignore[return-value]
        # DouZero's features of every decision, written in one C call
        features = self._encoder.encode(asked)
        for k in np.flatnonzero(features.status).tolist():
            self.fallbacks += 1
            chosen[where[k]] = self.bidder.act(asked[k])
        with torch.inference_mode():
            for group, moves in zip(features.groups, features.moves, strict=True):
                if not group.tables.size:
                    continue
                rows = self._rows(group)
                masks = moves[rows].tolist()
                for k, mask in zip(group.tables.tolist(), masks, strict=True):
                    chosen[where[k]] = self._action(asked[k], mask)
        return chosen  # type: ignore[return-value]

    def act_games(self, games: Sequence[Game]) -> list[int]:
        """The core code (``Move.code``, ``Bid.code``) of the action :meth:`act` chooses
        for the seat to act of each game: what :meth:`act_batch` chooses for
        ``game.observation(game.current_player)``, with no observation built for the card
        play. Only that seat's view of each game is read: its features come from its
        observation vector, in C (:meth:`ddz.compat.douzero.SeatEncoder.encode_games`),
        and a seat with one legal action plays it. The seat's observation is built only for
        what the network does not settle: bidding, a history DouZero's game does not allow,
        and cards several legal actions play. The arena's lockstep tables use it
        (:func:`ddz.play.arena.play_games`), stepping each game with the code."""
        features = self._encoder.encode_games(games)
        chosen: list[int] = features.single.tolist()
        status = features.status
        # bidding and the refused histories: act_batch on the observations, which bids
        # or counts the fallback as it would have
        observed = np.flatnonzero((status != 0) & (status != 4)).tolist()
        if observed:
            seen = [seen_by(self, games[i]) for i in observed]
            for i, action in zip(observed, self.act_batch(seen), strict=True):
                chosen[i] = games[i].parse_action(action).code
        with torch.inference_mode():
            for group, moves, codes in zip(
                features.groups, features.moves, features.codes, strict=True
            ):
                if not group.tables.size:
                    continue
                rows = self._rows(group)
                picked = codes[rows].tolist()
                for slot, (k, code) in enumerate(zip(group.tables.tolist(), picked, strict=True)):
                    if code >= SEVERAL_CODES:  # no single action plays the cards: as act_batch
                        action = self._action(seen_by(self, games[k]), int(moves[rows[slot]]))
                        code = games[k].parse_action(action).code
                    chosen[k] = code
        return chosen

    def _rows(self, group: CompactBatch) -> npt.NDArray[np.int64]:
        """The row of each decision of ``group`` (one position's) its model values highest
        (the first of equal values, as ``np.argmax``), in one forward pass for the decisions
        with several legal actions; a decision with one (DouZero's agent plays it unasked)
        gets its row without the network.

        :meth:`~ddz.learn.models.DeepMonteCarloNet.compact_values` takes the compact form
        as it is: the LSTM and the first layer's share of the state run once per decision,
        only the action's 54 columns per row."""
        offsets = group.offsets
        rows = offsets[:-1].copy()
        counts = np.diff(offsets)
        asked = counts > 1
        if not asked.any():
            return rows
        keep = None if asked.all() else np.flatnonzero(asked)
        flat, _ = group_values(self.models[group.position], group, keep, self.device)
        rows[asked] += _first_maxima(flat, counts[asked])
        return rows

    def _action(self, seen: Observation, mask: int) -> Action:
        try:
            return action_for_mask(seen, mask)
        except ValueError:
            self.fallbacks += 1
            return self.bidder.act(seen)


def _first_maxima(values: npt.NDArray[np.float32], counts: npt.NDArray[np.int64]) -> Any:
    """For consecutive segments of ``values`` (``counts[j]`` values each), the index within
    its segment of each one's first maximum: ``np.argmax`` of each, without a Python loop
    over the segments (a NaN, which ``np.argmax`` takes as the maximum, takes the loop)."""
    starts = np.cumsum(counts) - counts
    maxima = np.maximum.reduceat(values, starts)
    if np.isnan(maxima).any():
        return np.array(
            [np.argmax(values[a : a + n]) for a, n in zip(starts, counts, strict=True)],
            dtype=np.int64,
        )
    hits = np.flatnonzero(values == np.repeat(maxima, counts))
    return hits[np.searchsorted(hits, starts)] - starts
