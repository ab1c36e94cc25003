"""python -m ddz serve as a security boundary: each test plays an attack against a server on
127.0.0.1 (a free port) started by the test, and checks that it is refused.

The attacks: reading the seed (the whole deal) or another seat's cards before the game is
over; a web page driving the server (a cross-site POST, a DNS name rebound to 127.0.0.1);
evicting the person's game by creating others; a replay too long to hold; a client that
trickles its request, or holds connections; errors answered in HTML, or with tracebacks on
the server's stderr.
"""

from __future__ import annotations

import json
import re
import socket
import struct
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from ddz import uno
from ddz.web.server import MAX_BODY, make_server
from ddz.web.sessions import MAX_REPLAY_PLIES, MAX_SESSIONS, Store


@contextmanager
def running(**options: Any) -> Iterator[int]:
    """A server on 127.0.0.1 for one test; yields its port."""
    server = make_server("127.0.0.1", 0, **options)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def exchange(port: int, data: bytes, *, timeout: float = 20) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes, read the answer to the end (the server closes: HTTP/1.0)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(data)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


def http(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    *,
    host: str | None = None,
    headers: dict[str, str] | None = None,
    length: bool = True,
) -> tuple[int, dict[str, str], bytes]:
    """One request with exactly these headers (Host: 127.0.0.1:PORT unless ``host``; None
    for a header's value leaves it out)."""
    sent = {"Host": host if host is not None else f"127.0.0.1:{port}"}
    if body is not None:
        sent["Content-Type"] = "application/json"
        if length:
            sent["Content-Length"] = str(len(body))
    sent.update(headers or {})
    lines = [f"{method} {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in sent.items() if v is not None]
    return exchange(port, ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))


def api(port: int, method: str, path: str, value: Any = None, **options: Any) -> tuple[int, Any]:
    """(status, decoded JSON) of a request the page itself would send."""
    body = None if value is None else json.dumps(value).encode()
    status, headers, raw = http(port, method, path, body, **options)
    assert headers["content-type"] == "application/json", (status, raw[:200])
    return status, json.loads(raw)


def ok(port: int, method: str, path: str, value: Any = None) -> Any:
    status, answer = api(port, method, path, value)
    assert status == 200, answer
    return answer


def error(status: int, answer: Any) -> str:
    assert set(answer) == {"error"} and "Traceback" not in answer["error"], answer
    return str(answer["error"])


def face_up_seats(svg: str) -> set[int]:
    pattern = r'class="card" data-card="[^"]+" data-seat="(\d+)"'
    return {int(seat) for seat in re.findall(pattern, svg)}


# --- 1. nothing hidden before the end ----------------------------------------------------------


def play_out(port: int, body: dict[str, Any]) -> tuple[list[bytes], dict[str, Any]]:
    """Play a game the server deals, always the first legal action: every answer's bytes
    before the end, and the last state."""
    seen: list[bytes] = []
    status, _, raw = http(port, "POST", "/api/games", json.dumps(body).encode())
    assert status == 200, raw
    state = json.loads(raw)
    for _ in range(3000):
        if state["over"]:
            return seen, state
        seen.append(raw)
        status, _, raw = http(port, "GET", f"/api/games/{state['id']}")
        assert status == 200 and json.loads(raw) == state
        seen.append(raw)
        act = json.dumps({"action": state["legal"][0]}).encode()
        status, _, raw = http(port, "POST", f"/api/games/{state['id']}/act", act)
        assert status == 200, raw
        state = json.loads(raw)
    raise AssertionError("the game did not end")  # pragma: no cover


