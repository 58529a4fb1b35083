"""The repository passes its spelling check: ``typos`` (the hook of ``.pre-commit-config.yaml``)
finds nothing, the intentional words (abbreviations of the code, the rulebook's words in the
players' languages) being listed in ``_typos.toml``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def typos() -> str:
    """The ``typos`` executable beside this Python's (the test extra installs it), or on PATH."""
    beside = Path(sys.executable).parent / "typos"
    found = str(beside) if beside.is_file() else shutil.which("typos")
    if found is None:
        pytest.skip("typos (the test extra) is not installed")
    return found


def test_typos_finds_no_misspelling() -> None:
    done = subprocess.run(
        [typos(), "--format", "brief"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]


def test_typos_would_catch_one(tmp_path: Path) -> None:
    """The check works: a misspelt word in a file is reported."""
    word = "ctsinimreted"[::-1]  # spelt backwards here, or the check would find it in this file
    (tmp_path / "note.md").write_text(f"The scoring is exact and {word}.\n", encoding="utf-8")
    done = subprocess.run(
        [typos(), "--format", "brief", str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0 and word in done.stdout
