"""The README's Python example runs, and its documented error message is the real one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = (Path(__file__).parents[2] / "README.md").read_text()


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
    ci = (Path(__file__).parents[2] / ".ci" / "run").read_text()
    assert "bash scripts/test.sh" in ci
