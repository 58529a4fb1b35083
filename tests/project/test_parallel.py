"""The suite runs on several processes (pytest-xdist, ``scripts/test.sh``): what two of them
could share is kept apart. Servers' ports come from a band of each process's own, below the
ports the system gives outgoing connections; PostgreSQL databases and Redis database numbers
are named after the process; no two browser tests write the same screenshot."""

from __future__ import annotations

import re
import socket
from collections import Counter
from pathlib import Path

import pytest
import server_helpers
from server_helpers import (
    PORTS_FROM,
    PORTS_PER_WORKER,
    WORKER_BANDS,
    free_port,
    redis_url,
    worker,
    worker_index,
)

WEB_TESTS = Path(__file__).resolve().parents[1] / "web"


def _ephemeral_start() -> int:
    text = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
    return int(text.split()[0])


@pytest.mark.parametrize("name", ["gw0", "gw1", "gw7"])
def test_each_worker_picks_ports_from_a_band_of_its_own(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", name)
    index = int(name[2:])
    band = range(PORTS_FROM + index * PORTS_PER_WORKER, PORTS_FROM + (index + 1) * PORTS_PER_WORKER)
    ports = [free_port() for _ in range(5)]
    assert all(p in band for p in ports), ports
    assert len(set(ports)) == 5  # the next ones first: a port just handed out is not handed out again


def test_the_bands_lie_below_the_ports_of_outgoing_connections() -> None:
    if not Path("/proc/sys/net/ipv4/ip_local_port_range").exists():
        pytest.skip("not Linux: no ip_local_port_range to compare with")
    assert _ephemeral_start() >= PORTS_FROM + WORKER_BANDS * PORTS_PER_WORKER


def test_a_port_in_use_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw3")
    monkeypatch.setattr(server_helpers, "_next_port", iter(range(10**6)))
    band = PORTS_FROM + 3 * PORTS_PER_WORKER
    with socket.socket() as held:
        try:
            held.bind(("127.0.0.1", band))
        except OSError:
            pytest.skip(f"port {band} is taken by something else on this machine")
        held.listen()
        assert free_port() != band


def test_redis_and_postgresql_are_named_after_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw5")
    monkeypatch.setenv(server_helpers.REDIS_ENV, "redis://127.0.0.1:6390/0")
    assert (worker(), worker_index()) == ("gw5", 5)
    assert redis_url() == "redis://127.0.0.1:6390/5"
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    assert (worker(), worker_index()) == ("main", 0)


def test_no_two_browser_tests_write_the_same_screenshot() -> None:
    names: Counter[str] = Counter()
    for path in sorted(WEB_TESTS.glob("test_*.py")):
        names.update(re.findall(r"""\bshot\(\s*\w+,\s*["']([^"']+)["']""", path.read_text(encoding="utf-8")))
    assert len(names) > 5, "the checker found no screenshot"
    assert not [n for n, k in names.items() if k > 1]
