"""Cheap move priors for search: a local synergy estimate of building a tile on a square,
used to order candidate moves (progressive widening) and to drive rollouts.

Why not the exact scorer: a rollout makes ~100 placement decisions, and the exact scorer
costs ~0.1 ms a city; this table-driven estimate costs a few microseconds."""

from __future__ import annotations

import random
from typing import Final

from ..buildings import BuildingType
from ..city import GEOMETRY, Building
from ..moves import DISCARD, Build, Move, Take
from ..rules import legal_moves
from ..scoring import OFFICE_VP, TOWER_VP
from ..scoring_tables import RUN_VP, TABLES
from ..site import DESIGNATED
from ..state import PLACE, TAKE, GameState
from ..tiles import TILES, Mode

_B = BuildingType
_T, _S, _PS, _PK, _F, _H, _O, _M = BuildingType  # members in declaration order
_TILE_TYPE: Final = tuple(t.kind.type for t in TILES)
#: PRIOR_TILE_GAIN[tile id]: printed inhabitants + energy, as the prior counts them (read by
#: native/gen_tables.py for the native search's prior).
PRIOR_TILE_GAIN: Final = tuple(t.kind.inhabitants + t.kind.energy for t in TILES)
_TOWER_VP: Final = TOWER_VP
_OFFICE_ROW: Final = OFFICE_VP  # [group size, capped at 5][floors] (R15)
_RUN_VP: Final = RUN_VP  # harbor run length -> VP (R14)
_TABLES: Final = TABLES
# SYNERGY[a][b]: rough VP gained when a building of type a stands next to one of type b.
_SYNERGY: Final = {
    _T: {_PK: 2},
    _S: {_F: 2, _M: 3},
    _PS: {_M: 2},
    _PK: {_T: 2, _O: 2, _M: 5},
    _F: {_S: 2, _H: 3, _O: 4, _M: -5},
    _H: {_F: 3, _M: -5},  # and other harbors: harbor_gain
    _O: {_F: 4, _PK: 2},  # and other office towers: office_gain
    _M: {_PK: 5, _S: 3, _PS: 2, _F: -5, _H: -5},
}
#: SYNERGY_TABLE[type a][type b]: the synergy above by BuildingType value, 0 where none
#: (read by native/gen_tables.py for the native search's prior).
SYNERGY_TABLE: Final = tuple(tuple(_SYNERGY[_B(a)].get(_B(b), 0) for b in range(8)) for a in range(8))


def office_gain(city: list[Building | None], mode: Mode, q: int) -> int:
    """Exact change of the office towers' VP (R15: each tower by its floors, on the row of
    its group's size) when an office tower floor is built on square ``q``: a new tower there
    joins every group it touches; a floor on a tower raises it within its group."""
    neighbours = GEOMETRY[mode].neighbours
    start = [q] if city[q] is not None else [n for n in neighbours[q] if _is_office(city[n])]
    seen: set[int] = set()
    old = 0
    for root in start:  # each group touched, valued at its current size
        if root in seen:
            continue
        group = _office_group(city, neighbours, root)
        seen |= group
        row = _OFFICE_ROW[min(len(group), 5)]
        old += sum(row[_floors(city[t])] for t in group)
    if city[q] is None:
        row = _OFFICE_ROW[min(len(seen) + 1, 5)]
        return row[1] + sum(row[_floors(city[t])] for t in seen) - old
    row = _OFFICE_ROW[min(len(seen), 5)]
    f = _floors(city[q])
    return row[f + 1] - row[f]


def _is_office(b: Building | None) -> bool:
    return b is not None and b.type == _O


def _floors(b: Building | None) -> int:
    return 0 if b is None else b.floors


def _office_group(
    city: list[Building | None], neighbours: tuple[tuple[int, ...], ...], root: int
) -> set[int]:
    group = {root}
    todo = [root]
    while todo:
        for n in neighbours[todo.pop()]:
            if n not in group and _is_office(city[n]):
                group.add(n)
                todo.append(n)
    return group


