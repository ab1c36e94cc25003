"""Test configuration: hypothesis profiles and shared fixtures."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile("thorough", max_examples=3000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD"


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261130)


@pytest.fixture
def core_flags() -> Iterator[int]:
    """The solver core's flags as the test starts (``ddz._core.solver._get_flags()``): the
    flags, the rounds (``_set_rounds``), the farmer-alone games in the tree
    (``_set_lone_tree``), the three-seat cutoff's cards (``_set_etc_cards``) and the static
    memo (``_set_memo``) are set back as they were after the test, whatever it switched
    (the tests that check a shortcut against the search without it)."""
    from ddz._core import solver as core

    flags, rounds, memo = core._get_flags(), core._get_rounds(), core._get_memo()
    lone_tree, etc_cards = core._get_lone_tree(), core._get_etc_cards()
    try:
        yield flags
    finally:
        core._set_flags(flags)
        core._set_rounds(*rounds)
        core._set_lone_tree(*lone_tree)
        core._set_etc_cards(etc_cards)
        core._set_memo(memo)


@pytest.fixture
def switch_often() -> Iterator[None]:
    """Threads switch every microsecond, so that races in thread tests show."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)
