"""ddz: a fast, exact rules engine for Dou Dizhu (Fighting the Landlord) and its family.

>>> import ddz
>>> hand = ddz.Cards.parse("33344456789TJQKA2XD")
>>> len(ddz.legal_moves(hand))
164
>>> [str(m) for m in ddz.legal_moves(hand, last="TT")]
['pass', 'XD']
"""

# The documented module paths are attributes after ``import ddz``, as they always were
# (``ddz.rules.PRESETS``, ``ddz.game.action_index``): they re-export the games' modules.
from ddz import actions, errors, game, records, rules, simulation  # noqa: F401
from ddz.base.errors import IllegalMoveError, RecordError
from ddz.doudizhu.action_space import ActionSpace
from ddz.doudizhu.actions import ActionRecord, Bid
from ddz.doudizhu.cards import RANKS, SYMBOLS, Cards
from ddz.doudizhu.game import Game
from ddz.doudizhu.moves import (
    PASS,
    LegalMoves,
    Move,
    MoveType,
    beats,
    classify,
    is_legal,
    legal_moves,
    why_illegal,
)
from ddz.doudizhu.observation import (
    HISTORY,
    HISTORY_ENTRY_LAYOUT,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    Observation,
    observation_layout,
    observation_size,
)
from ddz.doudizhu.position import Position
from ddz.doudizhu.review import Review, ReviewRow, review
from ddz.doudizhu.rules import (
    CLASSIC,
    DOUZERO,
    ENDGAME,
    RLCARD,
    TWO_PLAYER,
    UNO_LANDLORD,
    Bidding,
    Rules,
)
from ddz.doudizhu.solver import MoveValue, Solver, SolveResult, analyse, solve
from ddz.doudizhu.worlds import Worlds, sample_worlds
from ddz.play.agents import AgentFactory as _AgentFactory
from ddz.play.agents import register_agent_kind as _register_agent_kind
from ddz.play.simulation import SimulationResult, VectorGame, simulate

__version__ = "0.1.0"


def _douzero_agent(path: str) -> _AgentFactory:
    """``douzero:PATH``: a DouZeroAgent of the checkpoint at PATH, loaded once and shared by
    every game (it keeps no state between decisions). ddz.learn is imported only here: it
    needs PyTorch, which the rest of ddz does not."""
    try:
        import torch  # noqa: F401
    except ImportError:
        raise ImportError('the douzero agent needs PyTorch: pip install "ddz[learn]"') from None
    from ddz.learn.agent import DouZeroAgent

    agent = DouZeroAgent(path)
    return lambda seed: agent


# agents named douzero:PATH wherever agents are named (ddz.arena, python -m ddz simulate, play)
_register_agent_kind("douzero", _douzero_agent, "douzero:PATH")

__all__ = [
    "CLASSIC",
    "DOUZERO",
    "ENDGAME",
    "HISTORY",
    "HISTORY_ENTRY_LAYOUT",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "PASS",
    "RANKS",
    "RLCARD",
    "SYMBOLS",
    "TWO_PLAYER",
    "UNO_LANDLORD",
    "ActionRecord",
    "ActionSpace",
    "Bid",
    "Bidding",
    "Cards",
    "Game",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "MoveType",
    "MoveValue",
    "Observation",
    "Position",
    "RecordError",
    "Review",
    "ReviewRow",
    "Rules",
    "SimulationResult",
    "SolveResult",
    "Solver",
    "VectorGame",
    "Worlds",
    "analyse",
    "beats",
    "classify",
    "is_legal",
    "legal_moves",
    "observation_layout",
    "observation_size",
    "review",
    "sample_worlds",
    "simulate",
    "solve",
    "why_illegal",
]
