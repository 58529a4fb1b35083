"""The daily challenge, rematch and table chat in the browser: an account
plays the day's challenge by clicks and finds itself on the day's leaderboard; two players
rematch from the end screen; the table chat reaches the other player, shows markup as text,
and stays muted after a reload once muted."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_helpers import Server, play_http
from web_helpers import create, new_page, no_script_errors, play_to_end, running_server, shot

CSRF = {"X-Quadropolis-Client": "1"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # The daily challenge of these tests is Classic for 2 players (short enough to click through).
    with running_server(tmp_path_factory.mktemp("web-social"), "--daily-formats", "classic-2") as s:
        yield s


def register(page: Any, server: Server) -> str:
    """Register an account in the page's browser context (its cookie jar)."""
    name = f"Daily_{secrets.token_hex(3)}"
    r = page.request.post(
        f"{server.url}/api/accounts", data={"username": name, "password": "a long secret"}, headers=CSRF
    )
    assert r.status == 201, r.text()
    return name


def test_play_the_daily_challenge_and_find_yourself_on_its_leaderboard(server: Server, browser: Any) -> None:
    page = new_page(browser)
    name = register(page, server)
    page.goto(server.url + "/")
    page.get_by_test_id("nav-daily").click()
    page.get_by_test_id("daily-page").wait_for()
    assert "Classic, 2 players" in page.locator(".lead").inner_text()
    page.get_by_test_id("daily-start").click()
    page.wait_for_selector('main[data-status="playing"]')
    play_to_end(page)
    result = page.get_by_test_id("daily-result")
    result.wait_for()
    share = result.locator("input.copy-text").input_value()
    assert share.startswith("Quadropolis daily ") and share.endswith(" VP") and "#1 of 1" in share
    result.locator(".city-card").first.wait_for()  # the day's best city (yours) to compare with
    shot(page, "daily-result", full_page=True)
    page.get_by_test_id("daily-board-link").click()
    board = page.get_by_test_id("daily-board")
    board.wait_for()
    mine = board.locator("tr.mine")
    assert name in mine.inner_text()
    page.locator(".daily-cities .city-card").first.wait_for()
    # Played today: the button is gone; the page links to the game instead.
    assert page.get_by_test_id("daily-played").is_visible() and not page.get_by_test_id("daily-start").count()
    shot(page, "daily-page", full_page=True)
    no_script_errors(page)


def two_player_game_over(server: Server) -> tuple[str, dict[int, str]]:
    made = create(server, players=2, seats=[{"type": "human"}, {"type": "human"}], name="Ann", public=False)
    game = made["game"]
    tokens = {0: made["seats"][0]["token"]}
    joined = httpx.post(f"{server.url}/api/games/{game}/seats/1", json={"name": "Ben"}, timeout=15)
    tokens[1] = joined.json()["token"]
    with httpx.Client(base_url=server.url, timeout=15) as http:
        play_http(http, game, tokens)
    return game, tokens


def test_rematch_from_the_end_screen_and_chat_at_the_new_table(server: Server, browser: Any) -> None:
    game, tokens = two_player_game_over(server)
    ann, ben = new_page(browser), new_page(browser)
    for page, seat in ((ann, 0), (ben, 1)):
        page.goto(f"{server.url}/?game={game}&seat={seat}#token={tokens[seat]}")
        page.wait_for_selector('main[data-status="over"]')
    ann.get_by_test_id("rematch-ask").click()
    ann.wait_for_selector('main[data-status="waiting"]')
    ben.get_by_test_id("rematch-join").click()  # the offer pushed to Ben's end screen
    for page in (ann, ben):
        page.wait_for_selector('main[data-status="playing"]')
    assert ann.url != f"{server.url}/?game={game}" and ann.url.split("game=")[1] == ben.url.split("game=")[1]

    ben.get_by_test_id("chat-input").fill("<b>good luck</b>")
    ben.get_by_test_id("chat-input").press("Enter")
    line = ann.get_by_test_id("chat-lines").locator("li").last
    line.wait_for()
    assert "<b>good luck</b>" in line.inner_text()  # shown as text, never as markup
    assert ann.get_by_test_id("chat-lines").locator("b").count() == 0
    shot(ann, "table-chat")
    ann.get_by_test_id("chat-mute").click()
    ann.reload()
    ann.wait_for_selector('main[data-status="playing"]')
    assert ann.get_by_test_id("chat").get_attribute("data-muted") == "true"
    assert not ann.get_by_test_id("chat-lines").count()
    for page in (ann, ben):
        no_script_errors(page)
