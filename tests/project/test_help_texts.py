"""The help texts agree with each other and with what the program does:

* every text the browser client shows (the sentences of web/src) uses the players' words,
  never an identifier such as ``tower_block``;
* the top-level ``quadropolis --help`` lists every command, each with a one-line description,
  and says what the program is for (play and serve included);
* the bot levels are the same in the one level table (``quadropolis.bots.LEVELS``), the
  server chapter (``docs/server.md``), the README's and the browser chapter's lists,
  ``quadropolis serve --help`` and the browser's lobby."""

from __future__ import annotations

import argparse
import importlib
import re
from pathlib import Path

import pytest

from quadropolis.bots import LEVELS

ROOT = Path(__file__).resolve().parents[2]
WEB_SRC = ROOT / "web" / "src"
#: An identifier: lowercase words joined by underscores.
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")
#: Generated from the core's name tables: identifiers mapped to words, shown only as words.
GENERATED = {"words.gen.ts"}

_COMMENTS = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S)
_CODE_ATTRIBUTES = re.compile(r"\b(?:class|className|key|type|id|data-[\w-]+)=(?:\"[^\"]*\"|\{`[^`]*`\})")
_IMPORTS = re.compile(r"^\s*(?:import|export)\b[^;]*;", re.M)
_JSX_TEXT = re.compile(r">([^<>{}]*[A-Za-z][^<>{}]*)<")
_STRINGS = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`")


def visible_texts(source: str) -> list[str]:
    """The texts of a TypeScript/TSX source that can reach the screen: JSX text, and string
    literals that read as words (a space in them: a class list or a key has none, once the
    attributes that hold code are set aside). Template placeholders are left out."""
    source = _IMPORTS.sub("", _CODE_ATTRIBUTES.sub("", _COMMENTS.sub("", source)))
    # Between a ">" and a "<" is JSX text, unless it is code between an arrow and a type
    # parameter: such code always holds an "=" (JSX text here never does).
    texts = [m.group(1) for m in _JSX_TEXT.finditer(source) if "=" not in m.group(1)]
    for m in _STRINGS.finditer(source):
        text = re.sub(r"\$\{[^}]*\}", " ", next(g for g in m.groups() if g is not None) or "")
        if " " in text.strip() and re.search(r"[A-Za-z]{2}", text):
            texts.append(text)
    return texts


def test_the_extraction_finds_sentences_and_would_catch_an_identifier() -> None:
    sample = (
        'const a = "tower_block";\n'
        '<span class="tile-tower_block legend">Take a tower_block</span>\n'
        'say("error", `the ${x} needs a public_service`);\n'
    )
    found = visible_texts(sample)
    leaks = [t for t in found if IDENTIFIER.search(t)]
    assert leaks == ["Take a tower_block", "the   needs a public_service"]


def test_the_browser_shows_no_identifier() -> None:
    texts: dict[str, list[str]] = {}
    for path in sorted(WEB_SRC.rglob("*.ts*")):
        if path.name not in GENERATED:
            texts[path.name] = visible_texts(path.read_text(encoding="utf-8"))
    assert any("cannot be reached" in t for t in texts["api.ts"])  # the extraction sees sentences
    leaks = [f"{name}: {t.strip()!r}" for name, found in texts.items() for t in found if IDENTIFIER.search(t)]
    assert not leaks, "identifiers in visible texts:\n" + "\n".join(leaks)


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser. Its module is imported here, when a test runs, not when the
    tests are collected: importing ``quadropolis.cli.main`` rebinds the package's ``main``
    (the function other test modules import) to the module."""
    parser: argparse.ArgumentParser = importlib.import_module("quadropolis.cli.main").build_parser()
    return parser


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as e:
        build_parser().parse_args([*argv, "--help"])
    assert e.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_top_level_help_lists_every_command_in_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    commands = {c.dest: c.help for c in sub._choices_actions}
    assert set(commands) == set(sub.choices)
    assert set(commands) >= {"score", "simulate", "replay", "bench", "play", "arena", "serve"}
    text = _help([], capsys)
    for name, line in commands.items():
        assert line and "\n" not in line and f"{name} {' '.join(line.split())}" in text, name
    assert "play it in the terminal (play) or in the browser (serve)" in text
    assert "/rules" in text


def test_the_level_list_agrees_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    levels = list(LEVELS)
    serve = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    bots = serve[serve.index("* **Bots**") :]
    bots = bots[: bots.index("\n* ")]
    said = bots[bots.index("A seat is") : bots.index("the levels of")]
    assert re.findall(r"`(\w+)`", said) == levels
    for page in ("README.md", "docs/play.md"):
        text = (ROOT / page).read_text(encoding="utf-8")
        assert f"bot ({', '.join(f'`{x}`' for x in levels)}:" in text, page
    assert f"Bot seats: {', '.join(levels)} " in _help(["serve"], capsys)
    types = (WEB_SRC / "types.ts").read_text(encoding="utf-8")
    lobby = re.search(r"export const LEVELS = \[([^\]]*)\] as const;", types)
    assert lobby is not None and re.findall(r'"(\w+)"', lobby.group(1)) == levels
    play = _help(["play"], capsys)
    assert all(f"{x}:" in play for x in levels)
