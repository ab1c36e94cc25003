"""The arena: seatings, determinism, the metrics and their confidence intervals."""

from __future__ import annotations

import math

import pytest

import ddz
from ddz import Game
from ddz.agents import AGENTS, AgentFactory, AnyAgent, RandomAgent
from ddz.arena import MAX_REDEALS, ArenaResult, play_game, run_arena, seatings
from ddz.game import Action


def test_seatings_put_every_agent_in_every_seat() -> None:
    assert seatings(["a", "b", "c"]) == [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")]
    two = seatings(["a", "b"])
    assert len(two) == 6 == len(set(two))
    for seat in range(3):
        assert sorted(seating[seat] for seating in two) == ["a", "a", "a", "b", "b", "b"]
    assert sorted(seating.count("a") for seating in two) == [1, 1, 1, 2, 2, 2]
    assert seatings(["a", "a", "b"]) == [("a", "a", "b"), ("b", "a", "a"), ("a", "b", "a")]
    assert seatings(["x", "x", "x"]) == [("x", "x", "x")]
    assert seatings(["a", "b"], players=2) == [("a", "b"), ("b", "a")]
    with pytest.raises(ValueError, match="3 seats take 1 to 3 agents, not 4"):
        seatings(["a", "b", "c", "d"])
    with pytest.raises(ValueError, match="2 seats take 1 to 2 agents, not 3"):
        seatings(["a", "b", "c"], players=2)


def test_greedy_beats_random_clearly() -> None:
    result = run_arena(["random", "greedy"], deals=60, seed=7)
    assert result.games == 360
    greedy, random_ = result["greedy"], result["random"]
    assert greedy.games == random_.games == 540  # 9 seats a deal each
    assert greedy.wp > 60 > 40 > random_.wp
    assert greedy.wp - greedy.wp_ci > 55  # the whole interval
    assert greedy.adp - greedy.adp_ci > 0
    assert greedy.landlord_wp > random_.landlord_wp
    assert greedy.farmer_wp > random_.farmer_wp


def test_the_same_seed_gives_the_same_result() -> None:
    first = run_arena(["greedy", "random", "random"], deals=20, seed=3)
    assert first == run_arena(["greedy", "random", "random"], deals=20, seed=3)
    assert first.table() == run_arena(["greedy", "random", "random"], deals=20, seed=3).table()
    assert first != run_arena(["greedy", "random", "random"], deals=20, seed=4)
    # Unchecked stepping plays the very same games.
    assert first == run_arena(["greedy", "random", "random"], deals=20, seed=3, checked=False)


def test_counts_add_up_and_points_are_zero_sum() -> None:
    result = run_arena(["greedy", "random", "random"], deals=25, seed=11)
    assert result.seatings == (
        ("greedy", "random", "random"),
        ("random", "greedy", "random"),
        ("random", "random", "greedy"),
    )
    assert result.games == 75
    greedy, random_ = result.stats
    assert (greedy.games, random_.games) == (75, 150)
    assert greedy.landlord_games + random_.landlord_games == result.games  # one landlord a game
    assert greedy.points + random_.points == 0
    assert greedy.wp == pytest.approx(100 * greedy.wins / greedy.games)
    assert greedy.adp == pytest.approx(greedy.points / greedy.games)
    # Self-play: zero-sum points, and a WP of (2 - L) / 3 for the landlord win rate L.
    alone = run_arena(["greedy"], deals=40, seed=2)["greedy"]
    assert alone.adp == 0 and alone.landlord_games == 40
    assert alone.wp == pytest.approx(100 * (2 - alone.landlord_wp / 100) / 3)


def test_two_player_arena() -> None:
    result = run_arena(["greedy", "random"], deals=30, seed=1, rules=ddz.TWO_PLAYER)
    assert result.seatings == (("greedy", "random"), ("random", "greedy"))
    greedy, random_ = result.stats
    assert greedy.games == random_.games == 60
    assert greedy.wp + random_.wp == pytest.approx(100)  # one winner a game
    assert greedy.wp > 75
    assert result.table().startswith("two-player rules, seed 1: 30 deals x 2 seatings = 60 games")


def test_confidence_intervals_shrink_with_more_deals() -> None:
    small = run_arena(["greedy", "random"], deals=10, seed=5)["greedy"]
    large = run_arena(["greedy", "random"], deals=80, seed=5)["greedy"]
    assert 0 < large.wp_ci < small.wp_ci
    assert 0 < large.adp_ci < small.adp_ci
    one = run_arena(["greedy", "random"], deals=1, seed=5)
    assert math.isnan(one["greedy"].wp_ci) and math.isnan(one["greedy"].adp_ci)
    assert " - " in one.table().splitlines()[2]  # no interval from one deal


def test_the_interval_is_the_standard_error_over_deals() -> None:
    deals = 12
    result = run_arena(["greedy", "random"], deals=deals, seed=9)
    # Recompute: per deal, greedy's mean payoff over its 9 seats.
    means = []
    for deal in range(deals):
        one = run_arena(["greedy", "random"], deals=deal + 1, seed=9)["greedy"]
        means.append(one.points)
    per_deal = [(b - a) / 9 for a, b in zip([0, *means], means, strict=False)]
    mean = sum(per_deal) / deals
    variance = sum((x - mean) ** 2 for x in per_deal) / (deals - 1)
    assert result["greedy"].adp == pytest.approx(mean)
    assert result["greedy"].adp_ci == pytest.approx(1.96 * math.sqrt(variance / deals), rel=1e-3)


class Passer:
    """Never bids; plays like a random agent."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = RandomAgent(seed)

    def act(self, observation: ddz.Observation) -> Action:
        if observation.phase == "bidding":
            return ddz.Bid("pass")
        return self.random.act(observation)


def test_void_deals_are_redealt_and_counted() -> None:
    registry: dict[str, AgentFactory] = {**AGENTS, "passer": Passer}
    result = run_arena(["passer", "random"], deals=30, seed=1, registry=registry)
    assert result.redeals > 0
    assert result.games == 180  # every seating still played once a deal
    assert f"({result.redeals} void deals redealt)" in result.table().splitlines()[0]
    game, redeals = play_game(Game(seed=1), [Passer(1), RandomAgent(2), RandomAgent(3)])
    assert game.is_over and not game.is_void and redeals == game.seed - 1
    with pytest.raises(RuntimeError, match=f"{MAX_REDEALS} void deals in a row"):
        run_arena(["passer"], deals=1, registry=registry)


def test_illegal_actions_are_caught() -> None:
    class Cheat:
        def __init__(self, seed: int | None = None) -> None:
            pass

        def act(self, observation: ddz.Observation) -> Action:
            return ddz.Move.parse("XD")

    players: list[AnyAgent] = [Cheat(), Cheat(), Cheat()]
    with pytest.raises(ddz.IllegalMoveError):
        play_game(Game(seed=1), players)


def test_progress_is_reported_after_each_deal() -> None:
    calls: list[tuple[int, int]] = []
    run_arena(["random"], deals=4, seed=1, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_unknown_agents_and_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="no agent 'nobody'"):
        run_arena(["nobody"], deals=1)
    with pytest.raises(ValueError, match="deals must be 0 or more"):
        run_arena(["random"], deals=-1)


def test_the_table() -> None:
    result = run_arena(["greedy", "random"], deals=5, seed=1)
    assert isinstance(result, ArenaResult)
    lines = result.table().splitlines()
    assert lines[0].startswith("classic rules, seed 1: 5 deals x 6 seatings = 30 games")
    assert lines[1].split() == [
        "agent", "games", "WP", "±95%", "ADP", "±95%", "landlord", "WP", "as", "landlord",
        "WP", "as", "farmer",
    ]  # fmt: skip
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == {"greedy", "random"}
    greedy = result["greedy"]
    assert rows["greedy"][1:4] == [str(greedy.games), f"{greedy.wp:.1f}%", f"{greedy.wp_ci:.1f}"]
    assert rows["greedy"][4] == f"{greedy.adp:+.2f}"
    with pytest.raises(KeyError):
        result["nobody"]


# --- the arena in the core ----------------------------------------------------------------


def test_core_arena_is_deterministic_whatever_the_threads() -> None:
    from ddz.arena import run_core_arena

    one = run_core_arena(["greedy", "random"], deals=300, seed=3, threads=1)
    two = run_core_arena(["greedy", "random"], deals=300, seed=3, threads=2)
    assert one == two and one.table() == two.table()
    assert one.games + one.void_skipped == 300 * 6
    assert sum(s.points for s in one.stats) == 0  # zero-sum over the same games


def test_core_arena_agrees_with_the_python_arena() -> None:
    from ddz.arena import run_core_arena

    core = run_core_arena(["greedy", "random"], deals=400, seed=1)
    python = run_arena(["greedy", "random"], deals=400, seed=1)
    for name in ("greedy", "random"):
        # the same agents (the C greedy is GreedyAgent): the estimates agree within noise
        assert abs(core[name].wp - python[name].wp) < 3 * (core[name].wp_ci + python[name].wp_ci)
        assert abs(core[name].adp - python[name].adp) < 3 * (
            core[name].adp_ci + python[name].adp_ci
        )
    assert core["greedy"].wp > 60 and core["random"].wp < 40


def test_core_arena_takes_only_core_agents() -> None:
    from ddz.arena import run_core_arena

    with pytest.raises(ValueError, match="the core plays"):
        run_core_arena(["greedy", "clever"], deals=1)


def test_a_result_prints_as_its_table_and_has_a_short_repr() -> None:
    result = run_arena(["greedy", "random"], deals=5, seed=1)
    assert str(result) == result.table()
    text = repr(result)
    assert len(text) < 200 and "\n" not in text
    assert text.startswith("<ArenaResult classic rules, seed=1, deals=5, games=30: ")
    for stats in result.stats:
        assert f"{stats.name!r}: WP {stats.wp:.1f}% ADP {stats.adp:+.2f}" in text


def test_the_heading_says_the_games_column_counts_seats() -> None:
    three = run_arena(["greedy", "random"], deals=2, seed=1)
    assert three.table().splitlines()[0].endswith("; the games column counts seats, 3 a game")
    assert sum(stats.games for stats in three.stats) == 3 * three.games
    two = run_arena(["greedy", "random"], deals=2, seed=1, rules=ddz.TWO_PLAYER)
    assert two.table().splitlines()[0].endswith("; the games column counts seats, 2 a game")
    assert sum(stats.games for stats in two.stats) == 2 * two.games


def test_core_arena_replaces_deals_with_a_void_game() -> None:
    from ddz.arena import run_core_arena

    skipped = run_core_arena(["greedy", "random"], deals=100, seed=0)
    assert skipped.void_skipped > 0  # this seed has void games: the case is exercised
    one = run_core_arena(["greedy", "random"], deals=100, seed=0, void="replace", threads=1)
    two = run_core_arena(["greedy", "random"], deals=100, seed=0, void="replace", threads=2)
    assert one == two
    assert one.games == 600 and one.void_skipped == 0 and one.void_replaced > 0
    assert [stats.games for stats in one.stats] == [900, 900]  # every seat equally often
    assert sum(stats.landlord_games for stats in one.stats) == 600  # each game to a result
    assert sum(stats.points for stats in one.stats) == 0
    heading = one.table().splitlines()[0]
    assert f"({one.void_replaced} deals with a void game left out and replaced)" in heading
    # the deals counted are the run's first 100 deals with no void game, in order
    plan = seatings(["greedy", "random"])
    played = [ddz.simulate(150, agents=s, seed=0).landlords >= 0 for s in plan]
    complete = [i for i in range(150) if all(p[i] for p in played)][:100]
    assert complete[-1] + 1 - 100 == one.void_replaced
    calls: list[tuple[int, int]] = []
    run_core_arena(["greedy"], deals=3, seed=0, void="replace", progress=lambda *a: calls.append(a))
    assert calls[-1] == (3, 3)
    with pytest.raises(ValueError, match="void must be 'skip' or 'replace'"):
        run_core_arena(["greedy"], deals=1, void="redeal")  # type: ignore[arg-type]
