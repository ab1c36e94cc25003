"""The public entry points added after issue 9's hardening, attacked as an attacker and a
careless user would: the solver, positions and their text, observations and
``sample_worlds``, the web server's request handling and the CLI's record files.

Each test holds a finding of that audit (docs/safety.md, "Issue 9's findings"): before the
fix it failed, crashed, hung or was silently wrong.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

import ddz
from ddz import Game, Observation, Position, RecordError
from ddz.web import server as web_server
from ddz.web.sessions import Store

SMALL = Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)

# --- the solver -------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [True, np.bool_(True), "1", [1], object(), b"1"])
def test_solver_time_limit_is_a_number_of_seconds(value: object) -> None:
    # True was taken as one second, text and lists were ValueError
    with pytest.raises(TypeError, match="time_limit"):
        ddz.solve(SMALL, time_limit=value)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="time_limit"):
        ddz.analyse(SMALL, time_limit=value)  # type: ignore[arg-type]


def test_solver_time_limit_takes_numpy_reals_and_refuses_non_positive() -> None:
    assert ddz.solve(SMALL, time_limit=np.float32(5.0)).value == 1
    assert ddz.solve(SMALL, time_limit=np.int64(5)).value == 1
    for value in (0, -1.0, float("nan"), np.float64(-2)):
        with pytest.raises(ValueError, match="positive"):
            ddz.solve(SMALL, time_limit=value)


@pytest.mark.parametrize("value", ["no", "false", 1, 0, None, 2.0, []])
def test_solver_switches_are_bools(value: object) -> None:
    # score="no" switched score mode on, line=0 switched the line off, without a word
    with pytest.raises(TypeError, match="score is True or False"):
        ddz.solve(SMALL, score=value)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="line is True or False"):
        ddz.solve(SMALL, line=value)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="score is True or False"):
        ddz.analyse(SMALL, score=value)  # type: ignore[arg-type]
    solver = ddz.Solver(ddz.ENDGAME)
    with pytest.raises(TypeError):
        solver.solve(SMALL, score=value)  # type: ignore[arg-type]
    assert solver.solve(SMALL, score=np.bool_(True), line=np.bool_(False)).score == 2


def test_searches_past_the_first_slice_give_the_same_verdicts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A search longer than a slice of nodes moves to a helper thread (where Ctrl-C can stop
    # it): with a slice of 16 nodes every solve below takes that path, and must give the
    # verdicts, scores and node-limit stops of one search on the calling thread.
    rng = np.random.default_rng(8)
    games = []
    for seed in range(12):
        game = Game(ddz.ENDGAME, seed=seed)
        while game.phase == "bidding":
            game.step(game.legal_actions()[-1])
        while sum(len(hand) for hand in game.hands) > 14 and not game.is_over:
            legal = game.legal_actions()
            game.step(legal[int(rng.integers(len(legal)))])
        if not game.is_over:
            games.append(game)
    expected = [(ddz.solve(g).value, ddz.solve(g, score=True).score) for g in games]
    monkeypatch.setattr(ddz.doudizhu.solver, "_SLICE_NODES", 16)
    found = [(ddz.solve(g).value, ddz.solve(g, score=True).score) for g in games]
    assert found == expected and len(games) >= 6
    for game in games:
        values = [m.value for m in ddz.analyse(game)]
        assert any(v == 1 for v in values) == (ddz.solve(game).value == 1)
    whole = Game(seed=3)  # a whole three-seat deal: far more nodes than any limit below
    while whole.phase == "bidding":  # (a two-seat 17 v 17 deal is solved within 0.2 s now)
        whole.step(whole.legal_actions()[-1])
    stopped = ddz.solve(whole, node_limit=5000)
    assert stopped.value is None and stopped.move is None and 5000 <= stopped.nodes < 6000
    timed = ddz.solve(whole, time_limit=0.2)
    assert timed.value is None and timed.seconds < 10


_SOLVE_FOR_EVER = textwrap.dedent(
    """
    import signal, sys
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal
    import ddz
    # a whole deal still open after 400,000,000 nodes (benchmarks/positions/deal-three.txt,
    # deal 3); a dealt game will not do: many whole deals settle within a second
    game = ddz.Position.parse(
        "445567789TJQQKAAAA2X/346678899TJJQQKK2/3334556789TTJK22D landlord=0 turn=0"
        " kitty=47A rules=classic"
    ).game()
    solver = ddz.Solver(game.rules, threads=int(sys.argv[1]))
    print("solving", flush=True)
    try:
        solver.solve(game)  # no limits: hours
    except KeyboardInterrupt:
        small = ddz.Game.from_position(
            ddz.CLASSIC, ["3KK", "44A", "5"], landlord=0, to_act=0
        )
        print("interrupted; the solver still works:", solver.solve(small).value, flush=True)
    """
)


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_solve(threads: int) -> None:
    # The search ran in C without the GIL on the calling thread, where SIGINT could not
    # reach it: a solve without limits went on for 30 s and more after Ctrl-C (measured;
    # killed then). Now the calling thread waits where the signal arrives and stops the search.
    process = subprocess.Popen(
        [sys.executable, "-c", _SOLVE_FOR_EVER, str(threads)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "solving"
        time.sleep(1.0)  # well inside the search
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err[-2000:]
    assert "interrupted; the solver still works: 1" in out


# --- positions --------------------------------------------------------------------------------


def test_positions_take_numpy_integers_wherever_an_int_goes() -> None:
    # landlord, to_act, table_player, bid, bombs, grabs, direction and the move counts
    # refused numpy integers (a seat read from an array) with TypeError
    i = np.int64
    text = "345/67/TT landlord=1 turn=0 table=9@2 played=-/8/9 bid=2 bombs=1 moves=1,2"
    expected = Position.parse(text, rules=ddz.CLASSIC)
    made = Position(
        expected.rules,
        ["345", "67", "TT"],
        landlord=i(1),  # type: ignore[arg-type]
        to_act=np.int8(0),  # type: ignore[arg-type]
        table="9",
        table_player=np.uint16(2),  # type: ignore[arg-type]
        played=["", "8", "9"],
        bid=i(2),  # type: ignore[arg-type]
        bombs=np.uint8(1),  # type: ignore[arg-type]
        grabs=i(0),  # type: ignore[arg-type]
        direction=i(1),  # type: ignore[arg-type]
        landlord_moves=i(1),  # type: ignore[arg-type]
        farmer_moves=np.int32(2),  # type: ignore[arg-type]
    )
    assert made == expected
    assert all(type(getattr(made, name)) is int for name in ("landlord", "to_act", "bid"))
    game = Game.from_position(ddz.ENDGAME, ["33", "4"], landlord=i(0), to_act=i(0))  # type: ignore[arg-type]
    assert game.position() == Position.parse("33/4 landlord=0")


@pytest.mark.parametrize("direction", [1.0, -1.0, True, np.bool_(True), np.float64(1.0)])
def test_direction_is_an_int(direction: object) -> None:
    # 1.0, -1.0, True and numpy's True were taken as directions
    with pytest.raises(TypeError, match="direction"):
        Game.from_position(
            ddz.UNO_LANDLORD,
            ["33", "4", "5"],
            landlord=0,
            to_act=0,
            direction=direction,  # type: ignore[arg-type]
        )


def test_position_text_is_bounded_and_numbers_are_plain_digits() -> None:
    # 10 million characters of padding were read in full; "1_0", "+0" and other scripts'
    # digits were read by int()
    for text in ("33/4 landlord=0" + " " * 10_000_000, "33/4 landlord=0 bid=" + "1" * 5000):
        with pytest.raises(ValueError, match="characters, more than the 1000 read") as caught:
            Position.parse(text)
        assert len(str(caught.value)) < 120
    for text in ("33/4 landlord=0 bombs=1_0", "33/4 landlord=+0", "33/4 landlord=\u0663"):
        with pytest.raises(ValueError, match="is not a number"):
            Position.parse(text)
    with pytest.raises(TypeError):
        Position.parse(b"33/4 landlord=0")  # type: ignore[arg-type]


# --- observations and sample_worlds -----------------------------------------------------------


def _observation_dict() -> tuple[Game, dict[str, object]]:
    game = Game(seed=1)
    while game.phase == "bidding":
        game.step(game.legal_actions()[-1])
    return game, game.observation(1).to_dict()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("played", ["3", "4"]),  # encode and sample_worlds: IndexError
        ("played", ["3", "4", "5", "6"]),
        ("bid", 7),  # encode: IndexError
        ("bid", -1),
        ("multiplier", 2**300),  # encode: OverflowError
        ("multiplier", -5),
        ("direction", 5),
        ("card_counts", [200, 17, 17]),  # encode: OverflowError
        ("card_counts", [10**20, 17, 17]),
        ("grabs", -3),
        ("history", [{"ply": 1, "player": 9, "phase": "bidding", "action": "bid 1"}]),
        ("history", [{"ply": -1, "player": 0, "phase": "bidding", "action": "bid 1"}]),
        ("hand", "XD"),  # two cards where the count says 17: worlds sampled all the same
        ("table_player", 2),  # a table maker without a table
    ],
)
def test_observations_that_no_game_gives_are_refused(field: str, value: object) -> None:
    _, data = _observation_dict()
    data[field] = value
    with pytest.raises(RecordError) as caught:
        Observation.from_dict(data)
    assert caught.value.field == field
    with pytest.raises(RecordError):
        Observation.from_json(json.dumps(data))


def test_sample_worlds_checks_a_hand_made_observation() -> None:
    import dataclasses

    game, _ = _observation_dict()
    seen = game.observation(1)
    for change in (
        {"played": seen.played[:2]},
        {"player": 5},
        {"landlord": 3},
        {"bid": 9},
        {"hand": ddz.Cards("XD")},
    ):
        bad = dataclasses.replace(seen, **change)  # type: ignore[arg-type]
        assert bad.fault() is not None
        with pytest.raises(ValueError, match="no game's"):
            ddz.sample_worlds(bad, None, 2, seed=1, rules=game.rules)
    assert seen.fault() is None
    assert len(ddz.sample_worlds(seen, None, 2, seed=1, rules=game.rules)) == 2


def test_every_observation_of_real_games_is_well_formed() -> None:
    rng = np.random.default_rng(3)
    for seed, rules in enumerate([ddz.CLASSIC, ddz.TWO_PLAYER, ddz.UNO_LANDLORD, ddz.DOUZERO] * 3):
        game = Game(rules, seed=seed)
        while True:
            for seat in range(rules.players):
                seen = game.observation(seat)
                assert seen.fault() is None
                assert Observation.from_dict(seen.to_dict()) == seen
            if game.is_over:
                break
            legal = game.legal_actions()
            game.step(legal[int(rng.integers(len(legal)))])


# --- the web server ---------------------------------------------------------------------------


@pytest.fixture
def server() -> Iterator[tuple[str, int]]:
    httpd = web_server.make_server(port=0)
    httpd.RequestHandlerClass.timeout = 1  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield "127.0.0.1", httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def _post(address: tuple[str, int], path: str, body: bytes, **headers: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection(*address, timeout=30)
    try:
        connection.request(
            "POST", path, body=body, headers={"Content-Type": "application/json", **headers}
        )
        response = connection.getresponse()
        return response.status, json.loads(response.read())["error"]
    finally:
        connection.close()


def test_web_requests_that_answered_500_or_hung(
    server: tuple[str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    # a JSON number of 5,000 digits: Python's int limit raised ValueError -> 500
    status, error = _post(
        server, "/api/games", b'{"game": "classic", "seed": ' + b"1" * 5000 + b"}"
    )
    assert (status, error) == (400, "the request body is not JSON")
    # Content-Length "1_0": int() read 10 and the handler waited for bytes never sent
    status, error = _post(server, "/api/games", b"{}", **{"Content-Length": "1_0"})
    assert (status, error) == (400, "Content-Length is not a number")
    # a body promised and not sent: the handler's thread waited for ever; now 408
    with socket.create_connection(server, timeout=30) as raw:
        host = f"{server[0]}:{server[1]}".encode()
        raw.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: " + host + b"\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        answer = raw.recv(200)
    assert answer.startswith(b"HTTP/1.0 408")
    assert "Traceback" not in capsys.readouterr().err


def test_a_replays_null_ply_is_its_end() -> None:
    # {"ply": null} raised TypeError inside the store (an internal error)
    store = Store()
    game = Game(seed=2)
    game.step("pass")
    replay = store.replay({"record": game.to_json()})
    assert store.state(replay["id"], {"ply": None}) == store.state(replay["id"])


# --- the command line -------------------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_perft_reads_a_bounded_record() -> None:
    # perft --record /dev/zero read for ever (killed after 60 s)
    done = subprocess.run(
        [sys.executable, "-m", "ddz", "perft", "--record", "/dev/zero", "--depth", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (1, 2)
    assert done.stderr.strip().count("\n") == 0 and "longer than a record may be" in done.stderr
