"""The byte tables behind the observation layout (:mod:`.layout`): the offset of every part
the encoder writes, and the byte patterns it joins (one byte per value, every value a whole
number 0-255), built once at import. :mod:`.encoder` reads them; nothing here is public API.

Every pattern is indexed as its offset table is (a negative index too), so the fast path
(the patterns) and the general path (the offsets) set the same bits.
"""

from __future__ import annotations

from itertools import repeat
from typing import Final

import numpy as np
import numpy.typing as npt

from ..buildings import BuildingType
from ..city import GEOMETRY, Building
from ..config import GameConfig
from ..site import BLOCKED_SLOTS
from ..tiles import ROUNDS, TILES, Mode
from .layout import CITY_FEATURES, KIND_OF_TILE, LAYOUT, OBSERVATION_SIZE, PARTS, views

STATIC_END: Final = PARTS["round"].offset
ROUND_END: Final = PARTS["turn"].offset
CITY: Final = PARTS["city"]
CITY_BLOCK: Final = 20 * CITY_FEATURES


def static_block(config: GameConfig) -> npt.NDArray[np.float32]:
    """The parts constant for a configuration (up to the round), as floats."""
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    v = views(obs)
    mode = config.mode
    v["mode"][0 if mode is Mode.CLASSIC else 1] = 1
    v["players"][config.players - 2] = 1
    v["variants"][:] = (config.urbanist_blocks == "square", config.all_parks_absorb)
    geo = GEOMETRY[mode]
    for q in range(geo.size):
        r, c = divmod(q, geo.cols)
        cq = r * 5 + c
        v["square_exists"][cq] = 1
        v["square_district"][cq, geo.district[q] - 1] = 1
        if geo.number is not None:
            v["square_number"][cq, geo.number[q] - 1] = 1
        for n in range(1, geo.architects + 1):
            if q in geo.eligible[n]:
                v["square_eligible"][n - 1, cq] = 1
    return obs[:STATIC_END].copy()


def _round_block(mode: Mode, players: int, rnd: int) -> npt.NDArray[np.float32]:
    """The parts constant for a round (the round, the tiles to come), as floats."""
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    v = views(obs)
    v["round"][rnd - 1] = 1
    for t in TILES:
        if t.in_mode(mode) and t.round > rnd and t.min_players <= players:
            v["to_come"][KIND_OF_TILE[t.id]] += 1
    return obs[STATIC_END:ROUND_END].copy()


ConfigKey = tuple[Mode, int, str, bool]  # what the static block depends on: a config without its seed
_ROUND: Final = {
    (m, n, r): _round_block(m, n, r) for m in Mode for n in (2, 3, 4) for r in range(1, ROUNDS[m] + 1)
}


def _bits(offset: int, width: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(width) if m >> i & 1) for m in range(1 << width))


SITE: Final = PARTS["site_tile"].offset
FACE_DOWN: Final = PARTS["site_face_down"].offset
URBANIST: Final = PARTS["urbanist"].offset
SLOT_LO: Final = _bits(PARTS["slot_used"].offset, 10)
SLOT_HI: Final = _bits(PARTS["slot_used"].offset + 10, 10)
BLOCKED: Final = tuple(
    tuple(PARTS["slot_blocked"].offset + i for i in range(20) if BLOCKED_SLOTS[q] >> i & 1) for q in range(25)
)
# The offsets of the parts written one value at a time (named as their parts are).
TURN, PHASE, HAND, HAND_ARCH = (PARTS[n].offset for n in ("turn", "phase", "hand_tile", "hand_architect"))
PRESENT, TO_MOVE, MAYOR, STARTER = (
    PARTS[n].offset for n in ("seat_present", "seat_to_move", "seat_mayor", "seat_starter")
)
_USED, INHABITANTS, ENERGY, POOL = (
    PARTS[n].offset for n in ("architects_used", "inhabitants", "energy", "pool")
)
USED_HOT: Final = tuple(
    tuple(tuple(_USED + r * 5 + a - 1 for a in (1, 2, 3, 4) if m >> a & 1) for m in range(32))
    for r in range(4)
)
#: SITE_HOT[t][q]: the offset set by tile t face up on site square q (its kind's feature).
SITE_HOT: Final = tuple(tuple(SITE + q * 21 + k for q in range(25)) for k in KIND_OF_TILE)
SQUARES: Final = range(25)
ONES: Final = repeat(1)


