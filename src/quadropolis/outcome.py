"""Results as data: every city's optimal score sheet, tie-break values, the ranking and the
winners (R13), and the projected scores that bots and players see during the game.

This module is the one home of the R13 ranking and of "the score after a move": the server,
the terminal, the arena, the bots and the browser display what it computes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from . import engine
from .city import RESOURCE_MAX
from .moves import Move
from .rules import apply_unchecked, legal_moves
from .scoring import CityScore, score_city
from .state import GameState

#: R13's criteria in order, as ``Outcome.decided_by`` names them; ``"shared"`` when a tie
#: survives all three and the victory is shared; ``"forfeit"`` when at most one seat did not
#: forfeit (see :func:`places`).
TIE_BREAKERS: Final = ("score", "inhabitants_placed", "empty_squares")


def rank_key(score: CityScore) -> tuple[int, int, int]:
    """R13 ranking key, higher is better: most VP, then most inhabitants placed, then fewest
    empty squares."""
    return (score.total, score.inhabitants_placed, -score.empty_squares)


def places(keys: Sequence[tuple[int, int, int]], forfeits: Sequence[int] = ()) -> tuple[int, ...]:
    """Each seat's place, 1 for the best: the one ranking of a game's seats (the server, the
    ratings, the daily leaderboard and the end screen all read it).

    Seats that did not forfeit come first, by their :func:`rank_key` (R13): equal keys share
    a place and the next place is skipped (1, 1, 3). The seats of ``forfeits`` (in the order
    they forfeited: resigned, or timed out) come after them, whatever their cities: the
    earliest forfeit takes the last place, a later one the place above it."""
    placed = iter(_r13_places([k for seat, k in enumerate(keys) if seat not in forfeits]))
    ranks = [0 if seat in forfeits else next(placed) for seat in range(len(keys))]
    for i, seat in enumerate(forfeits):
        ranks[seat] = len(keys) - i
    return tuple(ranks)


def _r13_places(keys: Sequence[tuple[int, int, int]]) -> tuple[int, ...]:
    return tuple(1 + sum(1 for other in keys if other > k) for k in keys)


def result_places(result: Mapping[str, Any]) -> tuple[int, ...]:
    """The places (:func:`places`) of a stored result (``record.result_json``'s ``scores``,
    ``inhabitants_placed``, ``empty_squares``, one per seat, and ``forfeits`` if any)."""
    keys = zip(result["scores"], result["inhabitants_placed"], result["empty_squares"], strict=True)
    return places([(vp, inhabitants, -empty) for vp, inhabitants, empty in keys], result.get("forfeits", ()))


@dataclass(frozen=True, slots=True)
class Outcome:
    """Per-player optimal score sheets (R12), the winner(s) (R13) and the seats that
    forfeited, in the order they did (:func:`places`)."""

    scores: tuple[CityScore, ...]
    winners: tuple[int, ...]
    forfeits: tuple[int, ...] = ()

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.scores)

    def tiebreak(self, player: int) -> tuple[int, int, int]:
        """R13 ranking key of ``player`` (see :func:`rank_key`)."""
        return rank_key(self.scores[player])

    @property
    def ranks(self) -> tuple[int, ...]:
        """Each seat's place (:func:`places`), 1 for the winner(s): by R13, players equal on
        all three criteria share a place and the next place is skipped (1, 1, 3); the seats
        that forfeited last."""
        return places([rank_key(s) for s in self.scores], self.forfeits)

    @property
    def order(self) -> tuple[int, ...]:
        """Seats from first to last place (equal places by seat)."""
        ranks = self.ranks
        return tuple(sorted(range(len(ranks)), key=lambda p: (ranks[p], p)))

    @property
    def decided_by(self) -> str:
        """The R13 criterion that settled the winner among the seats that did not forfeit: the
        first of :data:`TIE_BREAKERS` on which exactly one of them is best among those tied so
        far, else ``"shared"``; ``"forfeit"`` when at most one seat did not forfeit."""
        keys = [rank_key(s) for p, s in enumerate(self.scores) if p not in self.forfeits]
        if self.forfeits and len(keys) <= 1:
            return "forfeit"
        best = max(keys)
        for depth, name in enumerate(TIE_BREAKERS, 1):
            if sum(1 for k in keys if k[:depth] == best[:depth]) == 1:
                return name
        return "shared"

    def to_json(self, geometry: Any) -> dict[str, Any]:
        out = {
            "scores": list(self.totals),
            "winners": list(self.winners),
            "ranks": list(self.ranks),
            "decided_by": self.decided_by,
            "tiebreaks": [
                {"inhabitants_placed": s.inhabitants_placed, "empty_squares": s.empty_squares}
                for s in self.scores
            ],
            "players": [s.to_json(geometry) for s in self.scores],
        }
        if self.forfeits:
            out["forfeits"] = list(self.forfeits)
        return out


def projected_score(state: GameState, player: int) -> CityScore:
    """The optimal score of ``player``'s city as it stands now (the final scoring applied
    mid-game, with the game's variants), by the selected engine (:mod:`quadropolis.engine`)."""
    return _score_with(state, player, state.inhabitants[player], state.energy[player])


