"""Fixtures shared by the tests of a real server process: one server per test module (a fresh
SQLite database in the module's own temporary directory, so modules never see each other's
games) and an HTTP client on it per test."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from server_helpers import GENEROUS, Server


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(request.module.__name__.removeprefix("test_"))
    with Server(f"sqlite:///{tmp / 'games.sqlite3'}", tmp, "--games-per-client", "1000", *GENEROUS) as s:
        yield s


@pytest.fixture()
def http(server: Server) -> Iterator[httpx.Client]:
    with server.http() as client:
        yield client