def _one_hot(width: int, i: int) -> bytes:
    b = bytearray(width)
    b[i] = 1
    return bytes(b)


# Byte patterns of parts, indexed as the offset tables above are (a negative index too), so
# both give the same bits. The position's parts from the urbanist to the architects used are
# contiguous: they are written as one slice, joined from the patterns.
KIND_BYTES: Final = tuple(_one_hot(21, k) for k in KIND_OF_TILE)  # per tile id
NO_KIND: Final = bytes(21)
POSITION: Final = URBANIST
assert [p.name for p in LAYOUT if URBANIST <= p.offset < CITY.offset] == [
    "urbanist",
    "slot_used",
    "slot_blocked",
    "hand_tile",
    "hand_architect",
    "seat_present",
    "seat_to_move",
    "seat_mayor",
    "seat_starter",
    "architects_used",
]
URBANIST_BYTES: Final = tuple(_one_hot(25, q) for q in range(25))
NO_URBANIST: Final = bytes(25)
SLOT_BYTES: Final = tuple(bytes(m >> i & 1 for i in range(10)) for m in range(1024))  # 10 slots
BLOCKED_BYTES: Final = tuple(bytes(BLOCKED_SLOTS[q] >> i & 1 for i in range(20)) for q in range(25))
NOT_BLOCKED: Final = bytes(20)
HAND_ARCH_BYTES: Final = tuple(_one_hot(5, a - 1) for a in range(1, 6))  # per architect - 1
EMPTY_HAND: Final = bytes(21 + 5)
PRESENT_BYTES: Final = {n: b"\1" * n + bytes(4 - n) for n in (2, 3, 4)}
SEAT_BYTES: Final = tuple(_one_hot(4, r) for r in range(4))
USED_BYTES: Final = tuple(bytes(m >> a & 1 for a in (1, 2, 3, 4)) + b"\0" for m in range(32))
#: ROTATION[n][observer]: the seat of each relative seat.
ROTATION: Final = {n: tuple(tuple((o + r) % n for r in range(n)) for o in range(n)) for n in (2, 3, 4)}


def byte_block(block: npt.NDArray[np.float32]) -> bytes:
    """``block`` (whole numbers 0-255) as bytes: one byte per value."""
    out = block.astype(np.uint8)
    assert np.array_equal(out, block)  # exact: every value of a block is a small count
    return out.tobytes()


STATIC_BYTES: dict[ConfigKey, bytes] = {}
ROUND_BYTES: Final = {key: byte_block(block) for key, block in _ROUND.items()}


def _building_features(b: Building) -> list[int]:
    """Offsets, within one city square's features, of the ones set by ``b``."""
    hot = [int(b.type)]
    hot.extend(range(8, 8 + min(b.floors, 5)))
    hot.extend(range(13, 13 + min(b.vp, 3)))
    if b.type is BuildingType.PARK and b.tree:
        hot.append(16)
    return hot


NO_FEATURES: Final = bytes(CITY_FEATURES)
# By identity (hashing a dataclass is slow): an entry holds its building, so the id is not
# reused while the entry lives. Buildings of one floor are interned by the engine
# (TILE_BUILDING); stacks are new objects, hence the bound.
_FEATURES: dict[int, tuple[Building, bytes]] = {}
_FEATURES_MAX: Final = 10_000


def square_features(b: Building) -> bytes:
    """The features of one city square holding ``b``, one byte each."""
    entry = _FEATURES.get(id(b))
    if entry is not None and entry[0] is b:
        return entry[1]
    hot = bytearray(CITY_FEATURES)
    for f in _building_features(b):
        hot[f] = 1
    if len(_FEATURES) >= _FEATURES_MAX:
        _FEATURES.clear()
    _FEATURES[id(b)] = (b, bytes(hot))
    return bytes(hot)
