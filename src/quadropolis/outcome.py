"""Results as data: every city's optimal score sheet, tie-break values and the winners (R13)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .scoring import CityScore, score_city
from .state import GameState


@dataclass(frozen=True, slots=True)
class Outcome:
    """Per-player optimal score sheets (R12) and the winner(s) (R13)."""

    scores: tuple[CityScore, ...]
    winners: tuple[int, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.scores)

    def tiebreak(self, player: int) -> tuple[int, int, int]:
        """R13 ranking key: most VP, then most inhabitants placed, then fewest empty squares."""
        s = self.scores[player]
        return (s.total, s.inhabitants_placed, -s.empty_squares)

    def to_json(self, geometry: Any) -> dict[str, Any]:
        return {
            "scores": list(self.totals),
            "winners": list(self.winners),
            "tiebreaks": [
                {"inhabitants_placed": s.inhabitants_placed, "empty_squares": s.empty_squares}
                for s in self.scores
            ],
            "players": [s.to_json(geometry) for s in self.scores],
        }


def projected_score(state: GameState, player: int) -> CityScore:
    """The optimal score of ``player``'s city as it stands now (the final scoring applied
    mid-game, with the game's variants)."""
    return score_city(state.city(player), all_parks_absorb=state.config.all_parks_absorb)


def outcome(state: GameState) -> Outcome:
    """Score every city optimally and rank the players (R12, R13). Works mid-game too, as a
    projection; ties on every tie-breaker share the victory."""
    scores = tuple(projected_score(state, p) for p in range(state.config.players))
    keys = [(s.total, s.inhabitants_placed, -s.empty_squares) for s in scores]
    best = max(keys)
    return Outcome(scores, tuple(p for p, k in enumerate(keys) if k == best))
