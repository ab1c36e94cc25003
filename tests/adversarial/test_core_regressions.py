"""Regression tests for the crashes, hangs and silent corruptions issue 9 found in the Dou
Dizhu core, the game and vector layers: each ran in a fresh interpreter where it could take
the process down, and each checks that the object is unchanged after the error."""

from __future__ import annotations

import copy
import pickle
import textwrap

import numpy as np
import pytest

import ddz
from ddz import IllegalMoveError, uno
from ddz._core import game as core_game
from ddz._core import vector as core_vector
from tests.adversarial.conftest import IsolatedRunner


def finished_game(seed: int = 3) -> ddz.Game:
    game = ddz.Game(seed=seed)
    while not game.is_over:
        game.push(game.legal_actions()[-1])
    return game


def test_huge_sizes_are_refused_before_any_allocation(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import numpy as np, ddz
        from ddz._core import vector
        index = ddz.game.action_index(ddz.CLASSIC)
        calls = [
            lambda: ddz.VectorGame(2**61),
            lambda: ddz.VectorGame(2**24 + 1),
            lambda: ddz.VectorGame(0),
            lambda: ddz.VectorGame(-5),
            lambda: vector.VectorGame(ddz.CLASSIC, 2**61, 0, index, 0),
            lambda: vector.VectorGame(ddz.CLASSIC, -1, 0, index, 0),
            lambda: vector.VectorGame(ddz.CLASSIC, 2, 0, index, 10**6),
            lambda: vector.VectorGame(ddz.CLASSIC, 2, 0, None, 0),
            lambda: ddz.simulate(2**61),
            lambda: ddz.simulate(10, threads=10**9),
            lambda: ddz.simulate(10, threads=0),
            lambda: ddz.simulate(10, first_game=2**62),
            lambda: ddz.simulate(-1),
        ]
        for call in calls:
            try:
                call()
            except (ValueError, TypeError, OverflowError) as error:
                print(type(error).__name__)
            else:
                print("accepted")
        """
    )
    assert "accepted" not in out and len(out.split()) == 13


def test_push_on_a_finished_game_is_refused(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import ddz
        game = ddz.Game(seed=3)
        while not game.is_over:
            game.push(game.legal_actions()[-1])
        before = game.state_bytes()
        for action in (ddz.PASS, ddz.Move.parse("3"), ddz.Bid("bid", 1), 0):
            try:
                game.push(action)
            except ddz.IllegalMoveError:
                pass
        for code in (0, 1, 2**63, 2**64 - 1, ddz.Move.parse("XD").code):
            try:
                game.push_code(code)
            except ddz.IllegalMoveError:
                pass
            assert game._core.push(code) != 0   # the raw core refuses too
        assert game.state_bytes() == before
        print("ok")
        """
    )
    assert out.strip() == "ok"


def test_push_never_plays_cards_the_hand_does_not_hold(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import ddz
        game = ddz.Game(seed=5)
        game.step("bid 3")
        seat = game.current_player
        for text in ["2222", "XD", "3333", str(ddz.CLASSIC.deck)]:
            before = game.state_bytes()
            try:
                game.push(text)
            except ddz.IllegalMoveError:
                assert game.state_bytes() == before
        # a move type in bidding, a bid in play: refused, nothing changed
        bidding = ddz.Game(seed=5)
        before = bidding.state_bytes()
        for code in [ddz.Move.parse("3").code, (17 << 51) | (9 << 56) | (1 << 60), 31 << 51]:
            assert bidding._core.push(code) != 0
        assert bidding.state_bytes() == before
        print("ok")
        """
    )
    assert out.strip() == "ok"


def test_the_raw_game_core_checks_seats_hands_and_players(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import ddz
        from ddz._core.game import GameCore, seeded_below, restore_core
        deck = ddz.CLASSIC.deck.mask
        hands, kitty = [h.mask for h in ddz.Game(seed=1).deal[0]], ddz.Game(seed=1).deal[1].mask
        bad = [
            (ddz.CLASSIC, hands, kitty, -1, 0),
            (ddz.CLASSIC, hands, kitty, 3, 3),
            (ddz.CLASSIC, hands, kitty, 0, 99),
            (ddz.CLASSIC, hands[:2], kitty, 0, 0),
            (ddz.CLASSIC, hands + [0], kitty, 0, 0),
            (ddz.CLASSIC, [deck, deck, deck], 0, 0, 0),
            (ddz.CLASSIC, [hands[0], hands[0], hands[1]], kitty, 0, 0),
            (ddz.CLASSIC, [(1 << 64) - 1, 0, 0], 0, 0, 0),
            (ddz.CLASSIC, [1 << 60, 0, 0], 0, 0, 0),
        ]
        for args in bad:
            try:
                GameCore(*args)
            except (ValueError, TypeError, OverflowError):
                print("refused")
        blank = GameCore.__new__(GameCore)           # never initialised
        print(blank.push(0), blank.check(0), blank.legal_moves(), blank.bidding_codes())
        try:
            seeded_below(1, 0)
        except ValueError:
            print("refused")
        for parts in [(b"", b"", b""), (b"x" * 10, b"", b""),
                      (ddz.Game(seed=1)._core.state_bytes()[:-1] + b"\\x7f", b"", b"")]:
            try:
                restore_core(ddz.CLASSIC, *parts)
            except ValueError:
                print("refused")
        """
    )
    lines = out.split("\n")
    assert lines.count("refused") == 9 + 1 + 3
    assert "1 1 [] []" in lines


