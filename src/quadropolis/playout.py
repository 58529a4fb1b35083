"""Uniformly random playouts (seeded), the workload of ``quadropolis simulate`` and of the
playout benchmarks."""

from __future__ import annotations

import random

from . import engine
from .config import GameConfig
from .moves import Move
from .outcome import Outcome, outcome, outcome_of
from .rules import apply_unchecked, legal_moves, new_game
from .state import OVER, GameState


def random_playout(config: GameConfig, rng: random.Random, moves: list[Move] | None = None) -> GameState:
    """Play a whole game choosing uniformly among legal moves with ``rng``; returns the final
    state. If ``moves`` is given, the moves played are appended to it. The compiled engine,
    when selected, plays the very same game and leaves ``rng`` in the very same state."""
    native = engine.current()
    if native is not None:
        return native.random_playout_native(config, rng, moves)  # type: ignore[no-any-return]
    state = new_game(config)
    rand = rng.random
    while state.phase != OVER:
        legal = legal_moves(state)
        move = legal[int(rand() * len(legal))]
        if moves is not None:
            moves.append(move)
        apply_unchecked(state, move)
    return state


def random_game(config: GameConfig, seed: int | str) -> tuple[list[Move], Outcome]:
    """A whole uniformly random game played with ``random.Random(seed)``, as
    :func:`random_playout` plays it: the moves and the outcome (every city scored, R12/R13).
    The compiled engine, when selected, plays it without handing the generator across (the
    same game; ``seed`` within the signed 64-bit range or a str of at most 256 UTF-8 bytes,
    else the Python engine plays it)."""
    native = engine.current()
    if native is not None and _fits_native(seed):
        moves, scores = native.random_game_native(config, seed)
        return moves, outcome_of(scores)
    moves = []
    final = random_playout(config, random.Random(seed), moves)
    return moves, outcome(final)


def _fits_native(seed: int | str) -> bool:
    if isinstance(seed, str):
        return len(seed) <= 64 or len(seed.encode("utf-8", "surrogatepass")) <= 256
    return not isinstance(seed, bool) and -(2**63) <= seed < 2**63
