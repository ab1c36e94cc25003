"""The public path of perft counts: ``ddz.perft`` as documented.

The code lives in :mod:`ddz.doudizhu.perft` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.perft`` keep working.
"""

from ddz.doudizhu.perft import MAX_DEPTH, Walkable, divide, perft

__all__ = ["MAX_DEPTH", "Walkable", "divide", "perft"]
