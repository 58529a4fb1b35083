"""Playing one whole game between bots: the building block of the arena and of tests."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..config import GameConfig
from ..errors import QuadropolisError
from ..moves import Move
from ..outcome import Outcome, outcome
from ..rules import apply_unchecked, explain_illegal, new_game
from ..state import GameState
from .base import Bot, observe


class BotError(QuadropolisError):
    """A bot returned an illegal move."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    config: GameConfig
    moves: tuple[Move, ...]
    final: GameState
    outcome: Outcome
    #: Seconds spent choosing, per seat, and the number of decisions per seat.
    think_time: tuple[float, ...]
    decisions: tuple[int, ...]


def bot_rng(seed: int, seat: int) -> random.Random:
    """The RNG of the bot in ``seat`` for the game with ``seed``: fixed by both, so a game
    between bots with iteration budgets is reproducible."""
    return random.Random(f"bot/{seed}/{seat}")


def play_match(config: GameConfig, bots: Sequence[Bot]) -> MatchResult:
    """Play a whole game, ``bots[seat]`` choosing for each seat from an observation that
    hides the seed. Raises :class:`BotError` if a bot returns an illegal move."""
    if len(bots) != config.players:
        raise ValueError(f"{config.players} players need {config.players} bots, got {len(bots)}")
    state = new_game(config)
    rngs = [bot_rng(config.seed, seat) for seat in range(config.players)]
    moves: list[Move] = []
    think = [0.0] * config.players
    decisions = [0] * config.players
    clock = time.perf_counter
    while not state.is_over:
        seat = state.current_player
        t = clock()
        move = bots[seat].choose(observe(state), rngs[seat])
        think[seat] += clock() - t
        decisions[seat] += 1
        reason = explain_illegal(state, move)
        if reason is not None:
            raise BotError(f"bot {bots[seat].name} in seat {seat} played {move}: {reason}")
        apply_unchecked(state, move)
        moves.append(move)
    return MatchResult(config, tuple(moves), state, outcome(state), tuple(think), tuple(decisions))
