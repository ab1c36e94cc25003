"""Imports run one way, up the layers of docs/architecture.md: the native core and the
game-independent base at the bottom; each game's package (``ddz.doudizhu``, ``ddz.uno``) with
its cards and rules, then moves and actions, then observations and records (values that never
import a game), then the game, then what draws or searches it; then play (agents, arena,
simulation), environments and drop-ins, and the command line, the web server and the public
paths on top. Every module of the package has a layer here, and a module imports only from its
own layer or below, at module level or inside a function, so no import circle can come back (a
new module must be given a layer in LAYERS to pass). A game never imports another game.

The only imports that go up are the presentation hooks: ``__str__``, ``_repr_svg_`` and
``_repr_html_`` methods handing their object to the game's own renderer, and
``Position.game()``, the shortcut for ``Game.from_position`` (a position is a value below the
game). They run only when called, and the graph of every other import is checked to hold no
circle at all.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import ddz

PACKAGE = Path(ddz.__file__).parent

(CORE, BASE, CARDS, RULES, MOVES, VALUES, GAME, VIEWS, PLAY, ENVS, LEARN, TOP) = range(12)

LAYERS = {
    "ddz._core": CORE,
    "ddz.base": BASE,  # errors, record fields, seats, SVG kit, fan-out, CLI kit, protocol
    "ddz.doudizhu.cards": CARDS,
    "ddz.uno.cards": CARDS,
    "ddz.uno.rules": CARDS,
    "ddz.doudizhu.rules": RULES,
    "ddz.doudizhu.moves": MOVES,
    "ddz.doudizhu.batch": MOVES,
    "ddz.doudizhu.position": MOVES,
    "ddz.doudizhu.actions": MOVES,  # bids, history entries, the core's action tables
    "ddz.uno.actions": MOVES,  # UNO's action value and its numbering
    "ddz.doudizhu.observation": VALUES,
    "ddz.doudizhu.records": VALUES,
    "ddz.uno.observation": VALUES,
    "ddz.uno.records": VALUES,
    "ddz.doudizhu.game": GAME,
    "ddz.uno.game": GAME,
    "ddz.doudizhu.review": VIEWS,  # game review: the solver at every ply of a game
    "ddz.doudizhu": VIEWS,  # the rest of the game: pictures, text, search, learners' tables
    "ddz.uno.render": VIEWS,
    "ddz.uno.svg": VIEWS,
    "ddz.uno.match": VIEWS,
    "ddz.play": PLAY,
    "ddz.uno.agents": PLAY,
    "ddz.uno.simulate": PLAY,
    "ddz.uno.vector": PLAY,
    "ddz.uno": PLAY,  # the package's __init__ gathers the UNO modules
    "ddz.envs": ENVS,
    "ddz.compat": ENVS,
    "ddz.learn": LEARN,  # networks, trainer and agents on the DouZero drop-in (needs torch)
    "ddz.cli": TOP,
    "ddz.web": TOP,
    "ddz": TOP,  # the package's __init__ and the documented public paths (ddz.game, ...)
}
"""The layer of each module; a name stands for its package's modules unless listed itself."""

GAMES = ("ddz.doudizhu", "ddz.uno")

HOOKS = {"__str__", "_repr_svg_", "_repr_html_"}
"""The methods that may import up: presentation, handing the object to its renderer."""

UPWARD = {
    ("ddz.doudizhu.position", "ddz.doudizhu.game"): "Position.game() is Game.from_position",
}
"""Imports inside a method (not a presentation hook) that go up on purpose, and why."""


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


def imports_of(name: str, path: Path, known: set[str]) -> list[tuple[str, str | None]]:
    """(module imported, the function it is imported in or None) for every ddz import that
    runs (imports under ``if TYPE_CHECKING:`` never do)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: list[tuple[str, str | None]] = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other, function)
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - child.level + 1]
                    module = ".".join(base + ([child.module] if child.module else []))
                else:
                    module = child.module or ""
                for alias in child.names:  # "from ddz import uno" imports a module
                    full = f"{module}.{alias.name}"
                    found.append((full if full in known else module, function))
            inner = function
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = function or child.name
            visit(child, inner)

    visit(ast.parse(path.read_text()), None)
    return [(m, f) for m, f in found if m.split(".")[0] == "ddz" and m != name]


def game_of(name: str) -> str | None:
    return next((game for game in GAMES if name == game or name.startswith(game + ".")), None)


def allowed_up(name: str, imported: str, function: str | None) -> bool:
    """Is this upward import a presentation hook of the game's own, or listed in UPWARD?"""
    if function is None:
        return False
    if function in HOOKS and game_of(name) is not None and game_of(imported) == game_of(name):
        return True
    return (name, imported) in UPWARD


def test_every_import_runs_down_the_layers() -> None:
    names = module_names()
    wrong = []
    for name, path in sorted(names.items()):
        for imported, function in imports_of(name, path, set(names)):
            if layer_of(imported) <= layer_of(name) or allowed_up(name, imported, function):
                continue
            where = f"in {function}()" if function else "at module level"
            wrong.append(f"{name} imports {imported} {where}")
    assert not wrong, "imports that go up the layers:\n" + "\n".join(wrong)


def test_a_game_never_imports_another() -> None:
    names = module_names()
    wrong = [
        f"{name} imports {imported}"
        for name, path in sorted(names.items())
        for imported, _ in imports_of(name, path, set(names))
        if game_of(name) and game_of(imported) and game_of(name) != game_of(imported)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_base_imports_no_game() -> None:
    names = module_names()
    wrong = [
        f"{name} imports {imported}"
        for name, path in sorted(names.items())
        if name.startswith("ddz.base")
        for imported, _ in imports_of(name, path, set(names))
        if not (imported.startswith("ddz.base") or imported.startswith("ddz._core"))
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_circle() -> None:
    names = module_names()
    graph = {
        name: {
            imported
            for imported, function in imports_of(name, path, set(names))
            if not (layer_of(imported) > layer_of(name) and allowed_up(name, imported, function))
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
        for imported, function in imports_of(name, path, set(names))
        if function is not None
    }
    assert set(UPWARD) <= lazy, f"no longer needed, drop them: {set(UPWARD) - lazy}"


@pytest.mark.parametrize(
    "name", ["ddz.actions", "ddz.envs", "ddz.uno.vector", "ddz.rules", "ddz.uno.records"]
)
def test_each_module_imports_alone(name: str) -> None:
    """The old circles' members import first, each in a fresh interpreter."""
    subprocess.run([sys.executable, "-c", f"import {name}"], check=True)


def test_uno_loads_no_dou_dizhu_game() -> None:
    """``ddz.uno`` alone loads none of Dou Dizhu's game modules (before, ``ddz.uno.records``
    loaded Dou Dizhu's ``Game`` through ``ddz.records``). ``import ddz.uno`` runs ``ddz``'s
    own ``__init__`` first, so the check reads which modules the UNO package imports."""
    names = module_names()
    reached: set[str] = set()
    todo = [name for name in names if game_of(name) == "ddz.uno"]
    while todo:
        name = todo.pop()
        if name in reached or name not in names:
            continue
        reached.add(name)
        todo += [imported for imported, _ in imports_of(name, names[name], set(names))]
    assert not {name for name in reached if game_of(name) == "ddz.doudizhu"}
