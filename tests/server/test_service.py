"""The game service (the authority) without any network: games, seats, actions and every
refusal, undo, bots in worker processes, takeover, and restarts — on SQLite and on a real
PostgreSQL server."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from server_helpers import database, find_key, postgres_url
from service_helpers import started_env

from quadropolis import GameRecord, Move, explain_illegal, legal_moves, replay
from quadropolis.server.clock import ManualClock
from quadropolis.server.data import ActionData
from quadropolis.server.errors import (
    BadMessage,
    Forbidden,
    GameOver,
    IllegalMove,
    LimitReached,
    NotFound,
    NotOver,
    NotStarted,
    NotYourTurn,
    SeatTaken,
    Stale,
    Unavailable,
    UndoRefused,
)
from quadropolis.server.game import CorruptGame, LiveGame
from quadropolis.server.protocol import CreateGame, SeatSpec
from quadropolis.server.service import GameService
from quadropolis.server.settings import Limits

T = TypeVar("T")


@contextlib.asynccontextmanager
async def running(
    url: str, executor: ProcessPoolExecutor | None = None, limits: Limits | None = None
) -> AsyncIterator[GameService]:
    async with started_env(url, executor, limits) as env:
        yield env.service


def run(coro: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(coro())  # type: ignore[arg-type]


def humans(players: int = 2, **extra: Any) -> CreateGame:
    return CreateGame(players=players, name="Ann", **extra)


async def play_until(
    service: GameService, game_id: str, tokens: dict[int, str], done: Callable[[LiveGame], bool]
) -> None:
    """Play the first legal move for whichever human seat is to move until ``done``."""
    rng = random.Random(0)
    while True:
        game = await service.game(game_id)
        if done(game) or game.is_over:
            return
        seat = game.state.current_player
        if seat not in tokens:
            await asyncio.sleep(0.01)
            continue
        move = rng.choice(legal_moves(game.state))
        await service.act(game_id, seat, tokens[seat], game.version, str(move))


def test_create_join_then_play(db_url: str) -> None:
    async def go() -> None:
        async with running(db_url) as service:
            new = await service.create(humans(), "10.0.0.1")
            assert list(new.tokens) == [0] and new.invites == [1]
            game = await service.game(new.game)
            assert game.status == "waiting" and game.version == 0
            with pytest.raises(NotStarted):
                await service.act(new.game, 0, new.tokens[0], 0, "1T1")
            token1 = await service.join(new.game, 1, "Bob")
            assert game.status == "playing" and game.seats[1].name == "Bob"
            move = str(legal_moves(game.state)[0])
            action = await service.act(new.game, 0, new.tokens[0], 0, move)
            assert (action.version, action.seat, action.move, action.actor) == (1, 0, move, "player")
            assert game.version == 1 and game.moves() == [move]
            with pytest.raises(SeatTaken):
                await service.join(new.game, 1, "Eve")
            assert token1 != new.tokens[0]

    run(go)


def test_every_refusal_has_its_code(db_url: str) -> None:
    async def go() -> None:
        async with started_env(db_url, limits=Limits(games_per_client=2)) as env:
            service, records = env.service, env.records
            new = await service.create(humans(take=[0, 1]), "10.0.0.2")
            g, t0, t1 = new.game, new.tokens[0], new.tokens[1]
            game = await service.game(g)
            with pytest.raises(NotFound):
                await service.game("nosuchgame")
            with pytest.raises(NotFound):
                await service.join(g, 7, "X")
            with pytest.raises(SeatTaken):
                await service.join(g, 0, "X")
            with pytest.raises(Forbidden):
                await service.act(g, 0, "forged-token-xxxxxxxxx", 0, "1T1")
            with pytest.raises(Forbidden):
                await service.act(g, 0, t1, 0, "1T1")  # seat 1's token acting for seat 0
            with pytest.raises(NotYourTurn):
                await service.act(g, 1, t1, 0, "1T1")
            with pytest.raises(Stale):
                await service.act(g, 0, t0, 5, "1T1")
            with pytest.raises(IllegalMove) as e:
                await service.act(g, 0, t0, 0, "r1c1")
            assert str(e.value) == explain_illegal(game.state, Move.parse("r1c1"))
            with pytest.raises(IllegalMove, match="not a move"):
                await service.act(g, 0, t0, 0, "hello")
            with pytest.raises(UndoRefused, match="no action"):
                await service.undo(g, 0, t0, 0)
            with pytest.raises(NotOver):
                await records.record(g)
            await service.create(humans(), "10.0.0.2")
            with pytest.raises(LimitReached):
                await service.create(humans(), "10.0.0.2")
            with pytest.raises(BadMessage):
                await service.create(CreateGame(players=3, seats=[SeatSpec()] * 2), "10.0.0.3")
            await play_until(service, g, {0: t0, 1: t1}, lambda _: False)
            assert game.is_over
            with pytest.raises(GameOver):
                await service.act(g, 0, t0, game.version, "1T1")
            record = await records.record(g)
            assert replay(GameRecord.from_json(record)) == game.state

    run(go)


def test_undo_follows_the_terminal_rule_and_stays_in_the_history(db_url: str) -> None:
    async def go() -> None:
        async with running(db_url) as service:
            new = await service.create(humans(take=[0, 1]), "c")
            g, tokens = new.game, new.tokens
            game = await service.game(g)
            start = game.state.copy()
            # seat 0 acts (a take, then a build when the take takes a building)
            await play_until(service, g, tokens, lambda x: x.state.current_player == 1)
            played = game.moves()
            action = await service.undo(g, 0, tokens[0], game.version)
            assert action.kind == "undo" and action.undone == len(played)
            assert game.state == start and game.moves() == []
            assert [a.move for a in game.log if a.kind == "move"] == played  # still in the history
            # once seat 1 has answered, seat 0 may not undo
            await play_until(service, g, tokens, lambda x: x.state.current_player == 1)
            await play_until(service, g, tokens, lambda x: x.state.current_player == 0)
            with pytest.raises(UndoRefused, match="has acted since"):
                await service.undo(g, 0, tokens[0], game.version)
            # the stored log rebuilds the same game
            data = await asyncio.to_thread(service.store.load, g)
            assert data is not None
            rebuilt = LiveGame.rebuild(data)
            assert rebuilt.state == game.state and rebuilt.moves() == game.moves()

    run(go)


def test_two_services_on_one_database_never_apply_a_move_twice(db_url: str) -> None:
    """Two authorities (as two server processes) race at the same version: the database's
    UNIQUE (game, version) lets exactly one win; the other answers stale and catches up."""

    async def go() -> None:
        async with running(db_url) as a, running(db_url) as b:
            new = await a.create(humans(take=[0, 1]), "c")
            g, t0 = new.game, new.tokens[0]
            game_b = await b.game(g)
            moves = [str(m) for m in legal_moves(game_b.state)[:2]]
            results = await asyncio.gather(
                a.act(g, 0, t0, 0, moves[0]), b.act(g, 0, t0, 0, moves[1]), return_exceptions=True
            )
            accepted = [r for r in results if isinstance(r, ActionData)]
            assert len(accepted) == 1 and sum(isinstance(r, Stale) for r in results) == 1
            for service in (a, b):
                game = await service.game(g)
                await service.catch_up(game)
                assert game.version == 1 and game.moves() == [accepted[0].move]

    run(go)


@pytest.mark.parametrize("level", ["easy", "neural"])
def test_bots_play_their_seats_in_worker_processes(
    db_url: str, executor: ProcessPoolExecutor, level: str
) -> None:
    async def go() -> None:
        clock = ManualClock()
        async with started_env(db_url, executor, Limits(finished_cache=0.3), clock) as env:
            service = env.service
            spec = CreateGame(players=2, seats=[SeatSpec(type="bot", level=level)] * 2, take=[])
            new = await service.create(spec, "c")
            game = await service.game(new.game)
            assert game.status == "playing" and new.tokens == {}
            for _ in range(600):
                if game.is_over:
                    break
                await asyncio.sleep(0.05)
            assert game.is_over
            assert {a.actor for a in game.log} == {"bot"}
            record = await env.records.record(new.game)
            assert record["seats"] == [level, level]
            assert replay(GameRecord.from_json(record)) == game.state
            env.audience.opened(new.game)
            env.audience.closed(new.game)  # its last client left: a client coming back finds it loaded
            assert service.loaded(new.game) is game
            await env.timers.sweep()  # finished, but asked for just now: it stays in memory
            assert service.loaded(new.game) is game
            await clock.advance(0.4)
            await env.timers.sweep()  # no one asked for it since: it leaves memory
            assert service.loaded(new.game) is None
            again = await service.game(new.game)  # and is read back when asked for
            assert again is not game and again.state == game.state and again.is_over

    run(go)


def test_a_restart_rebuilds_every_game_and_resumes_the_bots(
    db_url: str, executor: ProcessPoolExecutor
) -> None:
    async def go() -> None:
        async with running(db_url) as first:  # no bots: the bot's turn is left pending
            spec = CreateGame(players=2, seats=[SeatSpec(), SeatSpec(type="bot", level="easy")], name="Ann")
            new = await first.create(spec, "c")
            await play_until(first, new.game, new.tokens, lambda x: x.state.current_player == 1)
            before = (await first.game(new.game)).state.copy()
            version = (await first.game(new.game)).version
        async with running(db_url, executor) as second:
            game = await second.game(new.game)
            assert game.log[-1].version == version and (game.version > version or game.state == before)
            for _ in range(200):  # the bot resumes on its own
                if game.version > version and game.state.current_player == 0:
                    break
                await asyncio.sleep(0.05)
            assert game.version > version and game.log[version].actor == "bot"

    run(go)


def test_takeover_plays_for_an_absent_player_and_hands_back(
    tmp_path: Path, executor: ProcessPoolExecutor
) -> None:
    async def go() -> None:
        clock = ManualClock()
        async with started_env(f"sqlite:///{tmp_path / 'g.sqlite3'}", executor, clock=clock) as env:
            service, audience = env.service, env.audience
            spec = humans(take=[0, 1], takeover_after=1.0, takeover_level="easy")
            new = await service.create(spec, "c")
            game = await service.game(new.game)
            await audience.connected(new.game, [1])  # seat 1 is here, seat 0 never came
            await clock.advance(1.1)
            await env.timers.sweep()  # seat 0's player is away past takeover_after: a bot plays
            for _ in range(100):
                if game.version:
                    break
                await asyncio.sleep(0.05)
            assert game.version >= 1 and game.log[0].actor == "takeover" and game.log[0].seat == 0
            assert service.presence(game)[0].bot_playing and not service.presence(game)[1].bot_playing
            # seat 1 plays its turns; seat 0 comes back: the bot stops
            await audience.connected(new.game, [0])
            assert not service.presence(game)[0].bot_playing
            # A bot move decided before the player came back may still be being stored: it
            # lands (the guard ran before the return); wait for it, then no bot may move.
            await service.idle()
            await play_until(service, new.game, {1: new.tokens[1]}, lambda x: x.state.current_player == 0)
            version = game.version
            await clock.advance(1.5)
            await env.timers.sweep()
            await service.idle()
            assert game.version == version  # seat 0's turn waits for its player
            await audience.disconnected(new.game, [0])
            await clock.advance(1.1)
            await env.timers.sweep()
            for _ in range(100):
                if game.version > version:
                    break
                await asyncio.sleep(0.05)
            assert game.log[version].actor == "takeover"

    run(go)


def test_a_history_that_does_not_replay_is_refused(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(f"sqlite:///{tmp_path / 'g.sqlite3'}") as service:
            new = await service.create(humans(take=[0, 1]), "c")
            await service.act(new.game, 0, new.tokens[0], 0, "1T1")
            bad = ActionData(2, 0, "move", "1T1", None, "player", 0.0)  # seat 1's turn, slot used
            await asyncio.to_thread(service.store.append, new.game, bad)
            data = await asyncio.to_thread(service.store.load, new.game)
            assert data is not None
            with pytest.raises(CorruptGame):
                LiveGame.rebuild(data)

    run(go)


def test_views_hold_no_seed_and_no_token(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(f"sqlite:///{tmp_path / 'g.sqlite3'}") as service:
            new = await service.create(humans(take=[0, 1]), "c")
            game = await service.game(new.game)
            await play_until(service, new.game, new.tokens, lambda x: x.version >= 6)
            seed = str(game.config.seed)

            def held(seats: list[int]) -> dict[int, str]:
                return {s: new.tokens[s] for s in seats}

            for you in ([], [0], [0, 1]):
                view = service.view(game, held(you))
                text = repr(view)
                assert not find_key(view, "seed") and seed not in text
                assert not find_key(view, "token") and not find_key(view, "token_hash")
                assert all(t not in text for t in new.tokens.values())
                assert view["you"] == you
            for you in ([], [1], [0, 1]):  # the text pushed is the same view, serialised
                assert json.loads(service.view_text(game, held(you))) == service.view(game, held(you))
            spectator, player = service.view(game, {}), service.view(game, held([0]))
            assert {k for k in spectator if spectator[k] != player[k]} <= {"you", "can_undo"}
            # A credential that does not hold the seat (another seat's token) sees no seat.
            assert service.view(game, {0: new.tokens[1]}) == spectator
            assert spectator["legal_moves"] == [str(m) for m in legal_moves(game.state)]

    run(go)


def test_a_lost_database_is_unavailable_and_changes_nothing(tmp_path: Path) -> None:
    """The real PostgreSQL database disappears under a running service: acting is refused
    as ``unavailable``, and the game in memory is unchanged (nothing unstored is applied)."""
    import psycopg

    async def go(url: str, admin: str, name: str) -> None:
        async with running(url) as service:
            new = await service.create(humans(take=[0, 1]), "c")
            game = await service.game(new.game)
            move = str(legal_moves(game.state)[0])
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            with pytest.raises(Unavailable):
                await service.act(new.game, 0, new.tokens[0], 0, move)
            assert game.version == 0 and game.moves() == []

    with database("postgresql", tmp_path) as url:
        asyncio.run(go(url, postgres_url(), url.rsplit("/", 1)[1]))


def test_a_review_ending_while_it_is_asked_for_is_never_reported_as_none(
    tmp_path: Path, executor: ProcessPoolExecutor
) -> None:
    """A poll whose read of the stored review comes before the job stores it, and whose
    answer is made after the job has ended, reports the review running (the next poll: done),
    never ``none``. PostgreSQL only: the read is held in its database thread until the job
    has stored its review, which on SQLite's single database thread would wait forever."""

    async def go(url: str) -> None:
        async with started_env(url, executor, Limits(review_budget=50)) as env:
            service, records = env.service, env.records
            spec = CreateGame(players=2, seats=[SeatSpec(type="bot", level="easy")] * 2, take=[])
            new = await service.create(spec, "c")
            game = await service.game(new.game)
            for _ in range(600):
                if game.is_over:
                    break
                await asyncio.sleep(0.05)
            assert game.is_over
            assert (await records.review(new.game, "c", start=True))["status"] == "running"
            load_review = service.store.load_review

            def read_then_hold_until_the_job_ended(game_id: str) -> dict[str, Any] | None:
                stored = load_review(game_id)  # the job is still running: nothing stored yet
                while load_review(game_id) is None:
                    time.sleep(0.02)
                time.sleep(0.3)  # the job ends as soon as its review is stored
                return stored

            service.store.load_review = read_then_hold_until_the_job_ended  # type: ignore[method-assign]
            held = await records.review(new.game, "c", start=False)
            service.store.load_review = load_review  # type: ignore[method-assign]
            assert held["status"] == "running", held
            assert (await records.review(new.game, "c", start=False))["status"] == "done"

    with database("postgresql", tmp_path) as url:
        asyncio.run(go(url))
