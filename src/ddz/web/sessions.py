"""What the web page plays and replays: games held by id, every request checked.

A session is a game against the built-in agents (one person's seat, agents in the others)
or a replay of a record. Each turns its state into a JSON-ready dict: the table as SVG
(drawn from the person's seat: other hands and the kitty face down), the same as text, the
person's legal actions, a log. Requests arrive as decoded JSON; anything wrong in one
raises :class:`RequestError` with a message for the person (a bad field, an illegal move
and its reason), never anything else: the server answers those with status 400.

>>> store = Store()
>>> state = store.create({"game": "classic", "seat": 0, "agents": "greedy", "seed": 4})
>>> state["phase"], state["you"], state["turn"]
('play', 0, 0)
>>> store.act(state["id"], {"action": "333"})
Traceback (most recent call last):
...
ddz.web.sessions.RequestError: 333 plays cards the hand does not hold
"""

from __future__ import annotations

import abc
import collections
import json
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import ddz
import ddz.doudizhu.records
import ddz.doudizhu.svg
from ddz import uno
from ddz.base.errors import IllegalMoveError, shorten
from ddz.doudizhu import render
from ddz.doudizhu.rebuild import game_from_view
from ddz.doudizhu.rules import PRESETS
from ddz.play.agents import AGENTS, choose, make_agent
from ddz.uno import records as uno_records
from ddz.uno import render as uno_render
from ddz.uno import svg as uno_svg
from ddz.uno.agents import AGENTS as UNO_AGENTS
from ddz.uno.agents import choose as uno_choose
from ddz.uno.agents import make_agent as uno_make_agent

__all__ = [
    "GAMES",
    "IDLE_SECONDS",
    "MAX_GAME_PLIES",
    "MAX_REPLAYS",
    "MAX_REPLAY_PLIES",
    "MAX_SESSIONS",
    "RequestError",
    "SessionNotFound",
    "Store",
    "StoreFull",
    "read_record",
]

GAMES = ("classic", "two-player", "uno-landlord", "uno")
"""The games the page offers: the three Dou Dizhu variants and UNO (Lombardy rules)."""

MAX_SESSIONS = 200
"""Games held at once. A new game makes room by dropping the finished game used longest ago,
else the game in play idle longest beyond :data:`IDLE_SECONDS`; when every game is in play
and in use, it is refused (:class:`StoreFull`): no client can push out a game someone is
playing."""

IDLE_SECONDS = 30 * 60
"""A game in play untouched this long may make room for a new one."""

MAX_REPLAYS = 8
"""Replays held at once (besides the games); a new one drops the one used longest ago (the
page holds the record, so it can load it again)."""

MAX_REPLAY_PLIES = 10_000
"""The longest record a replay takes: a replay holds every position's undo snapshot (about
1 kB a ply for UNO), so this bounds its memory (~10 MB). Dou Dizhu games are a few hundred
plies at most; UNO rounds of random agents rarely pass 7,000."""

MAX_GAME_PLIES = 3_000
"""The longest UNO round the page plays (a person acts every few plies: real rounds are a
few hundred); a round that reaches it stops and takes no more actions. Dou Dizhu games end
long before."""

MAX_AGENT_STEPS = 10_000
"""Agent actions one request may run (a UNO round of agents ends long before)."""

REVIEW_NODE_LIMIT = 1_000_000
"""The budget of each position a replay's review searches (:func:`ddz.review`): a whole
classic game reviews in one to three seconds on the build machine (docs/solver.md)."""

REVIEW_MEMORY_MB = 64
"""The bound of a review's solver table."""

_REVIEWING = threading.Lock()
"""One review runs at a time on the server (each holds a solver and a core busy); a request
for another while one runs is refused (StoreFull, 503) rather than left waiting on a
connection thread."""

State = dict[str, Any]


class RequestError(ValueError):
    """A request the page should not have sent, or an illegal action: the message says why."""


class SessionNotFound(LookupError):
    """No session has this id (it never existed, was dropped, or the server restarted)."""


