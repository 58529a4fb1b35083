"""The command line, run in-process through ``main`` and, for the console script, as a real
subprocess. Expected scores are worked out by hand from docs/rules.md."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from quadropolis.cli import main

# R12 example worked by hand: tower block (2 floors) r1c1, tree park r1c2, shop r2c1,
# factory r2c2; 3 inhabitants, 2 energy. Activating all: tower 3 + park 2 (one adjacent tower)
# + factory 2 (adjacent shop) + shop 2 (2 customers) = 9. Leaving the factory off gives
# 3 + 2 + 4 (3 customers) = 9 too, with the same inhabitants placed but one more empty
# square, so the tie-breaker (R12) keeps the factory activated.
CLASSIC_CITY: dict[str, Any] = {
    "mode": "classic",
    "rows": [
        [{"type": "tower_block", "floors": 2}, {"type": "park", "variant": "tree"}, None, None],
        [{"type": "shop"}, {"type": "factory"}, None, None],
        [None, None, None, None],
        [None, None, None, None],
    ],
    "inhabitants": 3,
    "energy": 2,
}
# Rulebook example: three adjacent office towers of 2, 2 and 3 floors score 5 + 5 + 9 = 19.
EXPERT_CITY: dict[str, Any] = {
    "mode": "expert",
    "rows": [
        [
            {"type": "office_tower", "floors": 2},
            {"type": "office_tower", "floors": 2},
            {"type": "office_tower", "floors": 3},
            None,
            None,
        ],
        [None] * 5,
        [None] * 5,
        [None] * 5,
    ],
    "inhabitants": 3,
    "energy": 3,
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_score_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "city.json", json.dumps(CLASSIC_CITY))
    code, out, err = run(capsys, "score", f, "--json")
    assert code == 0 and err == ""
    res = json.loads(out)
    assert res["total"] == 9
    assert res["breakdown"] == {
        "tower_block": 3,
        "shop": 2,
        "public_service": 0,
        "park": 2,
        "factory": 2,
        "harbor": 0,
        "office_tower": 0,
        "monument": 0,
        "unused_inhabitants": 0,
        "pollution": 0,
    }
    assert res["inhabitants_placed"] == 3 and res["empty_squares"] == 12
    assert set(res["placement"]) >= {"activated", "customers"}


def test_score_json_lines_and_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    text = json.dumps(CLASSIC_CITY) + "\n\n" + json.dumps(EXPERT_CITY) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = run(capsys, "score", "-", "--json")
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["total"] for x in lines] == [9, 19]
    assert lines[1]["breakdown"]["office_tower"] == 19
    assert lines[1]["empty_squares"] == 17


def test_score_sheet_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "city.json", json.dumps(EXPERT_CITY))
    code, out, _ = run(capsys, "score", f)
    assert code == 0
    assert "Office towers" in out and "TOTAL" in out
    total_row = next(line for line in out.splitlines() if "TOTAL" in line)
    assert total_row.split("|")[2].strip() == "19"
    assert "Optimal placement" in out


@pytest.mark.parametrize(
    "content,message",
    [
        ("{not json", "line 1: invalid JSON"),
        ("", "empty input"),
        ('{"mode": "classic"}', "missing field 'rows'"),
        ('{"mode": "chess", "rows": []}', "'mode' must be"),
        (json.dumps({**CLASSIC_CITY, "inhabitants": -2}), "must not be negative"),
        (json.dumps({**CLASSIC_CITY, "rows": CLASSIC_CITY["rows"][:3]}), "list of 4 rows"),
        (
            json.dumps({**CLASSIC_CITY, "rows": [[{"type": "tower"}] + [None] * 3] + [[None] * 4] * 3}),
            "r1c1: unknown building type 'tower'",
        ),
        (
            json.dumps(
                {**CLASSIC_CITY, "rows": [[{"type": "shop", "floors": 2}] + [None] * 3] + [[None] * 4] * 3}
            ),
            "r1c1: a shop has at most 1 floor",
        ),
        (json.dumps(CLASSIC_CITY) + "\n" + "[1,", "line 2: invalid JSON"),
    ],
)
def test_score_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    f = write(tmp_path, "bad.json", content)
    code, _, err = run(capsys, "score", f)
    assert code == 1
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "score", "/nonexistent/city.json")
    assert code == 1 and "no such file" in err


def test_simulate_json_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("simulate", "--mode", "expert", "--players", "3", "--games", "4", "--seed", "10", "--json")
    code, out1, _ = run(capsys, *args)
    code2, out2, _ = run(capsys, *args)
    assert code == code2 == 0 and out1 == out2
    games = [json.loads(x) for x in out1.splitlines()]
    assert [g["seed"] for g in games] == [10, 11, 12, 13]
    for g in games:
        assert len(g["scores"]) == 3 and g["winners"]
        assert all(g["scores"][w] == max(g["scores"]) for w in g["winners"])
        assert 4 * 5 * 3 <= g["moves"] <= 2 * 4 * 5 * 3


def test_simulate_summary_and_records_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "games.jsonl"
    code, out, _ = run(
        capsys, "simulate", "--players", "2", "--games", "3", "--seed", "5", "--records", str(rec)
    )
    assert code == 0 and "3 random classic games" in out and "Player 2: mean score" in out
    records = rec.read_text().splitlines()
    assert len(records) == 3
    one = write(tmp_path, "one.json", records[1])
    code, out, err = run(capsys, "replay", one)
    assert code == 0, err
    assert "Winner:" in out and "TOTAL" in out


def test_replay_rejects_an_illegal_move_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = {
        "format": "quadropolis-game/1",
        "config": {"mode": "classic", "players": 2, "seed": 1},
        "moves": ["1L1", "discard", "2L1"],
    }
    # seed 1: 1L1 takes a face-up building (discarded), then L1 is used and its row blocked
    f = write(tmp_path, "r.json", json.dumps(rec))
    code, _, err = run(capsys, "replay", f)
    assert code == 1
    assert err.strip().endswith(
        "move 3 (2L1): illegal: architect #2 at L1: slot L1 already holds an architect this round (R1)"
    )
    assert "Traceback" not in err


def test_replay_rejects_a_wrong_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec_file = tmp_path / "g.jsonl"
    run(capsys, "simulate", "--games", "1", "--seed", "3", "--records", str(rec_file))
    data = json.loads(rec_file.read_text())
    data["result"]["scores"][0] += 1
    f = write(tmp_path, "bad.json", json.dumps(data))
    code, _, err = run(capsys, "replay", f)
    assert code == 1 and "does not match the replay" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--players", "5"],
        ["simulate", "--mode", "turbo"],
        ["frobnicate"],
        ["score"],
        ["simulate", "--games", "x"],
    ],
)
def test_bad_command_lines_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_simulate_games_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--games", "0"])
    assert e.value.code == 2
    assert "argument --games: must be at least 1, got 0" in capsys.readouterr().err


@pytest.mark.parametrize("cmd", [[], ["score"], ["simulate"], ["replay"], ["bench"]])
def test_help_everywhere(cmd: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main([*cmd, "--help"])
    assert e.value.code == 0
    assert "usage: quadropolis" in capsys.readouterr().out


def test_bench_quick_reports_every_figure_with_units(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--quick", "--json")
    assert code == 0
    figures = json.loads(out)
    for key in ("playouts_classic_2p", "playouts_classic_4p", "playouts_expert_2p", "playouts_expert_4p"):
        assert figures[key]["unit"] == "games/s" and figures[key]["value"] > 0
        assert figures[key + "_cpu"]["unit"] == "games/cpu-s" and figures[key + "_cpu"]["value"] > 0
    assert figures["score_expert_median"]["unit"] == "ms"
    assert figures["score_expert_p99"]["value"] >= figures["score_expert_median"]["value"]
    assert figures["state_bytes"]["unit"] == "bytes" and figures["state_bytes"]["value"] > 0


def test_console_script_runs_as_a_subprocess(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "quadropolis"
    assert exe.exists(), "the console script is installed with the package"
    f = write(tmp_path, "city.json", json.dumps(CLASSIC_CITY))
    ok = subprocess.run([str(exe), "score", f, "--json"], capture_output=True, text=True, env=os.environ)
    assert ok.returncode == 0 and json.loads(ok.stdout)["total"] == 9
    bad = subprocess.run([str(exe), "score", str(tmp_path / "nope.json")], capture_output=True, text=True)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
