"""The compiled observation encoder and action mask (quadropolis.envs.native_obs) against the
Python ones of record (Encoder, action_mask), value for value: over more than 10,000 states of
random games in every mode, player count and variant, seen by every seat, plain and
normalised; hypothesis-drawn states; and the binding on bad input."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quadropolis import GameConfig, GameState, Mode, engine, native
from quadropolis import _native as nat
from quadropolis.envs.actions import NUM_ACTIONS, action_mask
from quadropolis.envs.encoder import Encoder
from quadropolis.envs.layout import OBSERVATION_SIZE
from quadropolis.envs.native_obs import NativeObserver, native_encoding
from quadropolis.envs.opponents import normalizer
from quadropolis.moves import move_number
from quadropolis.rules import apply_unchecked, legal_moves, new_game

CONFIGS = [
    (mode, players, blocks, absorb)
    for mode in Mode
    for players in (2, 3, 4)
    for blocks in ("lines", "square")
    for absorb in (False, True)
]


@pytest.fixture(autouse=True)
def _python_is_the_reference() -> Iterator[None]:
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


def _same(state: GameState, ns: nat.State, plain: NativeObserver, scaled: NativeObserver) -> int:
    """Assert both encoders agree on ``state`` for every observer; the states compared."""
    scale = normalizer()
    encoder = Encoder()
    for observer in range(state.config.players):
        expected = encoder.encode(state, observer)
        assert np.array_equal(plain.encode(ns, observer), expected), (state.to_json(), observer)
        assert np.array_equal(scaled.encode(ns, observer), expected * scale), (state.to_json(), observer)
    assert np.array_equal(plain.mask(ns), action_mask(state)), state.to_json()
    return 1


def test_ten_thousand_states_encode_identically() -> None:
    """Every state of random games (both native twins played move for move), every seat."""
    plain, scaled = NativeObserver(native), NativeObserver(native, normalize=True)
    states = 0
    game = 0
    while states < 10_000:
        state = new_game(_config(game, seed=game * 7919))
        ns = native.new_native(state.config)
        rng = random.Random(game)
        while True:
            states += _same(state, ns, plain, scaled)
            if state.is_over:
                break
            move = rng.choice(legal_moves(state))
            apply_unchecked(state, move)
            ns.apply(move_number(move))
        game += 1
    assert game >= len(CONFIGS)  # every configuration was played


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**62), i=st.integers(0, len(CONFIGS) - 1), steps=st.integers(0, 200))
def test_hypothesis_states(seed: int, i: int, steps: int) -> None:
    state = new_game(_config(i, seed))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        apply_unchecked(state, rng.choice(legal_moves(state)))
    _same(state, native.to_native(state), NativeObserver(native), NativeObserver(native, normalize=True))


def test_bad_arrays_and_observers_are_refused() -> None:
    enc = native_encoding(native)
    ns = native.new_native(GameConfig(players=3, seed=1))
    good = np.zeros(OBSERVATION_SIZE, np.float32)
    nat.encode(enc, ns, 2, False, good)
    assert good.any()
    for out in (
        np.zeros(OBSERVATION_SIZE - 1, np.float32),  # too short
        np.zeros((1, OBSERVATION_SIZE), np.float32),  # two-dimensional
    ):
        with pytest.raises(ValueError, match="shape"):
            nat.encode(enc, ns, 0, False, out)
    with pytest.raises(TypeError):  # another dtype: no implicit conversion
        nat.encode(enc, ns, 0, False, np.zeros(OBSERVATION_SIZE, np.float64))
    with pytest.raises(TypeError):  # not contiguous
        nat.encode(enc, ns, 0, False, np.zeros(2 * OBSERVATION_SIZE, np.float32)[::2])
    for observer in (-1, 3):
        with pytest.raises(ValueError, match="observer"):
            nat.encode(enc, ns, observer, False, good)
    with pytest.raises(ValueError, match="shape"):
        nat.action_mask(ns, np.zeros(NUM_ACTIONS + 1, np.int8))
    with pytest.raises(TypeError):
        nat.action_mask(ns, np.zeros(NUM_ACTIONS, np.int64))


def test_a_bad_layout_is_refused() -> None:
    """The Encoding checks what it is handed: every offset inside the vector, in order."""
    enc = native_encoding(native)
    scale = normalizer()
    with pytest.raises(ValueError, match="parts"):
        nat.Encoding((1, 2, 3), b"", b"", b"", scale)
    with pytest.raises(ValueError, match="invalid encoding"):
        nat.Encoding((enc.size,) + (0,) * 22, b"", b"", b"", scale)
    with pytest.raises(ValueError, match="invalid encoding"):
        nat.Encoding((10, *range(1, 23)), b"", b"", b"", scale)
