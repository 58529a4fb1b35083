"""Several server processes, one PostgreSQL, one Redis: two servers on different ports serve
the same game, a client on each; every push reaches the clients of both processes, a race
between the two processes at the same version is won by exactly one move, and bots are
never played twice."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from server_helpers import Client, Server, create, fresh_postgres, my_turn, redis_url

from quadropolis import GameRecord, replay


def test_two_processes_serve_one_game_through_redis(tmp_path: Path) -> None:
    redis = redis_url()
    with fresh_postgres() as url:
        # Started together: the migration runs once, under PostgreSQL's advisory lock.
        one = Server(url, tmp_path, redis=redis).launch()
        two = Server(url, tmp_path, redis=redis).launch()
        try:
            one.wait_ready()
            two.wait_ready()
            seats = [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "easy"}]
            with one.http() as http1, two.http() as http2:
                data = create(http1, players=3, name="Ann", seats=seats)
                game, ann = data["game"], data["seats"][0]["token"]
                bob = http2.post(f"/api/games/{game}/seats/1", json={"name": "Bob"}).json()["token"]
                ann_c = Client(one.ws_url(game), [ann])  # Ann plays through process one
                bob_c = Client(two.ws_url(game), [bob])  # Bob through process two
                watchers = [Client(one.ws_url(game)), Client(two.ws_url(game))]
                # Bob's join on process two reached Ann's process: the game started there too.
                ann_c.until(lambda v: v["status"] == "playing")

                # A race across processes: Ann's move sent at once through both servers.
                ann_2 = Client(two.ws_url(game), [ann])
                ann_c.until(my_turn(0))
                version = ann_c.view["version"]
                move = ann_c.view["legal_moves"][0]
                replies: list[dict[str, Any]] = []
                racers = [
                    threading.Thread(target=lambda c=c: replies.append(c.move(0, move, version=version)))
                    for c in (ann_c, ann_2)
                ]
                for t in racers:
                    t.start()
                for t in racers:
                    t.join()
                assert sorted(r["type"] for r in replies) == ["accepted", "error"], replies
                assert next(r for r in replies if r["type"] == "error")["code"] == "stale"
                ann_2.close()

                # Play to the end: each human on their own process, the bot wherever.
                players = {0: ann_c, 1: bob_c}
                done = next(r for r in replies if r["type"] == "accepted")["version"]
                while True:
                    ann_c.until(
                        lambda v, n=done: (
                            v["version"] >= n and (v["status"] == "over" or v["to_move"] in players)
                        )
                    )
                    if ann_c.view["status"] == "over":
                        break
                    seat, version = ann_c.view["to_move"], ann_c.view["version"]
                    c = players[seat]
                    c.until(lambda v, n=version: v["version"] >= n)
                    reply = c.move(seat, c.view["legal_moves"][-1])
                    assert reply["type"] == "accepted", reply
                    done = reply["version"]
                final = ann_c.view
                for c in (bob_c, *watchers):
                    view = c.until(lambda v: v["status"] == "over", timeout=30)
                    assert view["version"] == final["version"] and view["state"] == final["state"]
                    # pushed (no client here ever asks), in order, whichever process acted
                    versions = [m["version"] for m in c.received if m["type"] == "state"]
                    assert versions == sorted(versions)
                history = http2.get(f"/api/games/{game}/moves").json()["history"]
                assert [h["version"] for h in history] == list(range(1, len(history) + 1))
                bot_moves = [h for h in history if h["by"] == "bot"]
                assert bot_moves and all(h["seat"] == 2 for h in bot_moves)
                record = http2.get(f"/api/games/{game}/record").json()
                assert replay(GameRecord.from_json(record)).is_over
                assert http1.get(f"/api/games/{game}/record").json() == record
                for c in (ann_c, bob_c, *watchers):
                    c.close()
        finally:
            one.stop()
            two.stop()
            time.sleep(0.1)
