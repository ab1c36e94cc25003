"""The adversarial suite: inputs an attacker or a careless user would try, each run where a
crash cannot take the test runner down with it.

``isolated(code)`` runs a snippet of Python in a fresh interpreter and fails the test if that
interpreter dies of a signal (segfault, abort, SIGFPE), hangs past its time limit, or exits
non-zero; it returns the snippet's standard output. Snippets print what the test checks.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable

import pytest

IsolatedRunner = Callable[..., str]


def run_isolated(code: str, *, timeout: float = 60.0, env: dict[str, str] | None = None) -> str:
    """Run ``code`` in a new interpreter; its stdout, or a test failure naming how it died."""
    full_env = dict(os.environ)
    full_env.setdefault("PYTHONFAULTHANDLER", "1")
    if env:
        full_env.update(env)
    try:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=full_env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung for more than {timeout} s:\n{textwrap.dedent(code)}")
    if done.returncode < 0:
        name = signal.Signals(-done.returncode).name
        pytest.fail(f"crashed with {name}:\n{textwrap.dedent(code)}\n{done.stderr[-3000:]}")
    if done.returncode != 0:
        pytest.fail(f"exited {done.returncode}:\n{textwrap.dedent(code)}\n{done.stderr[-3000:]}")
    return done.stdout


@pytest.fixture
def isolated() -> IsolatedRunner:
    return run_isolated
