"""One round of UNO: the deal, the first card, every turn and house rule; undo, copy, records.

The state lives in the native core (``ddz._core.uno``); this module converts and explains.

>>> from ddz import uno
>>> game = uno.Game(players=3, seed=14)
>>> game.current_player, str(game.top), game.colour, [len(h) for h in game.hands]
(0, 'R6', 'red', [7, 7, 7])
>>> [str(a) for a in game.legal_actions()]
['0: play R4', '0: play B6', '0: draw']
>>> game.step("play B6")
Action.parse('0: play B6')
>>> game.current_player, game.colour
(1, 'blue')
>>> game.step("play R9")
Traceback (most recent call last):
...
ddz.errors.IllegalMoveError: player 1 does not hold R9
>>> str(game.undo()), game.current_player
('0: play B6', 0)
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ddz._core import uno as _core
from ddz.base.errors import (
    ActionTypeError,
    IllegalMoveError,
    RecordError,
    check_integer,
    check_seed,
    check_text,
    shorten,
)
from ddz.base.protocol import GameBase
from ddz.base.seats import seat_of
from ddz.uno import records
from ddz.uno.actions import (
    BY_CODE,
    Action,
    LegalActions,
    action_at,
    index_of,
    refusal,
    resolution_order,
)
from ddz.uno.cards import CARDS, COLOURS, Arrangement, Card, Deal
from ddz.uno.observation import OBSERVATION_SIZE, Observation, observe
from ddz.uno.rules import LOMBARDY, Rules, check_players

__all__ = ["Game", "PlayoutResult"]

_WRONG_JUMP_IN = _core.WRONG_JUMP_IN_
_ACTION_OF_CODE = BY_CODE.__getitem__
_UNO_INDEX = 63  # ddz.uno.actions: the index of the UNO call


class PlayoutResult(NamedTuple):
    """How a random playout ended: who went out (None when blocked), whether the round was
    blocked, the actions taken and each hand's points at the end."""

    winner: int | None
    blocked: bool
    steps: int
    points: tuple[int, ...]


