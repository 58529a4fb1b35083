"""Fixtures shared by the browser tests: one real server (fresh SQLite database) and one
Chromium per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Server
from web_helpers import chromium, running_server


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("web-" + request.module.__name__.removeprefix("test_"))) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b
