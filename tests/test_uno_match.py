"""UNO matches (golf scoring over rounds), agents, simulations and the command line."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from ddz import IllegalMoveError, uno
from ddz.cli.uno import main
from ddz.uno import LOMBARDY, STANDARD


def play_randomly(match: uno.Match, rng: random.Random) -> None:
    """Random actions, mostly plays, until the match is over (through the unchecked path)."""
    while not match.is_over:
        codes = match.game.legal_codes()
        plays = [code for code in codes if code & 7 not in (1, 2)]
        match.push_code(rng.choice(plays if plays and rng.random() < 0.9 else codes))


@pytest.mark.parametrize("rules", [LOMBARDY, STANDARD], ids=["lombardy", "standard"])
def test_match_invariants(rules: uno.Rules) -> None:
    rng = random.Random(3)
    for seed in range(200):
        players = 2 + seed % 5
        match = uno.Match(players, seed=seed, rules=rules)
        play_randomly(match, rng)
        totals = [0] * players
        for number, result in enumerate(match.results, start=1):
            assert max(totals) < rules.target_score  # play went on only below the target
            assert result.round == number and result.dealer == match.dealer_of(number)
            assert all(points >= 0 for points in result.points)  # totals only grow
            if result.winner is not None:
                assert result.points[result.winner] == 0
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
        assert tuple(totals) == match.scores
        assert max(match.scores) >= rules.target_score
        low = min(match.scores)
        assert match.winners == tuple(s for s in range(players) if match.scores[s] == low)
        assert match.winner == (match.winners[0] if len(match.winners) == 1 else None)
        if seed % 20 == 0:
            again = uno.Match.from_json(match.to_json())
            assert again.scores == match.scores and again.results == match.results


def test_the_deal_rotates_and_seat_after_the_dealer_starts() -> None:
    match = uno.Match(3, seed=8)
    seen = []
    rng = random.Random(1)
    while len(match.results) < 3 and not match.is_over:
        seen.append(match.game.dealer)
        number = match.round
        while match.round == number and not match.is_over:
            match.push_code(rng.choice(match.game.legal_codes()))
    assert seen[:3] == [2, 0, 1][: len(seen)]


def test_a_match_mid_round_round_trips() -> None:
    match = uno.Match(4, seed=2)
    rng = random.Random(2)
    for _ in range(300):
        match.step(rng.choice(match.legal_actions()))
    again = uno.Match.from_json(match.to_json())
    assert again.round == match.round and again.scores == match.scores
    assert again.game.state_bytes() == match.game.state_bytes()
    with pytest.raises(ValueError, match="not a ddz UNO match record"):
        uno.Match.from_json(json.dumps({"format": "ddz-uno-game/1"}))


def test_a_finished_match_refuses_actions() -> None:
    match = uno.Match(2, seed=1, rules=LOMBARDY.replace(target_score=1))
    play_randomly(match, random.Random(1))
    assert match.is_over and match.round == len(match.results) == 1
    assert match.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="the match is over"):
        match.step("draw")


# --- agents --------------------------------------------------------------------------------


def observe(hands: list[str], draw: str, actions: list[str] | None = None) -> uno.Game:
    game = uno.Game(len(hands), seed=1, deal=uno.Deal(hands, draw))
    for action in actions or []:
        game.step(action)
    return game


def greedy(game: uno.Game, player: int) -> str | None:
    choice = uno.GreedyAgent().act(game.observation(player), game.legal_actions(player))
    return None if choice is None else str(choice)


def test_greedy_sheds_its_highest_card_and_picks_its_best_colour() -> None:
    game = observe(["R1 W B7 B8", "G1 G2", "Y1 Y2"], "R5")
    assert greedy(game, 0) == "0: play W blue"
    game = observe(["R1 R9 RS B7 B8", "G1 G2", "Y1 Y2"], "R5")
    assert greedy(game, 0) == "0: play RS"


def test_greedy_stacks_calls_catches_and_jumps_in() -> None:
    stack = observe(["R+2 R1 R2", "G+2 G9 G8", "Y1 Y2"], "R5", ["play R+2"])
    assert greedy(stack, 1) == "1: play G+2"
    caught = observe(["R1 R2", "B2 B3", "G2 G3"], "R5", ["play R1"])
    assert greedy(caught, 0) == "0: uno"
    assert greedy(caught, 2) == "2: catch 0"
    jump = observe(["R7 R1 R2", "B2 B3", "R7 G2 G3"], "R5", ["play R7"])
    assert greedy(jump, 2) == "2: play R7"
    assert greedy(observe(["R1 R2", "B2 B3", "G2 G3"], "R5"), 2) is None


def test_play_round_and_a_lazy_agent() -> None:
    game = uno.play_round(uno.Game(4, seed=6), [uno.GreedyAgent()] * 4)
    assert game.is_over

    class Lazy:
        name = "lazy"

        def act(self, observation: uno.Observation, actions: object) -> None:
            return None

    with pytest.raises(ValueError, match="did nothing on its turn"):
        uno.play_round(uno.Game(2, seed=6), [Lazy(), Lazy()])


def test_simulate_greedy_beats_random() -> None:
    stats = uno.simulate(2, 20, seed=4, agents=["greedy", "random"])
    assert [s.agent for s in stats] == ["greedy", "random"]
    assert sum(s.matches_won for s in stats) == 20
    assert stats[0].matches_won > stats[1].matches_won
    assert stats[0].mean_score < stats[1].mean_score
    assert uno.simulate(2, 3, seed=4, agents=["greedy", "random"]) == uno.simulate(
        2, 3, seed=4, agents=["greedy", "random"]
    )


# --- the command line ----------------------------------------------------------------------


def test_cli_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "3", "--games", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "2 matches" in out and "greedy" in out and "random" in out
    assert main(["simulate", "--players", "2", "--games", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["matches"] == 1
    with pytest.raises(SystemExit) as exited:  # argparse: one line on stderr
        main(["simulate", "--players", "11", "--games", "1"])
    assert exited.value.code == 2


def feed(lines: list[str]) -> Iterator[str]:
    yield from lines


def test_cli_play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = feed(["", "nonsense", "play X1", *["1"] * 40, "quit"])

    def fake_input(prompt: str = "") -> str:
        return next(answers)

    monkeypatch.setattr("builtins.input", fake_input)
    assert main(["play", "--players", "2", "--seed", "3", "--rules", "lombardy"]) == 0
    out = capsys.readouterr().out
    assert "you are player 0" in out and "bye" in out
    assert "(you are player 0)\ntop " in out and "\n  seat  cards  hand\n" in out  # the table
