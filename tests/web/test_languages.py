"""The interface in the rulebooks' languages, in a real browser: the header's switcher turns the
lobby and the table into French or German (building names as the rulebooks print them), the
choice survives a reload, the browser's own language is the default, and the longer German and
Hungarian words fit the laptop layout (no element wider than the page). Screenshots of each are
saved for the README."""

from __future__ import annotations

from typing import Any

from server_helpers import Server
from web_helpers import LAPTOP, PHONE, create, new_page, no_script_errors, shot, wait_turn_or_over


def no_horizontal_overflow(page: Any) -> None:
    """Nothing on the page sticks out to the right of the window (a clipped or overflowing label)."""
    wide = page.evaluate(
        "() => [...document.querySelectorAll('body *')]"
        ".filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1"
        " && getComputedStyle(e).position !== 'fixed' && e.getClientRects().length)"
        ".map((e) => e.tagName + '.' + e.className + ': ' + (e.textContent || '').slice(0, 40))"
    )
    assert wide == [], wide
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def choose(page: Any, lang: str) -> None:
    page.get_by_test_id("language").select_option(lang)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)


def test_french_then_german_lobby_and_table(server: Server, browser: Any) -> None:
    page = new_page(browser, LAPTOP)
    page.goto(server.url + "/")
    page.get_by_test_id("create").wait_for()
    assert page.get_by_test_id("create").inner_text() == "Start the game"
    choose(page, "fr")
    assert page.get_by_test_id("create").inner_text() == "Lancer la partie"
    assert page.get_by_role("heading", name="Nouvelle partie").is_visible()
    shot(page, "lobby-fr")
    choose(page, "de")
    assert page.get_by_test_id("create").inner_text() == "Spiel starten"
    assert page.get_by_role("form").get_by_text("Standardspiel", exact=True).is_visible()
    page.locator("details.more-options summary").click()
    no_horizontal_overflow(page)
    shot(page, "lobby-de")
    page.reload()
    page.get_by_test_id("create").wait_for()
    assert page.get_by_test_id("create").inner_text() == "Spiel starten", "the choice is remembered"

    created = create(
        server,
        mode="classic",
        players=2,
        name="Anna",
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
    )
    page.goto(server.url + created["seats"][0]["link"])
    wait_turn_or_over(page)
    status = page.locator(".standings").inner_text()
    assert "Standardspiel" in status and "Runde 1/4" in status, status
    assert page.get_by_text("Deine Architekten").is_visible()
    no_horizontal_overflow(page)
    shot(page, "table-de")
    choose(page, "fr")
    assert "Manche 1/4" in page.locator(".standings").inner_text()
    assert page.get_by_text("Vos architectes", exact=True).is_visible()
    shot(page, "table-fr")
    no_script_errors(page)


def test_hungarian_lobby_fits(server: Server, browser: Any) -> None:
    page = new_page(browser, LAPTOP)
    page.goto(server.url + "/")
    choose(page, "hu")
    assert page.get_by_test_id("create").inner_text() == "A játék indítása"
    page.locator("details.more-options summary").click()
    no_horizontal_overflow(page)
    shot(page, "lobby-hu")
    no_script_errors(page)


def test_the_browsers_language_is_the_default(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport=LAPTOP, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.get_by_test_id("create").wait_for()
        assert page.get_by_test_id("create").inner_text() == "Lancer la partie"
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.get_by_test_id("language").input_value() == "fr"
    finally:
        context.close()


def test_the_guided_games_lessons_in_french(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport=LAPTOP, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.get_by_test_id("learn").click()
        guide = page.get_by_test_id("guide")
        guide.wait_for()
        assert "Bienvenue à Quadropolis" in guide.inner_text()
        assert page.get_by_role("button", name="Compris").is_visible()
        no_horizontal_overflow(page)
        shot(page, "guide-fr")
    finally:
        context.close()


def test_the_german_header_and_lobby_fit_a_phone(server: Server, browser: Any) -> None:
    page = new_page(browser, PHONE)
    page.goto(server.url + "/")
    choose(page, "de")
    assert page.get_by_test_id("language").is_visible()
    no_horizontal_overflow(page)
    shot(page, "lobby-de-phone")
    no_script_errors(page)
