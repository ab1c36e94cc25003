"""The portable inlines of the core (issue 9: GCC 14 refused ``ddz_lemire``'s pointer types,
and ``unsigned __int128`` / ``__builtin_ctzll`` kept MSVC out).

The C of the bit scans (``layout.pxd``) and of the 64 x 64 -> 128-bit multiply (``rng.pxd``)
is cut out of the sources and compiled twice with the machine's C compiler and GCC 14's
error defaults: once as the build uses it (builtins, ``__int128``) and once with
``DDZ_PORTABLE_C``, the plain-C fallbacks a compiler without them gets. Both must compile
cleanly and give exactly Python's answers on the same inputs.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "src" / "ddz" / "_core"
STRICT = [
    "-std=c99",
    "-Wall",
    "-Werror",
    "-Werror=incompatible-pointer-types",
    "-Werror=implicit-function-declaration",
    "-Werror=int-conversion",
]

HARNESS = r"""
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>
%s
%s
int main(void) {
    unsigned long long x, n;
    while (scanf("%%llu %%llu", &x, &n) == 2) {
        uint64_t low, high = ddz_lemire((uint64_t)x, (uint64_t)n, &low);
        printf("%%" PRIu64 " %%" PRIu64 " %%d %%d %%d\n", high, low,
               ddz_ctz64(x | (1ULL << 63)), ddz_clz64(x | 1), ddz_ctz32((unsigned)x | 0x80000000u));
    }
    return 0;
}
"""


def _c_block(pxd: str, marker: str) -> str:
    """The C text of the ``cdef extern from *`` block of ``pxd`` that defines ``marker``."""
    text = (CORE / pxd).read_text()
    for block in re.findall(r'cdef extern from \*:\n    """\n(.*?)    """', text, re.S):
        if marker in block:
            return block
    raise AssertionError(f"no C block defining {marker} in {pxd}")


def _compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    return None


@pytest.mark.parametrize("portable", [False, True], ids=["builtins", "plain-c"])
def test_inlines_compile_strictly_and_agree_with_python(tmp_path: Path, portable: bool) -> None:
    compiler = _compiler()
    if compiler is None:
        pytest.skip("no C compiler")
    source = tmp_path / "inlines.c"
    inlines = (_c_block("layout.pxd", "ddz_ctz64"), _c_block("rng.pxd", "ddz_lemire"))
    source.write_text(HARNESS % inlines)
    binary = tmp_path / "inlines"
    flags = STRICT + (["-DDDZ_PORTABLE_C"] if portable else [])
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}  # (the sanitizer run's)
    built = subprocess.run(
        [compiler, *flags, "-O1", str(source), "-o", str(binary)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    rng = random.Random(9)
    edges = [0, 1, 2, 3, 2**31, 2**32 - 1, 2**32, 2**63, 2**64 - 1]
    pairs = [(x, n) for x in edges for n in edges]
    pairs += [(rng.getrandbits(64), rng.getrandbits(rng.choice([8, 32, 64]))) for _ in range(2000)]
    run = subprocess.run(
        [str(binary)],
        input="".join(f"{x} {n}\n" for x, n in pairs),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert len(lines) == len(pairs)
    for (x, n), line in zip(pairs, lines, strict=True):
        high, low, ctz64, clz64, ctz32 = map(int, line.split())
        product = x * n
        assert (high, low) == (product >> 64, product & (2**64 - 1)), (x, n)
        wide = x | (1 << 63)
        assert ctz64 == (wide & -wide).bit_length() - 1
        assert clz64 == 64 - (x | 1).bit_length()
        narrow = (x & 0xFFFFFFFF) | 0x80000000
        assert ctz32 == (narrow & -narrow).bit_length() - 1
