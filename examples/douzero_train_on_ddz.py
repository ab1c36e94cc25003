"""DouZero's ``train.py`` on ddz's drop-in environment: the same flags, the same trainer.

    python examples/douzero_train_on_ddz.py --actor_device_cpu --training_device cpu ...

DouZero's actors make their environments with ``douzero.dmc.utils.create_env``, which calls
the name ``Env`` imported into ``douzero.dmc.utils``. The actors are processes started with
the spawn method: each imports this file again (as ``__mp_main__``) and runs only its top
level, so the name is replaced there, at the top level. A replacement under
``if __name__ == "__main__"`` would change the learner's process only, and the actors would
go on playing DouZero's own environment. With ``DDZ_ORIGINAL=1`` in the environment it
trains on DouZero's own environment, for comparison (an environment variable, not a flag:
spawned actors inherit it).
"""

import os

import douzero.dmc.utils

import ddz.compat.douzero

if os.environ.get("DDZ_ORIGINAL") != "1":
    douzero.dmc.utils.Env = ddz.compat.douzero.Env  # the one line

if __name__ == "__main__":
    from douzero.dmc import parser, train

    flags = parser.parse_args()
    os.environ["CUDA_VISIBLE_DEVICES"] = flags.gpu_devices
    train(flags)
