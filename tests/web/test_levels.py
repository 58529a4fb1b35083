"""The browser client's bot levels are the server's: the one list of level names in the client
(``LEVELS`` in web/src/types.ts, from which the lobby's choices and the ``Level`` type derive)
equals :data:`quadropolis.bots.LEVELS`, in the same order. No browser, no node: the TypeScript
source is read as text."""

from __future__ import annotations

import json
import re
from pathlib import Path

from quadropolis.bots import LEVELS

WEB_SRC = Path(__file__).resolve().parents[2] / "web" / "src"

#: ``export const LEVELS = ["easy", ...] as const;`` (on one line or several).
_LEVELS_ARRAY = re.compile(r"export\s+const\s+LEVELS\s*=\s*\[(?P<items>[^\]]*)\]\s*as\s+const\s*;")


def client_levels() -> list[str]:
    source = (WEB_SRC / "types.ts").read_text(encoding="utf-8")
    found = _LEVELS_ARRAY.findall(source)
    assert len(found) == 1, "web/src/types.ts must define `export const LEVELS = [...] as const;` once"
    items = [item.strip() for item in found[0].split(",") if item.strip()]
    names: list[str] = []
    for item in items:
        assert re.fullmatch(r'"[a-z_]+"', item), f"unexpected item in the client's LEVELS: {item}"
        names.append(json.loads(item))
    return names


def test_client_levels_are_the_servers_in_order() -> None:
    assert client_levels() == list(LEVELS)


def test_level_type_derives_from_the_list() -> None:
    source = (WEB_SRC / "types.ts").read_text(encoding="utf-8")
    assert re.search(r"export\s+type\s+Level\s*=\s*\(\s*typeof\s+LEVELS\s*\)\s*\[\s*number\s*\]\s*;", source)
