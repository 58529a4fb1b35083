"""What the browser tests share: a real server process (``python -m quadropolis.server`` on a
free loopback port with a fresh SQLite database, from :mod:`server_helpers`), Chromium driven
by Playwright, and small helpers that play through the page by clicks, as a player does.

Chromium is the Debian package (``/usr/bin/chromium``, or ``$QUADROPOLIS_CHROMIUM``), never a
downloaded browser, launched as the browser benchmark launches it
(:mod:`quadropolis.bench.services`); ``scripts/frontend.sh`` installs it. Without it (or without the axe-core
bundle from ``web/node_modules``) a browser test FAILS when ``CI`` is set and is skipped
locally with the reason.

Server features the client needs and the server may not have yet are detected here
(:func:`server_has`), so that the tests depending on them are strict ``xfail`` until the
feature lands, then run normally."""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import GENEROUS, Server

from quadropolis.bench.services import chromium as launch_chromium
from quadropolis.bench.services import chromium_path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
STATIC = ROOT / "src" / "quadropolis" / "server" / "static"
SCREENSHOTS = ROOT / "docs" / "screenshots"
AXE = WEB / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = chromium_path()
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
HINT = "run `bash scripts/frontend.sh` first (npm ci in web/, apt-get install chromium)"


def need(ok: bool, what: str) -> None:
    """Fail under CI, skip locally, when something the test needs is missing."""
    if ok:
        return
    message = f"{what}; {HINT}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


# --- server features ---------------------------------------------------------------------


@functools.cache
def _routes() -> frozenset[str]:
    from quadropolis.server.app import create_app
    from quadropolis.server.settings import Settings

    app = create_app(Settings(database="sqlite://"))
    return frozenset(getattr(r, "path", "") for r in app.routes)


@functools.cache
def _views_source() -> str:
    from quadropolis.server import views

    return inspect.getsource(views)


@functools.cache
def _lists_running_games() -> bool:
    from quadropolis.server.app import create_app
    from quadropolis.server.settings import Settings

    schema = create_app(Settings(database="sqlite://")).openapi()
    for param in schema["paths"]["/api/games"]["get"].get("parameters", []):
        if param.get("name") == "status":
            s = param.get("schema", {})
            pattern, allowed = s.get("pattern"), s.get("enum")
            if allowed is not None:
                return "playing" in allowed
            return pattern is None or re.search(pattern, "playing") is not None
    return False


FEATURES: dict[str, str] = {
    "replay": "POST /api/replay {record, at} -> the view at move `at`",
    "analysis": 'GET /api/games/{id}/analysis and the view field "analysis": true',
    "placements": "the final placement of every city in the view (result.placements or scores[i].placement)",
    "build_options": 'the view field "build_options": [{"move", "score"}] during a build',
    "running_list": "GET /api/games?status=playing (running public games to watch)",
}


def server_has(feature: str) -> bool:
    if feature == "replay":
        return "/api/replay" in _routes()
    if feature == "analysis":
        return "/api/games/{game_id}/analysis" in _routes() and '"analysis"' in _views_source()
    if feature == "placements":
        return "placement" in _views_source()
    if feature == "build_options":
        return "build_options" in _views_source()
    if feature == "running_list":
        return _lists_running_games()
    raise KeyError(feature)


def needs_server(feature: str) -> pytest.MarkDecorator:
    """Strict xfail while the server lacks ``feature``; a normal test once it has it."""
    return pytest.mark.xfail(
        not server_has(feature), reason=f"server feature missing: {FEATURES[feature]}", strict=True
    )


# --- server and browser --------------------------------------------------------------------


@contextlib.contextmanager
def running_server(tmp_path: Path, *args: str) -> Iterator[Server]:
    """A real server on a free loopback port with a fresh SQLite database."""
    need((STATIC / "index.html").is_file(), "the built client is missing from src/quadropolis/server/static")
    server = Server(
        f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path, "--games-per-client", "1000", *GENEROUS, *args
    )
    with server:
        yield server


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """The system's Chromium (:mod:`quadropolis.bench.services`, which the browser benchmark
    launches too), or a skip (a failure under CI) when it is missing."""
    need(Path(CHROMIUM).is_file(), f"Chromium is not installed at {CHROMIUM}")
    with launch_chromium(CHROMIUM) as browser:
        yield browser