FAKE_RULES = """
import ddz
class FakeRules:
    "Whatever a caller might pass as rules: the core reads these attributes itself."
    def __init__(self, **fields):
        base = ddz.CLASSIC
        for name in ("core_flags", "bidding", "max_grabs", "spring", "players", "hand_size",
                     "kitty_size"):
            setattr(self, name, getattr(base, name))
        self.__dict__.update(fields)
"""


RULES_THE_CORE_CANNOT_PLAY = [
    {"hand_size": 0, "kitty_size": 0},
    {"hand_size": 0},
    {"players": 1},
    {"players": 4},
    {"players": 0},
    {"hand_size": 18},
    {"hand_size": 2**40},
    {"max_grabs": 9},
    {"max_grabs": -1},
    {"kitty_size": -3},
]


def test_the_core_refuses_rules_it_cannot_play(isolated: IsolatedRunner) -> None:
    """Whatever Rules lets through, the core stops: a hand of nothing used to loop forever in
    C without the GIL; a fourth player wrote past the state's three hands."""
    out = isolated(
        FAKE_RULES
        + f"RULES_THE_CORE_CANNOT_PLAY = {RULES_THE_CORE_CANNOT_PLAY!r}\n"
        + textwrap.dedent(
            """
        import numpy as np, ddz
        from ddz._core import game, vector
        for fields in RULES_THE_CORE_CANNOT_PLAY:
            rules = FakeRules(**fields)
            payoffs = np.zeros((4, 3), np.int64)
            small = [np.zeros(4, np.int8), np.zeros(4, np.int8), np.zeros(4, np.int64)]
            calls = [
                lambda: game.shuffled_deal(rules, 1),
                lambda: game.GameCore(rules, [0, 0, 0], 0, 0, 0),
                lambda: vector.simulate_games(rules, np.zeros(3, np.int8), 1, 0, 0, 4,
                                              payoffs, *small),
            ]
            for call in calls:
                try:
                    call()
                    print("accepted", fields)
                except (ValueError, TypeError, OverflowError):
                    print("refused")
        """
        ),
        timeout=30,
    )
    assert out.split() == ["refused"] * 3 * len(RULES_THE_CORE_CANNOT_PLAY)


def test_int_means_an_action_index_and_codes_have_their_own_methods() -> None:
    space = ddz.ActionSpace(ddz.CLASSIC)
    game = ddz.Game(seed=7)
    bid_one = space.index(ddz.Bid("bid", 1))
    assert bid_one == 12655  # the index the issue quotes: it used to be played as a code
    record = game.step(bid_one)
    assert record.action == ddz.Bid("bid", 1)
    game = ddz.Game(seed=7)
    game.push(np.int64(bid_one))
    assert game.history[-1].action == ddz.Bid("bid", 1)
    game = ddz.Game(seed=7)
    game.step_code(ddz.Bid("bid", 2).code)
    game.push_code(np.uint64(ddz.Bid("bid", 3).code))
    assert [r.action for r in game.history] == [ddz.Bid("bid", 2), ddz.Bid("bid", 3)]
    before = game.state_bytes()
    for wrong in (-1, space.size, 2**70, np.int64(-3)):
        with pytest.raises(IllegalMoveError, match="action index"):
            game.step(wrong)
        with pytest.raises(IllegalMoveError, match="action index"):
            game.push(wrong)
    for wrong_code in (-1, 2**64, 1.5, "3", None, True):
        with pytest.raises(IllegalMoveError, match="action code"):
            game.step_code(wrong_code)  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError, match="action code"):
            game.push_code(wrong_code)  # type: ignore[arg-type]
    assert game.state_bytes() == before


