"""Side-by-side timings of the Python engine and the compiled one (docs/native.md): the two
run alternately in one process, in rounds, and each figure is the median over the rounds of the
CPU time per call (the machine is shared).
usage: python scripts/native_bench.py [ROUNDS]"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

from quadropolis import GameConfig, Mode
from quadropolis import _native as nat
from quadropolis.bots.simple import GreedyBot
from quadropolis.citygen import expert_corpus
from quadropolis.native import greedy_values_native, random_playout_native, score_city_native
from quadropolis.outcome import outcome
from quadropolis.playout import random_playout
from quadropolis.rules import apply_unchecked, legal_moves, new_game
from quadropolis.scoring import score_city


def per_call(fn: Callable[[int], object], n: int) -> float:
    t = time.process_time()
    for i in range(n):
        fn(i)
    return (time.process_time() - t) / n


def compare(name: str, variants: dict[str, tuple[Callable[[int], object], int]], rounds: int) -> None:
    times: dict[str, list[float]] = {k: [] for k in variants}
    for _ in range(rounds):
        for k, (fn, n) in variants.items():
            times[k].append(per_call(fn, n))
    base = statistics.median(times["python"])
    parts = []
    for k, ts in times.items():
        m = statistics.median(ts)
        parts.append(f"{k} {m * 1e6:.1f} us ({1 / m:,.0f}/s, x{base / m:.1f})")
    print(f"{name}: " + "; ".join(parts))


def playouts(mode: Mode, players: int, rounds: int) -> None:
    def py(i: int) -> object:
        config = GameConfig(mode=mode, players=players, seed=i)
        return outcome(random_playout(config, random.Random(i)))

    def glue(i: int) -> object:
        config = GameConfig(mode=mode, players=players, seed=i)
        final = random_playout_native(config, random.Random(i))
        return [score_city_native(final.city(p)) for p in range(players)]

    def binding(i: int) -> object:
        ns = nat.new_state(int(mode is Mode.EXPERT), players, i, 0, False)
        ns.random_playout(random.Random(i).getstate()[1])
        return [ns.score(p, False) for p in range(players)]

    n = 60 if players == 4 else 100
    variants = {"python": (py, n), "native.py glue": (glue, n * 4), "binding": (binding, n * 20)}
    compare(f"random playout + final scoring, {mode.value} {players}p", variants, rounds)


def scoring(rounds: int) -> None:
    cities = expert_corpus(300)
    cells = [
        tuple(
            x
            for b in c.buildings
            for x in ((int(b.type), b.floors, b.vp, int(b.tree)) if b else (-1, 0, 0, 0))
        )
        for c in cities
    ]
    variants = {
        "python": (lambda i: score_city(cities[i % 300]), 300),
        "native.py glue": (lambda i: score_city_native(cities[i % 300]), 3000),
        "binding": (
            lambda i: nat.score_city(
                1, cells[i % 300], cities[i % 300].inhabitants, cities[i % 300].energy, False
            ),
            3000,
        ),
    }
    compare("score one full Expert city", variants, rounds)


def greedy(rounds: int) -> None:
    rng = random.Random(4)
    states = []
    while len(states) < 40:
        state = new_game(
            GameConfig(mode=Mode.EXPERT if len(states) % 2 else Mode.CLASSIC, players=3, seed=len(states))
        )
        for _ in range(rng.randrange(10, 90)):
            if state.is_over:
                break
            moves = legal_moves(state)
            apply_unchecked(state, moves[int(rng.random() * len(moves))])
        if not state.is_over and state.phase == 0:
            states.append(state)
    bot = GreedyBot()
    variants = {
        "python": (lambda i: bot.values(states[i % 40]), 40),
        "native.py glue": (lambda i: greedy_values_native(states[i % 40]), 400),
    }
    compare("greedy values of one take decision (mid-game, 3p)", variants, rounds)


if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    playouts(Mode.CLASSIC, 4, rounds)
    playouts(Mode.EXPERT, 2, rounds)
    scoring(rounds)
    greedy(rounds)
