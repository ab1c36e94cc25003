"""ddz.learn.agent: DouZeroAgent against DouZero's own DeepAgent, its checkpoints, and the
batched arena against one table at a time.

The weights are random (torch's initialisation, seeded) and written by the tests: the agents
must agree on whatever the network says, not on good play.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ddz  # noqa: E402
from ddz.compat.douzero import POSITIONS, seat_observation  # noqa: E402
from ddz.learn.agent import DouZeroAgent, _first_maxima, accepts_rules, load_models  # noqa: E402
from ddz.learn.models import new_models  # noqa: E402
from ddz.play.agents import GreedyAgent, RandomAgent, agent_factory, make_agent  # noqa: E402
from ddz.play.arena import play_game, play_games, run_arena  # noqa: E402
from tests import douzero_networks  # noqa: E402

from .test_compat_douzero import assert_same_obs  # noqa: E402
from .test_compat_douzero_seats import games as seat_games  # noqa: E402

VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
DECK = [v for v in VALUES[:13] for _ in range(4)] + [20, 30]
POINTS = ddz.DOUZERO.replace(bidding="points")
GAMES = 24  # against DeepAgent (about 40 decisions a game)


@pytest.fixture(scope="module", autouse=True)
def one_thread() -> Any:
    # the suite runs on two busy cores: torch's own threads would only fight over them
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """DouZero's baseline layout: landlord.ckpt, landlord_up.ckpt, landlord_down.ckpt."""
    directory = tmp_path_factory.mktemp("douzero")
    torch.manual_seed(2)
    for position, model in new_models().items():
        torch.save(model.state_dict(), directory / f"{position}.ckpt")
    return directory


@pytest.fixture(scope="module")
def agent(checkpoint: Path) -> DouZeroAgent:
    return DouZeroAgent(checkpoint)


def cards_of(values: list[int]) -> ddz.Cards:
    return ddz.Cards.from_counts([values.count(value) for value in VALUES])


def values_of(action: ddz.Move) -> list[int]:
    counts = action.cards.counts()
    return [value for value, count in zip(VALUES, counts, strict=True) for _ in range(count)]


class Referee:
    """Sits at DouZero's table for one position: asks DouZero's DeepAgent (on DouZero's
    InfoSet) and our agent (on the ddz game's observation of the same seat), checks they
    choose the same cards and that the features are DouZero's get_obs, and plays it in the
    ddz game too."""

    def __init__(self, position: str, deep: Any, ours: DouZeroAgent, table: dict[str, Any]):
        self.position, self.deep, self.ours, self.table = position, deep, ours, table

    def act(self, infoset: Any) -> list[int]:
        from douzero.env.env import get_obs

        theirs = self.deep.act(infoset)
        game: ddz.Game = self.table["game"]
        seat = self.table["seats"][self.position]
        assert game.current_player == seat
        seen = game.observation(seat)
        if len(infoset.legal_actions) > 1:
            assert_same_obs(get_obs(infoset), seat_observation(seen))
        self.ours.set_rules(game.rules)
        mine = self.ours.act(seen)
        assert values_of(mine) == sorted(theirs), (self.position, len(game.history))
        game.step(mine)
        self.table["decisions"] += 1
        return theirs


def test_same_actions_as_douzeros_deep_agent(
    checkpoint: Path, agent: DouZeroAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "douzero.dmc.models", douzero_networks.douzero_models())
    from douzero.env.game import GameEnv
    from douzero.evaluation.deep_agent import DeepAgent

    deep = {p: DeepAgent(p, str(checkpoint / f"{p}.ckpt")) for p in POSITIONS}
    rng = random.Random(5)
    decisions = 0
    for number in range(GAMES):
        deck = DECK.copy()
        rng.shuffle(deck)
        deal = {  # sorted, as DouZero's Env.reset deals
            "landlord": sorted(deck[:20]),
            "landlord_up": sorted(deck[20:37]),
            "landlord_down": sorted(deck[37:54]),
            "three_landlord_cards": sorted(deck[17:20]),
        }
        landlord = number % 3
        seats = {"landlord": landlord, "landlord_down": (landlord + 1) % 3}
        seats["landlord_up"] = (landlord + 2) % 3
        hands = [ddz.Cards()] * 3
        hands[landlord] = cards_of(deck[:17])
        for position in ("landlord_up", "landlord_down"):
            hands[seats[position]] = cards_of(deal[position])
        rules = POINTS if number % 2 else ddz.DOUZERO  # the bidding: DouZero's has none
        game = ddz.Game(
            rules.replace(bidding="random"),
            deal=(hands, cards_of(deck[17:20])),
            first_player=landlord,
        )
        assert game.landlord == landlord and game.phase == "play"
        table = {"game": game, "seats": seats, "decisions": 0}
        env = GameEnv({p: Referee(p, deep[p], agent, table) for p in POSITIONS})
        env.card_play_init(deal)
        while not env.game_over:
            env.step()
        assert game.is_over and (game.winner == landlord) == (env.get_winner() == "landlord")
        decisions += table["decisions"]
    assert decisions > GAMES * 20
    assert agent.fallbacks == 0