class StoreFull(RuntimeError):
    """Every game held is in play and in use: a new one would push out someone's game."""


def _field(body: object, name: str, kind: type, default: Any = None) -> Any:
    """``body[name]`` checked to be of ``kind`` (a missing field gives ``default``; no body
    at all is an empty one)."""
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise RequestError("the request body is a JSON object")
    value = body.get(name, default)
    if value is None:
        return None
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise RequestError(f"{name} is a whole number, not {shorten(value)}")
    if not isinstance(value, kind):
        raise RequestError(f"{name} is {kind.__name__}, not {shorten(value)}")
    return value


def _agent_names(text: str | None, names: Sequence[str], seats: int) -> list[str]:
    """One agent name per other seat: a comma-separated list, one name filling them all."""
    chosen = [name.strip() for name in (text or "greedy").split(",") if name.strip()]
    for name in chosen:
        if name not in names:
            raise RequestError(f"no agent {shorten(name)}; the agents are: {', '.join(names)}")
    if len(chosen) == 1:
        chosen *= seats
    if len(chosen) != seats:
        raise RequestError(f"name one agent, or one for each of the {seats} other seats")
    return chosen


def _seed(body: object) -> int:
    seed = _field(body, "seed", int)
    if seed is None:  # 64 bits: a seed is the whole deal, it must not be guessed
        return secrets.randbits(64)
    if not 0 <= seed < 1 << 64:
        raise RequestError("a seed is a whole number in 0 .. 2**64 - 1")
    return int(seed)


class Session(abc.ABC):
    """A game or a replay the page shows."""

    def __init__(self, session_id: str) -> None:
        self.id = session_id
        self.used = time.monotonic()

    @property
    def finished(self) -> bool:
        """Nothing more to play: dropping it loses no one's game in progress."""
        return True

    @abc.abstractmethod
    def state(self, body: object = None) -> State: ...

    def act(self, body: object) -> State:
        raise RequestError("a replay takes no actions: step through it instead")


# --- playing Dou Dizhu ------------------------------------------------------------------------


