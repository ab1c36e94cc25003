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
def switch_often() -> Iterator[None]:
    """Threads switch every microsecond, so that races in thread tests show."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)
