"""Drop-in environments for the learning engines people train with.

* :mod:`ddz.compat.douzero`: ``douzero.env.env.Env`` (DouZero 1.1.0), the same observations
  array for array, computed in C;
* :mod:`ddz.compat.rlcard`: ``rlcard.make("doudizhu")`` (RLCard 1.2.0), the same states.

Neither module imports the package it replaces (``ddz.compat.rlcard`` imports ``rlcard`` only
to register itself when asked to). docs/compat.md is the manual.
"""
