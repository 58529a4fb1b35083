"""Plain-text drawings: the construction site, cities and score sheets (presentation only)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from .buildings import TYPE_LETTER, BuildingType, TileKind
from .city import GEOMETRY, Building, City
from .phases import OVER, PLACE
from .scoring import CATEGORY_NAMES, CityScore, mode_categories
from .site import BLOCKED_SLOTS, SLOT_INDEX
from .tiles import TILES, Mode

if TYPE_CHECKING:  # render draws states but the state module imports render (str(state))
    from .state import GameState

_CELL = 5

#: What the drawings of this module mean: the tile codes of the construction site and the
#: cities, and the marks around the site. Shared by the terminal's ``help`` and the CLI.
LEGEND: str = """\
Tile codes (construction site and cities):
  T     tower block. Site: T1, T2, T3 = a tile giving 1, 2, 3 inhabitants,
        T1* = the tile with the mayor (R10). City: T3 = a stack of 3 floors
  S     shop                     P     public service (P+2: 2 VP printed)
  Kt    tree park (absorbs 1 unused energy)
  Kp    playground (gives 1 inhabitant, absorbs nothing, R11; see §6 variant)
  F     factory                  H     harbor (H+1: 1 VP printed)
  O     office tower (Expert; O3 = a stack of 3 floors)
  M     monument (Expert)
  .     empty city square        ##    face-down tile: not available (R4)
Around the site: slots T1-T5 at the top, B1-B5 bottom, L1-L5 left, R1-R5 right;
  x: slot holding an architect, -: blocked by the urbanist (R5), [U]: urbanist"""

#: The lines of :data:`LEGEND` that only concern Expert games.
_EXPERT_ONLY = ("  O     office tower", "  M     monument")


def render_legend(mode: Mode | None = None) -> str:
    """:data:`LEGEND`, without the Expert-only buildings for ``Mode.CLASSIC``."""
    if mode is not Mode.CLASSIC:
        return LEGEND
    return "\n".join(line for line in LEGEND.splitlines() if not line.startswith(_EXPERT_ONLY))


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """The names of the seats: ``names`` if given, else ``Player 1``, ``Player 2``... (1-based)."""
    if names is None:
        return [f"Player {p + 1}" for p in range(players)]
    if len(names) != players:
        raise ValueError(f"{players} seats need {players} names, got {len(names)}")
    return list(names)


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
    """A tile as the construction site shows it: like a building, except that tower blocks
    show the inhabitants they give (``T1``, ``T2``, ``T3``; ``T1*`` carries the mayor)."""
    return kind_label(TILES[tid].kind)


def kind_label(k: TileKind) -> str:
    """:func:`tile_label` of any tile of kind ``k`` (the label depends on the kind only)."""
    label = building_label(Building(k.type, 1, k.vp, k.tree))
    if k.type is BuildingType.TOWER_BLOCK:
        label += str(k.inhabitants)
    return label + ("*" if k.mayor else "")


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


def render_state(
    state: GameState, scores: Sequence[CityScore] | None = None, names: Sequence[str] | None = None
) -> str:
    """The whole game: status, architects, the construction site and every city. Seats are
    named by ``names`` (default ``Player 1``, ``Player 2``...: 1-based)."""
    cfg = state.config
    who = seat_names(cfg.players, names)
    if state.phase == OVER:
        status = "game over"
    else:
        act = "must build or discard " + tile_label(state.pending_tile) if state.phase == PLACE else "to take"
        status = f"round {state.round}/{state.rounds}  turn {state.turn}/4  {who[state.current_player]} {act}"
    arch = (
        "  ".join(
            f"{who[p]}: " + "".join(str(a) for a in (1, 2, 3, 4) if not state.architects[p] >> a & 1)
            for p in range(cfg.players)
        )
        if cfg.mode.value == "classic"
        else "pool " + " ".join(f"#{a}x{state.architects[a]}" for a in range(1, 6))
    )
    parts = [
        f"Quadropolis {cfg.mode.value}, {cfg.players} players, seed {cfg.seed} - {status}",
        f"mayor: {who[state.mayor]}   architects left: {arch}",
        render_site(state),
    ]
    for p in range(cfg.players):
        score = scores[p] if scores is not None else None
        parts.append(render_city(state.city(p), who[p] + (" (mayor)" if p == state.mayor else ""), score))
    return "\n\n".join(parts)


#: The score sheet's name of each scoring category.
CATEGORY_TITLES: Final = {k: name.capitalize() for k, name in CATEGORY_NAMES.items()}


def render_score_sheet(
    scores: Sequence[CityScore],
    names: Sequence[str] | None = None,
    expert: bool = False,
    width: int | None = None,
) -> str:
    """The score pad: one column per city (headed by ``names``, default ``Player 1``,
    ``Player 2``...), one row per category, then the tie-break values. Given a ``width``,
    names too long for the columns to fit are wrapped onto several header lines."""
    names = seat_names(len(scores), names)
    cats = mode_categories(Mode.EXPERT if expert else Mode.CLASSIC)
    label_w = max(len(t) for t in CATEGORY_TITLES.values())
    col_w = max(8, *(len(n) for n in names))
    if width is not None and names:
        fit = (width - label_w - 4) // len(names) - 3
        col_w = max(8, min(col_w, fit), *(len(str(s.total)) for s in scores))
    heads = [textwrap.wrap(n, col_w, break_on_hyphens=False) or [""] for n in names]
    depth = max(len(h) for h in heads)
    sep = "+" + "-" * (label_w + 2) + ("+" + "-" * (col_w + 2)) * len(names) + "+"

    def row(label: str, values: Sequence[object]) -> str:
        return f"| {label:<{label_w}} |" + "|".join(f" {v:>{col_w}} " for v in values) + "|"

    rows = [sep]
    for i in range(depth):
        rows.append(row("", [h[i - depth + len(h)] if i >= depth - len(h) else "" for h in heads]))
    rows.append(sep)
    for c in cats:
        rows.append(row(CATEGORY_TITLES[c], [s.breakdown[c] for s in scores]))
    rows.append(sep)
    rows.append(row("TOTAL", [s.total for s in scores]))
    rows.append(sep)
    rows.append(row("Inhabitants placed", [s.inhabitants_placed for s in scores]))
    rows.append(row("Empty squares", [s.empty_squares for s in scores]))
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