def test_batched_games_are_the_games_played_one_at_a_time(agent: DouZeroAgent) -> None:
    # the greedy agent bids; random agents (seeded per game) make the games varied
    def lineup(deal: int) -> list[Any]:
        return [agent, RandomAgent(deal), agent]

    def jobs() -> list[tuple[ddz.Game, list[Any]]]:
        return [
            (ddz.Game(POINTS, seed=100 + deal), lineup(deal)[s:] + lineup(deal)[:s])
            for deal in range(3)
            for s in range(3)
        ]

    calls: list[int] = []
    original = agent.act_games

    def counted(games: list[ddz.Game]) -> list[int]:
        calls.append(len(games))
        return original(games)

    alone = [play_game(game, players)[0].record() for game, players in jobs()]
    agent.act_games = counted  # type: ignore[method-assign]
    try:
        batched = [game.record() for game, _ in play_games(jobs(), tables=8)]
    finally:
        del agent.act_games
    assert batched == alone
    assert max(calls) >= 4  # several tables asked in one call
    unchecked = [game.record() for game, _ in play_games(jobs(), tables=8, checked=False)]
    assert unchecked == alone  # the codes pushed, not stepped
    # handed observations instead (an agent without act_games): the same games
    agent.act_games = None  # type: ignore[assignment, method-assign]
    try:
        observed = [game.record() for game, _ in play_games(jobs(), tables=8)]
    finally:
        del agent.act_games
    assert observed == alone


def test_choices_read_from_the_games_are_the_observations(agent: DouZeroAgent) -> None:
    # act_games against act_batch on the seats' observations, at every decision of varied
    # games (bidding, one legal action, a history DouZero's game does not allow, hands of
    # planes and bombs whose cards several readings play), in one call: the network's
    # choices; then with rows chosen for it (its first and last few, cards it lists twice),
    # so that each row's action (a reading among several, cards no action plays)
    # is the one the observation path plays
    rng = random.Random(4)
    parse = ddz.Cards.parse
    hands = [parse("33344455566677882"), parse("TTTJJJQQQ78956ABR"), parse("34789TJQKKKKAAA22")]
    scripted = ddz.Game(
        ddz.DOUZERO.replace(bidding="random"), deal=(hands, parse("992")), first_player=0
    )
    states = [scripted.copy()]
    for move in ("444555666+333", "TTTJJJQQQ+789"):  # answered under a foreign reading
        scripted.step(move)
        states.append(scripted.copy())
    skewed = itertools.islice(seat_games(rng), 30, 34)  # deals of planes, bombs, chains
    seeded = [ddz.Game(POINTS if n % 2 else ddz.DOUZERO, seed=200 + n) for n in range(3)]
    for game in [scripted, *skewed, *seeded]:
        while not game.is_over:
            states.append(game.copy())
            legal = list(game.legal_actions())
            played = Counter(a.cards for a in legal if isinstance(a, ddz.Move) and a.cards)
            readings = [a for a in legal if isinstance(a, ddz.Move) and played[a.cards] > 1]
            game.step(rng.choice(readings if readings and rng.random() < 0.7 else legal))
    views = [state.observation(state.current_player) for state in states]  # type: ignore[arg-type]
    fresh = DouZeroAgent.from_models(agent.models)
    observing = DouZeroAgent.from_models(agent.models)

    def codes(actions: list[Any]) -> list[int]:
        return [state.parse_action(a).code for state, a in zip(states, actions, strict=True)]

    assert fresh.act_games(states) == codes(observing.act_batch(views))
    assert fresh.fallbacks == observing.fallbacks > 0
    original = DouZeroAgent._rows
    for shift in range(-5, 6):

        def rows(self: DouZeroAgent, group: Any, shift: int = shift) -> Any:
            # standing in for the network's choice: each decision's row `shift` from its
            # first (from its last when negative), or (shift 5) its first row whose cards
            # come again in another row (DouZero lists 333444555+666 and 444555666+333):
            # cards several readings play, where the reading is chosen
            first, end = group.offsets[:-1], group.offsets[1:]
            if shift < 5:
                return np.clip(first + shift if shift >= 0 else end + shift, first, end - 1)
            chosen = first.copy()
            for slot, (a, b) in enumerate(zip(first.tolist(), end.tolist(), strict=True)):
                _, again, counts = np.unique(
                    group.action_rows[a:b], axis=0, return_inverse=True, return_counts=True
                )
                repeated = np.flatnonzero(counts[again.ravel()] > 1)
                chosen[slot] = a + (repeated[0] if repeated.size else 0)
            return chosen

        DouZeroAgent._rows = rows  # type: ignore[method-assign]
        try:
            assert fresh.act_games(states) == codes(observing.act_batch(views))
        finally:
            DouZeroAgent._rows = original  # type: ignore[method-assign]
    assert fresh.fallbacks == observing.fallbacks