@pytest.mark.parametrize(
    "body",
    [
        {"game": "classic", "seat": 1, "agents": "random"},
        {"game": "two-player", "seat": 0, "agents": "random"},
        {"game": "uno-landlord", "seat": 2},
        {"game": "uno", "players": 3, "seat": 1, "agents": "random"},
    ],
)
def test_no_answer_before_the_end_holds_the_seed_or_another_hand(body: dict[str, Any]) -> None:
    with running() as port:
        seeds = []
        for _ in range(3):
            seen, final = play_out(port, body)
            record = json.loads(final["record"])
            seed = record["seed"]
            seeds.append(seed)
            for raw in seen:  # the seed is the deal: whoever reads it knows every hand
                text = raw.decode()
                assert str(seed) not in text and f"{seed:x}" not in text.lower()
                state = json.loads(raw)
                assert state["record"] is None and "seed" not in state["intro"]
                assert face_up_seats(state["svg"]) <= {state["you"]}
                hidden = state["text"].count("hidden")
                if state["kind"] == "doudizhu":
                    assert hidden == len(record["hands"]) - 1
            assert f"seed {seed}" in final["intro"]  # once over, the seed to play it again
        # 64 random bits: all three below 2**32 has odds of 2**-96
        assert max(seeds) >= 1 << 32, seeds


def test_a_redeal_tells_no_seed_before_the_end() -> None:
    with running() as port:
        # Seed 184 with greedy agents: seat 2 and seat 1 pass, so does the person: redealt.
        state = ok(port, "POST", "/api/games", {"game": "classic", "seat": 0, "seed": 184})
        state = ok(port, "POST", f"/api/games/{state['id']}/act", {"action": "pass"})
        assert "redealt" in state["intro"] and not state["over"]
        assert "seed" not in state["intro"] and "185" not in state["intro"], state["intro"]


def test_the_agents_randomness_is_not_the_deals_seed() -> None:
    """The same seed deals the same cards; random agents still play their own way (they were
    seeded seed + seat, so the seed told every agent's future choices)."""
    with running() as port:
        games = []
        for _ in range(3):
            body = {"game": "uno", "players": 4, "seat": 0, "agents": "random", "seed": 77}
            _, final = play_out(port, body)
            record = json.loads(final["record"])
            games.append(record["actions"])
            assert record["seed"] == 77
        assert len({json.dumps(actions) for actions in games}) > 1


# --- 2. other sites ----------------------------------------------------------------------------


def test_other_web_pages_cannot_drive_or_read_the_server() -> None:
    with running() as port:
        own = f"127.0.0.1:{port}"
        game = json.dumps({"game": "classic"}).encode()
        # A form on another site: text/plain, the browser names the page's origin.
        status, answer = api(
            port,
            "POST",
            "/api/games",
            None,
            headers={"Content-Type": "text/plain", "Origin": "http://evil.example"},
        )
        assert status == 403 and "own" in error(status, answer)
        for origin in ["http://evil.example", "null", f"https://{own}", f"http://{own}.evil"]:
            status, _, raw = http(port, "POST", "/api/games", game, headers={"Origin": origin})
            assert status == 403, (origin, raw)
        # DNS rebinding: evil.example resolves to 127.0.0.1, the page reads the answers.
        for host in ["evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}", ""]:
            status, _, raw = http(port, "GET", "/api/options", host=host)
            assert status == 403 and b"own address" in raw, (host, raw)
            status, _, raw = http(port, "POST", "/api/games", game, host=host)
            assert status == 403, (host, raw)
        status, _, _ = exchange(port, b"GET / HTTP/1.0\r\n\r\n")  # no Host at all
        assert status == 403
        status, _, _ = exchange(
            port, f"GET / HTTP/1.0\r\nHost: {own}\r\nHost: {own}\r\n\r\n".encode()
        )
        assert status == 403  # two Host headers
        # A page of another loopback name is another origin.
        status, _, _ = http(port, "POST", "/api/games", game, headers={"Origin": "http://[::1]"})
        assert status == 403
        status, _, _ = http(
            port, "POST", "/api/games", game, headers={"Origin": f"http://localhost:{port}"}
        )
        assert status == 403
        # The page itself, under either name.
        for name in ["127.0.0.1", "localhost", "LOCALHOST"]:
            host = f"{name}:{port}"
            status, _, raw = http(
                port, "POST", "/api/games", game, host=host, headers={"Origin": f"http://{host}"}
            )
            assert status == 200, raw
            status, _, raw = http(port, "GET", "/", host=host)
            assert status == 200 and b"<!doctype html>" in raw


