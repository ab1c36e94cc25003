"""A match: rounds of UNO with golf scoring until someone reaches the target score.

The player who goes out scores 0; every other player adds the value of their hand (a number
its face, Skip/Reverse/Draw Two 20, a wild 50). When a round ends with someone's total at the
target or above, the match is over and the lowest total wins. The deal rotates: round ``r``'s
dealer is the seat after round ``r - 1``'s.

>>> from ddz import uno
>>> match = uno.Match(players=3, seed=5)
>>> match.round, match.scores, match.game.current_player
(1, (0, 0, 0), 0)
>>> while match.round == 1:
...     _ = match.step(match.legal_actions()[0])
>>> match.results[0].winner, match.results[0].points
(2, (128, 3, 0))
>>> match.scores, match.game.current_player
((128, 3, 0), 1)
"""

from __future__ import annotations

import dataclasses
import json
import random
import threading
from collections.abc import Iterable
from typing import Any

from ddz.base import fields as _records
from ddz.base.errors import IllegalMoveError, RecordError, check_integer, check_seed, shorten
from ddz.uno.actions import Action
from ddz.uno.game import Game
from ddz.uno.rules import LOMBARDY, Rules, check_players

__all__ = ["Match", "RoundResult", "round_seed"]

_MASK = (1 << 64) - 1


