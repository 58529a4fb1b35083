"""A game's life cycle against a real server process: a waiting game is
cancelled by its creator or left by a player, a running game is resigned (a forfeit: the
game of two ends, a bot plays the seat of a larger one), idle games expire from the lobby and
from the quota, nothing is replayed at start-up, and a database of the previous schema is
upgraded without losing a game. Expiry's timing is tested in process on the real stores
(SQLite and PostgreSQL), time passing on a manual clock."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from alembic.script import ScriptDirectory
from server_helpers import GENEROUS, Client, Server, bearer, create, database, error_of, hotseat
from service_helpers import act_first_legal, hotseat_game, run_on_manual_clock
from sqlalchemy import text

from quadropolis.server.clock import ManualClock
from quadropolis.server.data import EXPIRED, MIN_OWN_MOVES, OVER, PLAYING, WAITING
from quadropolis.server.env import Env
from quadropolis.server.errors import GameOver, LimitReached
from quadropolis.server.migrations import config as alembic_config
from quadropolis.server.migrations import current, upgrade
from quadropolis.server.protocol import CreateGame
from quadropolis.server.settings import Limits
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


async def waiting_ids(env: Env) -> set[str]:
    return {g.id for g in await env.records.summaries(WAITING, 200)}


def test_idle_games_expire_and_leave_the_quota(db_url: str) -> None:
    """In process on the real store, time passing on a manual clock (a server process's
    own clock is never replaced); its sweeper never comes round: the test runs expiry."""

    async def go(env: Env, clock: ManualClock) -> None:
        service = env.service
        waiting = (await service.create(CreateGame(players=2, name="Ann"), "c")).game
        running = await service.create(CreateGame(players=2, name="Ann", take=[0, 1]), "c")
        with pytest.raises(LimitReached) as refused:
            await service.create(CreateGame(players=2, name="Ann"), "c")
        message = str(refused.value)
        assert "cancel" in message and "resign" in message and "expires after 3 seconds" in message
        assert waiting in await waiting_ids(env)
        await clock.advance(3.5)
        assert waiting not in await waiting_ids(env)  # idle too long: out of the lobby and quota
        await service.create(CreateGame(players=2, name="Ann"), "c")  # room for one again
        assert (await service.game(running.game)).status == PLAYING
        await clock.advance(2.0)
        assert sorted(await env.timers.expire()) == sorted([waiting, running.game])
        assert (await service.game(waiting)).status == EXPIRED
        assert (await service.game(running.game)).status == EXPIRED
        with pytest.raises(GameOver):
            await service.act(running.game, 0, running.tokens[0], 0, "1T1")

    run_on_manual_clock(db_url, go, limits=Limits(games_per_client=2, waiting_expiry=3, playing_expiry=5))


def test_a_move_keeps_a_running_game_alive(db_url: str) -> None:
    async def go(env: Env, clock: ManualClock) -> None:
        game, tokens = await hotseat_game(env.service)
        for _ in range(5):  # 5 s of play, a move every second: never 3 s idle
            await act_first_legal(env.service, game, tokens)
            await clock.advance(1.0)
            assert await env.timers.expire() == []
        assert game.status == PLAYING
        await clock.advance(3.0)  # and 3 s without a move end it
        assert await env.timers.expire() == [game.id]

    run_on_manual_clock(db_url, go, limits=Limits(playing_expiry=3))


def test_a_silent_player_to_move_loses_an_idle_game_once_everyone_has_played(db_url: str) -> None:
    """Idle past ``playing_expiry`` after each person has played :data:`MIN_OWN_MOVES` moves of
    their own: the game is over, lost by the person to move (a forfeit), not aborted."""

    async def go(env: Env, clock: ManualClock) -> None:
        game, tokens = await hotseat_game(env.service)
        while min(game.own_moves(0), game.own_moves(1)) < MIN_OWN_MOVES:
            await act_first_legal(env.service, game, tokens)
        silent = game.to_move
        await clock.advance(3.5)
        assert await env.timers.expire() == [game.id]
        assert game.status == OVER and game.forfeits == (silent,)

    run_on_manual_clock(db_url, go, limits=Limits(playing_expiry=3))


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
