"""The post-game review in the browser: from the end screen's Review button, progress shown
while the server reviews, then the win-chance chart (a click on a point jumps the replay to
that move; a toggle shows the expected VP margin instead), the margin before and after a
move, label badges, the worst moves and accuracy; a record file reviews too."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Server
from web_helpers import create, new_page, no_script_errors, record_of, run_axe, running_server, shot

#: An expected VP margin in the players' words.
MARGIN = r"(level|\d+\.\d VP (ahead|behind))"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # A small review budget: the browser test checks the page, the bots tests the review.
    with running_server(tmp_path_factory.mktemp("web-review"), "--review-budget", "1500") as s:
        yield s


def test_review_from_the_end_screen_and_jump_from_the_chart(server: Server, browser: Any) -> None:
    created = create(server, mode="classic", players=2, take=[], seats=[{"type": "bot", "level": "easy"}] * 2)
    page = new_page(browser)
    page.goto(server.url + created["watch"])
    page.wait_for_selector('main[data-status="over"]', timeout=60_000)
    page.get_by_test_id("review-game").click()
    progress = page.get_by_test_id("review-progress")
    progress.wait_for(timeout=20_000)
    assert "Reviewing move" in progress.inner_text()
    shot(page, "review-progress-laptop")
    page.get_by_test_id("review-done").wait_for(timeout=120_000)
    moves = json.loads(record_of(server, created["game"]))["moves"]
    chart = page.get_by_test_id("review-chart")
    assert chart.locator("polyline").count() == 2
    assert len(chart.locator("polyline").first.get_attribute("points").split()) == len(moves) + 1
    accuracy = page.get_by_test_id("review-accuracy").inner_text()
    assert accuracy.count("%") == 2 and "Easy bot A" in accuracy and "Easy bot B" in accuracy
    target = 12
    page.get_by_test_id(f"review-point-{target}").click(force=True)
    page.get_by_test_id("replay-at").filter(has_text=f"Move {target} of {len(moves)}").wait_for()
    current = page.get_by_test_id("review-current").inner_text()
    assert current.startswith(f"Move {target}, ") and f"({moves[target - 1]})" in current
    assert any(word in current for word in ("Good", "Inaccuracy", "Mistake", "Blunder"))
    assert "Win chance" in current
    assert re.search(rf"Expected margin {MARGIN} → {MARGIN}", current), current
    worst = page.get_by_test_id("review-worst")
    if worst.count():
        first = worst.locator("li").first
        assert "best was" in first.inner_text()
        assert re.search(rf"\d+% → \d+%; {MARGIN} → {MARGIN}\)", first.inner_text()), first.inner_text()
        first.get_by_role("button").click()
        page.get_by_test_id("replay-at").filter(has_text=f"of {len(moves)}").wait_for()
    shot(page, "review-laptop")
    page.get_by_test_id("review-show-margin").click()
    assert chart.get_attribute("data-kind") == "margin"
    assert page.get_by_test_id("review-show-margin").get_attribute("aria-pressed") == "true"
    assert chart.locator("polyline").count() == 2
    assert len(chart.locator("polyline").first.get_attribute("points").split()) == len(moves) + 1
    axis = chart.locator("text").all_text_contents()
    assert axis[1] == "0" and re.fullmatch(r"\+\d+", axis[0]) and axis[2] == "−" + axis[0][1:], axis
    assert "Expected VP margin after each move" in page.locator(".chart-legend").inner_text()
    shot(page, "review-margin-laptop")
    page.get_by_test_id("review-show-win").click()
    assert chart.get_attribute("data-kind") == "win"
    assert run_axe(page) == []
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "review-phone", full_page=True)
    no_script_errors(page)


def test_a_record_file_is_reviewed_in_the_replay_viewer(server: Server, browser: Any, tmp_path: Path) -> None:
    created = create(server, mode="classic", players=2, take=[], seats=[{"type": "bot", "level": "easy"}] * 2)
    page = new_page(browser)
    page.goto(server.url + created["watch"])
    page.wait_for_selector('main[data-status="over"]', timeout=60_000)
    record = json.loads(record_of(server, created["game"]))
    record["moves"] = record["moves"][:10]
    del record["result"]
    path = tmp_path / "part.json"
    path.write_text(json.dumps(record))
    page.goto(f"{server.url}/?replay=file")
    page.locator('input[type="file"]').set_input_files(str(path))
    page.get_by_test_id("review-start").click()
    page.get_by_test_id("review-done").wait_for(timeout=60_000)
    page.get_by_test_id("review-point-3").click(force=True)
    page.get_by_test_id("replay-at").filter(has_text="Move 3 of 10").wait_for()
    assert page.get_by_test_id("review-current").inner_text().startswith("Move 3, ")
    no_script_errors(page)
