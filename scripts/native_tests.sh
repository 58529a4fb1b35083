#!/usr/bin/env bash
# Configure, build and run the native engine's own tests (native/tests) with CMake and CTest.
# The test program needs no Python; the build runs native/gen_tables.py with a Python >= 3.11
# (the venv's if there is one). CMake: the system's, else the venv's pip-installed `cmake`.
#   scripts/native_tests.sh            build dir: build/native-tests
#   BUILD_DIR=/tmp/x scripts/native_tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BUILD_DIR:-build/native-tests}
if [[ -x .venv/bin/python ]]; then PYTHON=${PYTHON:-.venv/bin/python}; else PYTHON=${PYTHON:-python3}; fi

if command -v cmake >/dev/null 2>&1; then
    CMAKE=cmake CTEST=ctest
else
    "$PYTHON" -m pip install -q cmake
    BIN=$(dirname "$("$PYTHON" -c 'import sys; print(sys.executable)')")
    CMAKE="$BIN/cmake" CTEST="$BIN/ctest"
fi
GENERATOR=()
if command -v ninja >/dev/null 2>&1; then GENERATOR=(-G Ninja); fi

"$CMAKE" -S native -B "$BUILD_DIR" "${GENERATOR[@]}" -DQUADROPOLIS_BUILD_TESTS=ON \
    -DQUADROPOLIS_BUILD_PYTHON=OFF -DPython_EXECUTABLE="$("$PYTHON" -c 'import sys; print(sys.executable)')" ${CMAKE_ARGS:-} >/dev/null
"$CMAKE" --build "$BUILD_DIR" -j 2
cd "$BUILD_DIR" && "$CTEST" --output-on-failure
