"""``python -m ddz``: see :mod:`ddz.cli.main`."""

import sys

from ddz.cli.main import main

sys.exit(main())