class DouDizhuGame(Session):
    """The person at ``seat`` against agents, one game (a void deal is redealt)."""

    def __init__(self, session_id: str, body: object) -> None:
        super().__init__(session_id)
        variant = _field(body, "game", str)
        self.rules = PRESETS[variant]
        self.seat = _field(body, "seat", int, 0)
        if self.seat not in range(self.rules.players):
            raise RequestError(f"seat is 0..{self.rules.players - 1} for {variant}")
        self.seed = _seed(body)
        others = [p for p in range(self.rules.players) if p != self.seat]
        names = _agent_names(_field(body, "agents", str), list(AGENTS), len(others))
        # the agents' own randomness, not the deal's seed: knowing one tells nothing of the other
        self.agents = {
            p: make_agent(n, secrets.randbits(64)) for p, n in zip(others, names, strict=True)
        }
        self.names = {p: n for p, n in zip(others, names, strict=True)}
        self.game = ddz.Game(self.rules, seed=self.seed)
        self.redeals = 0
        self.log: list[str] = []  # one line an action of this deal: line n is ply n
        self._advance()

    @property
    def finished(self) -> bool:
        return self.game.is_over

    def _intro(self) -> str:
        """The log's first line. The seed is the whole deal, every hand: it is told only once
        the game is over (then the record holds it too)."""
        game, over = self.game, self.game.is_over
        parts = [f"seed {self.seed}"] if over else []
        if self.redeals:
            times = "" if self.redeals == 1 else f" ({self.redeals} times)"
            parts.append(
                f"everyone passed, redealt{times}" + (f" with seed {game.seed}" if over else "")
            )
        parts.append(f"seat {game.first_player} bids first")
        return "; ".join(parts)

    def _advance(self) -> None:
        """Agents act until the person is to act or the game is over."""
        for _ in range(MAX_AGENT_STEPS):
            game = self.game
            if game.is_void:
                self.game = game.redeal()
                self.redeals += 1
                self.log = []
                continue
            seat = game.current_player
            if seat is None or seat == self.seat:
                return
            record = game.step(choose(self.agents[seat], game))
            self.log.append(f"seat {seat} ({self.names[seat]}): {record.action}")
        raise RequestError("the agents did not finish their turns")  # pragma: no cover

    def act(self, body: object) -> State:
        game = self.game
        if game.is_over:
            raise RequestError("the game is over: start a new one")
        if game.current_player != self.seat:  # pragma: no cover - agents always finish
            raise RequestError(f"it is seat {game.current_player}'s turn")
        action = _field(body, "action", str)
        cards = _field(body, "cards", str)
        if (action is None) == (cards is None):
            raise RequestError("send an action (text) or the cards to play")
        chosen = action if action is not None else self._move_of(cards)
        if len(chosen) > 200:
            raise RequestError(f"no action is that long: {shorten(chosen)}")
        try:
            record = game.step(chosen)
        except IllegalMoveError as error:
            raise RequestError(str(error)) from None
        self.log.append(f"seat {self.seat} (you): {record.action}")
        self._advance()
        return self.state()

    def _move_of(self, text: str) -> str:
        """The legal move that plays exactly these cards; when several readings do, the
        person chooses from the list."""
        if self.game.phase != "play":
            raise RequestError("bid first: choose pass or a bid")
        try:
            cards = ddz.Cards.parse(text)
        except ValueError as error:
            raise RequestError(str(error)) from None
        if not cards:
            raise RequestError("select cards to play (or pass)")
        matches = [str(a) for a in self.game.legal_actions() if a.cards == cards]  # type: ignore[union-attr]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise RequestError(f"{cards} can be played as {' or '.join(matches)}: choose one")
        reason = self.game.why_illegal(str(cards))
        raise RequestError(reason or f"{cards} is no legal move now")

    def state(self, body: object = None) -> State:
        game = self.game
        legal = [str(a) for a in game.legal_actions()] if game.current_player == self.seat else []
        seen = render.view(game, seat=None if game.is_over else self.seat)
        return {
            "id": self.id,
            "kind": "doudizhu",
            "game": render.rules_name(self.rules),
            "you": self.seat,
            "phase": game.phase,
            "turn": game.current_player,
            "legal": legal,
            "svg": ddz.doudizhu.svg.table(seen),
            "text": render.text(seen),
            **_log(self._intro(), self.log),
            "over": game.is_over,
            "result": seen.result,
            "outcome": _doudizhu_outcome(game, self.seat) if game.is_over else None,
            "record": game.to_json() if game.is_over else None,  # every hand is face up now
            "leading": game.phase == "play" and bool(legal) and "pass" not in legal,
            "hint": _doudizhu_hint(game, legal, seen.table),
        }


def _doudizhu_hint(game: ddz.Game, legal: list[str], table: ddz.Move | None) -> str:
    """What the person may do now, in the words of the buttons beside it."""
    if not legal:
        return ""
    if game.phase == "bidding":
        return "Bid or pass with the buttons below."
    if "pass" not in legal:  # leading: the rules allow no pass
        return "You lead: select the cards to play, then Play selected (any legal move)."
    beat = f"cards that beat {table}" if table is not None else "cards"
    return f"Select {beat}, then Play selected; or pass."


def _doudizhu_outcome(game: ddz.Game, seat: int) -> State:
    """The end from the person's side: did their side win, and their points."""
    landlord, winner = game.landlord, game.winner
    won = winner is not None and (winner == landlord) == (seat == landlord)
    points = game.payoffs()[seat]
    you = "the landlord" if seat == landlord else "a farmer"
    out = "the landlord" if winner == landlord else "the farmers"
    return {
        "won": won,
        "headline": "You won" if won else "You lost",
        "points": points,
        "detail": f"You played {you}; seat {winner} went out for {out}. "
        f"Your points: {points:+d} (score x{game.multiplier}).",
    }


# --- playing UNO ------------------------------------------------------------------------------