def test_first_maxima_is_argmax_of_each_segment() -> None:
    rng = np.random.default_rng(5)
    for _ in range(200):
        counts = rng.integers(1, 6, int(rng.integers(1, 8)))
        values = rng.integers(0, 3, int(counts.sum())).astype(np.float32)  # many ties
        if rng.random() < 0.2:
            values[rng.integers(0, values.size)] = np.nan
        starts = np.cumsum(counts) - counts
        expected = [int(np.argmax(values[a : a + n])) for a, n in zip(starts, counts, strict=True)]
        assert _first_maxima(values, counts).tolist() == expected


def test_the_arena_gives_the_same_result_whatever_the_tables(checkpoint: Path) -> None:
    name = f"douzero:{checkpoint}"
    one = run_arena([name, "greedy"], deals=1, seed=3, rules=POINTS, tables=1)
    many = run_arena([name, "greedy"], deals=1, seed=3, rules=POINTS, tables=6)

    def counts(result: Any) -> list[tuple[int, ...]]:  # one deal: the intervals are NaN
        return [
            (s.games, s.wins, s.points, s.landlord_games, s.landlord_wins) for s in result.stats
        ]

    assert counts(one) == counts(many) and one.redeals == many.redeals
    assert one.games == 6 and one[name].games == 9


def test_rules_other_than_douzeros_card_play_are_refused(agent: DouZeroAgent) -> None:
    assert accepts_rules(ddz.DOUZERO) and accepts_rules(POINTS)
    assert accepts_rules(ddz.DOUZERO.replace(bidding="call-grab", spring=True))
    for rules in (ddz.CLASSIC, ddz.RLCARD, ddz.TWO_PLAYER, ddz.DOUZERO.replace(max_straight=8)):
        assert not accepts_rules(rules)
    with pytest.raises(ValueError, match=r"DouZero's card play: ddz\.DOUZERO, with any bidding"):
        agent.set_rules(ddz.CLASSIC)
    with pytest.raises(ValueError, match="DouZero's card play"):
        run_arena(["greedy"], deals=1, registry={"greedy": lambda seed: agent})


def test_checkpoint_layouts(checkpoint: Path, tmp_path: Path) -> None:
    torch.manual_seed(2)
    expected = new_models()
    state = {p: m.state_dict() for p, m in expected.items()}

    def same(models: dict[str, Any]) -> bool:
        return all(
            torch.equal(models[p].state_dict()[k], v)
            for p in POSITIONS
            for k, v in state[p].items()
        )

    assert same(load_models(checkpoint))
    assert same(load_models([checkpoint / f"{p}.ckpt" for p in POSITIONS]))
    assert same(load_models({p: str(checkpoint / f"{p}.ckpt") for p in POSITIONS}))
    # the trainer's files: the most frames all three positions have
    trainer = tmp_path / "trainer"
    trainer.mkdir()
    fresh = new_models()
    for p in POSITIONS:
        torch.save(fresh[p].state_dict(), trainer / f"{p}_weights_100.ckpt")
        torch.save(state[p], trainer / f"{p}_weights_2000.ckpt")
    torch.save(fresh["landlord"].state_dict(), trainer / "landlord_weights_3000.ckpt")
    assert same(load_models(trainer))
    # the trainer's model.tar (DouZero's layout: model_state_dict[position], and more)
    tar = tmp_path / "model.tar"
    torch.save({"model_state_dict": state, "frames": 7, "flags": {"objective": "adp"}}, tar)
    assert same(load_models(tar))
    (tmp_path / "only").mkdir()
    torch.save({"model_state_dict": state}, tmp_path / "only" / "model.tar")
    assert same(load_models(tmp_path / "only"))


