"""The command line against hostile or unusual input: deeply nested JSON and huge
integer literals, streamed JSON Lines, a reader that goes away, megabyte-long values in
messages, records written by ``simulate --records``, seat names, the legend, the quick
benchmark's workload and the rules in ``--help``.

Commands run in-process through ``main`` unless the test needs a real pipe, when the
console script runs as a subprocess. No figure is measured here: the benchmark's sections
are replaced by a recorder."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from test_cli import CLASSIC_CITY, EXPERT_CITY

from quadropolis.cli import main
from quadropolis.cli.options import MAX_JSON_DEPTH, CliError, load_json_text, one_line
from quadropolis.render import render_legend
from quadropolis.tiles import Mode

EXE = Path(sys.executable).parent / "quadropolis"
TIMEOUT = 60
RULES_HELP = "rules of play: docs/rules.md (rulings R1–R16 cited in messages)"
MEGABYTE = 1_000_000


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err[:500]
    return lines[0]


def records(tmp_path: Path, games: int = 3) -> Path:
    """A file of JSON Lines records written by ``simulate --records``."""
    path = tmp_path / "games.jsonl"
    assert main(["simulate", "--games", str(games), "--seed", "5", "--records", str(path), "--json"]) == 0
    return path


def record(seats: list[str] | None = None, moves: list[str] | None = None) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "format": "quadropolis-game/1",
        "config": {"mode": "classic", "players": 2, "seed": 1},
        "moves": moves if moves is not None else ["1T1", "r1c1", "1T2", "r1c1"],
    }
    if seats is not None:
        rec["seats"] = seats
    return rec


# --- 1. nesting and huge integers ------------------------------------------------------------


DEEP = "[" * 1000 + "]" * 1000
HUGE_INT = "9" * 5000


@pytest.mark.parametrize("command", ["score", "replay"])
def test_json_nested_a_thousand_deep_is_one_error_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "deep.json"
    f.write_text(DEEP)
    code, _, err = run(capsys, command, str(f))
    assert code == 1
    line = one_error_line(err)
    assert (
        line == f"quadropolis {command}: error: {f}: line 1: JSON nested deeper than {MAX_JSON_DEPTH} levels"
    )


@pytest.mark.parametrize("content", [DEEP, HUGE_INT])
def test_play_load_of_deep_json_or_a_huge_integer_is_one_error_line(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "saved.json"
    f.write_text(content)
    code, _, err = run(capsys, "play", "--load", str(f))
    assert code == 1
    line = one_error_line(err)
    assert line.startswith(f"quadropolis play: error: {f}: line 1: ")
    assert "nested deeper" in line or "digits" in line


def test_deep_nesting_inside_a_pretty_printed_document_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "deep.json"
    f.write_text('{\n  "mode": "classic",\n  "rows": ' + DEEP + "\n}\n")
    code, _, err = run(capsys, "score", str(f))
    assert code == 1 and f"{f}: line 3: JSON nested deeper than" in one_error_line(err)


@pytest.mark.parametrize("command", ["score", "replay"])
def test_an_integer_literal_over_4300_digits_is_one_error_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "huge.json"
    f.write_text(json.dumps(CLASSIC_CITY) + '\n{"mode": "classic", "energy": ' + HUGE_INT + "}\n")
    code, _, err = (
        run(capsys, command, str(f), "--game", "2")
        if command == "replay"
        else run(capsys, command, str(f), "--json")
    )
    assert code == 1
    assert one_error_line(err).endswith(f"{f}: line 2: integer literal of 5000 digits (at most 4300)")


def test_load_json_text_raises_only_the_domain_error() -> None:
    """The helper other applications (``play --load``) use: a domain error naming the place."""
    with pytest.raises(CliError, match=r"^save\.json: line 1: JSON nested deeper than"):
        load_json_text(DEEP, "save.json")
    with pytest.raises(CliError, match=r"^save\.json: line 3: integer literal of 5000 digits"):
        load_json_text('{\n"seed":\n' + HUGE_INT + "}", "save.json")
    with pytest.raises(CliError, match=r"^save\.json: line 2: invalid JSON \(Expecting value at column 11\)"):
        load_json_text('{"a":\n  1, "b": }', "save.json")
    with pytest.raises(CliError, match=r"^g\.jsonl: line 12: invalid JSON"):
        load_json_text("{oops", "g.jsonl", first_line=12)
    nested = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert load_json_text(nested, "ok.json") is not None  # the limit itself is accepted
    assert load_json_text('{"a": [1, {"b": null}]}', "x") == {"a": [1, {"b": None}]}


# --- 2. streaming score ----------------------------------------------------------------------


def _readline(stream: Any, timeout: float) -> str | None:
    """One line from ``stream``, or None if none comes within ``timeout`` seconds."""
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return box[0] if box else None


def test_score_streams_json_lines_one_result_per_city_before_the_input_ends() -> None:
    proc = subprocess.Popen(
        [str(EXE), "score", "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        proc.stdin.write(json.dumps(CLASSIC_CITY) + "\n")
        proc.stdin.flush()
        first = _readline(proc.stdout, TIMEOUT)  # the input is still open
        assert first is not None, "no result before the end of the input"
        assert json.loads(first)["total"] == 9
        proc.stdin.write(json.dumps(EXPERT_CITY) + "\n")
        proc.stdin.flush()
        second = _readline(proc.stdout, TIMEOUT)
        assert second is not None and json.loads(second)["total"] == 19
        proc.stdin.write("{bad\n" + json.dumps(CLASSIC_CITY) + "\n")
        proc.stdin.close()
        rest = proc.stdout.read()
        err = proc.stderr.read()
        assert proc.wait(TIMEOUT) == 1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert rest == ""
    assert one_error_line(err).startswith("quadropolis score: error: -: line 3: invalid JSON")


def test_a_bad_line_in_the_middle_is_named_after_the_earlier_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [json.dumps(CLASSIC_CITY), "", json.dumps(EXPERT_CITY), '{"mode": "classic", "rows": [}']
    f = tmp_path / "cities.jsonl"
    f.write_text("\n".join([*lines, json.dumps(CLASSIC_CITY)]) + "\n")
    code, out, err = run(capsys, "score", str(f), "--json")
    assert code == 1
    assert [json.loads(x)["total"] for x in out.splitlines()] == [9, 19]
    assert one_error_line(err).startswith(f"quadropolis score: error: {f}: line 4: invalid JSON")


def test_score_reads_standard_input_lazily(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In-process: when the second line is asked for, the first result is already written."""
    seen_before_second: list[str] = []

    class Lines(io.StringIO):
        def __iter__(self) -> Any:
            yield json.dumps(CLASSIC_CITY) + "\n"
            seen_before_second.append(capsys.readouterr().out)
            yield json.dumps(EXPERT_CITY) + "\n"

    monkeypatch.setattr(sys, "stdin", Lines())
    code, out, _ = run(capsys, "score", "-", "--json")
    assert code == 0
    assert json.loads(seen_before_second[0])["total"] == 9
    assert json.loads(out)["total"] == 19


