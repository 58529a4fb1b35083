"""RL adapter figures: moves per second of each adapter playing uniformly random legal
(masked) actions, beside the raw engine's, in the settings of the playout figures.

Every figure counts the moves applied to the game (takes, builds, discards; not OpenSpiel's
chance deals) per second. The adapters score every city exactly at the end of each game (the
rewards need it), so ``*_ratio`` divides the raw engine's figure *with* final scoring by the
adapter's (the goal: at most 3); the engine's figure without scoring is shown too. What each
adapter does per move on top of the engine: the Gymnasium env encodes the agent's observation
and mask at each of its steps (its bot opponents only pick moves); the PettingZoo env
(``quadropolis_v1.env()`` with PettingZoo's wrappers, and ``raw_env()``) encodes the acting
agent's observation and mask; the OpenSpiel game lists the legal actions through pyspiel and
deals each round through 25 chance nodes. A random legal action is drawn from a mask's
``mask.nonzero()[0]``, the cheapest numpy call for it (``np.flatnonzero`` wraps it in two
Python-level calls), as the engine's loop draws from its list.

The batched env (``gymnasium.make_vec("Quadropolis-v1", num_envs=N,
vectorization_mode="vector_entry_point")``, :data:`VECTOR_GAMES` games) is measured beside the
single env in *agent steps* per second (the actions the agent applies, each with the
observation and mask that follow; the opponents' moves and the autoreset steps are not
counted), against ``random`` in every case and against every rung of the ladder
(:func:`quadropolis.envs.ladder_specs`: the epsilon-greedy rungs played game by game in
Python, ``greedy`` natively, ``neural`` with batched inference, one forward pass for every
game waiting for it) in the 2-player cases. Its
random legal actions are drawn for the whole batch at once (the largest of uniform numbers
times the masks). Needs the ``rl`` extra."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from ..config import GameConfig
from ..outcome import outcome
from ..rules import apply_unchecked, legal_moves, new_game
from ..tiles import Mode
from .report import PLAYOUT_CASES, Report, Workload


def _timed(play: Callable[[int], int], seconds: float) -> float:
    """Moves per second of ``play(game_index) -> moves played``, run for about ``seconds``."""
    moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    g = 0
    while True:
        moves += play(g)
        g += 1
        now = time.perf_counter()
        if now >= deadline:
            return moves / (now - start)


def engine_moves(mode: Mode, players: int, seconds: float, seed: int = 0, score: bool = True) -> float:
    """The raw engine: ``legal_moves``, a uniform choice, ``apply_unchecked``; then
    ``outcome`` (every city scored exactly) unless ``score`` is false."""

    def play(g: int) -> int:
        state = new_game(GameConfig(mode=mode, players=players, seed=seed + g))
        rand = random.Random(seed + g).random
        n = 0
        while not state.is_over:
            legal = legal_moves(state)
            apply_unchecked(state, legal[int(rand() * len(legal))])
            n += 1
        if score:
            outcome(state)
        return n

    return _timed(play, seconds)


def gym_moves(mode: Mode, players: int, seconds: float, seed: int = 0) -> float:
    """``Quadropolis-v1`` (seat 0, ``random`` opponents): agent steps with a random action of
    ``info["action_mask"]``; the opponents' moves count too."""

    from ..envs import make_gym_env

    env = make_gym_env(mode=mode.value, players=players)
    rand = random.Random(seed).random

    def play(g: int) -> int:
        _, info = env.reset(seed=seed + g)
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, done, _, info = env.step(int(legal[int(rand() * len(legal))]))
        return env.moves_played

    return _timed(play, seconds)


#: Games stepped together by the batched env in the bench.
VECTOR_GAMES = 256


def gym_agent_steps(
    mode: Mode, players: int, seconds: float, seed: int = 0, opponents: str = "random"
) -> float:
    """``Quadropolis-v1`` (seat 0): agent steps per second with random masked actions."""
    from ..envs import make_gym_env

    env = make_gym_env(mode=mode.value, players=players, opponents=opponents)
    rand = random.Random(seed).random

    def play(g: int) -> int:
        _, info = env.reset(seed=seed + g)
        done, steps = False, 0
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, done, _, info = env.step(int(legal[int(rand() * len(legal))]))
            steps += 1
        return steps

    return _timed(play, seconds)


def vector_agent_steps(
    mode: Mode, players: int, seconds: float, seed: int = 0, opponents: str = "random"
) -> float:
    """The batched env of :data:`VECTOR_GAMES` games (seat 0, ``copy=False``): agent steps per
    second with random masked actions, drawn for the whole batch at once."""
    from ..envs import make_vector_env

    env = make_vector_env(VECTOR_GAMES, mode=mode.value, players=players, opponents=opponents, copy=False)
    rng = np.random.default_rng(seed)
    _, infos = env.reset(seed=seed)
    over = np.zeros(VECTOR_GAMES, np.bool_)

    def play(step: int) -> int:
        nonlocal infos, over
        acting = VECTOR_GAMES - int(over.sum())  # a game that just ended only resets
        actions = (rng.random((VECTOR_GAMES, 121), np.float32) * infos["action_mask"]).argmax(1)
        _obs, _rewards, over, _truncated, infos = env.step(actions)
        return acting

    return _timed(play, seconds)