def test_copies_and_pickles_of_a_game_are_independent_and_equal() -> None:
    game = ddz.Game(seed=11)
    for _ in range(12):
        game.step(game.legal_actions()[-1])
    for other in (
        copy.copy(game),
        copy.deepcopy(game),
        game.copy(),
        pickle.loads(pickle.dumps(game)),
        pickle.loads(pickle.dumps(game, protocol=0)),
    ):
        assert other.state_bytes() == game.state_bytes()
        assert other.history == game.history and other.deal == game.deal
        assert other.to_json() == game.to_json()
        before = game.state_bytes()
        other.step(other.legal_actions()[-1])
        assert game.state_bytes() == before  # the copy has its own state
        other.undo()
        other.undo()
        game_again = game.copy()
        game_again.undo()
        assert other.state_bytes() == game_again.state_bytes()  # the undo stack came along


def test_a_pickled_state_is_checked_before_use(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import pickle, ddz
        from ddz._core.game import restore_core
        game = ddz.Game(seed=2)
        game.step("bid 3")
        rules, state, stack, actions = game._core.__reduce__()[1]
        width = len(state)
        for offset in range(0, width, 4):   # every int field: -1 and a huge value
            for value in (b"\\xff\\xff\\xff\\xff", b"\\x00\\x00\\x00\\x7f"):
                broken = state[:offset] + value + state[offset + 4:]
                try:
                    core = restore_core(rules, broken, stack, actions)
                except ValueError:
                    continue
                core.legal_moves(); core.bidding_codes(); core.payoffs(); core.multiplier()
                for code in (0, ddz.Move.parse("3").code, ddz.Bid("bid", 1).code):
                    core.push(code); core.check(code)
        print("ok")
        """
    )
    assert out.strip() == "ok"


def test_vector_game_copies_and_pickles() -> None:
    games = ddz.VectorGame(5, seed=4)
    for _ in range(30):
        games.step(games.sample_legal())
    for other in (copy.copy(games), copy.deepcopy(games), pickle.loads(pickle.dumps(games))):
        assert other.state_bytes() == games.state_bytes()
        assert [other.deal_seed(i) for i in range(5)] == [games.deal_seed(i) for i in range(5)]
        actions = games.copy().sample_legal()
        assert np.array_equal(other.sample_legal(), actions)  # the sampler's generator too
        before = games.state_bytes()
        other.step(actions)
        assert games.state_bytes() == before


def test_vector_step_checks_the_callers_array_and_changes_nothing_on_error() -> None:
    games = ddz.VectorGame(4, seed=1)
    before = games.state_bytes()
    size = games.num_actions
    bad: list[object] = [
        np.zeros(4, dtype=np.float64),
        np.zeros((2, 2), dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros(5, dtype=np.int64),
        np.array([0, 0, 0, -1]),
        np.array([0, 0, 0, size]),
        np.array([0, 0, 0, 2**63 - 1]),
        np.array([0, 0, 0, 2**64 - 1], dtype=np.uint64),
        ["a", "b", "c", "d"],
        [None] * 4,
        np.zeros(4, dtype=bool),
    ]
    for actions in bad:
        with pytest.raises((ValueError, TypeError)):
            games.step(actions)  # type: ignore[arg-type]
        assert games.state_bytes() == before
    # any integer dtype and a strided view work, copied once into C memory
    legal = games.sample_legal()
    strided = np.zeros(8, dtype=np.int32)
    strided[::2] = legal
    other = games.copy()
    rewards, done = games.step(strided[::2])
    assert np.array_equal((rewards, done)[0], other.step(legal.tolist())[0])
    assert games.state_bytes() == other.state_bytes()


def test_raw_vector_methods_check_their_arrays(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import numpy as np, ddz
        games = ddz.VectorGame(3, seed=1)
        core = games._core
        size = games.num_actions
        before = games.state_bytes()
        calls = [
            lambda: core.current_players(np.zeros(1, np.int8)),
            lambda: core.current_players(np.zeros(3, np.int64)),
            lambda: core.observations(np.zeros((3, 10), np.int8)),
            lambda: core.observations(np.zeros((3, 140), np.int8)[:, ::1][::2]),
            lambda: core.legal_action_mask(np.zeros((3, size - 1), np.uint8)),
            lambda: core.legal_action_mask(np.zeros((2, size), np.uint8)),
            lambda: core.legal_action_mask(np.zeros((3, size), np.uint8).T),
            lambda: core.sample_legal(np.zeros(2, np.int64)),
            lambda: core.step(np.zeros(3, np.int64), np.zeros((3, 2), np.int64),
                              np.zeros(3, np.uint8)),
            lambda: core.step(np.zeros(3, np.int64), np.zeros((3, 3), np.int64),
                              np.zeros(2, np.uint8)),
            lambda: core.deal_seed(3),
            lambda: core.deal_seed(-1),
        ]
        for call in calls:
            try:
                call()
                print("accepted")
            except (ValueError, TypeError, IndexError, BufferError):
                print("refused")
        assert games.state_bytes() == before
        """
    )
    assert out.split() == ["refused"] * 12


