"""Learning on the DouZero drop-in: DouZero's networks, its checkpoints, agents from them.

Needs PyTorch (``pip install "ddz[learn]"``); the rest of ddz never imports this package.
"""
