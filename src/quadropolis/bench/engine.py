"""Engine figures: random playouts per second (with the exact final scoring of every city),
optimal scoring time over fixed corpora of full cities, memory and copy cost of a state."""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc
from typing import Any

from ..citygen import expert_corpus, random_city
from ..config import GameConfig
from ..outcome import outcome
from ..playout import random_playout
from ..rules import apply_unchecked, legal_moves, new_game
from ..scoring import score_city
from ..tiles import Mode
from .report import PLAYOUT_CASES, Report, Workload


def playouts_per_second(mode: Mode, players: int, seconds: float, seed: int = 0) -> tuple[float, float]:
    """(games per wall-clock second, games per CPU second of this process) for random
    playouts with final scoring, run for about ``seconds``. The CPU figure holds on a busy
    machine, where the wall-clock one falls with the share of a core the process gets."""
    games = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        config = GameConfig(mode=mode, players=players, seed=seed + games)
        final = random_playout(config, random.Random(seed + games))
        outcome(final)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            cpu = max(time.process_time() - cpu_start, 1e-9)
            return games / (now - start), games / cpu


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


def run(report: Report, repeat: int, work: Workload) -> None:
    seconds = work.playout_seconds
    for mode, players in PLAYOUT_CASES:
        runs = [playouts_per_second(mode, players, seconds, seed=1000 * r) for r in range(repeat)]
        report(
            f"playouts_{mode.value}_{players}p",
            statistics.median(wall for wall, _ in runs),
            "games/s",
            f"random playouts, {mode.value} {players} players (with scoring)",
        )
        report(
            f"playouts_{mode.value}_{players}p_cpu",
            statistics.median(cpu for _, cpu in runs),
            "games/cpu-s",
            "  the same per CPU second (holds on a busy machine)",
        )
    n = work.scoring_cities
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
