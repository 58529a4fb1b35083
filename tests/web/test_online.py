"""Two players in two browser contexts play each other online, a third context watches as
a spectator, and one player reloads the page mid-game and carries on; then one browser
holding both seats of a game (hotseat) passes the turn between them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server_helpers import Server
from web_helpers import (
    final_scores,
    main_attr,
    new_page,
    no_script_errors,
    play_action_by_clicks,
    record_of,
    replay_scores,
    shot,
    version,
    wait_turn_or_over,
)


def test_two_players_online_a_spectator_and_a_reload(server: Server, browser: Any, tmp_path: Path) -> None:
    ann = new_page(browser)
    ann.goto(server.url + "/")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_test_id("seat-1").select_option("invite")
    ann.get_by_test_id("create").click()
    invite = ann.locator(".invite-list input").first.input_value()
    assert "join=1" in invite
    ann.get_by_test_id("go-to-table").click()
    ann.wait_for_selector('main[data-status="waiting"]')
    game = invite.split("game=")[1].split("&")[0]

    # Bob opens the invite link in his own browser, takes the seat: the game starts for both.
    bob = new_page(browser)
    bob.goto(invite)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Take seat 2").click()
    bob.wait_for_selector('main[data-status="playing"]')
    ann.wait_for_selector('main[data-status="playing"]')

    # Carol watches: no action of hers is possible, she sees every move.
    carol = new_page(browser)
    carol.goto(f"{server.url}/?game={game}")
    carol.wait_for_selector('main[data-status="playing"]')
    assert "watching" in carol.locator(".game-bar").inner_text()
    assert carol.locator(".slot-legal").count() == 0

    players = {0: ann, 1: bob}
    reloaded = False
    for _ in range(200):
        v = version(ann)
        if main_attr(ann, "status") == "over":
            break
        seat = int(main_attr(ann, "to-move"))
        page = players[seat]
        page.wait_for_selector('main[data-acting="true"]')
        play_action_by_clicks(page)
        # Every client sees the new version, pushed by the server.
        for other in (ann, bob, carol):
            other.wait_for_function(
                "v => Number(document.querySelector('main#main').dataset.version) > v", arg=v
            )
        if not reloaded and version(bob) >= 20:
            shot(carol, "table-spectator-laptop")
            bob.reload()  # the seat comes back from this browser's storage
            bob.wait_for_selector("main#main[data-version]")
            assert "playing as Bob" in bob.locator(".game-bar").inner_text()
            reloaded = True
    assert reloaded
    for page in (ann, bob, carol):
        page.wait_for_selector('main[data-status="over"]')
    expected = replay_scores(record_of(server, game), tmp_path)
    assert final_scores(ann, 2) == expected
    assert final_scores(bob, 2) == expected
    assert final_scores(carol, 2) == expected
    for page in (ann, bob, carol):
        no_script_errors(page)


def test_hotseat_passes_the_turn_between_seats(server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Dee")
    page.get_by_test_id("seat-1").select_option("hotseat")
    page.get_by_test_id("create").click()
    page.wait_for_selector('main[data-status="playing"]')
    assert "hotseat" in page.locator(".game-bar").inner_text()
    # Seat A plays its take (and its build if it took a building); then the device is handed to B.
    seen_handover = False
    for _ in range(6):
        wait_turn_or_over(page)
        if page.locator(".handover").count():
            seen_handover = True
            assert "your turn" in page.locator(".handover h2").inner_text()
            shot(page, "hotseat-handover-laptop")
        play_action_by_clicks(page)
    assert seen_handover
    no_script_errors(page)
