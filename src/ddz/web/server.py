"""The HTTP server behind ``python -m ddz serve``: the standard library's, on loopback.

Routes (JSON in and out; every error is ``{"error": "..."}`` with status 400, 404, 408 or 413):

==========================================  ===============================================
``GET /``                                   the page (``static/index.html``)
``GET /static/app.js``, ``/static/style.css``  its script and style (package data)
``GET /api/options``                        the games and the agents' names
``POST /api/games``                         a new game: ``{"game", "seat", "agents", "seed",
                                            "players"}`` (see ``Store.create``)
``GET /api/games/ID``                       a game's state (once it is over, its
                                            ``record``: ``to_json()``, every hand)
``POST /api/games/ID/act``                  the person's action: ``{"action": "bid 2"}``,
                                            ``{"cards": "334"}`` (Dou Dizhu) or
                                            ``{"card": "R7"}`` (UNO)
``POST /api/replays``                       a replay of ``{"record": "<JSON or text>"}``
``GET /api/replays/ID?ply=N``               the replay at ply ``N``
==========================================  ===============================================

Nothing a request holds can crash the server or show a traceback: bad input and illegal
actions are answered with their reason (status 400), a body that does not arrive within
``Handler.timeout`` (20 s) with 408; a fault in ddz itself with status 500 and a one-line
message, its traceback on the server's stderr.
"""

from __future__ import annotations

import http.server
import json
import sys
import traceback
import urllib.parse
from importlib import resources
from typing import Any

from ddz.play.agents import AGENTS
from ddz.uno.agents import AGENTS as UNO_AGENTS
from ddz.web.sessions import GAMES, RequestError, SessionNotFound, Store

__all__ = ["MAX_BODY", "make_server", "serve"]

MAX_BODY = 1 << 20
"""The largest request body read (a record of any real game is far smaller)."""

STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}


def _static(name: str) -> bytes:
    return resources.files("ddz.web").joinpath("static", name).read_bytes()


class _HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Handler(http.server.BaseHTTPRequestHandler):
    """One request: route it, answer JSON (or a static file)."""

    server_version = "ddz"
    store: Store  # set on the class made for each server
    quiet = True
    timeout = 20  # seconds a request may take to arrive: a stalled client frees its thread

    # --- answering ----------------------------------------------------------------------------

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def _body(self) -> Any:
        length_text = self.headers.get("Content-Length", "0").strip()
        if length_text.startswith("-") and length_text[1:].isdigit():
            raise _HttpError(400, "Content-Length is negative")
        # ASCII digits only: int() would also read "1_0" or other scripts' digits, and the
        # handler would then wait for bytes the client never meant to send
        if not (length_text.isascii() and length_text.isdigit()):
            self.close_connection = True
            raise _HttpError(400, "Content-Length is not a number")
        length = int(length_text) if len(length_text) <= 20 else MAX_BODY + 1
        if length > MAX_BODY:
            self.close_connection = True  # the unread body must not be taken for a request
            raise _HttpError(413, f"the request body is over {MAX_BODY} bytes")
        try:
            raw = self.rfile.read(length) if length else b""
        except TimeoutError:  # the handler's timeout: a body that does not come
            self.close_connection = True
            raise _HttpError(408, f"the request body did not arrive in {self.timeout} s") from None
        if len(raw) < length:
            self.close_connection = True
            raise _HttpError(400, f"the request body has {len(raw)} of its {length} bytes")
        if not raw:
            return {}
        try:
            return json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):  # not UTF-8 or JSON; a number of 4,300+ digits
            raise _HttpError(400, "the request body is not JSON") from None

    def _handle(self, method: str) -> None:
        try:
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            parts = [part for part in url.path.split("/") if part]
            if method == "GET":
                self._get(parts, query)
            else:
                self._post(parts)
        except _HttpError as error:
            self._json(error.status, {"error": str(error)})
        except RequestError as error:
            self._json(400, {"error": str(error)})
        except SessionNotFound:
            self._json(404, {"error": "no such game or replay (the server may have restarted)"})
        except Exception as error:  # a fault in ddz: answer it, never show the traceback
            traceback.print_exc(file=sys.stderr)
            self._json(500, {"error": f"internal error ({type(error).__name__})"})

    def _get(self, parts: list[str], query: dict[str, list[str]]) -> None:
        if not parts:
            self._send(200, _static("index.html"), STATIC["index.html"])
        elif len(parts) == 2 and parts[0] == "static" and parts[1] in STATIC:
            self._send(200, _static(parts[1]), STATIC[parts[1]])
        elif parts == ["api", "options"]:
            self._json(
                200, {"games": GAMES, "agents": list(AGENTS), "uno_agents": list(UNO_AGENTS)}
            )
        elif len(parts) == 3 and parts[:2] in (["api", "games"], ["api", "replays"]):
            body: dict[str, Any] = {}
            if "ply" in query:
                try:
                    body["ply"] = int(query["ply"][-1])
                except ValueError:
                    raise RequestError("ply is a whole number") from None
            self._json(200, self.store.state(parts[2], body))
        else:
            raise _HttpError(404, f"nothing at {urllib.parse.quote(self.path[:80])}")

    def _post(self, parts: list[str]) -> None:
        if parts == ["api", "games"]:
            self._json(200, self.store.create(self._body()))
        elif parts == ["api", "replays"]:
            self._json(200, self.store.replay(self._body()))
        elif len(parts) == 4 and parts[:2] == ["api", "games"] and parts[3] == "act":
            self._json(200, self.store.act(parts[2], self._body()))
        else:
            raise _HttpError(404, f"nothing to post to at {urllib.parse.quote(self.path[:80])}")

    def do_GET(self) -> None:
        self._handle("GET")

    def do_HEAD(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(
    host: str = "127.0.0.1", port: int = 8000, *, quiet: bool = True
) -> http.server.ThreadingHTTPServer:
    """A server (not yet serving) with its own games; ``port=0`` takes a free port
    (``server.server_address[1]`` says which)."""
    handler = type("BoundHandler", (Handler,), {"store": Store(), "quiet": quiet})
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    quiet: bool = True,
) -> int:
    """Serve the page until Ctrl-C (then return 0). Prints the address to open. ValueError
    for a port out of range or an address it cannot listen on."""
    if not 0 <= port <= 65535:
        raise ValueError(f"--port is 0..65535, not {port}")
    try:
        server = make_server(host, port, quiet=quiet)
    except OSError as error:
        raise ValueError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"ddz: warning: {host} is reachable from other machines; the page has no "
            "login, anyone who reaches it can play",
            file=sys.stderr,
        )
    address = f"http://{host}:{server.server_address[1]}/"
    print(f"ddz: serving on {address} (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nddz: stopped", flush=True)
    finally:
        server.server_close()
    return 0
