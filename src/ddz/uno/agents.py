"""UNO agents: a random one and a greedy one, and the loop that lets agents play a round.

An agent sees only its own :class:`~ddz.uno.Observation` and its own legal actions. On its
turn it must return one of them; out of turn (a jump-in, a UNO call, a catch) it may return
None to do nothing. An agent that needs the whole game says so with the class attribute
``perfect_information = True`` and is given the :class:`~ddz.uno.Game` in place of the
observation (as in ``ddz.play.agents``); :func:`choose` asks either kind. :func:`play_round`
asks every player who has a legal action and settles what they want with ``Game.resolve``.

>>> from ddz import uno
>>> game = uno.Game(players=3, seed=2)
>>> agents = [uno.GreedyAgent(), uno.RandomAgent(seed=1), uno.RandomAgent(seed=2)]
>>> uno.play_round(game, agents).is_over
True
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Protocol

from ddz.base.errors import check_integer
from ddz.uno.actions import Action
from ddz.uno.cards import COLOURS, Card
from ddz.uno.game import Game
from ddz.uno.match import Match
from ddz.uno.observation import Observation

__all__ = [
    "AGENTS",
    "Agent",
    "GreedyAgent",
    "RandomAgent",
    "choose",
    "make_agent",
    "play_round",
    "play_turn",
]


class Agent(Protocol):
    """Anything with a ``name`` and an ``act`` method."""

    name: str

    def act(self, observation: Observation, actions: Sequence[Action]) -> Action | None:
        """One of ``actions`` (the player's own legal actions, never empty); None to do
        nothing, allowed only when it is not the player's turn."""
        ...


class RandomAgent:
    """Uniformly random: on its turn any legal action; out of turn each option or nothing,
    with equal chance."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        # any integer (numpy's too) or None; never a bool, float or text, which Random took
        self._rng = Random(None if seed is None else check_integer(seed, "seed"))

    def act(self, observation: Observation, actions: Sequence[Action]) -> Action | None:
        if observation.current_player == observation.player:
            return self._rng.choice(actions)
        choice = self._rng.randrange(len(actions) + 1)
        return actions[choice] if choice < len(actions) else None


class GreedyAgent:
    """Sheds its highest-value card, stacks penalties when it can, calls UNO, catches others
    and jumps in whenever it may. A wild's colour is the one worth the most in its hand."""

    name = "greedy"

    def act(self, observation: Observation, actions: Sequence[Action]) -> Action | None:
        mine = observation.current_player == observation.player
        if not mine:
            for kind in ("uno", "catch", "play"):
                for action in actions:
                    if action.kind == kind:
                        return action
            return None
        hand = observation.hand
        choices = [a for a in actions if a.kind == "colour"]
        if choices:
            best = _best_colour(hand, None)
            return next(a for a in choices if a.colour == best)
        plays = [a for a in actions if a.kind == "play"]
        if not plays:
            return next(a for a in actions if a.kind in ("draw", "keep"))
        played = max(plays, key=lambda a: _play_value(a, hand))
        if played.card is not None and played.card.is_wild:
            best = _best_colour(hand, played.card)
            return next(a for a in plays if a.card == played.card and a.colour == best)
        return played


def _colour_values(hand: Sequence[Card], without: Card | None) -> list[int]:
    values = [0, 0, 0, 0]
    skipped = False
    for card in hand:
        if card == without and not skipped:
            skipped = True
            continue
        if card.colour_index is not None:
            values[card.colour_index] += card.points + 1  # +1: a 0 still counts
    return values


def _best_colour(hand: Sequence[Card], without: Card | None) -> str:
    values = _colour_values(hand, without)
    return COLOURS[max(range(4), key=lambda colour: values[colour])]


def _play_value(action: Action, hand: Sequence[Card]) -> tuple[int, int]:
    """Highest points first; among equals, the card of the colour the hand is richest in,
    which keeps the most cards playable next turn."""
    card = action.card
    assert card is not None
    values = _colour_values(hand, card)
    colour_value = values[card.colour_index] if card.colour_index is not None else 0
    return card.points, colour_value


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}
"""Agent classes by the names the command line uses."""


def make_agent(name: str, seed: int | None = None) -> Agent:
    """An agent by name (``random``, ``greedy``); ``seed`` seeds a random one."""
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent()
    raise ValueError(f"no UNO agent {name!r} (one of {', '.join(AGENTS)})")


def choose(agent: Agent, game: Game, player: int, actions: Sequence[Action]) -> Action | None:
    """What ``agent`` wants to do as ``player`` with these legal actions: an ordinary agent
    is shown the player's observation, a ``perfect_information`` agent the game itself."""
    if getattr(agent, "perfect_information", False) is True:
        return agent.act(game, actions)  # type: ignore[arg-type]
    return agent.act(game.observation(player), actions)


def play_turn(game: Game | Match, agents: Sequence[Agent]) -> list[Action]:
    """One moment of play: every player with a legal action is asked, and what they want is
    settled with ``resolve``. Returns the actions taken."""
    current = game.game if isinstance(game, Match) else game
    by_player: dict[int, list[Action]] = {}
    for action in current.legal_actions():
        by_player.setdefault(action.player, []).append(action)
    intents = []
    for player, actions in by_player.items():
        choice = choose(agents[player], current, player, actions)
        if choice is not None:
            intents.append(choice)
        elif player == current.current_player:
            raise ValueError(f"agent {agents[player].name!r} did nothing on its turn")
    return game.resolve(intents)


def play_round(game: Game, agents: Sequence[Agent], *, max_actions: int = 100_000) -> Game:
    """Let the agents play ``game`` to the end of its round (at most ``max_actions``
    moments, against agents that never finish); returns the game."""
    if len(agents) != game.players:
        raise ValueError(f"{game.players} players need {game.players} agents")
    for _ in range(max_actions):
        if game.is_over:
            break
        play_turn(game, agents)
    return game
