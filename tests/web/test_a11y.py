"""Accessibility in a real browser: a whole turn played with the keyboard only, and an
automated check by axe-core (bundled from web/node_modules, injected into the page) of the
lobby, the waiting room, the table during a build, the help dialog and the end screen, with
no serious or critical violation."""

from __future__ import annotations

from typing import Any

from server_helpers import Server
from web_helpers import (
    PHONE,
    create,
    new_page,
    no_script_errors,
    play_action_by_clicks,
    run_axe,
    version,
    wait_turn_or_over,
    wait_version_above,
)


def vs_bot(server: Server) -> dict[str, Any]:
    return create(
        server,
        mode="classic",
        players=2,
        name="Ann",
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
    )


def tab_to(page: Any, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_whole_turn_with_the_keyboard_only(server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + vs_bot(server)["seats"][0]["link"])
    for _ in range(40):  # until a take brings a building to build (keyboard only from there)
        if wait_turn_or_over(page) != "take":
            play_action_by_clicks(page)
            continue
        before = version(page)
        n = page.locator('input[name="architect"]:enabled').last.get_attribute("value")
        page.keyboard.press(n)  # the architect's number picks it (the radios work with arrows too)
        assert page.locator(f'input[name="architect"][value="{n}"]').is_checked()
        tab_to(page, ".slot-legal")
        assert f"place architect {n} here" in (
            page.evaluate("document.activeElement.getAttribute('aria-label')") or ""
        )
        page.keyboard.press("Enter")
        wait_version_above(page, before)
        if wait_turn_or_over(page) == "place":
            break
    else:
        raise AssertionError("no take brought a building")
    before = version(page)
    if page.locator(".cell-eligible").count():
        tab_to(page, ".cell-eligible")
        page.keyboard.press("Enter")
    else:
        page.keyboard.press("d")
    wait_version_above(page, before)
    assert page.locator(".log-list li").count() >= 2
    no_script_errors(page)


def test_no_serious_accessibility_violations(server: Server, browser: Any) -> None:
    page = new_page(browser)
    found: dict[str, Any] = {}
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=create]")
    found["lobby"] = run_axe(page)

    waiting = create(server, mode="expert", players=3, name="Ann", seats=[{"type": "human"}] * 3)
    page.goto(server.url + waiting["seats"][0]["link"])
    page.wait_for_selector('main[data-status="waiting"]')
    found["waiting room"] = run_axe(page)

    page.goto(server.url + vs_bot(server)["seats"][0]["link"])
    for _ in range(40):
        if wait_turn_or_over(page) == "place" and page.locator(".cell-eligible").count():
            break
        play_action_by_clicks(page)
    found["table (build)"] = run_axe(page)
    page.set_viewport_size(PHONE)
    found["table on a phone"] = run_axe(page)

    page.get_by_role("button", name="How to play").click()
    page.wait_for_selector("dialog.help[open]")
    found["help"] = run_axe(page)
    page.keyboard.press("Escape")

    while wait_turn_or_over(page) != "over":
        play_action_by_clicks(page)
    found["end screen"] = run_axe(page)
    problems = {where: v for where, v in found.items() if v}
    assert not problems, problems
    no_script_errors(page)
