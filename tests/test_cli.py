"""The command line, run as a user runs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ddz.cli.main import PRESETS, main, play


def test_moves_lists_leads_by_type(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "33344456"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("33344456 (8 cards), classic rules: ")
    assert "airplane_singles  333444+56" in out


def test_moves_answers_with_other_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "3SV", "--last", "2", "--rules", "uno-landlord"]) == 0
    out = capsys.readouterr().out
    assert "3 answers to 2" in out
    assert [line.split() for line in out.splitlines()[1:]] == [
        ["pass", "pass"],
        ["skip", "S"],
        ["reverse", "V"],
    ]


def test_classify_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", "33334455"]) == 0
    assert "3333+4455  four_two_pairs, rank 3, length 1" in capsys.readouterr().out
    assert main(["classify", "3456"]) == 1
    assert main(["moves", "33Z"]) == 2
    assert "unknown card 'Z'" in capsys.readouterr().err


def test_python_dash_m_runs_bench() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ddz", "bench", "--positions", "50", "--repeats", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "leads as Move objects" in result.stdout and "hands/s" in result.stdout


def run_ddz(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ddz", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_bench_times_random_games() -> None:
    result = run_ddz("bench", "--positions", "20", "--repeats", "1", "--games", "20")
    assert result.returncode == 0, result.stderr
    assert "20 random games, legal_actions() + push() (void deals too)" in result.stdout
    line = next(line for line in result.stdout.splitlines() if "games/s" in line)
    assert line.split()[:2] == ["random", "games"] and "actions/s" in line


def test_simulate_prints_a_summary_and_is_deterministic() -> None:
    args = ("simulate", "--games", "30", "--agents", "random,greedy", "--seed", "5")
    first, second = run_ddz(*args), run_ddz(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    assert lines[0].startswith("classic rules, seed 5: 5 deals x 6 seatings = 30 games")
    assert lines[1].split()[:6] == ["agent", "games", "WP", "±95%", "ADP", "±95%"]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == {"random", "greedy"} and len(lines) == 4
    assert rows["random"][1] == rows["greedy"][1] == "45"
    assert float(rows["greedy"][4]) == -float(rows["random"][4])  # ADP: zero-sum
    # Progress goes to stderr: not a terminal here, so whole lines.
    assert "simulate: 5/5 deals (100%)" in first.stderr
    assert "30 games in" in first.stderr
    other = run_ddz("simulate", "--games", "30", "--seed", "6", "--quiet")
    assert other.stdout != first.stdout and other.stderr == ""


def test_simulate_rounds_up_to_whole_deals_and_checks_agents(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the python engine redeals void deals, so every deal counts all its games
    python = ["--engine", "python", "--quiet"]
    assert main(["simulate", "--games", "4", "--agents", "greedy,random,random", *python]) == 0
    assert "2 deals x 3 seatings = 6 games" in capsys.readouterr().out
    assert main(["simulate", "--games", "4", "--agents", "greedy,clever"]) == 2
    assert "no agent 'clever'; the agents are: random, greedy" in capsys.readouterr().err
    assert main(["simulate", "--agents", "random,random,random,random"]) == 2
    assert "3 seats take 1 to 3 agents, not 4" in capsys.readouterr().err
    assert main(["simulate", "--games", "4", "--rules", "two-player", *python]) == 0
    assert "two-player rules, seed 0: 2 deals x 2 seatings = 4 games" in capsys.readouterr().out
    assert main(["simulate", "--games", "4", "--rules", "two-player", "--quiet"]) == 0
    out = capsys.readouterr().out  # the core engine leaves void games out instead
    assert "two-player rules, seed 0: 2 deals x 2 seatings = " in out


def test_play_answers_bad_input_lists_moves_and_quits() -> None:
    result = run_ddz("play", "--seed", "4", stdin="zzz\nhint\n?\n333\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("ddz: you are seat 0, against seat 1 (greedy) and seat 2 (greedy).")
    assert "Seed 4: 'python -m ddz play --seed 4' deals this game again." in out
    assert "Your hand: 33 44 5 6 7 88 9999 T JJ D" in out
    assert "Not legal: unknown card 'z' at position 0 in 'zzz'." in out
    assert out.count("legal (5): pass  88  99  JJ  9999\n") == 2  # hint and ?
    assert "Not legal: 333 plays cards the hand does not hold." in out
    assert out.rstrip().endswith("Bye.")
    assert result.stderr == ""


def test_play_ends_cleanly_at_the_end_of_input() -> None:
    result = run_ddz("play", "--seed", "4", "--seat", "2", "--agents", "random,greedy")
    assert result.returncode == 0, result.stderr
    assert "against seat 0 (random) and seat 1 (greedy)" in result.stdout
    assert result.stdout.rstrip().endswith("Bye.")
    bad = run_ddz("play", "--seat", "3")
    assert bad.returncode == 2 and "--seat: must be 0..2, not 3" in bad.stderr


class HintFollower:
    """A scripted person: asks for a hint, then plays the last legal action listed."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.prompts = 0
        self.hinted = False

    def write(self, text: str) -> None:
        self.lines.extend(text.splitlines() or [""])

    def read(self, prompt: str) -> str:
        self.prompts += 1
        if not self.hinted:
            self.hinted = True
            return "?"
        self.hinted = False
        start = max(i for i, line in enumerate(self.lines) if line.startswith("legal ("))
        text = " ".join(self.lines[start:]).split(":", 1)[1]
        return [item.strip() for item in text.split("  ") if item.strip()][-1]


