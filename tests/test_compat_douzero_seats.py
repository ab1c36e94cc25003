"""ddz.compat.douzero's seat features (SeatEncoder, seat_observation) against DouZero 1.1.0's
own game: ddz games are played beside DouZero's ``GameEnv`` dealt the same hands, and at every
decision of the card play DouZero's ``get_obs`` of its infoset (which holds the real hands) is
compared, array for array, with the features written from the ddz seat's observation alone.

The moves are drawn among all of ddz's legal actions under ``ddz.DOUZERO`` (whose readings of
a multiset DouZero does not all give), so some histories hold a move DouZero's game does not
allow where it was played; DouZero's own legal actions at that ply (real hands) say which, and
from there on the seat is refused (status 1), as DouZero's game cannot have reached it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import ddz
from ddz._core.douzero import DouzeroSeats
from ddz._core.moves import CARDS_MASK
from ddz.agents import GreedyAgent
from ddz.compat.douzero import (
    NO_CODE,
    POSITIONS,
    SEAT_STATUS,
    SEVERAL_CODES,
    SeatEncoder,
    action_for,
    action_for_mask,
    seat_observation,
)
from ddz.doudizhu.rules import PRESETS

from .test_compat_douzero import assert_same_obs, peer, skewed_deal

VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
GAMES = 30  # seeded games and skewed deals: about 2,500 decisions compared with get_obs
SKEWED = 40


def cards_of(values: list[int]) -> ddz.Cards:
    return ddz.Cards.from_counts([values.count(value) for value in VALUES])


def values_of(cards: ddz.Cards) -> list[int]:
    return [v for v, n in zip(VALUES, cards.counts(), strict=True) for _ in range(n)]


class Scripted:
    """A DouZero player that plays the moves it is given (DouZero's step does not check
    them: the test does)."""

    def __init__(self) -> None:
        self.next: list[int] = []

    def act(self, infoset: Any) -> list[int]:
        return self.next


def douzero_beside(game: ddz.Game) -> tuple[Any, dict[str, Scripted], list[str]]:
    """DouZero's GameEnv dealt ``game``'s hands (in its card play), its players, and the
    DouZero position of each ddz seat."""
    from douzero.env.game import GameEnv

    landlord = game.landlord
    assert landlord is not None and game.phase == "play"
    names = ["landlord", "landlord_down", "landlord_up"]
    position = [names[(seat - landlord) % 3] for seat in range(3)]
    players = {p: Scripted() for p in POSITIONS}
    env = GameEnv(players)
    deal = {position[seat]: values_of(game.hands[seat]) for seat in range(3)}
    deal["three_landlord_cards"] = values_of(game.kitty)
    env.card_play_init(deal)
    return env, players, position


def pick(seen: ddz.Observation, douzeros: list[list[int]], rng: random.Random) -> Any:
    """Mostly uniform over ddz's legal actions; often a reading of a multiset other than
    DouZero's where there are several, and an answer to it DouZero's game does not allow
    (``douzeros``: its legal actions there) where there is one; sometimes the longest move
    (planes, chains with kickers)."""
    legal = seen.legal_actions
    foreign = [a for a in legal if a.cards and values_of(a.cards) not in douzeros]
    if foreign and rng.random() < 0.7:
        return rng.choice(foreign)
    cards = Counter(action.cards for action in legal if action.cards)
    readings = [action for action in legal if action.cards and cards[action.cards] > 1]
    if readings and rng.random() < 0.7:
        others = [a for a in readings if a != action_for(seen, values_of(a.cards))]
        return rng.choice(others or readings)
    if rng.random() < 0.25:
        return max(legal, key=lambda action: len(action.cards) if action.cards else 0)
    return rng.choice(legal)


def games(rng: random.Random) -> Iterator[ddz.Game]:
    """Seeded DouZero games (every fourth one bid for by points), then deals of a deck only
    locally shuffled (bombs, planes and chains, where readings differ), in the card play."""
    for number in range(GAMES):
        rules = ddz.DOUZERO.replace(bidding="points") if number % 4 == 3 else ddz.DOUZERO
        game = ddz.Game(rules, seed=500 + number)
        while game.phase == "bidding":
            game.step(GreedyAgent().act(game.observation(game.current_player)))
        if game.phase == "play":
            yield game
    for number in range(SKEWED):
        deal = skewed_deal(rng)
        landlord = number % 3
        hands = [ddz.Cards()] * 3
        kitty = cards_of(deal["three_landlord_cards"])
        hands[landlord] = cards_of(deal["landlord"]) - kitty
        hands[(landlord + 1) % 3] = cards_of(deal["landlord_down"])
        hands[(landlord + 2) % 3] = cards_of(deal["landlord_up"])
        yield ddz.Game(
            ddz.DOUZERO.replace(bidding="random"), deal=(hands, kitty), first_player=landlord
        )


def test_features_are_douzeros_get_obs_at_every_decision() -> None:
    env_module = peer()
    rng = random.Random(21)
    compared = refused = 0
    encoder = SeatEncoder()
    for game in games(rng):
        env, players, position = douzero_beside(game)
        allowed = True  # every move so far was among DouZero's legal actions
        seen_batch: list[ddz.Observation] = []
        while not game.is_over:
            seat = game.current_player
            assert seat is not None and env.acting_player_position == position[seat]
            seen = game.observation(seat)
            infoset = env.game_infoset
            if allowed:
                assert_same_obs(env_module.get_obs(infoset), seat_observation(seen))
                compared += 1
            else:
                with pytest.raises(ValueError, match="DouZero's rules do not allow a move"):
                    seat_observation(seen)
                refused += 1
            seen_batch.append(seen)
            action = pick(seen, infoset.legal_actions, rng)
            cards = values_of(action.cards) if action.cards else []
            allowed = allowed and cards in infoset.legal_actions
            players[position[seat]].next = cards
            game.step(action)
            env.step()
        # the batch form: the same features, every decision of the game in one call
        features = encoder.encode(seen_batch)
        for index, seen in enumerate(seen_batch):
            status = int(features.status[index])
            try:
                alone = seat_observation(seen)
            except ValueError:
                assert status == 1
                continue
            assert status == 0
            group = features.groups[int(features.position[index])]
            slot = int(np.searchsorted(group.tables, index))
            rows = slice(int(group.offsets[slot]), int(group.offsets[slot + 1]))
            assert group.position == alone["position"]
            assert np.array_equal(group.x_no_action[slot], alone["x_no_action"])
            assert np.array_equal(group.z[slot], alone["z"])
            assert np.array_equal(group.action_rows[rows], alone["x_batch"][:, -54:])
            assert (group.row_slot[rows] == slot).all()
            assert int(features.legal_count[index]) == len(alone["legal_actions"])
            assert int(features.row_start[index]) == rows.start
            moves = features.moves[int(features.position[index])][rows]
            for mask, cards in zip(moves.tolist(), alone["legal_actions"], strict=True):
                assert action_for_mask(seen, mask) == action_for(seen, cards)
    assert compared > 2000 and refused > 10


def test_what_is_not_a_seat_of_douzeros_card_play_is_refused() -> None:
    encoder = SeatEncoder()
    game = ddz.Game(ddz.DOUZERO.replace(bidding="points"), seed=3)
    bidding = game.observation(game.current_player)  # type: ignore[arg-type]
    while game.phase == "bidding":
        game.step(GreedyAgent().act(game.observation(game.current_player)))
    seat = game.current_player
    assert seat is not None
    seen = game.observation(seat)
    waiting = game.observation((seat + 1) % 3)
    lean = game.observation(seat, history=False)
    game.step(seen.legal_actions[0])
    nxt = game.observation(game.current_player)  # type: ignore[arg-type]
    lean_later = game.observation(game.current_player, history=False)  # type: ignore[arg-type]
    two = ddz.Game(ddz.TWO_PLAYER.replace(bidding="random"), seed=5)
    views = [seen, bidding, waiting, lean, nxt, lean_later]
    if two.phase == "play":
        views.append(two.observation(two.current_player))  # type: ignore[arg-type]
    features = encoder.encode(views)
    status = [SEAT_STATUS[k] for k in features.status.tolist()]
    assert status[0] == "written" and status[4] == "written"
    assert status[1] == "not its turn" and status[2] == "not its turn"
    assert status[3] == "written"  # the first move: no history to leave out
    assert status[5] == "not DouZero's deal"  # moves played, none in the history
    assert all(s == "not DouZero's deal" for s in status[6:])
    assert features.legal_count.tolist()[1:3] == [0, 0]
    with pytest.raises(ValueError, match="history=False"):
        seat_observation(lean_later)
    with pytest.raises(ValueError, match="turn"):
        seat_observation(waiting)
    with pytest.raises(TypeError):
        seat_observation(game)  # type: ignore[arg-type]
    assert encoder.encode([]).status.size == 0


def test_the_core_refuses_views_that_do_not_fit_whatever_their_fields() -> None:
    # views with random fields (masks with Skip and Reverse digits or counts a deck cannot
    # hold, histories longer than any game, counts and seats out of range): each refused
    # with a status, none read out of bounds
    rng = np.random.default_rng(7)

    def cards(mask: int) -> SimpleNamespace:
        return SimpleNamespace(mask=mask)

    def record(code: int, phase: str = "play") -> SimpleNamespace:
        return SimpleNamespace(phase=phase, action=SimpleNamespace(code=code))

    views: list[Any] = [None]
    for _ in range(300):
        landlord, player = (int(k) for k in rng.integers(-1, 4, 2))
        views.append(
            SimpleNamespace(
                phase="play",
                landlord=landlord,
                player=player,
                current_player=player,
                direction=1,
                card_counts=tuple(int(k) for k in rng.integers(0, 25, 3)),
                hand=cards(int(rng.integers(0, 2**51)) & CARDS_MASK),
                played=tuple(cards(int(k)) for k in rng.integers(0, 2**20, 3)),
                history=[
                    record(int(k), "play" if k % 5 else "bidding")
                    for k in rng.integers(0, 2**12, int(rng.integers(0, 400)))
                ],
            )
        )
    position, status, count, _, groups = DouzeroSeats().observe(views)
    assert set(status.tolist()) <= {1, 2, 3} and not count.any() and not position.any()
    assert all(group[0].size == 0 and group[4].size == 0 for group in groups)
    with pytest.raises(AttributeError):
        DouzeroSeats().observe([SimpleNamespace(card_counts=(17, 17, 20))])


def test_a_view_that_calls_the_core_again_while_read_is_refused() -> None:
    # reading a view may run Python code (a property here): a second call into the same
    # core meanwhile (another thread's, or this one's) is refused, never run on its seats
    core = DouzeroSeats()

    class Reentrant:
        phase, direction = "play", 1

        @property
        def card_counts(self) -> tuple[int, ...]:
            core.observe([None])
            return (17, 17, 20)

    with pytest.raises(RuntimeError, match="in use"):
        core.observe([Reentrant()])
    assert core.observe([None])[1].tolist() == [2]  # and usable again afterwards


def test_features_read_from_the_games_are_the_observations() -> None:
    # encode_games reads the seat to act straight from each game: at every decision of
    # varied games (refused histories, several readings of a multiset, bidding) it gives
    # what encode gives the seat's observation, one legal action aside (status 4 and its
    # code), and each row's code is the action action_for_mask gives for its cards
    rng = random.Random(33)
    encoder, observed = SeatEncoder(), SeatEncoder()
    checked = {"written": 0, "refused": 0, "one": 0, "several": 0, "bidding": 0}
    for number, game in enumerate(games(rng)):
        if number % 3:
            continue  # a third of the games: the cases below all come up
        states = [ddz.Game(ddz.DOUZERO.replace(bidding="points"), seed=number)]
        while not game.is_over:
            states.append(game.copy())
            seen = game.observation(game.current_player)  # type: ignore[arg-type]
            try:
                douzeros = seat_observation(seen)["legal_actions"]
            except ValueError:
                douzeros = []
            game.step(pick(seen, douzeros, rng))
        views = [state.observation(state.current_player) for state in states]  # type: ignore[arg-type]
        mine = encoder.encode_games(states)
        theirs = observed.encode(views)
        for index, (state, seen) in enumerate(zip(states, views, strict=True)):
            status = int(mine.status[index])
            if state.phase != "play":
                assert status == 3
                checked["bidding"] += 1
                continue
            if len(seen.legal_actions) == 1:
                assert status == 4 and int(mine.single[index]) == seen.legal_actions[0].code
                checked["one"] += 1
                continue
            assert status == int(theirs.status[index])
            if status:
                checked["refused"] += 1
                continue
            checked["written"] += 1
            p = int(mine.position[index])
            assert p == int(theirs.position[index])
            assert int(mine.legal_count[index]) == int(theirs.legal_count[index])
            a, b = mine.groups[p], theirs.groups[p]
            slot_a = int(np.searchsorted(a.tables, index))
            slot_b = int(np.searchsorted(b.tables, index))
            rows_a = slice(int(a.offsets[slot_a]), int(a.offsets[slot_a + 1]))
            rows_b = slice(int(b.offsets[slot_b]), int(b.offsets[slot_b + 1]))
            assert int(mine.row_start[index]) == rows_a.start
            assert np.array_equal(a.x_no_action[slot_a], b.x_no_action[slot_b])
            assert np.array_equal(a.z[slot_a], b.z[slot_b])
            assert np.array_equal(a.action_rows[rows_a], b.action_rows[rows_b])
            assert (a.row_slot[rows_a] == slot_a).all()
            masks = mine.moves[p][rows_a].tolist()
            assert masks == theirs.moves[p][rows_b].tolist()
            for mask, code in zip(masks, mine.codes[p][rows_a].tolist(), strict=True):
                found = [m for m in seen.legal_actions if m.code & CARDS_MASK == mask]
                if not found:
                    assert code == NO_CODE
                elif len(found) > 1 and mask:
                    assert code == SEVERAL_CODES
                    checked["several"] += 1
                else:
                    assert code == action_for_mask(seen, mask).code
    assert min(checked.values()) > 10, checked


def test_encode_games_takes_games_only() -> None:
    encoder = SeatEncoder()
    with pytest.raises(TypeError, match="ddz Games"):
        encoder.encode_games([ddz.Game(ddz.DOUZERO, seed=1), "game"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="GameCore"):
        DouzeroSeats().observe_games([SimpleNamespace(phase="play")])
    assert encoder.encode_games([]).status.size == 0
    over = ddz.Game(ddz.DOUZERO, seed=2)
    while not over.is_over:
        over.step(over.legal_actions()[-1])
    assert encoder.encode_games([over]).status.tolist() == [3]


def test_encode_games_takes_any_rules_games_without_fault() -> None:
    # every preset's games (two seats, Uno the Landlord's Skip and Reverse, other decks), at
    # every ply: a status for each, features where (only where) the seat's observation gets
    # them
    rng = random.Random(9)
    encoder = SeatEncoder()
    for name, rules in PRESETS.items():
        states = []
        for seed in range(3):
            game = ddz.Game(rules, seed=seed)
            while not game.is_over:
                states.append(game.copy())
                game.step(rng.choice(game.legal_actions()))
            states.append(game)
        features = encoder.encode_games(states)
        assert set(features.status.tolist()) <= {0, 1, 2, 3, 4}, name
        asked = [
            index
            for index, state in enumerate(states)
            if state.phase == "play" and len(state.legal_actions()) > 1
        ]
        seen = [states[k].observation(states[k].current_player) for k in asked]  # type: ignore[arg-type]
        written = (SeatEncoder().encode(seen).status == 0).tolist()
        assert (features.status[asked] == 0).tolist() == written, name
        assert (features.status == 0).sum() == sum(written), name
        assert any(written) == (name in ("classic", "douzero", "rlcard")), name
