"""Learning on the DouZero drop-in: DouZero's networks (:mod:`~ddz.learn.models`), its
Deep Monte-Carlo trainer with lockstep actors (:mod:`~ddz.learn.train`, ``python -m ddz
train``; :mod:`~ddz.learn.flags`, :mod:`~ddz.learn.buffers`, :mod:`~ddz.learn.actor`,
:mod:`~ddz.learn.learner`, :mod:`~ddz.learn.remote` for Ray), its checkpoints, and agents
from them (:mod:`~ddz.learn.agent`).

Needs PyTorch (``pip install "ddz[learn]"``); the rest of ddz imports this package only when
an agent named ``douzero:PATH`` is asked for.
"""