@pytest.mark.parametrize("rules", ["classic", "two-player", "uno-landlord"])
def test_play_a_whole_game(rules: str) -> None:
    person = HintFollower()
    assert play(seat=1, seed=11, rules=PRESETS[rules], read=person.read, write=person.write) == 0
    text = "\n".join(person.lines)
    assert person.prompts >= 4
    assert "Not legal" not in text
    assert "the landlord and take" in text
    assert person.lines[-3].startswith("Score ")
    assert person.lines[-2].startswith("Payoffs: ")
    assert person.lines[-1] in ("You win!", "You lose.")


def test_uno_is_routed_to_its_own_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["uno", "simulate", "--players", "3", "--games", "20", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.strip()
    assert main(["uno", "simulate", "--players", "3", "--games", "20", "--seed", "1"]) == 0
    assert capsys.readouterr().out == out  # the same seed, the same summary


def test_simulate_engines(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "60", "--agents", "random,greedy", "--seed", "2", "--quiet"]
    assert main([*args, "--engine", "core", "--threads", "2"]) == 0
    core = capsys.readouterr().out
    assert main([*args, "--engine", "core", "--threads", "1"]) == 0
    assert capsys.readouterr().out == core  # the same summary whatever the threads
    assert main([*args, "--engine", "python"]) == 0
    python = capsys.readouterr().out
    assert core.splitlines()[1] == python.splitlines()[1]  # the same table
    assert "void" not in core or "left out" in core


@pytest.mark.parametrize(
    ("games", "agents", "rules"),
    [("600", "random,greedy", "classic"), ("300", "greedy,random,random", "classic"),
     ("100", "random,greedy", "two-player")],
)  # fmt: skip
def test_simulate_games_means_the_same_on_both_engines(
    games: str, agents: str, rules: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--games N plays N games to a result (whole deals) whichever engine plays them: the
    heading and every agent's games column agree between the engines, void deals or not."""
    args = ["simulate", "--games", games, "--agents", agents, "--rules", rules, "--quiet"]
    printed = {}
    for engine in ("core", "python"):
        assert main([*args, "--engine", engine]) == 0
        printed[engine] = capsys.readouterr().out.splitlines()
    core, python = printed["core"], printed["python"]
    assert "void game left out and replaced" in core[0]  # these seeds have void deals
    assert "void deals redealt" in python[0]
    heading = core[0].split(" (")[0].split(";")[0]
    assert heading.endswith(f"= {games} games")
    assert python[0].startswith(heading)
    players = 2 if rules == "two-player" else 3
    assert core[0].endswith(f"; the games column counts seats, {players} a game")
    columns = [{row.split()[0]: row.split()[1] for row in out[2:]} for out in (core, python)]
    assert columns[0] == columns[1]
    assert sum(map(int, columns[0].values())) == players * int(games)
