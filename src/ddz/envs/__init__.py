"""Standard reinforcement-learning environments: the games behind them, defined once.

The environments themselves live in two modules that need the ``rl`` extra
(``pip install ddz[rl]``: PettingZoo and Gymnasium); ``import ddz`` and ``import ddz.envs``
never import either library:

* :mod:`ddz.envs.pettingzoo`: a PettingZoo AEC environment for every game, all seats agents;
* :mod:`ddz.envs.gymnasium`: a Gymnasium environment in which one seat learns and ddz agents
  play the other seats.

This module holds what both share, so that every rule of the environments is written down
once: an :class:`Adapter` turns a game into one decision at a time, with actions as indices
of a fixed action space. docs/environments.md is the manual.

**Games.** ``"classic"``, ``"two-player"`` and ``"uno-landlord"`` play Dou Dizhu under
``ddz.CLASSIC``, ``ddz.TWO_PLAYER`` and ``ddz.UNO_LANDLORD`` (or ``rules=`` any
``ddz.Rules``); ``"uno"`` plays one round of UNO (``players=`` 2..10, default 4;
``rules=`` a ``ddz.uno.Rules``, default ``ddz.uno.LOMBARDY``). Seat ``k`` is the agent
``"player_k"``.

**Observations.** The seat's ``observation(seat).encode()``: an int8 vector of
``ddz.OBSERVATION_SIZE`` (140) entries for Dou Dizhu, ``ddz.uno.OBSERVATION_SIZE`` (267) for
UNO, with the bounds :attr:`Adapter.observation_low` and :attr:`Adapter.observation_high`;
and an int8 action mask, 1 for each legal action of the seat, all 0 when the seat has
nothing to decide (not its turn, or the game is over).

**Actions.** Dou Dizhu: the indices of ``ddz.ActionSpace(rules)`` (0 is the pass, in play
and in bidding). UNO: the indices of :class:`UnoActionSpace` (0 is the pass, doing nothing
out of turn).

**Rewards.** Only at the end of the game, one per seat. Dou Dizhu: ``game.payoffs()``, the
points each seat wins or loses (zero-sum; 0 for everyone after a void deal, in which every
seat passed in bidding: the episode ends there, it is not dealt again). UNO, as
``reward=`` says: ``"win"`` (the default) gives the player who went out +1 and every other
player ``-1 / (players - 1)`` (zero-sum; 0 for everyone in a blocked round); ``"points"``
gives every player minus the golf value of the cards left in their hand (0 for the player who
went out; lower is worse, as in a match).

**UNO out of turn.** UNO lets players act out of turn (a jump-in, a UNO call, a catch), and
several at the same moment. The adapter plays it as :func:`ddz.uno.play_turn` does: at each
moment every player with a legal action is asked once, the player to act first and then the
others in the direction of play; an out-of-turn player may answer with the pass. When all
have answered, ``Game.resolve`` settles their answers together (docs/uno.md: UNO calls, then
catches, then jump-ins, then the turn action if it is still legal), and the next moment
begins. Answers within a moment are simultaneous: nobody sees another's answer. Wrong
jump-ins (an out-of-turn card that is not the exact twin) are not in the mask.

**Illegal actions** (an index whose mask entry is 0, or no integer at all) follow
``illegal_action=``: ``"raise"`` raises :class:`ddz.IllegalMoveError` and leaves everything
as it was; ``"lose"`` ends the game at once, the offending seat's reward is
``illegal_reward`` (default -1) and every other seat's 0, and the offender's info says
``illegal_action``.

**Seeds.** ``reset(seed=s)`` deals the game ``ddz.Game(rules, seed=s)`` (or
``ddz.uno.Game(players, seed=s, rules=rules)``) would deal; each later reset without a seed
deals seed ``s + 1``, ``s + 2``, and so on; before any seed, a random one.

**Length.** ``max_steps=N`` truncates an episode after N decisions (rewards 0), for UNO
rounds in which nobody ever goes out; ``None`` (the default) never truncates. A Dou Dizhu
game always ends.

>>> from ddz.envs import make_adapter
>>> adapter = make_adapter("classic")
>>> adapter.reset(seed=7)
>>> adapter.num_players, adapter.num_actions, adapter.to_act
(3, 12660, 2)
>>> mask = adapter.action_mask(2)
>>> [adapter.action_text(int(i)) for i in mask.nonzero()[0]]
['pass', 'bid 1', 'bid 2', 'bid 3']
>>> adapter.step(adapter.num_actions - 3)    # bid 3: the landlord is settled
>>> adapter.to_act, adapter.observation(2).shape
(2, (140,))
"""

