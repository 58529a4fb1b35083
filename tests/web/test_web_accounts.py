"""Accounts in the browser: register in one browser, log in from a second one
(its own cookies and storage) and see the same "My games"; log out."""

from __future__ import annotations

from typing import Any

from server_helpers import Server
from web_helpers import new_page, no_script_errors, shot

PASSWORD = "a long secret"


def sign_in(page: Any, button: str) -> None:
    page.get_by_label("Username").fill("Ann_browser")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=button, exact=True).click()
    page.get_by_text("Logged in as").wait_for()


def test_register_then_see_the_same_my_games_in_a_second_browser(server: Server, browser: Any) -> None:
    first = new_page(browser)
    first.goto(server.url + "/")
    sign_in(first, "Register")
    # A game created from the lobby's form while logged in: its seat is the account's.
    first.get_by_test_id("create").click()
    first.wait_for_selector('main[data-status="playing"]')
    game = first.url.split("game=")[1].split("&")[0]
    first.goto(server.url + "/")
    mine = first.get_by_test_id("my-games")
    mine.get_by_text("Your turn").wait_for()
    assert "Ann_browser" in mine.inner_text()

    second = new_page(browser)
    second.goto(server.url + "/")
    sign_in(second, "Log in")
    panel = second.get_by_test_id("my-games")
    panel.get_by_text("Your turn").wait_for()
    assert panel.locator(f'a[href*="{game}"]').count() == 1
    assert panel.inner_text() == mine.inner_text()
    shot(second, "lobby-my-games")

    second.get_by_role("button", name="Log out").click()
    second.get_by_role("button", name="Register").wait_for()
    no_script_errors(first)
    no_script_errors(second)


def test_a_wrong_password_is_said_plainly(server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.get_by_label("Username").fill("nobody_here")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Log in", exact=True).click()
    assert page.get_by_role("alert").inner_text() == "wrong username or password"
    no_script_errors(page)
