"""Random plausible cities, for tests and benchmarks of the final scoring.

Building types are drawn with the frequencies of the tile manifest (TILES.md) of the mode;
tower blocks and office towers are stacked up to the height limits of §1/§5, public services
print 0-2 VP and harbors 0-3, parks are tree parks or playgrounds (R11), and the player's
inhabitants and energy range from scarce (0-3) through moderate to plentiful (25+).
Standard library only; deterministic for a given :class:`random.Random` state."""

from __future__ import annotations

import random
from typing import Final

from .buildings import BuildingType
from .city import GEOMETRY, Building, City
from .tiles import Mode

__all__ = ["expert_corpus", "random_city"]

_B = BuildingType

#: Relative frequency of each building type among the tiles of a mode (TILES.md counts).
TYPE_WEIGHTS: Final[dict[Mode, tuple[tuple[BuildingType, int], ...]]] = {
    Mode.CLASSIC: (
        (_B.TOWER_BLOCK, 26),
        (_B.SHOP, 12),
        (_B.PUBLIC_SERVICE, 16),
        (_B.PARK, 13),
        (_B.FACTORY, 16),
        (_B.HARBOR, 17),
    ),
    Mode.EXPERT: (
        (_B.TOWER_BLOCK, 26),
        (_B.SHOP, 14),
        (_B.PUBLIC_SERVICE, 17),
        (_B.PARK, 13),
        (_B.FACTORY, 15),
        (_B.HARBOR, 19),
        (_B.OFFICE_TOWER, 17),
        (_B.MONUMENT, 4),
    ),
}

#: Relative frequency of stack heights 1..5 (truncated at the mode's height limit).
_FLOOR_WEIGHTS: Final = (40, 30, 17, 9, 4)
#: Printed VP of public services (PS0/PS1/PS2) and harbors (none, H1V, H2V, H3V).
_PS_VP_WEIGHTS: Final = (9, 15, 9)
_H_VP_WEIGHTS: Final = (13, 2, 4, 4)


def _resource(rng: random.Random) -> int:
    regime = rng.randrange(3)
    if regime == 0:
        return rng.randint(0, 3)  # scarce
    if regime == 1:
        return rng.randint(4, 24)  # moderate
    return rng.randint(25, 40)  # plentiful


def random_building(rng: random.Random, mode: Mode) -> Building:
    """One random building as it may stand on a square of a ``mode`` city."""
    kinds, weights = zip(*TYPE_WEIGHTS[mode], strict=True)
    btype = rng.choices(kinds, weights)[0]
    limit = GEOMETRY[mode].max_floors.get(btype, 1)
    floors = rng.choices(range(1, limit + 1), _FLOOR_WEIGHTS[:limit])[0] if limit > 1 else 1
    vp = 0
    if btype is _B.PUBLIC_SERVICE:
        vp = rng.choices(range(3), _PS_VP_WEIGHTS)[0]
    elif btype is _B.HARBOR:
        vp = rng.choices(range(4), _H_VP_WEIGHTS)[0]
    tree = btype is _B.PARK and rng.random() < 0.65
    return Building(btype, floors, vp, tree)


def random_city(rng: random.Random, mode: Mode, *, filled: int | None = None) -> City:
    """A random plausible ``mode`` city with ``filled`` squares built (random if ``None``)."""
    size = GEOMETRY[mode].size
    if filled is None:
        filled = rng.randint(0, size)
    if not 0 <= filled <= size:
        raise ValueError(f"filled must be between 0 and {size}, got {filled}")
    squares = set(rng.sample(range(size), filled))
    buildings = tuple(random_building(rng, mode) if s in squares else None for s in range(size))
    return City(mode, buildings, _resource(rng), _resource(rng))


def expert_corpus(n: int = 1000, seed: int = 2016) -> list[City]:
    """The fixed benchmark corpus: ``n`` full Expert cities (all 20 squares built)."""
    rng = random.Random(seed)
    return [random_city(rng, Mode.EXPERT, filled=20) for _ in range(n)]
