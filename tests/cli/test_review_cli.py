"""``quadropolis review``: text and JSON output, the progress line, and bad input as one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from quadropolis import GameConfig, Mode
from quadropolis.cli import main
from quadropolis.cli.review import margin_words, progress_line, sparkline
from quadropolis.playout import random_game
from quadropolis.record import GameRecord


def _record_file(tmp_path: Path, moves: int = 10) -> Path:
    config = GameConfig(mode=Mode.CLASSIC, players=2, seed=17)
    played, _ = random_game(config, 17)
    record = GameRecord(config, tuple(str(m) for m in played[:moves]), seats=("human:Ann", "hard"))
    f = tmp_path / "game.json"
    f.write_text(json.dumps(record.to_json()))
    return f


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_review_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "review", str(_record_file(tmp_path)), "--budget", "2000")
    assert code == 0, err
    assert "Review: 10 moves, 2,000 search simulations per take" in out
    assert "Ann" in out and "Bot hard" in out
    chart = [line for line in out.splitlines() if line.startswith("  Ann  ")]
    assert len(chart) == 2  # the sparkline and the accuracy line
    assert len(chart[0].split()[-1]) == 10 and set(chart[0].split()[-1]) <= set("▁▂▃▄▅▆▇█")
    assert "Accuracy" in out and "good " in out
    assert "Worst moves" in out
    worst = [line for line in out.splitlines() if line.startswith("  move ")]
    margin = r"(level|\d+\.\d VP (ahead|behind))"
    assert worst and all(re.search(rf"win chance \d+% -> \d+%, {margin} -> {margin}; ", w) for w in worst)


def test_review_json_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "review", str(_record_file(tmp_path, 6)), "--json", "--budget", "1500")
    assert code == 0
    data = json.loads(out)
    assert data["format"] == "quadropolis-review/1"
    assert data["names"] == ["Ann", "Bot hard"] and data["iterations"] == 1500
    assert set(data) == {
        "format", "players", "iterations", "thresholds", "moves", "players_summary", "worst", "chart",
        "margin_chart", "names",
    }  # fmt: skip
    assert len(data["moves"]) == 6 and len(data["chart"]) == 6 and len(data["margin_chart"]) == 6
    move = data["moves"][0]
    assert set(move) == {
        "index", "player", "move", "text", "best", "best_text", "win_before", "win_after",
        "score_before", "score_after", "margin_before", "margin_after", "loss", "label", "forced",
        "facts", "best_facts",
    }  # fmt: skip
    for m, row in zip(data["moves"], data["margin_chart"], strict=True):
        assert row[m["player"]] == m["margin_before"] and row[1 - m["player"]] == -m["margin_before"]
        if m["move"] == m["best"]:
            assert m["margin_after"] == m["margin_before"]
    assert move["facts"]["kind"] == "take" and move["facts"]["architect"] == int(move["move"][0])
    assert [s["player"] for s in data["players_summary"]] == [0, 1]
    again = run(capsys, "review", str(_record_file(tmp_path, 6)), "--json", "--budget", "1500")[1]
    assert again == out  # reproducible


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": "x"}', "'format' must be 'quadropolis-game/1'"),
        ("not json", "line 1"),
        (
            '{"format": "quadropolis-game/1", "config": {"mode": "classic", "players": 2, "seed": 1}, '
            '"moves": ["9Z9"]}',
            "move 1",
        ),
        (
            '{"format": "quadropolis-game/1", "config": {"mode": "classic", "players": 2, "seed": 1}, '
            '"moves": []}',
            "no move to review",
        ),
    ],
)  # fmt: skip
def test_bad_records_give_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    f = tmp_path / "bad.json"
    f.write_text(content)
    code, out, err = run(capsys, "review", str(f))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("quadropolis review: error: ") and message in err


def test_budget_and_game_bounds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = _record_file(tmp_path)
    code, _, err = run(capsys, "review", str(f), "--budget", "2000000")
    assert code == 1 and "too large" in err
    code, _, err = run(capsys, "review", str(f), "--game", "3")
    assert code == 1 and "out of range" in err


def test_progress_line_and_sparkline() -> None:
    assert progress_line(12, 48, 7.4, width=8) == "Reviewing [##------] 12/48 moves  7s"
    assert sparkline([0.0, None, 0.5, 0.99, None]) == "▁▁▅██"
    assert sparkline([None, 0.2]) == " ▂"
    assert len(sparkline([0.5] * 200)) == 64


def test_margin_words() -> None:
    assert [margin_words(x) for x in (6.24, -3.06, 0.04, -0.04)] == [
        "6.2 VP ahead",
        "3.1 VP behind",
        "level",
        "level",
    ]
