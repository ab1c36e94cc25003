"""Duplicate matches (ddz.play.duplicate): the seatings, and the statistics against a small
case computed by hand, game by game, with the standard library's statistics."""

from __future__ import annotations

import math
import random
import statistics

import pytest

import ddz
from ddz.doudizhu.actions import Action
from ddz.doudizhu.observation import Observation
from ddz.play.agents import GreedyAgent, choose
from ddz.play.duplicate import duplicate_seatings, run_duplicate


class FirstAgent:
    """The first legal action: deterministic, and weaker than greedy."""

    def act(self, observation: Observation) -> Action:
        return observation.legal_actions[0]


REGISTRY = {"greedy": lambda seed: GreedyAgent(), "first": lambda seed: FirstAgent()}


def test_seatings_put_each_side_where_the_landlord_sits() -> None:
    for landlord in range(3):
        games = duplicate_seatings("a", "b", landlord)
        down, up = (landlord + 1) % 3, (landlord + 2) % 3
        assert [side for side, _ in games] == ["landlord", "farmers", "mixed", "mixed"]
        (_, ll), (_, farmers), (_, mixed_down), (_, mixed_up) = games
        assert ll[landlord] == "a" and ll[down] == ll[up] == "b"
        assert farmers[landlord] == "b" and farmers[down] == farmers[up] == "a"
        assert mixed_down[landlord] == "b" and (mixed_down[down], mixed_down[up]) == ("a", "b")
        assert mixed_up[landlord] == "b" and (mixed_up[down], mixed_up[up]) == ("b", "a")
        assert len(duplicate_seatings("a", "b", landlord, mixed=False)) == 2


def half_width(values: list[float]) -> float:
    return 1.959963984540054 * statistics.stdev(values) / math.sqrt(len(values))


def play(deal: int, by_seat: list[object]) -> ddz.Game:
    game = ddz.Game(ddz.RLCARD, seed=deal)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.step(choose(by_seat[seat], game))  # type: ignore[arg-type]
    return game


def test_duplicate_statistics_match_a_hand_computed_case() -> None:
    deals, seed = 6, 11
    result = run_duplicate(
        ["greedy"], "first", deals=deals, seed=seed, rules=ddz.RLCARD, registry=REGISTRY
    )
    rng = random.Random(seed)  # the deals' seeds, as the arena draws them
    wins: dict[str, list[float]] = {"landlord": [], "farmers": [], "mixed": [], "overall": []}
    points: dict[str, list[float]] = {key: [] for key in wins}
    greedy, first = GreedyAgent(), FirstAgent()
    for _ in range(deals):
        deal = rng.getrandbits(63)
        landlord = ddz.Game(ddz.RLCARD, seed=deal).landlord
        assert landlord is not None
        down, up = (landlord + 1) % 3, (landlord + 2) % 3

        def seats(at_landlord: object, at_down: object, at_up: object) -> list[object]:
            by_seat: list[object] = [None] * 3
            by_seat[landlord], by_seat[down], by_seat[up] = at_landlord, at_down, at_up  # noqa: B023
            return by_seat

        ll = play(deal, seats(greedy, first, first))
        fa = play(deal, seats(first, greedy, greedy))
        m1 = play(deal, seats(first, greedy, first))
        m2 = play(deal, seats(first, first, greedy))
        ll_won, ll_points = float(ll.winner == landlord), ll.payoffs()[landlord]
        fa_won = float(fa.winner != landlord)
        fa_points = fa.payoffs()[down] + fa.payoffs()[up]
        wins["landlord"].append(ll_won)
        points["landlord"].append(ll_points)
        wins["farmers"].append(fa_won)
        points["farmers"].append(fa_points)
        wins["mixed"].append(((m1.winner != landlord) + (m2.winner != landlord)) / 2)
        points["mixed"].append((-m1.payoffs()[landlord] - m2.payoffs()[landlord]) / 2)
        wins["overall"].append((ll_won + fa_won) / 2)
        points["overall"].append((ll_points + fa_points) / 2)
    stats = result["greedy"]
    games = {"landlord": deals, "farmers": deals, "mixed": 2 * deals, "overall": 2 * deals}
    for side in wins:
        got = getattr(stats, side)
        assert got.games == games[side], side
        assert got.wp == pytest.approx(100 * statistics.mean(wins[side])), side
        assert got.adp == pytest.approx(statistics.mean(points[side])), side
        assert got.wp_ci == pytest.approx(100 * half_width(wins[side])), side
        assert got.adp_ci == pytest.approx(half_width(points[side])), side
    assert stats.overall.wp > 50  # greedy beats the first-legal-action agent
    assert result == run_duplicate(
        ["greedy"], "first", deals=deals, seed=seed, rules=ddz.RLCARD, registry=REGISTRY
    )


def test_an_agent_against_itself_scores_even() -> None:
    result = run_duplicate(["greedy"], "greedy", deals=5, seed=3, rules=ddz.DOUZERO)
    overall = result["greedy"].overall
    assert overall.wp == 50 and overall.adp == 0
    assert result["greedy"].landlord.wp + result["greedy"].farmers.wp == 100


def test_duplicate_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="landlord known"):
        run_duplicate(["greedy"], "random", deals=1, rules=ddz.CLASSIC)
    with pytest.raises(ValueError, match="no agent"):
        run_duplicate(["clever"], "random", deals=1)
    with pytest.raises(ValueError, match="at least one"):
        run_duplicate([], "random", deals=1)
    with pytest.raises(ValueError, match="0 or more"):
        run_duplicate(["greedy"], "random", deals=-1)
    table = str(run_duplicate(["greedy", "random"], "greedy", deals=1, mixed=False))
    assert "mixed" not in table and len(table.splitlines()) == 4


def test_the_arena_command_refuses_what_it_cannot_play(capsys: pytest.CaptureFixture[str]) -> None:
    from ddz.cli.main import main

    assert main(["arena", "clever", "--deals", "1"]) == 2
    assert "no agent 'clever'" in capsys.readouterr().err
    assert main(["arena", "greedy", "--against", "rlcard-rule", "--rules", "douzero"]) == 2
    assert "--rules rlcard" in capsys.readouterr().err
    assert main(["arena", "greedy", "--against", "random", "--deals", "2", "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("agent ")
