"""The browser's catalogues (web/src/locales/*.json) against the core (issue 22): every reason
the rules give for refusing a move (quadropolis.rules.ILLEGAL_MESSAGES, the codes the server
sends) has its words in every language, using only the values the core sends with it, and no
catalogue shows a player an identifier such as ``tower_block``."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from quadropolis import ILLEGAL_MESSAGES

ROOT = Path(__file__).resolve().parents[2]
LOCALES = sorted((ROOT / "web" / "src" / "locales").glob("*.json"))
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def texts(message: str | dict[str, str]) -> list[str]:
    return [message] if isinstance(message, str) else list(message.values())


def core_values(code: str) -> set[str]:
    """The values the core sends with ``code``: its English sentence's fields, the words it
    derives from a building type (``a_building``, ``building_words``) counted as the type."""
    fields = {f for _, f, _, _ in string.Formatter().parse(ILLEGAL_MESSAGES[code]) if f}
    return {re.sub(r"^a_|_words$", "", f) for f in fields}


def test_the_catalogues_are_the_six_languages() -> None:
    assert [p.stem for p in LOCALES] == ["de", "en", "fr", "hu", "pt", "ru"]


@pytest.mark.parametrize("path", LOCALES, ids=lambda p: p.stem)
def test_every_illegal_move_reason_is_said_with_the_core_values(path: Path) -> None:
    words = catalogue(path)
    missing = [code for code in ILLEGAL_MESSAGES if f"illegal.{code}" not in words]
    assert not missing, f"{path.name} has no words for {missing}"
    said = {k.removeprefix("illegal.") for k in words if k.startswith("illegal.")}
    stale = sorted(said - set(ILLEGAL_MESSAGES))
    assert not stale, f"{path.name} has words for reasons the core no longer gives: {stale}"
    for code in ILLEGAL_MESSAGES:
        used = set(PLACEHOLDER.findall(words[f"illegal.{code}"]))
        assert used <= core_values(code), (path.name, code, used - core_values(code))
        # A ruling the core cites is cited in every language, so that it stays a link.
        for ruling in re.findall(r"\((R\d+)\)", ILLEGAL_MESSAGES[code]):
            assert f"({ruling})" in words[f"illegal.{code}"], (path.name, code)
        if "({rule})" in ILLEGAL_MESSAGES[code]:
            assert "({rule})" in words[f"illegal.{code}"], (path.name, code)


@pytest.mark.parametrize("path", LOCALES, ids=lambda p: p.stem)
def test_no_catalogue_shows_an_identifier(path: Path) -> None:
    leaks = [
        f"{key}: {text!r}"
        for key, message in catalogue(path).items()
        for text in texts(message)
        if IDENTIFIER.search(PLACEHOLDER.sub("", text))
    ]
    assert not leaks, "\n".join(leaks)
