"""The compiled engine (quadropolis._native, through quadropolis.native) against the Python
engine of record, move by move: legal move lists (same order), apply, state round trips,
scoring (totals, breakdown and its key order, tie-breakers, placement), the greedy bot's
values, whole seeded playouts (moves, final state, the rng stream after them) and the golden
transcripts. Over 10,000 states of random games in every mode, player count and variant."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quadropolis import GameConfig, GameRecord, GameState, Mode, engine
from quadropolis.bots.simple import GreedyBot
from quadropolis.citygen import random_city
from quadropolis.errors import IllegalMoveError
from quadropolis.moves import MOVES, Move
from quadropolis.native import (
    apply_native,
    from_native,
    greedy_values_native,
    new_native,
    projected_score_native,
    random_game_native,
    random_playout_native,
    score_city_native,
    score_native,
    to_native,
)
from quadropolis.outcome import fed_score, outcome, projected_score
from quadropolis.playout import random_playout
from quadropolis.rules import (
    apply,
    apply_unchecked,
    explain_illegal,
    legal_move_numbers,
    legal_moves,
    new_game,
)
from quadropolis.scoring import score_city

GOLDEN = sorted((Path(__file__).parents[1] / "engine" / "golden").glob("*.json"))

#: Every mode and player count, both urbanist variants, with and without all_parks_absorb.
CONFIGS = [
    (mode, players, blocks, absorb)
    for mode in Mode
    for players in (2, 3, 4)
    for blocks in ("lines", "square")
    for absorb in (False, True)
]


@pytest.fixture(autouse=True)
def _python_is_the_reference() -> Iterator[None]:
    """Every reference here is the Python engine's (the engine-neutral entry points such as
    random_playout and GreedyBot would otherwise go native); the native side is called
    explicitly through quadropolis.native."""
    with engine.using("python"):
        yield


def _config(i: int, seed: int) -> GameConfig:
    mode, players, blocks, absorb = CONFIGS[i % len(CONFIGS)]
    return GameConfig(
        mode=mode,
        players=players,
        seed=seed,
        first_player=seed % players,
        urbanist_blocks=blocks,
        all_parks_absorb=absorb,
    )


def _same_score(state: GameState, player: int) -> None:
    absorb = state.config.all_parks_absorb
    expected = score_city(state.city(player), all_parks_absorb=absorb)
    got = score_city_native(state.city(player), all_parks_absorb=absorb)
    assert got == expected
    assert list(got.breakdown) == list(expected.breakdown)


def test_ten_thousand_states_agree_move_by_move() -> None:
    """Every state of random games: the same legal moves in the same order, the same state
    after each move, the same score of the mover's city; 10,000 states or more."""
    rng = random.Random(19)
    states = games = 0
    while states < 10_000:
        config = _config(games, rng.getrandbits(63) - 2**62)
        games += 1
        state = new_game(config)
        ns = new_native(config)
        assert from_native(ns, config) == state
        while not state.is_over:
            numbers = legal_move_numbers(state)
            assert ns.legal_moves() == numbers
            assert ns.current_player() == state.current_player
            move = numbers[int(rng.random() * len(numbers))]
            if states % 3 == 0:  # a third of the states: scoring and the conversion both ways
                _same_score(state, state.current_player)
                assert from_native(to_native(state), config) == state
            apply_unchecked(state, MOVES[move])
            ns.apply(move)
            states += 1
        assert ns.is_over() and ns.legal_moves() == []
        assert from_native(ns, config) == state
        for p in range(config.players):
            assert score_native(ns, p, all_parks_absorb=config.all_parks_absorb) == score_city(
                state.city(p), all_parks_absorb=config.all_parks_absorb
            )


@pytest.mark.parametrize("i", range(len(CONFIGS)))
def test_seeded_playouts_agree(i: int) -> None:
    """random_playout_native plays the very game random_playout plays and leaves the rng
    where it leaves it (the next draws are equal)."""
    for seed in (0, 1, -(2**63), 2**63 - 1, 977 + i):
        config = _config(i, seed)
        rng_py, rng_nat = random.Random(f"playout/{seed}"), random.Random(f"playout/{seed}")
        rng_py.gauss(0, 1)  # a pending gauss value must survive the hand-over too
        rng_nat.gauss(0, 1)
        moves_py: list[Move] = []
        moves_nat: list[Move] = []
        final_py = random_playout(config, rng_py, moves_py)
        final_nat = random_playout_native(config, rng_nat, moves_nat)
        assert moves_nat == moves_py
        assert final_nat == final_py
        assert rng_nat.getstate() == rng_py.getstate()
        assert [rng_nat.random() for _ in range(3)] == [rng_py.random() for _ in range(3)]


def _random_state(rng: random.Random, i: int) -> GameState:
    state = new_game(_config(i, rng.getrandbits(62)))
    for _ in range(rng.randrange(0, 140)):
        if state.is_over:
            break
        moves = legal_moves(state)
        apply_unchecked(state, moves[int(rng.random() * len(moves))])
    return state


