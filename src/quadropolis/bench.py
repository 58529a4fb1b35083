"""``quadropolis bench``: the performance figures of the engine, measured on one core.

Each figure is the median over ``repeat`` runs. Playout figures count whole games played with
uniformly random legal moves *including* the exact optimal final scoring of every city."""

from __future__ import annotations

import json
import random
import statistics
import time
import tracemalloc
from typing import Any, TextIO

from .citygen import expert_corpus, random_city
from .config import GameConfig
from .outcome import outcome
from .playout import random_playout
from .rules import apply_unchecked, legal_moves, new_game
from .scoring import score_city
from .state import TAKE, GameState
from .tiles import ROUNDS, Mode

PLAYOUT_CASES = ((Mode.CLASSIC, 2), (Mode.CLASSIC, 4), (Mode.EXPERT, 2), (Mode.EXPERT, 4))


def playouts_per_second(mode: Mode, players: int, seconds: float, seed: int = 0) -> float:
    """Games per second for random playouts with final scoring, run for about ``seconds``."""
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        config = GameConfig(mode=mode, players=players, seed=seed + games)
        final = random_playout(config, random.Random(seed + games))
        outcome(final)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def scoring_times(mode: Mode, n: int) -> list[float]:
    """Seconds per :func:`score_city` call over the fixed corpus (Expert: 1,000 full cities)."""
    if mode is Mode.EXPERT:
        cities = expert_corpus(n)
    else:
        rng = random.Random(2016)
        cities = [random_city(rng, Mode.CLASSIC, filled=16) for _ in range(n)]
    times = []
    clock = time.perf_counter
    for city in cities:
        t = clock()
        score_city(city)
        times.append(clock() - t)
    return times


def _midgame_state() -> Any:
    state = new_game(GameConfig(mode=Mode.EXPERT, players=4, seed=7))
    rng = random.Random(7)
    for _ in range(100):  # about halfway through an Expert 4-player game
        moves = legal_moves(state)
        apply_unchecked(state, moves[int(rng.random() * len(moves))])
    return state


def state_memory() -> tuple[int, float]:
    """(bytes allocated by one stored copy of a mid-game 4-player Expert state, microseconds
    per ``copy()``). Buildings are immutable and shared between copies, so a copy allocates
    only its lists."""
    state = _midgame_state()
    copies = []
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(1000):
        copies.append(state.copy())
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    per_state = (after - before) / 1000
    n = 20000
    t = time.perf_counter()
    for _ in range(n):
        state.copy()
    per_copy = (time.perf_counter() - t) / n * 1e6
    return round(per_state), per_copy


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
    from .bots.base import observe
    from .bots.mcts import search

    obs = observe(_position(mode, players, 6, seed))
    n = 50
    while True:
        t = time.perf_counter()
        search(obs, seed, n, None)
        dt = time.perf_counter() - t
        if dt >= seconds or n >= 1_000_000:
            return n / dt
        n = max(n * 2, int(n * seconds / max(dt, 1e-3) * 1.1))


def level_move_times(level: str, positions: int, mode: Mode = Mode.CLASSIC, players: int = 2) -> list[float]:
    """Seconds per move of a difficulty level (as players get it: ``make_bot(level)``) over
    take decisions in positions spread over a game of ``mode`` with ``players``."""
    from .bots import make_bot
    from .bots.base import observe

    bot = make_bot(level)
    times = []
    try:
        actions = 8 * players * ROUNDS[mode]  # a take and a build per turn, 4 turns a round
        for i in range(positions):
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


SECTIONS = ("engine", "bots")


def run_benchmarks(
    out: TextIO,
    repeat: int = 5,
    quick: bool = False,
    as_json: bool = False,
    sections: tuple[str, ...] = SECTIONS,
) -> dict[str, Any]:
    repeat = max(1, repeat)
    figures: dict[str, Any] = {}

    def report(key: str, value: float, unit: str, label: str) -> None:
        figures[key] = {"value": round(value, 4), "unit": unit}
        if not as_json:
            out.write(f"{label:<58} {value:>10.3f} {unit}\n")
            out.flush()

    if not as_json:
        out.write(f"quadropolis bench (median of {repeat} run(s), one core unless noted)\n")
    if "engine" in sections:
        _engine(report, repeat, quick)
    if "bots" in sections:
        _bots(report, repeat, quick)
    if as_json:
        out.write(json.dumps(figures) + "\n")
    return figures


def _engine(report: Any, repeat: int, quick: bool) -> None:
    seconds = 0.3 if quick else 2.0
    for mode, players in PLAYOUT_CASES:
        runs = [playouts_per_second(mode, players, seconds, seed=1000 * r) for r in range(repeat)]
        report(
            f"playouts_{mode.value}_{players}p",
            statistics.median(runs),
            "games/s",
            f"random playouts, {mode.value} {players} players (with scoring)",
        )
    n = 100 if quick else 1000
    for mode in (Mode.EXPERT, Mode.CLASSIC):
        medians, p99s, maxima = [], [], []
        for _ in range(repeat):
            times = sorted(scoring_times(mode, n))
            medians.append(times[len(times) // 2])
            p99s.append(times[min(len(times) - 1, int(len(times) * 0.99))])
            maxima.append(times[-1])
        what = f"{n} full {mode.value} cities"
        report(
            f"score_{mode.value}_median",
            statistics.median(medians) * 1e3,
            "ms",
            f"optimal scoring, {what}: median",
        )
        report(
            f"score_{mode.value}_p99", statistics.median(p99s) * 1e3, "ms", f"optimal scoring, {what}: p99"
        )
        report(
            f"score_{mode.value}_max", statistics.median(maxima) * 1e3, "ms", f"optimal scoring, {what}: max"
        )
    mem, copy_us = state_memory()
    report("state_bytes", mem, "bytes", "memory per stored state (mid-game, expert, 4 players)")
    report("state_copy", copy_us, "us", "state.copy() (mid-game, expert, 4 players)")


def _bots(report: Any, repeat: int, quick: bool) -> None:
    from .bots import LEVELS

    seconds = 0.3 if quick else 2.0
    for mode, players in PLAYOUT_CASES:
        runs = [mcts_simulations_per_second(mode, players, seconds, seed=r) for r in range(repeat)]
        report(
            f"mcts_{mode.value}_{players}p",
            statistics.median(runs),
            "sims/s",
            f"MCTS simulations per core, {mode.value} {players} players",
        )
    positions = 2 if quick else 8
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