def test_numpy_integers_are_taken_wherever_an_int_is() -> None:
    game = ddz.Game(seed=np.uint64(9), first_player=np.int8(1))
    assert game.seed == 9 and game.first_player == 1
    assert game.observation(np.int64(2)).player == 2
    result = ddz.simulate(np.int64(20), seed=np.uint32(3), threads=np.int8(2))
    assert result == ddz.simulate(20, seed=3)
    games = ddz.VectorGame(np.int32(3), seed=np.int64(2))
    assert games.deal_seed(np.int64(2)) == ddz.simulation.game_seed(2, 2)
    with pytest.raises(TypeError):
        ddz.simulate(10, threads=2.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ddz.VectorGame(True)


def test_push_keeps_views_readable_and_scores_bounded() -> None:
    """States push makes without the rules of turn: every view still reads."""
    game = ddz.Game(seed=21)
    game.push("bid 3")
    for _ in range(200):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        hand = game.hands[seat]
        moves = list(ddz.legal_moves(hand, rules=game.rules))  # leads: ignore the table
        game.push(moves[-1])
        game.table, game.history, game.observation(0).encode(), game.payoffs()
    assert game.is_over and game.multiplier < 2**62


def test_the_rules_cache_is_not_mixed_by_alternating_rules() -> None:
    loose = ddz.CLASSIC.replace(single_kickers_distinct=False, trio_as_wings=True)
    for _ in range(50):
        assert len(ddz.classify("333444555666", rules=loose)) == 3
        assert len(ddz.classify("333444555666", rules=ddz.CLASSIC)) == 1


def test_finished_games_refuse_everything_without_changing(isolated: IsolatedRunner) -> None:
    game = finished_game()
    before = game.state_bytes()
    for action in ("pass", "3", "bid 1", 0, 5):
        with pytest.raises(IllegalMoveError):
            game.step(action)
    assert game.state_bytes() == before
    assert core_game.PHASES[2] == game.phase
    assert core_vector.MAX_GAMES == 2**24


SEEDED: dict[str, object] = {
    "Game": lambda seed: ddz.Game(seed=seed),
    "simulate": lambda seed: ddz.simulate(2, seed=seed),
    "VectorGame": lambda seed: ddz.VectorGame(2, seed=seed),
    "sample_worlds": lambda seed: ddz.sample_worlds(ddz.Game(seed=1), 0, 2, seed=seed),
    "uno.Game": lambda seed: uno.Game(3, seed=seed),
    "uno.Match": lambda seed: uno.Match(3, seed=seed),
    "uno.VectorGame": lambda seed: uno.VectorGame(2, seed=seed),
    "uno.simulate_rounds": lambda seed: uno.simulate_rounds(2, seed=seed),
    "uno.Game.playout": lambda seed: uno.Game(3, seed=1).playout(seed),
}


@pytest.mark.parametrize("entry", sorted(SEEDED))
def test_every_entry_point_checks_seeds_the_same_way(entry: str) -> None:
    """Seeds were checked differently at each entry point. Now each takes 0 .. 2**64 - 1
    (numpy integers too) and refuses the rest the same way, naming the seed."""
    make = SEEDED[entry]
    for seed in (0, 2**64 - 1, np.uint64(2**64 - 1), np.int8(3)):
        make(seed)  # type: ignore[operator]
    for seed in (-1, 2**64, -(2**70)):
        with pytest.raises(ValueError, match=r"seed must lie in 0 \.\. 18446744073709551615"):
            make(seed)  # type: ignore[operator]
    for seed in (1.5, "3", True, np.float64(2.0), b"1"):
        with pytest.raises(TypeError, match="seed"):
            make(seed)  # type: ignore[operator]


def test_vector_environment_deep_copies_and_pickles() -> None:
    """The batched Gymnasium environment copies (deepcopy, pickle) to an independent
    environment in the same state; copy.copy is shallow, as for any Gymnasium env."""
    pytest.importorskip("gymnasium")
    from ddz.envs.vector import DouDizhuVectorEnv

    env = DouDizhuVectorEnv(4, seed=1)
    env.reset(seed=1)
    env.step(env.games.sample_legal())
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert twin.games is not env.games
        assert twin.games.state_bytes() == env.games.state_bytes()
        actions = env.games.copy().sample_legal()
        before = env.games.state_bytes()
        stepped = twin.step(actions)
        assert env.games.state_bytes() == before
        reference = copy.deepcopy(env).step(actions)
        for ours, theirs in zip(stepped[:4], reference[:4], strict=True):
            assert np.array_equal(ours, theirs)