def harbor_runs(city: list[Building | None], mode: Mode) -> tuple[int, int]:
    """The longest horizontal and the longest vertical run of harbors in ``city`` (R14).
    Callers valuing several squares of one city compute it once (:func:`harbor_gain`)."""
    tables = _TABLES[mode]
    mask = 0
    for q, b in enumerate(city):
        if b is not None and b.type == _H:
            mask |= 1 << q
    h = 0
    x = mask
    while x:  # each step shortens every run by one square
        x &= (x >> 1) & tables.hvalid
        h += 1
    v = 0
    x = mask
    while x:
        x &= x >> tables.cols
        v += 1
    return h, v


def harbor_gain(city: list[Building | None], mode: Mode, q: int, runs: tuple[int, int] | None = None) -> int:
    """Exact change of the harbor runs' VP (R14: the longest horizontal run anywhere plus the
    longest vertical one) when a harbor is built on the empty square ``q``; ``runs``: the
    city's :func:`harbor_runs`, when the caller has them."""
    geo = GEOMETRY[mode]
    cols, rows = geo.cols, geo.size // geo.cols
    r, c = divmod(q, cols)
    h_now, v_now = harbor_runs(city, mode) if runs is None else runs
    h = 1  # the run through q, left and right
    for d in (-1, 1):
        i = c + d
        while 0 <= i < cols and _is_harbor(city[r * cols + i]):
            h += 1
            i += d
    v = 1  # and up and down
    for d in (-1, 1):
        i = r + d
        while 0 <= i < rows and _is_harbor(city[i * cols + c]):
            v += 1
            i += d
    h_new, v_new = max(h_now, h), max(v_now, v)
    return _RUN_VP[min(h_new, 5)] - _RUN_VP[min(h_now, 5)] + _RUN_VP[min(v_new, 5)] - _RUN_VP[min(v_now, 5)]


def _is_harbor(b: Building | None) -> bool:
    return b is not None and b.type == _H


def placement_value(
    city: list[Building | None], mode: Mode, btype: int, q: int, runs: tuple[int, int] | None = None
) -> float:
    """Rough VP of putting a building of type ``btype`` on square ``q`` of ``city``. An
        office tower is valued by its exact gain to the office towers' score (:func:`office_gain`,
        R15), a harbor by its exact gain to the runs' score (:func:`harbor_gain`, R14; ``runs``:
    the city's :func:`harbor_runs` if known), each plus its other neighbours' synergy."""
    geo = GEOMETRY[mode]
    below = city[q]
    if below is not None:  # a stack: the floor increment is the gain
        if btype == _O:
            return office_gain(city, mode, q) + 0.5
        f = below.floors
        return _TOWER_VP[f + 1] - _TOWER_VP[f] + 0.5
    syn = SYNERGY_TABLE[btype]
    v = 1.0 if btype in (_T, _S, _PK, _H, _O) else 0.5
    if btype == _O:
        v += office_gain(city, mode, q)
    elif btype == _H:
        v += harbor_gain(city, mode, q, runs)
    for n in geo.neighbours[q]:
        b = city[n]
        if b is not None:
            v += syn[b.type]
    if btype == _PS:
        d = geo.district[q]
        if not any(b is not None and b.type == _PS and geo.district[s] == d for s, b in enumerate(city)):
            v += 3.0
    return v


def ordered_moves(state: GameState) -> list[Move]:
    """Legal moves, pruned and best-first by the prior.

    Pruning: of takes that designate the same square with the same architect number (from
    different slots) only the first is kept, and of takes that take nothing (empty or
    face-down square, R4/R6) only one per architect number; none is lost that differs in
    more than which slot is used."""
    moves = legal_moves(state)
    if state.phase == TAKE:
        seen: set[tuple[int, int]] = set()
        scored: list[tuple[float, int, Move]] = []
        city = state.cities[state.current_player]
        runs = harbor_runs(city, state.config.mode)
        for i, m in enumerate(moves):
            assert isinstance(m, Take)
            q = DESIGNATED[m.slot][m.architect]
            if state.site[q] < 0 or state.face_down >> q & 1:
                key = (-1, m.architect)
                value = -1.0
            else:
                key = (q, m.architect)
                value = _take_value(state, m, city, runs)
            if key in seen:
                continue
            seen.add(key)
            scored.append((value, -i, m))
        scored.sort(reverse=True)
        return [m for _, _, m in scored]
    if state.phase == PLACE:
        mode = state.config.mode
        cols = GEOMETRY[mode].cols
        city = state.cities[state.current_player]
        btype = _TILE_TYPE[state.pending_tile]
        place_runs = harbor_runs(city, mode) if btype == _H else None
        builds = [
            (placement_value(city, mode, btype, (m.row - 1) * cols + m.col - 1, place_runs), -i, m)
            for i, m in enumerate(moves)
            if isinstance(m, Build)
        ]
        builds.sort(reverse=True)
        return [m for _, _, m in builds] + [DISCARD]
    return moves


