"""What the benchmarks and the project's tests both need around a real server: a free
loopback port, a throwaway database on a PostgreSQL server, and Chromium driven by Playwright.

Chromium is the system's (the Debian package at ``/usr/bin/chromium``, or the path in
``$QUADROPOLIS_CHROMIUM``), never a browser Playwright downloads. ``psycopg`` and
``playwright`` are imported only when used: importing this module needs the standard library
alone."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
from collections.abc import Iterable, Iterator
from typing import Any, Final

CHROMIUM_ENV: Final = "QUADROPOLIS_CHROMIUM"
DEFAULT_CHROMIUM: Final = "/usr/bin/chromium"
#: Headless, in a container (no sandbox, no GPU) and quiet: nothing fetched from the network.
CHROMIUM_ARGS: Final = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
)


def free_port(candidates: Iterable[int] = (0,)) -> int:
    """The first of ``candidates`` free on the loopback interface now (``0``: a port the system
    picks). Raises :class:`OSError` when none is."""
    for port in candidates:
        with socket.socket() as s, contextlib.suppress(OSError):
            s.bind(("127.0.0.1", port))
            return int(s.getsockname()[1])
    raise OSError("no free loopback port among the candidates")


def chromium_path() -> str:
    """Where Chromium is expected: ``$QUADROPOLIS_CHROMIUM`` or the Debian package's path (it
    may be missing: callers check)."""
    return os.environ.get(CHROMIUM_ENV, DEFAULT_CHROMIUM)


@contextlib.contextmanager
def chromium(path: str | None = None) -> Iterator[Any]:
    """A headless Chromium (``path``, default :func:`chromium_path`) launched by Playwright;
    closed afterwards. Yields Playwright's ``Browser``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path or chromium_path(), args=list(CHROMIUM_ARGS))
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def throwaway_database(server_url: str, prefix: str = "qtmp") -> Iterator[str]:
    """A new, empty database on the PostgreSQL server at ``server_url`` (a URL naming any of
    its databases, used for ``CREATE``/``DROP DATABASE``), named ``prefix`` and random hex;
    yields its URL, and drops it afterwards (closing any connection still open to it)."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
