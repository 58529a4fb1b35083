"""The search on the compiled engine (native/src/bots/search.cpp, policy.cpp): the same search as
bots.mcts (for a seed, the very visit counts and root statistics of the Python search), legal
and deterministic moves in every mode and player count, the ``engine=`` option, and the
binding's refusals of bad input."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from dataclasses import asdict, fields, replace
from pathlib import Path

import pytest
from helpers import game

from quadropolis import GameConfig, GameState, Mode, engine
from quadropolis import _native as nat
from quadropolis.bots import MCTSBot, SearchOptions, make_bot, observe, play_match, search
from quadropolis.errors import ConfigError, QuadropolisError
from quadropolis.moves import Move
from quadropolis.native import SearchTuning, search_native, to_native
from quadropolis.outcome import outcome
from quadropolis.playout import random_game
from quadropolis.rules import apply_unchecked, legal_moves

CASES = [(mode, players) for mode in (Mode.CLASSIC, Mode.EXPERT) for players in (2, 3, 4)]
OPTIONS = SearchOptions(c=0.7, pw_c=2.0, pw_alpha=0.5, horizon=None, credit=1.0, bias=0.0, fed=0.0, greed=0.0)


def _position(mode: Mode, players: int, seed: int, actions: int, **variants: object) -> GameState:
    """An observation after ``actions`` random actions (fewer if the game ends first)."""
    state = game(mode, players, seed=seed, **variants)
    rng = random.Random(seed)
    for _ in range(actions):
        moves = legal_moves(state)
        if not moves:
            break
        apply_unchecked(state, moves[int(rng.random() * len(moves))])
    return observe(state)


@pytest.mark.parametrize(("mode", "players"), CASES)
def test_native_search_is_the_python_search(mode: Mode, players: int) -> None:
    # Same draws, same prior, same floating point: the same tree, so the same visit counts
    # and root statistics (a stronger check than "plays as well").
    variants = [{}, {"urbanist_blocks": "square", "all_parks_absorb": True}]
    cases = [(3, {}), (29, {"horizon": 3, "bias": 1.5}), (41, {"credit": 0.5})]
    cases.append((17, {"horizon": 4, "fed": 0.4}))
    cases.append((11, {"horizon": 5, "greed": 0.6}))
    for k, (actions, kw) in enumerate(cases):
        obs = _position(mode, players, seed=k + 7 * players, actions=actions, **variants[k % 2])
        if obs.is_over:
            continue
        options = replace(OPTIONS, **kw)
        prior = None
        if options.bias:
            from quadropolis.bots.mcts import greedy_prior

            prior = greedy_prior(obs)
        py_stats: dict[str, list[float]] = {}
        nat_stats: dict[str, list[float]] = {}
        py = search(obs, 99 + k, 80, None, options, root_stats=py_stats, root_prior=prior, engine="python")
        nv = search(obs, 99 + k, 80, None, options, root_stats=nat_stats, engine="native")
        assert nv == py
        assert nat_stats.keys() == py_stats.keys()
        for move, (visits, wins, value, margin) in py_stats.items():
            assert nat_stats[move] == pytest.approx([visits, wins, value, margin], rel=1e-12, abs=1e-9)


def test_the_native_call_reads_every_field_of_search_options() -> None:
    # quadropolis.native (core) cannot import the bots: its protocol names SearchOptions's fields.
    read = {name for name in vars(SearchTuning) if not name.startswith("_")}
    assert read == {f.name for f in fields(SearchOptions)}


@pytest.mark.parametrize(("mode", "players"), CASES)
def test_native_search_returns_legal_moves(mode: Mode, players: int) -> None:
    bot = make_bot("mcts:iterations=40,trees=2,horizon=2,engine=native")
    for seed in range(12):
        obs = _position(mode, players, seed=seed, actions=seed * 13)
        if obs.is_over:
            continue
        assert bot.choose(obs, random.Random(seed)) in legal_moves(obs)


@pytest.mark.parametrize("players", [2, 4])
def test_root_margin_is_the_movers_total_less_the_best_other_players(players: int) -> None:
    # Before the game's last move a root move that ends the game (the one played at least)
    # has the exact result as its every leaf, so its mean margin is the mover's total less the
    # best other player's after it, in both searches.
    config = GameConfig(mode=Mode.CLASSIC, players=players, seed=11)
    moves, _ = random_game(config, 11)
    state = game(Mode.CLASSIC, players, seed=11)
    for m in moves[:-1]:
        apply_unchecked(state, m)
    me = state.current_player
    for pin in ("native", "python"):
        stats: dict[str, list[float]] = {}
        search(observe(state), 5, 60, None, OPTIONS, root_stats=stats, engine=pin)
        ending = 0
        for key, (visits, _, value, margin) in stats.items():
            after = state.copy()
            apply_unchecked(after, Move.parse(key))
            if not after.is_over:
                continue
            ending += 1
            totals = outcome(after).totals
            best_other = max(t for p, t in enumerate(totals) if p != me)
            assert value / visits == totals[me]
            assert margin / visits == pytest.approx(totals[me] - best_other), (pin, key)
        assert ending >= 1, stats


def test_native_search_is_deterministic_for_a_seed_across_processes() -> None:
    obs = _position(Mode.EXPERT, 3, seed=5, actions=11)
    found = search_native(obs, 12345, 300, None, OPTIONS)
    assert search_native(obs, 12345, 300, None, OPTIONS) == found
    assert search_native(obs, 12346, 300, None, OPTIONS) != found
    code = (
        "from quadropolis import Mode; from quadropolis.native import search_native\n"
        "from test_search import OPTIONS, _position\n"
        "obs = _position(Mode.EXPERT, 3, 5, 11)\n"
        "print(repr(search_native(obs, 12345, 300, None, OPTIONS)))"
    )
    here = Path(__file__).resolve().parent
    env = {**os.environ, "PYTHONPATH": str(here.parent / "support")}  # this module imports the helpers
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=here, env=env
    )
    assert out.stdout.strip() == repr(found)


def test_native_trees_in_threads_play_the_moves_of_one_thread() -> None:
    cfg = GameConfig(mode=Mode.CLASSIC, players=2, seed=4)
    serial = MCTSBot(iterations=60, trees=2, workers=1, options=SearchOptions(horizon=4), engine="native")
    threads = MCTSBot(iterations=60, trees=2, workers=2, options=SearchOptions(horizon=4), engine="native")
    try:
        a = play_match(cfg, [serial, make_bot("greedy")])
        b = play_match(cfg, [threads, make_bot("greedy")])
    finally:
        threads.close()
    assert a.moves == b.moves


def test_time_budget_ends_the_search() -> None:
    obs = _position(Mode.CLASSIC, 4, seed=1, actions=2)
    t = time.perf_counter()
    found = search_native(obs, 1, None, 0.05, OPTIONS)
    assert time.perf_counter() - t < 1.0 and sum(v for _, v, *_ in found) > 0


def test_native_mcts_beats_random() -> None:
    wins = 0
    for seed in range(4):
        cfg = GameConfig(mode=Mode.CLASSIC if seed % 2 else Mode.EXPERT, players=2, seed=seed)
        seats = [make_bot("mcts:iterations=300,engine=native"), make_bot("random")]
        if seed >= 2:
            seats.reverse()
        result = play_match(cfg, seats)
        wins += seats.index(next(b for b in seats if b.name != "random")) in result.outcome.winners
    assert wins >= 3


def test_engine_option() -> None:
    assert make_bot("mcts:engine=native").engine == "native"  # type: ignore[attr-defined]
    assert make_bot("hard:engine=Python").engine == "python"  # type: ignore[attr-defined]
    assert make_bot("medium").engine is None  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="engine must be 'python' or 'native'"):
        make_bot("mcts:engine=fortran")
    with pytest.raises(ConfigError, match="unknown option"):
        make_bot("greedy:engine=native")


def test_engine_native_is_refused_without_the_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "native", None)
    monkeypatch.setattr(engine, "_load_native", lambda: None)
    monkeypatch.setattr(engine, "unavailable", "No module named 'quadropolis._native'")
    with pytest.raises(QuadropolisError, match="engine=native, but the compiled engine is not available"):
        make_bot("mcts:engine=native")
    assert make_bot("mcts:engine=python").engine == "python"  # type: ignore[attr-defined]


def test_levels_search_natively_when_native_is_selected(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = nat.State.search

    def counted(self: nat.State, *args: object) -> object:
        calls.append(1)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(nat.State, "search", counted)
    obs = _position(Mode.CLASSIC, 2, seed=2, actions=4)
    with engine.using("native"):
        move = make_bot("hard:iterations=100", workers=1).choose(obs, random.Random(0))
    assert move in legal_moves(obs) and len(calls) == 2  # hard: two trees
    with engine.using("python"):
        make_bot("medium:iterations=20").choose(obs, random.Random(0))
    assert len(calls) == 2


BAD = [
    ({"seed": -1}, ValueError, "seed must be between 0"),
    ({"seed": 2**64}, ValueError, "seed is out of the signed 64-bit range"),
    ({"seed": 1.5}, TypeError, "seed must be an int"),
    ({"iterations": 0}, ValueError, "iterations must be between 1"),
    ({"iterations": True}, TypeError, "iterations must be an int"),
    ({"iterations": None, "seconds": None}, ValueError, "needs iterations or seconds"),
    ({"seconds": float("nan")}, ValueError, "seconds must be a finite number"),
    ({"seconds": -1.0}, ValueError, "seconds must be a finite number"),
    ({"c": float("inf")}, ValueError, "c must be a finite number"),
    ({"c": "0.7"}, TypeError, "c must be a number"),
    ({"pw_c": 0.0}, ValueError, "pw_c must be a finite number"),
    ({"pw_alpha": 1.5}, ValueError, "pw_alpha must be a finite number"),
    ({"horizon": -1}, ValueError, "horizon must be between 0"),
    ({"horizon": 1001}, ValueError, "horizon must be between 0"),
    ({"credit": -0.5}, ValueError, "credit must be a finite number"),
    ({"bias": False}, TypeError, "bias must be a number"),
    ({"fed": 1.5}, ValueError, "fed must be a finite number between 0"),
    ({"fed": float("nan")}, ValueError, "fed must be a finite number"),
    ({"greed": 1.01}, ValueError, "greed must be a finite number between 0"),
    ({"greed": "1"}, TypeError, "greed must be a number"),
]


@pytest.mark.parametrize(("change", "error", "message"), BAD, ids=[m for _, _, m in BAD])
def test_binding_search_refuses_bad_input(
    change: dict[str, object], error: type[Exception], message: str
) -> None:
    ns = to_native(_position(Mode.CLASSIC, 2, seed=0, actions=1))
    args: dict[str, object] = {"seed": 1, "iterations": 10, "seconds": None, **asdict(OPTIONS), **change}
    with pytest.raises(error, match=message):
        ns.search(**args)  # type: ignore[arg-type]


def test_binding_search_refuses_a_finished_game() -> None:
    ns = to_native(_position(Mode.CLASSIC, 2, seed=0, actions=0))
    ns.random_playout_seeded(0)
    assert ns.is_over()
    with pytest.raises(ValueError, match="the game is over"):
        ns.search(1, 10, None, 0.7, 2.0, 0.5, None, 1.0, 0.0, 0.0, 0.0)