def _take_value(state: GameState, take: Take, city: list[Building | None], runs: tuple[int, int]) -> float:
    """A take of a face-up building's prior: the best :func:`placement_value` of what it takes
    on an empty square its architect may build on (-0.5 when there is none), plus 0.2 VP per
    inhabitant or energy the tile brings. ``runs``: the city's :func:`harbor_runs`."""
    mode = state.config.mode
    tid = state.site[DESIGNATED[take.slot][take.architect]]
    btype = _TILE_TYPE[tid]
    best = max(
        (
            placement_value(city, mode, btype, s, runs)
            for s in GEOMETRY[mode].eligible[take.architect]
            if city[s] is None
        ),
        default=-0.5,
    )
    return best + 0.2 * PRIOR_TILE_GAIN[tid]


def _best_take(state: GameState, moves: list[Move]) -> Move | None:
    """The take of a face-up building with the best prior (the first in legal-move order
    among equals); None when no take takes a building."""
    city = state.cities[state.current_player]
    runs = harbor_runs(city, state.config.mode)
    best: Move | None = None
    best_v = 0.0
    for m in moves:
        assert isinstance(m, Take)
        q = DESIGNATED[m.slot][m.architect]
        if state.site[q] < 0 or state.face_down >> q & 1:
            continue
        v = _take_value(state, m, city, runs)
        if best is None or v > best_v:
            best, best_v = m, v
    return best


def rollout_move(state: GameState, rng: random.Random, epsilon: float = 0.1, greed: float = 0.0) -> Move:
    """The rollout policy: takes a face-up building rather than nothing -- with probability
    ``greed`` the one with the best prior (:func:`_take_value`), else uniformly among such
    takes; builds it on the square with the best prior, rather than discarding; with
    probability ``epsilon`` a uniformly random legal move instead. The greed draw is made only
    when ``greed`` > 0 (so that 0 keeps the draws of the rollouts before it)."""
    moves = legal_moves(state)
    if rng.random() < epsilon:
        return moves[int(rng.random() * len(moves))]
    if state.phase == PLACE:
        if len(moves) == 1:
            return moves[0]
        mode = state.config.mode
        cols = GEOMETRY[mode].cols
        city = state.cities[state.current_player]
        btype = _TILE_TYPE[state.pending_tile]
        runs = harbor_runs(city, mode) if btype == _H else None
        best: Move = DISCARD
        best_v = 0.0
        for m in moves:
            if isinstance(m, Build):
                v = placement_value(city, mode, btype, (m.row - 1) * cols + m.col - 1, runs)
                if v > best_v:
                    best, best_v = m, v
        return best
    if greed > 0 and rng.random() < greed:
        best_take = _best_take(state, moves)
        if best_take is not None:
            return best_take
    site = state.site
    fd = state.face_down
    n = len(moves)
    # Rejection sampling is uniform over the takes that take a face-up building and, early in
    # a round, almost always succeeds at once (cheaper than filtering every take).
    for _ in range(6):
        m = moves[int(rng.random() * n)]
        q = DESIGNATED[m.slot][m.architect]  # type: ignore[attr-defined]
        if site[q] >= 0 and not fd >> q & 1:
            return m
    takes = [
        m
        for m in moves
        if site[DESIGNATED[m.slot][m.architect]] >= 0  # type: ignore[attr-defined]
        and not fd >> DESIGNATED[m.slot][m.architect] & 1  # type: ignore[attr-defined]
    ] or moves
    return takes[int(rng.random() * len(takes))]
