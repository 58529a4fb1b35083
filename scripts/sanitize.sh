#!/usr/bin/env bash
# The compiled engine under AddressSanitizer and UndefinedBehaviorSanitizer: builds the native
# tests and the extension with -fsanitize=address,undefined (UB is fatal) into build/sanitize/
# (its own venv, its own build dirs), runs the native tests, then the differential and
# bad-input pytest tests against that extension, with libasan preloaded into CPython (which is
# not instrumented; leak detection off: CPython keeps memory at exit by design).
#   scripts/sanitize.sh           everything
#   scripts/sanitize.sh --short   CI: the native tests, the bad-input tests, the search tests,
#                                 the batched env's games and the quick differential tests
#                                 (not the 10,000-state and greedy runs)
set -euo pipefail
cd "$(dirname "$0")/.."

SHORT=0
[[ "${1:-}" == "--short" ]] && SHORT=1
ROOT=build/sanitize
PY="${PYTHON:-python3}"
FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"

echo "== native tests (sanitized)"
# CMake takes CXXFLAGS/LDFLAGS from the environment when it first configures a build dir.
export CXXFLAGS="$FLAGS" LDFLAGS="-fsanitize=address,undefined"
BUILD_DIR=$ROOT/native-tests CMAKE_ARGS=-DCMAKE_BUILD_TYPE=RelWithDebInfo scripts/native_tests.sh | tail -3

echo "== extension (sanitized)"
if [[ ! -x $ROOT/venv/bin/python ]]; then
    "$PY" -m venv "$ROOT/venv"
    "$ROOT/venv/bin/pip" install -q scikit-build-core nanobind pytest hypothesis numpy
fi
# numpy: the RL encoder's and the batched env's tests (a venv made before they existed lacks it).
"$ROOT/venv/bin/python" -c "import numpy" 2>/dev/null || "$ROOT/venv/bin/pip" install -q numpy
# Not editable: the tests must import the sanitized build, not the source tree's package.
"$ROOT/venv/bin/pip" install -q --no-deps --no-build-isolation --force-reinstall \
    -C build-dir="$ROOT/extension" -C cmake.build-type=RelWithDebInfo .

echo "== differential, bad-input and search tests (sanitized)"
# libstdc++ preloaded too: ASan intercepts __cxa_throw only if libstdc++ is there when it starts
# (CPython itself does not link it), else the first C++ exception aborts.
PRELOAD="$(${CXX:-g++} -print-file-name=libasan.so) $(${CXX:-g++} -print-file-name=libstdc++.so)"
SELECT=()
[[ $SHORT == 1 ]] && SELECT=(-k "not ten_thousand and not greedy and not random_cities")
# Run from the build dir so that the source tree's package is not on sys.path.
cd "$ROOT"
export LD_PRELOAD="$PRELOAD" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
venv/bin/python -c "import quadropolis._native as n; assert '/build/sanitize/venv/' in n.__file__, n.__file__"
[[ $(ldd venv/lib/python3*/site-packages/quadropolis/_native*.so) == *libasan* ]] || { echo "not sanitized" >&2; exit 1; }
# The tests' helpers (tests/support: no package of ours there) on the path, as pyproject's
# pytest settings put them, which -c /dev/null leaves out.
PYTHONPATH="$(cd ../../tests/support && pwd)" \
venv/bin/python -m pytest -q -p no:cacheprovider --rootdir=../.. -c /dev/null "${SELECT[@]}" \
    ../../tests/native/test_binding.py ../../tests/native/test_differential.py ../../tests/native/test_search.py \
    ../../tests/native/test_observation.py ../../tests/native/test_vector_games.py
echo "sanitize.sh: clean"