def new_page(browser: Any, viewport: dict[str, int] = LAPTOP) -> Any:
    """A page in a fresh context (its own localStorage: its own player), failing the test on
    any uncaught script error."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.set_default_timeout(20_000)
    return page


def no_script_errors(page: Any) -> None:
    assert not page.errors, f"script errors on the page: {page.errors}"


def shot(page: Any, name: str, full_page: bool = False) -> Path:
    """Save a screenshot into docs/screenshots/ (the files the README and the docs show)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.wait_for_timeout(250)  # let the last transition settle
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


# --- the HTTP side, for setting games up and checking results -----------------------------


def create(server: Server, **spec: Any) -> dict[str, Any]:
    r = httpx.post(f"{server.url}/api/games", json=spec, timeout=15)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def record_of(server: Server, game: str) -> str:
    r = httpx.get(f"{server.url}/api/games/{game}/record", timeout=15)
    assert r.status_code == 200, r.text
    return r.text


def replay_scores(record_text: str, tmp_path: Path) -> list[int]:
    """The final scores by ``quadropolis replay --json`` of a record."""
    path = tmp_path / "record.json"
    path.write_text(record_text)
    out = subprocess.run(
        [sys.executable, "-m", "quadropolis", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    data = json.loads(out.stdout.splitlines()[0])
    return [int(s) for s in data["scores"]]


# --- playing through the page ------------------------------------------------------------


def main_attr(page: Any, name: str) -> str:
    return str(page.locator("main#main").get_attribute(f"data-{name}") or "")


def version(page: Any) -> int:
    v = main_attr(page, "version")
    return int(v) if v.isdigit() else -1


def wait_turn_or_over(page: Any, timeout: float = 60_000) -> str:
    """Wait until this page must act or the game is over; returns "take", "place" or "over"."""
    page.wait_for_selector('main[data-acting="true"], main[data-status="over"]', timeout=timeout)
    if main_attr(page, "status") == "over":
        return "over"
    return main_attr(page, "phase")


def wait_version_above(page: Any, v: int, timeout: float = 20_000) -> None:
    page.wait_for_function(
        "v => { const m = document.querySelector('main#main'); return m && Number(m.dataset.version) > v; }",
        arg=v,
        timeout=timeout,
    )


def dismiss_handover(page: Any) -> None:
    """Hotseat: confirm the hand-over screen when it shows."""
    button = page.locator(".handover button")
    if button.count():
        button.click()


def play_action_by_clicks(page: Any) -> str:
    """Play one step of this page's turn with the mouse: the first lit slot (with the selected
    architect), or the first lit square of the city, or Discard. Returns the phase played."""
    phase = wait_turn_or_over(page)
    if phase == "over":
        return phase
    dismiss_handover(page)
    before = version(page)
    if phase == "take":
        page.locator(".slot-legal").first.click()
    else:
        cells = page.locator(".cell-eligible")
        if cells.count():
            cells.first.click()
        else:
            page.get_by_role("button", name=re.compile("^Discard")).click()
    wait_version_above(page, before)
    return phase


def play_to_end(page: Any, max_actions: int = 400) -> None:
    for _ in range(max_actions):
        if play_action_by_clicks(page) == "over":
            return
    raise AssertionError("the game did not end")


def final_scores(page: Any, players: int) -> list[int]:
    page.wait_for_selector('main[data-status="over"]')
    out = []
    for seat in range(players):
        text = page.locator(f'[data-testid="final-{seat}"]').inner_text()
        out.append(int(text.split()[0]))
    return out


def run_axe(page: Any) -> list[dict[str, Any]]:
    """Serious and critical violations found by axe-core (bundled from web/node_modules)."""
    need(AXE.is_file(), "axe-core is not installed in web/node_modules")
    # Evaluated through the browser's debugging protocol: an injected <script> would be inline,
    # which the server's Content-Security-Policy rightly blocks.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"
    )
    return [v for v in result if v["impact"] in ("serious", "critical")]


def wait_until(predicate: Any, timeout: float = 20.0, step: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(step)
