"""Post-game reviews on a real server process, on SQLite and on PostgreSQL: started on a
finished game, polled to the end on the bot workers, stored with the game (a restarted
server still has it), refused with typed errors for a running game, a bad record and over the
per-client cap; a posted record is reviewed too. The bounds' bookkeeping (one job per game,
abandoned when nobody polls) is checked on :class:`ReviewJobs` with a real bot pool."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import GENEROUS, Server, database, error_of, hotseat, play_http

from quadropolis import GameConfig, Mode
from quadropolis.playout import random_game
from quadropolis.record import GameRecord
from quadropolis.server.bot_pool import BotPool
from quadropolis.server.errors import RateLimited
from quadropolis.server.reviews import ReviewJobs
from quadropolis.server.storage import Store

#: A small review budget: these tests check the plumbing, the bots tests the review itself.
BUDGET = "800"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as u:
        yield u


def _server(url: str, tmp_path: Path) -> Server:
    return Server(url, tmp_path, "--games-per-client", "1000", "--review-budget", BUDGET, *GENEROUS)


def _finished_game(http: httpx.Client) -> str:
    game, tokens = hotseat(http)
    play_http(http, game, tokens)
    return game


def _poll(http: httpx.Client, path: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    seen_running = False
    while time.monotonic() < deadline:
        reply: dict[str, Any] = http.get(path).json()
        if reply["status"] == "done":
            reply["seen_running"] = seen_running
            return reply
        assert reply["status"] == "running", reply
        assert 0 <= reply["done"] <= reply["total"]
        seen_running = True
        time.sleep(0.2)
    raise AssertionError("the review did not finish")


def test_a_finished_game_is_reviewed_stored_and_kept_across_a_restart(url: str, tmp_path: Path) -> None:
    with _server(url, tmp_path) as server, server.http() as http:
        game = _finished_game(http)
        assert http.get(f"/api/games/{game}/review").json() == {
            "type": "review",
            "game": game,
            "status": "none",
        }
        started = http.post(f"/api/games/{game}/review").json()
        assert started["status"] == "running" and started["total"] > 40
        again = http.post(f"/api/games/{game}/review").json()  # one job per game: its progress
        assert (
            again["status"] in ("running", "done")
            and again.get("total", started["total"]) == started["total"]
        )
        done = _poll(http, f"/api/games/{game}/review")
        review = done["review"]
        record = http.get(f"/api/games/{game}/record").json()
        assert review["format"] == "quadropolis-review/1" and review["iterations"] == int(BUDGET)
        assert [m["move"] for m in review["moves"]] == record["moves"]
        assert {m["label"] for m in review["moves"]} <= {"good", "inaccuracy", "mistake", "blunder"}
        assert len(review["players_summary"]) == 2 and len(review["chart"]) == len(record["moves"])
    with _server(url, tmp_path) as server, server.http() as http:  # a new process, same database
        assert http.get(f"/api/games/{game}/review").json() == {
            "type": "review",
            "game": game,
            "status": "done",
            "review": review,
        }


def test_reviews_refuse_running_games_bad_records_and_too_many_at_once(url: str, tmp_path: Path) -> None:
    with _server(url, tmp_path) as server, server.http() as http:
        running, _ = hotseat(http)
        error_of(http.post(f"/api/games/{running}/review"), 409, "not_over")
        error_of(http.get(f"/api/games/{running}/review"), 409, "not_over")
        error_of(http.post("/api/games/nosuchgame/review"), 404, "not_found")
        error_of(http.post("/api/review", json={"record": {"format": "x"}}), 422, "bad_record")
        config = {"mode": "classic", "players": 2, "seed": 1}
        empty = {"format": "quadropolis-game/1", "config": config, "moves": []}
        assert "no move" in error_of(http.post("/api/review", json={"record": empty}), 422, "bad_record")
        games = [_finished_game(http) for _ in range(3)]
        for game in games[:2]:
            assert http.post(f"/api/games/{game}/review").json()["status"] == "running"
        message = error_of(http.post(f"/api/games/{games[2]}/review"), 429, "rate_limited")
        assert "at most 2 reviews at a time per client" in message
        for game in games[:2]:
            _poll(http, f"/api/games/{game}/review")
        assert http.post(f"/api/games/{games[2]}/review").json()["status"] == "running"


def test_a_posted_record_is_reviewed(url: str, tmp_path: Path) -> None:
    config = GameConfig(mode=Mode.CLASSIC, players=2, seed=8)
    moves, _ = random_game(config, 8)
    record = GameRecord(config, tuple(str(m) for m in moves[:12])).to_json()
    with _server(url, tmp_path) as server, server.http() as http:
        first = http.post("/api/review", json={"record": record}).json()
        assert first["game"] is None and first["status"] in ("running", "done")
        deadline = time.monotonic() + 60
        reply = first
        while reply["status"] != "done":
            assert time.monotonic() < deadline
            time.sleep(0.2)
            reply = http.post("/api/review", json={"record": record}).json()
        assert [m["move"] for m in reply["review"]["moves"]] == record["moves"]


def test_a_review_nobody_polls_is_abandoned_and_one_runs_per_key() -> None:
    config = GameConfig(mode=Mode.CLASSIC, players=2, seed=3)
    moves, _ = random_game(config, 3)
    record = GameRecord(config, tuple(str(m) for m in moves))

    async def go() -> None:
        now = [0.0]
        jobs = ReviewJobs(per_client=1, running=4, abandon_after=5.0, clock=lambda: now[0])
        pool = BotPool(1)
        saved: list[dict[str, Any]] = []

        async def save(review: dict[str, Any]) -> None:
            saved.append(review)

        try:
            first = jobs.start("g", pool, record, 400, "client", save)
            assert first == {"status": "running", "done": 0, "total": len(record.moves)}
            assert jobs.start("g", pool, record, 400, "client", save)["status"] == "running"  # same job
            with pytest.raises(RateLimited):
                jobs.start("h", pool, record, 400, "client", save)  # one per client here
            while (jobs.progress("g") or {}).get("done", 0) < 2:
                await asyncio.sleep(0.05)
            now[0] = 100.0  # nobody polled for 100 s: the job stops before its next move
            while jobs.running_for("client"):
                await asyncio.sleep(0.05)
            assert saved == [] and jobs.progress("g") is None
        finally:
            await jobs.close()
            pool.close()

    asyncio.run(go())


def test_a_review_stored_before_the_margins_still_loads(url: str, tmp_path: Path) -> None:
    # Reviews stored before the expected VP margin was reported have no margin fields: the
    # server hands them out as stored (the client shows what they have), and does not redo them.
    with _server(url, tmp_path) as server, server.http() as http:
        game = _finished_game(http)
        moves = http.get(f"/api/games/{game}/record").json()["moves"]
    old = {
        "format": "quadropolis-review/1",
        "players": 2,
        "iterations": 800,
        "thresholds": {"blunder": 0.2, "mistake": 0.1, "inaccuracy": 0.05},
        "moves": [
            {"index": i, "player": i % 2, "move": m, "text": m, "best": m, "best_text": m, "win_before": 0.5,
             "win_after": 0.5, "score_before": 30.0, "score_after": 30.0, "loss": 0.0, "label": "good",
             "forced": False}
            for i, m in enumerate(moves)
        ],
        "players_summary": [{"player": p, "accuracy": 100.0, "counts": {"good": 1}} for p in (0, 1)],
        "worst": [],
        "chart": [[0.5, 0.5] for _ in moves],
    }  # fmt: skip
    store = Store(url)
    try:
        store.save_review(game, 800, old, time.time())
    finally:
        store.close()
    with _server(url, tmp_path) as server, server.http() as http:
        reply = http.post(f"/api/games/{game}/review").json()
        assert reply == {"type": "review", "game": game, "status": "done", "review": old}
