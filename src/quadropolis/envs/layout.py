"""The observation layout shared by every adapter: the named parts of the float32 vector
(:data:`LAYOUT`, in memory order), its size, its bounds and its named views.

docs/rl.md's table is generated from :data:`LAYOUT` (:func:`layout_table`); the encoder
(:mod:`.encoder`) writes what this layout describes, through the byte tables of
:mod:`.tables`. Change a part here and both follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from ..buildings import KINDS
from ..tiles import TILES, Mode

__all__ = [
    "KIND_CODES",
    "LAYOUT",
    "OBSERVATION_SIZE",
    "Part",
    "layout_table",
    "observation_high",
    "views",
]


#: Tile kinds (TILES.md codes), in the order of every per-kind feature.
KIND_CODES: Final[tuple[str, ...]] = tuple(KINDS)
#: The kind of each tile (its index in :data:`KIND_CODES`), by tile id.
KIND_OF_TILE: Final = tuple(KIND_CODES.index(t.kind.code) for t in TILES)
#: Inhabitants (energy) printed on all the tiles of each mode, the bound of a count.
TILE_INHABITANTS: Final = {m: sum(t.kind.inhabitants for t in TILES if t.in_mode(m)) for m in Mode}
TILE_ENERGY: Final = {m: sum(t.kind.energy for t in TILES if t.in_mode(m)) for m in Mode}
_MAX_RESOURCE: Final = float(max(max(TILE_INHABITANTS.values()), max(TILE_ENERGY.values())))
CITY_FEATURES: Final = 17  # type one-hot 8, floors >= 1..5, printed VP >= 1..3, tree park
_MAX_TO_COME: Final = float(
    max(
        sum(1 for t in TILES if t.in_mode(m) and t.round > 1 and t.kind.code == k)
        for m in Mode
        for k in KINDS
    )
)


@dataclass(frozen=True, slots=True)
class Part:
    """One named part of the observation vector: ``vector[offset : offset + size]`` reshaped
    to ``shape``; values lie in ``[0, high]``."""

    name: str
    shape: tuple[int, ...]
    high: float
    description: str
    offset: int = 0

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


def _layout(parts: Sequence[Part]) -> tuple[Part, ...]:
    out, offset = [], 0
    for p in parts:
        out.append(Part(p.name, p.shape, p.high, p.description, offset))
        offset += p.size
    return tuple(out)


#: The parts of the observation, in memory order.
LAYOUT: Final[tuple[Part, ...]] = _layout(
    [
        # constant for a game configuration
        Part("mode", (2,), 1, "one-hot: Classic, Expert"),
        Part("players", (3,), 1, "one-hot: 2, 3, 4 players"),
        Part("variants", (2,), 1, '§6 variant switches: urbanist_blocks="square", all_parks_absorb'),
        Part(
            "square_exists",
            (20,),
            1,
            "city square q (4 rows x 5 columns, row-major) exists: Classic has columns 1-4",
        ),
        Part(
            "square_district",
            (20, 5),
            1,
            "[q, d-1]: square q lies in district d (Classic: the 2x2 quadrants 1-4, R2)",
        ),
        Part("square_number", (20, 5), 1, "[q, n-1]: square q is numbered n (Expert, R16; zeros in Classic)"),
        Part(
            "square_eligible",
            (5, 20),
            1,
            "[n-1, q]: architect #n may build on empty square q "
            "(R8: row or column n; R16: numbered n or district n)",
        ),
        # constant for a round
        Part("round", (5,), 1, "one-hot: round 1-5 (Classic has 4)"),
        Part(
            "to_come",
            (21,),
            _MAX_TO_COME,
            "per tile kind (KIND_CODES): tiles of the rounds after this one that will lie face up "
            "with this player count (public manifest, R4)",
        ),
        # the position
        Part("turn", (4,), 1, "one-hot: turn 1-4 of the round"),
        Part("phase", (2,), 1, "one-hot: take a building, build or discard it (zeros when the game is over)"),
        Part(
            "site_tile",
            (25, 21),
            1,
            "[s, k]: face-up tile of kind k on site square s (r1c1..r5c5, row-major)",
        ),
        Part("site_face_down", (25,), 1, "site square holds a face-down tile: not available (R4)"),
        Part("urbanist", (25,), 1, "one-hot: the urbanist's site square (zeros while it is off the board)"),
        Part("slot_used", (20,), 1, "slot T1..T5, B1..B5, L1..L5, R1..R5 holds an architect this round (R1)"),
        Part(
            "slot_blocked",
            (20,),
            1,
            "slot blocked by the urbanist's row and column (R5; zeros under the square variant)",
        ),
        Part("hand_tile", (21,), 1, "one-hot kind of the building taken and not yet built or discarded"),
        Part("hand_architect", (5,), 1, "one-hot number of the architect that took it"),
        Part("seat_present", (4,), 1, "relative seat r is in the game (seat 0 = the observer)"),
        Part("seat_to_move", (4,), 1, "one-hot: relative seat whose action it is"),
        Part("seat_mayor", (4,), 1, "one-hot: relative seat holding the mayor (R10)"),
        Part("seat_starter", (4,), 1, "one-hot: relative seat that started this round"),
        Part(
            "architects_used",
            (4, 5),
            1,
            "[r, n-1]: relative seat r has used architect #n this round (Classic)",
        ),
        Part(
            "city",
            (4, 20, CITY_FEATURES),
            1,
            "[r, q, f]: relative seat r's city square q: f 0-7 building type one-hot (tower block, shop, "
            "public service, park, factory, harbor, office tower, monument), f 8-12 floors >= 1..5, "
            "f 13-15 printed VP >= 1..3, f 16 tree park (a park without it is a playground, R11)",
        ),
        Part("inhabitants", (4,), _MAX_RESOURCE, "inhabitants of relative seat r (a count)"),
        Part("energy", (4,), _MAX_RESOURCE, "energy of relative seat r (a count)"),
        Part(
            "pool", (5,), 4, "Expert: architects #1..#5 left in the common pool (a count; zeros in Classic)"
        ),
    ]
)
#: The parts by name.
PARTS: Final = {p.name: p for p in LAYOUT}
OBSERVATION_SIZE: Final = LAYOUT[-1].offset + LAYOUT[-1].size


def observation_high() -> npt.NDArray[np.float32]:
    """Upper bound of every observation value (the lower bound is 0)."""
    high = np.empty(OBSERVATION_SIZE, np.float32)
    for p in LAYOUT:
        high[p.offset : p.offset + p.size] = p.high
    return high


def views(obs: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
    """Named views (no copy) of an observation vector, or of a batch ``(..., OBSERVATION_SIZE)``."""
    lead = obs.shape[:-1]
    return {p.name: obs[..., p.offset : p.offset + p.size].reshape(*lead, *p.shape) for p in LAYOUT}


def layout_table() -> str:
    """The observation layout as a Markdown table (docs/rl.md's)."""
    rows = ["| part | shape | offset | values | meaning |", "|---|---|---|---|---|"]
    for p in LAYOUT:
        shape = " × ".join(str(d) for d in p.shape)
        values = "0/1" if p.high == 1 else f"0–{p.high:g}"
        rows.append(f"| `{p.name}` | {shape} | {p.offset} | {values} | {p.description} |")
    return "\n".join(rows)