def test_checkpoint_errors(checkpoint: Path, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"landlord\.ckpt"):
        load_models(tmp_path)
    with pytest.raises(FileNotFoundError, match="no checkpoint file"):
        load_models([checkpoint / "landlord.ckpt", checkpoint / "up.ckpt", tmp_path / "x"])
    with pytest.raises(ValueError, match="three checkpoint files"):
        load_models([checkpoint / "landlord.ckpt"])
    models = new_models()
    wrong = {p: m.state_dict() for p, m in models.items()}
    # a farmer's weights in the landlord's place: 484 + 128 inputs, not 373 + 128
    wrong["landlord"] = wrong["landlord_up"]
    for p in POSITIONS:
        torch.save(wrong[p], tmp_path / f"{p}.ckpt")
    with pytest.raises(ValueError, match=r"landlord: dense1.weight has the shape \(512, 612\)"):
        load_models(tmp_path)
    extra = dict(models["landlord"].state_dict())
    extra["dense7.weight"] = torch.zeros(1)
    torch.save(extra, tmp_path / "landlord.ckpt")
    with pytest.raises(ValueError, match=r"unexpected.*dense7\.weight"):
        load_models(tmp_path)
    del extra["dense7.weight"], extra["dense6.bias"]
    torch.save(extra, tmp_path / "landlord.ckpt")
    with pytest.raises(ValueError, match=r"missing.*dense6\.bias"):
        load_models(tmp_path)
    (tmp_path / "landlord.ckpt").write_text("not a checkpoint")
    with pytest.raises(ValueError, match=r"not a checkpoint torch\.load reads"):
        load_models(tmp_path)
    torch.save({"frames": 3}, tmp_path / "model.tar")
    with pytest.raises(ValueError, match="model_state_dict"):
        load_models(tmp_path / "model.tar")
    with pytest.raises(TypeError, match="a checkpoint is a directory"):
        load_models(3)  # type: ignore[arg-type]


