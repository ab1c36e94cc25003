#!/usr/bin/env bash
# The sanitizer run (docs/safety.md): build ddz with -fsanitize=address,undefined
# (DDZ_SANITIZE=ON) into a throwaway virtual environment, then run the adversarial tests, the
# thread tests, the core's own tests, the solver's and the search agents' under AddressSanitizer and UndefinedBehaviorSanitizer. Any finding aborts
# the process that made it, so a green run is a clean run.
#
#   bash tools/sanitize.sh [extra pytest arguments]
#
# Needs GCC or Clang with their sanitizer runtimes (Debian: gcc's libasan and libubsan come
# with it). Takes a few minutes: the build compiles every core module without the cache.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python="${PYTHON:-python3}"
cc="${CC:-gcc}"

asan="$("$cc" -print-file-name=libasan.so)"
ubsan="$("$cc" -print-file-name=libubsan.so)"
if [[ ! -e "$asan" || ! -e "$ubsan" ]]; then
    echo "sanitize.sh: $cc has no libasan.so / libubsan.so (install its sanitizer runtimes)" >&2
    exit 2
fi

# A venv that sees the interpreter's packages (numpy, pytest, hypothesis, the build tools
# when present); pip installs whatever is missing.
"$python" -m venv --system-site-packages "$work/venv"
# shellcheck disable=SC1091
source "$work/venv/bin/activate"
isolation=()
if python -c "import scikit_build_core, Cython, cython_cmake" 2>/dev/null; then
    isolation=(--no-build-isolation)
fi
echo "sanitize.sh: building with DDZ_SANITIZE=ON in $work"
DDZ_SANITIZE=ON CC="$cc" python -m pip install --quiet "${isolation[@]}" \
    -Cbuild-dir="$work/build" "$here[test]"

# The runtimes go first in the process (Python itself is not instrumented); leaks are not
# checked (the interpreter keeps memory until exit by design); every other finding aborts.
export LD_PRELOAD="$asan:$ubsan"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PYTHONMALLOC=malloc          # Python's own allocations through malloc: ASan sees them
export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-ci}"
cd "$work"                           # import the installed build, not the source tree
python -c "import ddz, ddz._core.game; print('sanitize.sh: testing', ddz.__file__)"
tests=(adversarial test_threads.py test_game.py test_moves.py test_batch.py test_simulation.py
       test_state_key.py test_positions.py test_worlds.py test_uno_engine.py test_uno_vector.py
       test_solver.py test_solver_positions.py test_search_agents.py test_observation_vector.py
       test_compat_douzero.py test_compat_douzero_vector.py)
python -m pytest -p no:cacheprovider -q --rootdir="$here" -c "$here/pyproject.toml" \
    "${tests[@]/#/$here/tests/}" "$@"
echo "sanitize.sh: clean"
