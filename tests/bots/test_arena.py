"""The arena: seat rotation, determinism across jobs and backends, the statistics (Wilson
interval, Bradley-Terry rating) against hand-computed values, the JSON/CSV/PNG outputs, the
progress bar and the command line's errors. Games use the fast ``random`` and ``greedy``
bots (a tiny MCTS budget where the search itself must be reproducible)."""

from __future__ import annotations

import csv
import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from quadropolis import GameConfig, Mode
from quadropolis.arena import (
    ArenaError,
    entrant_labels,
    lineup,
    run_tournament,
    schedule,
)
from quadropolis.arena.report import ProgressBar, format_duration
from quadropolis.cli import main
from quadropolis.errors import ConfigError
from quadropolis.scoring import CATEGORIES
from quadropolis.stats import bradley_terry, mean_sd, pairwise_results, wilson_interval


def _deterministic(doc: dict[str, Any]) -> dict[str, Any]:
    """The results JSON without what depends on the machine (timings, backend, jobs)."""
    d: dict[str, Any] = json.loads(json.dumps(doc))
    d.pop("run")
    for g in d["games"]:
        g.pop("think_seconds")
    for e in d["summary"]["entrants"]:
        e.pop("seconds_per_move")
    return d


def _arena(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    """Run ``quadropolis arena`` in-process; returns (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        status = main(["arena", *args])
    except SystemExit as e:
        status = int(e.code or 0)
    finally:
        sys.stdout, sys.stderr = old
    return status, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------- seats


def test_lineup_rotates_entrant_i_to_seat_i_plus_g() -> None:
    assert lineup(4, 0) == (0, 1, 2, 3)
    assert lineup(4, 1) == (3, 0, 1, 2)  # entrant 0 in seat 1, entrant 3 in seat 0
    assert lineup(3, 5) == lineup(3, 2) == (1, 2, 0)
    for n in (2, 3, 4):
        for g in range(2 * n):
            seats = lineup(n, g)
            for i in range(n):
                assert seats[(i + g) % n] == i
        # Over N consecutive games every entrant sits in every seat exactly once.
        for i in range(n):
            assert sorted(lineup(n, g).index(i) for g in range(n)) == list(range(n))


def test_tournament_seats_and_seeds_follow_the_rotation() -> None:
    specs = ["greedy", "random", "random"]
    result = run_tournament(GameConfig(players=3), specs, 3, seed=40, jobs=1)
    assert [g.game for g in result.games] == [0, 1, 2]
    assert [g.seed for g in result.games] == [40, 41, 42]
    seat_of_greedy = []
    for g in result.games:
        assert g.entrants == lineup(3, g.game)
        assert g.bots == tuple(specs[e] for e in g.entrants)
        assert g.record["seats"] == list(g.bots)
        assert g.record["config"]["seed"] == g.seed
        seat_of_greedy.append(g.bots.index("greedy"))
    assert seat_of_greedy == [0, 1, 2]
    assert result.labels == ["greedy", "random", "random#2"]
    assert all(e.games == 3 for e in result.entrants)


def test_round_robin_schedule_plays_every_group_on_the_same_seeds() -> None:
    fixtures = schedule(4, 2, 4, round_robin=True)
    assert [f.game for f in fixtures] == list(range(6 * 4))  # C(4, 2) pairs x 4 games
    groups: dict[frozenset[int], list[tuple[int, tuple[int, ...]]]] = {}
    for f in fixtures:
        groups.setdefault(frozenset(f.seats), []).append((f.offset, f.seats))
    assert len(groups) == 6
    for pair, games in groups.items():
        assert [offset for offset, _ in games] == [0, 1, 2, 3]  # every pair sees seeds S..S+3
        for e in pair:  # each member sits in each seat twice
            assert sorted(seats.index(e) for _, seats in games) == [0, 0, 1, 1]
    three = schedule(4, 3, 3, round_robin=True)
    assert len(three) == 4 * 3 and all(len(set(f.seats)) == 3 for f in three)
    assert schedule(2, 2, 3) == schedule(2, 2, 3, round_robin=False)
    assert [f.seats for f in schedule(2, 2, 3)] == [lineup(2, g) for g in range(3)]
    with pytest.raises(ArenaError, match="more entrants than the 2 seats"):
        schedule(2, 2, 3, round_robin=True)


def test_round_robin_tournament_rates_every_entrant_from_its_own_games() -> None:
    specs = ["random", "greedy", "easy"]
    result = run_tournament(GameConfig(players=2), specs, 4, seed=60, jobs=1, round_robin=True)
    assert len(result.games) == 12 and result.round_robin
    assert all(e.games == 8 for e in result.entrants)
    assert {g.seed for g in result.games} == {60, 61, 62, 63}
    h2h = result.head_to_head()
    for i in range(3):
        assert h2h[i][i] == (0.0, 0)
        for j in range(3):
            if i != j:
                (p, n), (q, m) = h2h[i][j], h2h[j][i]
                assert n == m == 4 and p + q == 4
    # greedy beats random in every game: 4 of 4 points, and the best rating
    assert h2h[1][0] == (4.0, 4)
    assert max(result.entrants, key=lambda e: e.rating).spec == "greedy"
    again = run_tournament(GameConfig(players=2), specs, 4, seed=60, jobs=2, round_robin=True)
    assert _deterministic(again.to_json()) == _deterministic(result.to_json())
    doc = result.to_json()
    assert doc["tournament"]["round_robin"] is True and doc["tournament"]["games_per_group"] == 4
    assert doc["summary"]["head_to_head"][1][0] == {"points": 4.0, "encounters": 4}


def test_round_robin_command_prints_the_head_to_head_table(tmp_path: Path) -> None:
    status, out, _ = _arena(
        tmp_path, "--round-robin", "--games", "2", "--seed", "5", "--jobs", "1", "--quiet",
        "--bot", "random", "--bot", "greedy", "--bot", "random",
    )  # fmt: skip
    assert status == 0, out
    assert "round robin: every group of 2 plays seeds 5-6" in out
    assert "row's score against column" in out
    row = next(line for line in out.splitlines() if line.startswith("greedy ") and "of 2" in line)
    assert row.count("100% (34%-100%) of 2") == 2  # greedy beat both randoms twice
    status, _, err = _arena(tmp_path, "--round-robin", "--bot", "random", "--bot", "greedy")
    assert status == 1 and "--round-robin needs more --bot options than the 2 players, got 2" in err


def test_labels_number_repeated_specs() -> None:
    assert entrant_labels(["hard", "greedy", "greedy", " greedy "]) == [
        "hard",
        "greedy",
        "greedy#2",
        "greedy#3",
    ]


# --------------------------------------------------------------------------- statistics


def test_wilson_interval_matches_hand_computation() -> None:
    # z = 1.96: 8/10 -> centre (0.8 + 0.19207)/1.38415 = 0.71674, half-width 0.22658.
    lo, hi = wilson_interval(8, 10)
    assert lo == pytest.approx(0.49016, abs=1e-4)
    assert hi == pytest.approx(0.94332, abs=1e-4)
    lo, hi = wilson_interval(5, 10)
    assert (lo, hi) == (pytest.approx(0.23659, abs=1e-4), pytest.approx(0.76341, abs=1e-4))
    lo, hi = wilson_interval(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12)
    assert hi == pytest.approx(0.27753, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert lo == pytest.approx(0.72247, abs=1e-4)
    assert hi == pytest.approx(1.0, abs=1e-12)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_mean_and_sample_sd() -> None:
    assert mean_sd([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) == (5.0, pytest.approx(math.sqrt(32 / 7)))
    assert mean_sd([3.0]) == (3.0, 0.0)
    assert mean_sd([]) == (0.0, 0.0)


def test_pairwise_results_of_one_game() -> None:
    # Seats hold entrants 2, 0, 1 with ranking keys: seat 0 and seat 2 tie, seat 1 last.
    keys = [(40, 5, -3), (30, 9, 0), (40, 5, -3)]
    assert pairwise_results([2, 0, 1], keys) == [(2, 0, 1.0), (2, 1, 0.5), (0, 1, 0.0)]


def test_rating_always_winner_is_higher_and_closed_form() -> None:
    ratings = bradley_terry(2, [(0, 1, 1.0)] * 10)
    assert ratings[0] > ratings[1]
    assert sum(ratings) / 2 == pytest.approx(1500.0)
    # Two entrants: p0/p1 = points0/points1 with the prior draw: 10.5 / 0.5.
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(21), abs=1e-6)


def test_rating_symmetric_results_give_equal_ratings() -> None:
    # Round robin with every pair split evenly, and a cycle A>B>C>A: all equal.
    even = [(i, j, s) for i in range(3) for j in range(3) if i < j for s in (1.0, 0.0, 0.5)]
    assert bradley_terry(3, even) == pytest.approx([1500.0] * 3)
    cycle = [(0, 1, 1.0), (1, 2, 1.0), (2, 0, 1.0)] * 4
    assert bradley_terry(3, cycle) == pytest.approx([1500.0] * 3)
    assert bradley_terry(2, []) == pytest.approx([1500.0, 1500.0])


def test_rating_orders_a_transitive_field() -> None:
    results = (
        [(0, 1, 1.0)] * 6 + [(1, 0, 1.0)] * 2 + [(1, 2, 1.0)] * 6 + [(2, 1, 1.0)] * 2 + [(0, 2, 1.0)] * 8
    )
    r = bradley_terry(3, results)
    assert r[0] > r[1] > r[2]
    assert sum(r) / 3 == pytest.approx(1500.0)


# --------------------------------------------------------------------------- determinism


def test_same_arguments_same_results_whatever_the_jobs() -> None:
    template = GameConfig(mode=Mode.CLASSIC, players=2)
    a = run_tournament(template, ["greedy", "random"], 4, seed=7, jobs=1)
    b = run_tournament(template, ["greedy", "random"], 4, seed=7, jobs=1)
    c = run_tournament(template, ["greedy", "random"], 4, seed=7, jobs=2)
    assert _deterministic(a.to_json()) == _deterministic(b.to_json()) == _deterministic(c.to_json())
    assert [g.game for g in c.games] == [0, 1, 2, 3]
    assert c.jobs == 2 and c.backend == "local"
    # A different seed gives different games.
    d = run_tournament(template, ["greedy", "random"], 4, seed=8, jobs=1)
    assert [g.record["moves"] for g in d.games] != [g.record["moves"] for g in a.games]


def test_ray_backend_gives_the_local_results() -> None:
    pytest.importorskip("ray")
    template = GameConfig(players=2)
    # A tiny MCTS budget: its search, run in other interpreters, must be reproducible too.
    specs = ["greedy", "mcts:iterations=8"]
    done: list[tuple[int, int]] = []
    on_ray = run_tournament(
        template, specs, 4, seed=3, jobs=2, backend="ray", progress=lambda d, t: done.append((d, t))
    )
    local = run_tournament(template, specs, 4, seed=3, jobs=1)
    assert _deterministic(on_ray.to_json()) == _deterministic(local.to_json())
    assert on_ray.backend == "ray"
    assert done[0] == (0, 4) and done[-1] == (4, 4)


def test_tournament_statistics_are_consistent() -> None:
    result = run_tournament(GameConfig(players=2), ["greedy", "random"], 4, seed=11, jobs=1)
    shares = sum(e.wins for e in result.entrants)
    assert shares == pytest.approx(4.0)
    for e in result.entrants:
        mine = [g.scores[g.seat_of(e.entrant)] for g in result.games]
        assert e.mean_score == pytest.approx(sum(mine) / 4)
        lo, hi = e.win_rate_ci95
        assert lo <= e.win_rate <= hi
        # The category means add up to the mean score (the breakdown sums to the total).
        assert sum(e.category_means.values()) == pytest.approx(e.mean_score)
        assert e.decisions > 0 and e.seconds_per_move >= 0
    assert result.mean_winning_score == pytest.approx(sum(max(g.scores) for g in result.games) / 4)
    assert sum(e.rating for e in result.entrants) / 2 == pytest.approx(1500.0)


def test_greedy_beats_random_most_of_the_time() -> None:
    result = run_tournament(
        GameConfig(mode=Mode.CLASSIC, players=2), ["greedy", "random"], 10, seed=100, jobs=2
    )
    greedy, rnd = result.entrants
    assert greedy.wins >= 8
    assert greedy.rating > rnd.rating + 100
    assert greedy.mean_score > rnd.mean_score
    assert greedy.win_rate_ci95[0] > 0.5


def test_library_errors() -> None:
    with pytest.raises(ArenaError, match="3 players need 3"):
        run_tournament(GameConfig(players=3), ["greedy", "random"], 3)
    with pytest.raises(ConfigError, match="unknown bot"):
        run_tournament(GameConfig(players=2), ["greedy", "nosuch"], 2)
    with pytest.raises(ArenaError, match="backend"):
        run_tournament(GameConfig(players=2), ["greedy", "random"], 2, backend="slurm")
    with pytest.raises(ArenaError, match="at least 1"):
        run_tournament(GameConfig(players=2), ["greedy", "random"], 0)


# --------------------------------------------------------------------------- outputs


def test_json_output_structure_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.json"
    status, stdout, stderr = _arena(
        tmp_path, "--games", "2", "--seed", "5", "--bot", "greedy", "--bot", "random", "--jobs", "1",
        "--out", str(out), "--quiet",
    )  # fmt: skip
    assert status == 0, stderr
    assert stderr == ""
    assert "greedy" in stdout and "random" in stdout and "Mean winning score" in stdout
    doc = json.loads(out.read_text())
    assert doc["format"] == "quadropolis-arena/1"
    assert [g["seed"] for g in doc["games"]] == [5, 6]
    assert doc["games"][0]["bots"] == ["greedy", "random"]
    assert doc["games"][1]["bots"] == ["random", "greedy"]
    summary = doc["summary"]
    assert [e["label"] for e in summary["entrants"]] == ["greedy", "random"]
    assert set(summary["entrants"][0]["category_means"]) == set(CATEGORIES)
    assert {"win_rate_ci95", "rating", "mean_score", "sd_score", "seconds_per_move"} <= set(
        summary["entrants"][0]
    )
    assert summary["mean_winning_score"] == sum(max(g["scores"]) for g in doc["games"]) / 2
    for g in doc["games"]:
        assert g["record"]["result"]["scores"] == g["scores"]
        assert g["record"]["result"]["winners"] == g["winners"]
        assert [sum(b.values()) for b in g["breakdowns"]] == g["scores"]
    # A game's record, saved alone, replays to the same scores with `quadropolis replay`.
    game = doc["games"][1]
    rec = tmp_path / "game1.json"
    rec.write_text(json.dumps(game["record"]))
    capsys.readouterr()
    assert main(["replay", str(rec), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["over"] is True
    assert replayed["scores"] == game["scores"]
    assert replayed["winners"] == game["winners"]


def test_cli_json_is_identical_across_runs_and_jobs(tmp_path: Path) -> None:
    docs = []
    for name, jobs in (("a.json", "1"), ("b.json", "1"), ("c.json", "2")):
        args = (
            "--games",
            "2",
            "--seed",
            "9",
            "--bot",
            "random",
            "--bot",
            "greedy",
            "--jobs",
            jobs,
            "--quiet",
        )
        status, _, err = _arena(tmp_path, *args, "--out", str(tmp_path / name))
        assert status == 0, err
        docs.append(_deterministic(json.loads((tmp_path / name).read_text())))
    assert docs[0] == docs[1] == docs[2]


def test_csv_output(tmp_path: Path) -> None:
    out = tmp_path / "results.csv"
    status, _, err = _arena(
        tmp_path, "--players", "3", "--games", "3", "--bot", "greedy", "--bot", "random", "--bot", "random",
        "--jobs", "1", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert status == 0, err
    rows = list(csv.DictReader(out.read_text().splitlines()))
    assert len(rows) == 3 * 3
    header = list(rows[0])
    assert header[:5] == ["game", "seed", "seat", "bot", "entrant"]
    assert {"score", "winner", "think_seconds", "decisions", *CATEGORIES} <= set(header)
    assert {r["entrant"] for r in rows} == {"greedy", "random", "random#2"}
    for g in range(3):
        game = [r for r in rows if r["game"] == str(g)]
        assert [r["seat"] for r in game] == ["0", "1", "2"]
        assert {r["seed"] for r in game} == {str(g)}
        assert [r["entrant"] for r in game].index("greedy") == g  # rotation
        assert sum(int(r["winner"]) for r in game) >= 1
        for r in game:
            assert sum(int(r[c]) for c in CATEGORIES) == int(r["score"])
            assert int(r["decisions"]) > 0


def test_plot_is_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "scores.png"
    status, stdout, err = _arena(
        tmp_path,
        "--games",
        "2",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--jobs",
        "1",
        "--plot",
        str(plot),
        "--quiet",
    )
    assert status == 0, err
    data = plot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 5000
    assert str(plot) in stdout


# --------------------------------------------------------------------------- progress


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_progress_bar_line_and_eta() -> None:
    clock = _Clock()
    bar = ProgressBar(io.StringIO(), width=10, tty=True, clock=clock)
    clock.t = 62.0
    assert bar.line(120, 400) == "[###-------] 120/400 games  1m02s elapsed  ETA 2m25s"
    assert bar.line(0, 400).endswith("ETA --")
    assert format_duration(5.4) == "5s"
    assert format_duration(3725) == "1h02m"


def test_progress_bar_redraws_in_place_on_a_tty() -> None:
    clock = _Clock()
    stream = io.StringIO()
    bar = ProgressBar(stream, width=4, tty=True, clock=clock)
    for done in range(5):
        clock.t = done * 1.0
        bar(done, 4)
    text = stream.getvalue()
    assert text.count("\r") == 5
    assert text.endswith("[####] 4/4 games  4s elapsed  ETA 0s\n")
    assert text.count("\n") == 1


def test_progress_bar_prints_occasional_lines_otherwise() -> None:
    clock = _Clock()
    stream = io.StringIO()
    bar = ProgressBar(stream, width=4, tty=False, every=10.0, clock=clock)
    for done in range(21):
        clock.t = done * 1.0
        bar(done, 20)
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert lines == [
        "[##--] 10/20 games  10s elapsed  ETA 10s",
        "[####] 20/20 games  20s elapsed  ETA 0s",
    ]


def test_cli_shows_progress_on_stderr(tmp_path: Path) -> None:
    status, _, err = _arena(tmp_path, "--games", "2", "--bot", "random", "--bot", "random", "--jobs", "1")
    assert status == 0
    assert err.strip() == "[####################] 2/2 games  0s elapsed  ETA 0s"


# --------------------------------------------------------------------------- command line


def test_help_explains_rotation_and_bots(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["arena", "--help"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    for needle in (
        "(i+g) mod N",
        "S+g",
        "Wilson",
        "Bradley-Terry",
        "random",
        "greedy",
        "mcts",
        "--backend",
        "--jobs",
    ):
        assert needle in text
    from quadropolis.bots import LEVEL_DETAILS

    for level, what in LEVEL_DETAILS.items():
        assert level in text and what[:30] in text


def test_warns_when_games_not_a_multiple_of_players(tmp_path: Path) -> None:
    status, _, err = _arena(
        tmp_path, "--games", "3", "--bot", "random", "--bot", "random", "--jobs", "1", "--quiet"
    )
    assert status == 0
    assert "warning: 3 games is not a multiple of 2 players" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--players", "3", "--bot", "greedy", "--bot", "random"],
            "--players 3 needs 3 --bot options, got 2",
        ),
        (["--bot", "greedy"], "2 to 4 --bot options"),
        ([], "no bots"),
        (["--bot", "greedy", "--bot", "wizard"], "unknown bot 'wizard'"),
        (["--bot", "greedy", "--bot", "mcts:iterations=-3"], "iterations must be positive"),
        (["--bot", "greedy", "--bot", "random", "--out", "results.txt"], ".json or .csv"),
        (["--bot", "greedy", "--bot", "random", "--out", "{tmp}/no/such/dir/r.json"], "cannot write"),
        (["--bot", "greedy", "--bot", "random", "--out", "{tmp}/isdir.json"], "is a directory"),
        (["--bot", "greedy", "--bot", "random", "--plot", "scores.gif"], ".png"),
        (
            ["--bot", "greedy", "--bot", "random", "--ray-address", "auto"],
            "--ray-address needs --backend ray",
        ),
    ],
)
def test_errors_are_one_line_with_status_1(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "isdir.json").mkdir()
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    status, stdout, err = _arena(tmp_path, "--games", "2", "--quiet", *args)
    assert status == 1
    assert stdout == ""
    assert err.count("\n") == 1 and err.startswith("quadropolis arena: error: ")
    assert message in err


@pytest.mark.parametrize(
    "args", [["--games", "0"], ["--jobs", "-1"], ["--backend", "mpi"], ["--players", "5"]]
)
def test_malformed_command_lines_exit_2(tmp_path: Path, args: list[str]) -> None:
    status, _, err = _arena(tmp_path, "--bot", "random", "--bot", "random", *args)
    assert status == 2
    assert "error" in err and "Traceback" not in err


def test_missing_optional_dependencies_name_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    status, _, err = _arena(
        tmp_path, "--games", "2", "--bot", "random", "--bot", "random", "--backend", "ray"
    )
    assert status == 1
    assert err.count("\n") == 1 and "pip install 'quadropolis[ray]'" in err
    plot = str(tmp_path / "p.png")
    status, _, err = _arena(tmp_path, "--games", "2", "--bot", "random", "--bot", "random", "--plot", plot)
    assert status == 1
    assert err.count("\n") == 1 and "pip install 'quadropolis[plot]'" in err
    assert not Path(plot).exists()


def test_console_script_error_has_no_traceback(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "quadropolis.cli",
            "arena",
            "--bot",
            "greedy",
            "--bot",
            "nosuch",
            "--games",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "unknown bot 'nosuch'" in proc.stderr
    assert proc.stdout == ""


def test_progress_bar_wipes_a_longer_previous_line() -> None:
    clock = _Clock()
    stream = io.StringIO()
    bar = ProgressBar(stream, width=2, tty=True, clock=clock)
    clock.t = 200.0
    bar(1, 3)  # ETA 6m40s
    clock.t = 201.0
    bar(2, 3)  # ETA 1m40s: same length; then a shorter elapsed/ETA pair below
    clock.t = 0.0
    bar.start = 0.0
    bar(3, 3)
    _first, second, last = stream.getvalue().split("\r")[1:]
    assert len(last.rstrip("\n")) == len(second)
    assert last.rstrip("\n").rstrip() == "[##] 3/3 games  0s elapsed  ETA 0s"


# --------------------------------------------------------------------------- --ratings


def test_ratings_combine_saved_tournaments_on_one_scale(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    for path, bots in ((a, ("greedy", "random")), (b, ("easy", "greedy")), (c, ("random", "random"))):
        status, _, err = _arena(
            tmp_path, "--games", "4", "--seed", "3", "--jobs", "1", "--quiet", "--out", str(path),
            "--bot", bots[0], "--bot", bots[1],
        )  # fmt: skip
        assert status == 0, err
    status, out, _ = _arena(tmp_path, "--ratings", str(a), str(b))
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["bot", "games", "wins"]
    order = [line.split()[0] for line in lines[1:4]]
    assert order[0] == "greedy" and set(order) == {"greedy", "easy", "random"}
    greedy = lines[1].split()
    assert greedy[1] == "8"  # 4 games in each file
    assert "2 files" in out and "16 bot-games" in out
    # random met only greedy; easy only greedy: the pairs that met are listed
    assert lines[1].rstrip().endswith("easy, random")
    # a self-play file adds games but no pair
    status, out, _ = _arena(tmp_path, "--ratings", str(a), str(b), str(c))
    assert status == 0 and "3 files" in out


def test_ratings_refuse_bad_files_and_unlinked_entrants(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path, bots in ((a, ("greedy", "random")), (b, ("easy", "easy"))):
        _arena(
            tmp_path,
            "--games",
            "2",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            str(path),
            "--bot",
            bots[0],
            "--bot",
            bots[1],
        )
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "quadropolis-arena/1", "games": [')
    other = tmp_path / "other.json"
    other.write_text('{"format": "quadropolis-game/1"}')
    for args, message in (
        ([str(a), str(b)], "no game links greedy, random to easy"),
        ([str(bad)], "bad.json: line 1: invalid JSON"),
        ([str(other)], "not a saved arena ('quadropolis-arena/1' expected"),
        ([str(tmp_path / "missing.json")], "missing.json: cannot read (No such file or directory)"),
    ):
        status, stdout, err = _arena(tmp_path, "--ratings", *args)
        assert status == 1 and stdout == "" and err.count("\n") == 1 and message in err, err
    status, _, err = _arena(tmp_path, "--ratings", str(a), "--bot", "greedy")
    assert status == 1 and "give no --bot" in err


def test_ratings_order_seats_by_the_saved_r13_places() -> None:
    """Two losers with equal VP: the saved places (an R13 tie-breaker) decide between them;
    files without places fall back to a tie."""
    from quadropolis.arena.ratings import combine

    def doc(ranks: list[int] | None) -> dict[str, object]:
        game: dict[str, object] = {"entrants": [0, 1, 2], "scores": [40, 30, 30], "winners": [0]}
        if ranks is not None:
            game["ranks"] = ranks
        return {
            "format": "quadropolis-arena/1",
            "tournament": {"entrants": ["a", "b", "c"]},
            "games": [game] * 6,
        }

    ranked = {r.spec: r.rating for r in combine([("x.json", doc([1, 2, 3]))])}
    assert ranked["a"] > ranked["b"] > ranked["c"]
    tied = {r.spec: r.rating for r in combine([("x.json", doc(None))])}
    assert tied["a"] > tied["b"] and abs(tied["b"] - tied["c"]) < 1e-6