from __future__ import annotations

import abc
import collections
import operator
import random
from collections.abc import Callable, Iterable
from typing import Any, Literal, SupportsIndex, TypeAlias

import numpy as np
import numpy.typing as npt

import ddz
from ddz import agents as ddz_agents
from ddz import render, uno
from ddz.actions import ActionSpace, action_space
from ddz.errors import IllegalMoveError
from ddz.uno import render as uno_render

__all__ = [
    "GAMES",
    "Adapter",
    "DouDizhuAdapter",
    "IllegalAction",
    "UnoActionSpace",
    "UnoAdapter",
    "UnoReward",
    "agent_name",
    "make_adapter",
]

GAMES = ("classic", "two-player", "uno-landlord", "uno")
"""The games every environment plays, by name."""

_PRESETS = {"classic": ddz.CLASSIC, "two-player": ddz.TWO_PLAYER, "uno-landlord": ddz.UNO_LANDLORD}

IllegalAction: TypeAlias = Literal["raise", "lose"]
"""What an illegal action does (see the module docstring)."""

UnoReward: TypeAlias = Literal["win", "points"]
"""How a round of UNO is rewarded (see the module docstring)."""

Vector: TypeAlias = npt.NDArray[np.int8]


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat: ``player_0``, ``player_1``, ..."""
    return f"player_{seat}"


class Adapter(abc.ABC):
    """A game as one decision at a time: who decides, what they see, which action indices
    are legal, and the rewards at the end. Subclasses: :class:`DouDizhuAdapter` and
    :class:`UnoAdapter`; :func:`make_adapter` makes one by game name."""

    name: str
    """The game's name (one of :data:`GAMES`, or ``"custom"`` for other Dou Dizhu rules)."""
    game: ddz.Game | uno.Game
    """The game being played (a new one on every reset): read it for anything the
    observation leaves out."""
    num_players: int
    num_actions: int
    observation_low: Vector
    observation_high: Vector

    def __init__(
        self,
        *,
        illegal_action: IllegalAction = "raise",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
    ) -> None:
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action is 'raise' or 'lose', not {illegal_action!r}")
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps is a positive integer or None, not {max_steps!r}")
        self.illegal_action: IllegalAction = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.seed: int | None = None
        """The seed of the game being played (None before the first reset)."""
        self.steps = 0
        """Decisions taken in this game."""
        self.forfeit: int | None = None
        """The seat whose illegal action ended the game (``illegal_action="lose"``)."""
        self.forfeit_reason: str | None = None
        """Why that action was illegal."""
        self._next_seed: int | None = None

    # --- the episode -------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> None:
        """Deal a new game: ``seed``, else the seed after the last one, else a random one."""
        if seed is None:
            seed = self._next_seed
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        seed = operator.index(seed) % (1 << 64)
        self.seed = seed
        self._next_seed = (seed + 1) % (1 << 64)
        self.steps = 0
        self.forfeit = self.forfeit_reason = None
        self._deal(seed)

    def step(self, action: object) -> None:
        """The seat in :attr:`to_act` takes the action with this index (see the module
        docstring for illegal actions)."""
        seat = self.to_act
        if seat is None:
            raise IllegalMoveError(
                "reset before stepping" if self.seed is None else "the episode is over: reset it"
            )
        index = operator.index(action) if isinstance(action, SupportsIndex) else None
        reason = self._why_illegal(seat, action, index)
        if reason is not None:
            if self.illegal_action == "raise":
                raise IllegalMoveError(f"{agent_name(seat)}: {reason}")
            self.forfeit, self.forfeit_reason = seat, reason
            return
        assert index is not None
        self.steps += 1
        self._apply(seat, index)

    @property
    def to_act(self) -> int | None:
        """The seat that decides now; None once the episode is over (or truncated)."""
        if self.seed is None or self.forfeit is not None or self.is_truncated:
            return None
        return self._to_act()

    @property
    def is_over(self) -> bool:
        """The game is over: someone won, a void deal or blocked round, or a forfeit."""
        return self.forfeit is not None or self._game_over()

    @property
    def is_truncated(self) -> bool:
        """``max_steps`` decisions were taken and the game is not over."""
        return (
            self.max_steps is not None
            and self.steps >= self.max_steps
            and self.forfeit is None
            and not self._game_over()
        )

    def rewards(self) -> list[float]:
        """Each seat's reward: 0 until the game is over (see the module docstring)."""
        if self.forfeit is not None:
            rewards = [0.0] * self.num_players
            rewards[self.forfeit] = self.illegal_reward
            return rewards
        if not self._game_over():
            return [0.0] * self.num_players
        return self._final_rewards()

    def action_mask(self, seat: int) -> Vector:
        """1 for each legal action of ``seat`` (a new array); all 0 if it has no decision."""
        if seat != self.to_act:
            return np.zeros(self.num_actions, dtype=np.int8)
        return self._mask(seat).copy()

    # --- what subclasses provide -------------------------------------------------------

    @abc.abstractmethod
    def observation(self, seat: int) -> Vector:
        """What ``seat`` may know, encoded (a new array)."""

    @abc.abstractmethod
    def action_text(self, index: int, seat: int | None = None) -> str:
        """An action index in words (``seat``: who takes it, where that matters)."""

    @abc.abstractmethod
    def render(self) -> str:
        """The whole table as text, every hand shown."""

    @abc.abstractmethod
    def make_agent(self, name: str, seed: int | None = None) -> Any:
        """A ddz agent for this game by name (``"random"``, ``"greedy"``)."""

    @abc.abstractmethod
    def agent_action(self, agent: Any, seat: int) -> int:
        """The action index ``agent`` chooses for ``seat``, which is to act."""

    @abc.abstractmethod
    def _deal(self, seed: int) -> None: ...

    @abc.abstractmethod
    def _to_act(self) -> int | None: ...

    @abc.abstractmethod
    def _game_over(self) -> bool: ...

    @abc.abstractmethod
    def _final_rewards(self) -> list[float]: ...

    @abc.abstractmethod
    def _mask(self, seat: int) -> Vector:
        """The legal mask of the seat to act (may be cached: callers copy it)."""

    @abc.abstractmethod
    def _apply(self, seat: int, index: int) -> None:
        """Take a legal action."""

    def _why_illegal(self, seat: int, action: object, index: int | None) -> str | None:
        if index is None:
            return f"an action is an integer index, not {action!r}"
        if not 0 <= index < self.num_actions:
            return f"action {index} is outside 0..{self.num_actions - 1}"
        if not self._mask(seat)[index]:
            return f"action {index} ({self.action_text(index, seat)}) is not legal now"
        return None


