"""python -m ddz serve against hostile requests: the server runs in its own process, so a
crash shows as a dead server; every answer must be a deliberate one (200, 400, 404, 413), and
no traceback may reach its stderr (a 500 prints one there)."""

from __future__ import annotations

import http.client
import json
import random
import re
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

ANSWERS = {200, 400, 404, 411, 413, 503}


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, subprocess.Popen[str]]]:
    process = subprocess.Popen(
        [sys.executable, "-u", "-m", "ddz", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    found = re.search(r"http://(127\.0\.0\.1:\d+)/", process.stdout.readline())
    assert found
    yield found.group(1), process
    process.terminate()
    process.communicate(timeout=20)


def send(
    host: str,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> int:
    connection = http.client.HTTPConnection(host, timeout=30)
    try:
        kind = {"Content-Type": "application/json"} if method == "POST" else {}
        connection.request(method, path, body=body, headers={**kind, **(headers or {})})
        response = connection.getresponse()
        payload = response.read()
        if response.status != 200 or "json" in response.getheader("Content-Type", ""):
            json.loads(payload)  # every answer of the API is JSON, errors included
        return response.status
    finally:
        connection.close()


def new_game(host: str, game: str, seed: int) -> str:
    connection = http.client.HTTPConnection(host, timeout=30)
    connection.request(
        "POST",
        "/api/games",
        body=json.dumps({"game": game, "seed": seed}),
        headers={"Content-Type": "application/json"},
    )
    answer = json.loads(connection.getresponse().read())
    connection.close()
    return str(answer["id"])


def test_hostile_requests(server: tuple[str, subprocess.Popen[str]]) -> None:
    host, process = server
    rng = random.Random(12)
    ids = [new_game(host, game, 3) for game in ("classic", "two-player", "uno-landlord", "uno")]
    bodies = [
        b"",
        b"null",
        b"[]",
        b"{}",
        b'"x"',
        b"1e999",
        b"\xff" * 40,
        b"{" * 50_000,
        b"[" * 100_000 + b"]" * 100_000,
        json.dumps({"seed": 10**400, "game": "uno"}).encode(),
        json.dumps({"game": "uno", "players": 10, "seat": 9, "agents": "random,greedy"}).encode(),
        json.dumps({"record": "rules classic\n" + "0 pass\n" * 50_000}).encode(),
        json.dumps({"record": "{" * 10_000}).encode(),
        json.dumps({"action": "3" * 100_000}).encode(),
        json.dumps({"cards": "\u0000\ud7ff" * 50}).encode(),
        json.dumps({"card": "W+4" * 1000}).encode(),
    ]
    paths = (
        ["/api/games", "/api/replays"]
        + [f"/api/games/{i}/act" for i in ids]
        + [
            "/api/games/../../etc/passwd",
            "/%00",
            "/static/%2e%2e/server.py",
            "/api/games//act",
            "/" + "a/" * 2000,
            "/api/replays/x?ply=-1&ply=99999999999999999999",
        ]
    )
    for _ in range(300):
        path = rng.choice(paths)
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        body = rng.choice([*bodies, noise])
        status = send(host, rng.choice(["POST", "GET"]), path, body if rng.random() < 0.9 else None)
        assert status in ANSWERS, (path, body[:60])
    for length in ["-1", "abc", "99999999999999999999", str(1 << 21)]:
        assert send(host, "POST", "/api/games", b"{}", {"Content-Length": length}) in ANSWERS

    # Many threads acting on the same games at once.
    failures: list[str] = []

    def hammer(seed: int) -> None:
        local = random.Random(seed)
        for _ in range(40):
            target = local.choice(ids)
            action = local.choice(["pass", "bid 3", "3", "draw", "play R7", "none", "33", "grab"])
            status = send(
                host, "POST", f"/api/games/{target}/act", json.dumps({"action": action}).encode()
            )
            if status not in ANSWERS:
                failures.append(f"{status} for {action}")

    threads = [threading.Thread(target=hammer, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures
    assert send(host, "GET", "/api/options") == 200
    assert process.poll() is None  # still serving
    process.terminate()
    _, err = process.communicate(timeout=20)
    assert "Traceback" not in err, err[-3000:]
