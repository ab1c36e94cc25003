"""The game-independent base of ddz: what every game package stands on and nothing above.

* :mod:`ddz.base.errors`: the exceptions and how messages quote inputs;
* :mod:`ddz.base.fields`: typed field access for the record readers (JSON and text);
* :mod:`ddz.base.seats`: seat numbers checked one way;
* :mod:`ddz.base.protocol`: the ``Game``/``Observation`` protocol the games share;
* :mod:`ddz.base.svgkit`: the SVG drawing kit the games' pictures use;
* :mod:`ddz.base.fanout`: running many games of a core across threads;
* :mod:`ddz.base.clikit`: the command-line kit the subcommands share.

Nothing here imports a game (``docs/architecture.md``).
"""
