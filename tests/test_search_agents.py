"""The search agents (ddz.search_agents): SolverAgent and PIMCAgent, their playouts in C,
their place in the registry, the arena and the command line. Small and fast: a handful of
games with few worlds."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ddz
from ddz._core import playouts
from ddz.agents import AGENTS, GreedyAgent, RandomAgent, choose, make_agent
from ddz.arena import run_arena
from ddz.cli.main import main
from ddz.game import Game, Observation
from ddz.search_agents import PIMCAgent, SolverAgent
from tests.uno_reference import MASK, SplitMix

RULE_SETS = [ddz.CLASSIC, ddz.TWO_PLAYER, ddz.UNO_LANDLORD, ddz.DOUZERO]


def small_pimc(seed: int) -> PIMCAgent:
    return PIMCAgent(seed, worlds=6, playouts=300, exact_cards=12, node_limit=2000)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: repr(rules))
def test_search_agents_take_legal_actions_and_change_nothing(rules: ddz.Rules) -> None:
    for seed in range(2):
        agents = [small_pimc(seed), SolverAgent(node_limit=3000), GreedyAgent()][: rules.players]
        agents = agents[seed % rules.players :] + agents[: seed % rules.players]
        game = Game(rules, seed=seed)
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            before = game.state_bytes()
            action = choose(agents[seat], game)
            assert game.state_bytes() == before, "act() must not change the game"
            assert action in game.legal_actions(), (game.record(), str(action))
            game.step(action)
        assert game.is_void or sum(game.payoffs()) == 0


def actions_of(agent_seed: int) -> list[str]:
    """A whole game with a PIMC agent in every seat (one agent, seeded)."""
    agent = small_pimc(agent_seed)
    game = Game(seed=11)
    taken = []
    while not game.is_over:
        action = choose(agent, game)
        taken.append(str(action))
        game.step(action)
    return taken


def test_pimc_is_reproducible_with_a_seed() -> None:
    assert actions_of(3) == actions_of(3)


def test_pimc_sees_only_the_observation() -> None:
    # Two games that differ only in the hidden hands: seat 0's view is the same, so a PIMC
    # agent seeded alike must choose alike (it cannot tell the games apart).
    rng = random.Random(5)
    checked = 0
    for seed in range(8):
        game = Game(seed=seed)
        agent = GreedyAgent()
        while not game.is_over and (game.phase == "bidding" or rng.random() < 0.9):
            game.step(choose(agent, game))
        if game.is_over or game.phase != "play":
            continue
        seat = game.current_player
        assert seat is not None
        worlds = ddz.sample_worlds(game, seat, 2, seed=seed)
        one, two = worlds.game(0), worlds.game(1)
        assert one.observation(seat, history=False) == two.observation(seat, history=False)
        first = PIMCAgent(7, worlds=8, playouts=400)
        second = PIMCAgent(7, worlds=8, playouts=400)
        assert choose(first, one) == choose(second, two)
        checked += 1
    assert checked >= 4
    # what choose hands it is an Observation, never the Game
    seen: list[object] = []

    class Spy(PIMCAgent):
        def act(self, observation: Observation) -> ddz.game.Action:
            seen.append(observation)
            return super().act(observation)

    game = Game(seed=3)
    choose(Spy(1, worlds=4), game)
    assert len(seen) == 1 and isinstance(seen[0], Observation)
    with pytest.raises(TypeError, match="takes an Observation"):
        PIMCAgent(rules=ddz.CLASSIC).act(game)  # type: ignore[arg-type]


def random_position(rng: random.Random, rules: ddz.Rules, sizes: list[int]) -> Game:
    deck = list(str(rules.deck))
    rng.shuffle(deck)
    hands, start = [], 0
    for size in sizes:
        hands.append("".join(deck[start : start + size]))
        start += size
    landlord = rng.randrange(len(sizes))
    return Game.from_position(rules, hands, landlord=landlord, to_act=rng.randrange(len(sizes)))


def test_solver_agent_wins_every_won_position() -> None:
    rng = random.Random(17)
    won = 0
    for trial in range(60):
        if trial % 2:
            game = random_position(rng, ddz.ENDGAME, [rng.randint(2, 7), rng.randint(2, 7)])
        else:
            game = random_position(rng, ddz.CLASSIC, [rng.randint(1, 5) for _ in range(3)])
        result = ddz.solve(game, line=False)
        if result.value != 1:
            continue
        to_act = game.current_player
        assert to_act is not None
        winners = {
            seat
            for seat in range(game.rules.players)
            if (seat == game.landlord) == (to_act == game.landlord)
        }
        solver = SolverAgent()
        others = RandomAgent(seed=trial) if trial % 3 else GreedyAgent()
        while not game.is_over:
            seat = game.current_player
            game.step(choose(solver if seat in winners else others, game))
        assert game.winner in winners, trial
        assert solver.fallbacks == 0
        won += 1
    assert won >= 15


def test_solver_agent_falls_back_to_search() -> None:
    # tests/test_solver_exploit.py has positions where the search finds what greedy misses
    game = Game(seed=4)
    while game.phase == "bidding":
        game.step(choose(GreedyAgent(), game))
    agent = SolverAgent(max_cards=10)
    action = choose(agent, game)
    assert action in game.legal_actions()
    assert (agent.solved, agent.fallbacks) == (0, 1)
    tiny = SolverAgent(node_limit=1)  # the full deal is never solved in one node
    assert choose(tiny, game) == action  # the same open playouts, seeded alike
    assert tiny.fallbacks == 1
    with pytest.raises(ValueError):
        SolverAgent(node_limit=0)
    with pytest.raises(ValueError):
        SolverAgent(time_limit=-1)


def test_pimc_arguments_are_checked() -> None:
    for bad in ({"worlds": 0}, {"playouts": 0}, {"epsilon": 1001}, {"time_limit": 0}, {"work": -1}):
        with pytest.raises(ValueError):
            PIMCAgent(**bad)  # type: ignore[arg-type]
    seen = Game(seed=3).observation(Game(seed=3).current_player or 0)
    with pytest.raises(ValueError, match="needs the rules"):
        PIMCAgent().act(seen)
    with pytest.raises(TypeError):
        PIMCAgent().set_rules("classic")  # type: ignore[arg-type]


@pytest.mark.parametrize("epsilon", [0, 300, 1000])
def test_playouts_are_greedy_games(epsilon: int) -> None:
    # One world, the true one: each action's playout payoff is what GreedyAgents playing the
    # game on from that action score, but for epsilon per mille of the actions: uniformly
    # random legal ones, drawn as the core's random agents draw (actions.pxd's random_legal)
    # from the playout's generator (seeded by seed, world and action).
    game = Game(seed=9)
    greedy = GreedyAgent()
    for _ in range(8):
        game.step(choose(greedy, game))
    seat = game.current_player
    assert seat is not None and game.phase == "play"
    legal = game.legal_actions()
    hands = np.array([[card.mask for card in game.hands]], dtype=np.uint64)
    kitty = np.zeros(1, dtype=np.uint64)
    codes = np.array([action.code for action in legal], dtype=np.uint64)
    out = np.empty((1, len(legal)), dtype=np.int64)
    seed = 12345
    playouts.greedy_playouts(
        game.rules, game.state_bytes(), hands, kitty, codes, seat, out, seed, epsilon
    )
    randoms = 0
    for j, action in enumerate(legal):
        rng = SplitMix(seed ^ (j * 0xD1B54A32D192ED03) & MASK)  # world 0
        rng.next()
        child = game.copy()
        child.step(action)
        while not child.is_over:
            if epsilon and rng.below(1000) < epsilon:
                choices = child.legal_codes()
                child.step_code(int(choices[rng.below_fast(len(choices))]))
                randoms += 1
            else:
                child.step(choose(greedy, child))
        assert out[0, j] == child.payoffs()[seat], str(action)
    assert (randoms > 0) == (epsilon > 0)


def test_playouts_stop_at_their_work_budget() -> None:
    game = Game(seed=9)
    while game.phase == "bidding":
        game.step(choose(GreedyAgent(), game))
    seat = game.current_player
    assert seat is not None
    worlds = ddz.sample_worlds(game, seat, 20, seed=1)
    codes = np.array([action.code for action in game.legal_actions()], dtype=np.uint64)
    full = np.zeros((20, len(codes)), dtype=np.int64)
    args = (game.rules, game.state_bytes(), worlds.hands, worlds.kitty, codes, seat)
    played, work = playouts.greedy_playouts(*args, full)
    assert played == 20 and work > 20 * len(codes)
    part = np.zeros_like(full)
    played, spent = playouts.greedy_playouts(*args, part, 0, 0, work // 2)
    assert 1 < played < 20 and spent >= work // 2  # stops after the world that reached it
    assert (part[:played] == full[:played]).all() and not part[played:].any()
    assert playouts.greedy_playouts(*args, part, 0, 0, 1)[0] == 1  # always one world
    agent = PIMCAgent(1, rules=game.rules, work=1)  # one world a round: still legal
    assert agent.act(game.observation(seat)) in game.legal_actions()


def test_playouts_refuse_what_does_not_fit() -> None:
    game = Game(seed=9)
    state = game.state_bytes()
    hands = np.array([[card.mask for card in game.hands]], dtype=np.uint64)
    kitty = np.array([game.kitty.mask], dtype=np.uint64)
    out = np.empty((1, 1), dtype=np.int64)
    bid = np.array([game.legal_actions()[1].code], dtype=np.uint64)  # bid 1
    playouts.greedy_playouts(game.rules, state, hands, kitty, bid, 0, out)
    with pytest.raises(ValueError, match="not legal"):
        playouts.greedy_playouts(
            game.rules, state, hands, kitty, np.array([1], dtype=np.uint64), 0, out
        )
    with pytest.raises(ValueError, match="bytes"):
        playouts.greedy_playouts(game.rules, state[:-1], hands, kitty, bid, 0, out)
    with pytest.raises(ValueError, match="deck"):
        playouts.greedy_playouts(game.rules, state, hands * 2, kitty, bid, 0, out)
    with pytest.raises(ValueError, match="seat"):
        playouts.greedy_playouts(game.rules, state, hands, kitty, bid, 3, out)
    wrong = np.empty((2, 1), dtype=np.int64)
    with pytest.raises(ValueError, match="n x"):
        playouts.greedy_playouts(game.rules, state, hands, kitty, bid, 0, wrong)


def test_search_agents_are_registered_and_play_in_the_arena_and_cli(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert AGENTS["pimc"] is PIMCAgent and AGENTS["solver"] is SolverAgent
    assert isinstance(make_agent("pimc", 1), PIMCAgent)
    assert make_agent("solver").perfect_information is True
    registry = {"pimc": small_pimc, "solver": lambda seed: SolverAgent(node_limit=5000)}
    result = run_arena(["pimc", "solver"], deals=2, seed=2, registry=registry)
    assert result.games == 12 and result["pimc"].points + result["solver"].points == 0
    assert result == run_arena(["pimc", "solver"], deals=2, seed=2, registry=registry)
    assert main(["simulate", "--games", "2", "--agents", "pimc,greedy", "--quiet"]) == 0
    rows = [line.split()[0] for line in capsys.readouterr().out.splitlines()[2:]]
    assert rows == ["pimc", "greedy"]
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "pimc, solver" in capsys.readouterr().out.replace("\n", " ").replace("  ", " ")


@pytest.mark.parametrize("work", [1, 10, 100])
def test_pimc_solves_only_the_worlds_its_playouts_reached(work: int) -> None:
    # a small work limit stops the playouts after a few worlds; the exact solves then
    # correct those worlds only (they raised IndexError past the last row played)
    game = Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
    agent = PIMCAgent(seed=1, rules=ddz.ENDGAME, work=work)
    assert str(agent.act(game.observation(0))) == "KK"


_PIMC_NUMBERS = {
    "worlds": 1,
    "playouts": 1,
    "keep": 1,
    "work": 0,
    "exact_cards": 0,
    "node_limit": 1,
    "solve_nodes": 0,
    "epsilon": 0,
}


@pytest.mark.parametrize("name", sorted(_PIMC_NUMBERS))
@pytest.mark.parametrize("bad", ["2", True, 2.0, None, b"2"])
def test_pimc_integer_arguments_refuse_other_types(name: str, bad: object) -> None:
    with pytest.raises(TypeError, match=f"{name} must be an integer"):
        PIMCAgent(**{name: bad})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"win_weight": float("nan")}, ValueError, "win_weight must be a finite number"),
        ({"win_weight": float("inf")}, ValueError, "win_weight must be a finite number"),
        ({"win_weight": "2"}, TypeError, "win_weight must be a number, not '2'"),
        ({"win_weight": True}, TypeError, "win_weight must be a number"),
        ({"time_limit": "1"}, TypeError, "time_limit must be a number"),
        ({"time_limit": True}, TypeError, "time_limit must be a number"),
        ({"time_limit": float("nan")}, ValueError, "time_limit must be a finite number above 0"),
        ({"time_limit": float("inf")}, ValueError, "time_limit must be a finite number above 0"),
        ({"worlds": 1 << 17}, ValueError, "worlds must lie in 1 .. 65536"),
    ],
)
def test_pimc_numbers_are_checked_at_construction(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        PIMCAgent(**kwargs)  # type: ignore[arg-type]


def test_pimc_accepts_numpy_numbers() -> None:
    agent = PIMCAgent(worlds=np.int64(5), win_weight=np.float32(0.5), time_limit=np.int32(2))
    assert (agent.worlds, agent.win_weight, agent.time_limit) == (5, 0.5, 2.0)
    assert type(agent.win_weight) is float


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"node_limit": "5"}, TypeError),
        ({"node_limit": 5.0}, TypeError),
        ({"max_cards": True}, TypeError),
        ({"memory_mb": "4"}, TypeError),
        ({"time_limit": "1"}, TypeError),
        ({"time_limit": float("nan")}, ValueError),
        ({"memory_mb": 0}, ValueError),
    ],
)
def test_solver_agent_numbers_are_checked_at_construction(
    kwargs: dict[str, object], error: type[Exception]
) -> None:
    with pytest.raises(error):
        SolverAgent(**kwargs)  # type: ignore[arg-type]


def test_a_long_pimc_decision_stops_on_ctrl_c() -> None:
    """PIMCAgent(worlds=65536, playouts=2**24, work=0): millions of playouts in one C call
    (tens of seconds). SIGINT sent to the process while they run raises KeyboardInterrupt
    within half a second, and the C loop has stopped (its helper thread is gone)."""
    import os
    import signal
    import threading
    import time

    game = Game(seed=3)
    while game.phase == "bidding":
        game.step(choose(GreedyAgent(), game))
    seen = game.observation(game.current_player or 0)
    agent = PIMCAgent(seed=1, rules=game.rules, worlds=1 << 16, playouts=1 << 24, work=0)
    sent: list[float] = []

    def interrupt() -> None:
        # once the playouts run (their helper thread is up; at most 5 s), then 0.3 s more
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline:
            if any(t.name == "ddz-core-call" for t in threading.enumerate()):
                break
            time.sleep(0.01)
        time.sleep(0.3)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Thread(target=interrupt, daemon=True)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        agent.act(seen)
        time.sleep(10)  # not reached before the signal unless the decision was quick
    caught = time.monotonic()
    timer.join()
    assert sent and caught - sent[0] < 0.5, caught - sent[0]
    assert not any(t.name == "ddz-core-call" for t in threading.enumerate())


# The agent-strength issue, part 1: a sure win passed up, a winning partner bombed.

DECK = ddz.Cards("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD")


def position(
    hands: list[str], *, to_act: int, table: str | None = None, table_player: int | None = None
) -> Game:
    """A classic position, landlord seat 0, every other card played (by ``table_player``
    the table's move, the rest by a seat that did not make it): nothing is hidden."""
    rest = DECK
    for hand in hands:
        rest = rest - ddz.Cards(hand)
    played = [ddz.Cards(""), ddz.Cards(""), ddz.Cards("")]
    if table is not None and table_player is not None:
        rest = rest - ddz.Cards(table)
        played[table_player] = ddz.Cards(table)
    other = 2 if table_player == 1 else 1
    played[other] = played[other] + rest
    return Game.from_position(
        ddz.CLASSIC,
        hands,
        landlord=0,
        to_act=to_act,
        table=table,
        table_player=table_player,
        played=[str(cards) for cards in played],
    )


def pimc_choices(game: Game, **kwargs: object) -> list[str]:
    seat = game.current_player
    assert seat is not None
    return [
        str(PIMCAgent(seed, rules=game.rules, **kwargs).act(game.observation(seat)))  # type: ignore[arg-type]
        for seed in range(6)
    ]


@pytest.mark.parametrize("objective", ["wp", "score"])
def test_pimc_landlord_holding_exactly_aaa_plays_aaa(objective: str) -> None:
    # farmers 7 and 3 cards, the 2s and jokers already played: A, AA and AAA all win,
    # but only AAA wins now (the old agent led A in half of these seeds)
    game = Game.from_position(
        ddz.CLASSIC,
        ["AAA", "3456789", "345"],
        landlord=0,
        to_act=0,
        played=["", "2222XD", ""],
    )
    assert sorted(map(str, game.legal_actions())) == ["A", "AA", "AAA"]
    assert set(pimc_choices(game, objective=objective)) == {"AAA"}
    assert set(pimc_choices(game, objective=objective, worlds=2, playouts=3)) == {"AAA"}
    assert str(SolverAgent().act(game)) == "AAA"


@pytest.mark.parametrize("objective", ["wp", "score"])
def test_pimc_farmer_holding_only_the_black_joker_beats_a_2(objective: str) -> None:
    for hands in (["2K", "X", "3333"], ["2KQ", "X", "3333D"]):
        game = Game.from_position(
            ddz.CLASSIC, hands, landlord=0, to_act=1, table="2", table_player=0
        )
        assert set(pimc_choices(game, objective=objective)) == {"X"}, hands
        assert set(pimc_choices(game, objective=objective, worlds=1, playouts=1)) == {"X"}


def test_pimc_farmer_does_not_bomb_its_winning_partner_under_wp() -> None:
    # farmer 1 played a 2 and holds one 6; the landlord (KK) cannot answer. Passing wins
    # (farmer 1 leads its 6); 3333 wins too, at twice the stake: "score" bombs, "wp" does not
    game = position(["KK", "6", "33334"], to_act=2, table="2", table_player=1)
    assert sorted(map(str, game.legal_actions())) == ["3333", "pass"]
    assert set(pimc_choices(game, objective="wp")) == {"pass"}
    assert set(pimc_choices(game, objective="wp", worlds=2, playouts=2)) == {"pass"}
    assert set(pimc_choices(game, objective="score")) == {"3333"}


def going_out_positions(rules: ddz.Rules, games: int) -> list[Game]:
    """Every play-phase decision with a choice where a legal move empties the hand, from
    random games (a random agent, so the hands run down at every size)."""
    found = []
    for seed in range(games):
        game = Game(rules, seed=seed)
        agent = RandomAgent(seed)
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            legal = game.legal_actions()
            if game.phase == "play" and len(legal) > 1:
                size = len(game.hands[seat])
                if any(len(getattr(a, "cards", "")) == size for a in legal):
                    found.append(game.copy())
            game.step(choose(agent, game))
    return found


@pytest.mark.parametrize("rules", [ddz.CLASSIC, ddz.TWO_PLAYER], ids=repr)
def test_pimc_always_plays_a_move_that_empties_its_hand(rules: ddz.Rules) -> None:
    positions = going_out_positions(rules, 40)
    assert len(positions) >= 5
    settings: list[dict[str, object]] = [
        {"worlds": 1, "playouts": 1, "exact_cards": 0},
        {"worlds": 3, "playouts": 10, "keep": 1},
        {"worlds": 6, "playouts": 300},
    ]
    for k, game in enumerate(positions):
        seat = game.current_player
        assert seat is not None
        size = len(game.hands[seat])
        for objective in ("wp", "score"):
            for kwargs in settings:
                agent = PIMCAgent(k, rules=rules, objective=objective, **kwargs)  # type: ignore[arg-type]
                action = agent.act(game.observation(seat))
                assert len(getattr(action, "cards", "")) == size, (game.position(), str(action))
        assert len(getattr(SolverAgent().act(game), "cards", "")) == size, game.position()


@pytest.mark.parametrize("bad", ["adp", "WP", "", None, 1, True])
def test_pimc_objective_is_checked_at_construction(bad: object) -> None:
    with pytest.raises(ValueError, match=r'objective must be "wp" .* or "score"'):
        PIMCAgent(objective=bad)  # type: ignore[arg-type]
    assert PIMCAgent().objective == "score"
    assert PIMCAgent(objective="wp").objective == "wp"


def test_solver_agent_objective_score_passes_up_going_out_only_for_a_proved_higher_score() -> None:
    # 4444+56 goes out at once; leading 5 (unanswerable), then the bomb, scores more
    game = Game.from_position(ddz.ENDGAME, ["444456", "3"], landlord=0, to_act=0)
    out = game.copy()
    out.push(next(a for a in game.legal_actions() if str(a) == "4444+56"))
    assert out.is_over
    proved = ddz.solve(game, score=True).score
    assert proved is not None and proved > out.payoffs()[0] > 0
    assert str(SolverAgent().act(game)) == "4444+56"  # "wp", the default: going out
    agent = SolverAgent(objective="score")
    action = agent.act(game)
    assert str(action) != "4444+56" and agent.solved == 1
    after = game.copy()
    after.push(action)
    assert -ddz.solve(after, score=True).score == proved  # type: ignore[operator]
    with pytest.raises(ValueError, match="objective must be"):
        SolverAgent(objective="adp")


def test_pimc_farmer_overtakes_its_partner_when_it_strictly_gains_under_wp() -> None:
    # farmer 1 played 5 and holds a 6; passing (or 9) lets the landlord's A go out, while
    # 2 (which the A cannot beat) and then 99 goes out first: a strictly higher share of won
    # worlds than passing, so the farmer beats its partner's move (the sampled worlds
    # do not know which of the A and the 6 is the landlord's: 9 wins in half of them)
    game = position(["A", "6", "299"], to_act=2, table="5", table_player=1)
    assert sorted(map(str, game.legal_actions())) == ["2", "9", "pass"]
    for objective in ("wp", "score"):
        assert set(pimc_choices(game, objective=objective)) == {"2"}
        assert set(pimc_choices(game, objective=objective, worlds=20, playouts=20)) == {"2"}


def known_positions(count: int) -> list[Game]:
    """Two-player positions of 2-7 cards a hand with every other card played: the hidden
    cards are exactly the other hand, so every sampled world is the true one."""
    rng = random.Random(5)
    cards = list(str(DECK))
    found = []
    while len(found) < count:
        rng.shuffle(cards)
        a, b = rng.randint(2, 7), rng.randint(2, 7)
        hands = ["".join(cards[:a]), "".join(cards[a : a + b])]
        rest = str(ddz.Cards("".join(cards[a + b :])))
        found.append(
            Game.from_position(
                ddz.ENDGAME, hands, landlord=0, to_act=rng.randrange(2), played=[rest, ""]
            )
        )
    return found


def test_pimc_keeps_a_win_the_solver_proves_in_every_world() -> None:
    # every world is the true one: a won position's proved win must be kept, whatever the
    # playouts (a single world and playout each) think of the other moves
    kept = 0
    for k, game in enumerate(known_positions(60)):
        seat = game.current_player
        assert seat is not None
        if len(game.legal_actions()) < 2 or ddz.solve(game).value != 1:
            continue
        for objective in ("wp", "score"):
            agent = PIMCAgent(k, rules=game.rules, objective=objective, worlds=1, playouts=1)
            after = game.copy()
            after.push(agent.act(game.observation(seat)))
            if after.is_over:
                assert after.payoffs()[seat] > 0
            else:
                assert ddz.solve(after).value == -1, (objective, str(game.position()))
            kept += 1
    assert kept >= 20


@pytest.mark.parametrize("objective", ["wp", "score"])
def test_pimc_takes_a_win_proved_in_every_world_over_a_better_looking_playout(
    objective: str,
) -> None:
    # the opponent's 4 cards are 4 of 4J226T3; 55 is solved won in every world, 2 is not
    # (the old agent led 2 here: its playouts' mean payoff said so, and it loses)
    played = "33344455666777788889999TTTJJQQQQKKKKAAAA2XD"
    game = Game.from_position(
        ddz.ENDGAME, ["55J2", "4J22"], landlord=0, to_act=0, played=[played, ""]
    )
    assert ddz.solve(game).value == 1
    for seed in range(4):
        action = PIMCAgent(seed, rules=game.rules, objective=objective).act(game.observation(0))
        after = game.copy()
        after.push(action)
        assert ddz.solve(after).value == -1, str(action)  # the opponent to act: lost for it
