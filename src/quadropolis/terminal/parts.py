"""The parts that screens are made of: a city (in full or in one line), the status and
architects lines, the actions in one line each, the task of the player to move."""

from __future__ import annotations

from ..buildings import BuildingType
from ..city import GEOMETRY
from ..moves import Build, Take
from ..outcome import projected_score
from ..render import building_label, render_city, tile_label
from ..site import DESIGNATED, square_name
from ..state import PLACE, GameState
from ..tiles import TILES, Mode
from .session import Action, PlaySession
from .text import clip, tile_text


def city_title(session: PlaySession, seat: int, state: GameState | None = None, final: bool = False) -> str:
    """``2. Bot greedy (mayor, to play)``: the seat number (for ``city N``), name and role."""
    state = state or session.state
    tags = []
    if seat == state.mayor and not final:
        tags.append("mayor")
    if not state.is_over and seat == state.current_player:
        tags.append("to play")
    return f"{seat + 1}. {session.name(seat)}" + (f" ({', '.join(tags)})" if tags else "")


def city_block(
    session: PlaySession,
    seat: int,
    state: GameState | None = None,
    final: bool = False,
    long_head: bool = True,
    width: int | None = None,
) -> str:
    """One city: its player's name (mayor, to play), resources, projected VP and the grid."""
    state = state or session.state
    score = projected_score(state, seat)
    kind = "final score" if final else "projected"
    if long_head:
        head = f"inhabitants {state.inhabitants[seat]}  energy {state.energy[seat]}  {kind} {score.total} VP"
    else:
        head = f"{score.total} VP {'final' if final else 'projected'}, inh {state.inhabitants[seat]}, "
        head += f"energy {state.energy[seat]}"
    grid = render_city(state.city(seat)).splitlines()[1:]
    title = city_title(session, seat, state, final)
    if width is not None:
        title, head = clip(title, width), clip(head, width)
    return "\n".join([title, head, *grid])


def city_summary(session: PlaySession, seat: int, width: int) -> str:
    """A city in one line: ``2. Bot greedy: 12 VP, inh 3, energy 1; T:4 S:2 Kt:1 F:1``."""
    s = session.state
    score = projected_score(s, seat)
    counts: dict[str, int] = {}
    for b in s.cities[seat]:
        if b is not None:
            key = building_label(b) if b.type is BuildingType.PARK else building_label(b)[0]
            counts[key] = counts.get(key, 0) + 1
    order = ["T", "S", "P", "Kt", "Kp", "F", "H", "O", "M"]
    built = " ".join(f"{k}:{counts[k]}" for k in order if k in counts) or "no building"
    line = (
        f"{city_title(session, seat)}: {score.total} VP, inh {s.inhabitants[seat]}, "
        f"energy {s.energy[seat]}; {built}"
    )
    return clip(line, width)


def architects_line(session: PlaySession, width: int | None = None) -> str:
    s = session.state
    if s.config.mode is Mode.EXPERT:
        pool = ", ".join(f"#{a} x{s.architects[a]}" for a in range(1, 6) if s.architects[a])
        return f"Architect pool (shared): {pool}"
    players = range(s.config.players)
    full = "Architects left this round: " + "; ".join(
        f"{session.name(p)} " + " ".join(f"#{a}" for a in s.architects_available(p)) for p in players
    )
    if width is None or len(full) <= width:
        return full
    short = "Architects left: " + ", ".join(
        f"{session.name(p)} " + "".join(str(a) for a in s.architects_available(p)) for p in players
    )
    if len(short) <= width:
        return short
    return "Architects left: " + "  ".join(
        f"{p + 1}. #" + "".join(str(a) for a in s.architects_available(p)) for p in players
    )


def status_line(session: PlaySession) -> str:
    s = session.state
    cfg = s.config
    head = f"Quadropolis {cfg.mode.value}, {cfg.players} players, seed {cfg.seed}"
    variants = []
    if cfg.urbanist_blocks != "lines":
        variants.append(f"urbanist blocks its {cfg.urbanist_blocks}")
    if cfg.all_parks_absorb:
        variants.append("all parks absorb")
    if variants:
        head += " [variants: " + ", ".join(variants) + "]"
    if s.is_over:
        return head + " - game over"
    return head + f" - round {s.round}/{s.rounds}, turn {s.turn}/4"


def action_text(session: PlaySession, action: Action, width: int | None = None) -> str:
    """An action in one line: in full (``Bot hard: architect #3 at L4 -> r4c3, takes S
    (shop); builds S on r2c2``) when it fits ``width``, else in short (``Bot hard: #3 at L4
    -> r4c3, takes S; builds on r2c2``)."""
    name = session.name(action.seat)
    full = action.describe(name)
    if width is None or len(full) <= width:
        return full
    parts = []
    for step in action.steps:
        m = step.move
        if isinstance(m, Take):
            q = DESIGNATED[m.slot][m.architect]
            tid = step.before.site[q]
            if tid < 0 or step.before.face_down >> q & 1:
                what = "takes nothing"
            else:
                what = "takes " + tile_label(tid)
            parts.append(f"#{m.architect} at {m.slot_name} -> {square_name(q)}, {what}")
        elif isinstance(m, Build):
            parts.append(f"builds on {m}")
        else:
            parts.append("discards it")
    return clip(f"{name}: " + "; ".join(parts), width)


def recent_actions(session: PlaySession, limit: int, width: int | None = None) -> list[str]:
    """The last ``limit`` actions (a take and its build or discard), one line each, with a
    line where a round began."""
    lines = []
    for a in session.actions()[-limit:] if limit > 0 else []:
        if a.round_started:
            starter = session.name(a.seat)
            lines.append(f"  -- round {a.steps[0].before.round} begins; {starter} holds the mayor --")
        lines.append("  " + action_text(session, a, None if width is None else width - 2))
    return lines


def task_line(session: PlaySession) -> str:
    """What the player to move must do now. Stacking is mentioned only for a building that
    stacks (tower blocks; office towers in Expert: R8, R16)."""
    s = session.state
    name = session.current.name
    if s.phase == PLACE:
        n = s.pending_architect
        btype = TILES[s.pending_tile].kind.type
        if s.config.mode is Mode.CLASSIC:
            where, rule = f"an empty square in row {n} or column {n}", "R8"
        else:
            where, rule = f"an empty square numbered {n} or in district {n}", "R16"
        if btype in GEOMETRY[s.config.mode].max_floors:  # it stacks
            word = btype.words
            where += f", or on {_a(word)} there or where it becomes floor {n}"
        tile = tile_text(s.pending_tile, s.config)
        return f"{name}: build {tile} (architect #{n}: {where}, {rule}) or discard it"
    return f"{name}: take a building - put one of your architects in a free slot"


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


__all__ = [
    "action_text",
    "architects_line",
    "city_block",
    "city_summary",
    "city_title",
    "recent_actions",
    "status_line",
    "task_line",
]
