"""Bot figures: MCTS simulations per second on one core, and the time per move of every
difficulty level as players get it."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence

from ..bots import LEVELS, make_bot, observe, search
from ..config import GameConfig
from ..rules import apply_unchecked, legal_moves, new_game
from ..state import TAKE, GameState
from ..tiles import ROUNDS, Mode
from .report import PLAYOUT_CASES, Report, Workload


def _position(mode: Mode, players: int, actions: int, seed: int) -> GameState:
    state = new_game(GameConfig(mode=mode, players=players, seed=seed))
    rng = random.Random(seed)
    for _ in range(actions):
        moves = legal_moves(state)
        apply_unchecked(state, moves[int(rng.random() * len(moves))])
    return state


def mcts_simulations_per_second(mode: Mode, players: int, seconds: float, seed: int = 0) -> float:
    """MCTS iterations (selection, expansion, rollout, exact scoring of the leaf, backup) per
    second on one core, from a round-1 position after a few actions, with the mode's default
    rollout horizon (Classic: to the end of the game; Expert: a few actions)."""
    obs = observe(_position(mode, players, 6, seed))
    n = 50
    while True:
        t = time.perf_counter()
        search(obs, seed, n, None)
        dt = time.perf_counter() - t
        if dt >= seconds or n >= 1_000_000:
            return n / dt
        n = max(n * 2, int(n * seconds / max(dt, 1e-3) * 1.1))


def level_move_times(
    level: str, positions: int | Sequence[int], mode: Mode = Mode.CLASSIC, players: int = 2
) -> list[float]:
    """Seconds per move of a difficulty level (as players get it: ``make_bot(level)``) over
    take decisions in positions spread over a game of ``mode`` with ``players``: position
    ``i`` follows ``7 i`` random actions (seed ``i``); ``positions`` is their number (``i``
    from 0) or the list of ``i``."""
    bot = make_bot(level)
    times = []
    try:
        actions = 8 * players * ROUNDS[mode]  # a take and a build per turn, 4 turns a round
        for i in range(positions) if isinstance(positions, int) else positions:
            state = _position(mode, players, (i * 7) % (actions - 4), seed=i)
            while state.phase != TAKE:
                moves = legal_moves(state)
                apply_unchecked(state, moves[0])
            t = time.perf_counter()
            bot.choose(observe(state), random.Random(i))
            times.append(time.perf_counter() - t)
    finally:
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    return times


def run(report: Report, repeat: int, work: Workload) -> None:
    seconds = work.mcts_seconds
    for mode, players in PLAYOUT_CASES:
        runs = [mcts_simulations_per_second(mode, players, seconds, seed=r) for r in range(repeat)]
        report(
            f"mcts_{mode.value}_{players}p",
            statistics.median(runs),
            "sims/s",
            f"MCTS simulations per core, {mode.value} {players} players",
        )
    positions = work.level_positions
    for mode, players in PLAYOUT_CASES:
        for level in LEVELS:
            medians = [
                statistics.median(level_move_times(level, positions, mode, players)) for _ in range(repeat)
            ]
            report(
                f"level_{level}_{mode.value}_{players}p_move",
                statistics.median(medians),
                "s",
                f"time per move, level {level} ({mode.value} {players} players, as played)",
            )
