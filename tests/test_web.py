"""python -m ddz serve over HTTP: a server on 127.0.0.1 (a free port), spoken to with urllib."""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

import ddz
import ddz.agents
from ddz import render, uno
from ddz.uno import render as uno_render
from ddz.web import sessions
from ddz.web.server import MAX_BODY, make_server
from ddz.web.sessions import REVIEW_NODE_LIMIT
from tests.terminal import AS_IN_A_TERMINAL


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def request(
    site: str,
    path: str,
    body: Any = None,
    *,
    raw: bytes | None = None,
    method: str | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """(status, decoded JSON or text, headers) of one request."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    call = urllib.request.Request(site + path, data=data, method=method, headers=headers or {})
    if data is not None:
        call.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(call, timeout=30) as response:
            status, payload, headers = response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        status, payload, headers = error.code, error.read(), dict(error.headers)
    kind = headers.get("Content-Type", "")
    return status, json.loads(payload) if "json" in kind else payload.decode(), headers


def ok(site: str, path: str, body: Any = None) -> Any:
    status, answer, _ = request(site, path, body)
    assert status == 200, answer
    return answer


def refused(site: str, path: str, body: Any = None, *, status: int = 400, **options: Any) -> str:
    got, answer, _ = request(site, path, body, **options)
    assert got == status, answer
    assert set(answer) == {"error"} and answer["error"] and "Traceback" not in answer["error"]
    return str(answer["error"])


def face_up_seats(svg: str) -> set[int]:
    pattern = r'class="card" data-card="[^"]+" data-seat="(\d+)"'
    return {int(seat) for seat in re.findall(pattern, svg)}


def test_the_page_and_its_files(site: str) -> None:
    status, page, headers = request(site, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert '<script src="/static/app.js">' in page and 'href="/static/style.css"' in page
    # a phone lays it out at its own width; the favicon is inline (no request for it)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert '<link rel="icon" href="data:image/svg+xml,' in page
    for name, kind in [("app.js", "text/javascript"), ("style.css", "text/css")]:
        status, text, headers = request(site, f"/static/{name}")
        assert status == 200 and headers["Content-Type"].startswith(kind) and len(text) > 1000
    status, _, headers = request(site, "/", method="HEAD")
    assert status == 200 and int(headers["Content-Length"]) == len(page.encode())
    for path in ["/static/server.py", "/static/../sessions.py", "/nothing", "/api/games"]:
        refused(site, path, status=404)
    assert ok(site, "/api/options")["games"] == ["classic", "two-player", "uno-landlord", "uno"]


@pytest.mark.parametrize("variant", ["classic", "two-player", "uno-landlord"])
def test_play_dou_dizhu_to_the_end(
    site: str, variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(variant)
    # the agents' seeds, secret on a server, drawn from a seeded generator here: the same
    # games every run (with secret seeds the random agents' games, and so the moves the
    # person plays by their cards, changed from run to run)
    seeds = random.Random(f"{variant} agents")
    monkeypatch.setattr(sessions.secrets, "randbits", seeds.getrandbits)
    seats = ddz.rules.PRESETS[variant].players
    clicked = 0
    for seat in range(seats):
        state = ok(
            site,
            "/api/games",
            {
                "game": variant,
                "seat": seat,
                "seed": 20 + seat,
                "agents": "random" if seat else "greedy",
            },
        )
        for _ in range(200):
            if state["over"]:
                break
            assert state["turn"] == seat and state["legal"]
            assert face_up_seats(state["svg"]) <= {seat}  # no other hand reaches the page
            assert state["text"].count("hidden") == seats - 1
            assert state["record"] is None  # the record holds every hand: only once over
            choice = rng.choice(state["legal"])
            if state["phase"] == "play" and choice != "pass" and rng.random() < 0.5:
                body = {"cards": str(ddz.Move.parse(choice).cards)}  # as clicked
            else:
                body = {"action": choice}
            answer = request(site, f"/api/games/{state['id']}/act", body)
            if answer[0] == 400:  # cards with two readings: the page asks which
                assert "choose one" in answer[1]["error"], answer
                answer = request(site, f"/api/games/{state['id']}/act", {"action": choice})
            assert answer[0] == 200, answer
            clicked += "cards" in body
            state = answer[1]
        assert state["over"] and state["result"] and state["turn"] is None
        assert face_up_seats(state["svg"]) | {seat} == set(range(seats)) or "out" in state["svg"]
        assert ok(site, f"/api/games/{state['id']}") == state
        assert "over" in refused(site, f"/api/games/{state['id']}/act", {"action": "pass"})
        # the finished game's record replays to the end the page showed
        played = ddz.Game.from_json(state["record"])
        assert played.is_over and render.text(played) == state["text"]
        replay = ok(site, "/api/replays", {"record": state["record"]})
        assert replay["plies"] == len(played.history) and replay["over"]
    assert clicked > 5


def test_illegal_actions_come_back_with_their_reason(site: str) -> None:
    # Seed 4: seat 1 bids 3, leads 33; seat 2 plays 44; seat 0 holds 33 44 5 6 7 88 9999 T JJ D.
    state = ok(site, "/api/games", {"game": "classic", "seat": 0, "seed": 4})
    assert state["legal"] == ["pass", "88", "99", "JJ", "9999"]
    act = f"/api/games/{state['id']}/act"
    assert refused(site, act, {"action": "333"}) == "333 plays cards the hand does not hold"
    assert "no move" in refused(site, act, {"cards": "56"})
    assert refused(site, act, {"cards": "33"}) == "33 does not beat 44"
    assert "unknown card" in refused(site, act, {"cards": "zz"})
    assert "select cards" in refused(site, act, {"cards": ""})
    assert "an action (text) or the cards" in refused(site, act, {})
    assert "an action (text) or the cards" in refused(site, act, {"action": "pass", "cards": "8"})
    assert "is str" in refused(site, act, {"action": 7})
    assert "JSON object" in refused(site, act, [1, 2])
    assert "not JSON" in refused(site, act, raw=b"{nope")
    assert "not JSON" in refused(site, act, raw=b"\xff\xfe")
    assert "no action is that long" in refused(site, act, {"action": "3" * 5000})
    assert ok(site, f"/api/games/{state['id']}")["legal"] == state["legal"]  # unchanged
    assert ok(site, act, {"cards": "88"})["log"][-3].endswith("(you): 88")


def test_bad_requests_to_create(site: str) -> None:
    assert "game is one of" in refused(site, "/api/games", {"game": "chess"})
    assert "game is one of" in refused(site, "/api/games", {})
    assert "seat is 0..2" in refused(site, "/api/games", {"game": "classic", "seat": 3})
    assert "seat is 0..1" in refused(site, "/api/games", {"game": "two-player", "seat": -1})
    assert "whole number" in refused(site, "/api/games", {"game": "classic", "seat": True})
    assert "whole number" in refused(site, "/api/games", {"game": "classic", "seat": "0"})
    assert "no agent 'clever'" in refused(
        site, "/api/games", {"game": "classic", "agents": "clever"}
    )
    assert "one for each" in refused(
        site, "/api/games", {"game": "classic", "agents": "random,random,random"}
    )
    assert "2**64" in refused(site, "/api/games", {"game": "classic", "seed": -1})
    assert "2**64" in refused(site, "/api/games", {"game": "uno", "seed": 1 << 64})
    assert "2..10 players" in refused(site, "/api/games", {"game": "uno", "players": 11})
    assert "seat is 0..2" in refused(site, "/api/games", {"game": "uno", "players": 3, "seat": 3})
    assert "not JSON" in refused(site, "/api/games", raw=b"x" * 10)
    # Too long: refused on the header, before a byte of the body is read.
    connection = http.client.HTTPConnection(site.removeprefix("http://"), timeout=30)
    connection.putrequest("POST", "/api/games")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", str(MAX_BODY + 1))
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413 and "over" in json.loads(response.read())["error"]
    connection.close()
    assert "Content-Length" in refused(
        site, "/api/games", raw=b"{}", headers={"Content-Length": "x"}
    )
    assert "restarted" in refused(site, "/api/games/nonexistent", status=404)
    assert "restarted" in refused(
        site, "/api/games/nonexistent/act", {"action": "pass"}, status=404
    )


def test_random_bodies_never_break_the_server(site: str) -> None:
    rng = random.Random(5)
    state = ok(site, "/api/games", {"game": "uno-landlord", "seat": 1, "seed": 3})
    values: list[Any] = [
        None,
        0,
        -1,
        1.5,
        True,
        "",
        "pass",
        "bid 9",
        "S",
        "V",
        "XD",
        "\x00",
        "3" * 300,
        [],
        {},
        {"a": 1},
        "é",
        "play R7",
        "🃏",
    ]
    for _ in range(200):
        body = {
            rng.choice(["action", "cards", "card", "seat", "x"]): rng.choice(values)
            for _ in range(rng.randint(0, 2))
        }
        status, answer, _ = request(site, f"/api/games/{state['id']}/act", body)
        assert status in (200, 400), (body, answer)
        if status == 200:
            state = answer
        if state["over"]:
            state = ok(
                site, "/api/games", {"game": "uno-landlord", "seat": 1, "seed": rng.randrange(100)}
            )


def test_play_uno_to_the_end(site: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(1)
    seeds = random.Random("uno agents")  # the agents' seeds: the same round every run
    monkeypatch.setattr(sessions.secrets, "randbits", seeds.getrandbits)
    clicked = 0
    state = ok(site, "/api/games", {"game": "uno", "players": 3, "seat": 2, "seed": 9})
    act = f"/api/games/{state['id']}/act"
    # Seed 9, seat 2 acts first: play Y6, a Wild Draw Four (any colour), or draw.
    assert state["legal"][0] == "play Y6" and state["legal"][-1] == "draw"
    assert refused(site, act, {"card": "R8"}) == "player 2 does not hold R8"
    assert refused(site, act, {"card": "W+4"}) == "choose the colour for W+4"
    assert "no card at position 0 of 'Q9'" in refused(site, act, {"card": "Q9"})
    assert "your turn" in refused(site, act, {"action": "none"})
    assert "for yourself only" in refused(site, act, {"action": "1: draw"})
    assert "not both" in refused(site, act, {"card": "R8", "action": "draw"})
    for _ in range(400):
        if state["over"]:
            break
        assert state["legal"] and state["record"] is None
        assert face_up_seats(state["svg"]) <= {2}
        choice = rng.choice(state["legal"] + (["none"] if state["may_pass"] else []))
        if choice.startswith("play ") and rng.random() < 0.5:
            card = choice.split()[1]
            status, answer, _ = request(site, act, {"card": card})
            if status == 400:
                assert "choose the colour" in answer["error"]  # a wild, from a card click
                status, answer, _ = request(site, act, {"action": choice})
            clicked += status == 200
        else:
            status, answer, _ = request(site, act, {"action": choice})
        assert status == 200, answer
        state = answer
    assert state["over"] and state["result"] and not state["legal"] and clicked > 3
    assert "over" in refused(site, act, {"action": "draw"})
    played = uno.Game.from_json(state["record"])
    assert played.is_over and uno_render.text(played) == state["text"]
    assert ok(site, "/api/replays", {"record": state["record"]})["plies"] == played.ply


def test_replays(site: str) -> None:
    game = ddz.Game(ddz.UNO_LANDLORD, seed=8)
    rng = random.Random(8)
    while not game.is_over:
        game.step(rng.choice(game.legal_actions()))
    for record in (game.to_json(), game.record()):
        state = ok(site, "/api/replays", {"record": record})
        plies = len(game.history)
        assert state["replay"] and state["ply"] == state["plies"] == plies
        assert state["moves"] == [f"{r.player}: {r.action}" for r in game.history]
        assert state["text"] == str(game)
        middle = ok(site, f"/api/replays/{state['id']}?ply=5")
        again = ddz.Game.from_json(game.to_json())
        for _ in range(plies - 5):
            again.undo()
        assert middle["text"] == str(again) and middle["ply"] == 5
        assert ok(site, f"/api/replays/{state['id']}?ply=0")["text"].count("hidden") == 0
        assert "ply is 0.." in refused(site, f"/api/replays/{state['id']}?ply={plies + 1}")
        assert "whole number" in refused(site, f"/api/replays/{state['id']}?ply=x")
        assert "no actions" in refused(site, f"/api/games/{state['id']}/act", {"action": "pass"})
    round_ = uno.Game(players=3, seed=2)
    uno.play_round(round_, [uno.make_agent("greedy")] * 3)
    state = ok(site, "/api/replays", {"record": round_.to_json()})
    assert state["kind"] == "uno" and state["moves"] == uno_render.narrate(round_)
    assert [re.sub(r"( \d+ cards?)?( \(.*\))?$", "", move) for move in state["moves"]] == [
        str(action) for action in round_.history
    ]
    draws = [move for move in state["moves"] if ": draw" in move]
    assert draws and all(re.fullmatch(r"\d+: draw \d+ cards?", move) for move in draws), draws
    tampered = json.loads(game.to_json())
    tampered["actions"][4] = "2222"
    assert "does not replay" in refused(site, "/api/replays", {"record": json.dumps(tampered)})
    assert "does not replay" in refused(site, "/api/replays", {"record": '{"format": 1}'})
    assert "does not replay" in refused(site, "/api/replays", {"record": "rules classic\n"})
    assert "empty" in refused(site, "/api/replays", {"record": "  "})
    assert "record's text" in refused(site, "/api/replays", {})


REVIEWED = json.dumps(
    {
        "format": "ddz-game/1",
        "rules": {},
        "position": "34JJKX/77TKA/568TQ landlord=0 turn=0",
        "actions": ["K", "A", "pass", "pass", "77", "pass", "pass", "K", "pass", "pass", "T"],
    }
)
"""docs/solver.md's reviewed game: three blunders, every verdict known."""


def test_a_replays_review(site: str) -> None:
    state = ok(site, "/api/replays", {"record": REVIEWED})
    answer = ok(site, f"/api/replays/{state['id']}/review")
    expected = ddz.review(REVIEWED, node_limit=REVIEW_NODE_LIMIT)
    assert answer["rows"] == [row.to_dict() for row in expected.rows]
    assert (answer["id"], answer["plies"], answer["known"], answer["blunders"]) == (
        state["id"], 11, 11, 3
    )  # fmt: skip
    assert ok(site, f"/api/replays/{state['id']}/review") == answer  # kept with the replay
    # a dealt game: the bids are not rows, the first row is the first move's ply
    game = ddz.Game(seed=11)
    agent = ddz.agents.GreedyAgent()
    while not game.is_over:
        game.step(ddz.agents.choose(agent, game))
    state = ok(site, "/api/replays", {"record": game.record()})
    answer = ok(site, f"/api/replays/{state['id']}/review")
    expected = ddz.review(game, node_limit=REVIEW_NODE_LIMIT)
    assert answer["rows"] == [row.to_dict() for row in expected.rows]
    assert answer["rows"][0]["ply"] == sum(r.phase == "bidding" for r in game.history)


def test_a_review_while_another_runs_is_refused_not_queued(site: str) -> None:
    state = ok(site, "/api/replays", {"record": REVIEWED})
    with sessions._REVIEWING:  # as if another request's review were running
        assert "another review" in refused(site, f"/api/replays/{state['id']}/review", status=503)
    assert ok(site, f"/api/replays/{state['id']}/review")["plies"] == 11


def test_what_a_review_refuses(site: str) -> None:
    game = ddz.Game(seed=11)
    rng = random.Random(11)
    while not game.is_over:
        game.step(rng.choice(game.legal_actions()))
    seat_view = ok(site, "/api/replays", {"record": game.to_json(seat=1)})
    assert "every hand" in refused(site, f"/api/replays/{seat_view['id']}/review")
    round_ = uno.Game(players=3, seed=2)
    uno.play_round(round_, [uno.make_agent("greedy")] * 3)
    state = ok(site, "/api/replays", {"record": round_.to_json()})
    assert "not UNO" in refused(site, f"/api/replays/{state['id']}/review")
    played = ok(site, "/api/games", {"game": "classic", "seat": 0, "agents": "greedy"})
    assert "only a replay" in refused(site, f"/api/replays/{played['id']}/review")
    assert "restarted" in refused(site, "/api/replays/nonexistent/review", status=404)


def test_a_seats_view_replays_from_that_seat_only(site: str) -> None:
    game = ddz.Game(seed=11)
    rng = random.Random(11)
    while not game.is_over:
        game.step(rng.choice(game.legal_actions()))
    plies = len(game.history)
    state = ok(site, "/api/replays", {"record": game.to_json(seat=1)})
    assert state["you"] == 1 and state["plies"] == plies
    assert state["moves"] == [f"{r.player}: {r.action}" for r in game.history]
    for ply in (0, 5, plies // 2, plies):
        shown = ok(site, f"/api/replays/{state['id']}?ply={ply}")
        at = game.copy()
        for _ in range(plies - ply):
            at.undo()
        assert shown["text"] == render.text(at, seat=1)  # what seat 1 saw, no more
        faces = re.findall(r'<g class="card[^"]*" data-card="[^"]*" data-seat="(\d)"', shown["svg"])
        assert set(faces) <= {"1"} and len(faces) == len(at.hands[1])
    round_ = uno.Game(players=3, seed=2)
    uno.play_round(round_, [uno.make_agent("greedy")] * 3)
    message = refused(site, "/api/replays", {"record": round_.to_json(seat=0)})
    assert "player 0's view" in message and "full record" in message
    tampered = json.loads(game.to_json(seat=1))
    tampered["actions"][7] = "2222"
    message = refused(site, "/api/replays", {"record": json.dumps(tampered)})
    assert "does not replay" in message and "action 8" in message, message


def test_the_command_starts_and_stops_cleanly() -> None:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "ddz", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        **AS_IN_A_TERMINAL,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.match(r"ddz: serving on (http://127\.0\.0\.1:\d+)/ \(Ctrl-C stops\)", line)
        assert found, line
        assert ok(found.group(1), "/api/options")["agents"]
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err
    bad = subprocess.run(
        [sys.executable, "-m", "ddz", "serve", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stderr == "error: --port is 0..65535, not 70000\n"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = subprocess.run(
            [sys.executable, "-m", "ddz", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert busy.returncode == 2 and busy.stderr.startswith(
        f"error: cannot listen on 127.0.0.1:{port}"
    )
    assert busy.stderr.count("\n") == 1


def expected_doudizhu_outcome(record: str, seat: int) -> tuple[bool, int]:
    """Whether ``seat``'s side won the recorded game, and its points, from the record."""
    game = ddz.Game.from_json(record)
    won = (game.winner == game.landlord) == (seat == game.landlord)
    return won, game.payoffs()[seat]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_end_says_whether_you_won(site: str, seat: int) -> None:
    """The finished game tells the person their side's result and their points; nothing
    before the end."""
    rng = random.Random(seat)
    state = ok(site, "/api/games", {"game": "classic", "seat": seat, "seed": 30 + seat})
    while not state["over"]:
        assert state["outcome"] is None
        choice = rng.choice(state["legal"])
        state = ok(site, f"/api/games/{state['id']}/act", {"action": choice})
    won, points = expected_doudizhu_outcome(state["record"], seat)
    outcome = state["outcome"]
    assert outcome["won"] is won and outcome["points"] == points
    assert outcome["headline"] == ("You won" if won else "You lost")
    assert f"Your points: {points:+d}" in outcome["detail"]


def test_the_end_of_an_uno_round_says_whether_you_won(site: str) -> None:
    outcomes: set[str] = set()
    for seed in range(60):  # the agents draw their own randomness: play until both are seen
        if {"You won", "You lost"} <= outcomes:
            break
        state = ok(site, "/api/games", {"game": "uno", "players": 2, "seat": 1, "seed": seed})
        while not state["over"]:
            assert state["outcome"] is None
            plays = [a for a in state["legal"] if a.startswith("play ")]
            choice = (plays or state["legal"])[0]  # a card when one fits, else draw (or pass)
            state = ok(site, f"/api/games/{state['id']}/act", {"action": choice})
        played = uno.Game.from_json(state["record"])
        outcome = state["outcome"]
        if played.winner is None:
            assert outcome["won"] is None and outcome["headline"].startswith("Blocked")
        else:
            assert outcome["won"] is (played.winner == 1)
            assert outcome["headline"] == ("You won" if played.winner == 1 else "You lost")
        assert outcome["points"] == played.points()[1]
        outcomes.add(outcome["headline"])
    assert {"You won", "You lost"} <= outcomes


def test_the_hint_fits_the_moment(site: str) -> None:
    """Leading, the rules allow no pass: the hint does not offer one; following, it does."""
    # Seed 4: seat 0 follows 44 (may pass).
    state = ok(site, "/api/games", {"game": "classic", "seat": 0, "seed": 4})
    assert "pass" in state["legal"] and not state["leading"]
    assert "or pass" in state["hint"] and "beat 44" in state["hint"]
    state = ok(site, f"/api/games/{state['id']}/act", {"action": "9999"})
    # a bomb nobody beats: seat 0 leads next
    assert state["legal"] and "pass" not in state["legal"] and state["leading"]
    assert "You lead" in state["hint"] and "pass" not in state["hint"]


def test_one_card_notation_the_ten_is_t(site: str) -> None:
    """The table's faces write the 10 as the moves and the log do: ``T``."""
    # Seed 4: seat 0 holds a T.
    state = ok(site, "/api/games", {"game": "classic", "seat": 0, "seed": 4})
    faces = re.findall(r'<g class="card" data-card="T"[^>]*>(.*?)</g>', state["svg"])
    assert faces
    for face in faces:
        assert re.findall(r">([^<]+)</text>", face) == ["T", "T"]
    assert ">10<" not in state["svg"]
    nine = re.search(r'<g class="card" data-card="9"[^>]*>(.*?)</g>', state["svg"])
    assert nine and faces[0] == nine.group(1).replace(">9</text>", ">T</text>")
    game = ddz.Game(seed=4)
    while not game.is_over:
        game.step(game.legal_actions()[-1])
    replay = ok(site, "/api/replays", {"record": game.to_json(), "ply": 0})
    assert 'data-card="T"' in replay["svg"] and ">10<" not in replay["svg"]


def test_a_replay_opens_where_asked(site: str) -> None:
    """The page asks for the deal (ply 0); without ``ply`` a replay opens at the end."""
    game = ddz.Game(seed=9)
    while not game.is_over:
        game.step(game.legal_actions()[0])
    plies = len(game.history)
    assert ok(site, "/api/replays", {"record": game.to_json()})["ply"] == plies
    state = ok(site, "/api/replays", {"record": game.to_json(), "ply": 0})
    assert state["ply"] == 0 and state["text"] == str(ddz.Game(seed=9))
    assert ok(site, "/api/replays", {"record": game.to_json(), "ply": 3})["ply"] == 3
    assert "ply is 0.." in refused(site, "/api/replays", {"record": game.to_json(), "ply": -1})
    assert "whole number" in refused(site, "/api/replays", {"record": game.to_json(), "ply": "0"})