def test_a_post_is_json_with_a_length() -> None:
    with running() as port:
        game = json.dumps({"game": "classic"}).encode()
        for kind in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            None,
        ]:
            status, answer = api(port, "POST", "/api/games", None, headers={"Content-Type": kind})
            assert status == 415 and "application/json" in error(status, answer), kind
        status, answer = api(
            port,
            "POST",
            "/api/games",
            None,
            headers={"Content-Type": "text/plain", "Content-Length": str(len(game))},
        )
        assert status == 415
        status, _, raw = http(
            port,
            "POST",
            "/api/games",
            game,
            headers={"Content-Type": "application/json; charset=utf-8"},
        )
        assert status == 200, raw
        # No Content-Length: the body was read as empty and answered "... not None".
        status, answer = api(port, "POST", "/api/games", {"game": "classic"}, length=False)
        assert status == 411 and "Content-Length" in error(status, answer)
        chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(game), game)
        status, _, raw = http(
            port,
            "POST",
            "/api/games",
            chunked,
            length=False,
            headers={"Transfer-Encoding": "chunked"},
        )
        assert status == 411 and b"chunked" in raw, raw


def test_new_games_cannot_push_out_a_game_in_play() -> None:
    with running() as port:
        mine = ok(port, "POST", "/api/games", {"game": "classic", "seat": 0, "seed": 4})
        # 201 posts from a page on another site: refused, nothing created.
        for _ in range(MAX_SESSIONS + 1):
            status, _ = api(
                port,
                "POST",
                "/api/games",
                None,
                headers={"Content-Type": "text/plain", "Origin": "http://evil.example"},
            )
            assert status == 403
        assert ok(port, "GET", f"/api/games/{mine['id']}") == mine
        # The same from a client that passes every check: the store fills, then says so.
        created = []
        for _ in range(MAX_SESSIONS + 1):
            status, answer = api(port, "POST", "/api/games", {"game": "classic", "seed": 5})
            if status == 503:
                assert "in play" in error(status, answer)
                break
            assert status == 200, answer
            created.append(answer["id"])
        assert len(created) == MAX_SESSIONS - 1  # with the person's game, the store is full
        assert ok(port, "GET", f"/api/games/{mine['id']}") == mine


def test_finished_games_and_idle_ones_make_room_first() -> None:
    store = Store(limit=3, replays=2, idle=1800)
    with running(store=store) as port:
        mine = ok(port, "POST", "/api/games", {"game": "classic", "seat": 0, "seed": 4})
        other = ok(port, "POST", "/api/games", {"game": "classic", "seed": 6})
        _, finished = play_out(port, {"game": "classic", "agents": "random"})
        status, answer = api(port, "POST", "/api/games", {"game": "classic"})
        assert status == 200, answer  # room made by dropping the finished game
        status, answer = api(port, "GET", f"/api/games/{finished['id']}")
        assert status == 404
        status, answer = api(port, "POST", "/api/games", {"game": "classic"})
        assert status == 503 and "30 minutes" in error(status, answer)
        for session in (mine, other):
            assert ok(port, "GET", f"/api/games/{session['id']}") == session
        # Replays are held apart, the one used longest ago dropped (the page keeps records).
        record = finished["record"]
        replays = [ok(port, "POST", "/api/replays", {"record": record})["id"] for _ in range(3)]
        assert api(port, "GET", f"/api/replays/{replays[0]}")[0] == 404
        assert all(api(port, "GET", f"/api/replays/{r}")[0] == 200 for r in replays[1:])
        assert ok(port, "GET", f"/api/games/{mine['id']}") == mine
    # A game left alone long enough gives way too.
    store = Store(limit=1, idle=0.5)
    with running(store=store) as port:
        first = ok(port, "POST", "/api/games", {"game": "classic", "seed": 4})
        assert api(port, "POST", "/api/games", {"game": "classic"})[0] == 503
        time.sleep(0.6)
        assert api(port, "POST", "/api/games", {"game": "classic"})[0] == 200
        assert api(port, "GET", f"/api/games/{first['id']}")[0] == 404


# --- 3. memory ---------------------------------------------------------------------------------


