"""The layout of docs/architecture.md: the documented public paths re-export the modules where
the code lives, and hold no code of their own; every game package has the same roles."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import ddz

PACKAGE = Path(ddz.__file__).parent

PUBLIC_PATHS = {
    "errors": "ddz.base.errors",
    "game": "ddz.doudizhu.game",
    "records": "ddz.doudizhu.records",
    "rules": "ddz.doudizhu.rules",
    "svg": "ddz.doudizhu.svg",
    "render": "ddz.doudizhu.render",
    "batch": "ddz.doudizhu.batch",
    "actions": "ddz.doudizhu.action_space",
    "perft": "ddz.doudizhu.perft",
    "agents": "ddz.play.agents",
    "search_agents": "ddz.play.search_agents",
    "arena": "ddz.play.arena",
    "simulation": "ddz.play.simulation",
    "distributed": "ddz.play.distributed",
    "testing": "ddz.play.testing",
}
"""Each documented public path and the module its code lives in."""


def test_the_top_holds_only_public_paths() -> None:
    modules = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__", "__main__"}
    assert modules == set(PUBLIC_PATHS)


@pytest.mark.parametrize("name", sorted(PUBLIC_PATHS))
def test_a_public_path_re_exports_and_holds_no_code(name: str) -> None:
    tree = ast.parse((PACKAGE / f"{name}.py").read_text())
    for node in tree.body:
        is_docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        is_all = isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__"
        assert is_docstring or is_all or isinstance(node, ast.ImportFrom), ast.unparse(node)
    public = importlib.import_module(f"ddz.{name}")
    home = importlib.import_module(PUBLIC_PATHS[name])
    assert public.__all__, name
    for attribute in public.__all__:
        value = getattr(public, attribute)
        assert getattr(home, attribute, value) is value, attribute
    assert PUBLIC_PATHS[name] in (public.__doc__ or "")


def test_the_games_have_the_same_roles() -> None:
    roles = {"cards", "rules", "actions", "observation", "records", "game", "render", "svg"}
    for game in ("doudizhu", "uno"):
        files = {path.stem for path in (PACKAGE / game).glob("*.py")}
        assert roles <= files, (game, roles - files)


def test_errors_are_named_by_their_public_path() -> None:
    assert ddz.IllegalMoveError.__module__ == "ddz.errors"
    assert ddz.RecordError.__module__ == "ddz.errors"
