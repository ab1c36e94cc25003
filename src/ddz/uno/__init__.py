"""UNO with the Lombardy house rules (docs/uno.md): a fast, seeded game engine.

The round is stepped in the native core (``ddz._core.uno``); this package holds the cards,
their notation and fixed deals (``cards``), the rule switches (``rules``), actions
(``actions``), what one player may know (``observation``), the record formats
(``records``), one round (``game``), its text and SVG views (``render``, ``svg``), a scored
match (``match``), agents (``agents``), simulations (``simulate``) and many rounds at once
(``vector``); the command line is ``ddz.cli.uno``. docs/uno.md is the manual.

>>> from ddz import uno
>>> game = uno.Game(players=2, seed=1, rules=uno.LOMBARDY)
>>> game.players, len(game.draw_pile) + len(game.discard_pile) + sum(map(len, game.hands))
(2, 108)
"""

from ddz.uno.actions import ACTION_KINDS, NUM_INDICES, Action, ActionKind, ActionSpace
from ddz.uno.agents import (
    AGENTS,
    Agent,
    GreedyAgent,
    RandomAgent,
    make_agent,
    play_round,
    play_turn,
)
from ddz.uno.cards import CARDS, COLOURS, DECK, FACES, Card, Deal, parse_cards, points
from ddz.uno.game import Game, PlayoutResult
from ddz.uno.match import Match, RoundResult
from ddz.uno.observation import OBSERVATION_LAYOUT, OBSERVATION_SIZE, Observation
from ddz.uno.rules import LOMBARDY, MAX_PLAYERS, PRESETS, STANDARD, Rules
from ddz.uno.simulate import AgentStats, simulate
from ddz.uno.vector import (
    MAX_ROUNDS,
    MAX_THREADS,
    RoundsResult,
    VectorGame,
    check_vector,
    round_seed,
    simulate_rounds,
)

__all__ = [
    "ACTION_KINDS",
    "AGENTS",
    "CARDS",
    "COLOURS",
    "DECK",
    "FACES",
    "LOMBARDY",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_THREADS",
    "NUM_INDICES",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "PRESETS",
    "STANDARD",
    "Action",
    "ActionKind",
    "ActionSpace",
    "Agent",
    "AgentStats",
    "Card",
    "Deal",
    "Game",
    "GreedyAgent",
    "Match",
    "Observation",
    "PlayoutResult",
    "RandomAgent",
    "RoundResult",
    "RoundsResult",
    "Rules",
    "VectorGame",
    "check_vector",
    "make_agent",
    "parse_cards",
    "play_round",
    "play_turn",
    "points",
    "round_seed",
    "simulate",
    "simulate_rounds",
]
