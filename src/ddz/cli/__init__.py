"""``python -m ddz``: the command line (:mod:`~ddz.cli.main`), its ``solve`` command
(:mod:`~ddz.cli.solve`), ``uno`` (:mod:`~ddz.cli.uno`) and the terminal games' move prompt
(:mod:`~ddz.cli.prompt`)."""
