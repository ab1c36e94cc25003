"""What the sdist and the wheel hold (docs/release.md).

CI installs the *sdist* (``.ci/run``): pip builds a wheel from it and installs that, so the
installed package is the wheel's contents. The sdist is built here with the build backend's
own hook (a second or two), when scikit-build-core is installed (it is in the test extra).
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import ddz

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(ddz.__file__).resolve().parent


def test_the_installed_package_holds_stubs_and_data_and_no_sources() -> None:
    files = {path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*")}
    assert not [name for name in files if name.endswith((".pyx", ".pxd", ".c", ".cpp"))]
    assert "py.typed" in files
    compiled = sorted(
        path.name.split(".")[0]
        for path in (PACKAGE / "_core").iterdir()
        if path.suffix in (".so", ".pyd")
    )
    assert compiled, "the core is compiled"
    for name in compiled:
        assert f"_core/{name}.pyi" in files, f"no stub for the compiled module {name}"
    assert "data/rlcard_actions.txt.gz" in files
    assert "web/static/index.html" in files


def source_files() -> set[str]:
    """Every file a build from the checkout reads: the package's sources, stubs and data,
    the build scripts, and the tests' data."""
    found = {"CMakeLists.txt", "pyproject.toml", "README.md"}
    for top in ("src", "tests", "docs"):
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".so":
                found.add(path.relative_to(ROOT).as_posix())
    return found


def test_the_sdist_holds_everything_a_build_and_the_tests_need(tmp_path: Path) -> None:
    pytest.importorskip("scikit_build_core", reason="the build backend is in the test extra")
    if not (ROOT / "CMakeLists.txt").exists():
        pytest.skip("not run from a checkout")
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from scikit_build_core.build import build_sdist; "
            "print(build_sdist(sys.argv[1]))",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    name = result.stdout.split()[-1]
    with tarfile.open(tmp_path / name) as sdist:
        members = {member.split("/", 1)[1] for member in sdist.getnames() if "/" in member}
    missing = sorted(source_files() - members)
    assert not missing, f"the sdist lacks {missing[:10]}"
    for suffix in (".pyx", ".pxd", ".pyi"):
        assert any(member.endswith(suffix) for member in members)
    assert not [member for member in members if member.endswith((".so", ".pyd", ".c"))]
