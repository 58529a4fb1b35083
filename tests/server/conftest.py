"""Fixtures shared by the server's tests: one server per test module (a fresh SQLite database
in the module's own temporary directory, so modules never see each other's games) and an HTTP
client on it per test; one with the daily challenge on each database kind; a fresh database URL
of each kind per test, and a module's process pool for bots in process."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import httpx
import pytest
from server_helpers import GENEROUS, Server, database

from quadropolis.server.bot_pool import new_executor

#: The database kinds the tests parametrised on them run on.
KINDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(request.module.__name__.removeprefix("test_"))
    with Server(f"sqlite:///{tmp / 'games.sqlite3'}", tmp, "--games-per-client", "1000", *GENEROUS) as s:
        yield s


@pytest.fixture()
def http(server: Server) -> Iterator[httpx.Client]:
    with server.http() as client:
        yield client


@pytest.fixture(scope="module", params=KINDS)
def daily_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """A server per test module and database kind whose daily challenge is classic-2."""
    tmp = tmp_path_factory.mktemp(f"{request.module.__name__.removeprefix('test_')}-{request.param}")
    args = ("--games-per-client", "1000", *GENEROUS, "--daily-formats", "classic-2")
    with database(request.param, tmp) as url, Server(url, tmp, *args) as s:
        yield s


@pytest.fixture(params=KINDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database URL of each kind (a test per kind)."""
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture(scope="module")
def executor() -> Iterator[ProcessPoolExecutor]:
    """A process pool of one worker for a module's bots in process."""
    pool = new_executor(1)
    yield pool
    pool.shutdown(cancel_futures=True)
