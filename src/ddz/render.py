"""The public path of Dou Dizhu as text: ``ddz.render`` as documented.

The code lives in :mod:`ddz.doudizhu.render` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.render`` keep working.
"""

from ddz.doudizhu.render import (
    TableView,
    grouped,
    last_trick,
    role,
    rules_name,
    text,
    view,
    wrap_items,
)

__all__ = ["TableView", "grouped", "last_trick", "role", "rules_name", "text", "view", "wrap_items"]
