"""``quadropolis serve`` (also ``python -m quadropolis.server``): options, the default
database in the user's data directory, and one-line errors for a bad setup."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from server_helpers import free_port

from quadropolis.server import add_serve_command, cmd_serve
from quadropolis.server.command import settings_from
from quadropolis.server.settings import default_database


def run_server(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quadropolis.server", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def test_the_command_registers_on_a_parser() -> None:
    parser = argparse.ArgumentParser(prog="quadropolis")
    add_serve_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        ["serve", "--port", "9000", "--database", "sqlite:///x.db", "--bot-workers", "2"]
    )
    assert args.func is cmd_serve and args.port == 9000 and args.bot_workers == 2
    assert args.host == "127.0.0.1" and args.redis is None
    settings = settings_from(args)
    assert settings.limits.bot_workers == 2 and not settings.ws_compression
    compressed = parser.parse_args(["serve", "--database", "sqlite:///x.db", "--ws-compression"])
    assert settings_from(compressed).ws_compression
    assert settings.sqlite_sync == "normal"  # survives kill -9; "full" survives power cuts too
    full = parser.parse_args(["serve", "--database", "sqlite:///x.db", "--sqlite-sync", "full"])
    assert settings_from(full).sqlite_sync == "full"


def test_an_unknown_sqlite_sync_level_is_one_line_of_error() -> None:
    done = run_server("--database", "sqlite:///x.db", "--sqlite-sync", "off")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--sqlite-sync: invalid choice: 'off'" in done.stderr


def test_help_names_the_options() -> None:
    done = run_server("--help")
    assert done.returncode == 0
    for option in ("--host", "--port", "--database", "--redis", "--bot-workers", "--games-per-client"):
        assert option in done.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--database", "postgresql://nobody@127.0.0.1:1/none"], "database postgresql"),
        (["--database", "sqlite:///x.db", "--redis", "redis://127.0.0.1:1"], "needs --database postgresql"),
        (["--port", "70000"], "--port"),
        (["--database", "nosuchdriver://x"], "database"),
        (["--daily-formats", "classic-9"], "--daily-formats: a daily format is classic-N or expert-N"),
        (["--daily-formats", " , "], "--daily-formats: give at least one format"),
    ],
)
def test_a_bad_setup_is_one_line_on_stderr(args: list[str], says: str, tmp_path: Path) -> None:
    done = run_server(*args)
    assert done.returncode == 1
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_the_default_database_is_sqlite_in_the_user_data_directory(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "quadropolis.server", "--port", str(port), "--log-level", "warning"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for _ in range(300):
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).json()
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        assert health["storage"] == "sqlite"
        assert (tmp_path / "quadropolis" / "server.sqlite3").exists()
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode in (0, -15), out  # uvicorn re-raises SIGTERM after a clean stop
    assert "Traceback" not in out and "leaked" not in out, out
    assert f"quadropolis server on http://127.0.0.1:{port}" in out


def test_default_database_follows_the_platform(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database() == f"sqlite:///{tmp_path / 'quadropolis' / 'server.sqlite3'}"


def test_without_the_web_extra_the_command_line_still_loads_and_serve_says_what_to_install() -> None:
    code = (
        "import sys, argparse\n"
        "web = ('pydantic', 'fastapi', 'starlette', 'uvicorn', 'sqlalchemy', 'alembic', 'redis', 'psycopg')\n"
        "for m in web:\n"
        "    sys.modules[m] = None  # as if the web extra were not installed\n"
        "from quadropolis.server import add_serve_command\n"
        "p = argparse.ArgumentParser(); add_serve_command(p.add_subparsers())\n"
        "args = p.parse_args(['serve', '--database', 'sqlite:///x.db'])\n"
        "try:\n"
        "    args.func(args, sys.stdout)\n"
        "except ValueError as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "pip install 'quadropolis[web]'" in done.stdout
