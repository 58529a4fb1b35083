"""Plain-text drawings: the construction site, cities and score sheets (presentation only)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .buildings import TYPE_LETTER, BuildingType
from .city import GEOMETRY, Building, City
from .phases import OVER, PLACE
from .scoring import CATEGORIES, CityScore
from .site import BLOCKED_SLOTS, SLOT_INDEX
from .tiles import TILES

if TYPE_CHECKING:  # render draws states but the state module imports render (str(state))
    from .state import GameState

_CELL = 5


def building_label(b: Building | None) -> str:
    """Short label: type letter, then floors for stacks (``T3``), printed VP (``H+2``), park
    variant (``Kt`` tree park, ``Kp`` playground)."""
    if b is None:
        return "."
    s = TYPE_LETTER[b.type]
    if b.type is BuildingType.PARK:
        return s + ("t" if b.tree else "p")
    if b.floors > 1:
        s += str(b.floors)
    if b.vp:
        s += f"+{b.vp}"
    return s


def tile_label(tid: int) -> str:
    k = TILES[tid].kind
    return building_label(Building(k.type, 1, k.vp, k.tree)) + ("*" if k.mayor else "")


def render_site(state: GameState) -> str:
    """The construction site: tiles (``##`` face down), the urbanist ``[U]``, and around it
    the 20 slots: ``x`` holds an architect, ``-`` blocked by the urbanist (R5), else the
    slot name."""
    blocked = 0
    if state.urbanist >= 0 and state.config.urbanist_blocks == "lines":
        blocked = BLOCKED_SLOTS[state.urbanist]

    def slot(name: str) -> str:
        i = SLOT_INDEX[name]
        if state.slots_used >> i & 1:
            return "x"
        if blocked >> i & 1:
            return "-"
        return name

    lines = ["      " + "".join(slot(f"T{c}").center(_CELL) for c in range(1, 6))]
    for r in range(5):
        cells = []
        for c in range(5):
            q = r * 5 + c
            tid = state.site[q]
            label = "" if tid < 0 else ("##" if state.face_down >> q & 1 else tile_label(tid))
            if q == state.urbanist:
                label = f"[{label or 'U'}]" if label else "[U]"
            cells.append(label.center(_CELL))
        lines.append(f"  {slot(f'L{r + 1}'):>3} " + "".join(cells) + f" {slot(f'R{r + 1}')}")
    lines.append("      " + "".join(slot(f"B{c}").center(_CELL) for c in range(1, 6)))
    return "\n".join(lines)


def render_city(city: City, title: str = "", score: CityScore | None = None) -> str:
    """A city as a grid (rows 1-4, columns 1-4/5), with its resources and optional score."""
    geo = GEOMETRY[city.mode]
    head = f"{title}  inhabitants {city.inhabitants}  energy {city.energy}"
    if score is not None:
        head += f"  projected {score.total} VP"
    out = [head.strip(), "     " + "".join(f"c{c}".center(_CELL) for c in range(1, geo.cols + 1))]
    for r in range(geo.rows):
        row = city.buildings[r * geo.cols : (r + 1) * geo.cols]
        out.append(f"  r{r + 1} " + "".join(building_label(b).center(_CELL) for b in row))
    return "\n".join(out)


def render_state(state: GameState, scores: Sequence[CityScore] | None = None) -> str:
    cfg = state.config
    if state.phase == OVER:
        status = "game over"
    else:
        act = "must build or discard " + tile_label(state.pending_tile) if state.phase == PLACE else "to take"
        status = (
            f"round {state.round}/{state.rounds}  turn {state.turn}/4  player {state.current_player} {act}"
        )
    arch = (
        "  ".join(
            f"P{p}: " + "".join(str(a) for a in (1, 2, 3, 4) if not state.architects[p] >> a & 1)
            for p in range(cfg.players)
        )
        if cfg.mode.value == "classic"
        else "pool " + " ".join(f"#{a}x{state.architects[a]}" for a in range(1, 6))
    )
    parts = [
        f"Quadropolis {cfg.mode.value}, {cfg.players} players, seed {cfg.seed} - {status}",
        f"mayor: player {state.mayor}   architects left: {arch}",
        render_site(state),
    ]
    for p in range(cfg.players):
        score = scores[p] if scores is not None else None
        parts.append(
            render_city(state.city(p), f"Player {p}" + (" (mayor)" if p == state.mayor else ""), score)
        )
    return "\n\n".join(parts)


_CATEGORY_TITLES = {
    "tower_block": "Tower blocks",
    "shop": "Shops",
    "public_service": "Public services",
    "park": "Parks",
    "factory": "Factories",
    "harbor": "Harbors",
    "office_tower": "Office towers",
    "monument": "Monuments",
    "unused_inhabitants": "Unused inhabitants",
    "pollution": "Pollution",
}


def render_score_sheet(scores: Sequence[CityScore], names: Sequence[str], expert: bool) -> str:
    """The score pad: one column per city, one row per category, then the tie-break values."""
    cats = [c for c in CATEGORIES if expert or c not in ("office_tower", "monument")]
    width = max(8, *(len(n) for n in names))
    label_w = max(len(t) for t in _CATEGORY_TITLES.values())
    sep = "+" + "-" * (label_w + 2) + ("+" + "-" * (width + 2)) * len(names) + "+"
    rows = [sep, "| " + "".ljust(label_w) + " |" + "|".join(f" {n:>{width}} " for n in names) + "|", sep]
    for c in cats:
        vals = "|".join(f" {s.breakdown[c]:>{width}} " for s in scores)
        rows.append(f"| {_CATEGORY_TITLES[c]:<{label_w}} |{vals}|")
    rows.append(sep)
    rows.append(f"| {'TOTAL':<{label_w}} |" + "|".join(f" {s.total:>{width}} " for s in scores) + "|")
    rows.append(sep)
    rows.append(
        f"| {'Inhabitants placed':<{label_w}} |"
        + "|".join(f" {s.inhabitants_placed:>{width}} " for s in scores)
        + "|"
    )
    rows.append(
        f"| {'Empty squares':<{label_w}} |" + "|".join(f" {s.empty_squares:>{width}} " for s in scores) + "|"
    )
    rows.append(sep)
    return "\n".join(rows)


def render_placement(city: City, score: CityScore) -> str:
    """The optimal placement in words: what is activated, customers, absorbing parks."""
    geo = GEOMETRY[city.mode]
    p = score.placement

    def names(squares: Sequence[int]) -> str:
        return (
            ", ".join(f"{building_label(city.buildings[q])}@{geo.square_name(q)}" for q in squares) or "none"
        )

    lines = [
        f"  activated: {names(p.activated)}",
        f"  removed (not activated): {names(p.removed)}",
        "  customers: " + (", ".join(f"{n} in shop@{geo.square_name(q)}" for q, n in p.customers) or "none"),
        f"  absorbing parks: {names(p.absorbing_parks)}",
        f"  unused: {p.unused_inhabitants} inhabitant(s), {p.unused_energy} energy",
    ]
    return "\n".join(lines)
