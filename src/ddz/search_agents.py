"""The public path of the search agents: ``ddz.search_agents`` as documented.

The code lives in :mod:`ddz.play.search_agents` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.search_agents`` keep working.
"""

from ddz.play.search_agents import PIMCAgent, SolverAgent

__all__ = ["PIMCAgent", "SolverAgent"]
