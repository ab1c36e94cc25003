"""The native core of ddz: Cython compiled to C.

Contract (the only thing the Python layer relies on):

* Cards and moves are plain integers in the layout documented once, in ``layout.pxd``:
  a card multiset is an octal number with one digit per rank; a move code adds the
  reading (type, main rank, chain length) above the cards. The pass is ``0``.
* Rules arrive as one packed integer (``moves.pack_rules``); the core never sees a Python
  ``Rules`` object.
* Every ``def`` function validates what it is given — hands against the deck, table moves
  against the rules, buffers for type, size and contiguity — and raises ``ValueError`` or
  ``TypeError``; nothing a caller passes can crash the core. The loops behind them are C
  without Python objects, and release the GIL where they loop over many hands.
* ``moves.MoveBase`` is the native half of ``ddz.Move``: it holds one move code and
  compares and hashes by it. Functions that return moves take the class to instantiate.

This package's ``__init__`` imports nothing: the API layer imports the compiled modules it
needs by name (``from ddz._core import moves``).
"""
