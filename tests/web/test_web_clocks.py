"""Seats on any device and clocks in the browser: a logged-in player
opens their game from "My games" in a second browser (only its session: no seat token) and
plays a move there; a correspondence game's move whose time ran out is played by the bot,
then the player moves on. The server runs with ``--clock-scale 0.0001`` (a day per move
lasts 8.6 seconds): the server's own clock is the real one."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_helpers import Server
from web_helpers import main_attr, new_page, no_script_errors, play_action_by_clicks, running_server, shot

PASSWORD = "a long secret"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("web-clocks"), "--clock-scale", "0.0001") as s:
        yield s


def sign_in(page: Any, name: str, button: str) -> None:
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=button, exact=True).click()
    page.get_by_text("Logged in as").wait_for()


def history(server: Server, game: str) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = httpx.get(f"{server.url}/api/games/{game}/moves", timeout=15).json()[
        "history"
    ]
    return moves


def test_a_game_opened_from_my_games_in_a_second_browser_plays_there(server: Server, browser: Any) -> None:
    name = f"Cl_{secrets.token_hex(3)}"
    first = new_page(browser)
    first.goto(server.url + "/")
    sign_in(first, name, "Register")
    first.get_by_test_id("create").click()
    first.wait_for_selector('main[data-status="playing"]')
    game = first.url.split("game=")[1].split("&")[0]

    second = new_page(browser)  # its own cookies and storage: no seat token of the game
    second.goto(server.url + "/")
    sign_in(second, name, "Log in")
    assert second.evaluate("Object.keys(localStorage).filter(k => k.includes('token')).length") == 0
    second.get_by_test_id("my-games").locator(f'a[href*="{game}"]').first.click()
    second.wait_for_selector('main[data-acting="true"]', timeout=30_000)
    assert second.title().startswith("▶")
    icon = second.locator('link[rel="icon"]')
    assert icon.get_attribute("data-turn") == "true" and icon.get_attribute("href") == "/favicon-turn.svg"
    assert httpx.get(server.url + "/favicon-turn.svg", timeout=15).status_code == 200
    play_action_by_clicks(second)
    moves = history(server, game)
    assert moves[0]["seat"] == 0 and moves[0]["by"] == "player"
    no_script_errors(first)
    no_script_errors(second)


def test_a_correspondence_move_after_the_clock_ran_out(server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.locator("details.more-options summary").click()
    page.get_by_test_id("move-time").select_option("86400")
    page.get_by_test_id("create").click()
    page.wait_for_selector('main[data-acting="true"]')
    game = page.url.split("game=")[1].split("&")[0]
    assert page.get_by_test_id("clock-per-move").inner_text() == "1 day per move"
    clock = page.get_by_test_id("clock")
    assert "left for this move" in clock.inner_text()
    shot(page, "table-clock")
    # No move: the day (8.6 s here) runs out and the bot plays that turn for the player (its
    # take and its build: two lines of the log).
    page.get_by_text("bot, time ran out").first.wait_for(timeout=30_000)
    assert [m["by"] for m in history(server, game)[:2]] == ["clock", "clock"]
    # The player keeps the seat: their next move is theirs, with a fresh day on the clock.
    page.wait_for_selector('main[data-acting="true"]', timeout=30_000)
    assert "left for this move" in clock.inner_text()
    before = len(history(server, game))
    play_action_by_clicks(page)
    mine = history(server, game)[before]
    assert mine["by"] == "player" and mine["seat"] == 0
    assert main_attr(page, "status") == "playing"
    no_script_errors(page)