def _score_with(state: GameState, player: int, inhabitants: int, energy: int) -> CityScore:
    """The optimal score of ``player``'s buildings given these resources, by the selected
    engine."""
    native = engine.current()
    if native is not None:
        try:
            return native.score_buildings_native(state, player, inhabitants, energy)  # type: ignore[no-any-return]
        except ValueError:
            pass  # a hand-built city the compiled engine refuses to take in: Python decides
    city = state.city(player)
    if (city.inhabitants, city.energy) != (inhabitants, energy):  # the fed score's plenty
        city = replace(city, inhabitants=inhabitants, energy=energy)
    return score_city(city, all_parks_absorb=state.config.all_parks_absorb)


def scores_after(state: GameState, player: int | None = None) -> list[tuple[Move, CityScore]]:
    """Every legal move of ``state`` (in :func:`legal_moves` order) with the projected score
    of ``player``'s city right after it (default: the player to act). A take is scored as
    it leaves the city (unchanged until the building is built); use it for builds and
    discards, where the score changes."""
    seat = state.current_player if player is None else player
    out = []
    for move in legal_moves(state):
        after = state.copy()
        apply_unchecked(after, move)
        out.append((move, projected_score(after, seat)))
    return out


def fed_score(state: GameState, player: int) -> int:
    """What ``player``'s city would score if it had every inhabitant and energy unit its
    buildings can use: the final scoring (R12) of the city with resources in plenty, less
    the penalties for the resources left over. It tells what buildings are worth once fed,
    which :func:`projected_score` does not while the resources have not come in yet."""
    score = _score_with(state, player, RESOURCE_MAX, RESOURCE_MAX)
    leftover = score.breakdown["unused_inhabitants"] + score.breakdown["pollution"]
    return score.total - leftover


def fed_scores_after(state: GameState, player: int | None = None) -> list[tuple[Move, int]]:
    """Every legal move of ``state`` (in :func:`legal_moves` order) with :func:`fed_score` of
    ``player``'s city right after it (default: the player to act). Beside
    :func:`scores_after`, it shows what a build is worth once its building is fed; a
    discard leaves the city, so its value is the city's as it stands."""
    seat = state.current_player if player is None else player
    out = []
    for move in legal_moves(state):
        after = state.copy()
        apply_unchecked(after, move)
        out.append((move, fed_score(after, seat)))
    return out


def outcome(state: GameState, forfeits: Sequence[int] = ()) -> Outcome:
    """Score every city optimally and rank the players (R12, R13). Works mid-game too: as a
    projection, or as the result of a game ended early by ``forfeits`` (the seats that
    forfeited, in order: :func:`places`), its cities scored as they stand; ties on every
    tie-breaker share the victory."""
    return outcome_of(tuple(projected_score(state, p) for p in range(state.config.players)), forfeits)


def outcome_of(scores: tuple[CityScore, ...], forfeits: Sequence[int] = ()) -> Outcome:
    """The outcome of cities already scored (one per seat): the winners are the seats in
    first place (:func:`places`; by R13 when no seat forfeited)."""
    if forfeits:
        ranks = places([rank_key(s) for s in scores], forfeits)
        return Outcome(scores, tuple([p for p, r in enumerate(ranks) if r == 1]), tuple(forfeits))
    keys = [rank_key(s) for s in scores]
    best = max(keys)
    # A list comprehension builds the tuple faster than a generator (every game's outcome).
    return Outcome(scores, tuple([p for p, k in enumerate(keys) if k == best]))


__all__ = [
    "TIE_BREAKERS",
    "Outcome",
    "fed_score",
    "fed_scores_after",
    "outcome",
    "outcome_of",
    "places",
    "projected_score",
    "rank_key",
    "result_places",
    "scores_after",
]
