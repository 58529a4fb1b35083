"""The observation encoder: :class:`Encoder` (one per environment: it rewrites only what
changed since its last call) and :func:`encode` (a fresh one each call, the same result).

The hot path of every adapter: its per-step work was measured (docs/rl.md, "Measured"), so
keep it free of extra Python calls. It writes the parts of :mod:`.layout` through the byte
tables of :mod:`.tables`.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not, ne

import numpy as np
import numpy.typing as npt

from ..city import GEOMETRY, Building
from ..config import GameConfig
from ..phases import PLACE, TAKE
from ..state import GameState
from ..tiles import Mode
from .layout import CITY_FEATURES, KIND_OF_TILE, OBSERVATION_SIZE
from .tables import (
    BLOCKED,
    BLOCKED_BYTES,
    CITY,
    CITY_BLOCK,
    EMPTY_HAND,
    ENERGY,
    FACE_DOWN,
    HAND,
    HAND_ARCH,
    HAND_ARCH_BYTES,
    INHABITANTS,
    KIND_BYTES,
    MAYOR,
    NO_FEATURES,
    NO_KIND,
    NO_URBANIST,
    NOT_BLOCKED,
    ONES,
    PHASE,
    POOL,
    POSITION,
    PRESENT,
    PRESENT_BYTES,
    ROTATION,
    ROUND_BYTES,
    ROUND_END,
    SEAT_BYTES,
    SITE,
    SITE_HOT,
    SLOT_BYTES,
    SLOT_HI,
    SLOT_LO,
    SQUARES,
    STARTER,
    STATIC_BYTES,
    STATIC_END,
    TO_MOVE,
    TURN,
    URBANIST,
    URBANIST_BYTES,
    USED_BYTES,
    USED_HOT,
    ConfigKey,
    byte_block,
    square_features,
    static_block,
)

__all__ = ["Encoder", "encode"]


class Encoder:
    """Encodes observations. Every value of an observation is a whole number 0-255 (counts
    included, in a real game), so the encoder keeps, as bytes, the observation of the last
    position it encoded as seat 0 sees it without the position's one-hot bits, and copies of
    what it was built from (the site, every city, the counts, the round, the configuration).
    At each call it rewrites only the parts whose source differs in the new state (a city
    changes when its owner builds, the site at each take), copies the bytes, rotates the
    seats' parts to the observer's view, writes the position's bits and converts to float32
    in one numpy call. One encoder per environment; :func:`encode` uses a fresh one. The
    result never depends on the cache: any state may follow any other, for any observer."""

    __slots__ = (
        "_base",
        "_buf",
        "_bytes",
        "_cities",
        "_config",
        "_counts",
        "_face_down",
        "_key",
        "_pool",
        "_round",
        "_site",
        "_wide_counts",
        "_wide_pool",
    )

    def __init__(self) -> None:
        # The bytes of the observation being encoded, seen as uint8 by numpy: converted to
        # float32 in one call. Never resized (numpy holds a view of it).
        self._buf = bytearray(OBSERVATION_SIZE)
        self._bytes = np.frombuffer(self._buf, np.uint8)
        self._base = bytearray(OBSERVATION_SIZE)
        self._config: GameConfig | None = None
        self._key: ConfigKey | None = None
        self._round = 0
        self._site: list[int] = []
        self._face_down = 0
        self._cities: list[list[Building | None]] = []
        self._counts: tuple[list[int], list[int]] | None = None  # inhabitants, energy
        self._pool: list[int] | None = None  # Expert: the architects' pool
        # A count that is not a byte (a state made by hand): written as a float at the end.
        self._wide_counts = self._wide_pool = False

    def reset(self) -> None:
        """Forget the cached observation (optional: it is checked against the state)."""
        self._config = self._key = None

    def __reduce__(self) -> tuple[type[Encoder], tuple[()]]:
        # A copy (copy, deepcopy, pickle) is a fresh encoder: numpy's view of the buffer would
        # not survive one, and the cache is rebuilt from the next state anyway.
        return (Encoder, ())

    def encode(
        self, state: GameState, observer: int, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """The observation of ``state`` by seat ``observer`` (written into ``out`` if given,
        else a new array)."""
        cfg = state.config
        if cfg is not self._config:
            self._configure(cfg)
        base = self._base
        if state.round != self._round:
            base[STATIC_END:ROUND_END] = ROUND_BYTES[cfg.mode, cfg.players, state.round]
            self._round = state.round
        if state.site != self._site or state.face_down != self._face_down:
            self._update_site(state)
        if state.cities != self._cities:
            self._update_cities(state)
        counts = self._counts
        if counts is None or state.inhabitants != counts[0] or state.energy != counts[1]:
            self._update_counts(state)
        classic = cfg.mode is Mode.CLASSIC
        architects = state.architects
        if not classic and architects[1:6] != self._pool:
            self._update_pool(architects)

        n = cfg.players
        o = observer % n
        buf = self._buf
        buf[:] = base
        if o:  # the observer's seat first: rotate the cities and the counts
            at = CITY.offset + o * CITY_BLOCK
            end = CITY.offset + n * CITY_BLOCK
            buf[CITY.offset : end] = base[at:end] + base[CITY.offset : at]
            at, end = INHABITANTS + o, INHABITANTS + n
            buf[INHABITANTS:end] = base[at:end] + base[INHABITANTS:at]
            at, end = ENERGY + o, ENERGY + n
            buf[ENERGY:end] = base[at:end] + base[ENERGY:at]

        # The position.
        buf[TURN + state.turn - 1] = 1
        phase = state.phase
        if phase == TAKE:
            buf[PHASE] = 1
        elif phase == PLACE:
            buf[PHASE + 1] = 1
        u = state.urbanist
        if u < 25 and (phase != PLACE or 1 <= state.pending_architect <= 5):
            slots = state.slots_used
            pieces = [
                URBANIST_BYTES[u] if u >= 0 else NO_URBANIST,
                SLOT_BYTES[slots & 1023],
                SLOT_BYTES[slots >> 10],
                BLOCKED_BYTES[u] if u >= 0 and cfg.urbanist_blocks == "lines" else NOT_BLOCKED,
                KIND_BYTES[state.pending_tile] if phase == PLACE else EMPTY_HAND,
            ]
            if phase == PLACE:
                pieces.append(HAND_ARCH_BYTES[state.pending_architect - 1])
            pieces.append(PRESENT_BYTES[n])
            pieces.append(SEAT_BYTES[(state.starter + state.position - observer) % n])
            pieces.append(SEAT_BYTES[(state.mayor - observer) % n])
            pieces.append(SEAT_BYTES[(state.starter - observer) % n])
            if classic:
                for p in ROTATION[n][o]:
                    pieces.append(USED_BYTES[architects[p]])
            part = b"".join(pieces)
            buf[POSITION : POSITION + len(part)] = part
        else:  # an urbanist or an architect off the tables (a state made by hand)
            any(map(buf.__setitem__, _position_bits(state, observer), ONES))

        if out is None:
            obs = self._bytes.astype(np.float32)
        else:
            obs = out
            obs[:] = self._bytes
        if self._wide_counts or self._wide_pool:
            _write_counts(obs, state, o)
        return obs

    def _configure(self, cfg: GameConfig) -> None:
        """Point at ``cfg``; start afresh unless only the seed (or the object) changed."""
        self._config = cfg
        key = (cfg.mode, cfg.players, cfg.urbanist_blocks, cfg.all_parks_absorb)
        if key == self._key:
            return
        self._key = key
        static = STATIC_BYTES.get(key)
        if static is None:
            static = STATIC_BYTES[key] = byte_block(static_block(cfg))
        n = cfg.players
        base = self._base = bytearray(OBSERVATION_SIZE)
        base[:STATIC_END] = static
        base[PRESENT : PRESENT + n] = b"\1" * n
        # What the zeros of base show: no round (its block is written next), an empty site,
        # empty cities, no counts (written next), the pool: zeros in Classic.
        self._round = 0
        self._site = [-1] * 25
        self._face_down = 0
        size = GEOMETRY[cfg.mode].size
        self._cities = [[None] * size for _ in range(n)]
        self._counts = None
        self._pool = None if cfg.mode is Mode.EXPERT else [0] * 5
        self._wide_counts = self._wide_pool = False

    def _update_site(self, state: GameState) -> None:
        base = self._base
        site, fd = state.site, state.face_down
        if fd != self._face_down or len(site) != 25:
            # A new round (every square's features depend on its face-down bit): rewrite all.
            tiles = [site[q] for q in SQUARES]
            down = [t >= 0 and fd >> q & 1 for q, t in enumerate(tiles)]
            base[SITE:FACE_DOWN] = b"".join(
                [NO_KIND if t < 0 or d else KIND_BYTES[t] for t, d in zip(tiles, down, strict=True)]
            )
            base[FACE_DOWN : FACE_DOWN + 25] = bytes(down)
            self._site = tiles
            self._face_down = fd
            return
        snap = self._site
        # A take changes the urbanist's square alone: try it first.
        q = state.urbanist
        if 0 <= q < 25 and site[q] != snap[q]:
            _set_square(base, snap, q, site[q], fd)
            if site == snap:
                return
        for q in compress(SQUARES, map(ne, site, snap)):  # the changed squares, at C speed
            _set_square(base, snap, q, site[q], fd)

    def _update_cities(self, state: GameState) -> None:
        base = self._base
        cols = state.geometry.cols
        snaps = self._cities
        for p in range(len(snaps)):
            city = state.cities[p]
            snap = snaps[p]
            if city == snap:  # identical buildings compare at C speed
                continue
            start = CITY.offset + p * CITY_BLOCK
            if len(snap) != len(city):  # not a city of this mode: start from an empty one
                base[start : start + CITY_BLOCK] = bytes(CITY_BLOCK)
                snap = snaps[p] = [None] * len(city)
            # Buildings are immutable: a new object is a change (found at C speed).
            for q in compress(range(len(city)), map(is_not, city, snap)):
                b = city[q]
                at = start + (q // cols * 5 + q % cols) * CITY_FEATURES
                base[at : at + CITY_FEATURES] = NO_FEATURES if b is None else square_features(b)
                snap[q] = b

    def _update_counts(self, state: GameState) -> None:
        inh, en = state.inhabitants, state.energy
        n = len(self._cities)  # the player count
        self._counts = (inh[:], en[:])
        try:
            if len(inh) != n or len(en) != n:
                raise ValueError
            counts = bytes(inh), bytes(en)  # ValueError, TypeError: not bytes
        except (ValueError, TypeError):
            self._wide_counts = True
        else:
            self._base[INHABITANTS : INHABITANTS + n] = counts[0]
            self._base[ENERGY : ENERGY + n] = counts[1]
            self._wide_counts = False

    def _update_pool(self, architects: list[int]) -> None:
        self._pool = pool = architects[1:6]
        try:
            self._base[POOL : POOL + 5] = bytes(pool)  # ValueError, TypeError: not bytes
            self._wide_pool = False
        except (ValueError, TypeError):
            self._wide_pool = True


def _set_square(base: bytearray, snap: list[int], q: int, t: int, fd: int) -> None:
    """Site square ``q`` now holds tile ``t`` (-1: none), face down if ``fd`` says so."""
    old = snap[q]
    if old >= 0:
        base[FACE_DOWN + q if fd >> q & 1 else SITE_HOT[old][q]] = 0
    if t >= 0:
        base[FACE_DOWN + q if fd >> q & 1 else SITE_HOT[t][q]] = 1
    snap[q] = t


def _position_bits(state: GameState, observer: int) -> list[int]:
    """The offsets of the position's bits from the urbanist to the architects used (bar
    the seats present, already in the base): the general way, for any values."""
    cfg = state.config
    n = cfg.players
    hot = []
    if state.phase == PLACE:
        hot.append(HAND + KIND_OF_TILE[state.pending_tile])
        hot.append(HAND_ARCH + state.pending_architect - 1)
    slots = state.slots_used
    hot.extend(SLOT_LO[slots & 1023])
    hot.extend(SLOT_HI[slots >> 10])
    u = state.urbanist
    if u >= 0:
        hot.append(URBANIST + u)
        if cfg.urbanist_blocks == "lines":
            hot.extend(BLOCKED[u])
    hot.append(TO_MOVE + (state.starter + state.position - observer) % n)
    hot.append(MAYOR + (state.mayor - observer) % n)
    hot.append(STARTER + (state.starter - observer) % n)
    if cfg.mode is Mode.CLASSIC:
        for r, p in enumerate(ROTATION[n][observer % n]):
            hot.extend(USED_HOT[r][state.architects[p]])
    return hot


def _write_counts(obs: npt.NDArray[np.float32], state: GameState, observer: int) -> None:
    """Write the counts (inhabitants, energy, Expert pool) as floats, whatever their values."""
    n = state.config.players
    for r in range(n):
        p = (observer + r) % n
        obs[INHABITANTS + r] = state.inhabitants[p]
        obs[ENERGY + r] = state.energy[p]
    if state.config.mode is not Mode.CLASSIC:
        obs[POOL : POOL + 5] = state.architects[1:6]


def encode(state: GameState, observer: int) -> npt.NDArray[np.float32]:
    """The observation of ``state`` by seat ``observer`` (see :data:`LAYOUT`)."""
    return Encoder().encode(state, observer)
