"""Run an RLCard script, unchanged, on ddz's drop-in Dou Dizhu environment.

    python examples/rlcard_on_ddz.py path/to/rlcard/examples/run_rl.py --env doudizhu ...

The one line that matters is ``ddz.compat.rlcard.register(replace=True)``: RLCard's own
``rlcard.make("doudizhu")`` then returns ``ddz.compat.rlcard.DoudizhuEnv``, so the script
(whose ``--env`` accepts only RLCard's names) runs as written. Environments the script
makes here reach worker processes pickled, as drop-ins: RLCard's DMC trainer hands its
environment to its actors so. A worker started with the spawn method runs the top level of
the *script* (as ``__mp_main__``), not of this launcher, so a script whose workers call
``rlcard.make`` themselves needs the line at its own top level instead. With
``DDZ_ORIGINAL=1`` in the environment the script runs on RLCard's own environment, for
comparison (an environment variable, not a flag: spawned workers inherit it).
"""

import os
import runpy
import sys

import ddz.compat.rlcard

if os.environ.get("DDZ_ORIGINAL") != "1":
    ddz.compat.rlcard.register(replace=True)  # the one line

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    script = sys.argv.pop(1)  # the script then sees its own arguments in sys.argv[1:]
    sys.argv[0] = script
    runpy.run_path(script, run_name="__main__")
