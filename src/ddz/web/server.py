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
``GET /api/replays/ID/review``              a Dou Dizhu replay's review with every hand
                                            open (``ddz.review``; ``Store.review``)
==========================================  ===============================================

Every error, the standard library's own (a malformed request line, an unknown method, a
header too long) included, is ``{"error": "..."}``: 400 bad input or an illegal action (with
its reason), 403 a request for another site (below), 404 no such path or id, 408 a request
not read within the deadline, 411 a POST without a Content-Length (a chunked body), 413 a
body over :data:`MAX_BODY`, 415 a POST body that is not ``application/json``, 503 the server
at a limit (connections, games in play). A fault in ddz itself is a 500 with a one-line
message, its traceback on the server's stderr; a client that leaves before its answer is
let go silently.

The server is a boundary, not only a convenience:

- **Host and Origin.** A request is answered only when its ``Host`` names the server as
  it listens (``127.0.0.1:PORT``, ``localhost:PORT`` and ``[::1]:PORT``, the ``--host``
  address itself, and the machine's host name when it listens on every address) and its
  ``Origin``, when it has one, is ``http://`` and that Host: so no other web page can
  drive it, or read its answers through a DNS name rebound to 127.0.0.1 (403 otherwise).
  A POST must be ``application/json``, which no page can send to another site without
  asking it first (CORS, which this server never allows).
- **Time and connections.** A request (its line, headers and body) must arrive within
  :data:`DEADLINE` seconds of the connection, however slowly it trickles; at most
  :data:`MAX_CONNECTIONS` connections are served at once, any more are answered 503 at
  once.
- **Memory.** Bodies up to :data:`MAX_BODY`; the games and replays held, and the plies of
  each, are bounded (:mod:`ddz.web.sessions`: ``MAX_SESSIONS``, ``MAX_REPLAYS``,
  ``MAX_REPLAY_PLIES``, ``MAX_GAME_PLIES``).
- **Hidden cards.** Nothing sent before a game is over holds another seat's cards or the
  seed (which is the whole deal): server seeds are 64 random bits, and the agents draw
  their own randomness, not derived from the seed.
"""

from __future__ import annotations

import http.server
import io
import json
import socket
import string
import sys
import threading
import time
import traceback
import urllib.parse
from importlib import resources
from typing import Any

from ddz.play.agents import AGENTS
from ddz.uno.agents import AGENTS as UNO_AGENTS
from ddz.web.sessions import GAMES, RequestError, SessionNotFound, Store, StoreFull

__all__ = ["DEADLINE", "MAX_BODY", "MAX_CONNECTIONS", "make_server", "serve"]

MAX_BODY = 1 << 18
"""The largest request body read, 256 KiB: a Dou Dizhu record is a few kB, an UNO record of
``MAX_REPLAY_PLIES`` plies about 150 kB."""

DEADLINE = 10.0
"""Seconds a request has to arrive whole (request line, headers and body), counted from the
connection; the answer has as long again to be taken."""

MAX_CONNECTIONS = 32
"""Connections served at once (one thread each)."""

STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}

Answer = tuple[int, bytes, str]


def _static(name: str) -> bytes:
    return resources.files("ddz.web").joinpath("static", name).read_bytes()


class _HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class _Gone(Exception):
    """The client left (reset or closed) while its request was read."""


class _DeadlineReader(io.RawIOBase):
    """The connection's bytes, each read given only what is left of the request's deadline:
    a socket timeout alone bounds one read, and a client sending a byte a second would
    never reach it."""

    def __init__(self, connection: socket.socket, seconds: float) -> None:
        self._connection = connection
        self._end = time.monotonic() + seconds

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self._end - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self._connection.settimeout(left)
        return self._connection.recv_into(buffer)


def _json_answer(status: int, value: Any) -> Answer:
    return status, json.dumps(value).encode(), "application/json"


def _shown(path: str) -> str:
    """A path for a message: as it came (it is percent-encoded already), cut short, with
    nothing but printable ASCII."""
    return urllib.parse.quote(path[:80], safe=string.punctuation)


class Handler(http.server.BaseHTTPRequestHandler):
    """One request: check it, route it, answer JSON (or a static file)."""

    server_version = "ddz"
    store: Store  # set on the class made for each server
    hosts: frozenset[str] = frozenset()  # the Host values it answers (lower case)
    quiet = True
    deadline = DEADLINE
    timeout = DEADLINE  # each write's bound (the reads are bounded by the deadline)

    def setup(self) -> None:
        super().setup()
        # HTTP/1.0: one request a connection, so the deadline is the connection's
        self.rfile.close()  # the socket's own file: a file left open keeps the socket open
        self.rfile = io.BufferedReader(_DeadlineReader(self.connection, self.deadline))

    # --- answering ----------------------------------------------------------------------------

    def _write(self, status: int, body: bytes, content_type: str) -> None:
        """Send an answer; a client that has gone is let go without a word."""
        if getattr(self, "request_version", "") == "HTTP/0.9":  # a malformed request line
            self.request_version = "HTTP/1.0"  # still answered with a status and headers
        try:
            self.connection.settimeout(self.timeout)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "DENY")  # no other page frames it (clickjacking)
            if status >= 400:
                self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
                self.wfile.flush()
        except OSError:  # reset, broken pipe, a client that stopped reading
            self.close_connection = True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard library's errors (a bad request line, 414, 431, 501...) as JSON too."""
        self.log_error("code %d, message %s", code, message)
        self.close_connection = True
        phrase = self.responses.get(code, ("error",))[0]
        self._write(*_json_answer(code, {"error": message or phrase}))

    def _check_site(self) -> None:
        """Only this server's own names and page: see the module's docstring."""
        hosts = self.headers.get_all("Host") or []
        host = hosts[0].strip().lower() if len(hosts) == 1 else None
        if host not in self.hosts:
            raise _HttpError(403, "this server answers only requests for its own address")
        origins = self.headers.get_all("Origin") or []
        if origins and (len(origins) > 1 or origins[0].strip().lower() != f"http://{host}"):
            raise _HttpError(403, "this server answers only its own page")

    def _body(self) -> Any:
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            self.close_connection = True
            raise _HttpError(415, "a request body is JSON: Content-Type: application/json")
        if self.headers.get("Transfer-Encoding") is not None:
            self.close_connection = True
            raise _HttpError(411, "send the body with a Content-Length (not chunked)")
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            self.close_connection = True
            raise _HttpError(411, "a request body needs a Content-Length")
        length_text = length_text.strip()
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
        except TimeoutError:  # the deadline: a body that does not come, or comes too slowly
            self.close_connection = True
            raise _HttpError(
                408, f"the request did not arrive within {self.deadline:g} s"
            ) from None
        except OSError:
            raise _Gone from None
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
            self._check_site()
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            parts = [part for part in url.path.split("/") if part]
            answer = self._get(parts, query) if method == "GET" else self._post(parts)
        except _Gone:
            self.close_connection = True
            return
        except _HttpError as error:
            answer = _json_answer(error.status, {"error": str(error)})
        except RequestError as error:
            answer = _json_answer(400, {"error": str(error)})
        except SessionNotFound:
            answer = _json_answer(
                404, {"error": "no such game or replay (the server may have restarted)"}
            )
        except StoreFull as error:
            answer = _json_answer(503, {"error": str(error)})
        except Exception as error:  # a fault in ddz: answer it, never show the traceback
            traceback.print_exc(file=sys.stderr)
            answer = _json_answer(500, {"error": f"internal error ({type(error).__name__})"})
        self._write(*answer)

    def _get(self, parts: list[str], query: dict[str, list[str]]) -> Answer:
        if not parts:
            return 200, _static("index.html"), STATIC["index.html"]
        if len(parts) == 2 and parts[0] == "static" and parts[1] in STATIC:
            return 200, _static(parts[1]), STATIC[parts[1]]
        if parts == ["api", "options"]:
            return _json_answer(
                200, {"games": GAMES, "agents": list(AGENTS), "uno_agents": list(UNO_AGENTS)}
            )
        if len(parts) == 4 and parts[:2] == ["api", "replays"] and parts[3] == "review":
            return _json_answer(200, self.store.review(parts[2]))
        if len(parts) == 3 and parts[:2] in (["api", "games"], ["api", "replays"]):
            body: dict[str, Any] = {}
            if "ply" in query:
                try:
                    body["ply"] = int(query["ply"][-1])
                except ValueError:
                    raise RequestError("ply is a whole number") from None
            return _json_answer(200, self.store.state(parts[2], body))
        raise _HttpError(404, f"nothing at {_shown(self.path)}")

    def _post(self, parts: list[str]) -> Answer:
        if parts == ["api", "games"]:
            return _json_answer(200, self.store.create(self._body()))
        if parts == ["api", "replays"]:
            return _json_answer(200, self.store.replay(self._body()))
        if len(parts) == 4 and parts[:2] == ["api", "games"] and parts[3] == "act":
            return _json_answer(200, self.store.act(parts[2], self._body()))
        self.close_connection = True  # its body, if any, is not read
        raise _HttpError(404, f"nothing to post to at {_shown(self.path)}")

    def do_GET(self) -> None:
        self._handle("GET")

    def do_HEAD(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class _Server(http.server.ThreadingHTTPServer):
    """A thread a connection, at most ``max_connections`` at once."""

    daemon_threads = True

    def __init__(
        self, address: tuple[str, int], handler: type[Handler], max_connections: int
    ) -> None:
        super().__init__(address, handler)
        self._max_connections = max_connections
        self._holding: set[Any] = set()  # the connections that hold a slot
        self._holding_lock = threading.Lock()

    @property
    def connections_held(self) -> int:
        """The connections that hold a slot now (answered ones have given theirs back)."""
        with self._holding_lock:
            return len(self._holding)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._holding_lock:
            taken = len(self._holding) < self._max_connections
            if taken:
                self._holding.add(request)
        if not taken:
            self._refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            # Ctrl-C can land in Thread.start after the thread has run (a fast answer) and
            # given the slot back: a slot is the connection's membership of the set, so
            # giving it back twice is harmless and the KeyboardInterrupt goes through
            self._release(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(request)

    def _release(self, request: Any) -> None:
        with self._holding_lock:
            self._holding.discard(request)

    def _refuse(self, request: socket.socket) -> None:
        """503 without a thread: the request is not read beyond what came at once (a short
        wait, so the answer is not lost to a reset for bytes left unread)."""
        body = json.dumps({"error": "the server is busy (too many connections): try again"})
        head = (
            "HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        try:
            request.settimeout(0.2)
            request.recv(65536)
            request.sendall((head + body).encode())
        except OSError:
            pass
        self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], OSError):  # a client gone or too slow: not a fault
            return
        super().handle_error(request, client_address)


def _hosts(host: str, port: int) -> frozenset[str]:
    """The Host values a server listening on ``host:port`` answers."""
    names = {"127.0.0.1", "localhost", "[::1]", f"[{host}]" if ":" in host else host}
    if host in ("", "0.0.0.0", "::"):
        names.add(socket.gethostname())
    values = {f"{name.lower()}:{port}" for name in names if name}
    if port == 80:  # a browser leaves the default port out
        values |= {name.lower() for name in names if name}
    return frozenset(values)


def make_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    quiet: bool = True,
    deadline: float = DEADLINE,
    max_connections: int = MAX_CONNECTIONS,
    store: Store | None = None,
) -> http.server.ThreadingHTTPServer:
    """A server (not yet serving) with its own games (``store``, a new :class:`Store` by
    default); ``port=0`` takes a free port (``server.server_address[1]`` says which).
    ``deadline`` and ``max_connections``: see :data:`DEADLINE`, :data:`MAX_CONNECTIONS`."""
    handler: type[Handler] = type(
        "BoundHandler",
        (Handler,),
        {
            "store": store or Store(),
            "quiet": quiet,
            "deadline": deadline,
            "timeout": deadline,
        },
    )
    server = _Server((host, port), handler, max_connections)
    handler.hosts = _hosts(host, server.server_address[1])
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
