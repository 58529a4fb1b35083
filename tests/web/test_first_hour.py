"""A new player's first hour, in Chromium against a real server: the guided first
game played to its end (lessons at their moments, left and resumed, the final scoring category
by category), a slot that would take nothing shown as such, builds valued now and once fed
(as the server's ``build_options`` say), every action animated (and nothing animated under
``prefers-reduced-motion``), touch play on a phone (44 px targets, a tap previews, a second tap
or Confirm plays, no clipped names), hotseat names and a random first player from the lobby."""

from __future__ import annotations

import re
from typing import Any

import httpx
from server_helpers import Server
from web_helpers import (
    LAPTOP,
    PHONE,
    create,
    new_page,
    no_script_errors,
    play_action_by_clicks,
    shot,
    version,
    wait_turn_or_over,
    wait_version_above,
)

BOT = {"type": "bot", "level": "easy"}

#: Whether an animation of the table runs now (the class the table gives animated pieces).
ANIMATING = "() => document.querySelectorAll('.anim-move').length > 0 && document.getAnimations().length > 0"


def signed(n: int) -> str:
    """A score change as the table writes it (a true minus sign)."""
    return f"+{n}" if n > 0 else f"\N{MINUS SIGN}{-n}" if n < 0 else "0"


def game_id(page: Any) -> str:
    m = re.search(r"[?&]game=([A-Za-z0-9_-]+)", page.url)
    assert m, page.url
    return m.group(1)


def read_lessons(page: Any, seen: list[str], keep: str = "final") -> None:
    """Read every lesson showing now ("Got it"), noting their ids in order; lesson ``keep``
    is left open, to be looked at."""
    for _ in range(20):
        guide = page.locator('[data-testid="guide"]')
        if not guide.count() or guide.get_attribute("data-lesson") == keep:
            return
        seen.append(str(guide.get_attribute("data-lesson")))
        page.get_by_test_id("guide-ok").click()


def start_guided_game(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.get_by_test_id("learn").click()
    page.wait_for_selector('main[data-status="playing"]')
    page.wait_for_selector('[data-testid="guide"]')


def test_the_guided_first_game_played_to_its_end(server: Server, browser: Any) -> None:
    page = new_page(browser)
    start_guided_game(page, server)
    assert page.locator('[data-testid="guide"]').get_attribute("data-lesson") == "welcome"
    shot(page, "guided-welcome-laptop")
    page.set_viewport_size(PHONE)
    shot(page, "guided-welcome-phone")
    page.set_viewport_size(LAPTOP)
    seen: list[str] = []
    read_lessons(page, seen)
    # Left and resumed: the lobby offers the game back, and lessons read are not said again.
    page.goto(server.url + "/")
    page.get_by_test_id("learn-resume").click()
    # A resumed game is read back on first use (lazy start): more time on a loaded machine.
    page.wait_for_selector('main[data-status="playing"]', timeout=60_000)
    page.wait_for_timeout(300)
    assert page.locator('[data-testid="guide"]').count() == 0
    build_shot = False
    for _ in range(200):
        lesson_up = page.locator('[data-testid="guide"]').count() > 0
        if not build_shot and lesson_up and wait_turn_or_over(page) == "place":
            shot(page, "guided-build-laptop")
            build_shot = True
        read_lessons(page, seen)
        if play_action_by_clicks(page) == "over":
            break
    page.wait_for_selector('[data-testid="guide"][data-lesson="final"]')
    table = page.locator(".guide-score")
    final = page.get_by_test_id("final-0").inner_text().split()[0]
    assert table.locator("tr.total td.guide-points").inner_text() == final
    assert table.locator("tr").count() >= 3  # at least two categories scored, and the total
    shot(page, "guided-final-laptop")
    read_lessons(page, seen, keep="")
    expected = {"welcome", "architects", "build", "urbanist", "dead-slot", "tower-block", "resources"}
    expected |= {"new-round", "final"}
    assert expected <= set(seen), seen
    assert len(seen) == len(set(seen)), "a lesson was said twice"
    no_script_errors(page)


def test_a_slot_that_takes_nothing_is_shown_as_such(server: Server, browser: Any) -> None:
    page = new_page(browser)
    start_guided_game(page, server)
    read_lessons(page, [])
    assert wait_turn_or_over(page) == "take"
    # The guided deal: with architect 1, slot L2 points at r2c1, a face-down tile.
    dead = page.locator('.slot-dead[data-slot="L2"]')
    assert dead.count() == 1 and dead.locator(".slot-dead-mark").count() == 1
    assert "face-down" in str(dead.get_attribute("title"))
    assert page.locator(".slot-dead").count() < page.locator(".slot-legal").count()
    assert float(dead.evaluate("e => getComputedStyle(e).opacity")) < 0.8
    useful = page.locator(".slot-legal:not(.slot-dead)").first
    assert float(useful.evaluate("e => getComputedStyle(e).opacity")) == 1.0
    dead.hover()
    assert "you take nothing" in page.locator(".hint-line").inner_text()
    read_lessons(page, [])
    shot(page, "dead-slot-laptop")
    no_script_errors(page)


def test_a_build_shows_its_worth_now_and_once_fed(server: Server, browser: Any) -> None:
    created = create(server, players=2, name="Ann", seats=[{"type": "human"}, BOT])
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["link"])
    for _ in range(30):
        if wait_turn_or_over(page) == "place" and page.locator(".cell-eligible").count():
            break
        play_action_by_clicks(page)
    token = created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    view = httpx.get(f"{server.url}/api/games/{created['game']}", headers=auth).json()
    options = {o["move"]: o for o in view["build_options"]}
    discard = options.pop("discard")
    for square, option in options.items():
        cell = page.locator(f'.city-card[data-seat="0"] .cell-eligible[data-square="{square}"]')
        now = option["score"] - discard["score"]
        fed = option["fed"] - discard["fed"]
        assert cell.locator(".bv-now").inner_text() == f"{signed(now)} now"
        assert cell.locator(".bv-fed").inner_text() == f"{signed(fed)} fed"
    shot(page, "build-values-laptop")
    no_script_errors(page)


