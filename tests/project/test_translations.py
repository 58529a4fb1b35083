"""The browser's catalogues (web/src/locales/*.json) against the core: every reason
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


# --- tiles' explanations: codes and values said with the catalogue's words -----------------


def _say(words: dict[str, Any], key: str, **values: object) -> str:
    message = words[key]
    if isinstance(message, dict):  # plural forms: English's "one" for 1, else "other"
        message = message["one" if values.get("count") == 1 else "other"]
    return str(message).format(**values)


def _table(pairs: object) -> str:
    assert isinstance(pairs, list)
    return ", ".join(f"{n} → {vp}" for n, vp in pairs)


def _clause(words: dict[str, Any], code: Any, v: Any) -> str:
    """One clause as web/src/tileWords.ts says it (the same rules, in Python)."""
    if code == "name":
        return _say(words, f"tip.name.{v.get('park', v['building'])}", label=v["label"])
    if code == "gives":
        if v["inhabitants"] and v["energy"]:
            return _say(words, "tip.givesBoth", inhabitants=v["inhabitants"], energy=v["energy"])
        if v["inhabitants"]:
            return _say(words, "tip.givesInhabitants", count=v["inhabitants"])
        return _say(words, "tip.givesEnergy", count=v["energy"])
    if code == "prints":
        return _say(words, "tip.prints", vp=v["vp"])
    if code in ("scores_factory", "scores_monument"):
        pairs = ", ".join(f"{words[f'type.{t}']} {'−' if vp < 0 else '+'}{abs(vp)}" for t, vp in v["pairs"])
        return _say(words, f"tip.{code}", pairs=pairs)
    if code == "scores_office_tower":
        return _say(words, f"tip.{code}", alone=_table(v["alone"]), big=_table(v["big"]))
    if code.startswith("scores_"):
        shown = _table(v["table"])
        if "expert" in v:
            shown = _say(words, "tip.expertRow", table=shown, expert=_table([v["expert"]]))
        return _say(words, f"tip.{code}", table=shown)
    return _say(words, f"tip.{code}")


def _where(words: dict[str, Any], parts: Any) -> str:
    (place, _), (rule, v) = parts
    square = _say(words, f"tip.{place}")
    if rule == "never_stacked":
        return _say(words, "tip.never_stacked", where=square, rulings=v["rulings"])
    if "expert_floors" in v:
        limits = _say(words, "tip.limitsExpert", floors=v["floors"], expert=v["expert_floors"])
    else:
        limits = _say(words, "tip.limits", floors=v["floors"])
    return _say(words, f"tip.stacks.{v['building']}", where=square, limits=limits, rulings=v["rulings"])


def test_the_english_tile_words_and_the_core_values_say_the_cores_explanations() -> None:
    """Said with en.json's tip.* words, the values of every tile kind give back, word for
    word, the core's English explanation: the values carry every figure, and the catalogue's
    sentences are the core's (so the other languages translate the same sentences)."""
    from quadropolis.tile_help import tile_help, tile_help_parts
    from quadropolis.tiles import TILES

    words = catalogue(ROOT / "web" / "src" / "locales" / "en.json")
    for kind in {t.kind for t in TILES}:
        help_, parts = tile_help(kind), tile_help_parts(kind).to_json()
        separator = words["tip.separator"]
        what = separator.join(_clause(words, c, v) for c, v in parts["what"]) + "."
        assert what == help_.what, kind
        every = separator.join(_clause(words, c, v) for c, v in parts["what_all_parks_absorb"]) + "."
        assert every == help_.what_all_parks_absorb, kind
        assert " ".join(_clause(words, c, v) for c, v in parts["scores"]) == help_.scores, kind
        assert _where(words, parts["where"]) == help_.where, kind


def test_the_level_descriptions_are_the_cores() -> None:
    """en.json's ``levelInfo.*`` are the core's descriptions of the bot levels, word for word
    (``quadropolis.bots.LEVELS``, served by ``GET /api/levels``), one per level: a change of a
    level's figures in the core shows here, so that every language's description is redone."""
    from quadropolis.bots.levels import LEVELS

    words = catalogue(ROOT / "web" / "src" / "locales" / "en.json")
    said = {k.removeprefix("levelInfo."): v for k, v in words.items() if k.startswith("levelInfo.")}
    assert said == LEVELS
