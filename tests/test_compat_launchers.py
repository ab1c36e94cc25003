"""examples/rlcard_on_ddz.py and examples/douzero_train_on_ddz.py put the drop-ins where
RLCard's and DouZero's unchanged training code makes its environments, in the launching
process and in the worker processes the spawn method starts (which run only the top level
of the launching script, as ``__mp_main__``)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# a stand-in for RLCard's example scripts: makes "doudizhu" here and hands it to a spawned
# worker, as RLCard's DMC trainer does; the worker also makes one of its own
SCRIPT = textwrap.dedent(
    """
    import multiprocessing
    import sys

    {register}
    import rlcard


    def kinds(env):
        return type(env).__module__, type(rlcard.make("doudizhu")).__module__


    if __name__ == "__main__":
        env = rlcard.make("doudizhu")
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            print(sys.argv[1:], type(env).__module__, *pool.apply(kinds, (env,)))
    """
)


def run(args: list[str], original: bool) -> str:
    env = dict(os.environ)
    env.pop("DDZ_ORIGINAL", None)
    if original:
        env["DDZ_ORIGINAL"] = "1"
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_rlcard_launcher_runs_scripts_unchanged_on_the_drop_in(tmp_path: Path) -> None:
    pytest.importorskip("rlcard", reason="needs rlcard==1.2.0 (.ci/run installs it)")
    script = tmp_path / "run_example.py"
    script.write_text(SCRIPT.format(register=""))
    launcher = str(EXAMPLES / "rlcard_on_ddz.py")
    ours, theirs = "ddz.compat.rlcard", "rlcard.envs.doudizhu"
    args = [launcher, str(script), "--env", "doudizhu"]
    # the environment the worker is handed is the drop-in; one the worker makes itself is
    # RLCard's: a spawned worker runs the top level of the script, not of the launcher
    assert run(args, original=False) == f"['--env', 'doudizhu'] {ours} {ours} {theirs}"
    assert run(args, original=True) == f"['--env', 'doudizhu'] {theirs} {theirs} {theirs}"


def test_register_at_a_scripts_top_level_reaches_its_workers(tmp_path: Path) -> None:
    pytest.importorskip("rlcard", reason="needs rlcard==1.2.0 (.ci/run installs it)")
    script = tmp_path / "run_example.py"
    line = "import ddz.compat.rlcard; ddz.compat.rlcard.register(replace=True)"
    script.write_text(SCRIPT.format(register=line))
    ours = "ddz.compat.rlcard"
    assert run([str(script), "x"], original=False) == f"['x'] {ours} {ours} {ours}"


def test_douzero_launcher_replaces_env_at_the_top_level() -> None:
    # DouZero's trainer imports torch and GitPython; it is run by hand (docs/compat.md)
    for module in ("douzero", "torch", "git"):
        pytest.importorskip(module, reason="DouZero's trainer needs douzero, torch, GitPython")
    launcher = str(EXAMPLES / "douzero_train_on_ddz.py")
    # what a spawned actor does with the launching script: run its top level only
    probe = (
        "import runpy, douzero.dmc.utils as u; "
        f"runpy.run_path({launcher!r}, run_name='__mp_main__'); "
        "print(u.Env.__module__)"
    )
    assert run(["-c", probe], original=False) == "ddz.compat.douzero"
    assert run(["-c", probe], original=True) == "douzero.env.env"


def compat_examples() -> list[tuple[str, str]]:
    """docs/compat.md's shell examples that run a script of examples/: (command, output)."""
    text = (EXAMPLES.parent / "docs" / "compat.md").read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```text\n(.*?)```", text, re.S):
        for example in re.split(r"(?m)^(?=\$ )", block):
            command, _, output = example.partition("\n")
            if command.startswith("$ ") and "examples/" in command:
                found.append((command[2:], output))
    return found


def test_the_rlcard_examples_of_the_docs_are_self_contained() -> None:
    commands = [command for command, _ in compat_examples()]
    assert any("rlcard_on_ddz.py" in command for command in commands)
    for command in commands:  # every script named is in this repository
        for word in shlex.split(command):
            if word.endswith(".py"):
                assert (EXAMPLES.parent / word).is_file(), word


@pytest.mark.parametrize(
    ("command", "expected"),
    [pytest.param(command, output, id=command) for command, output in compat_examples()],
)
def test_the_rlcard_examples_of_the_docs_run_as_shown(command: str, expected: str) -> None:
    pytest.importorskip("rlcard", reason="needs rlcard==1.2.0 (.ci/run installs it)")
    from tests.test_docs_commands import matches

    words = shlex.split(command)
    original = words[0] == "DDZ_ORIGINAL=1"
    if original:
        words = words[1:]
    assert words[0] == "python", command
    env = dict(os.environ)
    env.pop("DDZ_ORIGINAL", None)
    if original:
        env["DDZ_ORIGINAL"] = "1"
    done = subprocess.run(
        [sys.executable, *words[1:]],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=EXAMPLES.parent,
    )
    assert done.returncode == 0, done.stderr
    assert matches(expected, done.stdout), f"{command}\nprinted:\n{done.stdout}"
