"""Run the examples in every docstring of the installed package."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ddz

MODULES = sorted(
    {"ddz"}
    | {info.name for info in pkgutil.walk_packages(ddz.__path__, "ddz.")}
    - {"ddz.__main__"}  # importing it runs the command line
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


def test_the_tests_import_the_installed_package() -> None:
    # The compiled core exists only in an installed build: a source-tree import would fail.
    from ddz._core import moves

    assert moves.__file__.endswith((".so", ".pyd"))
