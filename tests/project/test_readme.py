"""The README is a newcomer's page: the two commands first, under 400 lines, and its Python
example runs (the engine chapter shows the same example)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text()
#: The README keeps to what a newcomer needs; the rest is in the chapters under docs/.
MOST_LINES = 400


def test_python_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    block = re.search(r"```python\n(.*?)```", README, re.S)
    assert block is not None
    exec(compile(block.group(1), "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "Quadropolis classic, 3 players, seed 42" in out
    assert "discard" in out.lower()


def test_first_lines_are_the_two_commands() -> None:
    lines = README.splitlines()
    assert lines[0] == "```sh"
    # The main job is playing: install with the server extra and serve the browser client.
    assert "pip install -q -e '.[web]'" in lines[1] and lines[1].endswith(".venv/bin/quadropolis serve")
    assert lines[2] == "bash scripts/test.sh"
    assert "http://127.0.0.1:8000/" in "\n".join(lines[4:12])
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bash scripts/test.sh" in ci


def test_readme_is_short_and_the_engine_chapter_shows_its_example() -> None:
    assert len(README.splitlines()) < MOST_LINES
    example = re.search(r"```python\n(.*?)```", README, re.S)
    engine = re.search(r"```python\n(.*?)```", (ROOT / "docs" / "engine.md").read_text(), re.S)
    assert example is not None and engine is not None
    assert engine.group(1) == example.group(1)
