"""The UNO core against the plain reference, and invariants over many random rounds."""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

from ddz import IllegalMoveError, RecordError, uno
from ddz.uno import CARDS, DECK, LOMBARDY, STANDARD, Rules
from tests.uno_reference import Reference, SplitMix

SWITCHES = ("stacking", "jump_in", "call_out", "no_finish_on_wild_draw_four", "reshuffle")
DECK_COUNTS = Counter(DECK)


def random_rules(rng: random.Random) -> Rules:
    return Rules(**{name: rng.random() < 0.5 for name in SWITCHES})


def summary(game: uno.Game) -> dict[str, object]:
    return {
        "hands": [[card.kind for card in hand] for hand in game.hands],
        "draw": [card.kind for card in game.draw_pile],
        "discard": [card.kind for card in game.discard_pile],
        "colour": game.colour,
        "direction": game.direction,
        "current": game.current_player,
        "pending": game.pending,
        "drawn": game.drawn,
        "uno": game.uno_player,
        "jumper": game.jump_in_player,
        "winner": game.winner,
        "blocked": game.is_blocked,
    }


def choose(game: uno.Game, rng: random.Random) -> uno.Action:
    """A random action: mostly plays (so rounds end), sometimes a draw or a wrong jump-in."""
    actions = game.legal_actions()
    if game.rules.jump_in and rng.random() < 0.03:
        player = rng.randrange(game.players)
        hand = game.hand(player)
        if player != game.current_player and hand:
            card = rng.choice(hand)
            return uno.Action.play(player, card, "red" if card.is_wild else None)
    plays = [a for a in actions if a.kind not in ("draw", "keep")]
    if plays and rng.random() < 0.8:
        return rng.choice(plays)
    return rng.choice(actions)


def run_against_reference(game: uno.Game, reference: Reference, rng: random.Random) -> int:
    steps = 0
    while True:
        assert {str(a) for a in game.legal_actions()} == reference.legal()
        assert summary(game) == reference.summary()
        if game.is_over or steps >= 250:
            return steps
        action = choose(game, rng)
        game.step(action)
        reference.step(action)
        steps += 1


def test_seeded_rounds_match_the_reference() -> None:
    rng = random.Random(1)
    steps = 0
    for index in range(100):
        rules = random_rules(rng)
        players = rng.randint(2, 10)
        dealer = rng.randrange(players)
        game = uno.Game(players, seed=index, rules=rules, dealer=dealer)
        steps += run_against_reference(game, Reference.seeded(rules, players, dealer, index), rng)
    assert steps > 5000


def test_arranged_rounds_match_the_reference() -> None:
    """Small hands and a short draw pile: reshuffles, blocked rounds and catches are common."""
    rng = random.Random(2)
    for index in range(60):
        rules = random_rules(rng)
        players = rng.randint(2, 6)
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(rng.randint(1, 4))] for _ in range(players)]
        pile = [deck.pop() for _ in range(rng.randint(1, 5))]
        if all(card == CARDS[53] for card in pile):
            pile.append(CARDS[0] if CARDS[0] in deck else CARDS[1])
            deck.remove(pile[-1])
        deal = uno.Deal(hands, pile, rest=rng.choice(("draw", "discard")))
        game = uno.Game(players, seed=index, rules=rules, deal=deal)
        kinds_hands, draw, discard = deal.arrange(index)
        reference = Reference(
            rules,
            players - 1,
            SplitMix(index),
            [[CARDS[k] for k in hand] for hand in kinds_hands],
            [CARDS[k] for k in draw],
            [CARDS[k] for k in discard],
        )
        run_against_reference(game, reference, rng)


def random_round(seed: int, rules: Rules, players: int) -> tuple[uno.Game, list[bytes]]:
    """A round played to its end (at most 600 actions) with the states after each action."""
    rng = random.Random(seed)
    game = uno.Game(players, seed=seed, rules=rules)
    states = [game.state_bytes()]
    while not game.is_over and game.ply < 600:
        codes = game.legal_codes()
        plays = [code for code in codes if code & 7 not in (1, 2)]
        game.push_code(rng.choice(plays if plays and rng.random() < 0.85 else codes))
        states.append(game.state_bytes())
    return game, states


