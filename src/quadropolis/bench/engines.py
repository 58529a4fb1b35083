"""The two engines side by side: the same workloads timed under the pure-Python engine and the
compiled one in the same run, alternating (Python, native, Python, native...) so that a busy
machine slows both alike, each figure the median of the runs, and their ratio.

Workloads (the compiled engine's goals in brackets): random 4-player Classic and
2-player Expert playouts with the final scoring of every city (≥ 16×), the exact scoring of
a full Expert city from the fixed corpus, median (≥ 20×), one ``greedy`` move over positions
spread through 2-player games (≥ 20×), and, with the ``rl`` extra, steps of the Gymnasium
env against ``greedy`` (≥ 20×); and MCTS simulations per second in every mode and player count
(the native search's goal: ≥ 10×), the same search with the same settings: ``bots.mcts``'s
Python search on the Python engine against the compiled search. Without the compiled engine
the section says so and measures nothing. Each ratio is followed by its goal and a verdict
(✓ reached, ✗ not reached)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from .. import engine
from ..bots import make_bot, observe, search
from ..citygen import expert_corpus
from ..config import GameConfig
from ..errors import ConfigError
from ..outcome import projected_score
from ..playout import random_game
from ..rules import apply_unchecked, legal_moves, new_game
from ..state import GameState
from ..tiles import Mode
from .report import Report, Workload

#: The engines compared, in the order each run alternates them.
_ENGINES = ("python", "native")

#: The goal of each workload's ratio (the compiled engine's and the native search's), by
#: figure key; each ratio is followed by its verdict against the goal.
GOALS = {
    "score_expert_median": 20.0,
    "playouts_classic_4p": 16.0,
    "playouts_expert_2p": 16.0,
    "greedy_move": 20.0,
    "gym_step_greedy": 20.0,
    **{f"mcts_{m.value}_{players}p": 10.0 for m in (Mode.CLASSIC, Mode.EXPERT) for players in (2, 3, 4)},
}


def verdict(report: Report, key: str, ratio: float) -> None:
    """Report the goal of figure ``key`` with a one-line verdict: ✓ when ``ratio`` reaches it."""
    goal = GOALS[key]
    mark = "✓ reached" if ratio >= goal else "✗ not reached"
    report(f"engines_{key}_goal", goal, "x", f"  goal {mark}")


def _rate(work: Callable[[int], int], seconds: float) -> float:
    """Units per second of ``work(i) -> units done``, called with i = 0, 1... for about
    ``seconds`` (at least once)."""
    done = 0
    i = 0
    start = time.perf_counter()
    while True:
        done += work(i)
        i += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def playouts(mode: Mode, players: int) -> Callable[[int], int]:
    """One seeded random game with the final scoring of every city (:func:`random_game`, as
    ``quadropolis simulate`` plays them)."""

    def work(i: int) -> int:
        random_game(GameConfig(mode=mode, players=players, seed=i), i)
        return 1

    return work


def _scoring_states(cities: int) -> list[GameState]:
    """Games whose seat 0 holds a full Expert city of the fixed corpus."""
    states = []
    for city in expert_corpus(cities):
        state = new_game(GameConfig(mode=Mode.EXPERT, players=2))
        state.cities[0] = list(city.buildings)
        state.inhabitants[0], state.energy[0] = city.inhabitants, city.energy
        states.append(state)
    return states


def scoring_medians(cities: int, repeat: int) -> dict[str, float]:
    """Median seconds of one optimal scoring (``projected_score``, as the game scores) over
    the fixed corpus of full Expert cities, per engine, the engines alternating run by run."""
    states = _scoring_states(cities)
    clock = time.perf_counter
    runs: dict[str, list[float]] = {e: [] for e in _ENGINES}
    for _ in range(repeat):
        for name in _ENGINES:
            with engine.using(name):
                times = []
                for state in states:
                    t = clock()
                    projected_score(state, 0)
                    times.append(clock() - t)
            runs[name].append(statistics.median(times))
    return {e: statistics.median(r) for e, r in runs.items()}


def _positions(mode: Mode, players: int, count: int) -> list[GameState]:
    """Take decisions spread over games: position ``i`` follows ``7 i`` random actions."""
    out = []
    for i in range(count):
        state = new_game(GameConfig(mode=mode, players=players, seed=i))
        rng = random.Random(i)
        for _ in range(i * 7):
            if state.is_over:
                break
            moves = legal_moves(state)
            apply_unchecked(state, moves[int(rng.random() * len(moves))])
        if not state.is_over:
            out.append(state)
    return out


def greedy_moves() -> Callable[[int], int]:
    """One ``greedy`` decision (a take, or a build or discard) in 2-player Classic positions."""
    bot = make_bot("greedy")
    positions = [observe(s) for s in _positions(Mode.CLASSIC, 2, 40)]

    def work(i: int) -> int:
        bot.choose(positions[i % len(positions)], random.Random(i))
        return 1

    return work


#: Iterations of one timed MCTS search (a take decision early in round 1).
MCTS_ITERATIONS = 200
#: The (mode, players) settings of the MCTS figures: all of them.
MCTS_CASES = tuple((mode, players) for mode in (Mode.CLASSIC, Mode.EXPERT) for players in (2, 3, 4))


def mcts_simulations(mode: Mode, players: int) -> Callable[[int], int]:
    """One search of :data:`MCTS_ITERATIONS` iterations (the defaults of a plain ``mcts``
    spec: the mode's rollout horizon, one tree) from a round-1 take decision after 7 random
    actions, seeded ``i``, by the selected engine's search; counts its simulations."""
    obs = observe(_positions(mode, players, 2)[1])  # position 1: 7 random actions in

    def work(i: int) -> int:
        return sum(search(obs, i, MCTS_ITERATIONS, None).values())

    return work


def gym_steps() -> Callable[[int], int] | None:
    """One episode of the Gymnasium env (Classic, 2 players) against ``greedy`` with random
    legal actions; counts the agent's steps. None without the ``rl`` extra."""
    try:
        from ..envs import make_gym_env
    except ImportError:
        return None
    env = make_gym_env(mode="classic", players=2, opponents="greedy")
    rand = random.Random(0).random

    def work(i: int) -> int:
        _, info = env.reset(seed=i)
        done, steps = False, 0
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, done, _, info = env.step(int(legal[int(rand() * len(legal))]))
            steps += 1
        return steps

    return work


def side_by_side(work: Callable[[int], int], seconds: float, repeat: int) -> dict[str, float]:
    """Median rate of ``work`` under each engine, the engines alternating run by run."""
    runs: dict[str, list[float]] = {e: [] for e in _ENGINES}
    for _ in range(repeat):
        for name in _ENGINES:
            with engine.using(name):
                runs[name].append(_rate(work, seconds))
    return {e: statistics.median(r) for e, r in runs.items()}


def native_available() -> bool:
    """Whether the compiled engine can be selected here."""
    try:
        with engine.using("native"):
            return True
    except ConfigError:
        return False


def run(report: Report, repeat: int, work: Workload) -> None:
    if not native_available():
        report("engines_native_available", 0, "", f"compiled engine not available ({engine.unavailable})")
        return
    seconds = work.playout_seconds
    medians = scoring_medians(work.scoring_cities, repeat)
    report(
        "engines_score_expert_median_python",
        medians["python"] * 1e3,
        "ms",
        "optimal scoring, full expert city, median: python",
    )
    report("engines_score_expert_median_native", medians["native"] * 1e3, "ms", "  native")
    ratio = medians["python"] / medians["native"]
    report("engines_score_expert_median_ratio", ratio, "x", "  python / native")
    verdict(report, "score_expert_median", ratio)
    cases: list[tuple[str, str, str, Callable[[int], int] | None]] = [
        ("playouts_classic_4p", "random playouts, classic 4 players (with scoring)", "games/s",
         playouts(Mode.CLASSIC, 4)),
        ("playouts_expert_2p", "random playouts, expert 2 players (with scoring)", "games/s",
         playouts(Mode.EXPERT, 2)),
        ("greedy_move", "one greedy move (classic 2 players)", "moves/s", greedy_moves()),
        ("gym_step_greedy", "Gymnasium env step against greedy (classic 2p)", "steps/s", gym_steps()),
    ]  # fmt: skip
    for mode, players in MCTS_CASES:
        cases.append(
            (
                f"mcts_{mode.value}_{players}p",
                f"MCTS simulations, {mode.value} {players} players",
                "sims/s",
                mcts_simulations(mode, players),
            )
        )
    for key, label, unit, job in cases:
        if job is None:
            continue
        rates = side_by_side(job, seconds, repeat)
        report(f"engines_{key}_python", rates["python"], unit, f"{label}: python")
        report(f"engines_{key}_native", rates["native"], unit, "  native")
        ratio = rates["native"] / rates["python"]
        report(f"engines_{key}_ratio", ratio, "x", "  native / python")
        verdict(report, key, ratio)
