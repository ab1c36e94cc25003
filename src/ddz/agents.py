"""The public path of the built-in agents: ``ddz.agents`` as documented.

The code lives in :mod:`ddz.play.agents` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.agents`` keep working.
"""

from ddz.play.agents import (
    AGENTS,
    Agent,
    AgentFactory,
    AnyAgent,
    GreedyAgent,
    PerfectInformationAgent,
    RandomAgent,
    choose,
    make_agent,
)
from ddz.play.search_agents import PIMCAgent, SolverAgent

__all__ = [
    "AGENTS",
    "Agent",
    "AgentFactory",
    "AnyAgent",
    "GreedyAgent",
    "PIMCAgent",
    "PerfectInformationAgent",
    "RandomAgent",
    "SolverAgent",
    "choose",
    "make_agent",
]