class UnoGame(Session):
    """The person at ``seat`` against agents, one round of UNO. The person is asked whenever
    they have a legal action, out of turn too (a jump-in, an UNO call, a catch): they may let
    the moment pass."""

    def __init__(self, session_id: str, body: object, *, max_plies: int = MAX_GAME_PLIES) -> None:
        super().__init__(session_id)
        self.max_plies = max_plies
        players = _field(body, "players", int, 4)
        if not 2 <= players <= uno.MAX_PLAYERS:
            raise RequestError(f"UNO is for 2..{uno.MAX_PLAYERS} players")
        self.seat = _field(body, "seat", int, 0)
        if self.seat not in range(players):
            raise RequestError(f"seat is 0..{players - 1} for {players} players")
        self.seed = _seed(body)
        others = [p for p in range(players) if p != self.seat]
        names = _agent_names(_field(body, "agents", str), list(UNO_AGENTS), len(others))
        self.agents = {  # seeded apart from the deal, as for Dou Dizhu
            p: uno_make_agent(n, secrets.randbits(64)) for p, n in zip(others, names, strict=True)
        }
        self.names = {p: n for p, n in zip(others, names, strict=True)}
        self.game = uno.Game(players, seed=self.seed)
        self.first_card = self.game.top  # face up on the table: no secret
        self.log: list[str] = []  # one line an action: line n is ply n
        self._advance(None, answered=False)

    @property
    def stopped(self) -> bool:
        """The round reached :data:`MAX_GAME_PLIES`: it takes no more actions."""
        return not self.game.is_over and self.game.ply >= self.max_plies

    @property
    def finished(self) -> bool:
        return self.game.is_over or self.stopped

    def _intro(self) -> str:
        told = f"the first card is {self.first_card}"
        return f"seed {self.seed}; {told}" if self.game.is_over else told

    def _mine(self) -> list[uno.Action]:
        return [] if self.stopped else self.game.legal_actions(self.seat)

    def _advance(self, mine: uno.Action | None, *, answered: bool) -> None:
        """Settle moments until the person has a legal action they have not answered, or the
        round is over: the first with the person's answer (``mine``, None to let it pass)
        when ``answered``, the rest with the agents' actions alone."""
        game = self.game
        for _ in range(MAX_AGENT_STEPS):
            if game.is_over or self.stopped or (self._mine() and not answered):
                return
            intents = [] if mine is None else [mine]
            by_player: dict[int, list[uno.Action]] = collections.defaultdict(list)
            for action in game.legal_actions():
                if action.player != self.seat:
                    by_player[action.player].append(action)
            for player, actions in by_player.items():
                wanted = uno_choose(self.agents[player], game, player, actions)
                if wanted is not None:
                    intents.append(wanted)
            try:
                taken = game.resolve(intents)
            except IllegalMoveError as error:
                raise RequestError(str(error)) from None
            for action, told in zip(taken, uno_render.narrate(game, last=len(taken)), strict=True):
                who = "you" if action.player == self.seat else self.names[action.player]
                self.log.append(f"player {action.player} ({who}): {told.split(': ', 1)[1]}")
            mine, answered = None, False
        raise RequestError("the agents did not finish their turns")  # pragma: no cover

    def act(self, body: object) -> State:
        game = self.game
        if game.is_over:
            raise RequestError("the round is over: start a new one")
        if self.stopped:
            raise RequestError(
                f"the round reached the server's limit of {self.max_plies} plies: start a new one"
            )
        mine = self._mine()
        if not mine:  # pragma: no cover - the session waits only for the person
            raise RequestError("nothing for you to do now")
        action = _field(body, "action", str)
        card = _field(body, "card", str)
        if action is not None and card is not None:
            raise RequestError("send an action or a card, not both")
        chosen: uno.Action | None = None
        if card is not None:
            chosen = self._play_of(card, mine)
        elif action is not None and action.strip().lower() != "none":
            try:
                chosen = game.parse_action(action if ":" in action else f"{self.seat}: {action}")
            except IllegalMoveError as error:
                raise RequestError(str(error)) from None
            if chosen.player != self.seat:
                raise RequestError("you act for yourself only")
            reason = game.why_illegal(chosen)
            if reason is not None:
                raise RequestError(reason)
        if chosen is None and game.current_player == self.seat:
            raise RequestError("it is your turn: play a card or draw")
        self._advance(chosen, answered=True)
        return self.state()

    def _play_of(self, text: str, mine: list[uno.Action]) -> uno.Action:
        try:
            card = uno.Card.parse(text)
        except ValueError as error:
            raise RequestError(str(error)) from None
        plays = [a for a in mine if a.kind == "play" and a.card == card]
        if len(plays) == 1:
            return plays[0]
        if plays:
            raise RequestError(f"choose the colour for {card}")
        reason = self.game.why_illegal(
            uno.Action(self.seat, "play", card, "red" if card.is_wild else None)
        )
        raise RequestError(reason or f"{card} cannot be played now")

    def state(self, body: object = None) -> State:
        game = self.game
        seat = None if game.is_over else self.seat
        mine = [a.text for a in self._mine()]
        return {
            "id": self.id,
            "kind": "uno",
            "game": "uno",
            "you": self.seat,
            "phase": "over" if game.is_over else "play",
            "turn": game.current_player,
            "legal": mine,
            "may_pass": bool(mine) and game.current_player != self.seat,
            "svg": uno_svg.table(game, seat=seat),
            "text": uno_render.text(game, seat=seat),
            **_log(self._intro(), self.log),
            "over": game.is_over,
            "result": _uno_result(game),
            "outcome": _uno_outcome(game, self.seat) if game.is_over else None,
            "record": game.to_json() if game.is_over else None,
            "hint": f"the round reached the server's limit of {self.max_plies} plies"
            if self.stopped
            else "Click a card to play it, or choose an action below.",
        }


