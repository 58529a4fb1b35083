"""The server features the browser client needs, against a real server process:
``build_options`` and ``analysis`` in the view, ``result.placements`` and ``decided_by`` at
the end, running games listed to watch, ``POST /api/replay``, and analysis (hints) of a game
or a record — with the guarantees that no reply leaks the seed of a running game, that a
table without analysis refuses it (``forbidden``) and that a record which does not replay is
``bad_record`` with the engine's reason."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Server, bearer, create, error_of, hotseat, play_http

from quadropolis.config import GameConfig
from quadropolis.moves import Move
from quadropolis.outcome import fed_score, outcome, projected_score
from quadropolis.phases import PLACE
from quadropolis.rules import apply_unchecked, legal_moves, new_game
from quadropolis.server.data import GUIDED_SEED, GameData, SeatData
from quadropolis.server.storage import Store
from quadropolis.server.views import public_state


def bots_game(http: httpx.Client) -> str:
    """A finished game of two easy bots."""
    game = create(http, players=2, take=[], seats=[{"type": "bot", "level": "easy"}] * 2)["game"]
    deadline = time.monotonic() + 60
    while http.get(f"/api/games/{game}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return str(game)


def seed_of(http: httpx.Client, game: str) -> int:
    return int(http.get(f"/api/games/{game}/record").json()["config"]["seed"])


def state_after(config: dict[str, Any], moves: list[str]) -> Any:
    state = new_game(GameConfig.from_json(config))
    for text in moves:
        apply_unchecked(state, Move.parse(text))
    return state


# --- build options ---------------------------------------------------------------------------


def test_build_options_give_the_projected_score_of_each_build_and_discard(http: httpx.Client) -> None:
    game, tokens = hotseat(http)
    view = http.get(f"/api/games/{game}").json()
    assert view["phase"] == "take" and view["build_options"] == []
    for choice in (0, -1):  # a build, then (next time) the discard
        view = play_http(http, game, tokens, until=lambda v: v["phase"] == "place")
        seat, options = view["to_move"], view["build_options"]
        assert [o["move"] for o in options] == view["legal_moves"]
        assert options[-1]["move"] == "discard"
        chosen = options[choice]
        body = {"seat": seat, "version": view["version"], "move": chosen["move"]}
        assert (
            http.post(f"/api/games/{game}/moves", json=body, headers=bearer(tokens[seat])).status_code == 200
        )
        after = http.get(f"/api/games/{game}").json()
        assert after["scores"][seat]["total"] == chosen["score"]
        assert after["phase"] == "take" and after["build_options"] == []


def test_build_options_match_the_engine(http: httpx.Client) -> None:
    record = http.get(f"/api/games/{bots_game(http)}/record").json()
    checked = 0
    for at in range(len(record["moves"])):
        state = state_after(record["config"], record["moves"][:at])
        if state.phase != PLACE or at % 3:
            continue
        reply = http.post("/api/replay", json={"record": record, "at": at}).json()
        expected = []
        for move in legal_moves(state):
            after = state.copy()
            apply_unchecked(after, move)
            seat = state.current_player
            score, fed = projected_score(after, seat).total, fed_score(after, seat)
            expected.append({"move": str(move), "score": score, "fed": fed})
        assert reply["view"]["build_options"] == expected
        checked += 1
    assert checked


# --- end of game -----------------------------------------------------------------------------


def test_the_result_has_placements_and_what_decided_the_winner(http: httpx.Client) -> None:
    game = bots_game(http)
    view = http.get(f"/api/games/{game}").json()
    record = http.get(f"/api/games/{game}/record").json()
    final = state_after(record["config"], record["moves"])
    out = outcome(final)
    result = view["result"]
    assert result["placements"] == [s.placement.to_json(final.geometry) for s in out.scores]
    assert result["decided_by"] == out.decided_by
    assert result["decided_by"] in ("score", "inhabitants_placed", "empty_squares", "shared")
    assert result["ranks"] == list(out.ranks)
    assert result["scores"] == list(out.totals)


# --- running games ---------------------------------------------------------------------------


def test_running_public_games_are_listed_to_watch(http: httpx.Client) -> None:
    game, _ = hotseat(http)
    hidden, _ = hotseat(http, public=False)
    waiting = create(http, players=2)["game"]
    r = http.get("/api/games", params={"status": "playing"})
    assert r.status_code == 200
    entries = {e["game"]: e for e in r.json()["games"]}
    assert game in entries and hidden not in entries and waiting not in entries
    entry = entries[game]
    assert entry["status"] == "playing" and set(entry) == {
        "game",
        "status",
        "config",
        "seats",
        "created_at",
        "finished_at",
        "result",
    }
    assert "seed" not in json.dumps(r.json())
    error_of(http.get("/api/games", params={"status": "nope"}), 400, "bad_message")


# --- replay ----------------------------------------------------------------------------------


def test_replay_gives_the_view_of_a_position_without_the_seed(http: httpx.Client) -> None:
    game = bots_game(http)
    record = http.get(f"/api/games/{game}/record").json()
    seed = record["config"]["seed"]
    total = len(record["moves"])
    r = http.post("/api/replay", json={"record": record, "at": 17})
    assert r.status_code == 200, r.text
    reply = r.json()
    assert reply["type"] == "replay" and reply["at"] == 17 and reply["moves"] == total
    assert reply["rounds"][0] == {"round": 1, "at": 0}
    assert [x["round"] for x in reply["rounds"]] == list(range(1, len(reply["rounds"]) + 1))
    view = reply["view"]
    assert view["game"] is None and view["version"] == 17 and view["status"] == "playing"
    # A record's positions may be analysed by anyone (POST /api/analysis): the replay offers it.
    assert view["analysis"] is True
    assert [s["name"] for s in view["seats"]] == ["Bot easy", "Bot easy"]
    assert view["state"] == public_state(state_after(record["config"], record["moves"][:17]))
    assert "seed" not in json.dumps(reply) and str(seed) not in json.dumps(reply)
    end = http.post("/api/replay", json={"record": record, "at": total}).json()["view"]
    assert end["status"] == "over" and end["result"]["scores"] == record["result"]["scores"]
    for round_ in reply["rounds"][1:]:
        at = http.post("/api/replay", json={"record": record, "at": round_["at"]}).json()
        assert at["view"]["round"] == round_["round"]


def test_a_record_that_does_not_replay_is_bad_record(http: httpx.Client) -> None:
    record = http.get(f"/api/games/{bots_game(http)}/record").json()
    # Move 2 repeats move 1: either a building is in hand (a take is out of turn) or the slot
    # already holds an architect (R1); illegal whatever the game.
    first = record["moves"][0]
    wrong = {**record, "moves": [first, first, *record["moves"][1:]]}
    message = error_of(http.post("/api/replay", json={"record": wrong, "at": 0}), 422, "bad_record")
    assert "move 2" in message and "illegal" in message
    message = error_of(http.post("/api/replay", json={"record": {"format": "x"}, "at": 0}), 422, "bad_record")
    assert "format" in message
    message = error_of(http.post("/api/analysis", json={"record": wrong, "at": 0}), 422, "bad_record")
    assert "move 2" in message
    error_of(
        http.post("/api/replay", json={"record": record, "at": len(record["moves"]) + 1}), 400, "bad_message"
    )
    error_of(http.post("/api/replay", json={"record": record, "at": -1}), 400, "bad_message")
    error_of(http.post("/api/replay", json={"at": 0}), 400, "bad_message")


# --- analysis --------------------------------------------------------------------------------


def test_the_table_option_analysis_defaults_by_who_plays(http: httpx.Client) -> None:
    def analysis(**spec: Any) -> bool:
        game = create(http, players=2, **spec)["game"]
        return bool(http.get(f"/api/games/{game}").json()["analysis"])

    assert analysis(seats=[{"type": "human"}, {"type": "bot", "level": "easy"}])  # vs a bot
    assert analysis(take=[0, 1])  # hotseat of one person
    assert analysis(take=[], seats=[{"type": "bot", "level": "easy"}] * 2)  # bots watched
    assert not analysis()  # the creator and an open seat: two people
    assert not analysis(seats=[{"type": "human"}, {"type": "bot", "level": "easy"}], analysis=False)
    assert analysis(analysis=True)


def test_analysis_of_a_running_game_needs_a_seat_and_a_table_that_allows_it(http: httpx.Client) -> None:
    game, tokens = hotseat(http)
    view = http.get(f"/api/games/{game}").json()
    assert view["analysis"] is True
    error_of(http.get(f"/api/games/{game}/analysis"), 403, "forbidden")
    error_of(http.get(f"/api/games/{game}/analysis", headers=bearer("not-a-token")), 403, "forbidden")
    r = http.get(f"/api/games/{game}/analysis", headers=bearer(tokens[0]), timeout=120)
    assert r.status_code == 200, r.text
    reply = r.json()
    assert reply["type"] == "analysis" and reply["game"] == game and reply["at"] == 0
    assert reply["seat"] == view["to_move"] and reply["bot"] == "hard"
    assert 1 <= len(reply["candidates"]) <= 5
    assert reply["best"] == reply["candidates"][0]["move"] and reply["best"] in view["legal_moves"]
    # Cached: the same answer at once.
    again = http.get(f"/api/games/{game}/analysis?at=0", headers=bearer(tokens[1]), timeout=120).json()
    assert again == reply
    error_of(http.get(f"/api/games/{game}/analysis?at=1", headers=bearer(tokens[0])), 400, "bad_message")
    seed = seed_hidden_check(http, game, tokens)
    assert str(seed) not in json.dumps(reply)

    closed, closed_tokens = hotseat(http, analysis=False)
    message = error_of(
        http.get(f"/api/games/{closed}/analysis", headers=bearer(closed_tokens[0])), 403, "forbidden"
    )
    assert "does not allow analysis" in message
    assert http.get(f"/api/games/{closed}").json()["analysis"] is False


def seed_hidden_check(http: httpx.Client, game: str, tokens: dict[int, str]) -> int:
    """Finish the game, then read its seed; every earlier reply about it was checked against it."""
    play_http(http, game, tokens)
    return seed_of(http, game)


def test_no_reply_about_a_running_game_carries_its_seed(http: httpx.Client, server: Server) -> None:
    game, tokens = hotseat(http)
    view = play_http(http, game, tokens, until=lambda v: v["version"] >= 5)
    replies = [
        json.dumps(view),
        http.get(f"/api/games/{game}/analysis", headers=bearer(tokens[view["to_move"]]), timeout=120).text,
        http.get("/api/games", params={"status": "playing", "limit": 200}).text,
        http.get(f"/api/games/{game}/moves").text,
    ]
    error_of(http.get(f"/api/games/{game}/record"), 409, "not_over")
    seed = seed_hidden_check(http, game, tokens)
    for text in replies:
        assert '"seed"' not in text and str(seed) not in text


def test_analysis_of_a_finished_game_or_a_record_is_for_anyone(http: httpx.Client) -> None:
    game = bots_game(http)
    record = http.get(f"/api/games/{game}/record").json()
    r = http.get(f"/api/games/{game}/analysis?at=3", timeout=120)
    assert r.status_code == 200, r.text
    reply = r.json()
    assert reply["game"] == game and reply["at"] == 3
    state = state_after(record["config"], record["moves"][:3])
    assert reply["seat"] == state.current_player
    assert {c["move"] for c in reply["candidates"]} <= {str(m) for m in legal_moves(state)}
    from_record = http.post("/api/analysis", json={"record": record, "at": 3}, timeout=120)
    assert from_record.status_code == 200, from_record.text
    assert from_record.json()["game"] is None and from_record.json()["at"] == 3
    error_of(http.get(f"/api/games/{game}/analysis"), 400, "bad_message")  # the end: no move
    error_of(http.get(f"/api/games/{game}/analysis?at=9999"), 400, "bad_message")
    error_of(http.get("/api/games/nosuchgame/analysis"), 404, "not_found")


def test_one_analysis_at_a_time_per_client(http: httpx.Client, server: Server) -> None:
    import concurrent.futures

    game = bots_game(http)
    record = http.get(f"/api/games/{game}/record").json()

    def ask(at: int) -> httpx.Response:
        with server.http() as client:
            return client.post("/api/analysis", json={"record": record, "at": at}, timeout=120)

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(ask, range(8)))
    codes = sorted(r.status_code for r in replies)
    assert codes[0] == 200 and 429 in codes, codes
    for r in replies:
        if r.status_code == 429:
            assert r.json()["code"] == "rate_limited"


# --- storage ---------------------------------------------------------------------------------


def test_games_stored_before_the_analysis_migration_default_to_no_analysis(tmp_path: Path) -> None:
    from alembic.script import ScriptDirectory

    from quadropolis.server.migrations import config, current, upgrade

    store = Store(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    upgrade(store.engine, "0001")
    from sqlalchemy import text

    with store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, config, status, public, creator, takeover_after, takeover_level, "
                "created_at) VALUES ('old', :config, 'waiting', 1, 'c', NULL, 'easy', 1.0)"
            ),
            {"config": json.dumps({"mode": "classic", "players": 2, "seed": 7})},
        )
    store.upgrade()
    assert current(store.engine) == ScriptDirectory.from_config(config()).get_current_head()
    loaded = store.load("old")
    assert loaded is not None and loaded.analysis is False
    seats = (SeatData(0, "human", None, "", None, None), SeatData(1, "human", None, "", None, None))
    store.insert_game(
        GameData(
            "new",
            {"mode": "classic", "players": 2, "seed": 7},
            "waiting",
            True,
            "c",
            None,
            "easy",
            1.0,
            None,
            None,
            seats,
            analysis=True,
        )
    )
    new = store.load("new")
    assert new is not None and new.analysis is True
    store.close()


# --- a new player's first hour ---------------------------------------------------------------


def test_the_guided_game_is_dealt_the_lessons_deal(http: httpx.Client) -> None:
    spec = {"seats": [{"type": "human"}, {"type": "bot", "level": "easy"}], "public": False}
    game = create(http, players=2, guided=True, **spec)["game"]
    view = http.get(f"/api/games/{game}").json()
    dealt = public_state(new_game(GameConfig(players=2, seed=GUIDED_SEED)))
    assert view["state"]["site"] == dealt["site"] and view["state"]["face_down"] == dealt["face_down"]
    other = create(http, players=2, **spec)["game"]
    assert http.get(f"/api/games/{other}").json()["state"]["site"] != dealt["site"]
    assert "seed" not in json.dumps(view)
    message = error_of(http.post("/api/games", json={"players": 3, "guided": True}), 400, "bad_message")
    assert "Classic game for 2 players" in message
    error_of(http.post("/api/games", json={"mode": "expert", "guided": True}), 400, "bad_message")


def test_hotseat_players_are_named_seat_by_seat(http: httpx.Client) -> None:
    seats = [{"type": "human", "name": "Ann"}, {"type": "human"}, {"type": "human", "name": "Bea"}]
    game, _ = hotseat(http, players=3, name="Cy", seats=seats)
    names = [s["name"] for s in http.get(f"/api/games/{game}").json()["seats"]]
    assert names == ["Ann", "Cy (2)", "Bea"]
    error_of(http.post("/api/games", json={"seats": [{"name": "a\u202eb"}, {}]}), 400, "bad_message")


def test_a_random_first_player_is_drawn_by_the_server(http: httpx.Client) -> None:
    firsts = set()
    for _ in range(12):
        game, _ = hotseat(http, players=3, first_player="random")
        view = http.get(f"/api/games/{game}").json()
        assert view["to_move"] == view["config"]["first_player"]
        firsts.add(view["config"]["first_player"])
    assert firsts <= {0, 1, 2} and len(firsts) > 1  # all 12 alike: chance 1 in 59,049
    error_of(http.post("/api/games", json={"first_player": "any"}), 400, "bad_message")
