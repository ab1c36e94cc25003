"""``python -m ddz``: see :mod:`ddz.cli`."""

import sys

from ddz.cli import main

sys.exit(main())