def long_round(plies: int) -> str:
    """A full UNO record of random agents, of at least ``plies`` plies."""
    for seed in range(200):
        round_ = uno.Game(players=6, seed=seed)
        uno.play_round(round_, [uno.make_agent("random", seed + p) for p in range(6)])
        if round_.ply >= plies:
            return str(round_.to_json())
    raise AssertionError("no round that long")  # pragma: no cover


def test_a_replay_holds_a_bounded_number_of_plies() -> None:
    assert MAX_BODY <= 1 << 18
    record = long_round(150)
    plies = len(json.loads(record)["actions"])
    with running(store=Store(replay_plies=plies - 1)) as port:
        status, answer = api(port, "POST", "/api/replays", {"record": record})
        assert status == 400 and f"at most {plies - 1}" in error(status, answer)
    with running(store=Store(replay_plies=plies)) as port:
        assert ok(port, "POST", "/api/replays", {"record": record})["plies"] == plies
    with running() as port:
        # The attack's shape: a long record (65,890 plies cost 57 MB and 1.5 s a POST).
        # Refused on its count, before a ply is replayed.
        data = json.loads(record)
        data["actions"] = (data["actions"] * (MAX_REPLAY_PLIES // plies + 1))[
            : MAX_REPLAY_PLIES + 1
        ]
        began = time.monotonic()
        status, answer = api(port, "POST", "/api/replays", {"record": json.dumps(data)})
        assert status == 400 and f"at most {MAX_REPLAY_PLIES}" in error(status, answer)
        assert time.monotonic() - began < 5
        # A body of 850 kB is not read at all: the answer comes on the head alone (sending
        # the body too raced the server's close: a broken pipe now and then)
        head = {"Content-Type": "application/json", "Content-Length": "850014"}
        began = time.monotonic()
        status, headers, _ = http(port, "POST", "/api/replays", headers=head)
        assert status == 413 and headers["content-type"] == "application/json"
        assert time.monotonic() - began < 5


def test_a_live_round_stops_at_its_ply_limit() -> None:
    with running(store=Store(game_plies=40)) as port:
        state = ok(port, "POST", "/api/games", {"game": "uno", "players": 6, "seed": 3})
        for _ in range(100):
            if not state["legal"]:
                break
            state = ok(
                port, "POST", f"/api/games/{state['id']}/act", {"action": state["legal"][-1]}
            )
        assert not state["legal"] and not state["over"] and "limit of 40" in state["hint"]
        assert state["record"] is None  # still not over: the hands stay hidden
        status, answer = api(port, "POST", f"/api/games/{state['id']}/act", {"action": "draw"})
        assert status == 400 and "limit of 40 plies" in error(status, answer)


# --- 4. slow clients, many connections ----------------------------------------------------------


def test_a_trickled_request_is_cut_off_at_the_deadline() -> None:
    with running(deadline=1.0) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            head = (
                f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Content-Type: application/json\r\nContent-Length: 40\r\n\r\n"
            )
            connection.sendall(head.encode())
            began = time.monotonic()
            connection.settimeout(0.3)
            answer = b""
            for _ in range(20):  # a byte every 0.3 s: each read is quick, the whole is not
                try:
                    connection.sendall(b" ")
                except OSError:
                    break
                try:
                    chunk = connection.recv(65536)
                except TimeoutError:
                    continue
                if not chunk:
                    break
                answer += chunk
            took = time.monotonic() - began
        assert answer.startswith(b"HTTP/1.0 408"), answer
        assert b'"error"' in answer and took < 3, took
        # The request line and headers count too: a header a byte at a time.
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(b"GET / HTTP/1.1\r\nX-Slow: ")
            began = time.monotonic()
            closed = False
            for _ in range(20):
                try:
                    connection.sendall(b"a")
                    time.sleep(0.3)
                    connection.setblocking(False)
                    closed = connection.recv(65536) == b""
                except BlockingIOError:
                    pass
                except OSError:
                    closed = True
                finally:
                    connection.setblocking(True)
                if closed:
                    break
            assert closed and time.monotonic() - began < 3


def test_connections_beyond_the_cap_are_refused_at_once() -> None:
    with running(max_connections=2, deadline=3.0) as port:
        idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(2)]
        try:
            time.sleep(0.3)  # both taken up by their threads
            began = time.monotonic()
            status, headers, raw = http(port, "GET", "/api/options")
            assert status == 503 and "busy" in json.loads(raw)["error"]
            assert headers["content-type"] == "application/json"
            assert time.monotonic() - began < 2
        finally:
            for connection in idle:
                connection.close()
        for _ in range(50):  # the threads notice the closed connections and free their slots
            status, _, _ = http(port, "GET", "/api/options")
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200


