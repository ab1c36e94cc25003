"""The public path of the learners' action space: ``ddz.actions`` as documented.

The code lives in :mod:`ddz.doudizhu.action_space` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.actions`` keep working.
"""

from ddz.doudizhu.action_space import BIDDING_ACTIONS, ActionSpace, action_space, rlcard_action_ids

__all__ = ["BIDDING_ACTIONS", "ActionSpace", "action_space", "rlcard_action_ids"]
