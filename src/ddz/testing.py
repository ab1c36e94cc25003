"""The public path of checks for environments and agents: ``ddz.testing`` as documented.

The code lives in :mod:`ddz.play.testing` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.testing`` keep working.
"""

from ddz.play.testing import check_env

__all__ = ["check_env"]
