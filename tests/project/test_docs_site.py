"""The documentation site builds: ``mkdocs build --strict`` (MkDocs Material, ``mkdocs.yml``)
over the README, the chapters under ``docs/`` and the changelog, where a link to a missing
page or to a missing anchor of a page is an error. Every chapter is in the site's navigation."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_site_builds_strictly_with_every_chapter(tmp_path: Path) -> None:
    pytest.importorskip("material", reason="mkdocs-material (the test extra) is not installed")
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (site / "index.html").is_file() and (site / "changelog" / "index.html").is_file()
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "bash scripts/test.sh" in home  # the README is the home page
    for chapter in sorted((ROOT / "docs").glob("*.md")):
        page = site / chapter.stem / "index.html"
        assert page.is_file(), f"docs/{chapter.name} is not in the site"
        assert f'href="{chapter.stem}/"' in home or f'href="./{chapter.stem}/"' in home, (
            f"docs/{chapter.name} is not in the site's navigation"
        )
