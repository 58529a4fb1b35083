"""A game's life cycle against a real server process: a waiting game is
cancelled by its creator or left by a player, a running game is resigned (a forfeit: the
game of two ends, a bot plays the seat of a larger one), idle games expire from the lobby and
from the quota, nothing is replayed at start-up, and a database of the previous schema is
upgraded without losing a game."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from alembic.script import ScriptDirectory
from server_helpers import GENEROUS, Client, Server, bearer, create, database, error_of, hotseat
from sqlalchemy import text

from quadropolis.server.migrations import config as alembic_config
from quadropolis.server.migrations import current, upgrade
from quadropolis.server.storage import Store


def lobby(http: httpx.Client) -> set[str]:
    return {g["game"] for g in http.get("/api/games", params={"limit": 200}).json()["games"]}


def test_the_creator_cancels_a_waiting_game_and_no_one_else_can(http: httpx.Client, server: Server) -> None:
    data = create(http, players=3, name="Ann")
    game, ann = data["game"], data["seats"][0]["token"]
    bob = http.post(f"/api/games/{game}/seats/1", json={"name": "Bob"}).json()["token"]
    watcher = Client(server.ws_url(game))
    assert game in lobby(http)
    error_of(http.delete(f"/api/games/{game}"), 403, "forbidden")
    error_of(http.delete(f"/api/games/{game}", headers=bearer(bob)), 403, "forbidden")  # a joiner
    r = http.delete(f"/api/games/{game}", headers=bearer(ann))
    assert r.status_code == 200 and r.json() == {"type": "status", "game": game, "status": "cancelled"}
    assert game not in lobby(http)
    assert http.get(f"/api/games/{game}").json()["status"] == "cancelled"
    assert watcher.until(lambda v: v["status"] == "cancelled", timeout=5)["status"] == "cancelled"
    watcher.close()
    error_of(http.post(f"/api/games/{game}/seats/2", json={"name": "Cy"}), 409, "game_over")
    error_of(http.delete(f"/api/games/{game}", headers=bearer(ann)), 409, "game_over")


def test_a_started_game_is_not_cancelled_but_resigned(http: httpx.Client) -> None:
    game, tokens = hotseat(http)
    error_of(http.delete(f"/api/games/{game}", headers=bearer(tokens[0])), 409, "game_started")
    error_of(
        http.post(f"/api/games/{game}/leave", json={"seat": 0}, headers=bearer(tokens[0])),
        409,
        "game_started",
    )


def test_a_player_leaves_a_waiting_game_and_the_seat_opens_again(http: httpx.Client) -> None:
    data = create(http, players=3, name="Ann")
    game = data["game"]
    bob = http.post(f"/api/games/{game}/seats/1", json={"name": "Bob"}).json()["token"]
    error_of(
        http.post(f"/api/games/{game}/leave", json={"seat": 1}, headers=bearer("x" * 22)), 403, "forbidden"
    )
    r = http.post(f"/api/games/{game}/leave", json={"seat": 1}, headers=bearer(bob))
    assert r.status_code == 200 and r.json()["status"] == "waiting"
    seats = {s["seat"]: s for s in http.get(f"/api/games/{game}").json()["seats"]}
    assert seats[1]["open"] and seats[1]["name"] == ""
    error_of(http.get(f"/api/games/{game}", headers=bearer(bob)), 403, "forbidden")  # the token holds nothing
    assert http.post(f"/api/games/{game}/seats/1", json={"name": "Cy"}).status_code == 200


def test_resigning_a_game_of_two_ends_it_at_once_and_the_other_player_wins(
    http: httpx.Client, server: Server
) -> None:
    data = create(http, players=2, name="Ann")
    game, ann = data["game"], data["seats"][0]["token"]
    bob = http.post(f"/api/games/{game}/seats/1", json={"name": "Bob"}).json()["token"]
    watcher = Client(server.ws_url(game), [ann])
    r = http.post(f"/api/games/{game}/resign", json={"seat": 1}, headers=bearer(bob))
    assert r.status_code == 200 and r.json()["status"] == "over"
    view = watcher.until(lambda v: v["status"] == "over", timeout=10)
    watcher.close()
    assert view["result"]["winners"] == [0] and view["result"]["forfeits"] == [1]
    assert view["result"]["ranks"] == [1, 2] and view["result"]["decided_by"] == "forfeit"
    assert view["seats"][1]["forfeited"] and not view["seats"][0]["forfeited"]
    error_of(http.post(f"/api/games/{game}/resign", json={"seat": 1}, headers=bearer(bob)), 409, "game_over")
    record = http.get(f"/api/games/{game}/record").json()
    assert record["seats"] == ["human:Ann", "human:Bob"]  # no bot played: the resigner keeps their name
    assert record["moves"] == [] and record["result"]["forfeits"] == [1]
    replayed = http.post("/api/replay", json={"record": record, "at": 0}).json()
    assert replayed["view"]["status"] == "over" and replayed["view"]["result"]["winners"] == [0]


def test_with_three_players_a_resigner_is_last_and_the_others_play_on(http: httpx.Client) -> None:
    data = create(http, players=3, name="Ann", takeover_after=600, takeover_level="medium")
    game = data["game"]
    bob = http.post(f"/api/games/{game}/seats/1", json={"name": "Bob"}).json()["token"]
    http.post(f"/api/games/{game}/seats/2", json={"name": "Cy"}).raise_for_status()
    r = http.post(f"/api/games/{game}/resign", json={"seat": 1}, headers=bearer(bob))
    assert r.json()["status"] == "playing"
    view = http.get(f"/api/games/{game}").json()
    assert view["seats"][1]["level"] == "medium" and view["seats"][1]["forfeited"]  # the takeover level


def test_when_the_last_person_resigns_the_game_ends_with_the_resigners_last(http: httpx.Client) -> None:
    game, tokens = hotseat(http, players=3)
    r = http.post(f"/api/games/{game}/resign", json={"seat": 2}, headers=bearer(tokens[2]))
    assert r.json()["status"] == "playing"
    r = http.post(f"/api/games/{game}/resign", json={"seat": 0}, headers=bearer(tokens[0]))
    assert r.json()["status"] == "playing"  # seat 1 is still a person's
    r = http.post(f"/api/games/{game}/resign", json={"seat": 1}, headers=bearer(tokens[1]))
    assert r.json()["status"] == "over"
    result = http.get(f"/api/games/{game}").json()["result"]
    # The earliest resigner is last, the latest first: no one played on.
    assert result["forfeits"] == [2, 0, 1] and result["ranks"] == [2, 1, 3]
    assert http.get(f"/api/games/{game}/record").json()["result"]["forfeits"] == [2, 0, 1]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_idle_games_expire_and_leave_the_quota(kind: str, tmp_path: Path) -> None:
    options = ("--games-per-client", "2", "--waiting-expiry", "3", "--playing-expiry", "5", *GENEROUS)
    with database(kind, tmp_path) as url, Server(url, tmp_path, *options) as server, server.http() as http:
        waiting = create(http, players=2, name="Ann")["game"]
        running, tokens = hotseat(http)
        message = error_of(http.post("/api/games", json={"players": 2}), 429, "limit_reached")
        assert "cancel" in message and "resign" in message and "expires after 3 seconds" in message
        assert waiting in lobby(http)
        time.sleep(3.5)
        assert waiting not in lobby(http)  # idle too long: out of the lobby and of the quota at once
        create(http, players=2, name="Ann")  # room for one again
        deadline = time.monotonic() + 10
        while http.get(f"/api/games/{running}").json()["status"] != "expired":
            assert time.monotonic() < deadline, "the idle running game did not expire"
            time.sleep(0.2)
        assert http.get(f"/api/games/{waiting}").json()["status"] == "expired"
        move = {"seat": 0, "version": 0, "move": "1T1"}
        error_of(
            http.post(f"/api/games/{running}/moves", json=move, headers=bearer(tokens[0])), 409, "game_over"
        )


def test_a_move_keeps_a_running_game_alive(tmp_path: Path) -> None:
    options = ("--playing-expiry", "3", *GENEROUS)
    with Server(f"sqlite:///{tmp_path / 'g.sqlite3'}", tmp_path, *options) as server, server.http() as http:
        game, tokens = hotseat(http)
        for _ in range(5):  # 5 s of play, a move every second: never 3 s idle
            view = http.get(f"/api/games/{game}").json()
            seat = view["to_move"]
            body = {"seat": seat, "version": view["version"], "move": view["legal_moves"][0]}
            assert (
                http.post(f"/api/games/{game}/moves", json=body, headers=bearer(tokens[seat])).status_code
                == 200
            )
            time.sleep(1)
        assert http.get(f"/api/games/{game}").json()["status"] == "playing"


def insert_waiting_games(url: str, count: int) -> None:
    """``count`` waiting games written straight into the database, in one transaction."""
    store = Store(url)
    store.upgrade()
    now = time.time()
    config = json.dumps({"mode": "classic", "players": 2, "seed": 7})
    games = [{"id": f"g{i}", "config": config, "created_at": now, "last_activity": now} for i in range(count)]
    seats = [{"game_id": f"g{i}", "seat": s} for i in range(count) for s in range(2)]
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, config, status, public, creator, takeover_after, takeover_level, "
                "created_at, analysis, last_activity) VALUES (:id, :config, 'waiting', TRUE, 'c', NULL, "
                "'easy', :created_at, FALSE, :last_activity)"
            ),
            games,
        )
        conn.execute(
            text(
                "INSERT INTO seats (game_id, seat, kind, level, name, token_hash, last_seen, host) "
                "VALUES (:game_id, :seat, 'human', NULL, '', NULL, NULL, FALSE)"
            ),
            seats,
        )
    store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_start_up_replays_no_game_and_loads_each_on_first_use(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url:
        insert_waiting_games(url, 3000)
        with Server(url, tmp_path, *GENEROUS) as server, server.http() as http:
            assert http.get("/api/health").json()["loaded"] == 0
            assert http.get("/api/games/g1234").json()["status"] == "waiting"
            assert http.get("/api/health").json()["loaded"] == 1


def test_a_database_of_the_previous_schema_is_upgraded_without_losing_a_game(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    store = Store(url)
    upgrade(store.engine, "0002")
    config = json.dumps({"mode": "classic", "players": 2, "seed": 7})
    with store.engine.begin() as conn:
        for game, status in (("waiting", "waiting"), ("running", "playing")):
            conn.execute(
                text(
                    "INSERT INTO games (id, config, status, public, creator, takeover_after, "
                    "takeover_level, created_at, analysis) VALUES (:id, :config, :status, 1, 'c', NULL, "
                    "'easy', 100.0, 0)"
                ),
                {"id": game, "config": config, "status": status},
            )
            conn.execute(
                text(
                    "INSERT INTO seats (game_id, seat, kind, level, name, token_hash, last_seen) VALUES "
                    "(:id, 0, 'human', NULL, 'Ann', :h, 100.0), (:id, 1, 'human', NULL, :n, :h1, :seen)"
                ),
                {
                    "id": game,
                    "h": b"a" * 32,
                    "n": "" if status == "waiting" else "Bob",
                    "h1": None if status == "waiting" else b"b" * 32,
                    "seen": None if status == "waiting" else 150.0,
                },
            )
        conn.execute(
            text(
                "INSERT INTO actions (game_id, version, seat, kind, move, undone, actor, created_at) "
                "VALUES ('running', 1, 0, 'move', :m, NULL, 'player', 200.0)"
            ),
            {"m": first_move(config)},
        )
    store.upgrade()
    assert current(store.engine) == ScriptDirectory.from_config(alembic_config()).get_current_head()
    waiting, running = store.load("waiting"), store.load("running")
    assert waiting is not None and running is not None
    assert waiting.last_activity == 100.0 and running.last_activity == 200.0
    assert [s.host for s in running.seats] == [True, False]  # Ann took hers at creation, Bob joined
    assert len(running.actions) == 1 and running.actions[0].move == first_move(config)
    store.close()


def first_move(config: str) -> str:
    from quadropolis import GameConfig, legal_moves, new_game

    return str(legal_moves(new_game(GameConfig.from_json(json.loads(config))))[0])
