"""What a client sees: the one function, :func:`view`, turning the authoritative game into
the view of a seat holder or a spectator.

A view never holds the seed (before or after the end: the record, downloadable once the
game is over, carries it) nor any token or token hash, nor which tile a face-down square
holds (``state.site`` has ``null`` there, as for an empty square; ``state.face_down`` lists
those squares). Everything else in Quadropolis is
public, so the views of all clients differ only in ``you`` (the seats this client holds)
and ``can_undo`` (which of them may undo now); the public part is built once per version
and presence change (:class:`ViewCache`) and shared.

Layout (documented in docs/protocol.md)::

    {"game", "version", "status", "config" (no seed), "seats": [{"seat", "kind", "level",
     "name", "open", "host", "present", "bot_playing", "forfeited"}], "to_move", "phase", "round", "turn",
     "state" (the engine's state JSON without its config, face-down tiles' ids hidden),
     "legal_moves" (notation, for the seat to move), "scores" (projected, or final once
     over), "last_actions", "result", "clock" (null, or {"move_seconds", "kind",
     "deadline"}), "you", "can_undo"}
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import orjson

from ..city import City
from ..outcome import fed_scores_after, projected_score, scores_after
from ..phases import PLACE
from ..record import GameRecord, result_json
from ..rules import legal_moves
from ..scoring import CityScore
from ..state import GameState
from ..undo import check_undo
from .clocks import kind
from .data import ENDED, PLAYING
from .game import LiveGame
from .rated import rated_table

#: How many of the latest logged actions a view describes.
LAST_ACTIONS: Final = 12


@dataclass(frozen=True, slots=True)
class SeatPresence:
    """Whether a seat's player is connected now, and whether a bot is playing the seat for
    them (takeover). Computed by the service, which knows the connections and the clock."""

    present: bool
    bot_playing: bool


def public_config(game: LiveGame) -> dict[str, Any]:
    """The configuration without its seed."""
    config = game.config.to_json()
    del config["seed"]
    return config


def view(
    game: LiveGame,
    you: frozenset[int],
    presence: Sequence[SeatPresence],
    cache: ViewCache | None = None,
) -> dict[str, Any]:
    """The view of a client holding the seats ``you`` (empty: a spectator)."""
    public = (
        cache.public(game, presence)
        if cache is not None
        else _public(game, presence, _projected, build_options)
    )
    history = game.history()
    can_undo = sorted(s for s in you if game.status == PLAYING and check_undo(history, s).allowed)
    return {**public, "you": sorted(you), "can_undo": can_undo}


def view_text(game: LiveGame, you: frozenset[int], presence: Sequence[SeatPresence], cache: ViewCache) -> str:
    """:func:`view` as compact JSON text, the same object: the public part is serialised once
    per version (by ``cache``) and only ``you`` and ``can_undo`` are added per client."""
    public = cache.public_text(game, presence)
    history = game.history()
    can_undo = [s for s in sorted(you) if game.status == PLAYING and check_undo(history, s).allowed]
    mine = json.dumps({"you": sorted(you), "can_undo": can_undo}, separators=(",", ":"))
    return public[:-1] + "," + mine[1:]


class ViewCache:
    """The public part of one game's view, rebuilt only when the game's version or its
    presence changes (a move's push is then one dictionary merge per client)."""

    __slots__ = ("_key", "_options", "_scores", "_text", "_value")

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._value: dict[str, Any] = {}
        self._text = ""
        #: Per seat, the last city scored and its score: a move changes one city at most.
        self._scores: dict[int, tuple[City, CityScore]] = {}
        #: The build options of one version (a presence change does not recompute them).
        self._options: tuple[int, list[dict[str, Any]]] = (-1, [])

    def public(self, game: LiveGame, presence: Sequence[SeatPresence]) -> dict[str, Any]:
        key = (game.version, game.status, game.presence, game.deadline, tuple(presence))
        if key != self._key:
            self._value = _public(game, presence, self.score, self.build_options)
            self._text = ""
            self._key = key
        return self._value

    def public_text(self, game: LiveGame, presence: Sequence[SeatPresence]) -> str:
        """The public part as compact JSON text (serialised once per change)."""
        value = self.public(game, presence)
        if not self._text:
            # NON_STR_KEYS: integer keys become strings, as json.dumps makes them.
            self._text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        return self._text

    def build_options(self, game: LiveGame) -> list[dict[str, Any]]:
        """:func:`build_options`, computed once per version."""
        if self._options[0] != game.version:
            self._options = (game.version, build_options(game))
        return self._options[1]

    def score(self, game: LiveGame, seat: int) -> CityScore:
        """``projected_score``, recomputed only when the seat's city has changed."""
        city = game.state.city(seat)
        known = self._scores.get(seat)
        if known is not None and known[0] == city:
            return known[1]
        score = projected_score(game.state, seat)
        self._scores[seat] = (city, score)
        return score


def _projected(game: LiveGame, seat: int) -> CityScore:
    return projected_score(game.state, seat)


def build_options(game: LiveGame) -> list[dict[str, Any]]:
    """While the seat to move must build: each legal build (and ``discard``) with the mover's
    projected score after it and ``fed``, the city's score after it once every building is
    fed (:func:`~quadropolis.outcome.fed_scores_after`); ``[]`` otherwise."""
    state = game.state
    if game.status != PLAYING or state.phase != PLACE:
        return []
    fed = fed_scores_after(state)
    return [
        {"move": str(move), "score": score.total, "fed": value}
        for (move, score), (_, value) in zip(scores_after(state), fed, strict=True)
    ]


def result_view(game: LiveGame) -> dict[str, Any] | None:
    """The result once over: the record's (scores, winners, tie-break values, ``forfeits``
    when a seat forfeited), each seat's place (``ranks``: :func:`quadropolis.outcome.places`,
    1 for the winners, equal places shared, forfeits last), each city's optimal
    ``placement`` and what ``decided_by`` the winner (an R13 criterion, or ``forfeit``)."""
    if game.result is None:
        return None
    geometry = game.state.geometry
    return {
        **result_json(game.result),
        "placements": [s.placement.to_json(geometry) for s in game.result.scores],
        "ranks": list(game.result.ranks),
        "decided_by": game.result.decided_by,
    }


def replay_view(record: GameRecord, at: int) -> dict[str, Any]:
    """The spectator's view of the position after the first ``at`` moves of ``record`` (whose
    moves are legal: replayed already), with ``"game": null``, seats named by the record;
    never the seed (a record carries it). ``analysis`` is true: any position of a record may
    be analysed by anyone (``POST /api/analysis``), so the replay viewer offers hints."""
    game = LiveGame.of_record(record, at)
    presence = [SeatPresence(False, False)] * len(game.seats)
    return {**view(game, frozenset(), presence), "game": None, "analysis": True}


def _public(
    game: LiveGame,
    presence: Sequence[SeatPresence],
    score: Callable[[LiveGame, int], CityScore],
    options: Callable[[LiveGame], list[dict[str, Any]]],
) -> dict[str, Any]:
    state = game.state
    body = public_state(state)
    playing = game.status == PLAYING
    rated = rated_table(game.config.to_json(), game.seats)
    return {
        "game": game.id,
        "version": game.version,
        "status": game.status,
        "config": public_config(game),
        "seats": _seats(game, presence),
        "to_move": state.current_player if playing else None,
        "phase": body["phase"],
        "round": state.round,
        "turn": state.turn,
        "state": body,
        "legal_moves": [str(m) for m in legal_moves(state)] if playing else [],
        "build_options": options(game),
        "scores": [_score(s) for s in _scores(game, score)],
        "last_actions": _last_actions(game),
        "result": result_view(game),
        "analysis": game.analysis and not (rated and game.status not in ENDED),
        "rated": rated,
        "clock": _clock(game),
    }


def _clock(game: LiveGame) -> dict[str, Any] | None:
    """The table's clock (:mod:`.clocks`): its time per move as chosen, its kind, and the
    deadline of the move being played (``null`` while none is due)."""
    if game.move_seconds is None:
        return None
    due = game.deadline if game.status == PLAYING else None
    return {"move_seconds": game.move_seconds, "kind": kind(game.move_seconds), "deadline": due}


def public_state(state: GameState) -> dict[str, Any]:
    """A view's ``state``: the engine's state JSON without its config (which carries the
    seed) and, as at the table where a face-down tile is a back, without the ids of
    face-down tiles (``null`` in ``site``)."""
    body = state.to_json()
    del body["config"], body["format"]
    body["site"] = [None if state.face_down >> q & 1 else t for q, t in enumerate(body["site"])]
    return body


def _seats(game: LiveGame, presence: Sequence[SeatPresence]) -> list[dict[str, Any]]:
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "level": s.level,
            "name": s.name,
            "open": s.kind == "human" and s.token_hash is None,
            "host": s.host,
            "present": presence[s.seat].present if s.seat < len(presence) else False,
            "bot_playing": presence[s.seat].bot_playing if s.seat < len(presence) else False,
            "forfeited": s.forfeited_at is not None,
        }
        for s in game.seats
    ]


def _scores(game: LiveGame, score: Callable[[LiveGame, int], CityScore]) -> tuple[CityScore, ...]:
    if game.result is not None:
        return game.result.scores
    return tuple(score(game, p) for p in range(game.config.players))


def _score(score: CityScore) -> dict[str, Any]:
    return {
        "total": score.total,
        "breakdown": dict(score.breakdown),
        "inhabitants_placed": score.inhabitants_placed,
        "empty_squares": score.empty_squares,
    }


def _last_actions(game: LiveGame) -> list[dict[str, Any]]:
    in_effect = {s.version for s in game.steps}
    return [
        {
            "version": a.version,
            "seat": a.seat,
            "kind": a.kind,
            "move": a.move,
            "text": game.texts.get(a.version, ""),
            "facts": game.facts.get(a.version),
            "by": a.actor,
            "undone": a.kind == "move" and a.version not in in_effect,
        }
        for a in game.log[-LAST_ACTIONS:]
    ]