def test_greedy_values_agree() -> None:
    """GreedyBot.values, tuple for tuple and in order, in take and place phases (300 states)."""
    rng = random.Random(7)
    bot = GreedyBot()
    phases = set()
    for i in range(300):
        state = _random_state(rng, i)
        assert greedy_values_native(state) == bot.values(state)
        phases.add(state.phase)
    assert {0, 1} <= phases


def test_random_cities_score_identically() -> None:
    rng = random.Random(2016)
    for i in range(3000):
        mode = Mode.EXPERT if i % 2 else Mode.CLASSIC
        city = random_city(rng, mode)
        for absorb in (False, True):
            expected = score_city(city, all_parks_absorb=absorb)
            got = score_city_native(city, all_parks_absorb=absorb)
            assert got == expected
            assert list(got.breakdown) == list(expected.breakdown)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(-(2**63), 2**63 - 1), mode=st.sampled_from(list(Mode)), filled=st.integers(0, 20))
def test_hypothesis_cities(seed: int, mode: Mode, filled: int) -> None:
    city = random_city(random.Random(seed), mode, filled=min(filled, 16 if mode is Mode.CLASSIC else 20))
    for absorb in (False, True):
        assert score_city_native(city, all_parks_absorb=absorb) == score_city(city, all_parks_absorb=absorb)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**62), i=st.integers(0, len(CONFIGS) - 1), steps=st.integers(0, 160))
def test_hypothesis_states(seed: int, i: int, steps: int) -> None:
    """A state reached by `steps` random moves: the same moves, the same state after each of
    them, the same round trip and the same scores."""
    rng = random.Random(seed)
    state = new_game(_config(i, seed))
    for _ in range(steps):
        if state.is_over:
            break
        moves = legal_moves(state)
        apply_unchecked(state, moves[int(rng.random() * len(moves))])
    ns = to_native(state)
    assert from_native(ns, state.config) == state
    assert ns.legal_moves() == legal_move_numbers(state)
    for p in range(state.config.players):
        _same_score(state, p)
    copy = ns.copy()
    for move in ns.legal_moves():
        trial = copy.copy()
        trial.apply(move)
        expected = state.copy()
        apply_unchecked(expected, MOVES[move])
        assert from_native(trial, state.config) == expected
    assert copy.fields() == ns.fields()


def test_illegal_moves_raise_the_python_engines_error() -> None:
    rng = random.Random(3)
    for i in range(len(CONFIGS)):
        state = _random_state(rng, i)
        ns = to_native(state)
        legal = set(legal_move_numbers(state))
        for k in range(len(MOVES)):
            move = MOVES[k]
            if k in legal:
                continue
            with pytest.raises(IllegalMoveError) as native_error:
                apply_native(ns, move)
            with pytest.raises(IllegalMoveError) as python_error:
                apply(state, move)
            assert str(native_error.value) == str(python_error.value)
            assert explain_illegal(state, move) == str(python_error.value)
        assert ns.fields() == to_native(state).fields()  # illegal moves leave the state alone


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_transcripts_replay_natively(path: Path) -> None:
    data = json.loads(path.read_text())
    record = GameRecord.from_json(data)
    config = record.config
    state = new_game(config)
    ns = new_native(config)
    for text in record.moves:
        move = Move.parse(text)
        state = apply(state, move)
        apply_native(ns, move)
        assert from_native(ns, config) == state
    assert ns.is_over()
    assert record.result is not None
    totals = [
        score_native(ns, p, all_parks_absorb=config.all_parks_absorb).total for p in range(config.players)
    ]
    assert totals == record.result["scores"]
    played: list[Move] = []
    random_playout_native(config, random.Random(f"playout/{config.seed}"), played)
    assert [str(m) for m in played] == list(record.moves)


@pytest.mark.parametrize("i", range(len(CONFIGS)))
def test_seeded_games_agree_without_handing_the_generator_over(i: int) -> None:
    """random_game_native seeds its generator natively (int and str seeds, as random.Random
    does) and gives the moves and final scores of the Python playout."""
    for seed in (0, -5, 2**63 - 1, f"playout/{i}", "é/ünïcode", ""):
        config = _config(i, i)
        moves: list[Move] = []
        final = random_playout(config, random.Random(seed), moves)
        got_moves, got_scores = random_game_native(config, seed)
        assert got_moves == moves
        assert got_scores == outcome(final).scores


def test_projected_scores_agree_along_games() -> None:
    rng = random.Random(11)
    for i in range(120):
        state = _random_state(rng, i)
        for p in range(state.config.players):
            got, want = projected_score_native(state, p), projected_score(state, p)
            assert got == want
            # the same breakdown order too: JSON output lists the categories as the dict does
            assert list(got.breakdown.items()) == list(want.breakdown.items())


def test_fed_scores_agree_along_games() -> None:
    """The fed score (every building fed: resources in plenty) scores natively too."""
    rng = random.Random(12)
    for i in range(120):
        state = _random_state(rng, i)
        for p in range(state.config.players):
            want = fed_score(state, p)
            with engine.using("native"):
                assert fed_score(state, p) == want
