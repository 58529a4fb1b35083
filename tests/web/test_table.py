"""The table's interactions in a real browser: an illegal click shows the engine's reason
(the server's ``illegal_move`` message, word for word), undo under the server's rule, the
connection status and automatic reconnection when the server restarts, the hint, and the
replay viewer stepping back and forth to the right board."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Server
from web_helpers import (
    create,
    new_page,
    no_script_errors,
    play_action_by_clicks,
    record_of,
    running_server,
    shot,
    version,
    wait_turn_or_over,
    wait_version_above,
)

from quadropolis import GameRecord
from quadropolis.moves import Move
from quadropolis.render import tile_label
from quadropolis.rules import apply_unchecked, new_game


def vs_bot(server: Server, mode: str = "classic") -> dict[str, Any]:
    return create(
        server, mode=mode, players=2, name="Ann", seats=[{"type": "human"}, {"type": "bot", "level": "easy"}]
    )


def reach_build(page: Any) -> None:
    """Play by clicks until this page must build a building it took (a lit square exists)."""
    for _ in range(60):
        if wait_turn_or_over(page) == "place" and page.locator(".cell-eligible").count():
            return
        play_action_by_clicks(page)
    raise AssertionError("no build came up")


def test_an_illegal_click_shows_the_engines_reason(server: Server, browser: Any) -> None:
    created = vs_bot(server)
    token = created["seats"][0]["token"]
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["link"])
    reach_build(page)
    square = page.locator(".cell-ineligible.cell-empty").first.get_attribute("data-square")
    before = version(page)
    page.locator(f'.cell-ineligible[data-square="{square}"]').click(force=True)
    notice = page.get_by_test_id("notice")
    notice.wait_for()
    # The same move sent over HTTP: the page shows the server's reason, word for word.
    reply = httpx.post(
        f"{server.url}/api/games/{created['game']}/moves",
        json={"seat": 0, "version": before, "move": square},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert reply.status_code == 422 and reply.json()["code"] == "illegal_move"
    reason = reply.json()["message"]
    assert notice.inner_text() == f"Not allowed: {reason}"
    assert re.search(r"\(R\d+\)", reason)
    assert notice.get_attribute("role") == "alert"
    assert version(page) == before
    shot(page, "illegal-move-laptop")
    no_script_errors(page)


def test_undo_takes_back_a_take(server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + vs_bot(server)["seats"][0]["link"])
    reach_build(page)
    play_action_by_clicks(page)  # the build: the bot answers at once, nothing to undo then
    reach_build(page)  # a fresh take of ours, no one has acted since
    used = page.locator(".slot-used").count()
    undo = page.get_by_role("button", name=re.compile("^Undo"))
    assert undo.is_enabled()
    before = version(page)
    undo.click()
    wait_version_above(page, before)
    assert wait_turn_or_over(page) == "take"
    assert page.locator(".slot-used").count() == used - 1
    assert "takes back" in page.locator(".log-list li").first.inner_text()
    assert page.get_by_role("button", name=re.compile("^Undo")).is_disabled()
    no_script_errors(page)


def test_the_table_reconnects_when_the_server_comes_back(tmp_path: Path, browser: Any) -> None:
    with running_server(tmp_path) as server:
        created = vs_bot(server)
        page = new_page(browser)
        page.goto(server.url + created["seats"][0]["link"])
        assert wait_turn_or_over(page) == "take"
        page.get_by_test_id("connection").filter(has_text="Connected").wait_for()
        server.kill()
        page.get_by_test_id("connection").filter(has_text=re.compile("Reconnecting|Offline")).wait_for()
        shot(page, "reconnecting-laptop")
        server.launch().wait_ready()  # same port, same database
        page.get_by_test_id("connection").filter(has_text="Connected").wait_for(timeout=30_000)
        play_action_by_clicks(page)  # and the game carries on
        no_script_errors(page)


def test_the_hint_shows_what_hard_would_play(server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + vs_bot(server)["seats"][0]["link"])
    assert wait_turn_or_over(page) == "take"
    page.get_by_role("button", name=re.compile("^Hint")).click(timeout=5_000)
    first = page.locator(".candidates li").first
    first.wait_for(timeout=120_000)  # the hard bot thinks
    assert re.search(r"\d+%", first.inner_text())
    assert page.locator(".site .hint-badge").count() >= 1
    shot(page, "hint-laptop")
    first.get_by_role("button", name=re.compile("^Play")).click()
    page.wait_for_function("() => document.querySelector('main#main').dataset.version !== '0'")
    no_script_errors(page)


def site_codes(page: Any) -> dict[str, str]:
    """The site as the page draws it: square -> tile code, "##" (face down) or "." (empty)."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.site .square')].map(el => {
            const code = el.querySelector('.tile-code');
            const value = el.querySelector('.tile-back') ? '##' : code ? code.textContent.trim() : '.';
            return [el.dataset.square, value];
        }))"""
    )


def settled_site(page: Any, expected: dict[str, str], seconds: float = 10.0) -> dict[str, str]:
    """The site as drawn once it equals ``expected``, or as drawn after ``seconds``: the move
    counter changes as soon as the scrubber moves, the site when the position has loaded."""
    deadline = time.monotonic() + seconds
    drawn = site_codes(page)
    while drawn != expected and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        drawn = site_codes(page)
    return drawn


def expected_site(record: GameRecord, at: int) -> dict[str, str]:
    state = new_game(record.config)
    for text in record.moves[:at]:
        apply_unchecked(state, Move.parse(text))
    data = state.to_json()
    down = set(data["face_down"])
    out = {}
    for i, tid in enumerate(data["site"]):
        sq = f"r{i // 5 + 1}c{i % 5 + 1}"
        # the page labels tiles as the terminal draws the site (one notation everywhere)
        out[sq] = "." if tid is None else "##" if sq in down else tile_label(tid)
    return out


def test_the_replay_viewer_steps_back_and_forth(server: Server, browser: Any) -> None:
    created = create(server, mode="classic", players=2, take=[], seats=[{"type": "bot", "level": "easy"}] * 2)
    page = new_page(browser)
    page.goto(server.url + created["watch"])
    page.wait_for_selector('main[data-status="over"]', timeout=60_000)
    record = GameRecord.from_json(json.loads(record_of(server, created["game"])))
    page.goto(f"{server.url}/?replay={created['game']}")
    at = page.get_by_test_id("replay-at")
    at.filter(has_text=f"Move {len(record.moves)} of {len(record.moves)}").wait_for()
    target = 17
    page.get_by_test_id("scrubber").fill(str(target))
    at.filter(has_text=f"Move {target} of").wait_for()
    page.wait_for_function("() => !document.querySelector('.move-count .spinner')")
    want = expected_site(record, target)
    assert settled_site(page, want) == want
    page.get_by_test_id("step-forward").click()
    at.filter(has_text=f"Move {target + 1} of").wait_for()
    page.wait_for_function("() => !document.querySelector('.move-count .spinner')")
    want = expected_site(record, target + 1)
    assert settled_site(page, want) == want
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    at.filter(has_text=f"Move {target - 1} of").wait_for()
    page.wait_for_function("() => !document.querySelector('.move-count .spinner')")
    want = expected_site(record, target - 1)
    assert settled_site(page, want) == want
    # A finished game's replay offers the analysis: the hint answers for this position.
    page.get_by_role("button", name="What would hard play here?").click()
    page.locator("section.analysis ol.candidates li.best").wait_for(timeout=60_000)
    assert f"after move {target - 1}" in page.locator("section.analysis .analysis-for").inner_text()
    page.get_by_role("button", name="Round 2").click()
    page.wait_for_function("() => !document.querySelector('.move-count .spinner')")
    assert "Round 2" in page.locator(".turn-banner").inner_text()
    shot(page, "replay-laptop")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "replay-phone", full_page=True)
    no_script_errors(page)