def _log(intro: str, lines: list[str], shown: int = 60) -> State:
    """The log's part of a state: the intro line, the last ``shown`` actions and the number
    of the first (the page numbers them as plies)."""
    tail = lines[-shown:]
    return {"intro": intro, "log": tail, "log_start": len(lines) - len(tail) + 1}


def _uno_result(game: uno.Game) -> str | None:
    if not game.is_over:
        return None
    points = " ".join(str(p) for p in game.points())
    end = "blocked: nobody went out" if game.winner is None else f"player {game.winner} went out"
    return f"{end}; points {points}"


def _uno_outcome(game: uno.Game, seat: int) -> State:
    """The end of a round from the person's side: won when they went out. A blocked round
    (nobody went out) has no winner: ``won`` is None."""
    points = game.points()
    mine = points[seat]
    if game.winner is None:
        headline, won = "Blocked: nobody won", None
        fewest = min(points)
        least = [str(p) for p, n in enumerate(points) if n == fewest]
        told = f"Nobody went out; the fewest points ({fewest}): player {', '.join(least)}."
    else:
        won = game.winner == seat
        headline = "You won" if won else "You lost"
        told = "You went out." if won else f"Player {game.winner} went out."
    return {
        "won": won,
        "headline": headline,
        "points": mine,
        "detail": f"{told} Your points: {mine} (the cards left in your hand; fewer is better).",
    }


# --- replays --------------------------------------------------------------------------------