# --- Dou Dizhu ---------------------------------------------------------------------------


def _dou_dizhu_bounds(rules: ddz.Rules) -> tuple[Vector, Vector]:
    most = max(max(rules.deck.counts(actions=True)), 1)
    highs = {
        "hand": most,
        "played": most,
        "card_counts": rules.hand_size + rules.kitty_size,
        "kitty": most,
        "table": most,
        "multiplier": 127,  # log2 of the multiplier: an int8 holds it
    }
    low: list[int] = []
    high: list[int] = []
    for field, width in ddz.OBSERVATION_LAYOUT:
        low += [-1 if field == "direction" else 0] * width
        high += [highs.get(field, 1)] * width
    return np.array(low, dtype=np.int8), np.array(high, dtype=np.int8)


class DouDizhuAdapter(Adapter):
    """Dou Dizhu under ``rules``: seats take turns, actions index ``ddz.ActionSpace(rules)``.

    >>> import ddz
    >>> adapter = DouDizhuAdapter(ddz.TWO_PLAYER)
    >>> adapter.reset(seed=3)
    >>> adapter.name, adapter.num_players, adapter.game.seed
    ('two-player', 2, 3)
    """

    game: ddz.Game

    def __init__(
        self,
        rules: ddz.Rules = ddz.CLASSIC,
        *,
        illegal_action: IllegalAction = "raise",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
    ) -> None:
        if not isinstance(rules, ddz.Rules):
            raise TypeError(f"the Dou Dizhu games take a ddz.Rules, not {rules!r}")
        super().__init__(
            illegal_action=illegal_action, illegal_reward=illegal_reward, max_steps=max_steps
        )
        self.rules = rules
        self.name = next((name for name, preset in _PRESETS.items() if preset == rules), "custom")
        self.space: ActionSpace = action_space(rules)
        self.num_players = rules.players
        self.num_actions = self.space.size
        self.observation_low, self.observation_high = _dou_dizhu_bounds(rules)
        self.game = ddz.Game(rules, seed=0)
        self._cached_mask: Vector | None = None

    def _deal(self, seed: int) -> None:
        self.game = ddz.Game(self.rules, seed=seed)
        self._cached_mask = None

    def _to_act(self) -> int | None:
        return self.game.current_player

    def _game_over(self) -> bool:
        return self.game.is_over

    def _final_rewards(self) -> list[float]:
        return [float(payoff) for payoff in self.game.payoffs()]

    def _mask(self, seat: int) -> Vector:
        if self._cached_mask is None:
            self._cached_mask = self.space.legal_mask(self.game).astype(np.int8)
        return self._cached_mask

    def _apply(self, seat: int, index: int) -> None:
        self.game.push_code(int(self.space.codes[index]))
        self._cached_mask = None

    def observation(self, seat: int) -> Vector:
        return self.game.observation(seat, history=False).encode()

    def action_text(self, index: int, seat: int | None = None) -> str:
        return str(self.space.action(index))

    def make_agent(self, name: str, seed: int | None = None) -> Any:
        return ddz_agents.make_agent(name, seed)

    def agent_action(self, agent: Any, seat: int) -> int:
        return self.space.index(ddz_agents.choose(agent, self.game))

    def render(self) -> str:
        lines = [f"{self.name}: " + render.text(self.game)]
        if self.forfeit is not None:
            lines.append(f"forfeit seat {self.forfeit} played an illegal action")
        return "\n".join(lines)


