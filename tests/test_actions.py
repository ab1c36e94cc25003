"""Fixed action spaces, action indices, legal-action masks and the RLCard id mapping."""

from __future__ import annotations

import gzip
import hashlib
import random
from importlib import resources

import numpy as np
import pytest

import ddz
from ddz.actions import BIDDING_ACTIONS, ActionSpace, rlcard_action_ids
from ddz.rules import PRESETS

# The numbering is part of the contract: a change here breaks every trained model.
DIGESTS = {
    "classic": (12660, "5ac112d85bf101c1"),
    "douzero": (30389, "3d352669961438db"),
    "endgame": (9944, "b9120ec6c3d7d732"),
    "rlcard": (27477, "4dacdb895f1883e4"),
    "two-player": (4947, "279ae6d5bd88a403"),
    "uno-landlord": (12670, "fc878ffcb9129b08"),
}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_numbering_is_fixed(name: str) -> None:
    space = ActionSpace(PRESETS[name])
    digest = hashlib.sha256(space.codes.astype("<u8").tobytes()).hexdigest()[:16]
    assert (space.size, digest) == DIGESTS[name]
    assert PRESETS[name].num_actions == space.size


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_index_round_trips(name: str) -> None:
    rules = PRESETS[name]
    space = ActionSpace(rules)
    assert space.indices(space.codes).tolist() == list(range(space.size))
    assert len(set(space.codes.tolist())) == space.size
    largest = rules.hand_size + rules.kitty_size
    for index in range(1, space.num_moves + 1, 97):
        move = space.action(index)
        assert isinstance(move, ddz.Move) and move.index(rules) == index
        assert ddz.Move.from_index(index, rules) == move
        assert len(move.cards) <= largest and move in ddz.classify(move.cards, rules=rules)
    assert space.action(0) is ddz.PASS
    assert [space.action(space.num_moves + 1 + i) for i in range(5)] == list(BIDDING_ACTIONS)


def test_moves_come_grouped_by_type() -> None:
    space = ActionSpace(ddz.CLASSIC)
    types = [space.action(i).type for i in range(1, space.num_moves + 1)]  # type: ignore[union-attr]
    assert types == sorted(types)
    assert str(space.action(1)) == "3" and space.index("XD") == space.num_moves


def test_unknown_actions_are_rejected() -> None:
    space = ActionSpace(ddz.CLASSIC)
    with pytest.raises(ValueError, match="not in the action space"):
        space.index("33344455")  # two equal single wings: not a classic move
    with pytest.raises(ValueError, match="is no action"):
        space.index("zz")
    for index in (space.size, -1):  # ValueError, as UNO's action space and every range
        with pytest.raises(ValueError, match=r"outside 0\.\.12659") as caught:
            space.action(index)
        assert not isinstance(caught.value, IndexError)
        with pytest.raises(ValueError, match="outside"):
            ddz.Move.from_index(index, ddz.CLASSIC)
    with pytest.raises(ValueError, match="a bidding action"):
        ddz.Move.from_index(space.size - 1, ddz.CLASSIC)


@pytest.mark.parametrize("name", ["classic", "two-player", "uno-landlord", "douzero"])
def test_legal_masks_are_the_legal_actions(name: str) -> None:
    rules = PRESETS[name]
    space = ActionSpace(rules)
    rng = random.Random(5)
    for seed in range(40):
        game = ddz.Game(rules, seed=seed)
        while True:
            mask = game.legal_action_mask()
            legal = game.legal_actions()
            assert mask.dtype == np.bool_ and mask.shape == (space.size,)
            assert sorted(mask.nonzero()[0].tolist()) == sorted(space.index(a) for a in legal)
            assert np.array_equal(mask, space.mask(legal))
            if game.is_over:
                assert not mask.any()
                break
            game.push(space.action(int(rng.choice(mask.nonzero()[0]))))


def test_rlcard_ids_are_rlcards_table() -> None:
    shipped = (
        gzip.decompress(resources.files("ddz").joinpath("data/rlcard_actions.txt.gz").read_bytes())
        .decode()
        .split()
    )
    assert len(shipped) == 27472 and shipped[-1] == "pass"
    ids = rlcard_action_ids()
    space = ActionSpace(ddz.RLCARD)
    assert sorted(ids[ids >= 0].tolist()) == list(range(27472))
    assert (ids < 0).sum() == len(BIDDING_ACTIONS)
    for index in range(0, space.num_moves + 1, 53):
        action = space.action(index)
        text = "pass" if index == 0 else str(action.cards)  # type: ignore[union-attr]
        assert shipped[ids[index]] == text.replace("X", "B").replace("D", "R")
