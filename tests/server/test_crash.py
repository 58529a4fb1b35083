"""``kill -9`` of the server mid-game, then a restart on the same database: every
acknowledged move is there exactly once at its version, every unfinished game resumes exactly
(bots included) and plays to an end whose record replays. On SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, Server, create, database, my_turn
from websockets.exceptions import ConnectionClosed

from quadropolis import GameConfig, GameRecord, Move, apply, new_game, replay
from quadropolis.server.storage import Store
from quadropolis.server.views import public_state


def stored_history(url: str, game: str) -> tuple[dict[str, Any], list[tuple[int, str, str | None]]]:
    """The game's configuration (seed included) and its history, read from the database."""
    store = Store(url)
    try:
        data = store.load(game)
    finally:
        store.close()
    assert data is not None
    return data.config, [(a.version, a.kind, a.move) for a in data.actions]


def play_fast(client: Client, seat: int, acked: list[tuple[int, str]], stop: threading.Event) -> None:
    """Play seat's moves as fast as the server accepts them, noting every ack, until the
    connection dies (the server is killed) or ``stop``."""
    try:
        while not stop.is_set():
            client.until(my_turn(seat), timeout=30)
            if client.view["status"] == "over":
                return
            reply = client.move(seat, client.view["legal_moves"][-1])
            if reply["type"] == "accepted":
                acked.append((reply["version"], reply["move"]))
    except (ConnectionClosed, OSError, TimeoutError, AssertionError):
        return


def state_of(config: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    """The engine's state after ``moves``, as a view shows it (no config, face-down ids hidden)."""
    state = new_game(GameConfig.from_json(config))
    for m in moves:
        state = apply(state, Move.parse(m))
    return public_state(state)


def same_version(http: Any, client: Client, game: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The game's moves (HTTP) and the client's view at the same version (a bot may be
    moving meanwhile: read again until both agree)."""
    for _ in range(100):
        moves: dict[str, Any] = http.get(f"/api/games/{game}/moves").json()
        view = client.until(lambda v, n=moves["version"]: v["version"] >= n)
        if view["version"] == moves["version"]:
            return moves, view
    raise AssertionError("the moves and the view never agreed on a version")


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_sigkill_mid_game_then_restart_loses_and_repeats_nothing(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url:
        server = Server(url, tmp_path, "--games-per-client", "100").start()
        try:
            with server.http() as http:
                bots = create(http, players=2, take=[], seats=[{"type": "bot", "level": "easy"}] * 2)["game"]
                mixed = create(
                    http, players=2, name="Ann", seats=[{"type": "human"}, {"type": "bot", "level": "easy"}]
                )
            game, token = mixed["game"], mixed["seats"][0]["token"]
            client = Client(server.ws_url(game), [token])
            acked: list[tuple[int, str]] = []
            stop = threading.Event()
            player = threading.Thread(target=play_fast, args=(client, 0, acked, stop))
            player.start()
            time.sleep(1.0)  # moves and bot moves in flight
            server.kill()
            stop.set()
            player.join(30)
            assert acked, "the player had moves accepted before the kill"
            deadline = time.monotonic() + 10
            while server.group_alive() and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not server.group_alive(), "bot workers outlived the killed server"

            # Nothing acknowledged was lost; nothing is stored twice; the log is contiguous.
            config, history = stored_history(url, game)
            versions = [v for v, _, _ in history]
            assert versions == list(range(1, len(history) + 1))
            by_version = {v: m for v, _, m in history}
            for version, move in acked:
                assert by_version[version] == move
            _, bot_history = stored_history(url, bots)
            assert [v for v, _, _ in bot_history] == list(range(1, len(bot_history) + 1))

            server = Server(url, tmp_path, "--games-per-client", "100").start()
            with server.http() as http:
                # The game resumes exactly: same history, and the state is the engine's replay.
                back = Client(server.ws_url(game), [token])
                moves, view = same_version(http, back, game)
                assert [
                    (h["version"], h["kind"], h["move"]) for h in moves["history"][: len(history)]
                ] == history
                assert view["version"] >= len(history)
                assert view["state"] == state_of(config, moves["moves"])
                # The bots-only game resumes by itself, with no client, and finishes.
                deadline = time.monotonic() + 120
                while http.get(f"/api/games/{bots}").json()["status"] != "over":
                    assert time.monotonic() < deadline, "the bots did not resume"
                    time.sleep(0.2)
                # The human finishes their game against the resumed bot.
                acked_after: list[tuple[int, str]] = []
                play_fast(back, 0, acked_after, threading.Event())
                assert back.until(lambda v: v["status"] == "over", timeout=60)["status"] == "over"
                for g in (game, bots):
                    record = http.get(f"/api/games/{g}/record").json()
                    final = replay(GameRecord.from_json(record))
                    assert final.is_over
                    stored_config, full = stored_history(url, g)
                    assert [v for v, _, _ in full] == list(range(1, len(full) + 1))
                    assert record["config"] == stored_config
                moves, view = same_version(http, back, game)
                assert view["state"] == state_of(config, moves["moves"])
                back.close()
                client.close()
        finally:
            server.stop()
