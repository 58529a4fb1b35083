"""The observation text: one compact line of what a seat sees (OpenSpiel's observation
string), seats relative as in the observation vector."""

from __future__ import annotations

from ..phases import PLACE
from ..render import building_label, tile_label
from ..site import SLOT_NAMES, square_name
from ..state import GameState
from ..tiles import Mode

__all__ = ["observation_text"]


def observation_text(state: GameState, observer: int) -> str:
    """A compact one-line text of what seat ``observer`` sees (seats relative, as in the
    observation vector): round, turn, phase, the site (``##`` face down, ``.`` empty), the
    urbanist, used slots, architects, the building in hand and every city with its supplies.
    Distinct public positions give distinct texts."""
    cfg = state.config
    n = cfg.players
    rel = [(observer + r) % n for r in range(n)]
    site = []
    for q, t in enumerate(state.site):
        site.append("." if t < 0 else "##" if state.face_down >> q & 1 else tile_label(t))
    if state.is_over:
        status = "over"
    else:
        status = f"s{(state.current_player - observer) % n} "
        if state.phase == PLACE:
            status += f"places {tile_label(state.pending_tile)}#{state.pending_architect}"
        else:
            status += "takes"
    if cfg.mode is Mode.CLASSIC:
        arch = " ".join(
            f"s{r}:" + "".join(str(a) for a in (1, 2, 3, 4) if not state.architects[p] >> a & 1)
            for r, p in enumerate(rel)
        )
    else:
        arch = "pool:" + "".join(str(state.architects[a]) for a in range(1, 6))
    slots = "".join(SLOT_NAMES[i] for i in range(20) if state.slots_used >> i & 1) or "-"
    urb = square_name(state.urbanist) if state.urbanist >= 0 else "-"
    cities = " ".join(
        f"s{r}[{','.join(map(building_label, state.cities[p]))}]i{state.inhabitants[p]}e{state.energy[p]}"
        for r, p in enumerate(rel)
    )
    variants = "" if cfg.urbanist_blocks == "lines" and not cfg.all_parks_absorb else f" {cfg.variants}"
    return (
        f"{cfg.mode.value} {n}p{variants} r{state.round}t{state.turn} {status} "
        f"mayor s{(state.mayor - observer) % n} starter s{(state.starter - observer) % n} | "
        f"site {' '.join(site)} | urbanist {urb} | slots {slots} | {arch} | {cities}"
    )
