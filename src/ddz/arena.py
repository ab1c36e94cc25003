"""The public path of the arena: ``ddz.arena`` as documented.

The code lives in :mod:`ddz.play.arena` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.arena`` keep working.
"""

from ddz.play.arena import (
    CORE_AGENTS,
    MAX_REDEALS,
    AgentStats,
    ArenaResult,
    play_game,
    run_arena,
    run_core_arena,
    seatings,
)

__all__ = [
    "CORE_AGENTS",
    "MAX_REDEALS",
    "AgentStats",
    "ArenaResult",
    "play_game",
    "run_arena",
    "run_core_arena",
    "seatings",
]
