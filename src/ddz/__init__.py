"""ddz: a fast, exact rules engine for Dou Dizhu (Fighting the Landlord) and its family.

>>> import ddz
>>> hand = ddz.Cards.parse("33344456789TJQKA2XD")
>>> len(ddz.legal_moves(hand))
164
>>> [str(m) for m in ddz.legal_moves(hand, last="TT")]
['pass', 'XD']
"""

from ddz.actions import ActionSpace
from ddz.cards import RANKS, SYMBOLS, Cards
from ddz.errors import IllegalMoveError, RecordError
from ddz.game import (
    HISTORY,
    HISTORY_ENTRY_LAYOUT,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    ActionRecord,
    Bid,
    Game,
    Observation,
    observation_layout,
    observation_size,
)
from ddz.moves import (
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
from ddz.position import Position
from ddz.rules import CLASSIC, DOUZERO, ENDGAME, RLCARD, TWO_PLAYER, UNO_LANDLORD, Bidding, Rules
from ddz.simulation import SimulationResult, VectorGame, simulate
from ddz.solver import MoveValue, Solver, SolveResult, analyse, solve
from ddz.worlds import Worlds, sample_worlds

__version__ = "0.1.0"

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
    "sample_worlds",
    "simulate",
    "solve",
    "why_illegal",
]