# --- UNO ---------------------------------------------------------------------------------


class UnoActionSpace:
    """UNO's actions, numbered the same for every player and every number of players
    (the catches are relative: the player ``k`` seats after me in seat order, as in the
    observation).

    ======================  ==========  ==============================================
    index                   base        action
    ======================  ==========  ==============================================
    0                       ``PASS``    do nothing (only out of turn)
    1 .. 52                 ``PLAY``    play the coloured card of kind ``index - 1``
    53 .. 56                ``WILD``    play a Wild choosing red, yellow, green, blue
    57 .. 60                ``WILD4``   play a Wild Draw Four choosing a colour
    61                      ``DRAW``    draw (or take the stacked penalty)
    62                      ``KEEP``    keep the playable card just drawn
    63                      ``UNO``     call UNO
    64 .. 67                ``COLOUR``  choose the starting colour
    68 .. 76                ``CATCH``   catch the player 1 .. 9 seats after me
    ======================  ==========  ==============================================

    >>> from ddz import uno
    >>> space = UnoActionSpace(players=4)
    >>> space.size, space.index(uno.Action.parse("2: play W+4 green"))
    (77, 59)
    >>> space.index(uno.Action.parse("3: catch 1")), str(space.action(69, player=3))
    (69, '3: catch 1')
    """

    PASS = 0
    PLAY = 1
    WILD = 53
    WILD4 = 57
    DRAW = 61
    KEEP = 62
    UNO = 63
    COLOUR = 64
    CATCH = 67  # + k for the player k seats after me, k = 1 .. 9
    SIZE = CATCH + uno.MAX_PLAYERS

    def __init__(self, players: int) -> None:
        if not 2 <= players <= uno.MAX_PLAYERS:
            raise ValueError(f"UNO is for 2..{uno.MAX_PLAYERS} players, not {players!r}")
        self.players = players

    @property
    def size(self) -> int:
        return self.SIZE

    def __len__(self) -> int:
        return self.SIZE

    def index(self, action: uno.Action) -> int:
        """The index of an action (relative to its player, for a catch)."""
        kind = action.kind
        if kind == "play":
            assert action.card is not None and action.colour is not None
            if action.card.kind < 52:
                return self.PLAY + action.card.kind
            base = self.WILD if action.card.kind == 52 else self.WILD4
            return base + uno.COLOURS.index(action.colour)
        if kind == "catch":
            assert action.target is not None
            offset = (action.target - action.player) % self.players
            if offset == 0 or action.target >= self.players:
                raise ValueError(f"{action} catches no other player of {self.players}")
            return self.CATCH + offset
        if kind == "colour":
            assert action.colour is not None
            return self.COLOUR + uno.COLOURS.index(action.colour)
        return {"draw": self.DRAW, "keep": self.KEEP, "uno": self.UNO}[kind]

    def action(self, index: int, player: int) -> uno.Action | None:
        """The action ``player`` takes with ``index``; None for the pass."""
        if not 0 <= index < self.SIZE:
            raise IndexError(f"action index {index} is outside 0..{self.SIZE - 1}")
        if index == self.PASS:
            return None
        if index < self.WILD:
            return uno.Action.play(player, uno.CARDS[index - self.PLAY])
        if index < self.DRAW:
            card = "W" if index < self.WILD4 else "W+4"
            return uno.Action.play(player, card, uno.COLOURS[(index - self.WILD) % 4])
        if index < self.COLOUR:
            kind = ("draw", "keep", "uno")[index - self.DRAW]
            return uno.Action(player, kind)  # type: ignore[arg-type]
        if index < self.CATCH + 1:
            return uno.Action(player, "colour", colour=uno.COLOURS[index - self.COLOUR])
        offset = index - self.CATCH
        if offset >= self.players:
            raise ValueError(f"no player {offset} seats after another in a {self.players}-game")
        return uno.Action(player, "catch", target=(player + offset) % self.players)

    def mask(self, actions: Iterable[uno.Action], *, passing: bool = False) -> Vector:
        """An int8 vector over the space, 1 at each given action (and at the pass if
        ``passing``)."""
        mask = np.zeros(self.SIZE, dtype=np.int8)
        for action in actions:
            mask[self.index(action)] = 1
        if passing:
            mask[self.PASS] = 1
        return mask

    def __repr__(self) -> str:
        return f"<UnoActionSpace {self.SIZE} actions, {self.players} players>"