def read_record(text: str, max_plies: int | None = None) -> tuple[ddz.Game | uno.Game, int | None]:
    """A finished or unfinished game from a record, and the seat it is seen from (None: every
    hand). Dou Dizhu JSON (``ddz-game/1``), a seat's view of one (``ddz-view/1``, from
    ``to_json(seat=...)``: seen from that seat, the other hands never shown) or text
    (``Game.record()``), or UNO JSON (``ddz-uno-game/1``). A JSON record of more than
    ``max_plies`` actions is refused before it is replayed."""
    stripped = text.strip()
    if not stripped:
        raise RequestError("the record is empty")
    try:
        if stripped.startswith("{"):
            data = json.loads(stripped)
            kind = data.get("format") if isinstance(data, dict) else None
            actions = data.get("actions") if isinstance(data, dict) else None
            if max_plies is not None and isinstance(actions, list) and len(actions) > max_plies:
                raise RequestError(
                    f"the record has {len(actions)} plies; a replay holds at most {max_plies}"
                )
            if kind == "ddz-uno-game/1":
                return uno.Game.from_json(stripped), None
            if kind == ddz.doudizhu.records.VIEW_FORMAT:
                return game_from_view(data), data["seat"]
            if kind == uno_records.VIEW_FORMAT:
                raise RequestError(
                    f"this is player {shorten(data.get('seat'))}'s view of an UNO round "
                    "(to_json(seat=...)): it holds that player's cards at the end, not the "
                    "cards they drew on the way, so it cannot be stepped through; load the "
                    "round's full record (game.to_json())"
                )
            return ddz.Game.from_json(stripped), None
        return ddz.Game.from_record(stripped), None
    except (ValueError, KeyError, TypeError, IndexError, RecursionError) as error:
        if isinstance(error, RequestError):
            raise
        detail = str(error) if isinstance(error, ValueError) else f"missing or bad {error}"
        raise RequestError(f"the record does not replay: {shorten(detail, 300)[1:-1]}") from None


class Replay(Session):
    """A recorded game, shown at any ply: every hand face up, or a seat's view from that
    seat."""

    def __init__(self, session_id: str, body: object, *, max_plies: int = MAX_REPLAY_PLIES) -> None:
        super().__init__(session_id)
        record = _field(body, "record", str)
        if record is None:
            raise RequestError("send the record's text")
        self.game, self.seat = read_record(record, max_plies)
        plies = self.game.ply if isinstance(self.game, uno.Game) else len(self.game.history)
        if plies > max_plies:  # a text record, counted once read (Dou Dizhu: short anyway)
            raise RequestError(f"the record has {plies} plies; a replay holds at most {max_plies}")
        if isinstance(self.game, uno.Game):
            self.moves = uno_render.narrate(self.game)
        else:
            self.moves = [f"{r.player}: {r.action}" for r in self.game.history]
        self.reviewed: State | None = None  # the review, once asked for

    def reviewable(self) -> ddz.Game:
        """A copy of the game to review; RequestError for a game that cannot be."""
        if isinstance(self.game, uno.Game):
            raise RequestError("a review is for Dou Dizhu games, not UNO")
        if self.seat is not None:
            raise RequestError(
                "a review needs every hand: load the game's full record, not a seat's view"
            )
        return self.game.copy()

    def at(self, ply: int) -> ddz.Game | uno.Game:
        game = self.game.copy()
        for _ in range(len(self.moves) - ply):
            game.undo()
        return game

    def state(self, body: object = None) -> State:
        ply = _field(body, "ply", int)
        if ply is None:  # missing or null: the end
            ply = len(self.moves)
        if not 0 <= ply <= len(self.moves):
            raise RequestError(f"ply is 0..{len(self.moves)}")
        game = self.at(ply)
        if isinstance(game, uno.Game):
            svg, text, kind = uno_svg.table(game), uno_render.text(game), "uno"
        else:
            seen = render.view(game, seat=self.seat)
            svg, text = ddz.doudizhu.svg.table(seen), render.text(seen)
            kind = "doudizhu"
        return {
            "id": self.id,
            "kind": kind,
            "replay": True,
            "you": self.seat,
            "ply": ply,
            "plies": len(self.moves),
            "moves": self.moves,
            "svg": svg,
            "text": text,
            "over": game.is_over,
        }


# --- the store ------------------------------------------------------------------------------


