"""The rules in the app: the server serves the rules page at ``/rules`` (the rules
of record, docs/rules.md and docs/tiles.md, rendered by the client's build), with an anchor
per ruling and every link inside the page leading somewhere; the tile manifest explains each
tile in the players' words."""

from __future__ import annotations

import asyncio
import re
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from server_helpers import bearer, hotseat, play_http

from quadropolis import ILLEGAL_MESSAGES
from quadropolis.buildings import BuildingType
from quadropolis.server.app import create_app
from quadropolis.server.manifest import MODULES, WORDS_MODULE
from quadropolis.server.settings import Settings
from quadropolis.tiles import TILES

ROOT = Path(__file__).resolve().parents[2]
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")


class _Page(HTMLParser):
    """The ids, the in-page links and the text of headings of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.headings: dict[str, str] = {}
        self._heading: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
            if re.fullmatch(r"h[1-4]", tag):
                self._heading = str(a["id"])
                self.headings[self._heading] = ""
        if tag == "a" and (a.get("href") or "").startswith("#"):
            self.links.append(str(a["href"])[1:])

    def handle_endtag(self, tag: str) -> None:
        if re.fullmatch(r"h[1-4]", tag):
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self.headings[self._heading] += data


def _page(http: httpx.Client) -> tuple[httpx.Response, _Page]:
    reply = http.get("/rules")
    page = _Page()
    page.feed(reply.text)
    return reply, page


def test_the_rules_page_is_served_with_an_anchor_per_ruling(http: httpx.Client) -> None:
    reply, page = _page(http)
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/html")
    for n in range(1, 17):
        assert page.headings[f"r{n}"].startswith(f"R{n} — "), n
    assert page.headings["r8"].startswith("R8 — Stacking")


def test_the_page_is_the_rules_of_record_and_its_links_all_land(http: httpx.Client) -> None:
    _reply, page = _page(http)
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    tiles = (ROOT / "docs" / "tiles.md").read_text(encoding="utf-8")
    for doc in (rules, tiles):  # every heading of both documents is on the page
        for title in re.findall(r"^#{1,4} (?:<a id=\"r\d+\"></a>)?(.+)$", doc, re.M):
            assert any(h.startswith(title.replace("`", "")) for h in page.headings.values()), title
    missing = sorted(set(page.links) - page.ids)
    assert not missing, f"links to no anchor: {missing}"
    assert {"tiles", "4-scoring-building-by-building", "6-variants"} <= set(page.links)


def test_the_tile_manifest_explains_each_tile_in_the_players_words(http: httpx.Client) -> None:
    tiles = http.get("/api/tiles").json()
    assert len(tiles) == len(TILES)
    by_code = {t["code"]: t for t in tiles}
    assert by_code["T1m"]["name"] == "tower block"
    assert "takes the mayor" in by_code["T1m"]["help"]["what"]
    assert "1 → 1, 2 → 3, 3 → 6, 4 → 10 (Expert: 5 → 15)" in by_code["T2"]["help"]["scores"]
    assert "row n or column n" in by_code["S"]["help"]["where"]
    assert by_code["PKP"]["name"] == "playground"
    assert "gives 1 inhabitant" in by_code["PKP"]["help"]["what"]
    assert "every park absorbs" in by_code["PKP"]["help"]["what_all_parks_absorb"]
    assert "Expert only" in by_code["M"]["help"]["what"] and "park +5" in by_code["M"]["help"]["scores"]
    for t in tiles:
        texts = [t["name"], *t["help"].values()]
        assert not any(IDENTIFIER.search(x) for x in texts), t["code"]


def test_the_log_and_the_refusals_speak_the_players_words(http: httpx.Client) -> None:
    """What the table's log says of each action, and an illegal move's refusal, as served."""
    game, tokens = hotseat(http)
    view = play_http(http, game, tokens, until=lambda v: v["version"] >= 12)
    texts = [a["text"] for a in view["last_actions"]]
    assert any(re.search(r"takes \w+ \([a-z ]+\)", t) for t in texts), texts
    assert not any(IDENTIFIER.search(t) for t in texts), texts
    seat = view["to_move"]
    wrong = "discard" if view["phase"] == "take" else "1T1"
    reply = http.post(
        f"/api/games/{game}/moves",
        json={"seat": seat, "version": view["version"], "move": wrong},
        headers=bearer(tokens[seat]),
    )
    assert reply.status_code == 422 and reply.json()["code"] == "illegal_move"
    assert not IDENTIFIER.search(reply.json()["message"])
    assert reply.json()["reason"] in ILLEGAL_MESSAGES and reply.json()["params"] == {"player": seat}


@pytest.mark.parametrize("name", list(MODULES))
def test_the_client_modules_generated_from_the_core_are_current(name: str) -> None:
    """web/src/words.gen.ts (the core's name tables) and web/src/game.gen.ts (its fixed
    tables: types, score sheet lines, cities, designated squares, tile kinds) are current."""
    path, generate = MODULES[name]
    assert (ROOT / path).read_text(encoding="utf-8") == generate(), (
        f"{path} is stale: run `python -m quadropolis.server.manifest {name} > {path}`"
    )


def test_the_client_names_buildings_from_the_core_table() -> None:
    current = (ROOT / WORDS_MODULE).read_text(encoding="utf-8")
    assert '"tower_block": "tower block"' in current
    assert all(f'"{t.key}": "{t.words}"' in current for t in BuildingType)


def test_no_rules_page_without_a_client(tmp_path: Path) -> None:
    """An application built without the browser client answers /rules with a typed 404 (the
    route needs no storage: the application is not started)."""
    empty = tmp_path / "static"
    empty.mkdir()
    app = create_app(Settings(f"sqlite:///{tmp_path / 'games.sqlite3'}", static=empty))

    async def get() -> httpx.Response:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
            return await c.get("/rules")

    reply = asyncio.run(get())
    assert reply.status_code == 404 and reply.json()["code"] == "not_found"
