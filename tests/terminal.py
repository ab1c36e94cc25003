"""Children that get Ctrl-C the way a terminal's foreground job does.

A suite started in the background by a non-interactive shell (``pytest &`` in a script, as a
CI runner or ``nohup`` may do) runs with SIGINT ignored, and its children inherit that: CPython
then installs no ``KeyboardInterrupt`` handler, and a test that presses Ctrl-C on a
``python -m ddz`` child waits for nothing. ``AS_IN_A_TERMINAL`` passed to ``subprocess.Popen``
puts SIGINT back to its default in the child (POSIX; elsewhere it is empty)."""

from __future__ import annotations

import os
import signal
from typing import Any


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


AS_IN_A_TERMINAL: dict[str, Any] = {"preexec_fn": _sigint_default} if os.name == "posix" else {}
