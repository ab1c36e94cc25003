"""Play and replay in a browser: ``python -m ddz serve`` (docs/seeing.md).

``ddz.web.server`` is a small HTTP server from the standard library, bound to 127.0.0.1 by
default; ``ddz.web.sessions`` holds the games and replays it serves, by id, and checks every
request; ``static/`` holds the page, its script and its style (shipped in the wheel). The
page draws tables with :mod:`ddz.doudizhu.svg` and :mod:`ddz.uno.svg`, drawn on the server from the
person's seat, so no other hand ever reaches the browser during play.
"""
