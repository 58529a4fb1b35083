"""Every visible text in the player's language and one tile notation, in Chromium:
an illegal move refused in French with its ruling still a link, the move log naming tiles as
the site draws them, a language's catalogue fetched only when it is chosen, and a tile's
explanation reachable by a tap on a phone. Screenshots of the log (laptop) and of the French
table with a tile explained (phone) are saved for the README."""

from __future__ import annotations

import re
from typing import Any

import httpx
from server_helpers import Server
from test_table import reach_build, vs_bot
from web_helpers import (
    LAPTOP,
    PHONE,
    new_page,
    no_script_errors,
    play_action_by_clicks,
    shot,
    version,
    wait_turn_or_over,
)

#: A non-English catalogue's chunk (vite names it after its file: fr-<hash>.js).
CATALOGUE_CHUNK = re.compile(r"/assets/(fr|de|pt|hu|ru)-[\w-]+\.js$")


def watched(context: Any) -> Any:
    """A page of ``context`` that records its script errors (for :func:`no_script_errors`)."""
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(20_000)
    return page


def test_an_illegal_move_is_refused_in_french_with_its_ruling_linked(server: Server, browser: Any) -> None:
    created = vs_bot(server)
    context = browser.new_context(viewport=LAPTOP, locale="fr-FR")
    page = watched(context)
    try:
        page.goto(server.url + created["seats"][0]["link"])
        reach_build(page)
        square = page.locator(".cell-ineligible.cell-empty").first.get_attribute("data-square")
        before = version(page)
        page.locator(f'.cell-ineligible[data-square="{square}"]').click(force=True)
        notice = page.get_by_test_id("notice")
        notice.wait_for()
        text = notice.inner_text()
        pattern = (
            rf"Interdit : architecte n°(\d) : {square} n'est ni sur la ligne \1 "
            r"ni sur la colonne \1 \(R8\)"
        )
        assert re.fullmatch(pattern, text), text
        link = notice.locator("a.ruling-link")
        assert link.inner_text() == "R8" and link.get_attribute("href") == "/rules#r8"
        assert version(page) == before
        shot(page, "illegal-move-fr")
        no_script_errors(page)
    finally:
        context.close()


def test_the_log_names_tiles_as_the_site_draws_them(server: Server, browser: Any) -> None:
    created = vs_bot(server)
    page = new_page(browser, LAPTOP)
    page.goto(server.url + created["seats"][0]["link"])
    for _ in range(6):
        if wait_turn_or_over(page) == "over":
            break
        play_action_by_clicks(page)
    view = httpx.get(f"{server.url}/api/games/{created['game']}", timeout=15).json()
    page.wait_for_function("(n) => document.querySelectorAll('.log-list li').length >= n", arg=4)
    manifest = httpx.get(f"{server.url}/api/tiles", timeout=15).json()
    # Codes that the site never shows (their label differs): none may appear in the log.
    codes = {t["code"] for t in manifest if t["code"] != t["label"]}
    log = page.locator(".log-list li .log-text")
    texts = [log.nth(i).inner_text() for i in range(log.count())]
    labels = [a["facts"]["tile"] for a in reversed(view["last_actions"]) if a["facts"].get("tile")]
    assert labels, view["last_actions"]
    for label in labels[: len(texts)]:
        assert any(re.search(rf"(^|\s){re.escape(label)}(\s|$)", t) for t in texts), (label, texts)
    assert not [t for t in texts if set(re.findall(r"[A-Za-z0-9]+", t)) & codes], texts
    shot(page, "log-laptop")
    no_script_errors(page)


def test_a_catalogue_is_fetched_only_when_its_language_is_chosen(server: Server, browser: Any) -> None:
    page = new_page(browser, LAPTOP)
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(server.url + "/")
    page.get_by_test_id("create").wait_for()
    assert page.get_by_test_id("create").inner_text() == "Start the game"
    assert not [u for u in fetched if CATALOGUE_CHUNK.search(u)], "English needs no other catalogue"
    page.get_by_test_id("language").select_option("fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert page.get_by_test_id("create").inner_text() == "Lancer la partie"
    chunks = [CATALOGUE_CHUNK.search(u) for u in fetched]
    assert [m.group(1) for m in chunks if m] == ["fr"]
    no_script_errors(page)


def test_a_tile_explains_itself_on_a_tap_on_a_phone(server: Server, browser: Any) -> None:
    created = vs_bot(server)
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="fr-FR")
    page = watched(context)
    try:
        page.goto(server.url + created["seats"][0]["link"])
        assert wait_turn_or_over(page) == "take"
        before = version(page)
        info = page.locator(".site [data-testid=tile-info]").first
        box = info.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box
        label = info.get_attribute("aria-label") or ""
        assert label.startswith("Qu'est-ce que cette tuile ?"), label
        info.tap()
        tip = page.get_by_test_id("tile-tip")
        tip.wait_for()
        assert tip.evaluate("d => d.open && d.matches(':modal')")
        words = tip.inner_text()
        assert label.split("? ")[1] in words and "(R8, R16)" in words, words
        shot(page, "tile-info-fr-phone")
        tip.get_by_role("button", name="Fermer").tap()
        tip.wait_for(state="detached")
        info.tap()
        tip.wait_for()
        page.keyboard.press("Escape")
        tip.wait_for(state="detached")
        assert version(page) == before, "explaining a tile plays nothing"
        no_script_errors(page)
    finally:
        context.close()


#: English a French lobby must not show: the bot levels' descriptions and the account panel.
ENGLISH_PHRASES = [
    "A beginner:",
    "A casual player",
    "A strong player",
    "The most thorough",
    "Your account",
    "Optional: with an account",
    "Username",
    "Password",
    "Register",
]

#: Each build-value label (``.build-value small``) that sticks out of its square.
OVERFLOWING_LABELS = """() => [...document.querySelectorAll('.cell .build-value small')].filter((s) => {
  const cell = s.closest('.cell').getBoundingClientRect();
  const r = s.getBoundingClientRect();
  return r.left < cell.left - 0.5 || r.right > cell.right + 0.5;
}).map((s) => s.textContent)"""


def test_no_english_in_a_french_lobby_and_build_values_fit_in_every_language(
    server: Server, browser: Any
) -> None:
    for viewport in (LAPTOP, PHONE):
        context = browser.new_context(viewport=viewport, locale="fr-FR")
        page = watched(context)
        try:
            page.goto(server.url + "/")
            page.get_by_test_id("level-hints").wait_for()
            page.locator("#account-title").wait_for()
            lobby = page.locator("body").inner_text()
            assert "Votre compte" in lobby and "Un joueur occasionnel" in lobby, lobby
            assert [p for p in ENGLISH_PHRASES if p in lobby] == []
            page.goto(server.url + vs_bot(server)["seats"][0]["link"])
            reach_build(page)
            for lang in ("fr", "de", "pt", "hu", "ru", "en"):
                page.get_by_test_id("language").select_option(lang)
                page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
                assert page.locator(".cell .build-value small").count() > 0
                assert page.evaluate(OVERFLOWING_LABELS) == [], (lang, viewport)
            page.get_by_test_id("language").select_option("fr")
            page.wait_for_function("() => document.documentElement.lang === 'fr'")
            square = page.locator(".cell-eligible").first.text_content() or ""
            assert "vous pouvez construire ici" in square and "you may" not in square, square
            if viewport == PHONE:
                page.locator(".cell-eligible").first.scroll_into_view_if_needed()
                shot(page, "build-values-fr-phone")
            no_script_errors(page)
        finally:
            context.close()