def test_a_single_document_or_an_array_is_still_accepted_and_errors_name_their_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "c.json"
    for text, totals in [
        (json.dumps(CLASSIC_CITY, indent=2), [9]),  # one document over many lines
        (json.dumps([CLASSIC_CITY, EXPERT_CITY], indent=1), [9, 19]),  # an array over many lines
        (json.dumps([CLASSIC_CITY, EXPERT_CITY]), [9, 19]),  # an array on one line
    ]:
        f.write_text(text)
        code, out, err = run(capsys, "score", str(f), "--json")
        assert code == 0, err
        assert [json.loads(x)["total"] for x in out.splitlines()] == totals
    # An error inside a document laid out over several lines names its own line (not line 1).
    f.write_text('{\n  "mode": "classic",\n  "rows": [,]\n}\n')
    code, _, err = run(capsys, "score", str(f))
    assert code == 1 and f"{f}: line 3: invalid JSON (Expecting value at column 12)" in one_error_line(err)
    f.write_text(json.dumps([CLASSIC_CITY, {"mode": "classic"}], indent=2))
    code, _, err = run(capsys, "score", str(f))
    assert code == 1 and f"{f}: city 2: city: missing field 'rows'" in one_error_line(err)


def test_score_text_that_is_not_utf8_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "c.jsonl"
    f.write_bytes(json.dumps(CLASSIC_CITY).encode() + b"\n\xff\xfe\n")
    code, out, err = run(capsys, "score", str(f), "--json")
    assert code == 1 and json.loads(out)["total"] == 9
    assert one_error_line(err).endswith(f"{f}: line 2: not UTF-8 text")


