#!/usr/bin/env bash
# The whole test suite from a fresh machine with only Python 3.11+, Debian's packages and the
# package registries: creates .venv, installs the package with its test extras (web, rl, ray,
# plot and the test tools; building the compiled engine), checks the Python code (ruff, mypy
# --strict), runs the compiled engine's own tests and its sanitizer run (scripts/native_tests.sh,
# scripts/sanitize.sh --short; docs/native.md), checks the browser client
# (scripts/frontend.sh: npm ci, Chromium from Debian when missing, tsc, eslint, vitest, and a
# rebuild compared with the committed client), then runs pytest on several processes with a
# throwaway PostgreSQL cluster and Redis server (scripts/services.sh: installed from Debian
# when missing), and beside it the engine-facing tests on the pure-Python engine.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for candidate in python3.11 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then PY="$candidate"; break; fi
  done
fi
[ -n "$PY" ] || { echo "test.sh: no python3 found" >&2; exit 1; }
"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || { echo "test.sh: Python 3.11 or newer is required ($PY is $("$PY" -V 2>&1))" >&2; exit 1; }

# The compiled engine (native/) builds with CMake and Ninja, and an editable install rebuilds it
# on import with the cmake and ninja found on PATH: Debian's packages, installed when missing.
missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]} (Debian packages)"
  if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
  "${SUDO[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install --quiet -e '.[test]'
# The compiled engine must be there: QUADROPOLIS_ENGINE=native refuses to fall back.
QUADROPOLIS_ENGINE=native .venv/bin/python -c 'from quadropolis import engine; engine.current()'

echo "== ruff"
.venv/bin/ruff check src tests examples
.venv/bin/ruff format --check src tests examples
echo "== mypy --strict (package)"
.venv/bin/mypy
echo "== native engine (C++ tests; then ASan/UBSan: native tests, differential and bad-input tests)"
bash scripts/native_tests.sh
bash scripts/sanitize.sh --short
echo "== browser client"
bash scripts/frontend.sh
# pytest on several processes (pytest-xdist; QUADROPOLIS_TEST_WORKERS, default one per core),
# each test file whole on one process, the longest first (tests/conftest.py). The suite runs
# on the compiled engine (QUADROPOLIS_ENGINE=auto finds it); the pure-Python engine stays the
# rules of record and the fallback, so the tests of everything that goes through the engine
# choice (outcomes, playouts, bots, CLI, RL steps) run on it too: at the same time, in a
# process of their own, their output shown after the main run's.
WORKERS="${QUADROPOLIS_TEST_WORKERS:-auto}"
PYTEST=(.venv/bin/python -m pytest -n "$WORKERS" --dist loadfile --no-loadscope-reorder)
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
python_engine=""
if [ $# -eq 0 ]; then
  QUADROPOLIS_ENGINE=python .venv/bin/python -m pytest -p no:cacheprovider --basetemp "$scratch/python" \
    tests/engine/test_outcome.py tests/engine/test_golden.py tests/engine/test_properties.py \
    tests/bots/test_bots.py tests/bots/test_analysis.py tests/cli/test_terminal_play.py \
    tests/cli/test_cli.py tests/cli/test_terminal_screen.py tests/native/test_engine_choice.py \
    tests/envs/test_gym.py tests/envs/test_conformance.py tests/native/test_search.py \
    >"$scratch/python.log" 2>&1 &
  python_engine=$!
fi
echo "== pytest (with PostgreSQL and Redis; $WORKERS processes)"
status=0
bash scripts/services.sh exec "${PYTEST[@]}" --basetemp "$scratch/main" "$@" || status=$?
if [ -n "$python_engine" ]; then
  echo "== pytest on the pure-Python engine (engine-facing tests, run beside the above)"
  python_status=0
  wait "$python_engine" || python_status=$?
  cat "$scratch/python.log"
  [ "$python_status" -eq 0 ] || status=$python_status
fi
exit "$status"
