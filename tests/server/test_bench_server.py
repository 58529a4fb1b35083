"""``quadropolis bench server`` runs end to end on a tiny load and checks what it claims to
check (performance targets are the benchmark's business, never a test's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from quadropolis.bench.report import QUICK
from quadropolis.bench.server import measure, run
from quadropolis.bench.server_loads import LOGIN_ACCOUNTS


def test_a_tiny_load_plays_every_game_and_loses_nothing(tmp_path: Path) -> None:
    result = measure(
        f"sqlite:///{tmp_path / 'bench.sqlite3'}", games=3, think=0.01, log=tmp_path / "server.log"
    )
    assert result.finished == 3 and result.errors == 0
    assert (result.lost, result.duplicated, result.replay_failures) == (0, 0, 0)
    assert result.latencies and result.moves > len(result.latencies)  # bots moved too
    assert result.percentile(0.5) <= result.percentile(0.99) <= max(result.latencies)


def test_the_load_holds_beside_the_abuse(tmp_path: Path) -> None:
    result = measure(
        f"sqlite:///{tmp_path / 'bench.sqlite3'}",
        games=3,
        think=0.3,
        log=tmp_path / "server.log",
        abused=True,
    )
    assert result.finished == 3 and result.errors == 0
    assert (result.lost, result.duplicated, result.replay_failures) == (0, 0, 0)
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_the_section_reports_every_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUADROPOLIS_BENCH_GAMES", "2")
    for env in ("QUADROPOLIS_BENCH_POSTGRES_URL", "QUADROPOLIS_TEST_POSTGRES_URL"):
        monkeypatch.delenv(env, raising=False)
    figures: dict[str, float] = {}
    run(lambda key, value, unit, label: figures.__setitem__(key, value), 1, QUICK)
    for key in (
        "games_finished",
        "moves_per_s",
        "latency_p50",
        "latency_p99",
        "latency_max",
        "errors",
        "lost",
        "duplicated",
        "replay_failures",
        "server_cpu_per_move",
    ):
        for mode in ("", "_abused", "_logins"):
            assert f"server_sqlite{mode}_{key}" in figures
    assert figures["server_sqlite_lost"] == figures["server_sqlite_duplicated"] == 0
    # the logins beside the games: every account registered, logins made, none failing
    assert figures["server_sqlite_logins_accounts_registered"] == LOGIN_ACCOUNTS
    assert figures["server_sqlite_logins_logins_per_s"] > 0
    assert figures["server_sqlite_logins_logins_failed"] == 0
    assert 0 < figures["server_sqlite_logins_login_p50"] <= figures["server_sqlite_logins_login_p99"]