def test_every_action_is_animated_unless_motion_is_reduced(server: Server, browser: Any) -> None:
    spec = {"players": 2, "name": "Ann", "seats": [{"type": "human"}, BOT]}
    page = new_page(browser)
    page.goto(server.url + create(server, **spec)["seats"][0]["link"])
    assert wait_turn_or_over(page) == "take"
    before = version(page)
    page.locator(".slot-legal").first.click()
    # The animation starts when the server's push arrives: what is checked is that it runs,
    # not how fast a loaded machine answers.
    page.wait_for_function(ANIMATING, timeout=30_000)
    wait_version_above(page, before)
    # Skippable: a key ends every running animation at once.
    page.keyboard.press("Shift")
    page.wait_for_function("() => document.querySelectorAll('.anim-move').length === 0", timeout=2000)

    context = browser.new_context(viewport=LAPTOP, reduced_motion="reduce")
    still = context.new_page()
    still.goto(server.url + create(server, **spec)["seats"][0]["link"])
    for _ in range(6):
        before = version(still)
        phase = wait_turn_or_over(still)
        target = ".slot-legal" if phase == "take" else ".cell-eligible"
        if still.locator(target).count() == 0:
            target = "button:has-text('Discard')"
        still.locator(target).first.click()
        for _ in range(10):  # over half a second, sampled: never an animation
            assert not still.evaluate(ANIMATING)
            still.wait_for_timeout(60)
        wait_version_above(still, before)
    context.close()
    no_script_errors(page)


def test_touch_play_on_a_phone(server: Server, browser: Any) -> None:
    created = create(server, players=2, name="Annabelle-Marguerite", seats=[{"type": "human"}, BOT])
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(server.url + created["seats"][0]["link"])
    assert wait_turn_or_over(page) == "take"
    for selector in (".slot", ".arch", ".action-panel .btn"):
        for box in (e.bounding_box() for e in page.locator(selector).all()):
            assert box and box["width"] >= 44 and box["height"] >= 44, (selector, box)
    names = page.locator(".city-name, .st-name")
    assert names.count() == 4
    for i in range(names.count()):
        assert names.nth(i).evaluate("e => e.scrollWidth <= e.clientWidth"), names.nth(i).inner_text()
    before = version(page)
    slot = page.locator(".slot-legal:not(.slot-dead)").first
    slot.tap()
    page.wait_for_selector(".slot-armed")
    assert "designates" in page.locator(".hint-line").inner_text()
    assert version(page) == before  # a first tap only previews
    shot(page, "touch-preview-phone")
    page.get_by_test_id("confirm").tap()
    wait_version_above(page, before)
    # The build: a first tap previews the square, the second tap on it plays.
    assert wait_turn_or_over(page) == "place"
    cell = page.locator(".cell-eligible").first
    if cell.count():
        box = cell.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44
        before = version(page)
        cell.tap()
        page.wait_for_selector(".cell-armed")
        assert version(page) == before
        cell.tap()
        wait_version_above(page, before)
    context.close()


def test_hotseat_names_and_a_random_first_player_from_the_lobby(server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_test_id("seat-1").select_option("hotseat")
    page.get_by_test_id("seat-name-1").fill("Bea")
    page.get_by_test_id("first-player").select_option("random")
    page.locator("details.more-options summary").click()
    boxes = [e.bounding_box() for e in page.locator(".check input").all()]
    assert len({(round(b["width"]), round(b["height"])) for b in boxes if b}) == 1  # every box alike
    shot(page, "lobby-options-laptop")
    page.get_by_test_id("create").click()
    page.wait_for_selector('main[data-status="playing"]')
    view = httpx.get(f"{server.url}/api/games/{game_id(page)}").json()
    assert [s["name"] for s in view["seats"]] == ["Ann", "Bea"]
    assert view["to_move"] == view["config"]["first_player"] in (0, 1)
    no_script_errors(page)