def round_seed(seed: int, round_index: int) -> int:
    """The seed of a match's round (0-based index): one splitmix64 step of ``seed`` +
    ``round_index``, so rounds of one match are unrelated and the same on every machine."""
    z = (seed + (round_index + 1) * 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


@dataclasses.dataclass(frozen=True)
class RoundResult:
    """A finished round: its number (from 1), dealer, who went out (None: blocked), the
    points each player added and the actions it took."""

    round: int
    dealer: int
    winner: int | None
    points: tuple[int, ...]
    actions: int


class Match:
    """Rounds of UNO until someone's total reaches ``rules.target_score``; lowest total wins.

    Play the current round through :attr:`game` or through the match's own
    :meth:`legal_actions`, :meth:`step`, :meth:`push` and :meth:`resolve`, which start the
    next round when one ends. ``first_dealer`` defaults to the last seat, so seat 0 plays
    first in round 1, seat 1 in round 2, and so on.

    A match may be used from several threads: its steps, pushes and resolutions are
    serialised by a lock (a round's end and the next deal happen inside the same step).
    ``copy.copy``, ``copy.deepcopy`` and ``pickle`` give independent matches.
    """

    def __init__(
        self,
        players: int = 4,
        *,
        seed: int | None = None,
        rules: Rules = LOMBARDY,
        first_dealer: int | None = None,
    ) -> None:
        players = check_players(players)
        seed = random.SystemRandom().getrandbits(63) if seed is None else check_seed(seed)
        if first_dealer is None:
            first_dealer = players - 1
        first_dealer = check_integer(first_dealer, "first_dealer", 0, players - 1)
        if not isinstance(rules, Rules):
            raise TypeError(f"rules are a ddz.uno.Rules, not {shorten(rules)}")
        self._lock = threading.RLock()
        self.players = players
        self.seed = seed
        self.rules = rules
        self.first_dealer = first_dealer
        self._scores = [0] * players
        self._results: list[RoundResult] = []
        self._finished: list[Game] = []
        self._over = False
        self.game = self._new_round()

    # --- state ---------------------------------------------------------------------------

    @property
    def round(self) -> int:
        """The number of the round being played (from 1); the last round's once over."""
        return len(self._results) + (0 if self._over else 1)

    @property
    def scores(self) -> tuple[int, ...]:
        """Each player's total over the finished rounds."""
        return tuple(self._scores)

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """The finished rounds, oldest first."""
        return tuple(self._results)

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the lowest total once the match is over (more than one on a tie);
        ``()`` before."""
        if not self._over:
            return ()
        low = min(self._scores)
        return tuple(seat for seat, score in enumerate(self._scores) if score == low)

    @property
    def winner(self) -> int | None:
        """The player with the lowest total once the match is over; None before, and when
        the lowest total is shared (see :attr:`winners`)."""
        winners = self.winners
        return winners[0] if len(winners) == 1 else None

    def dealer_of(self, round_number: int) -> int:
        """The dealer of round ``round_number`` (from 1): the deal rotates one seat a round."""
        number = check_integer(round_number, "round_number", 1)
        return (self.first_dealer + number - 1) % self.players

    # --- acting --------------------------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The current round's legal actions (``[]`` once the match is over)."""
        return [] if self._over else self.game.legal_actions(player)

    def step(self, action: Action | str | int, *, player: int | None = None) -> Action:
        """Take a checked action in the current round (see ``Game.step``, ``player`` too;
        an ``int`` is an action index); a round that ends is scored and, unless the match is
        over, the next one dealt."""
        with self._lock:
            if self._over:
                raise IllegalMoveError("the match is over")
            taken = self.game.step(action, player=player)
            self._settle()
            return taken

    def push(self, action: Action | int, *, player: int | None = None) -> None:
        """An action (or action index) in the current round without checking the rules (see
        ``Game.push``)."""
        with self._lock:
            if self._over:
                raise IllegalMoveError("the match is over")
            self.game.push(action, player=player)
            self._settle()

    def push_code(self, code: int) -> None:
        """A raw core action code in the current round (see ``Game.push_code``)."""
        with self._lock:
            if self._over:
                raise IllegalMoveError("the match is over")
            self.game.push_code(code)
            self._settle()

    def resolve(self, intents: Iterable[Action | str]) -> list[Action]:
        """Simultaneous actions in the current round (see ``Game.resolve``)."""
        with self._lock:
            if self._over:
                raise IllegalMoveError("the match is over")
            taken = self.game.resolve(intents)
            self._settle()
            return taken

    # --- copies --------------------------------------------------------------------------

    def copy(self) -> Match:
        """An independent copy: the current round and the finished ones."""
        with self._lock:
            state = self._state()
        return Match._restore(state)

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        with self._lock:
            return (Match._restore, (self._state(),))

    def _state(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seed": self.seed,
            "rules": self.rules,
            "first_dealer": self.first_dealer,
            "scores": list(self._scores),
            "results": list(self._results),
            "finished": [game.copy() for game in self._finished],
            "over": self._over,
            "game": self.game.copy(),
        }

    @staticmethod
    def _restore(state: dict[str, Any]) -> Match:
        match = object.__new__(Match)
        match._lock = threading.RLock()
        match.players = state["players"]
        match.seed = state["seed"]
        match.rules = state["rules"]
        match.first_dealer = state["first_dealer"]
        match._scores = list(state["scores"])
        match._results = list(state["results"])
        match._finished = list(state["finished"])
        match._over = state["over"]
        match.game = state["game"]
        return match

    # --- records -------------------------------------------------------------------------

    def to_json(self) -> str:
        """The match as JSON: players, rules, seed, first dealer and every round's actions;
        :meth:`from_json` replays it exactly."""
        games = self._finished if self._over else [*self._finished, self.game]
        rounds = [[str(action) for action in game.history] for game in games]
        return json.dumps(
            {
                "format": "ddz-uno-match/1",
                "players": self.players,
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "first_dealer": self.first_dealer,
                "rounds": rounds,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Match:
        """The match :meth:`to_json` wrote, replayed. Any fault raises
        :class:`ddz.errors.RecordError` naming the field (``rounds[2]`` for the third round)
        and the action number within the round (from 1)."""
        data = _records.load_json(text, "ddz-uno-match/1", "a ddz UNO match record")
        rounds = _records.field(data, "rounds", list)
        values = {}
        for name in ("players", "seed", "first_dealer"):
            values[name] = _records.field(data, name, int)
        try:
            rules = Rules.from_dict(_records.field(data, "rules", dict))
        except (TypeError, ValueError) as error:
            if isinstance(error, RecordError):
                raise
            raise RecordError(str(error), field="rules") from None
        for name, check in (
            ("players", check_players),
            ("seed", check_seed),
        ):
            try:
                check(values[name])
            except (TypeError, ValueError) as error:
                raise RecordError(str(error), field=name) from None
        try:
            match = cls(
                values["players"],
                seed=values["seed"],
                rules=rules,
                first_dealer=values["first_dealer"],
            )
        except (TypeError, ValueError) as error:
            raise RecordError(str(error), field="first_dealer") from None
        for number, actions in enumerate(rounds, start=1):
            where = f"rounds[{number - 1}]"
            if match.round != number or match.is_over:
                raise RecordError(
                    f"the record's round {number} does not follow from its play", field=where
                )
            if not isinstance(actions, list):
                raise RecordError(
                    f"a round is a list of actions, not {shorten(actions)}", field=where
                )
            for ply, action in enumerate(actions, start=1):
                if not isinstance(action, str):
                    raise RecordError(
                        f"an action is text, not {shorten(action)}", ply=ply, field=where
                    )
                try:
                    match.step(action)
                except ValueError as error:
                    raise RecordError(str(error), ply=ply, field=where) from None
        return match

    def __repr__(self) -> str:
        state = "over" if self._over else f"round {self.round}"
        return f"<uno.Match {self.players} players, {state}, scores {self.scores}>"

    # --- helpers -------------------------------------------------------------------------

    def _new_round(self) -> Game:
        number = len(self._results) + 1
        return Game(
            self.players,
            seed=round_seed(self.seed, number - 1),
            rules=self.rules,
            dealer=self.dealer_of(number),
        )

    def _settle(self) -> None:
        game = self.game
        if not game.is_over or self._over:
            return
        points = tuple(game.points())
        for seat, value in enumerate(points):
            self._scores[seat] += value
        self._results.append(
            RoundResult(len(self._results) + 1, game.dealer, game.winner, points, game.ply)
        )
        self._finished.append(game)
        if max(self._scores) >= self.rules.target_score:
            self._over = True
        else:
            self.game = self._new_round()