@pytest.mark.parametrize("rules", [LOMBARDY, STANDARD], ids=["lombardy", "standard"])
def test_invariants_over_many_rounds(rules: Rules) -> None:
    for seed in range(1000):
        players = 2 + seed % 9
        game, states = random_round(seed, rules, players)
        cards = Counter(game.draw_pile) + Counter(game.discard_pile)
        for hand in game.hands:
            cards.update(hand)
        assert cards == DECK_COUNTS
        assert game.ply == len(states) - 1
        if game.is_over:
            assert game.legal_actions() == []
            assert (game.winner is None) == game.is_blocked
            if game.winner is not None:
                assert game.points()[game.winner] == 0
        if seed % 10 == 0:
            again = uno.Game.from_json(game.to_json())
            assert again.state_bytes() == game.state_bytes()
            assert again.history == game.history
            for state in reversed(states[:-1]):
                game.undo()
                assert game.state_bytes() == state
            with pytest.raises(IndexError):
                game.undo()


def test_determinism_and_copies() -> None:
    one, states = random_round(7, LOMBARDY, 4)
    _, again = random_round(7, LOMBARDY, 4)
    assert states == again
    copy = one.copy()
    copy.undo()
    assert one.state_bytes() == states[-1] and copy.state_bytes() == states[-2]
    assert uno.Game(5, seed=123).state_bytes() == uno.Game(5, seed=123).state_bytes()
    assert uno.Game(5, seed=123).state_bytes() != uno.Game(5, seed=124).state_bytes()
    game = uno.Game(3, seed=5)
    assert game.playout(9) == game.playout(9)
    assert game.ply == 0  # a playout leaves the game as it was


def test_playouts_finish_and_keep_the_deck() -> None:
    for seed in range(200):
        rules = LOMBARDY if seed % 2 else STANDARD
        result = uno.Game(2 + seed % 9, seed=seed, rules=rules).playout(seed, eager=seed % 3 == 0)
        assert (result.winner is None) == result.blocked
        assert result.winner is None or result.points[result.winner] == 0


def test_observation_hides_other_hands_and_the_draw_order() -> None:
    mine = "R1 R2 G5 W"
    one = uno.Game(3, seed=1, deal=uno.Deal([mine, "B1 B2 B3", "Y1 Y2 Y3"], "R5"))
    two = uno.Game(3, seed=2, deal=uno.Deal([mine, "Y4 Y5 Y6", "B4 B5 B6"], "R5"))
    assert one.hands[1:] != two.hands[1:] and one.draw_pile != two.draw_pile
    for game in (one, two):
        game.step("play R1")
    assert one.observation(0) == two.observation(0)
    assert np.array_equal(one.observation(0).encode(), two.observation(0).encode())
    assert one.observation(1) != two.observation(1)  # seat 1's own cards differ


def test_observation_contents() -> None:
    game = uno.Game(4, seed=3)
    observation = game.observation(1)
    assert observation.hand == game.hand(1)
    assert observation.hand_sizes == (7, 7, 7, 7)
    assert observation.draw_pile_size == len(game.draw_pile)
    vector = observation.encode()
    assert vector.shape == (uno.OBSERVATION_SIZE,)
    fields = {}
    offset = 0
    for name, width in uno.OBSERVATION_LAYOUT:
        fields[name] = vector[offset : offset + width]
        offset += width
    assert fields["hand"].sum() == 7 and fields["top"][game.top.kind] == 1
    assert list(fields["hand_sizes"][:4]) == [7, 7, 7, 7] and fields["seats"].sum() == 4
    assert fields["current"][(game.current_player - 1) % 4] == 1  # type: ignore[operator]
    assert fields["draw_pile"][0] == len(game.draw_pile)
    with pytest.raises(ValueError):
        game.observation(4)


