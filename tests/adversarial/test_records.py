"""Game records attacked: every field of the Dou Dizhu JSON and text records and the UNO game
and match records deleted, retyped, mutated; text that is not JSON, nested too deeply, too
long. A record either replays or raises ``ddz.RecordError`` (a ``ValueError``) that names
the field or the action at fault: never ``KeyError``, ``TypeError``, ``AttributeError``,
``IndexError`` or ``RecursionError`` from inside.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ddz
from ddz import RecordError, uno
from ddz.errors import MAX_RECORD
from ddz.records import game_from_view


def _ddz_game() -> ddz.Game:
    game = ddz.Game(seed=5)
    rng = random.Random(1)
    for _ in range(30):
        if game.is_over:
            break
        game.step(rng.choice(game.legal_actions()))
    return game


def _uno_game() -> uno.Game:
    game = uno.Game(3, seed=7)
    rng = random.Random(2)
    for _ in range(40):
        game.step(rng.choice(game.legal_actions()))
    return game


def _uno_dealt() -> uno.Game:
    game = uno.Game(2, seed=3, deal=uno.Deal(["R1 R2 G5", "G3 B7"], "B4", rest="discard"))
    game.step(game.legal_actions()[0])
    return game


def _uno_match() -> uno.Match:
    match = uno.Match(2, seed=4, rules=uno.LOMBARDY.replace(target_score=30))
    rng = random.Random(3)
    for _ in range(300):
        if match.is_over:
            break
        match.step(rng.choice(match.legal_actions()))
    return match


def _ddz_position_view() -> str:
    game = ddz.Game(seed=9)
    while game.phase == "bidding":
        game.step(game.legal_actions()[-1])
    for _ in range(3):
        game.step(game.legal_actions()[0])
    started = game.position().game()
    for _ in range(2):
        started.step(started.legal_actions()[0])
    return started.to_json(seat=1)


RECORDS: dict[str, tuple[str, Callable[[str], object]]] = {
    "ddz json": (_ddz_game().to_json(), ddz.Game.from_json),
    "ddz view": (_ddz_game().to_json(seat=0), game_from_view),
    "ddz position view": (_ddz_position_view(), game_from_view),
    "ddz observation": (_ddz_game().observation(1).to_json(), ddz.Observation.from_json),
    "uno game json": (_uno_game().to_json(), uno.Game.from_json),
    "uno dealt json": (_uno_dealt().to_json(), uno.Game.from_json),
    "uno match json": (_uno_match().to_json(), uno.Match.from_json),
    "uno observation": (_uno_game().observation(2).to_json(), uno.Observation.from_json),
}
WRITE_AGAIN: dict[str, Callable[[Any], str]] = {
    "ddz view": lambda game: game.to_json(seat=0),
    "ddz position view": lambda game: game.to_json(seat=1),
}
"""How a record is written again from what it read (default: ``to_json()``)."""
TEXT_RECORD = _ddz_game().record()

JSON_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    3,
    2**64,
    2**70,
    1.5,
    float("nan"),
    "",
    "x",
    "3" * 5000,
    [],
    [1],
    ["play R7"],
    {},
    {"a": 1},
    [[[[[]]]]],
]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _load(name: str, text: str) -> None:
    read = RECORDS[name][1]
    try:
        read(text)
    except RecordError as error:
        assert isinstance(error, ValueError)
        assert len(str(error)) < 400, str(error)[:500]
        # inside a well-formed JSON object every fault has a place: a field, an action
        assert error.field is not None or error.ply is not None, str(error)
        return


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value: keys of objects, indices of lists."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):
            found += _paths(item, (*path, index))
    return found


def _set(data: Any, path: tuple[Any, ...], value: Any, delete: bool = False) -> Any:
    if not path:
        return value
    target = data
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_the_records_replay(name: str) -> None:
    text, read = RECORDS[name]
    write = WRITE_AGAIN.get(name, lambda value: value.to_json())
    assert write(read(text)) == text


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_every_field_deleted_or_retyped(name: str) -> None:
    text = RECORDS[name][0]
    original = json.loads(text)
    tried = 0
    for path in _paths(original)[1:]:
        for value in [*JSON_VALUES, "delete"]:
            data = json.loads(text)
            _load(name, json.dumps(_set(data, path, value, delete=value == "delete")))
            tried += 1
    assert tried > 100


@pytest.mark.parametrize("name", sorted(RECORDS))
@given(data=st.data())
def test_random_mutations(name: str, data: st.DataObject) -> None:
    text = RECORDS[name][0]
    record = json.loads(text)
    path = data.draw(st.sampled_from(_paths(record)[1:]))
    _load(name, json.dumps(_set(record, path, data.draw(JSON))))


@pytest.mark.parametrize("name", sorted(RECORDS))
@pytest.mark.parametrize(
    "text",
    [
        "",
        "null",
        "[]",
        "3",
        '"x"',
        "{",
        "[" * 100_000,
        '{"a":' * 100_000,
        "\x00",
        " " * (MAX_RECORD + 1),
        '{"format": "ddz-game/1"}',
        '{"format": "ddz-uno-game/1"}',
        '{"format": "ddz-uno-match/1"}',
        '{"format": "ddz-view/1"}',
        '{"format": "ddz-observation/1"}',
        '{"format": ["ddz-game/1"]}',
    ],
)
def test_text_that_is_no_record(name: str, text: str) -> None:
    with pytest.raises(RecordError):
        RECORDS[name][1](text)


@pytest.mark.parametrize("name", sorted(RECORDS))
@pytest.mark.parametrize("value", [None, 3, b"\xff\xfe", ["{}"]])
def test_values_that_are_no_text(name: str, value: object) -> None:
    with pytest.raises(RecordError):
        RECORDS[name][1](value)  # type: ignore[arg-type]


def test_errors_name_the_field_and_the_action() -> None:
    data = json.loads(RECORDS["ddz json"][0])
    data["actions"][4] = "bid 7"
    with pytest.raises(RecordError, match="action 5, field 'actions'") as caught:
        ddz.Game.from_json(json.dumps(data))
    assert caught.value.ply == 5 and caught.value.field == "actions"
    data = json.loads(RECORDS["ddz json"][0])
    data["rules"]["four_with_two"] = "false"
    with pytest.raises(RecordError, match="four_with_two is True or False") as caught:
        ddz.Game.from_json(json.dumps(data))
    assert caught.value.field == "rules"
    data = json.loads(RECORDS["ddz json"][0])
    del data["seed"]
    with pytest.raises(RecordError, match="field 'seed': missing"):
        ddz.Game.from_json(json.dumps(data))
    data = json.loads(RECORDS["uno match json"][0])
    data["rounds"][0][2] = "play Z9"
    with pytest.raises(RecordError, match=r"action 3, field 'rounds\[0\]'"):
        uno.Match.from_json(json.dumps(data))
    data = json.loads(RECORDS["uno game json"][0])
    data["players"] = 3.0
    with pytest.raises(RecordError, match="field 'players'"):
        uno.Game.from_json(json.dumps(data))


def test_an_action_that_is_not_text_is_named_by_its_number() -> None:
    # as an unreadable action is: "action 5", the fifth, not "item 4"
    for name in ("ddz json", "ddz view", "uno game json"):
        data = json.loads(RECORDS[name][0])
        data["actions"][4] = 17
        expected = "action 5, field 'actions': 17 is not text"
        with pytest.raises(RecordError, match=expected) as caught:
            RECORDS[name][1](json.dumps(data))
        assert caught.value.ply == 5


def test_a_views_hand_names_its_field_once() -> None:
    data = json.loads(RECORDS["ddz view"][0])
    seat = data["seat"]
    data["hands"][seat] = "3333"
    with pytest.raises(RecordError) as caught:
        RECORDS["ddz view"][1](json.dumps(data))
    assert str(caught.value).count("field 'hands'") == 1, str(caught.value)
    assert caught.value.field == "hands" and "has 4 cards" in str(caught.value)


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("landlord", "delete", "start.landlord"),
        ("landlord", 7, "start.landlord"),
        ("landlord", 1.0, "start.landlord"),
        ("played", 5, "start.played"),
        ("played", ["", "", "Z"], "start.played"),
        ("kitty", "DDDD", "start.kitty"),
    ],
)
def test_a_position_views_start_names_its_field(key: str, value: object, field: str) -> None:
    data = json.loads(RECORDS["ddz position view"][0])
    if value == "delete":
        del data["start"][key]
    else:
        data["start"][key] = value
    with pytest.raises(RecordError) as caught:
        RECORDS["ddz position view"][1](json.dumps(data))
    assert caught.value.field == field, str(caught.value)
    assert str(caught.value).count("field ") == 1, str(caught.value)


def test_text_records_line_by_line() -> None:
    lines = TEXT_RECORD.splitlines()
    assert ddz.Game.from_record(TEXT_RECORD).record() == TEXT_RECORD
    replacements = [
        "",
        "x",
        "hand",
        "hand 9 33",
        "hand -1 3",
        "hand 0",
        "seed",
        "seed -1",
        "seed 1e9",
        "seed " + "9" * 30,
        "seed \uff19",
        "first 7",
        "first",
        "rules classic2",
        "rules {",
        "rules " + "[" * 50_000,
        'rules {"players": 2.5}',
        "kitty ZZ",
        "result void deal",
        "0 bid 9",
        "99999999999999999999999 pass",
        "1 33kd",
        "0",
        "²",
    ]
    tried = 0
    for index in range(len(lines)):
        variants = [
            lines[:index] + lines[index + 1 :],
            [*lines[:index], lines[index], *lines[index:]],
        ]
        variants += [[*lines[:index], r, *lines[index + 1 :]] for r in replacements]
        for variant in variants:
            tried += 1
            try:
                ddz.Game.from_record("\n".join(variant))
            except RecordError as error:
                assert error.field is not None or error.ply is not None, str(error)
    assert tried > 500
    with pytest.raises(RecordError):
        ddz.Game.from_record("3" * (MAX_RECORD + 1))
    with pytest.raises(RecordError):
        ddz.Game.from_record(None)  # type: ignore[arg-type]


@given(st.text(max_size=300))
def test_arbitrary_text_records(text: str) -> None:
    with contextlib.suppress(RecordError):
        ddz.Game.from_record(text)
    with contextlib.suppress(RecordError):
        ddz.Game.from_record(TEXT_RECORD + text)
