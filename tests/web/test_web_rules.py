"""The rules in the app, in a real browser: the rules page at ``/rules`` lands on a
ruling's heading from its anchor at laptop and phone sizes; a ruling cited by an illegal-move
message is a link that opens the rules page on that ruling; the header and the help dialog
lead to the rules; every tile on the site carries its tooltip from the tile manifest."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Server
from test_table import reach_build, vs_bot
from web_helpers import LAPTOP, PHONE, new_page, no_script_errors, run_axe, shot, wait_turn_or_over

from quadropolis import GameConfig, GameRecord, explain_illegal
from quadropolis.moves import Move
from quadropolis.phases import PLACE
from quadropolis.rules import apply_unchecked, new_game


def _in_view(page: Any, selector: str) -> bool:
    """Whether the element's top is inside the viewport (after the jump to an anchor)."""
    return bool(
        page.evaluate(
            "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
            " return r.top >= 0 && r.top < window.innerHeight; }",
            selector,
        )
    )


def test_rules_anchor_lands_on_the_ruling_at_laptop_and_phone_sizes(server: Server, browser: Any) -> None:
    for viewport, name in ((LAPTOP, "rules-laptop"), (PHONE, "rules-phone")):
        page = new_page(browser, viewport)
        page.goto(server.url + "/rules#r8")
        heading = page.locator("h3#r8")
        heading.wait_for()
        page.wait_for_function("() => window.scrollY > 0")
        assert heading.inner_text().startswith("R8 — Stacking")
        assert _in_view(page, "h3#r8")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        shot(page, name)
        no_script_errors(page)
    page.goto(server.url + "/rules")
    assert page.title() == "Rules — Quadropolis"
    assert run_axe(page) == []


def test_links_inside_the_rules_page_lead_to_their_sections(server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/rules")
    page.locator('#rules p a[href="#r5"]').first.click()
    page.wait_for_function("() => location.hash === '#r5'")
    assert _in_view(page, "h3#r5")
    page.locator('#rules p a[href="#tiles"]').first.click()
    page.wait_for_function("() => location.hash === '#tiles'")
    assert _in_view(page, "#tiles h1")


def test_a_ruling_in_an_error_message_opens_its_explanation(server: Server, browser: Any) -> None:
    created = vs_bot(server)
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["link"])
    reach_build(page)
    square = page.locator(".cell-ineligible.cell-empty").first.get_attribute("data-square")
    page.locator(f'.cell-ineligible[data-square="{square}"]').click(force=True)
    notice = page.get_by_test_id("notice")
    notice.wait_for()
    link = notice.locator("a.ruling-link")
    ruling = link.inner_text()
    assert re.fullmatch(r"R\d+", ruling) and f"({ruling})" in notice.inner_text()
    assert "_" not in notice.inner_text()
    with page.expect_popup() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith(f"/rules#{ruling.lower()}")
    heading = rules.locator(f"h3#{ruling.lower()}")
    assert heading.inner_text().startswith(f"{ruling} — ")
    rules.wait_for_function("() => window.scrollY > 0")
    assert _in_view(rules, f"h3#{ruling.lower()}")
    no_script_errors(page)


def test_header_and_help_lead_to_the_rules_and_tiles_explain_themselves(server: Server, browser: Any) -> None:
    created = vs_bot(server)
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["link"])
    wait_turn_or_over(page)
    assert page.locator('.app-nav > a[href="/rules"]').inner_text() == "Rules"
    page.get_by_role("button", name="How to play").click()
    dialog = page.locator("dialog.help")
    assert "at the top right of each city" in dialog.inner_text()
    assert "under each city" not in dialog.inner_text()
    assert dialog.locator('a[href="/rules"]').count() == 1
    page.keyboard.press("Escape")
    manifest = {t["id"]: t for t in httpx.get(server.url + "/api/tiles").json()}
    view = httpx.get(f"{server.url}/api/games/{created['game']}").json()
    faces = page.locator(".site .tile")
    assert faces.count() >= 10
    for i in range(faces.count()):
        title = faces.nth(i).get_attribute("title") or ""
        what, scores, where = title.split("\n")
        assert what.split(":")[0] in {t["label"] for t in manifest.values()}
        assert scores.startswith(("Needs", "Always scores")) and where.startswith("With architect #n")
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", title)
    shown = {manifest[t]["help"]["what"] for t in view["state"]["site"] if t is not None and t >= 0}
    titles = {(faces.nth(i).get_attribute("title") or "").split("\n")[0] for i in range(faces.count())}
    assert titles <= shown
    no_script_errors(page)


def test_a_ruling_in_a_record_refusal_is_a_link(server: Server, browser: Any, tmp_path: Path) -> None:
    """A record file whose third move reuses a slot: the replay viewer shows the server's
    refusal with its ruling (R1) as a link to the rules page."""
    config = GameConfig(players=2, seed=7)
    state = new_game(config)
    moves = ["1L1"]
    apply_unchecked(state, Move.parse("1L1"))
    if state.phase == PLACE:
        moves.append("discard")
        apply_unchecked(state, Move.parse("discard"))
    moves.append("2L1")
    assert (explain_illegal(state, Move.parse("2L1")) or "").endswith("(R1)")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(GameRecord(config, tuple(moves)).to_json()))
    page = new_page(browser)
    page.goto(server.url + "/?replay=file")
    page.locator('input[type="file"]').set_input_files(str(path))
    alert = page.locator(".notice-error")
    alert.wait_for()
    link = alert.locator("a.ruling-link")
    assert link.inner_text() == "R1" and link.get_attribute("href") == "/rules#r1"
    no_script_errors(page)