class Game(GameBase):
    """One round of UNO under ``rules`` (docs/uno.md).

    ``Game(players, seed=..., rules=...)`` shuffles with a seeded generator that gives the
    same round on every machine; ``deal=Deal(...)`` fixes the cards instead. ``dealer``
    defaults to the last seat, so seat 0 (the dealer's left) plays first.

    Actions are :class:`Action` objects, their text, or an action *index* (an ``int`` or
    numpy integer: the numbering of ``ddz.uno.ActionSpace`` and the masks, for the player
    to act unless ``player=`` says otherwise). :meth:`legal_actions` lists what every player
    may do now, out-of-turn jump-ins, UNO calls and catches included. :meth:`step` checks an
    action and raises :class:`ddz.IllegalMoveError` (leaving the game unchanged); :meth:`push`
    does not check the rules. Raw core codes go through :meth:`push_code`, :meth:`step_code`
    and :meth:`legal_codes` (a uint64 array, as for Dou Dizhu). :meth:`resolve` settles
    actions several players take at the same moment.

    One game may be used from several threads: :meth:`step` checks and applies in one core
    call, and a lock serialises steps, undos and resolutions with each other; the unchecked
    fast paths :meth:`push` and :meth:`push_code` are single core calls that skip the lock
    (atomic each, never outside the state). ``copy.copy``, ``copy.deepcopy`` and ``pickle``
    give independent games in the same state.
    """

    _core: _core.UnoCore

    def __init__(
        self,
        players: int | None = None,
        *,
        seed: int | None = None,
        rules: Rules = LOMBARDY,
        dealer: int | None = None,
        deal: Deal | None = None,
    ) -> None:
        if deal is not None and not isinstance(deal, Deal):
            raise TypeError(f"deal is a ddz.uno.Deal, not {shorten(deal)}")
        if players is None:
            players = len(deal.hands) if deal is not None else 4
        players = check_players(players)
        if deal is not None and len(deal.hands) != players:
            raise ValueError(f"the deal has {len(deal.hands)} hands for {players} players")
        seed = random.SystemRandom().getrandbits(63) if seed is None else check_seed(seed)
        if dealer is None:
            dealer = players - 1
        if isinstance(dealer, bool) or not hasattr(type(dealer), "__index__"):
            raise TypeError(f"the dealer is a seat 0..{players - 1}, not {shorten(dealer)}")
        dealer = int(dealer)
        if dealer not in range(players):
            raise ValueError(f"the dealer is a seat 0..{players - 1}, not {dealer!r}")
        if not isinstance(rules, Rules):
            raise TypeError(f"rules are a ddz.uno.Rules, not {shorten(rules)}")
        self._lock = threading.RLock()
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.deal = deal
        self._arrangement: Arrangement | None = None
        if deal is None:
            self._core = _core.UnoCore.seeded(rules.core_flags, players, dealer, seed)
        else:
            self._arrangement = deal.arrange(seed)
            hands, draw, discard = self._arrangement
            self._core = _core.UnoCore.arranged(
                rules.core_flags, dealer, seed, hands, draw, discard
            )

    # --- state ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return int(self._core.players)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every player's cards, each hand in card-kind order."""
        return tuple(self.hand(seat) for seat in range(self.players))

    def hand(self, player: int) -> tuple[Card, ...]:
        """One player's cards, in card-kind order."""
        counts = self._core.hand_counts(self._seat(player))
        return tuple(CARDS[kind] for kind, count in enumerate(counts) for _ in range(count))

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(self._core.sizes)

    @property
    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile in order: ``draw_pile[0]`` is the next card drawn."""
        return tuple(CARDS[kind] for kind in self._core.draw_pile())

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first: ``discard_pile[-1]`` is the top card."""
        return tuple(CARDS[kind] for kind in self._core.discard_pile())

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return CARDS[self._core.top]

    @property
    def colour(self) -> str | None:
        """The colour to match (a wild's chosen colour); None while the first player chooses
        the colour of a starting Wild."""
        colour = self._core.colour
        return None if colour < 0 else COLOURS[colour]

    @property
    def direction(self) -> int:
        """+1: seat order (0, 1, 2, ..., to the dealer's left); -1 once reversed."""
        return int(self._core.direction)

    @property
    def current_player(self) -> int | None:
        """The player whose turn it is; None once the round is over."""
        seat = self._core.current
        return None if seat < 0 else int(seat)

    @property
    def pending(self) -> int:
        """Stacking: the cards the player to act must draw unless they stack (0 if none)."""
        return int(self._core.pending)

    @property
    def pending_card(self) -> Card | None:
        """Stacking: the card that stacks on the pending penalty (a Draw Two, of any colour,
        shown as red's; or the Wild Draw Four); None without a penalty."""
        if not self._core.pending:
            return None
        return CARDS[53] if self._core.pending_face == 14 else CARDS[12]

    @property
    def drawn(self) -> Card | None:
        """The playable card the player to act just drew (play it or keep it), else None."""
        kind = self._core.drawn
        return None if kind < 0 else CARDS[kind]

    @property
    def uno_player(self) -> int | None:
        """The player on one card who has not called UNO and may still be caught, else None."""
        seat = self._core.uno_seat
        return None if seat < 0 else int(seat)

    @property
    def jump_in_player(self) -> int | None:
        """Who played the top card, while others may still jump in on it; else None."""
        seat = self._core.jump_seat
        return None if seat < 0 else int(seat)

    @property
    def is_over(self) -> bool:
        return bool(self._core.over)

    @property
    def is_blocked(self) -> bool:
        """The round ended because a player had to draw and no card was left (reshuffle off,
        or every card in the hands): nobody went out."""
        return bool(self._core.over == 2)

    @property
    def winner(self) -> int | None:
        """The player who went out; None while playing and for a blocked round."""
        seat = self._core.winner
        return None if seat < 0 else int(seat)

    @property
    def ply(self) -> int:
        """Actions taken so far."""
        return int(self._core.ply)

    @property
    def history(self) -> list[Action]:
        """Every action so far, oldest first."""
        return [Action.from_code(code) for code in self._core.action_codes()]

    def points(self) -> list[int]:
        """Each player's golf points for this round as it stands: the value of their hand
        (the player who went out holds nothing and scores 0)."""
        return [int(self._core.hand_points(seat)) for seat in range(self.players)]

    # --- actions -------------------------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> LegalActions:
        """Every legal action now, of every player (or of ``player``): the turn actions of
        the player to act first, then the UNO call, the catches and the jump-ins. A wrong
        jump-in is not listed (see :meth:`is_wrong_jump_in`). Empty once the round is over.
        A list whose ``in`` also reads text (``"play R7" in game.legal_actions()``; see
        :class:`ddz.uno.actions.LegalActions`).
        """
        actions = LegalActions(map(_ACTION_OF_CODE, self._core.legal_codes()))
        if player is None:
            return actions
        seat = self._seat(player)
        return LegalActions([action for action in actions if action.player == seat])

    def legal_indices(self, player: int | None = None) -> list[int]:
        """The action indices (``ddz.uno.ActionSpace``) of ``player``'s legal actions
        (default: the player to act), sorted; what :meth:`step` and :meth:`push` take as an
        ``int``."""
        if player is None:
            player = self.current_player
            if player is None:
                return []
        seat = self._seat(player)
        players = self.players
        return sorted(
            index_of(action, players) for action in self.legal_actions() if action.player == seat
        )

    def parse_action(self, action: Action | str | int, *, player: int | None = None) -> Action:
        """An action from text; without an ``N:`` prefix the player is the one the action
        belongs to most naturally: the player on one card for ``uno``, the player to act for
        the rest (for ``catch N`` when N is the player to act: the next player). An ``int``
        (or numpy integer) is an action index of ``player`` (default: the player to act; for
        the UNO call, the player on one card)."""
        if isinstance(action, Action):
            return action
        if is_index(action):
            return self._action_of_index(action, player)  # type: ignore[arg-type]
        if not isinstance(action, str):
            raise ActionTypeError(
                f"an action is an Action, text or an action index, not {shorten(action)}"
            )
        try:
            check_text(action, "an UNO action")
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        default = self.current_player if self.current_player is not None else 0
        words = action.lower().split()
        if words[:1] == ["uno"] and self.uno_player is not None:
            default = self.uno_player
        elif words[:1] == ["catch"] and len(words) == 2 and words[1] == str(default):
            default = (default + self.direction) % self.players
        try:
            return Action.parse(action, default_player=default)
        except (TypeError, ValueError) as error:
            raise IllegalMoveError(str(error)) from None

    def why_illegal(self, action: Action | str | int) -> str | None:
        """None if the action is legal now (a wrong jump-in counts as legal: the rules punish
        it rather than forbid it), else why not (unreadable text and indices outside the
        space included). A value of another type raises
        :class:`ddz.errors.ActionTypeError` (a TypeError)."""
        try:
            parsed = self.parse_action(action)
        except ActionTypeError:
            raise
        except IllegalMoveError as error:
            return str(error)
        reason = self._core.check(parsed.code)
        if reason in (0, _WRONG_JUMP_IN):
            return None
        return self._explain(parsed, reason)

    def is_wrong_jump_in(self, action: Action | str | int) -> bool:
        """Is this an out-of-turn play the house rules punish: a card the player holds that is
        not the exact twin of the card just played (or comes too late)? It costs two cards."""
        return bool(self._core.check(self.parse_action(action).code) == _WRONG_JUMP_IN)

    def step(self, action: Action | str | int, *, player: int | None = None) -> Action:
        """Take an action, checked: IllegalMoveError (with the reason) leaves the game as it
        was. A wrong jump-in is taken: its player draws two. Returns the action.

        ``player`` is the seat taking the action: an ``int`` action is an action index of
        that seat (default: the player to act, see :meth:`parse_action`); text without ``N:``
        is that seat's action, and an action of another seat raises IllegalMoveError (a
        server's check)."""
        with self._lock:
            if is_index(action):
                parsed = self.parse_action(action, player=player)
            else:
                parsed = self._parse_for(action, player)  # type: ignore[arg-type]
            reason = self._core.step_checked(parsed.code)  # check and apply: one core call
            if reason not in (0, _WRONG_JUMP_IN):
                raise IllegalMoveError(self._explain(parsed, reason))
            return parsed

    def _parse_for(self, action: Action | str, player: object) -> Action:
        if player is None:
            return self.parse_action(action)
        try:
            seat = seat_of(self.players, player)
        except TypeError as error:
            raise ActionTypeError(str(error)) from None
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        if isinstance(action, str):
            try:
                parsed = Action.parse(action, default_player=seat)
            except ValueError as error:
                raise IllegalMoveError(str(error)) from None
        else:
            parsed = self.parse_action(action)
        if parsed.player != seat:
            raise IllegalMoveError(f"player {seat} cannot take player {parsed.player}'s action")
        return parsed

    def push(self, action: Action | int, *, player: int | None = None) -> None:
        """Take an action (or an action index of ``player``, default the player to act)
        without checking the rules: the fast path for simulation, for actions from
        :meth:`legal_actions` or :meth:`legal_indices`. An illegal action leaves the game in a
        state no rule allows (use :meth:`step` to check), but never one outside the core's
        memory: an index outside the space, a seat outside the game, a card its player does
        not hold, or any action once the round is over raises IllegalMoveError and changes
        nothing. One core call, atomic by itself but (like :meth:`push_code`) not serialised
        with the lock that :meth:`step` and :meth:`resolve` hold: it is the fast path."""
        if action.__class__ is not Action:
            action = self.parse_action(action, player=player)
        self._push_code(action.code)

    def push_code(self, code: int) -> None:
        """Take a raw core action code (``legal_codes()``, ``Action.code``) without checking
        the rules; like :meth:`push`, a code that would reach outside the state (malformed, a
        seat or card not in play, the round over) raises IllegalMoveError and changes
        nothing. The raw fast path: one core call, atomic by itself, not serialised with the
        lock :meth:`step` and :meth:`resolve` hold."""
        if not is_index(code):
            raise ActionTypeError(f"an action code is an integer, not {shorten(code)}")
        self._push_code(code)

    def step_code(self, code: int) -> Action:
        """Take a raw core action code, checked as :meth:`step` checks. Returns the action."""
        try:
            action = Action.from_code(code)
        except TypeError as error:
            raise ActionTypeError(str(error)) from None
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        return self.step(action)

    def undo(self) -> Action:
        """Take back the last action, restoring the state exactly; returns it. IndexError
        when there is nothing to undo."""
        with self._lock:
            return Action.from_code(self._core.undo())

    def resolve(self, intents: Iterable[Action | str]) -> list[Action]:
        """Settle actions several players take at the same moment; returns those taken.

        At most one action per player. Each must be legal (or a wrong jump-in) now, else
        IllegalMoveError and nothing changes. Order (docs/uno.md): the UNO call of the player
        on one card comes first (a call and a catch at once: the call wins); then catches,
        nearest to the player to act in turn order first (only the first one counts); then
        out-of-turn plays, nearest first: a jump-in ends the resolution, since play moves to
        the jumper, and a wrong jump-in costs two cards and lets the next one be tried; last,
        the player to act's own action, if it is still legal.
        """
        with self._lock:
            return self._resolve(intents)

    def _resolve(self, intents: Iterable[Action | str]) -> list[Action]:
        if isinstance(intents, (str, bytes)) or not hasattr(intents, "__iter__"):
            raise IllegalMoveError(f"resolve takes a list of actions, not {shorten(intents)}")
        parsed = []
        for intent in intents:  # at most one a player: stop reading past that
            parsed.append(self.parse_action(intent))
            if len(parsed) > self.players:
                raise IllegalMoveError("resolve takes at most one action per player")
        players = [action.player for action in parsed]
        if len(set(players)) != len(players):
            raise IllegalMoveError("resolve takes at most one action per player")
        for action in parsed:
            reason = self._core.check(action.code)
            if reason not in (0, _WRONG_JUMP_IN):
                raise IllegalMoveError(self._explain(action, reason))
        current = self.current_player
        if current is None:
            return []
        claims, jumps, turn = resolution_order(parsed, current, self.direction, self.players)
        taken: list[Action] = []
        # Each is checked and taken in one core call (a call, a catch and the turn action
        # are never wrong jump-ins, so "taken" is reason 0 for them).
        step = self._core.step_checked
        for action in claims:
            if step(action.code) == 0:
                taken.append(action)
        for action in jumps:
            reason = step(action.code)
            if reason in (0, _WRONG_JUMP_IN):
                taken.append(action)
                if reason == 0:
                    return taken
        for action in turn:
            if step(action.code) == 0:
                taken.append(action)
        return taken

    def copy(self) -> Game:
        """An independent copy, history and undo included."""
        with self._lock:
            core = self._core.copy()
        return Game._restore(self.rules, self.seed, self.dealer, self.deal, self._arrangement, core)

    def __reduce__(self) -> tuple[Any, ...]:
        with self._lock:
            core = self._core.copy()
        return (
            Game._restore,
            (self.rules, self.seed, self.dealer, self.deal, self._arrangement, core),
        )

    @staticmethod
    def _restore(
        rules: Rules,
        seed: int,
        dealer: int,
        deal: Deal | None,
        arrangement: Arrangement | None,
        core: Any,
    ) -> Game:
        other = object.__new__(Game)
        other._lock = threading.RLock()
        other.rules = rules
        other.seed = seed
        other.dealer = dealer
        other.deal = deal
        other._arrangement = arrangement
        other._core = core
        return other

    def playout(
        self, seed: int, *, eager: bool = False, max_steps: int = 1_000_000
    ) -> PlayoutResult:
        """Play random legal actions to the end of the round in the core, on a copy (this
        game is unchanged): uniform over every listed action, or (``eager``) never drawing
        or keeping while any other action is legal. For fast rollouts and benchmarks."""
        seed = check_seed(seed)
        max_steps = check_integer(max_steps, "max_steps", 0, 2**31 - 1)
        winner, blocked, steps, points = self._core.playout(seed, max_steps, bool(eager))
        return PlayoutResult(
            None if winner < 0 else int(winner), bool(blocked), int(steps), tuple(points)
        )

    # --- views ---------------------------------------------------------------------------

    def observation(self, player: int) -> Observation:
        """What ``player`` may know now: their cards, everyone's card counts, the discard
        pile, whose turn, the penalty, UNO and jump-in windows; never another player's cards
        or the order of the draw pile."""
        return observe(self, self._seat(player))

    def observation_vector(
        self, player: int, *, out: npt.NDArray[np.int8] | None = None
    ) -> npt.NDArray[np.int8]:
        """``observation(player).encode()`` computed in the core, into ``out`` when given (a
        writable, contiguous int8 array of ``OBSERVATION_SIZE`` entries), else a new array.

        >>> from ddz import uno
        >>> game = uno.Game(players=4, seed=3)
        >>> bool((game.observation_vector(1) == game.observation(1).encode()).all())
        True
        """
        if out is None:
            out = np.empty(OBSERVATION_SIZE, dtype=np.int8)
        elif not (
            isinstance(out, np.ndarray)
            and out.dtype == np.int8
            and out.ndim == 1
            and out.flags.c_contiguous
            and out.flags.writeable
        ):
            raise ValueError("out is a writable, contiguous, one-dimensional int8 array")
        self._core.observation_into(player, out)
        return out

    def __repr__(self) -> str:
        if self.is_over:
            end = "blocked" if self.is_blocked else f"won by {self.winner}"
            return f"<uno.Game over ({end}), ply {self.ply}>"
        return (
            f"<uno.Game {self.players} players, ply {self.ply}, top {self.top} "
            f"({self.colour}), to act {self.current_player}>"
        )

    def __str__(self) -> str:
        """The table with every hand (``ddz.uno.render.text(game, seat=k)``: one seat's view)."""
        from ddz.uno.render import text  # ddz.uno.render imports this module

        return text(self)

    def _repr_svg_(self) -> str:
        from ddz.uno.svg import table

        return table(self)

    # --- records -------------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """The round as ``seat`` may see it, JSON-ready: the public record, the seat's hand
        and the discard pile; no seed, no deal (``ddz.uno.records.view``)."""
        return records.view(self, seat)

    def _record(self) -> dict[str, Any]:
        """The JSON record (``to_json``): players, rules, seed, dealer, the deal when one was
        given (as the complete arrangement) and every action; :meth:`from_json` replays it."""
        return records.game_json(self, self._arrangement)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """The round :meth:`to_json` wrote, replayed action by action. Any fault in the
        record (not JSON, a missing or mistyped field, an action that does not read or is not
        legal) raises :class:`ddz.errors.RecordError` naming the field and the action number
        (counted from 1)."""
        return cls._replay(records.read_json(text))

    @classmethod
    def _replay(cls, record: records.RoundRecord) -> Game:
        """The round a record describes, its actions stepped one by one."""
        try:
            game = cls(record.players, seed=record.seed, rules=record.rules,
                       dealer=record.dealer, deal=record.deal)  # fmt: skip
        except (TypeError, ValueError) as error:
            raise RecordError(str(error), field="deal") from None
        for number, action in enumerate(record.actions, start=1):
            try:
                game.step(action)
            except ValueError as error:
                raise RecordError(str(error), ply=number, field="actions") from None
        return game

    # --- helpers -------------------------------------------------------------------------

    def _seat(self, player: object) -> int:
        """A seat of this game, checked (numpy integers too)."""
        try:
            return check_integer(player, "player", 0, self.players - 1)
        except TypeError as error:
            raise TypeError(f"{error} (a seat 0..{self.players - 1})") from None

    def _action_of_index(self, index: int, player: int | None) -> Action:
        if player is None:
            if int(index) == _UNO_INDEX and self.uno_player is not None:
                player = self.uno_player
            elif self.current_player is not None:
                player = self.current_player
            else:
                raise IllegalMoveError("the round is over")
        try:
            action = action_at(index, self._seat(player), self.players)
        except TypeError as error:
            raise ActionTypeError(str(error)) from None
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        if action is None:
            raise IllegalMoveError(
                "action index 0 is the pass, which only an environment takes (out of turn)"
            )
        return action

    def _push_code(self, code: int) -> None:
        try:
            self._core.push(code)
        except (TypeError, ValueError, OverflowError) as error:
            raise IllegalMoveError(str(error)) from None

    def _explain(self, action: Action, reason: int) -> str:
        stacked = "Draw Two" if self.pending_card == CARDS[12] else "Wild Draw Four"
        return refusal(action, reason, players=self.players, current=self.current_player,
                       drawn=self.drawn, pending=self.pending, pending_card=stacked,
                       colour=self.colour, top=self.top)  # fmt: skip


def is_index(action: object) -> bool:
    """Is action an action index (an ``int`` or numpy integer, not a ``bool``)?"""
    return isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
