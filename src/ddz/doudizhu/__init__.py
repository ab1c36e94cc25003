"""Dou Dizhu and its family (classic, two-player, Uno the Landlord): the game's own package.

One module a role, the same names as ``ddz.uno``'s (``docs/architecture.md``):

* :mod:`~ddz.doudizhu.cards`, :mod:`~ddz.doudizhu.rules`: the cards and every rule option;
* :mod:`~ddz.doudizhu.moves`, :mod:`~ddz.doudizhu.actions`, :mod:`~ddz.doudizhu.position`:
  moves and their legality, bids and history entries, play-phase positions;
* :mod:`~ddz.doudizhu.observation`, :mod:`~ddz.doudizhu.records`: what a seat may know and the
  record formats, values that never import the game;
* :mod:`~ddz.doudizhu.game`: the state machine;
* :mod:`~ddz.doudizhu.render`, :mod:`~ddz.doudizhu.svg`, :mod:`~ddz.doudizhu.rebuild`: text,
  pictures, and a game rebuilt from one seat's view;
* :mod:`~ddz.doudizhu.solver`, :mod:`~ddz.doudizhu.worlds`, :mod:`~ddz.doudizhu.perft`,
  :mod:`~ddz.doudizhu.batch`, :mod:`~ddz.doudizhu.action_space`: search, sampling, counts, batches,
  and the learners' action numbering.

``import ddz`` gathers the public names; this package's ``__init__`` imports nothing.
"""