class Store:
    """Sessions by id: at most ``limit`` games (:data:`MAX_SESSIONS`) and ``replays`` replays
    (:data:`MAX_REPLAYS`). One lock serialises their use (the agents answer in microseconds,
    so requests never wait long)."""

    def __init__(
        self,
        *,
        limit: int = MAX_SESSIONS,
        replays: int = MAX_REPLAYS,
        replay_plies: int = MAX_REPLAY_PLIES,
        game_plies: int = MAX_GAME_PLIES,
        idle: float = IDLE_SECONDS,
    ) -> None:
        self._sessions: collections.OrderedDict[str, Session] = collections.OrderedDict()
        self._lock = threading.Lock()
        self._limit = limit
        self._replays = replays
        self._replay_plies = replay_plies
        self._game_plies = game_plies
        self._idle = idle

    def _make_room(self, replay: bool) -> None:
        """Drop one session if a new one would pass its kind's limit (the lock is held)."""
        held = [s for s in self._sessions.values() if isinstance(s, Replay) == replay]
        if len(held) < (self._replays if replay else self._limit):
            return
        if replay:  # the page keeps the record: a dropped replay loads again
            del self._sessions[held[0].id]
            return
        now = time.monotonic()
        for victim in held:  # least recently used first
            if victim.finished:
                break
        else:
            idle = [s for s in held if now - s.used >= self._idle]
            if not idle:
                raise StoreFull(
                    f"the server holds {self._limit} games in play: finish one, or wait until "
                    f"one has been left for {self._idle / 60:g} minutes"
                )
            victim = idle[0]
        del self._sessions[victim.id]

    def _add(self, make: Callable[[str], Session], body: object = None) -> State:
        session = make(secrets.token_urlsafe(12))
        answer = session.state(body)  # a bad field refuses the session before it is held
        with self._lock:
            self._make_room(isinstance(session, Replay))
            self._sessions[session.id] = session
            return answer

    def create(self, body: object) -> State:
        """A new game: ``{"game": "classic" | "two-player" | "uno-landlord" | "uno",
        "seat": 0, "agents": "greedy" or "random,greedy", "seed": 7, "players": 4}``."""
        game = _field(body, "game", str)
        if game not in GAMES:
            raise RequestError(f"game is one of {', '.join(GAMES)}, not {shorten(game)}")
        if game == "uno":
            return self._add(lambda sid: UnoGame(sid, body, max_plies=self._game_plies))
        return self._add(lambda sid: DouDizhuGame(sid, body))

    def replay(self, body: object) -> State:
        """A new replay: ``{"record": "<JSON or text record>", "ply": 0}``, shown at ``ply``
        (missing: the end; the page asks for 0, the deal)."""
        return self._add(lambda sid: Replay(sid, body, max_plies=self._replay_plies), body)

    def get(self, session_id: str) -> Session:
        session = self._sessions.get(session_id)
        if session is None:
            raise SessionNotFound(session_id)
        self._sessions.move_to_end(session_id)
        session.used = time.monotonic()
        return session

    def state(self, session_id: str, body: object = None) -> State:
        with self._lock:
            return self.get(session_id).state(body)

    def review(self, session_id: str) -> State:
        """A replay's review (:func:`ddz.review` at :data:`REVIEW_NODE_LIMIT` nodes a
        position): ``{"id", "node_limit", "plies", "known", "blunders", "rows": [...]}``,
        each row as :meth:`ddz.ReviewRow.to_dict` writes it. Searched without the store's
        lock (it takes a second or more), one review at a time, then kept with the replay."""
        with self._lock:
            session = self.get(session_id)
            if not isinstance(session, Replay):
                raise RequestError("only a replay is reviewed")
            if session.reviewed is not None:
                return session.reviewed
            game = session.reviewable()
        if not _REVIEWING.acquire(blocking=False):
            raise StoreFull("another review is running: ask again in a few seconds")
        try:
            result = ddz.review(game, node_limit=REVIEW_NODE_LIMIT, memory_mb=REVIEW_MEMORY_MB)
        finally:
            _REVIEWING.release()
        answer: State = {"id": session_id, **result.to_dict()}
        del answer["seconds"]  # the rest is the same on every machine
        with self._lock:
            session.reviewed = answer
        return answer

    def act(self, session_id: str, body: object) -> State:
        with self._lock:
            return self.get(session_id).act(body)
