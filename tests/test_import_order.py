"""Imports run one way: core < cards < rules < moves < game < actions/observations < agents <
simulation < envs/compat < cli. Every module of the package has a layer here, and a module
imports only from its own layer or below, at module level or inside a function, so no import
circle can come back (a new module must be given a layer in LAYERS to pass).

The few imports that go up (or back) on purpose are listed in UPWARD with why: a method that
hands its object to a renderer of a higher layer (``str(game)``, ``_repr_svg_``), builds a
game from a position, or a command that loads its subcommand's module only when asked for.
They run only when called, and the graph of every other import is checked to hold no circle
at all.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import ddz

PACKAGE = Path(ddz.__file__).parent

CORE, CARDS, RULES, MOVES, GAME, VIEWS, AGENTS, SIMULATION, ENVS, CLI = range(10)

LAYERS = {
    "ddz._core": CORE,
    "ddz.errors": CORE,
    "ddz._records": CORE,  # the record readers' shared field access: errors only
    "ddz.cards": CARDS,
    "ddz.uno.cards": CARDS,
    "ddz.uno.rules": CARDS,
    "ddz.rules": RULES,
    "ddz.moves": MOVES,
    "ddz.batch": MOVES,
    "ddz.position": MOVES,
    "ddz.uno.actions": MOVES,  # UNO's action value and its numbering: its moves
    "ddz.game": GAME,
    "ddz.uno.game": GAME,
    "ddz.uno.match": GAME,
    "ddz.actions": VIEWS,
    "ddz.records": VIEWS,
    "ddz.render": VIEWS,
    "ddz.prompt": VIEWS,  # the terminal games' move prompt: a game, its errors, render's lists
    "ddz.svg": VIEWS,
    "ddz.worlds": VIEWS,
    "ddz.solver": VIEWS,
    "ddz.uno.records": VIEWS,
    "ddz.uno.render": VIEWS,
    "ddz.uno.svg": VIEWS,
    "ddz.agents": AGENTS,
    "ddz.search_agents": AGENTS,
    "ddz.uno.agents": AGENTS,
    "ddz.simulation": SIMULATION,
    "ddz.arena": SIMULATION,
    "ddz.testing": SIMULATION,
    "ddz.distributed": SIMULATION,
    "ddz.uno.simulate": SIMULATION,
    "ddz.uno.vector": SIMULATION,
    "ddz.uno": SIMULATION,  # the package's __init__ gathers the UNO modules
    "ddz.envs": ENVS,
    "ddz.compat": ENVS,
    "ddz.cli": CLI,
    "ddz.solver_cli": CLI,
    "ddz.uno.cli": CLI,
    "ddz.web": CLI,
    "ddz": CLI,  # the package's __init__ gathers the public names
    "ddz.__main__": CLI,
}
"""The layer of each module; a name stands for its package's modules unless listed itself."""

UPWARD = {
    ("ddz.cards", "ddz.svg"): "Cards._repr_svg_ draws with ddz.svg",
    ("ddz.game", "ddz.render"): "str(game) is ddz.render's table",
    ("ddz.game", "ddz.svg"): "Game._repr_svg_ draws with ddz.svg",
    ("ddz.game", "ddz.records"): "Game/Observation to_dict, from_json, view are ddz.records'",
    ("ddz.cli", "ddz.uno.cli"): "`ddz uno` loads ddz.uno.cli (built on ddz.cli) when asked for",
    ("ddz.position", "ddz.game"): "Position.game() starts a Game at the position",
    ("ddz.uno.cards", "ddz.uno.svg"): "Card._repr_svg_ draws with ddz.uno.svg",
    ("ddz.uno.actions", "ddz.uno.svg"): "Action._repr_svg_ draws with ddz.uno.svg",
    ("ddz.uno.game", "ddz.uno.render"): "str(game) is ddz.uno.render's table",
    ("ddz.uno.game", "ddz.uno.svg"): "Game._repr_svg_ draws with ddz.uno.svg",
    ("ddz.uno.game", "ddz.uno.records"): "Game/Observation records are ddz.uno.records'",
    ("ddz.uno.game", "ddz.records"): "seat names are read as ddz.records.seat_of reads them",
}
"""Imports inside a method that go to a higher layer on purpose, and why."""


def module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        names[name] = path
    return names


def layer_of(name: str) -> int:
    while name not in LAYERS:
        assert "." in name, f"{name} has no layer in LAYERS"
        name = name.rsplit(".", 1)[0]
    return LAYERS[name]


def imports_of(name: str, path: Path, known: set[str]) -> list[tuple[str, bool]]:
    """(module imported, inside a function) for every ddz import that runs (imports under
    ``if TYPE_CHECKING:`` never do)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other, lazy)
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, lazy) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - child.level + 1]
                    module = ".".join(base + ([child.module] if child.module else []))
                else:
                    module = child.module or ""
                for alias in child.names:  # "from ddz import uno" imports a module
                    full = f"{module}.{alias.name}"
                    found.append((full if full in known else module, lazy))
            visit(child, lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(path.read_text()), False)
    return [(m, lazy) for m, lazy in found if m.split(".")[0] == "ddz" and m != name]


def test_every_import_runs_down_the_layers() -> None:
    names = module_names()
    wrong = []
    for name, path in sorted(names.items()):
        for imported, lazy in imports_of(name, path, set(names)):
            if layer_of(imported) <= layer_of(name):
                continue
            if lazy and (name, imported) in UPWARD:
                continue
            where = "inside a function" if lazy else "at module level"
            wrong.append(f"{name} imports {imported} {where}")
    assert not wrong, "imports that go up the layers:\n" + "\n".join(wrong)


def test_no_import_circle() -> None:
    names = module_names()
    graph = {
        name: {
            imported
            for imported, lazy in imports_of(name, path, set(names))
            if not (lazy and (name, imported) in UPWARD)
        }
        for name, path in names.items()
    }
    done: set[str] = set()
    stack: list[str] = []

    def walk(name: str) -> None:
        if name in stack:
            circle = [*stack[stack.index(name) :], name]
            pytest.fail("an import circle: " + " -> ".join(circle))
        if name in done or name not in graph:
            return
        stack.append(name)
        for imported in sorted(graph[name]):
            if imported.startswith(name + "."):
                continue  # a package importing its own modules
            walk(imported)
        stack.pop()
        done.add(name)

    for name in sorted(graph):
        walk(name)


def test_the_upward_imports_still_exist() -> None:
    names = module_names()
    lazy = {
        (name, imported)
        for name, path in names.items()
        for imported, is_lazy in imports_of(name, path, set(names))
        if is_lazy
    }
    assert set(UPWARD) <= lazy, f"no longer needed, drop them: {set(UPWARD) - lazy}"


@pytest.mark.parametrize("name", ["ddz.actions", "ddz.envs", "ddz.uno.vector", "ddz.rules"])
def test_each_module_imports_alone(name: str) -> None:
    """The old circles' members import first, each in a fresh interpreter."""
    subprocess.run([sys.executable, "-c", f"import {name}"], check=True)
