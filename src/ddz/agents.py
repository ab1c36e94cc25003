"""The public path of the built-in agents: ``ddz.agents`` as documented.

The code lives in :mod:`ddz.play.agents` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.agents`` keep working.
"""

from ddz.play.agents import (
    AGENT_KINDS,
    AGENTS,
    Agent,
    AgentFactory,
    AnyAgent,
    GreedyAgent,
    PerfectInformationAgent,
    RandomAgent,
    agent_factory,
    choose,
    make_agent,
    register_agent_kind,
)
from ddz.play.search_agents import PIMCAgent, SolverAgent

__all__ = [
    "AGENTS",
    "AGENT_KINDS",
    "Agent",
    "AgentFactory",
    "AnyAgent",
    "GreedyAgent",
    "PIMCAgent",
    "PerfectInformationAgent",
    "RandomAgent",
    "SolverAgent",
    "agent_factory",
    "choose",
    "make_agent",
    "register_agent_kind",
]