def _uno_bounds() -> tuple[Vector, Vector]:
    copies = collections.Counter(card.kind for card in uno.DECK)
    most = max(copies.values())
    deck = len(uno.DECK)
    pending = max(2 * copies[12], 4 * copies[53])  # a whole stack of Draw Twos or of +4s
    highs = {
        "hand": most,
        "discard": most,
        "hand_sizes": deck,
        "pending": pending,
        "draw_pile": deck,
    }
    low: list[int] = []
    high: list[int] = []
    for field, width in uno.OBSERVATION_LAYOUT:
        low += [-1 if field == "direction" else 0] * width
        high += [highs.get(field, 1)] * width
    return np.array(low, dtype=np.int8), np.array(high, dtype=np.int8)


class UnoAdapter(Adapter):
    """One round of UNO for ``players`` under ``rules``, a moment at a time (see the module
    docstring), actions indexing :class:`UnoActionSpace`.

    >>> adapter = UnoAdapter(players=3)
    >>> adapter.reset(seed=14)
    >>> legal = adapter.action_mask(0).nonzero()[0]
    >>> adapter.to_act, [adapter.action_text(int(index), 0) for index in legal]
    (0, ['play R4', 'play B6', 'draw'])
    """

    game: uno.Game

    def __init__(
        self,
        players: int = 4,
        rules: uno.Rules = uno.LOMBARDY,
        *,
        reward: UnoReward = "win",
        illegal_action: IllegalAction = "raise",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
    ) -> None:
        if not isinstance(rules, uno.Rules):
            raise TypeError(f"the UNO game takes a ddz.uno.Rules, not {rules!r}")
        if reward not in ("win", "points"):
            raise ValueError(f"reward is 'win' or 'points', not {reward!r}")
        super().__init__(
            illegal_action=illegal_action, illegal_reward=illegal_reward, max_steps=max_steps
        )
        self.name = "uno"
        self.space = UnoActionSpace(players)
        self.rules = rules
        self.reward: UnoReward = reward
        self.num_players = players
        self.num_actions = self.space.size
        self.observation_low, self.observation_high = _uno_bounds()
        self.game = uno.Game(players, seed=0, rules=rules)
        self._options: dict[int, list[uno.Action]] = {}
        self._queue: list[int] = []
        self._intents: list[uno.Action] = []
        self._cached_mask: Vector | None = None

    def _deal(self, seed: int) -> None:
        self.game = uno.Game(self.num_players, seed=seed, rules=self.rules)
        self._begin_moment()

    def _begin_moment(self) -> None:
        """Ask everyone with a legal action, the player to act first, then in turn order."""
        game = self.game
        options: dict[int, list[uno.Action]] = {}
        for action in game.legal_actions():
            options.setdefault(action.player, []).append(action)
        current = game.current_player
        if current is None:
            current = 0
        self._options = options
        self._queue = sorted(
            options, key=lambda seat: ((seat - current) * game.direction) % self.num_players
        )
        self._intents = []
        self._cached_mask = None

    def _to_act(self) -> int | None:
        return self._queue[0] if self._queue else None

    def _game_over(self) -> bool:
        return self.game.is_over

    def _final_rewards(self) -> list[float]:
        game = self.game
        if self.reward == "points":
            return [-float(points) for points in game.points()]
        if game.winner is None:
            return [0.0] * self.num_players
        rewards = [-1.0 / (self.num_players - 1)] * self.num_players
        rewards[game.winner] = 1.0
        return rewards

    def _mask(self, seat: int) -> Vector:
        if self._cached_mask is None:
            passing = seat != self.game.current_player
            self._cached_mask = self.space.mask(self._options[seat], passing=passing)
        return self._cached_mask

    def _apply(self, seat: int, index: int) -> None:
        action = self.space.action(index, seat)
        if action is not None:
            self._intents.append(action)
        self._queue.pop(0)
        self._cached_mask = None
        if not self._queue:
            self.game.resolve(self._intents)
            self._begin_moment()

    def observation(self, seat: int) -> Vector:
        return self.game.observation(seat).encode()

    def action_text(self, index: int, seat: int | None = None) -> str:
        if self.space.CATCH + self.num_players <= index < self.space.size:
            return f"catch the player {index - self.space.CATCH} seats on: there is none"
        action = self.space.action(index, 0 if seat is None else seat)
        return "pass" if action is None else action.text

    def make_agent(self, name: str, seed: int | None = None) -> Any:
        return uno.make_agent(name, seed)

    def agent_action(self, agent: Any, seat: int) -> int:
        choice = uno.agents.choose(agent, self.game, seat, self._options[seat])
        if choice is None:
            if seat == self.game.current_player:
                raise ValueError(f"agent {agent!r} did nothing on its turn")
            return self.space.PASS
        return self.space.index(choice)

    def render(self) -> str:
        lines = [uno_render.text(self.game)]
        if self.to_act is not None and self.to_act != self.game.current_player:
            lines.append(f"deciding player {self.to_act} (out of turn)")
        if self.forfeit is not None:
            lines.append(f"forfeit player {self.forfeit} played an illegal action")
        return "\n".join(lines)


