"""The public path of simulation across machines: ``ddz.distributed`` as documented.

The code lives in :mod:`ddz.play.distributed` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.distributed`` keep working.
"""

from ddz.play.distributed import merge, simulate_distributed

__all__ = ["merge", "simulate_distributed"]