# --- 3. a closed pipe, non-positive counts ----------------------------------------------------


def test_simulate_into_a_pipe_closed_early_exits_quietly() -> None:
    proc = subprocess.Popen(
        [str(EXE), "simulate", "--json", "--games", "1000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        first = proc.stdout.readline()  # like `head -1`
        proc.stdout.close()
        err = proc.stderr.read()
        code = proc.wait(TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert json.loads(first)["seed"] == 0
    assert err == b""
    assert code == 141  # 128 + SIGPIPE, as `seq 1000000 | head -1` gives


def test_a_broken_pipe_in_process_returns_141_without_a_message(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class ClosedPipe(io.StringIO):
        def write(self, s: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["simulate", "--json", "--games", "2"]) == 141
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--repeat", "-3"],
        ["bench", "--repeat", "0"],
        ["bench", "--repeat", "many"],
        ["simulate", "--games", "0"],
        ["replay", "x.json", "--game", "0"],
    ],
)
def test_non_positive_counts_are_a_malformed_command_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    line = one_error_line(capsys.readouterr().err)
    assert "must be at least 1" in line or "expected a positive integer" in line


# --- 4. long input in messages ---------------------------------------------------------------


def test_one_line_clips_quoted_input_and_caps_the_line() -> None:
    quoted = one_line("city: unknown field(s) '" + "x" * MEGABYTE + "' (R12)")
    assert (
        len(quoted) <= 120
        and quoted.startswith("city: unknown field(s) 'xxx")
        and quoted.endswith("…' (R12)")
    )
    bare = one_line("got " + "7" * MEGABYTE + " floors")
    assert bare.endswith("… floors") and len(bare) < 100
    many = one_line(" ".join(["word"] * MEGABYTE))
    assert len(many) <= 400 and "…" in many
    assert one_line("two\nlines\r") == "two\\nlines\\r"
    assert one_line("player's city holds 3 tiles, it's fine") == "player's city holds 3 tiles, it's fine"


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--mode", "m" * MEGABYTE],  # argparse quotes the bad choice
        ["bench", "b" * MEGABYTE],  # the command quotes the unknown section
        ["score", "/nonexistent/" + "d" * 200_000],  # the file name
    ],
)
def test_no_message_quotes_a_megabyte(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as e:
        code = int(str(e.code))
    assert code in (1, 2)
    line = one_error_line(capsys.readouterr().err)
    assert len(line) <= 400 and "…" in line


# --- 5. replay: JSON Lines, --game, seat names -------------------------------------------------


def test_replay_reads_the_json_lines_of_simulate_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = records(tmp_path)
    capsys.readouterr()
    second = tmp_path / "second.json"
    second.write_text(path.read_text().splitlines()[1])
    code, out, err = run(capsys, "replay", str(path), "--game", "2", "--json")
    assert code == 0, err
    code, alone, _ = run(capsys, "replay", str(second), "--json")
    assert code == 0 and out == alone
    code, text, _ = run(capsys, "replay", str(path), "--game", "3")
    assert code == 0 and text.startswith(f"Game 3 ({path}: line 3)") and "Winner: Player" in text


def test_replay_of_several_games_without_game_says_how_many(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = records(tmp_path, games=4)
    capsys.readouterr()
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert one_error_line(err) == (
        f"quadropolis replay: error: {path} holds 4 games (JSON Lines, one a line): "
        "choose one with --game N (1-4)"
    )
    code, _, err = run(capsys, "replay", str(path), "--game", "5")
    assert code == 1 and one_error_line(err).endswith(
        f"{path} holds only 4 games: --game 5 is out of range (1-4)"
    )


def test_replay_of_one_pretty_printed_record_takes_game_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = Path(__file__).parents[1] / "engine" / "golden" / "classic_2p_seed101.json"
    code, out, err = run(capsys, "replay", str(golden), "--game", "1", "--json")
    assert code == 0 and json.loads(out)["over"] is True, err
    code, _, err = run(capsys, "replay", str(golden), "--game", "2")
    assert code == 1 and "holds only 1 game: --game 2 is out of range (1-1)" in err


def test_replay_shows_seats_one_based_without_seats_in_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = Path(__file__).parents[1] / "engine" / "golden" / "classic_2p_seed101.json"
    code, out, _ = run(capsys, "replay", str(golden))
    assert code == 0
    assert "Player 0" not in out and "player 0" not in out
    header = next(line for line in out.splitlines() if line.startswith("|") and "Player" in line)
    assert header.split("|")[2].strip() == "Player 1" and header.split("|")[3].strip() == "Player 2"
    winners = json.loads(golden.read_text())["result"]["winners"]
    assert out.splitlines()[-1].startswith(f"Winner: Player {winners[0] + 1} with ")


def test_replay_names_seats_from_the_record_without_building_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import quadropolis.bots

    def no_bots(*args: object, **kwargs: object) -> None:
        raise AssertionError("replay must not build bots from a file")

    monkeypatch.setattr(quadropolis.bots, "make_bot", no_bots)
    f = tmp_path / "r.json"
    f.write_text(json.dumps(record(seats=["human:Ann", "mcts:iterations=999999999,workers=64"])))
    code, out, err = run(capsys, "replay", str(f))
    assert code == 0, err
    header = next(line for line in out.splitlines() if line.startswith("|") and "Ann" in line)
    assert [c.strip() for c in header.split("|")[2:4]] == ["Ann", "Bot mcts:iterations=999…"]
    assert "mayor: Ann" in out  # seat 1 holds the mayor in round 1


def test_replay_errors_name_the_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "r.json"
    moves = ["1T1", "r1c1", "1T2", "r1c1", "1T1"]  # Ann plays architect #1 twice in round 1
    f.write_text(json.dumps(record(seats=["human:Ann", "greedy"], moves=moves)))
    code, _, err = run(capsys, "replay", str(f))
    assert code == 1
    assert one_error_line(err).endswith(
        "move 5 (1T1): illegal: architect #1 at T1: Ann has already used architect #1 this round"
    )
    f.write_text(json.dumps(record(moves=moves)))
    code, _, err = run(capsys, "replay", str(f))
    assert code == 1 and err.rstrip().endswith("Player 1 has already used architect #1 this round")


def test_repeated_or_unprintable_seat_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "r.json"
    f.write_text(json.dumps(record(seats=["greedy", "greedy"])))
    code, out, _ = run(capsys, "replay", str(f))
    assert code == 0 and "Bot greedy (2)" in out
    f.write_text(json.dumps(record(seats=["human:Ann\nBo\x1b[2J", "human:   "])))
    code, out, _ = run(capsys, "replay", str(f))
    assert code == 0 and "Ann Bo [2J" in out and "\x1b" not in out
    assert "Player 2" in out  # a blank name keeps the default


def test_simulate_summary_names_seats_one_based(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--players", "3", "--games", "2")
    assert code == 0
    assert [line.split(":")[0] for line in out.splitlines()[-3:]] == ["Player 1", "Player 2", "Player 3"]
    assert "seat 0" not in out


# --- 6. legend -------------------------------------------------------------------------------


def test_score_prints_the_legend_below_the_drawing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text(
        json.dumps(CLASSIC_CITY) + "\n" + json.dumps(CLASSIC_CITY) + "\n" + json.dumps(EXPERT_CITY) + "\n"
    )
    code, out, _ = run(capsys, "score", str(f))
    assert code == 0
    classic, expert = render_legend(Mode.CLASSIC), render_legend(Mode.EXPERT)
    assert "office tower" not in classic and "office tower" in expert
    drawing_end = out.index("  r4 ")
    assert drawing_end < out.index(classic) < out.index("TOTAL")
    assert out.count(classic) == 1  # once per mode, not once per city
    assert out.index("City 3 (expert)") < out.index(expert)


def test_replay_prints_the_legend(capsys: pytest.CaptureFixture[str]) -> None:
    golden = Path(__file__).parents[1] / "engine" / "golden" / "expert_2p_seed303.json"
    code, out, _ = run(capsys, "replay", str(golden))
    assert code == 0 and render_legend(Mode.EXPERT) in out
    assert out.index(render_legend(Mode.EXPERT)) < out.index("TOTAL")


# --- 7. bench workloads ----------------------------------------------------------------------


@pytest.fixture
def bench_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, Any]]:
    """Replace the benchmark's sections by a recorder: nothing is measured in tests."""
    import quadropolis.bench as bench

    calls: list[tuple[str, int, Any]] = []

    def section(name: str) -> Any:
        def run_section(report: Any, repeat: int, work: Any) -> None:
            calls.append((name, repeat, work))
            report(f"{name}_figure", 1.0, "unit", name)

        return run_section

    monkeypatch.setattr(bench, "section", section)
    return calls


def test_bench_quick_runs_the_small_workload_once_by_default(
    bench_calls: list[tuple[str, int, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    from quadropolis.bench import QUICK

    code, out, _ = run(capsys, "bench", "--quick")
    assert code == 0 and "median of 1 run(s)" in out
    assert [(n, r) for n, r, _ in bench_calls] == [("engine", 1), ("engines", 1), ("bots", 1)]
    assert all(w is QUICK for _, _, w in bench_calls)
    bench_calls.clear()
    run(capsys, "bench", "bots", "--quick", "--repeat", "3")
    assert bench_calls == [("bots", 3, QUICK)]


def test_bench_full_run_measures_what_it_measured_before(
    bench_calls: list[tuple[str, int, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    from quadropolis.bench import FULL, QUICK

    code, _, _ = run(capsys, "bench", "engine")
    assert code == 0 and bench_calls == [("engine", 5, FULL)]
    # The figures of docs/performance.md: 2 s of playouts and of search, 1,000 cities, 8 decisions, 5 runs.
    assert (FULL.repeat, FULL.playout_seconds, FULL.scoring_cities, FULL.mcts_seconds) == (5, 2.0, 1000, 2.0)
    assert FULL.level_positions == tuple(range(8))
    assert QUICK.playout_seconds * 4 + QUICK.mcts_seconds * 4 <= 1.0
    assert set(QUICK.level_positions) <= set(FULL.level_positions) and len(QUICK.level_positions) == 1


# --- 8. where the rules are ------------------------------------------------------------------


@pytest.mark.parametrize("cmd", [[], ["score"], ["simulate"], ["replay"], ["bench"]])
def test_help_says_where_the_rules_are(cmd: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main([*cmd, "--help"])
    assert e.value.code == 0
    assert RULES_HELP in " ".join(capsys.readouterr().out.split())


def test_the_console_script_prints_the_rules_epilog() -> None:
    done = subprocess.run([str(EXE), "--help"], capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0 and RULES_HELP in " ".join(done.stdout.split())
