"""The whole suite's order: the test folders whose files take longest (real browsers, real
server processes, RL training examples) first.

``scripts/test.sh`` runs the suite on several processes with pytest-xdist, each test file
whole on one process (``--dist loadfile``, module fixtures such as a server or a browser are
started once) and in this order (``--no-loadscope-reorder``), so that the long files start
early and the short ones fill the end. What the processes could share is kept apart in
``tests/support``: servers' ports (a band per process), PostgreSQL databases (a new one per
use), Redis database numbers, temporary folders (pytest's, per process). The order changes no
result: every test file stands alone."""

from __future__ import annotations

import pytest

#: The test folders, those holding the longest files first (browsers and server processes,
#: then the RL examples that train agents).
SLOWEST_FIRST = ("web", "server", "envs", "bots", "cli", "native", "engine", "project")


def _rank(item: pytest.Item) -> int:
    folder = item.path.parent.name
    return SLOWEST_FIRST.index(folder) if folder in SLOWEST_FIRST else len(SLOWEST_FIRST)


@pytest.hookimpl(tryfirst=True)  # before the orders asked for on the command line (--ff, --nf)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: each file's tests keep their order
