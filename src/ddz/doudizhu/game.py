"""A whole game of Dou Dizhu: deal, bidding, play, scoring; undo, copy, records.

The state lives in the native core (``ddz._core.game``); this module converts and explains.

>>> import ddz
>>> game = ddz.Game(seed=7)
>>> game.phase, game.current_player, len(game.hands[0]), len(game.kitty)
('bidding', 2, 17, 3)
>>> [str(a) for a in game.legal_actions()]
['pass', 'bid 1', 'bid 2', 'bid 3']
>>> record = game.step("bid 3")
>>> game.phase, game.landlord, len(game.hands[2]), str(game.kitty)
('play', 2, 20, '88K')
>>> game.step("pass")
Traceback (most recent call last):
...
ddz.errors.IllegalMoveError: the leader of a trick cannot pass
>>> game.undo().action
Bid('bid', 3)
>>> game.phase
'bidding'
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import Any, TypeGuard

import numpy as np
import numpy.typing as npt

from ddz._core import game as _core
from ddz._core.game import GameCore
from ddz.base.errors import (
    ActionTypeError,
    IllegalMoveError,
    RecordError,
    check_integer,
    check_seed,
    shorten,
)
from ddz.base.protocol import GameBase
from ddz.base.seats import seat_of
from ddz.doudizhu import records
from ddz.doudizhu.actions import (
    Action,
    ActionRecord,
    Bid,
    LegalActions,
    action_tables,
    parse_action,
)
from ddz.doudizhu.cards import Cards, CardsLike
from ddz.doudizhu.moves import PASS, Move, why_illegal
from ddz.doudizhu.observation import HISTORY, Observation, observation_size, observe
from ddz.doudizhu.position import Position
from ddz.doudizhu.rules import CLASSIC, Rules, check_deal

__all__ = ["Game"]


class Game(GameBase):
    """One game under ``rules``: deal, bidding, play, scoring (docs/rules.md and its chapters: the
    classic game, the two-player game and Uno the Landlord).

    ``Game(rules, seed=...)`` deals from a seeded generator that gives the same game on every
    machine; ``deal=(hands, kitty)`` fixes the cards instead, and ``first_player`` who bids
    first (or, with random-landlord rules, who is landlord). Actions are ``Move`` objects,
    ``Bid`` objects, their text, or action indices (``int``: ``ddz.ActionSpace`` numbering);
    raw core codes go through :meth:`step_code` and :meth:`push_code`. :meth:`step` checks an
    action and raises :class:`ddz.IllegalMoveError` (leaving the game as it was); :meth:`push`
    does not check the rules, yet refuses what would break the state (``docs/safety.md``).

    A game may be shared by threads: each call is one atomic step of the core (serialised),
    so no interleaving corrupts it. ``copy.copy``, ``copy.deepcopy`` and ``pickle`` give
    independent games in an equal state, history and undo included.

    :meth:`from_position` starts a game at any play-phase position instead
    (``docs/positions.md``).
    """

    _position: Position | None = None  # where a game from from_position started
    # the history's entries and records last read (see history)
    _history_kept: tuple[list[tuple[int, int, str, int]], list[ActionRecord]] | None = None
    _core: GameCore

    def __init__(
        self,
        rules: Rules = CLASSIC,
        *,
        seed: int | None = None,
        deal: tuple[Sequence[CardsLike], CardsLike] | None = None,
        first_player: int | None = None,
    ) -> None:
        seed = random.SystemRandom().getrandbits(63) if seed is None else check_seed(seed)
        self.rules = rules
        self.seed = seed
        dealt_hands, dealt_kitty, state = _core.shuffled_deal(rules, seed)
        if deal is None:
            hands = [Cards.from_mask(mask) for mask in dealt_hands]
            kitty = Cards.from_mask(dealt_kitty)
        else:
            hands, kitty = check_deal(deal, rules)
        if first_player is None:
            first_player, _ = _core.seeded_below(state, rules.players)
        else:
            first_player = check_integer(first_player, "first_player", 0, rules.players - 1)
        self._core = _core.GameCore(
            rules, [h.mask for h in hands], kitty.mask, first_player, first_player
        )
        self._deal = (tuple(hands), kitty, first_player)

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        hands: Sequence[CardsLike],
        *,
        landlord: int,
        to_act: int,
        table: Move | str | None = None,
        table_player: int | None = None,
        played: Sequence[CardsLike] | None = None,
        kitty: CardsLike | None = None,
        bid: int = 1,
        bombs: int = 0,
        grabs: int = 0,
        direction: int = 1,
        landlord_moves: int | None = None,
        farmer_moves: int | None = None,
    ) -> Game:
        """A game in its play phase at any position under ``rules``: every seat's cards (any
        sizes), the landlord, the seat to act, the move to beat and who made it, the cards
        played so far and the multiplier's inputs. Validated (``ValueError``/``TypeError``
        saying what is wrong); see :class:`ddz.Position` for every argument.

        >>> import ddz
        >>> game = ddz.Game.from_position(ddz.ENDGAME, ["33", "4"], landlord=0, to_act=1,
        ...                               table="3", table_player=0)
        >>> [str(a) for a in game.legal_actions()], game.position()
        (['pass', '4'], Position.parse('33/4 landlord=0 turn=1 table=3@0 rules=endgame'))
        """
        return cls._at_position(
            Position(
                rules,
                hands,
                landlord=landlord,
                to_act=to_act,
                table=table,
                table_player=table_player,
                played=played,
                kitty=kitty,
                bid=bid,
                bombs=bombs,
                grabs=grabs,
                direction=direction,
                landlord_moves=landlord_moves,
                farmer_moves=farmer_moves,
            )
        )

    @classmethod
    def _at_position(cls, position: Position) -> Game:
        game = object.__new__(cls)
        game.rules = position.rules
        game.seed = 0
        game._position = position
        game._deal = (position.hands, position.kitty, position.landlord)
        game._core = _core.GameCore(position.rules, [0] * position.rules.players, 0, 0, 0)
        game._core.set_position(
            [hand.mask for hand in position.hands],
            [cards.mask for cards in position.played],
            position.kitty.mask,
            position.landlord,
            position.to_act,
            0 if position.table is None else position.table.code,
            -1 if position.table_player is None else position.table_player,
            position.bid,
            position.bombs,
            position.grabs,
            position.direction,
            position.landlord_moves,
            position.farmer_moves,
        )
        return game

    def position(self) -> Position:
        """The position now (play phase only): ``str(game.position())`` is its text form,
        ``game.position().game()`` a new game there, without this one's history."""
        if self.phase != "play":
            raise ValueError(f"a position is a play-phase state; this game is in {self.phase}")
        landlord = self._core.landlord
        return Position(
            self.rules,
            self.hands,
            landlord=landlord,
            to_act=self._core.current,
            table=self.table,
            table_player=self.table_player,
            played=[Cards.from_mask(cards) for cards in self._core.played],
            kitty=self.kitty,
            bid=self.bid,
            bombs=self.bombs,
            grabs=self.grabs,
            direction=self.direction,
            landlord_moves=self._core.landlord_plays,
            farmer_moves=self._core.farmer_plays,
        )

    @property
    def start(self) -> Position | None:
        """The position a game from :meth:`from_position` started at; None for a dealt game."""
        return self._position

    # --- state ---------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``"bidding"``, ``"play"`` or ``"over"``."""
        return str(self._core.phase)

    @property
    def current_player(self) -> int | None:
        """The seat to act; None once the game is over."""
        seat = self._core.current
        return None if seat < 0 else int(seat)

    @property
    def landlord(self) -> int | None:
        """The landlord's seat; None until bidding settles it (and for a void deal)."""
        seat = self._core.landlord
        return None if seat < 0 else int(seat)

    @property
    def hands(self) -> tuple[Cards, ...]:
        """Every seat's cards now (the landlord's with the kitty once settled)."""
        return tuple(Cards.from_mask(mask) for mask in self._core.hands)

    @property
    def kitty(self) -> Cards:
        return Cards.from_mask(self._core.kitty)

    @property
    def deal(self) -> tuple[tuple[Cards, ...], Cards]:
        """The cards as dealt: the hands before bidding and the kitty."""
        return self._deal[0], self._deal[1]

    @property
    def first_player(self) -> int:
        """Who bid first (or, with random-landlord rules, who was made landlord)."""
        return self._deal[2]

    @property
    def table(self) -> Move | None:
        """The move to beat; None when the player to act leads."""
        code = self._core.table
        return Move.from_code(code) if code else None

    @property
    def table_player(self) -> int | None:
        seat = self._core.table_player
        return None if seat < 0 else int(seat)

    @property
    def history(self) -> list[ActionRecord]:
        """Every action so far, oldest first."""
        entries = self._core.history_entries()
        # the records are immutable: those of the entries read last time that are still the
        # game's first entries (a step adds one, an undo takes one back) are reused, so an
        # agent reading the history at every turn builds only the records of the new actions
        kept = self._history_kept
        records: list[ActionRecord] = []
        if kept is not None:
            known, records = kept
            if len(known) <= len(entries):
                if entries[: len(known)] != known:
                    records = []
            elif known[: len(entries)] == entries:
                records = records[: len(entries)]
            else:
                records = []
        records = records + [
            ActionRecord(ply, player, phase, self._action_of(code, phase))
            for ply, player, phase, code in entries[len(records) :]
        ]
        self._history_kept = (entries, records)
        return list(records)

    def __getstate__(self) -> dict[str, Any]:
        # the kept records are a cache of the history: copies and pickles rebuild theirs
        state = self.__dict__.copy()
        state.pop("_history_kept", None)
        return state

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def is_void(self) -> bool:
        """Everyone passed in bidding: nobody is landlord and the payoffs are zero."""
        return bool(self._core.void)

    @property
    def winner(self) -> int | None:
        """The seat that emptied its hand (its side won); None while playing and when void."""
        seat = self._core.winner
        return None if seat < 0 else int(seat)

    @property
    def bid(self) -> int:
        """The highest bid so far (points bidding); the base score once settled."""
        return int(self._core.bid)

    @property
    def grabs(self) -> int:
        """Grabs so far (call/grab bidding): each doubles the score; with two players each is
        also a let card."""
        return int(self._core.grabs)

    @property
    def direction(self) -> int:
        """+1 while play runs in seat order (0, 1, 2), -1 after an odd number of Reverses."""
        return int(self._core.direction)

    @property
    def set_aside(self) -> Cards:
        """Cards dealt to nobody (the two-player game's 9): never shown to any player. For a
        game from a position: the cards no seat held or had played there."""
        if self._position is not None:
            held = Cards()
            for cards in self._position.hands + self._position.played:
                held = held + cards
            return self.rules.deck - held
        dealt = self._deal[1]
        for hand in self._deal[0]:
            dealt = dealt + hand
        return self.rules.deck - dealt

    @property
    def bombs(self) -> int:
        """Bombs and rockets played so far."""
        return int(self._core.bombs)

    @property
    def spring(self) -> bool:
        """Over, and the losers played no card (or the landlord only the opening move)."""
        return bool(self._core.spring)

    @property
    def multiplier(self) -> int:
        """The score as it stands: base x 2 per bomb and rocket (x 2 per grab) x 2 for a
        spring at the end when the rules count springs. 0 while no bid or call has set a
        base."""
        return int(self._core.multiplier())

    def payoffs(self) -> list[int]:
        """Points per seat, zero-sum: the landlord wins or loses twice the score, each farmer
        the opposite once; all zero until the game is over and for a void deal."""
        return list(self._core.payoffs())

    # --- actions -------------------------------------------------------------------------

    def legal_actions(self) -> LegalActions:
        """Every legal action of the player to act (empty once the game is over), as a
        list whose ``in`` also reads text: ``"3" in game.legal_actions()`` (see
        :class:`ddz.doudizhu.actions.LegalActions`)."""
        phase = self._core.phase
        if phase == "play":
            actions = LegalActions(self._core.legal_moves())  # hot: no Python-level __init__
        else:
            actions = LegalActions([Bid.from_code(code) for code in self._core.bidding_codes()])
        actions.phase = phase
        return actions

    def legal_codes(self) -> npt.NDArray[np.uint64]:
        """The legal actions' core codes (``Move.code``, ``Bid.code``), in the order of
        :meth:`legal_actions`, as a new uint64 array: no objects are built."""
        out = np.empty(256, dtype=np.uint64)
        count = self._core.legal_codes_into(out)
        if count > len(out):
            out = np.empty(count, dtype=np.uint64)
            count = self._core.legal_codes_into(out)
        return out[:count]

    def legal_indices(self) -> npt.NDArray[np.int64]:
        """The legal actions' indices in ``ddz.ActionSpace(self.rules)``, in the order of
        :meth:`legal_actions`, as a new int64 array (from the core, no objects built).

        >>> import ddz
        >>> game = ddz.Game(seed=7)
        >>> [str(ddz.ActionSpace(game.rules).action(int(i))) for i in game.legal_indices()]
        ['pass', 'bid 1', 'bid 2', 'bid 3']
        """
        index = action_tables(self.rules)[1]
        out = np.empty(256, dtype=np.int64)
        count = self._core.legal_indices_into(index, out)
        if count > len(out):
            out = np.empty(count, dtype=np.int64)
            count = self._core.legal_indices_into(index, out)
        return out[:count]

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """The legal actions as a bool vector over ``ddz.ActionSpace(self.rules)``."""
        mask = np.zeros(self.rules.num_actions, dtype=np.bool_)
        mask[self.legal_indices()] = True
        return mask

    def parse_action(self, action: Action | str | int) -> Action:
        """An action object from text: ``"pass"`` (in either phase), ``"bid 2"``,
        ``"call"``, ``"grab"``, or a move in the notation; or from an action index (an
        ``int`` or numpy integer, as in :meth:`step`). :class:`ddz.errors.ActionTypeError`
        (an IllegalMoveError and a TypeError) for a value of another type."""
        if _is_index(action):
            index = int(action)
            code, _ = self._code_of(index)  # the range check and its message
            # ddz.ActionSpace's numbering: the five bidding actions come last
            bidding = index >= self.rules.num_actions - 5  # bid 1..3, call, grab
            named: Action = Bid.from_code(code) if bidding else Move.from_code(code)
            return parse_action(named, self.phase)  # the pass as the phase's own
        return parse_action(action, self.phase)  # type: ignore[arg-type]

    def why_illegal(self, action: Action | str | int) -> str | None:
        """None if the action is legal now, else why not (unreadable text included). An
        ``int`` is an action index, as in :meth:`step`; a value of another type raises
        :class:`ddz.errors.ActionTypeError` (a TypeError)."""
        try:
            code, parsed = self._code_of(action)
        except ActionTypeError:
            raise
        except IllegalMoveError as error:
            return str(error)
        reason = self._core.check(code)
        return None if reason == 0 else self._reason(code, parsed, reason)

    def step(self, action: Action | str | int, *, player: int | None = None) -> ActionRecord:
        """Take an action, checked: IllegalMoveError (with the reason) leaves the game as it
        was. Returns the record appended to the history. ``player`` is the seat sending the
        action (a server's check): IllegalMoveError unless it is that seat's turn.

        ``action`` is a ``Move``, a ``Bid``, their text, or an ``int`` (or numpy integer):
        an action *index* of ``ddz.ActionSpace(self.rules)``, what masks and environments
        hand out. Raw core move codes go through :meth:`step_code`. The check and the
        change are one call into the core, so threads sharing a game cannot interleave them.
        """
        if player is not None:
            self._check_turn(player)
        code, parsed = self._code_of(action)
        return self._step(code, parsed)

    def _check_turn(self, player: object) -> None:
        try:
            seat = seat_of(self.rules.players, player)
        except TypeError as error:
            raise ActionTypeError(str(error)) from None
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        if self.current_player is None:
            raise IllegalMoveError("the game is over")
        if seat != self.current_player:
            raise IllegalMoveError(f"it is seat {self.current_player}'s turn, not seat {seat}'s")

    def step_code(self, code: int) -> ActionRecord:
        """:meth:`step` for a raw core action code (``Move.code``, ``Bid.code``;
        ``docs/layout.md``): checked the same way."""
        return self._step(_raw_code(code), None)

    def push(self, action: Action | str | int) -> None:
        """Take an action without checking the rules: the fast path for search and
        simulation, for actions from :meth:`legal_actions` (or their indices: an ``int`` is
        an action index, as in :meth:`step`). An action that is not legal here leaves the
        game in a state no rule allows; use :meth:`step` to check.

        Unchecked skips the rules of turn (beating the table, the leader's pass, the bidding
        order), never the shape of an action: any action once the game is over, a move in
        bidding or a bid in play, text that is no move under the rules, or cards the player
        does not hold raise :class:`ddz.IllegalMoveError` and change nothing
        (``docs/safety.md``)."""
        cls = action.__class__
        code = action.code if cls is Move or cls is Bid else self._code_of(action)[0]  # type: ignore[union-attr]
        if self._core.push(code):
            self._refuse_push(code)

    def push_code(self, code: int) -> None:
        """:meth:`push` for a raw core action code: unchecked in the same way, and refused
        in the same way when it would take the state outside what the core can hold."""
        code = _raw_code(code)
        if self._core.push(code):
            self._refuse_push(code)

    def undo(self) -> ActionRecord:
        """Take back the last action, restoring the state exactly; returns its record.
        IndexError when there is nothing to undo."""
        code, ply, player, phase = self._core.undo()
        return ActionRecord(ply, player, phase, self._action_of(code, phase))

    def copy(self) -> Game:
        """An independent copy, history and undo included (``copy.copy``, ``copy.deepcopy``
        and ``pickle`` give the same)."""
        other = object.__new__(Game)
        other.rules = self.rules
        other.seed = self.seed
        other._deal = self._deal
        other._position = self._position
        other._core = self._core.copy()
        return other

    # --- the meaning of an action --------------------------------------------------------

    def _code_of(self, action: Action | str | int) -> tuple[int, Action | None]:
        """(core code, action object or None) of what step/push/why_illegal accept."""
        if _is_index(action):
            codes = action_tables(self.rules)[2]  # ddz.ActionSpace's numbering, built once
            index = operator.index(action)
            if not 0 <= index < len(codes):
                raise IllegalMoveError(
                    f"action index {shorten(index)} is outside 0..{len(codes) - 1} "
                    "(ddz.ActionSpace of these rules); raw move codes go through "
                    "step_code/push_code"
                )
            return codes.item(index), None
        parsed = self.parse_action(action)  # a bool: refused there
        return parsed.code, parsed

    def _step(self, code: int, parsed: Action | None) -> ActionRecord:
        reason, ply, player, phase = self._core.step(code)
        if reason:
            raise IllegalMoveError(self._reason(code, parsed, reason))
        if parsed is None or parsed.code == 0:
            parsed = self._action_of(code, phase)
        return ActionRecord(ply, player, phase, parsed)

    def _reason(self, code: int, parsed: Action | None, reason: int) -> str:
        """The text of the core's reason for refusing code."""
        if reason == 1:
            return "the game is over"
        if parsed is None:
            try:
                parsed = self._action_of(code, self.phase if reason != 2 else "play")
            except ValueError:
                if reason == 2 and self.phase == "bidding":
                    return f"code {code:#x} is no bidding action, and the game is in bidding"
                return f"code {code:#x} is no action of this game"
        if reason == 2:
            if self.phase == "bidding":
                return f"{parsed} is a move, but the game is in bidding (bid, call, grab or pass)"
            return f"{parsed} is a bidding action, but bidding is over"
        if reason == 3:
            legal = ", ".join(str(a) for a in self.legal_actions())
            return f"{parsed} is not a bidding action seat {self.current_player} has: {legal}"
        if not isinstance(parsed, Move):
            return f"{parsed} is not legal here"
        seat = self._core.current
        if seat < 0:
            return "the game is over"
        return (
            why_illegal(
                Cards.from_mask(self._core.hands[seat]), parsed, self.table, rules=self.rules
            )
            or f"{parsed} is not legal"
        )

    def _refuse_push(self, code: int) -> None:
        """Raise for an action push refused (it would leave the state's invariants)."""
        if self.is_over:
            raise IllegalMoveError("the game is over: nothing can be pushed")
        if self.phase == "bidding":
            raise IllegalMoveError(
                f"code {code:#x} is no bidding action (pass, bid 1..3, call, grab), and the "
                "game is in bidding: push checks no rules, but only these can be applied here"
            )
        raise IllegalMoveError(
            f"code {code:#x} is no move under these rules of cards seat {self.current_player} "
            "holds: push skips the rules of turn, never the shape of a move"
        )

    def redeal(self) -> Game:
        """The next game after a void deal (or any game): same rules, the next seed, and the
        next seat bids first."""
        return Game(
            self.rules,
            seed=(self.seed + 1) % (1 << 64),
            first_player=(self.first_player + 1) % self.rules.players,
        )

    # --- views ---------------------------------------------------------------------------

    def observation(self, player: int, *, history: bool = True) -> Observation:
        """What ``player`` may know now: their hand, the others' card counts, the cards each
        seat played, the kitty once the landlord took it, the table, bids and history, and
        their legal actions when it is their turn (what an agent receives, ``ddz.play.agents``).

        ``history=False`` leaves the history out (an empty tuple): building it costs time in
        proportion to the game's length, and ``encode()`` does not use it."""
        return observe(self, check_integer(player, "player", 0, self.rules.players - 1), history)

    def observation_vector(
        self,
        player: int,
        *,
        history: int = HISTORY,
        out: npt.NDArray[np.int8] | None = None,
    ) -> npt.NDArray[np.int8]:
        """What ``player`` may know now as an int8 vector computed in the core, laid out as
        ``observation_layout(history)``: ``Observation.encode()``'s fields, the bombs so
        far, and the last ``history`` moves of play (read from the game's own undo stack,
        nothing rebuilt). Written into ``out`` when given (a contiguous int8 array of
        ``observation_size(history)`` entries), else into a new array.

        >>> game = Game(seed=7)
        >>> vector = game.observation_vector(0)
        >>> vector.shape, bool((vector[:140] == game.observation(0).encode()).all())
        ((441,), True)
        """
        if out is None:
            out = np.empty(observation_size(history), dtype=np.int8)
        elif not (
            isinstance(out, np.ndarray)
            and out.dtype == np.int8
            and out.ndim == 1
            and out.flags.c_contiguous
            and out.flags.writeable
        ):
            raise ValueError("out is a writable, contiguous, one-dimensional int8 array")
        self._core.observation_into(player, history, out)
        return out

    def __repr__(self) -> str:
        return (
            f"<Game {self.phase}, ply {self._core.ply}, to act {self.current_player}, "
            f"landlord {self.landlord}>"
        )

    def __str__(self) -> str:
        """The table with every hand (``render.text(game, seat=k)``: one seat's view)."""
        from ddz.doudizhu.render import text  # ddz.doudizhu.render imports this module

        return text(self)

    def _repr_svg_(self) -> str:
        from ddz.doudizhu.svg import table

        return table(self)

    # --- records -------------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """The record as ``seat`` may see it, JSON-ready: the other hands, the kitty until a
        landlord takes it and the seed left out (``ddz.doudizhu.records.view``)."""
        return records.view(self, seat)

    def _record(self) -> dict[str, Any]:
        """The JSON record (``to_json``): rules, seed, deal, first player and every action."""
        return records.game_json(self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """The game :meth:`to_json` wrote, replayed action by action. Any fault (not JSON, a
        missing or mistyped field, cards that do not read, an action that is not legal)
        raises :class:`ddz.RecordError` naming the field and the action number (from 1)."""
        return cls._replay(records.read_json(text))

    def record(self) -> str:
        """A compact, readable record of the game that :meth:`from_record` replays."""
        return records.game_text(self)

    @classmethod
    def from_record(cls, text: str) -> Game:
        """The game :meth:`record` wrote, replayed. Any fault raises :class:`ddz.RecordError`
        naming the line's field (``seed``, ``hand 1``, ...) or the action number (from 1)."""
        return cls._replay(records.read_text(text))

    @classmethod
    def _replay(cls, record: records.GameRecord) -> Game:
        """The game a record describes, its actions stepped one by one; RecordError names
        the field or the action number (from 1) at fault."""
        if record.position is not None:
            try:
                game = cls._at_position(record.position)
            except (TypeError, ValueError) as error:
                raise RecordError(str(error), field="position") from None
        else:
            try:
                game = cls(record.rules, seed=record.seed, deal=(record.hands, record.kitty),
                           first_player=record.first_player)  # fmt: skip
            except (TypeError, ValueError) as error:
                raise RecordError(str(error), field="hands") from None
        for number, (player, action) in enumerate(
            zip(record.players, record.actions, strict=True), 1
        ):
            if player is not None and player != game.current_player:
                raise RecordError(
                    f"record says seat {player} acts at ply {game._core.ply}, "
                    f"but it is seat {game.current_player}'s turn",
                    ply=number,
                )
            try:
                game.step(action)
            except ValueError as error:
                raise RecordError(str(error), ply=number, field=record.actions_field) from None
        if record.result is not None and record.result != records.result_text(game):
            raise RecordError(
                f"record's result {shorten(record.result)} differs from the replay's "
                f"{records.result_text(game)!r}",
                field="result",
            )
        return game

    # --- helpers -------------------------------------------------------------------------

    @staticmethod
    def _action_of(code: int, phase: str) -> Action:
        if phase == "bidding":
            return Bid.from_code(code)
        return Move.from_code(code) if code else PASS


def _raw_code(code: object) -> int:
    """A raw action code as a Python int: any integer (numpy's too) in 0 .. 2**64 - 1."""
    if type(code) is int and 0 <= code < 1 << 64:  # the search loop's case, checked first
        return code
    if not _is_index(code):
        raise ActionTypeError(f"an action code is an integer, not {shorten(code)}")
    value = operator.index(code)
    if not 0 <= value < 1 << 64:
        raise IllegalMoveError(f"an action code lies in 0 .. 2**64 - 1, not {shorten(value)}")
    return value


def _is_index(value: object) -> TypeGuard[int | np.integer[Any]]:
    """Is value an integer (``int`` or numpy integer; a ``bool`` is none)?"""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
