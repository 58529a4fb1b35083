"""The daily challenge, rematches and table chat against a real server
process, on SQLite and on PostgreSQL: one daily game per account even when requests race,
the day's leaderboard, guests unranked; a rematch at the same seats with seats kept for their
players, declined or joined; table chat with hostile lines refused, rate-limited, kept."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx
import pytest
from server_helpers import Client, Server, create, error_of, logged_in, play_seats

from quadropolis.server.social.daily import day_format

CSRF = {"X-Quadropolis-Client": "1"}
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(daily_server: Server) -> Server:
    """The module's server, on each database kind, its daily challenge classic-2."""
    return daily_server


def guest(server: Server) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30, headers=CSRF)


def next_of(client: Client, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The next message of one of ``kinds``, skipping the others (pushes to everyone)."""
    while True:
        message: dict[str, Any] = client.recv()
        if message["type"] in kinds:
            return message


def start_daily(client: httpx.Client) -> dict[str, Any]:
    r = client.post("/api/daily/games", json={"name": "Guest"})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def test_the_daily_challenge_ranks_each_account_once_and_guests_never(server: Server) -> None:
    today = datetime.now(UTC).date()
    with logged_in(server) as alice, guest(server) as anon:
        board = alice.get("/api/daily").json()
        assert board["day"] == today.isoformat() and board["today"] and board["you"] is None
        assert (board["mode"], board["players"], tuple(board["opponents"])) == day_format(
            today, ("classic-2",)
        )
        mine = start_daily(alice)
        assert mine["ranked"] and [s["seat"] for s in mine["seats"]] == [0]
        error_of(alice.post("/api/daily/games", json={}), 409, "already_played")
        theirs = start_daily(anon)
        assert not theirs["ranked"] and theirs["practice"]
        again = start_daily(anon)  # a guest may practise again, unranked
        assert again["game"] != theirs["game"]
        ended = play_seats(alice, mine["game"], {0: mine["seats"][0]["token"]})
        play_seats(anon, theirs["game"], {0: theirs["seats"][0]["token"]})
        # The guest practised the day's format on a deal of its own.
        records = [alice.get(f"/api/games/{g['game']}/record").json() for g in (mine, theirs)]
        assert records[0]["config"]["mode"] == records[1]["config"]["mode"]
        assert records[0]["config"]["seed"] != records[1]["config"]["seed"]
        board = alice.get("/api/daily").json()
        lines = [line for line in board["leaderboard"] if line["game"] == mine["game"]]
        assert len(lines) == 1 and lines[0]["vp"] == ended["result"]["scores"][0] and lines[0]["of"] == 2
        assert lines[0]["username"] == alice.get("/api/me").json()["username"]
        assert board["you"] == {"game": mine["game"], "line": lines[0]}
        assert all(line["game"] != theirs["game"] for line in board["leaderboard"])
        ranked = [(line["place"], -line["vp"]) for line in board["leaderboard"]]
        assert ranked == sorted(ranked) and [line["rank"] for line in board["leaderboard"]][:1] == [1]
        of_guest = anon.get(f"/api/games/{theirs['game']}/daily").json()
        assert of_guest["game"]["ranked"] is False and of_guest["game"]["practice"] is True
        assert of_guest["game"]["vp"] is not None
        assert of_guest["you"]["line"] is None  # played, shown the day's best, not ranked
        hidden = anon.get(f"/api/daily/{today.isoformat()}").json()  # without the games' links
        assert hidden["leaderboard"] == [{**line, "game": None} for line in board["leaderboard"]]


def test_racing_requests_start_one_daily_game_per_account(server: Server) -> None:
    with logged_in(server) as bob:
        with ThreadPoolExecutor(8) as pool:
            replies = list(pool.map(lambda _: bob.post("/api/daily/games", json={}), range(8)))
        codes = sorted(r.status_code for r in replies)
        assert codes == [201] + [409] * 7, [r.text for r in replies]
        assert all(r.json()["code"] == "already_played" for r in replies if r.status_code == 409)
        game = next(r.json()["game"] for r in replies if r.status_code == 201)
        assert bob.get("/api/daily").json()["you"]["game"] == game
        mine = bob.get("/api/me/games").json()  # the account holds its seat ("My games")
        assert game in [g["game"] for g in mine["your_turn"] + mine["playing"]]


def test_days_are_checked_and_days_to_come_are_not_shown(server: Server) -> None:
    with guest(server) as anon:
        error_of(anon.get("/api/daily/2001-01-01"), 404, "not_found")
        tomorrow = (datetime.now(UTC).date() + timedelta(days=1)).isoformat()
        error_of(anon.get(f"/api/daily/{tomorrow}"), 404, "not_found")
        for bad in ("2026-13-01", "yesterday", "2026-1-1"):
            error_of(anon.get(f"/api/daily/{bad}"), 400, "bad_message")
        error_of(anon.post("/api/daily/games", json={"name": "x\u202ey"}), 400, "bad_message")
        r = httpx.post(f"{server.url}/api/daily/games", json={})  # no client header: cross-site
        error_of(r, 403, "forbidden")
        error_of(anon.get("/api/games/nosuchgame/daily"), 404, "not_found")
    assert date.fromisoformat(tomorrow) > datetime.now(UTC).date()


def finished_table(http: httpx.Client) -> tuple[str, dict[int, str]]:
    """A finished game of two people (seats 0 and 1, different browsers) and a bot (seat 2)."""
    seats = [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "easy"}]
    made = create(http, players=3, seats=seats, name="Ann", public=False)
    tokens = {0: made["seats"][0]["token"]}
    joined = http.post(f"/api/games/{made['game']}/seats/1", json={"name": "Ben"})
    tokens[1] = joined.json()["token"]
    play_seats(http, made["game"], tokens)
    return made["game"], tokens


def test_a_rematch_keeps_the_seats_for_their_players(server: Server) -> None:
    with server.http() as http:
        old, tokens = finished_table(http)
        ben = Client(server.ws_url(old), [tokens[1]])
        watcher = Client(server.ws_url(old))
        try:
            r = http.post(f"/api/games/{old}/rematch", json={"tokens": [tokens[0]]})
            assert r.status_code == 200, r.text
            new = r.json()["game"]
            assert [s["seat"] for s in r.json()["seats"]] == [0]
            offer = ben.expect("rematch")
            assert offer == {"type": "rematch", "game": old, "rematch": new, "by": [0]}
            view = http.get(f"/api/games/{new}").json()
            assert view["status"] == "waiting" and view["config"]["players"] == 3
            # Seat 1 is kept for Ben: an invitation link does not get it.
            error_of(http.post(f"/api/games/{new}/seats/1", json={"name": "Eve"}), 403, "forbidden")
            r = http.post(f"/api/games/{old}/rematch", json={"tokens": [tokens[1]]})
            assert r.json()["game"] == new and [s["seat"] for s in r.json()["seats"]] == [1]
            view = http.get(f"/api/games/{new}").json()
            assert view["status"] == "playing"
            assert [s["name"] for s in view["seats"]] == ["Ann", "Ben", "Bot (easy)"]
            assert http.get(f"/api/games/{old}/rematch").json() == {"game": old, "rematch": new}
            # Asking again gives no new seat; a stranger's token none at all.
            again = http.post(f"/api/games/{old}/rematch", json={"tokens": [tokens[0]]}).json()
            assert again == {"game": new, "seats": []}
            error_of(http.post(f"/api/games/{old}/rematch", json={"tokens": ["x" * 22]}), 403, "forbidden")
            assert all(m["type"] != "rematch" for m in watcher.received)
        finally:
            ben.close()
            watcher.close()


def test_a_declined_rematch_is_cancelled_and_a_running_game_has_none(server: Server) -> None:
    with server.http() as http:
        old, tokens = finished_table(http)
        new = http.post(f"/api/games/{old}/rematch", json={"tokens": [tokens[0]]}).json()["game"]
        r = http.post(f"/api/games/{old}/rematch/decline", json={"tokens": [tokens[1]]})
        assert r.json() == {"type": "status", "game": new, "status": "cancelled"}
        assert http.get(f"/api/games/{new}").json()["status"] == "cancelled"
        running = create(http, players=2, seats=[{"type": "human"}, {"type": "bot", "level": "easy"}])
        token = running["seats"][0]["token"]
        error_of(
            http.post(f"/api/games/{running['game']}/rematch", json={"tokens": [token]}), 409, "not_over"
        )
        error_of(http.post(f"/api/games/{old}/rematch", json={"tokens": []}), 400, "bad_message")


HOSTILE = {
    "a newline": "hello\nforged line",
    "a bidi override": "gg \u202eevil",
    "an ANSI escape": "\x1b[31mred",
    "a zero-width space": "a\u200bb",
    "only spaces": "   ",
    "201 characters": "x" * 201,
}


def test_table_chat_refuses_hostile_lines_and_reaches_everyone(server: Server) -> None:
    with server.http() as http:
        made = create(
            http, players=2, seats=[{"type": "human"}, {"type": "bot", "level": "easy"}], name="Ann"
        )
        game = made["game"]
        ann = Client(server.ws_url(game), [made["seats"][0]["token"]])
        watcher = Client(server.ws_url(game))
        try:
            for what, text in HOSTILE.items():
                ann.send(type="chat", text=text, id=what[:20])
                reply = next_of(ann, ("error",))
                assert reply["code"] == "bad_message" and reply["id"] == what[:20], what
            for bad in ({"text": 5}, {"text": "hi", "seat": 0}, {}):
                ann.send(type="chat", **bad)
                assert next_of(ann, ("error",))["code"] == "bad_message"
            ann.send(type="chat", text="  <b>gg</b> & good luck  ")
            said = next_of(watcher, ("chat",))
            assert said["history"] is False
            assert [(line["seat"], line["name"], line["text"]) for line in said["lines"]] == [
                (0, "Ann", "<b>gg</b> & good luck")  # plain text, trimmed, never interpreted
            ]
            assert next_of(ann, ("chat",))["lines"][0]["text"] == "<b>gg</b> & good luck"
            ann.send(type="chat", text="y" * 200)
            assert next_of(ann, ("chat",))["lines"][0]["text"] == "y" * 200
            watcher.send(type="chat", text="hello from the audience")
            assert next_of(watcher, ("error",))["code"] == "forbidden"
            codes = []
            for i in range(8):  # the burst (5) is spent by now: the rest are refused
                ann.send(type="chat", text=f"spam {i}")
                reply = next_of(ann, ("chat", "error"))
                codes.append(reply.get("code", "said"))
            assert "rate_limited" in codes and "said" in codes[:3]
            late = Client(server.ws_url(game))  # a newcomer gets the kept lines
            history = next_of(late, ("chat",))
            assert history["history"] is True and history["lines"][0]["text"] == "<b>gg</b> & good luck"
            late.close()
        finally:
            ann.close()
            watcher.close()
