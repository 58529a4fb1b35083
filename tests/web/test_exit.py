"""Ways out of a game in the browser: the creator cancels a waiting game, a
player who joined leaves it, a player resigns a running game after a confirmation that says
what follows (in a game of two: a loss, the game ends), and the lobby says what to do when
the unfinished-games limit is reached."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from server_helpers import Server
from web_helpers import create, new_page, no_script_errors, running_server, shot


def watched(page: Any) -> Any:
    """``page``, noting every Content-Security-Policy violation its console reports."""
    page.csp = []
    page.on("console", lambda m: "Content Security Policy" in m.text and page.csp.append(m.text))
    return page


def clean(page: Any) -> None:
    """No script error and nothing the server's CSP had to block (the client needs no inline
    script or style, nothing from another origin)."""
    no_script_errors(page)
    assert not page.csp, page.csp


def lobby_games(server: Server) -> set[str]:
    games = httpx.get(f"{server.url}/api/games", params={"limit": 200}, timeout=15).json()["games"]
    return {g["game"] for g in games}


def status_of(server: Server, game: str) -> dict[str, Any]:
    view: dict[str, Any] = httpx.get(f"{server.url}/api/games/{game}", timeout=15).json()
    return view


def test_the_creator_cancels_and_a_joiner_leaves_a_waiting_game(server: Server, browser: Any) -> None:
    data = create(server, players=3, name="Ann")
    game = data["game"]
    bob = httpx.post(f"{server.url}/api/games/{game}/seats/1", json={"name": "Bob"}, timeout=15).json()
    assert game in lobby_games(server)

    page = watched(new_page(browser))  # Bob leaves: his seat opens again
    page.goto(server.url + bob["link"])
    page.wait_for_selector('main[data-status="waiting"]')
    assert page.get_by_role("button", name="Cancel the game").count() == 0  # not his to cancel
    page.get_by_role("button", name="Leave the game").click()
    page.wait_for_url(server.url + "/")
    assert status_of(server, game)["seats"][1]["open"]
    clean(page)

    page = watched(new_page(browser))  # Ann cancels: the game leaves the lobby
    page.goto(server.url + data["seats"][0]["link"])
    page.wait_for_selector('main[data-status="waiting"]')
    shot(page, "waiting-cancel-laptop")
    page.get_by_role("button", name="Cancel the game").click()
    page.wait_for_url(server.url + "/")
    assert status_of(server, game)["status"] == "cancelled"
    assert game not in lobby_games(server)
    page.goto(f"{server.url}/?game={game}")  # an old link says what happened
    page.wait_for_selector('main[data-status="cancelled"]')
    assert "cancelled" in page.locator("main").inner_text()
    clean(page)


def test_a_player_resigns_after_confirming_and_loses_the_game_of_two_at_once(
    server: Server, browser: Any
) -> None:
    data = create(server, players=2, name="Ann")
    game = data["game"]
    httpx.post(f"{server.url}/api/games/{game}/seats/1", json={"name": "Bob"}, timeout=15).raise_for_status()
    page = watched(new_page(browser))
    page.goto(server.url + data["seats"][0]["link"])
    page.wait_for_selector('main[data-status="playing"]')
    page.get_by_role("button", name="Resign").click()
    dialog = page.get_by_role("alertdialog")
    assert "You lose, and the game ends now" in dialog.inner_text()  # what really happens
    shot(page, "resign-confirm-laptop")
    page.get_by_role("button", name="Keep playing").click()  # changing one's mind changes nothing
    assert status_of(server, game)["seats"][0]["kind"] == "human"
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    page.wait_for_selector('[data-testid="forfeit-0"]')  # the end screen says who resigned
    view = status_of(server, game)
    assert view["status"] == "over" and view["result"]["winners"] == [1]
    assert page.get_by_role("button", name="Resign").count() == 0
    clean(page)


def test_the_lobby_says_what_to_do_at_the_limit(browser: Any, tmp_path: Path) -> None:
    with running_server(tmp_path, "--games-per-client", "1") as small:
        create(small, players=2, name="Ann")
        page = watched(new_page(browser))
        page.goto(small.url + "/")
        page.get_by_label("Your name").fill("Ann")
        page.get_by_test_id("create").click()
        alert = page.get_by_role("alert")
        alert.wait_for()
        text = alert.inner_text()
        assert "cancel" in text and "resign" in text and "expires" in text
        alert.scroll_into_view_if_needed()
        shot(page, "lobby-limit-laptop")
        clean(page)