def pettingzoo_moves(mode: Mode, players: int, seconds: float, seed: int = 0, wrapped: bool = True) -> float:
    """``quadropolis_v1.env()`` (PettingZoo's wrappers; ``raw_env()`` if not ``wrapped``):
    ``last()``, then a random action of the observation's ``action_mask``."""

    from ..envs import make_pettingzoo_env

    env = make_pettingzoo_env(mode=mode.value, players=players, wrapped=wrapped)
    rand = random.Random(seed).random

    def play(g: int) -> int:
        env.reset(seed=seed + g)
        n = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(rand() * len(legal))]))
            n += 1
        return n

    return _timed(play, seconds)


def openspiel_moves(mode: Mode, players: int, seconds: float, seed: int = 0) -> float:
    """``python_quadropolis``: a random action of ``legal_actions()`` at player nodes, a
    uniform chance outcome at chance nodes (through pyspiel's API)."""
    from ..envs import load_openspiel_game

    game = load_openspiel_game({"mode": mode.value, "players": players})
    rand = random.Random(seed).random

    def play(g: int) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
                n += 1
        state.returns()
        return n

    return _timed(play, seconds)


def run(report: Report, repeat: int, work: Workload) -> None:
    seconds = work.playout_seconds
    adapters: dict[str, Callable[[Mode, int, float, int], float]] = {
        "gym": gym_moves,
        "pettingzoo": pettingzoo_moves,
        "pettingzoo_raw": lambda m, n, t, s: pettingzoo_moves(m, n, t, s, wrapped=False),
        "openspiel": openspiel_moves,
    }
    for mode, players in PLAYOUT_CASES:
        case = f"{mode.value}_{players}p"
        where = f"{mode.value} {players} players"
        # Each run measures the engine and every adapter back to back and the ratios are taken
        # run by run: on a shared machine the load changes less within a run than across runs.
        figures: dict[str, list[float]] = {}
        for r in range(repeat):
            seed = 1000 * r
            measured = {
                "engine_noscore": engine_moves(mode, players, seconds, seed, score=False),
                "engine": engine_moves(mode, players, seconds, seed),
            }
            for name, measure in adapters.items():
                measured[name] = measure(mode, players, seconds, seed)
                figures.setdefault(f"{name}_ratio", []).append(measured["engine"] / measured[name])
            for key, value in measured.items():
                figures.setdefault(key, []).append(value)
        med = {key: statistics.median(values) for key, values in figures.items()}
        report(
            f"envs_engine_noscore_{case}",
            med["engine_noscore"],
            "moves/s",
            f"raw engine, no final scoring, {where}",
        )
        report(f"envs_engine_{case}", med["engine"], "moves/s", f"raw engine, with final scoring, {where}")
        for name in adapters:
            report(
                f"envs_{name}_{case}", med[name], "moves/s", f"{name} adapter, random masked moves, {where}"
            )
            report(f"envs_{name}_{case}_ratio", med[f"{name}_ratio"], "x", f"  engine / {name} ({where})")
        _batched(report, mode, players, repeat, seconds)
        # What PettingZoo's wrappers (TerminateIllegal, AssertOutOfBounds, OrderEnforcing) add
        # to each step: their attribute forwarding, whatever the game.
        wrappers = 1e6 / med["pettingzoo"] - 1e6 / med["pettingzoo_raw"]
        report(
            f"envs_pettingzoo_wrappers_{case}",
            wrappers,
            "us",
            f"  PettingZoo's wrappers per step ({where})",
        )


def _batched(report: Report, mode: Mode, players: int, repeat: int, seconds: float) -> None:
    """The single env and the batched env side by side, run by run (see the module docstring)."""
    case = f"{mode.value}_{players}p"
    where = f"{mode.value} {players} players"
    from ..envs import ladder_specs

    for opponents in ladder_specs() if players == 2 else ["random"]:
        single: list[float] = []
        batched: list[float] = []
        for r in range(repeat):
            single.append(gym_agent_steps(mode, players, seconds, 1000 * r, opponents))
            batched.append(vector_agent_steps(mode, players, seconds, 1000 * r, opponents))
        ratios = [b / s for s, b in zip(single, batched, strict=True)]
        key = f"{case}_{_key(opponents)}"
        report(
            f"envs_gym_steps_{key}",
            statistics.median(single),
            "steps/s",
            f"single env, agent steps vs {opponents}, {where}",
        )
        report(
            f"envs_vector_steps_{key}",
            statistics.median(batched),
            "steps/s",
            f"batched env ({VECTOR_GAMES} games), agent steps vs {opponents}, {where}",
        )
        report(
            f"envs_vector_steps_{key}_ratio", statistics.median(ratios), "x", f"  batched / single ({where})"
        )


def _key(spec: str) -> str:
    """A bot spec as a figure's key part (``greedy:epsilon=0.3`` -> ``greedy_epsilon0.3``)."""
    return spec.replace(":", "_").replace("=", "")
