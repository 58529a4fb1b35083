"""Whole games in a real browser against a real server, played by clicks only: a 2-player
Classic game against a bot (its final scores on the page equal ``quadropolis replay`` of the
record downloaded from the server), a 4-player Expert game against easy bots, and the
screenshots of the lobby, the tables and the end screen at laptop and phone sizes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from server_helpers import Server
from web_helpers import (
    LAPTOP,
    PHONE,
    create,
    final_scores,
    new_page,
    no_script_errors,
    play_action_by_clicks,
    play_to_end,
    record_of,
    replay_scores,
    shot,
    version,
    wait_turn_or_over,
)


def game_id(page: Any) -> str:
    m = re.search(r"[?&]game=([A-Za-z0-9_-]+)", page.url)
    assert m, page.url
    return m.group(1)


def test_classic_game_against_a_bot_by_clicks(server: Server, browser: Any, tmp_path: Path) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.locator("label.choice", has_text="Classic").click()
    page.locator("fieldset.segmented label", has_text="2").click()
    page.get_by_test_id("seat-1").select_option("easy")
    shot(page, "lobby-laptop")
    page.get_by_test_id("create").click()
    page.wait_for_selector('main[data-status="playing"]')
    game = game_id(page)

    # The first take: the table before and after, for the screenshots of a Classic table.
    assert wait_turn_or_over(page) == "take"
    page.locator(".slot-legal").first.hover()
    assert "designates" in page.locator(".hint-line").inner_text()
    play_to_end_with_midgame_shot(page)

    scores = final_scores(page, 2)
    assert scores == replay_scores(record_of(server, game), tmp_path)
    # The score pad agrees with the ranking.
    for seat, score in enumerate(scores):
        assert page.get_by_test_id(f"sheet-total-{seat}").inner_text() == str(score)
    assert page.get_by_test_id("end-title").inner_text()
    shot(page, "end-laptop", full_page=True)
    page.set_viewport_size(PHONE)
    shot(page, "end-phone", full_page=True)
    no_script_errors(page)


def play_to_end_with_midgame_shot(page: Any) -> None:
    shot_taken = False
    for _ in range(400):
        phase = play_action_by_clicks(page)
        if phase == "over":
            return
        if not shot_taken and version(page) >= 14 and wait_turn_or_over(page) == "place":
            shot(page, "table-classic-2p-build-laptop")
            shot_taken = True
    raise AssertionError("the game did not end")


def test_expert_four_players_against_easy_bots(server: Server, browser: Any, tmp_path: Path) -> None:
    created = create(
        server,
        mode="expert",
        players=4,
        name="Ann",
        seats=[{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3,
    )
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["link"])
    page.wait_for_selector('main[data-status="playing"]')
    # Expert: five-column cities with their printed square numbers, the shared pool.
    assert page.locator('.city-grid.mode-expert [data-square="r4c5"]').count() == 4
    assert page.locator(".pool").count() == 1
    for _ in range(12):  # well into round 2 (4 human actions a round)
        play_action_by_clicks(page)
    while wait_turn_or_over(page) != "take":
        play_action_by_clicks(page)
    shot(page, "table-expert-4p-laptop")
    page.set_viewport_size(PHONE)
    shot(page, "table-expert-4p-phone", full_page=True)
    page.set_viewport_size(LAPTOP)
    play_to_end(page)
    scores = final_scores(page, 4)
    assert scores == replay_scores(record_of(server, created["game"]), tmp_path)
    no_script_errors(page)


def test_classic_four_players_table_and_lobby_on_a_phone(server: Server, browser: Any) -> None:
    created = create(
        server,
        mode="classic",
        players=4,
        name="Ann",
        seats=[{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3,
    )
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["link"])
    for _ in range(9):
        play_action_by_clicks(page)
    assert wait_turn_or_over(page) in ("take", "place")
    shot(page, "table-classic-4p-laptop")
    page.set_viewport_size(PHONE)
    shot(page, "table-classic-4p-phone", full_page=True)
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=create]")
    shot(page, "lobby-phone", full_page=True)
    no_script_errors(page)


def test_end_screen_draws_the_optimal_placement(server: Server, browser: Any) -> None:
    created = create(server, mode="classic", players=2, take=[], seats=[{"type": "bot", "level": "easy"}] * 2)
    page = new_page(browser)
    page.goto(server.url + created["watch"])
    page.wait_for_selector('main[data-status="over"]', timeout=60_000)
    assert page.locator(".legend").count() == 1
    assert page.locator(".placed-on").count() > 0
    shot(page, "end-placement-laptop", full_page=True)


def test_a_build_shows_the_projected_score_of_each_square(server: Server, browser: Any) -> None:
    created = create(
        server, mode="classic", players=2, seats=[{"type": "human"}, {"type": "bot", "level": "easy"}]
    )
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["link"])
    for _ in range(20):
        if wait_turn_or_over(page) == "place" and page.locator(".cell-eligible").count():
            eligible = page.locator(".cell-eligible").count()
            assert page.locator(".cell-eligible .cell-build .bv-now").count() == eligible
            assert page.locator(".cell-eligible .cell-build .bv-fed").count() == eligible
            return
        play_action_by_clicks(page)
    raise AssertionError("no build came up")


def test_the_lobby_lists_running_games_to_watch(server: Server, browser: Any) -> None:
    created = create(
        server, mode="classic", players=2, seats=[{"type": "human"}, {"type": "bot", "level": "easy"}]
    )
    page = new_page(browser)
    page.goto(server.url + "/")
    row = page.locator('[data-testid="games-playing"] .game-row').first
    row.get_by_role("link", name="Watch").click(timeout=5_000)
    page.wait_for_selector('main[data-status="playing"]')
    assert created["game"] in page.url