def test_ctrl_c_after_a_fast_answer_stops_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C can arrive while ``Thread.start`` waits, after the thread has answered and given
    its slot back: the KeyboardInterrupt must leave the loop, the slot not be freed twice."""
    server = make_server("127.0.0.1", 0, max_connections=2)
    port = server.server_address[1]
    start = threading.Thread.start

    def start_then_interrupt(thread: threading.Thread) -> None:
        # the target read before the start: a thread that has run deletes it
        target = getattr(getattr(thread, "_target", None), "__name__", "")
        start(thread)
        if target == "process_request_thread":
            thread.join(timeout=10)  # answered, slot given back
            raise KeyboardInterrupt

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(f"GET /api/options HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            monkeypatch.setattr(threading.Thread, "start", start_then_interrupt)
            with pytest.raises(KeyboardInterrupt):
                server.handle_request()
            monkeypatch.undo()
            answer = b""
            while chunk := client.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.0 200")
        assert server.connections_held == 0  # type: ignore[attr-defined]
    finally:
        server.server_close()


# --- 5. errors ---------------------------------------------------------------------------------


def test_every_error_is_json() -> None:
    with running() as port:
        host = f"Host: 127.0.0.1:{port}\r\n"
        cases = [
            (f"PUT / HTTP/1.1\r\n{host}\r\n", 501),
            (f"BREW /pot HTTP/1.1\r\n{host}\r\n", 501),
            ("GET /" + "a" * 70_000 + " HTTP/1.1\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\n" + host + "X-A: b\r\n" * 101 + "\r\n", 431),
            (f"GET / HTTP/1.1\r\nX-Long: {'b' * 70_000}\r\n\r\n", 431),
            ("HELLO\r\n\r\n", 400),
            ("GET / HTTP/x\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\n\r\n", 505),
        ]
        for request, expected in cases:
            status, headers, raw = exchange(port, request.encode())
            assert status == expected, (request[:40], raw)
            assert headers["content-type"] == "application/json", raw
            assert set(json.loads(raw)) == {"error"} and b"<" not in raw, raw
        status, answer = api(port, "GET", "/a%20b")
        assert status == 404 and error(status, answer) == "nothing at /a%20b"
        status, answer = api(port, "GET", "/caf%C3%A9?x=%22")
        assert error(status, answer) == "nothing at /caf%C3%A9?x=%22"
        status, answer = api(port, "POST", "/a%20b", {"x": 1})
        assert status == 404 and error(status, answer) == "nothing to post to at /a%20b"
        assert ok(port, "GET", "/api/options")["games"]


def test_a_client_that_leaves_early_is_let_go_silently(capfd: pytest.CaptureFixture[str]) -> None:
    record = json.dumps({"record": long_round(2500)}).encode()
    with running() as port:
        for _ in range(3):
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            head = (
                f"POST /api/replays HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(record)}\r\n\r\n"
            )
            connection.sendall(head.encode() + record)
            time.sleep(0.05)  # the server is replaying it now
            # gone with a reset, before the answer
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()
        time.sleep(2.0)  # each replay takes a fraction of a second
        assert ok(port, "GET", "/api/options")["games"]
    err = capfd.readouterr().err
    assert "Traceback" not in err and "fault" not in err and "Exception" not in err, err


# --- 6. the favicon ----------------------------------------------------------------------------


def test_the_page_names_its_icon_inline() -> None:
    with running() as port:
        status, _, page = http(port, "GET", "/")
        found = re.search(rb'<link rel="icon" href="data:image/svg\+xml,([^"]+)"', page)
        assert status == 200 and found, page[:400]
        icon = ET.fromstring(urllib.parse.unquote(found.group(1).decode()))
        assert icon.tag == "{http://www.w3.org/2000/svg}svg"
