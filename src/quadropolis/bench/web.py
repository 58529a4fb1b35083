"""Browser client figures (``quadropolis bench web``), measured in a real browser (Chromium,
driven by Playwright) against a real server process on loopback:

* **table load**: from navigation start to the first drawn table of a running game (a seat
  link opened in a fresh browser context: nothing cached), by the page's own clock
  (``performance.now()``);
* **click to updated table**: from a click on a slot or a square (the page's event time) to
  the first animation frame after the table shows the new version pushed by the server
  (the move is sent over the websocket, stored, pushed back and drawn).

Each run plays Classic 2-player games against an ``easy`` bot (it answers at once, so a
bot's thinking is never inside a measurement: only this player's own moves are timed).
Figures are the median over runs of each run's median and 95th percentile, in milliseconds.

Needs the ``web`` extra, the ``playwright`` package and Chromium: the Debian package at
``/usr/bin/chromium`` or ``$QUADROPOLIS_CHROMIUM`` (Playwright's own browser download is
never used). Run alone: ``python -m quadropolis.bench.web [--loads N] [--clicks N]``."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from .report import QUICK, Report, Workload
from .server import server_process
from .services import CHROMIUM_ENV, chromium, chromium_path

#: In the page: resolves with performance.now() at the first frame showing the table with
#: its tiles drawn.
_TABLE_DRAWN = """() => new Promise(resolve => {
  const check = () => document.querySelector('main#main[data-version] .site .tile')
    ? requestAnimationFrame(() => resolve(performance.now()))
    : requestAnimationFrame(check);
  check();
})"""

#: In the page: arms a timer started by the next click, stopped at the first frame after the
#: table's version changes; window.__clickTimes collects the durations (ms).
_ARM = """() => {
  window.__clickTimes = window.__clickTimes || [];
  const main = document.querySelector('main#main');
  const before = main.dataset.version;
  document.addEventListener('click', (ev) => {
    const start = ev.timeStamp;
    const watch = new MutationObserver(() => {
      const now = document.querySelector('main#main');
      if (now && now.dataset.version !== before) {
        watch.disconnect();
        requestAnimationFrame(() => window.__clickTimes.push(performance.now() - start));
      }
    });
    const what = {subtree: true, childList: true, attributes: true, attributeFilter: ['data-version']};
    watch.observe(document.body, what);
  }, {capture: true, once: true});
}"""


def _chromium() -> str:
    path = chromium_path()
    if not Path(path).is_file():
        raise RuntimeError(
            f"bench web needs Chromium at {path} (apt-get install chromium, or set ${CHROMIUM_ENV})"
        )
    return path


def _create_game(base: str) -> str:
    """A Classic 2-player game against an easy bot; returns the player's seat link."""
    body = json.dumps(
        {
            "mode": "classic",
            "players": 2,
            "name": "Bench",
            "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
        }
    ).encode()
    request = urllib.request.Request(
        f"{base}/api/games", data=body, headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=15) as reply:
        created: dict[str, Any] = json.loads(reply.read())
    return f"{base}{created['seats'][0]['link']}"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def _one_action(page: Any) -> bool:
    """Click once for this player's turn (a lit slot, a lit square, or Discard), timed in the
    page. Returns False once the game is over."""
    page.wait_for_selector('main[data-acting="true"], main[data-status="over"]', timeout=30_000)
    main = page.locator("main#main")
    if main.get_attribute("data-status") == "over":
        return False
    before = int(main.get_attribute("data-version") or 0)
    page.evaluate(_ARM)
    if main.get_attribute("data-phase") == "take":
        page.locator(".slot-legal").first.click()
    elif page.locator(".cell-eligible").count():
        page.locator(".cell-eligible").first.click()
    else:
        page.locator(".pending button.btn").first.click()
    page.wait_for_function(
        "v => Number(document.querySelector('main#main').dataset.version) > v", arg=before, timeout=30_000
    )
    return True


def measure(base: str, loads: int, clicks: int) -> tuple[list[float], list[float]]:
    """(table load times, click-to-updated-table times), in milliseconds."""
    load_times: list[float] = []
    click_times: list[float] = []
    with chromium(_chromium()) as browser:
        for _ in range(loads):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.goto(_create_game(base), wait_until="commit")
            load_times.append(float(page.evaluate(_TABLE_DRAWN)))
            context.close()
        while len(click_times) < clicks:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.goto(_create_game(base))
            page.wait_for_selector("main#main[data-version]")
            while len(click_times) < clicks and _one_action(page):
                page.wait_for_function("n => window.__clickTimes.length >= n", arg=1)
                click_times.extend(float(t) for t in page.evaluate("window.__clickTimes.splice(0)"))
            context.close()
    return load_times, click_times


def _settings(quick: bool) -> tuple[int, int]:
    return (3, 10) if quick else (20, 100)


#: figure key -> (report key, label)
LABELS: dict[str, tuple[str, str]] = {
    "load50": ("web_table_load_median", "browser: table load, median"),
    "load95": ("web_table_load_p95", "browser: table load, p95"),
    "click50": ("web_click_to_table_median", "browser: click to updated table, median"),
    "click95": ("web_click_to_table_p95", "browser: click to updated table, p95"),
}


def _runs(repeat: int, loads: int, clicks: int) -> dict[str, float]:
    """Each figure's median over ``repeat`` runs, each in a fresh server and database."""
    runs: dict[str, list[float]] = {k: [] for k in LABELS}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            database = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
            with server_process(database, Path(tmp) / "server.log") as server:
                load_times, click_times = measure(server.url, loads, clicks)
        runs["load50"].append(statistics.median(load_times))
        runs["load95"].append(_percentile(load_times, 0.95))
        runs["click50"].append(statistics.median(click_times))
        runs["click95"].append(_percentile(click_times, 0.95))
    return {k: statistics.median(v) for k, v in runs.items()}


def run(report: Report, repeat: int, work: Workload) -> None:
    """The section: ``repeat`` runs (see the module docstring)."""
    loads, clicks = _settings(work == QUICK)
    for key, value in _runs(repeat, loads, clicks).items():
        name, label = LABELS[key]
        report(name, value, "ms", label)


def main(argv: list[str] | None = None) -> int:
    """``python -m quadropolis.bench.web``: the section alone."""
    p = argparse.ArgumentParser(prog="python -m quadropolis.bench.web", description=__doc__.split("\n\n")[0])
    p.add_argument("--loads", type=int, default=20, help="table loads per run (default 20)")
    p.add_argument("--clicks", type=int, default=100, help="timed clicks per run (default 100)")
    p.add_argument(
        "--repeat", type=int, default=1, help="runs; each figure is the median over runs (default 1)"
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    args = p.parse_args(argv)
    if min(args.loads, args.clicks, args.repeat) < 1:
        p.error("--loads, --clicks and --repeat must be at least 1")
    figures: dict[str, Any] = {}
    for key, value in _runs(args.repeat, args.loads, args.clicks).items():
        name, label = LABELS[key]
        figures[name] = {"value": round(value, 2), "unit": "ms"}
        if not args.json:
            print(f"{label:<44} {value:>9.1f} ms", flush=True)
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