def test_douzero_is_an_agent_name(checkpoint: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    factory = agent_factory(f"douzero:{checkpoint}")
    assert factory(1) is factory(2)  # one agent, loaded once, for every seat and game
    assert isinstance(make_agent(f"douzero:{checkpoint}"), DouZeroAgent)
    with pytest.raises(ValueError, match="write douzero:PATH"):
        agent_factory("douzero:")
    with pytest.raises(ValueError, match=r"the agents are: random, .*douzero:PATH"):
        agent_factory("clever")
    with pytest.raises(FileNotFoundError):
        agent_factory("douzero:/no/such/dir")
    monkeypatch.setitem(sys.modules, "torch", None)  # as if PyTorch were not installed
    with pytest.raises(ImportError, match=r'pip install "ddz\[learn\]"'):
        agent_factory(f"douzero:{checkpoint}")


def test_simulate_and_play_take_douzero(
    checkpoint: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ddz.cli.main import main, play

    name = f"douzero:{checkpoint}"
    command = ["simulate", "--agents", name, "--rules", "douzero", "--quiet"]
    assert main([*command, "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "douzero rules, seed 0: 2 deals x 1 seatings = 2 games" in out and name in out
    assert main(["simulate", "--agents", name, "--games", "3", "--quiet"]) == 2
    assert "DouZero's card play" in capsys.readouterr().err
    lines: list[str] = []
    quit_at_once = lambda _: "quit"  # noqa: E731
    assert (
        play(
            seat=0, agents=[name], seed=4, rules=ddz.DOUZERO, read=quit_at_once, write=lines.append
        )
        == 0
    )
    assert any(name in line for line in lines)


def test_arena_plays_douzero_in_duplicate(
    checkpoint: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ddz.cli.main import main

    name = f"douzero:{checkpoint}"
    command = ["arena", name, "--against", "greedy", "--rules", "douzero", "--deals", "1"]
    assert main([*command, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert name in out and "greedy" in out
    assert main(["arena", "douzero:/no/such/dir", "--against", "greedy", "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "/no/such/dir" in err and len(err.splitlines()) == 1


def test_bidding_is_the_bidders(agent: DouZeroAgent) -> None:
    game = ddz.Game(POINTS, seed=11)
    seen = game.observation(game.current_player)  # type: ignore[arg-type]
    assert seen.phase == "bidding"
    assert agent.act(seen) == GreedyAgent().act(seen)
    assert agent.act(game) == GreedyAgent().act(game)  # a game: its seat to act


def test_a_reused_agent_chooses_as_a_fresh_one(checkpoint: Path) -> None:
    # one agent through games, undos and replays of the same positions: each choice is a
    # fresh agent's (the agent keeps nothing between decisions)
    reused = DouZeroAgent(checkpoint)
    rng = random.Random(6)
    for seed in (50, 51):
        game = ddz.Game(ddz.DOUZERO, seed=seed)
        while not game.is_over:
            if len(game.history) > 6 and rng.random() < 0.15:
                for _ in range(rng.randint(1, 3)):
                    game.undo()
            seen = game.observation(game.current_player)  # type: ignore[arg-type]
            chosen = reused.act(seen)
            assert chosen == DouZeroAgent.from_models(reused.models).act(seen)
            game.step(chosen if rng.random() < 0.7 else rng.choice(seen.legal_actions))
    assert reused.fallbacks == 0


def test_a_history_douzero_cannot_reach_is_left_to_the_bidder(checkpoint: Path) -> None:
    # the landlord plays 333444555666 as 444555666+333 (a plane with three kickers; DouZero
    # reads the cards as a chain of four triples) and is answered under that reading with
    # TTTJJJQQQ+789, which DouZero's game does not allow: at the next seat (a bomb or a
    # pass) the agent asks its bidder, and counts it
    parse = ddz.Cards.parse
    hands = [parse("33344455566677882"), parse("TTTJJJQQQ78956ABR"), parse("34789TJQKKKKAAA22")]
    game = ddz.Game(
        ddz.DOUZERO.replace(bidding="random"), deal=(hands, parse("992")), first_player=0
    )
    assert game.landlord == 0
    game.step("444555666+333")
    fresh = DouZeroAgent(checkpoint)
    assert fresh.act(game) in game.legal_actions() and fresh.fallbacks == 0
    game.step("TTTJJJQQQ+789")
    seen = game.observation(2)
    with pytest.raises(ValueError, match="DouZero's rules do not allow"):
        seat_observation(seen)
    assert fresh.act_batch([seen, seen]) == [GreedyAgent().act(seen)] * 2
    assert fresh.fallbacks == 2


def test_a_decision_douzero_sees_one_action_in_is_not_valued(agent: DouZeroAgent) -> None:
    # the landlord plays 333444555666 as 444555666+333: ddz answers it with planes of three
    # (TTTJJJQQQ+...), DouZero reads a chain of four triples and has only the pass, which
    # its agent plays unasked; batched with a decision the network values, both choices are
    # the ones made alone
    parse = ddz.Cards.parse
    hands = [parse("33344455566677882"), parse("TTTJJJQQQ78956AKK"), parse("34789TJQKKAAA22BR")]
    game = ddz.Game(
        ddz.DOUZERO.replace(bidding="random"), deal=(hands, parse("992")), first_player=0
    )
    game.step("444555666+333")
    single = game.observation(1)
    assert len(single.legal_actions) > 1 and seat_observation(single)["legal_actions"] == [[]]
    other = ddz.Game(ddz.DOUZERO, seed=8)
    while other.current_player != (other.landlord + 1) % 3 or len(other.legal_actions()) < 3:
        other.step(other.legal_actions()[0])
    valued = other.observation(other.current_player)  # type: ignore[arg-type]
    alone = [agent.act(single), agent.act(valued)]
    assert str(alone[0]) == "pass"
    assert agent.act_batch([single, valued]) == alone
    assert agent.act_batch([valued, single, valued]) == [alone[1], alone[0], alone[1]]


def test_the_arena_refuses_a_wrong_number_of_codes(agent: DouZeroAgent) -> None:
    class Short(DouZeroAgent):
        def act_games(self, games: Any) -> list[int]:
            return super().act_games(games)[1:]

    short = Short.from_models(agent.models)
    jobs = [(ddz.Game(ddz.DOUZERO, seed=s), [short] * 3) for s in (1, 2)]
    with pytest.raises(ValueError, match="act_games gave 1 codes for 2 games"):
        list(play_games(jobs, tables=2))
