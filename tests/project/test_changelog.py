"""The changelog's newest entry names the versions the code has, and the package's version
has one source.

``CHANGELOG.md``'s newest entry (the first ``## [...]`` heading) holds a table of the
interfaces other programs depend on, each with its version: the package, the server
protocol, the record, arena and review formats, the compiled engine's ABI, the database
schema's migration head and the RL environments' ids. Each is read here from where the code
defines it, so a bump in the code without its changelog entry (or the reverse) fails."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import quadropolis
from quadropolis.arena import tournament
from quadropolis.envs import GYM_ID, PETTINGZOO_NAME
from quadropolis.record import FORMAT
from quadropolis.server.protocol import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "quadropolis"


def newest_versions() -> dict[str, str]:
    """The newest entry's table, its header row left out: interface -> version (code spans
    unquoted)."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    entries = re.split(r"^## \[", text, flags=re.M)
    assert len(entries) >= 2, "CHANGELOG.md has no entry"
    rows = re.findall(r"^\| ([^|]+?) \| ([^|]+?) \| [^|]+ \|$", entries[1], re.M)
    return {name: version.replace("`", "") for name, version in rows[1:] if set(version) - {"-"}}


def migrations_head() -> str:
    """The revision no other revision follows, from the migration scripts themselves."""
    (versions,) = [p for p in SRC.rglob("migrations/versions") if p.is_dir()]
    revisions: dict[str, str | None] = {}
    for script in versions.glob("r*.py"):
        text = script.read_text(encoding="utf-8")
        revision = re.search(r'^revision = "(\w+)"$', text, re.M)
        down = re.search(r'^down_revision = (?:"(\w+)"|None)$', text, re.M)
        assert revision and down, f"{script.name} names no revision"
        revisions[revision.group(1)] = down.group(1)
    heads = set(revisions) - set(revisions.values())
    assert len(heads) == 1, f"the migrations have heads {sorted(heads)}"
    return heads.pop()


def native_abi() -> str:
    """The ABI of the C++ header, which the Python glue must expect too."""
    headers = [p for p in (ROOT / "native").rglob("*.hpp") if "constexpr int ABI" in p.read_text()]
    assert len(headers) == 1, headers
    abi = re.search(r"constexpr int ABI = (\d+);", headers[0].read_text())
    glue = re.search(r"^ABI: Final = (\d+)$", (SRC / "native.py").read_text(), re.M)
    assert abi and glue and abi.group(1) == glue.group(1), "native/ and quadropolis.native differ"
    return abi.group(1)


def review_format() -> str:
    found = set(re.findall(r'"format": "(quadropolis-review/\d+)"', (SRC / "bots" / "review.py").read_text()))
    assert len(found) == 1, found
    return found.pop()


def test_the_newest_entry_names_the_versions_of_the_code() -> None:
    assert newest_versions() == {
        "the package": quadropolis.__version__,
        "the server protocol": str(PROTOCOL_VERSION),
        "the game record format": FORMAT,
        "the arena results format": tournament.FORMAT,
        "the review format": review_format(),
        "the compiled engine's ABI": native_abi(),
        "the database schema (migrations head)": migrations_head(),
        "the RL environments": f"{GYM_ID}, {PETTINGZOO_NAME}",
    }


def test_the_newest_entry_is_the_packages_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    newest = re.search(r"^## \[([^\]]+)\]", text, re.M)
    assert newest is not None and newest.group(1) == quadropolis.__version__


def test_the_package_version_has_one_source() -> None:
    """``__version__`` is the source: the build reads it (no version of its own in
    pyproject.toml), and the client's private npm manifest says the same."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    version = project["tool"]["scikit-build"]["metadata"]["version"]
    assert version["input"] == "src/quadropolis/__init__.py"
    assert re.search(r'^__version__ = "([^"]+)"$', (SRC / "__init__.py").read_text(), re.M)
    web = json.loads((ROOT / "web" / "package.json").read_text(encoding="utf-8"))
    assert web["version"] == quadropolis.__version__


def test_the_protocol_doc_states_the_protocols_version() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    stated = re.search(r"^This is version (\d+) of the protocol", text, re.M)
    assert stated is not None and int(stated.group(1)) == PROTOCOL_VERSION
