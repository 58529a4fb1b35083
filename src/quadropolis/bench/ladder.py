"""The ladder's figures (:data:`quadropolis.envs.ladder.LADDER`): what each rung costs the
env, and the ``neural`` bot's time per move.

For each rung, the agent's steps per second in ``Quadropolis-v1`` (2 players, the agent in
seat 0 playing a random action of ``info["action_mask"]``, the rung in seat 1), and the
*step cost*: the time of a step against the rung divided by the time of a step against
``random`` (the env's own cost plus the cheapest opponent's), measured back to back in each
run, rung by rung alternating, the median over the runs. The same for the batched env
(:data:`.envs.VECTOR_GAMES` games, random masked actions drawn for the batch) against every
rung above ``random`` (the epsilon-greedy rungs played game by game in Python, ``greedy``
natively, ``neural`` batched: one forward pass for all the games waiting for it): agent steps
per second and the step cost against ``random`` in the batched env. Then the ``neural`` bot's
milliseconds per decision (its whole ``choose``: greedy's values, the features, the forward
pass) over whole games against ``greedy``. Needs the ``rl`` extra."""

from __future__ import annotations

import random
import statistics
import time

from ..bots import GreedyBot, make_bot, observe
from ..config import GameConfig
from ..rules import apply_unchecked, new_game
from ..tiles import Mode
from .envs import vector_agent_steps
from .report import Report, Workload


def agent_steps(mode: Mode, opponent: str, seconds: float, seed: int = 0) -> float:
    """Agent steps per second in ``Quadropolis-v1`` (2 players) against ``opponent``."""
    from ..envs import make_gym_env

    env = make_gym_env(mode=mode.value, players=2, opponents=opponent)
    rand = random.Random(seed).random
    steps = 0
    start = time.perf_counter()
    g = 0
    while time.perf_counter() - start < seconds:
        _, info = env.reset(seed=seed + g)
        g += 1
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, done, _, info = env.step(int(legal[int(rand() * len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def neural_ms_per_move(mode: Mode, games: int, seed: int = 0) -> float:
    """The ``neural`` bot's mean milliseconds per decision over ``games`` games against greedy."""
    bot, greedy = make_bot("neural"), GreedyBot()
    think, decisions = 0.0, 0
    for g in range(games):
        state = new_game(GameConfig(mode=mode, players=2, seed=seed + g))
        rng = random.Random(g)
        while not state.is_over:
            obs = observe(state)
            if state.current_player == g % 2:
                t = time.perf_counter()
                move = bot.choose(obs, rng)
                think += time.perf_counter() - t
                decisions += 1
            else:
                move = greedy.choose(obs, rng)
            apply_unchecked(state, move)
    return 1000 * think / decisions


def run(report: Report, repeat: int, work: Workload) -> None:
    from ..envs import LADDER

    seconds = work.playout_seconds
    for mode in (Mode.CLASSIC, Mode.EXPERT):
        steps: dict[str, list[float]] = {}
        costs: dict[str, list[float]] = {}
        for r in range(repeat):
            base = agent_steps(mode, "random", seconds, 1000 * r)
            for rung in LADDER:
                rate = agent_steps(mode, rung.spec, seconds, 1000 * r)
                steps.setdefault(rung.spec, []).append(rate)
                costs.setdefault(rung.spec, []).append(base / rate)
        for rung in LADDER:
            key = rung.spec.replace(":", "_").replace("=", "")
            where = f"{mode.value} 2 players"
            report(
                f"ladder_{key}_{mode.value}",
                statistics.median(steps[rung.spec]),
                "steps/s",
                f"gym agent steps vs {rung.spec}, {where}",
            )
            report(
                f"ladder_{key}_{mode.value}_cost",
                statistics.median(costs[rung.spec]),
                "x",
                f"  step cost vs {rung.spec} / vs random ({where})",
            )
        _batched_costs(report, mode, repeat, seconds)
        games = max(1, int(seconds * 2))
        ms = statistics.median(neural_ms_per_move(mode, games, 1000 * r) for r in range(repeat))
        report(
            f"ladder_neural_ms_{mode.value}", ms, "ms", f"neural bot, time per move, {mode.value} 2 players"
        )


def _batched_costs(report: Report, mode: Mode, repeat: int, seconds: float) -> None:
    """The batched env's agent steps per second against each rung above ``random``, and its
    step cost against ``random`` in the batched env, measured back to back in each run."""
    from ..envs import ladder_specs

    where = f"{mode.value} 2 players"
    steps: dict[str, list[float]] = {}
    costs: dict[str, list[float]] = {}
    for r in range(repeat):
        base = vector_agent_steps(mode, 2, seconds, 1000 * r, "random")
        for opponent in ladder_specs()[1:]:
            rate = vector_agent_steps(mode, 2, seconds, 1000 * r, opponent)
            steps.setdefault(opponent, []).append(rate)
            costs.setdefault(opponent, []).append(base / rate)
    for opponent, rates in steps.items():
        key = opponent.replace(":", "_").replace("=", "")
        report(
            f"ladder_batched_{key}_{mode.value}",
            statistics.median(rates),
            "steps/s",
            f"batched env agent steps vs {opponent}, {where}",
        )
        report(
            f"ladder_batched_{key}_{mode.value}_cost",
            statistics.median(costs[opponent]),
            "x",
            f"  batched step cost vs {opponent} / vs random ({where})",
        )
