"""The compiled modules' stubs (``ddz/_core/*.pyi``) name only what the modules have.

Type checkers read the stubs, users read them in their editors: a name in a stub that the
compiled module lacks type-checks and then fails at run time. Every class, function and
module attribute of a stub, and every method, property and attribute of its classes, must
exist on the compiled module. Names a stub makes for typing alone (``Protocol`` classes,
aliases) start with an underscore at module level and are not looked for.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import ddz
import ddz._core

CORE = Path(ddz.__file__).parent / "_core"
STUBS = sorted(CORE.glob("*.pyi"))


def stub_names(tree: ast.Module) -> list[tuple[str, list[str]]]:
    """(module-level name, the names its class body declares) for each public stub entry."""
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            name = node.name
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
        else:
            continue
        if name.startswith("_"):
            continue
        members = []
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef):
                    members.append(member.name)
                elif isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name):
                    members.append(member.target.id)
        names.append((name, members))
    return names


def test_every_compiled_module_has_a_stub() -> None:
    compiled = set()
    for info in pkgutil.iter_modules(ddz._core.__path__):
        spec = importlib.util.find_spec(f"ddz._core.{info.name}")
        if spec is not None and spec.origin and spec.origin.endswith((".so", ".pyd")):
            compiled.add(info.name)
    assert compiled, "no compiled module found"
    assert compiled == {stub.stem for stub in STUBS}


@pytest.mark.parametrize("stub", STUBS, ids=lambda path: path.stem)
def test_the_stub_names_only_what_the_module_has(stub: Path) -> None:
    module = importlib.import_module(f"ddz._core.{stub.stem}")
    missing = []
    for name, members in stub_names(ast.parse(stub.read_text())):
        if not hasattr(module, name):
            missing.append(name)
            continue
        owner = getattr(module, name)
        missing += [f"{name}.{member}" for member in members if not hasattr(owner, member)]
    assert not missing, f"{stub.name} names what ddz._core.{stub.stem} lacks: {missing}"
