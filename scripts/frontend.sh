#!/usr/bin/env bash
# The browser client (web/) on a fresh machine: installs what it needs and checks it.
#
#   bash scripts/frontend.sh          install (npm ci, Chromium), typecheck, lint, unit tests,
#                                     then rebuild into a temporary directory and compare with
#                                     the committed src/quadropolis/server/static/ (fails if stale)
#   bash scripts/frontend.sh --build  the same, but write the fresh build into the package
#                                     (to commit it) instead of failing on a difference
#
# Needs node >= 20.19 with npm, and for the browser tests Chromium: the Debian package
# (/usr/bin/chromium, or $QUADROPOLIS_CHROMIUM), installed with apt-get when missing. No
# browser is ever downloaded by Playwright.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=check
case "${1:-}" in
  "") ;;
  --build) mode=build ;;
  *) echo "usage: bash scripts/frontend.sh [--build]" >&2; exit 2 ;;
esac

command -v npm >/dev/null 2>&1 || { echo "frontend.sh: node >= 20.19 with npm is needed (https://nodejs.org)" >&2; exit 1; }
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || { echo "frontend.sh: node >= 20.19 is needed (found $(node --version))" >&2; exit 1; }

chromium="${QUADROPOLIS_CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "== installing Chromium (Debian package)"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "frontend.sh: $chromium is missing and apt-get needs root: install the chromium package" >&2
    exit 1
  fi
fi

echo "== npm ci (web/)"
(cd web && npm ci --no-audit --no-fund --loglevel=error)
echo "== tsc --noEmit"
(cd web && npm run --silent typecheck)
echo "== eslint"
(cd web && npm run --silent lint)
echo "== vitest"
(cd web && npm run --silent test)

if [ "$mode" = build ]; then
  echo "== build into src/quadropolis/server/static/"
  (cd web && npm run --silent build)
  exit 0
fi

echo "== build and compare with the committed client"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd web && QUADROPOLIS_WEB_OUT="$tmp/static" npm run --silent build >/dev/null)
if ! diff -r "$tmp/static" src/quadropolis/server/static >/dev/null; then
  diff -rq "$tmp/static" src/quadropolis/server/static >&2 || true
  echo "frontend.sh: src/quadropolis/server/static/ is stale: run 'bash scripts/frontend.sh --build' and commit it" >&2
  exit 1
fi
echo "frontend: ok (the committed client matches web/)"
