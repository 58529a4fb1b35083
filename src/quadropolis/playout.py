"""Uniformly random playouts (seeded), the workload of ``quadropolis simulate`` and of the
playout benchmark."""

from __future__ import annotations

import random

from . import engine
from .config import GameConfig
from .moves import Move
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
