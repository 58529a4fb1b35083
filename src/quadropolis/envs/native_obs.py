"""The observation and the action mask computed by the compiled engine: the very
values of :class:`~.encoder.Encoder` and :func:`~.actions.action_mask`, written straight
into NumPy arrays from a native state, for the adapters' hot paths (the Gymnasium env when
the native engine is selected, and the batched env of :mod:`.vector`).

The compiled encoder holds no layout of its own: :func:`native_encoding` hands it this
package's (:mod:`.layout`: the part offsets; :mod:`.tables`: the static and round blocks,
the kind of each tile; :func:`~.opponents.normalizer`: the normalisation), so the layout keeps
one source. tests/native/test_observation.py compares both encoders over many states.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import engine
from ..buildings import BuildingType
from ..config import GameConfig
from ..moves import Move, move_number
from ..tiles import ROUNDS, Mode
from .actions import NUM_ACTIONS
from .layout import CITY_FEATURES, KIND_CODES, KIND_OF_TILE, OBSERVATION_SIZE, PARTS, observation_high
from .tables import CITY, ROUND_BYTES, STATIC_END, byte_block, static_block

__all__ = ["NativeObserver", "NativeTwin", "native_encoding"]

#: The compiled engine's order of modes (quadropolis.native: 0 Classic, 1 Expert).
_MODES = (Mode.CLASSIC, Mode.EXPERT)
_MAX_ROUNDS = 5


def _parts() -> tuple[int, ...]:
    """The offsets and sizes in the order of native/include/quadropolis/observation.hpp's Part."""
    offset = {name: part.offset for name, part in PARTS.items()}
    return (
        OBSERVATION_SIZE,
        STATIC_END,
        offset["turn"],
        offset["phase"],
        offset["site_tile"],
        offset["site_face_down"],
        offset["urbanist"],
        offset["slot_used"],
        offset["slot_blocked"],
        offset["hand_tile"],
        offset["hand_architect"],
        offset["seat_present"],
        offset["seat_to_move"],
        offset["seat_mayor"],
        offset["seat_starter"],
        offset["architects_used"],
        CITY.offset,
        offset["inhabitants"],
        offset["energy"],
        offset["pool"],
        CITY_FEATURES,
        len(KIND_CODES),
        int(BuildingType.PARK),
    )


def _static_blocks() -> bytes:
    """The static block of every configuration: [mode][players][square variant][all parks absorb]."""
    blocks = []
    for mode in _MODES:
        for players in (2, 3, 4):
            for square in (False, True):
                for absorb in (False, True):
                    config = GameConfig(
                        mode=mode,
                        players=players,
                        urbanist_blocks="square" if square else "lines",
                        all_parks_absorb=absorb,
                    )
                    blocks.append(byte_block(static_block(config)))
    return b"".join(blocks)


def _round_blocks() -> bytes:
    """The round block of every (mode, players, round 1-5); zeros for a round a mode lacks."""
    size = PARTS["turn"].offset - STATIC_END
    return b"".join(
        ROUND_BYTES[mode, players, rnd] if rnd <= ROUNDS[mode] else bytes(size)
        for mode in _MODES
        for players in (2, 3, 4)
        for rnd in range(1, _MAX_ROUNDS + 1)
    )


@functools.cache
def native_encoding(native: ModuleType) -> Any:
    """The compiled engine's ``Encoding`` of this package's layout (made once)."""
    scale = (1.0 / observation_high()).astype(np.float32)  # opponents.normalizer, without the import cycle
    return native.Encoding(_parts(), _static_blocks(), _round_blocks(), bytes(KIND_OF_TILE), scale)


class NativeObserver:
    """Observations and masks of native states (``quadropolis.native``'s ``_native.State``)
    by the compiled engine: the same values as :class:`~.encoder.Encoder` (divided by their
    bounds if ``normalize``) and :func:`~.actions.action_mask`."""

    __slots__ = ("_encode", "_encoding", "_mask", "normalize")

    def __init__(self, native: ModuleType, normalize: bool = False) -> None:
        self._encoding = native_encoding(native)
        self._encode = native.encode_into
        self._mask = native.action_mask_into
        self.normalize = normalize

    def encode(self, ns: Any, observer: int) -> npt.NDArray[np.float32]:
        """The observation of ``ns`` by seat ``observer`` (a new array)."""
        out = np.empty(OBSERVATION_SIZE, np.float32)
        self._encode(self._encoding, ns, observer, self.normalize, out)
        return out

    def mask(self, ns: Any) -> npt.NDArray[np.int8]:
        """The action mask of ``ns`` (a new array; all zeros once the game is over)."""
        out = np.empty(NUM_ACTIONS, np.int8)
        self._mask(ns, out)
        return out


class NativeTwin:
    """A game's native twin for an adapter with the compiled engine selected: a native state
    played move for move with the adapter's Python state (:meth:`play`), from which the
    observations and masks are computed (:meth:`encode`, :meth:`mask`): the Python state's
    values (tests/envs/test_native_env.py)."""

    __slots__ = ("_observer", "state")

    def __init__(self, state: Any, observer: NativeObserver) -> None:
        self.state = state
        self._observer = observer

    @staticmethod
    def start(config: GameConfig, normalize: bool) -> NativeTwin | None:
        """The twin of the new game of ``config`` if the compiled engine is selected, else None."""
        native = engine.current()
        if native is None:
            return None
        return NativeTwin(native.new_native(config), NativeObserver(native, normalize))

    def __reduce__(self) -> tuple[Any, tuple[tuple[int, ...], bool]]:
        # A copy (copy, deepcopy, pickle: an env is copied with its twin) rebuilds the native
        # state from its fields; the compiled functions themselves do not pickle.
        return (_restore_twin, (self.state.fields(), self._observer.normalize))

    def play(self, move: Move | int) -> None:
        """Apply ``move`` (a move or its number), just applied to the Python state."""
        self.state.apply(move if isinstance(move, int) else move_number(move))

    def encode(self, observer: int) -> npt.NDArray[np.float32]:
        return self._observer.encode(self.state, observer)

    def mask(self) -> npt.NDArray[np.int8]:
        return self._observer.mask(self.state)


def _restore_twin(fields: tuple[int, ...], normalize: bool) -> NativeTwin:
    """A copied twin (see :meth:`NativeTwin.__reduce__`): needs the compiled engine."""
    from .. import native

    return NativeTwin(native.State(fields), NativeObserver(native, normalize))
