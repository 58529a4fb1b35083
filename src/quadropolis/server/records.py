"""The records side of the server, above the authority: a finished game's record, the lobby's
and replay list's summaries, a posted record replayed, analyses (hints) and reviews, with
their caches. It reads games through :class:`~quadropolis.server.service.GameService`, which
knows nothing of it.

**Analyses** are computed and cached by :mod:`~quadropolis.server.analysis_cache`; this
module decides who may ask for which position. **Reviews** of finished games and posted
records run as jobs of :mod:`~quadropolis.server.reviews`; a game's is stored with it in the
database, a record's kept in memory (the last :data:`~quadropolis.server.reviews.RECORD_REVIEWS`)."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from ..errors import QuadropolisError
from ..moves import Move
from ..record import GameRecord, replay
from ..rules import apply_unchecked, new_game
from .analysis_cache import AnalysisCache, game_key, record_digest, record_key
from .data import OVER, WAITING, GameSummary
from .errors import BadMessage, BadRecord, Forbidden, NotOver
from .rated import rated_table
from .reviews import RECORD_REVIEWS, ReviewJobs
from .service import GameService
from .views import replay_view


class Records:
    """Records, summaries, replays, analyses and reviews of one server process's games."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        limits = service.limits
        self._analyses = AnalysisCache()
        self._reviews = ReviewJobs(
            limits.reviews_per_client, limits.reviews_running, clock=service.clock.monotonic
        )
        self._record_reviews: dict[str, dict[str, Any]] = {}

    async def close(self) -> None:
        """Stop the reviews under way."""
        await self._reviews.close()

    async def record(self, game_id: str) -> dict[str, Any]:
        """The ``quadropolis-game/1`` record of a finished game (seed included; replays with
        ``quadropolis replay``). :class:`NotOver` while the game runs: its seed is secret."""
        game = await self.service.game(game_id)
        if game.status != OVER:
            raise NotOver(f"game {game_id} is not over: its moves so far are at /api/games/{game_id}/moves")
        return game.record_json()

    async def summaries(self, status: str, limit: int, offset: int = 0) -> list[GameSummary]:
        """Public games waiting for players (the lobby: not those about to expire), running
        (to watch) or finished (the replay list)."""
        service = self.service
        since = service.clock.time() - service.limits.waiting_expiry if status == WAITING else None
        return await service.run(service.store.summaries, status, limit, offset, since)

    async def replay(self, record: Any, at: int) -> dict[str, Any]:
        """The ``replay`` reply: the spectator's view of ``record`` after ``at`` moves, the
        number of moves, and where each round starts. :class:`BadRecord` with the engine's
        reason if the record does not replay; :class:`BadMessage` if ``at`` is out of range."""
        checked = await asyncio.to_thread(_checked_record, record)
        _check_at(at, len(checked.moves))
        view, rounds = await asyncio.to_thread(_replay, checked, at)
        return {"type": "replay", "at": at, "moves": len(checked.moves), "rounds": rounds, "view": view}

    async def analysis(self, game_id: str, at: int | None, token: str | None, client: str) -> dict[str, Any]:
        """The ``analysis`` reply for a game: while it runs, never if it is rated
        (:func:`~.ratings.rated_table`), else only for a seat's token, only if the table
        allows analysis and only at the current position; once over, for anyone at any
        position before the end."""
        game = await self.service.game(game_id)
        moves = game.moves()
        if game.status != OVER:
            if rated_table(game.config.to_json(), game.seats):
                raise Forbidden(
                    "no analysis (hints) of a rated game while it runs: it is open to everyone once it ends"
                )
            if not game.analysis:
                raise Forbidden("this table does not allow analysis (hints) while the game runs")
            if token is None:
                raise Forbidden(
                    "analysis of a running game needs a seat's token: Authorization: Bearer TOKEN"
                )
            await self.service.authenticate(game_id, [token])
            game.check_playing()
            if at is not None and at != len(moves):
                raise BadMessage(
                    f"at: a running game is analysed at its current position only ({len(moves)} moves)"
                )
        n = len(moves) if at is None else at
        _check_at(n, len(moves))
        record = GameRecord(game.config, tuple(moves[:n]))
        key = game_key(game_id, moves, n)
        return await self._analyses.analyse(self.service.bots, game_id, key, record, client)

    async def analysis_of_record(self, record: Any, at: int, client: str) -> dict[str, Any]:
        """The ``analysis`` reply for the position of ``record`` after ``at`` moves."""
        checked = await asyncio.to_thread(_checked_record, record)
        _check_at(at, len(checked.moves))
        prefix = GameRecord(checked.config, checked.moves[:at])
        return await self._analyses.analyse(self.service.bots, None, record_key(prefix, at), prefix, client)

    async def review(self, game_id: str, client: str, start: bool) -> dict[str, Any]:
        """The ``review`` reply of a finished game: ``done`` with the stored review, else the
        progress of the one under way (``running``, ``done`` of ``total`` moves), ``failed``
        once after a failure, or ``none``; with ``start`` a review starts when none is stored
        or running (bounds: :mod:`~quadropolis.server.reviews`). :class:`NotOver` while the
        game runs."""
        service = self.service
        game = await service.game(game_id)
        if game.status != OVER:
            raise NotOver(f"game {game_id} is not over: only a finished game is reviewed")
        base = {"type": "review", "game": game_id}
        # The job's progress before the stored review, not after: a job stores its review,
        # then ends, so one ending during the read is seen running or read done; in the
        # other order it could end between the two looks and be reported as none at all.
        running = self._reviews.progress(game_id)
        stored = await service.run(service.store.load_review, game_id)
        if stored is not None:
            return {**base, "status": "done", "review": stored}
        if running is None and start:
            record = GameRecord.from_json(game.record_json())
            budget = service.limits.review_budget
            save = partial(self._save_review, game_id)
            running = self._reviews.start(game_id, service.bots, record, budget, client, save)
        return {**base, **(running or {"status": "none"})}

    async def _save_review(self, game_id: str, review: dict[str, Any]) -> None:
        service = self.service
        budget = service.limits.review_budget
        await service.run(service.store.save_review, game_id, budget, review, service.clock.time())

    async def review_of_record(self, record: Any, client: str) -> dict[str, Any]:
        """The ``review`` reply of a posted record (any position, finished or not), started on
        the first ask; ask again with the same record to follow it. :class:`BadRecord` if it
        does not replay or has no move."""
        checked = await asyncio.to_thread(_checked_record, record)
        if not checked.moves:
            raise BadRecord("the record has no move to review")
        key = "record:" + record_digest(checked)
        base: dict[str, Any] = {"type": "review", "game": None}
        done = self._record_reviews.get(key)
        if done is not None:
            return {**base, "status": "done", "review": done}
        running = self._reviews.progress(key)
        if running is None:
            budget = self.service.limits.review_budget
            keep = partial(self._keep_review, key)
            running = self._reviews.start(key, self.service.bots, checked, budget, client, keep)
        return {**base, **running}

    async def _keep_review(self, key: str, review: dict[str, Any]) -> None:
        self._record_reviews[key] = review
        while len(self._record_reviews) > RECORD_REVIEWS:
            del self._record_reviews[next(iter(self._record_reviews))]


def _checked_record(data: Any) -> GameRecord:
    """``data`` as a record whose every move replays (and whose result, if given, agrees);
    :class:`BadRecord` with the engine's reason otherwise."""
    try:
        record = GameRecord.from_json(data)
        replay(record)
    except QuadropolisError as e:
        raise BadRecord(str(e)) from None
    return record


def _check_at(at: int, moves: int) -> None:
    if not 0 <= at <= moves:
        raise BadMessage(f"at: {at} is not a position of the game: from 0 to {moves} moves")


def _replay(record: GameRecord, at: int) -> tuple[dict[str, Any], list[dict[str, int]]]:
    """The view after ``at`` moves, and where each round starts (moves played before it)."""
    rounds = [{"round": 1, "at": 0}]
    state = new_game(record.config)
    for i, text in enumerate(record.moves, 1):
        apply_unchecked(state, Move.parse(text))
        if not state.is_over and state.round != rounds[-1]["round"]:
            rounds.append({"round": state.round, "at": i})
    return replay_view(record, at), rounds
