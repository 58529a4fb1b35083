"""Ratings in the browser: a logged-in player plays a rated game against an easy bot
to the end, sees the rating change on the end screen, finds the game, the rating and its
history chart on the profile page, and themself on the lobby's leaderboard."""

from __future__ import annotations

import re
from typing import Any

import httpx
from server_helpers import Server
from web_helpers import new_page, no_script_errors, play_to_end, run_axe, shot

NAME = "Rita_rated"
PASSWORD = "a long secret"


def shown(x: float) -> str:
    """A rating as the page writes it: one decimal, a true minus sign."""
    return f"{x:.1f}".replace("-", "−")


def register(page: Any) -> None:
    page.get_by_label("Username").fill(NAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Register", exact=True).click()
    page.get_by_text("Logged in as").wait_for()


def test_a_rated_game_against_a_bot_shows_on_the_end_screen_profile_and_leaderboard(
    server: Server, browser: Any
) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    register(page)
    page.get_by_test_id("seat-1").select_option("easy")
    page.get_by_test_id("create").click()
    page.wait_for_selector('main[data-status="playing"]')
    game = page.url.split("game=")[1].split("&")[0]
    play_to_end(page)

    line = page.get_by_test_id("rating-change-0")
    line.wait_for()
    ratings = httpx.get(f"{server.url}/api/games/{game}/ratings", timeout=15).json()
    mine = ratings["seats"][0]
    text = line.inner_text()
    assert NAME in text and shown(mine["after"]["rating"]) in text
    assert re.search(r"\([+−±]\d+\.\d\)", text), text
    assert "bot" in page.get_by_test_id("rating-change-1").inner_text().lower()
    shot(page, "end-rating-change")

    page.goto(server.url + "/")
    page.get_by_test_id("my-profile").click()
    profile = page.get_by_test_id("profile")
    profile.wait_for()
    assert page.locator("h1").inner_text() == NAME
    assert shown(mine["after"]["rating"]) in page.get_by_test_id("rating-classic").inner_text()
    assert page.get_by_test_id("rating-chart").locator("circle").count() == 1
    row = page.get_by_test_id(f"played-{game}")
    assert f"{mine['place']} of 2" in row.inner_text()
    assert "Classic, 2 players" in page.get_by_test_id("stats-classic-2").inner_text()
    shot(page, "profile", full_page=True)
    assert run_axe(page) == []
    row.get_by_role("link").click()
    page.wait_for_url(re.compile(rf"replay={game}"))

    page.goto(server.url + "/")
    board = page.get_by_test_id("leaderboard")
    board.get_by_role("link", name=NAME).wait_for()
    assert "Easy bot" in board.inner_text()
    board.scroll_into_view_if_needed()
    shot(page, "lobby-leaderboard")
    assert run_axe(page) == []
    board.get_by_role("button", name="Expert").click()
    board.get_by_text("No rated game in this mode yet").wait_for()
    no_script_errors(page)