def test_only_the_drawer_sees_the_drawn_card() -> None:
    game = uno.Game(3, seed=1, deal=uno.Deal(["Y7 G3", "B3", "B4"], "R5 R8"))
    game.step("draw")
    assert game.observation(0).drawn == uno.Card.parse("R8")
    assert game.observation(1).drawn is None and game.observation(1).deciding


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"2\.\.10 players"):
        uno.Game(11)
    with pytest.raises(ValueError, match="seed"):
        uno.Game(2, seed=-1)
    with pytest.raises(ValueError, match="dealer"):
        uno.Game(2, dealer=2)
    with pytest.raises(ValueError, match="the deal holds 3 R1"):
        uno.Deal(["R1 R1", "R1"])
    with pytest.raises(ValueError, match="every hand"):
        uno.Deal(["R1", ""])
    with pytest.raises(ValueError, match="hands for 3 players"):
        uno.Game(3, deal=uno.Deal(["R1", "R2"]))
    with pytest.raises(ValueError, match="no card at position 3"):
        uno.parse_cards("R1 X9")
    with pytest.raises(ValueError, match="other than a Wild Draw Four"):
        uno.Game(2, deal=uno.Deal(["R1", "R2"], "W+4 W+4 W+4 W+4", rest="discard"))
    with pytest.raises(IllegalMoveError, match="an action is an Action, text or an action index"):
        uno.Game(2, seed=1).step(3.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown UNO rule"):
        Rules.from_dict({"stacking": True, "bluffing": True})
    with pytest.raises(ValueError, match="target_score"):
        Rules(target_score=0)


def test_json_record_is_readable() -> None:
    game = uno.Game(2, seed=4, deal=uno.Deal(["R1 R2", "B1 B2"], "R5 G1"))
    game.step("play R1")
    data = json.loads(game.to_json())
    assert data["format"] == "ddz-uno-game/1"
    assert data["actions"] == ["0: play R1"]
    assert data["deal"]["hands"] == ["R1 R2", "B1 B2"]
    assert uno.Game.from_json(game.to_json()).state_bytes() == game.state_bytes()
    with pytest.raises(ValueError, match="not a ddz UNO game record"):
        uno.Game.from_json("{}")


def test_from_code_is_exact_over_the_whole_code_space() -> None:
    """Every integer below 2**16 (the codes are 15 bits) decodes to the action with exactly
    that code, or is refused with ValueError: no IndexError, no junk bits read away."""
    from ddz.uno import Action
    from ddz.uno import actions as actions_module

    accepted = 0
    for code in range(1 << 16):
        try:
            action = Action.from_code(code)
        except ValueError as error:
            assert "is no action code" in str(error)
            continue
        assert action.code == code
        accepted += 1
    assert accepted == len(actions_module.BY_CODE)
    for code in (-1, 60 << 7, (1 << 15) | 1, 1 << 40):
        with pytest.raises(ValueError, match="is no action code"):
            Action.from_code(code)


def test_legal_actions_in_reads_text() -> None:
    game = uno.Game(seed=1)
    legal = game.legal_actions()
    assert legal == list(legal) and all(action in legal for action in legal)
    for action in legal:
        assert str(action) in legal  # "2: play GS"
        assert str(action).partition(": ")[2] in legal  # "play GS", any player listed
    assert "9: draw" not in legal and "nonsense" not in legal and 3 not in legal
    mine = game.legal_actions(game.current_player)
    assert isinstance(mine, type(legal)) and all(str(a) in mine for a in mine)


def test_a_record_says_how_it_was_dealt() -> None:
    fixed = uno.Game(2, seed=4, deal=uno.Deal(["R1 R2", "B1 B2"], "R5 G1"))
    fixed.step("play R1")
    shuffled = uno.Game(3, seed=4)
    shuffled.step(shuffled.legal_actions()[0])
    for game, dealt in ((fixed, "fixed"), (shuffled, "shuffled")):
        data = json.loads(game.to_json())
        assert data["dealt"] == dealt
        assert uno.Game.from_json(game.to_json()).state_bytes() == game.state_bytes()
    # the deal removed: an error naming the field, never the seed's deal replayed instead
    data = json.loads(fixed.to_json())
    for lost in ({"deal": None}, {}):
        tampered = {k: v for k, v in data.items() if k != "deal"} | lost
        with pytest.raises(RecordError, match=r"field 'deal': .*holds no deal"):
            uno.Game.from_json(json.dumps(tampered))
    # a deal added to a shuffled round, or a word that is no way of dealing
    data = json.loads(shuffled.to_json())
    with pytest.raises(RecordError, match=r"field 'deal': .*holds a deal"):
        uno.Game.from_json(json.dumps(data | {"deal": json.loads(fixed.to_json())["deal"]}))
    with pytest.raises(RecordError, match=r"field 'dealt': 'shuffled' or 'fixed'"):
        uno.Game.from_json(json.dumps(data | {"dealt": "dealt"}))
    # a record written before "dealt": read by its deal alone, as it always was
    old = {k: v for k, v in data.items() if k not in ("dealt", "deal")}
    assert uno.Game.from_json(json.dumps(old)).state_bytes() == shuffled.state_bytes()
    old_fixed = {k: v for k, v in json.loads(fixed.to_json()).items() if k != "dealt"}
    assert uno.Game.from_json(json.dumps(old_fixed)).state_bytes() == fixed.state_bytes()


def _observation_data() -> dict[str, object]:
    game = uno.Game(players=3, seed=14)
    game.step(game.legal_actions()[0])
    data: dict[str, object] = json.loads(game.observation(1).to_json())
    return data


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"hand_sizes": [1] * 11}, "hand_sizes", "2..10 of them, not 11"),
        ({"hand_sizes": [7]}, "hand_sizes", "2..10 of them, not 1"),
        ({"hand_sizes": [7, 7, 10**6]}, "hand_sizes", "counts 0..108"),
        ({"pending": 10**6}, "pending", "a number of cards 0..108"),
        ({"pending": -1}, "pending", "a number of cards 0..108"),
        ({"draw_pile_size": 10**6}, "draw_pile_size", "a number of cards 0..108"),
        ({"direction": 0}, "direction", "1 or -1, not 0"),
        ({"hand": "R7 R7 R7 R7 R7 R1 R2"}, "hand", "5 R7 seen .*the deck holds 2"),
        ({"hand": "R7"}, "hand", "1 cards, but hand_sizes gives player 1 7"),
        ({"draw_pile_size": 3}, "draw_pile_size", "hold .* cards, the deck 108"),
        ({"top": "W"}, "top", "the top card is the discard pile's last"),
        ({"drawn": "W+4"}, "drawn", "not in the hand"),
        ({"pending": 2}, "pending_card", "a pending draw"),
    ],
)
def test_observation_from_json_checks_every_field(
    change: dict[str, object], field: str, message: str
) -> None:
    data = _observation_data()
    uno.Observation.from_json(json.dumps(data))  # as written: read
    with pytest.raises(RecordError, match=f"field '{field}': .*{message}"):
        uno.Observation.from_json(json.dumps(data | change))


def test_observation_discard_pile_counts_with_the_hand() -> None:
    data = _observation_data()
    card = next(c for c in str(data["hand"]).split() if not c.startswith("W"))
    # the discard pile given two more of a card the hand holds: more than the deck's two
    pile = f"{card} {card} {data['discard_pile']}"
    changed = data | {"discard_pile": pile, "draw_pile_size": int(data["draw_pile_size"]) - 2}  # type: ignore[call-overload]
    with pytest.raises(RecordError, match=r"field 'discard_pile': .*seen"):
        uno.Observation.from_json(json.dumps(changed))
