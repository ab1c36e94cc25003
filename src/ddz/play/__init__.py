"""Playing Dou Dizhu games: agents (:mod:`~ddz.play.agents`, :mod:`~ddz.play.search_agents`),
the arena (:mod:`~ddz.play.arena`), simulation in the core (:mod:`~ddz.play.simulation`), across
machines (:mod:`~ddz.play.distributed`), and checks for environments (:mod:`~ddz.play.testing`).

Their documented paths are ``ddz.agents``, ``ddz.arena``, ... (``docs/architecture.md``).
"""