def render_table(
    adapter: Adapter, render_mode: str | None, warn: Callable[[str], None]
) -> str | None:
    """What both environments' ``render()`` does: the table as text (``"ansi"``), printed
    (``"human"``), or a warning when the environment has no render mode."""
    if render_mode is None:
        warn("render() was called without a render_mode: nothing to do")
        return None
    text = adapter.render()
    if render_mode == "ansi":
        return text
    print(text)
    return None


def make_adapter(
    game: str = "classic",
    *,
    rules: ddz.Rules | uno.Rules | None = None,
    players: int | None = None,
    reward: UnoReward | None = None,
    illegal_action: IllegalAction = "raise",
    illegal_reward: float = -1.0,
    max_steps: int | None = None,
) -> Adapter:
    """The adapter of a game by name (:data:`GAMES`). ``rules`` replaces the game's preset
    (a ``ddz.Rules`` for the Dou Dizhu games, a ``ddz.uno.Rules`` for UNO); ``players`` and
    ``reward`` are UNO's.

    >>> make_adapter("uno", players=2).num_players, make_adapter("two-player").num_actions
    (2, 4947)
    >>> make_adapter("chess")
    Traceback (most recent call last):
    ...
    ValueError: no game 'chess'; the games are: classic, two-player, uno-landlord, uno
    """
    common: dict[str, Any] = {
        "illegal_action": illegal_action,
        "illegal_reward": illegal_reward,
        "max_steps": max_steps,
    }
    if game == "uno":
        if rules is not None and not isinstance(rules, uno.Rules):
            raise TypeError(f"the UNO game takes a ddz.uno.Rules, not {rules!r}")
        return UnoAdapter(
            4 if players is None else players,
            uno.LOMBARDY if rules is None else rules,
            reward=reward or "win",
            **common,
        )
    if game not in _PRESETS:
        raise ValueError(f"no game {game!r}; the games are: {', '.join(GAMES)}")
    if players is not None or reward is not None:
        raise ValueError("players and reward are options of the UNO game only")
    if rules is not None and not isinstance(rules, ddz.Rules):
        raise TypeError(f"the Dou Dizhu games take a ddz.Rules, not {rules!r}")
    return DouDizhuAdapter(_PRESETS[game] if rules is None else rules, **common)
