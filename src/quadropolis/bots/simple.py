"""The ``random`` and ``greedy`` bots."""

from __future__ import annotations

import random

from .. import engine
from ..moves import Build, Move, Take
from ..outcome import projected_score, rank_key, scores_after
from ..rules import apply_unchecked, legal_moves, tile_gain
from ..site import DESIGNATED
from ..state import PLACE, GameState
from .base import Bot


class RandomBot(Bot):
    """Uniformly random legal moves."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random) -> Move:
        moves = legal_moves(state)
        return moves[int(rng.random() * len(moves))]


class GreedyBot(Bot):
    """One ply: the move whose result gives its own city the best projected final score
    (exact optimal scoring, R12), ties broken by more inhabitants placed, fewer empty
    squares, then more resources held (potential for later), then at random.

    A take is valued by the best build (or discard) of the building it takes; taking
    nothing is valued as discarding."""

    name = "greedy"

    def choose(self, state: GameState, rng: random.Random) -> Move:
        scored = self.values(state)
        best = max(v for v, _ in scored)
        ties = [m for v, m in scored if v == best]
        return ties[int(rng.random() * len(ties))]

    def values(self, state: GameState) -> list[tuple[tuple[int, ...], Move]]:
        """Every legal move with its value, best highest: first the projected final score of
        the mover's own city after it (a take valued by the best build of what it takes),
        then the tie-breakers (see the class docstring)."""
        native = engine.current()
        if native is not None:  # the compiled engine's values are identical (tested)
            try:
                return native.greedy_values_native(state)  # type: ignore[no-any-return]
            except ValueError:
                pass  # a hand-built state the compiled engine refuses to take in: Python decides
        player = state.current_player
        moves = legal_moves(state)
        if state.phase == PLACE:
            return self._place_values(state, player)
        cache: dict[tuple[int, int], tuple[int, ...]] = {}
        scored: list[tuple[tuple[int, ...], Move]] = []
        for m in moves:
            assert isinstance(m, Take)
            q = DESIGNATED[m.slot][m.architect]
            tid = state.site[q]
            taken = -1 if tid < 0 or state.face_down >> q & 1 else tid
            key = (taken, m.architect)
            value = cache.get(key)
            if value is None:
                value = self._take_value(state, m, player)
                cache[key] = value
            scored.append((value, m))
        return scored

    def _place_values(self, state: GameState, player: int) -> list[tuple[tuple[int, ...], Move]]:
        """Each build or discard of the pending building with (R13 key of the projected
        score after it, 1 for a build, the resources then held)."""
        held = state.inhabitants[player] + state.energy[player]
        gain = sum(tile_gain(state.config, state.pending_tile))
        values: list[tuple[tuple[int, ...], Move]] = []
        for move, score in scores_after(state, player):
            built = 1 if isinstance(move, Build) else 0
            values.append(((*rank_key(score), built, held + gain * built), move))
        return values

    def _take_value(self, state: GameState, take: Take, player: int) -> tuple[int, ...]:
        s = state.copy()
        apply_unchecked(s, take)
        if s.phase != PLACE or s.current_player != player:
            # nothing taken: as good as a discard, and worse than taking anything equal
            held = state.inhabitants[player] + state.energy[player]
            return (*rank_key(projected_score(state, player)), -1, held)
        return max(v for v, _ in self._place_values(s, player))


class EpsilonGreedyBot(GreedyBot):
    """Greedy, except that with probability ``epsilon`` it plays a uniformly random legal
    move: the ``easy`` level."""

    def __init__(self, epsilon: float, name: str = "easy") -> None:
        self.epsilon = epsilon
        self.name = name

    def choose(self, state: GameState, rng: random.Random) -> Move:
        if rng.random() < self.epsilon:
            moves = legal_moves(state)
            return moves[int(rng.random() * len(moves))]
        return super().choose(state, rng)


__all__ = ["EpsilonGreedyBot", "GreedyBot", "RandomBot"]
