"""What ``quadropolis play`` draws: the screen of a decision (construction site, every city,
recent actions, numbered choices) and the end of the game. Pure functions of a
:class:`~quadropolis.terminal.session.PlaySession`; plain text, readable without colours."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..buildings import BuildingType
from ..city import GEOMETRY
from ..moves import Build, Move, Take
from ..outcome import Outcome, projected_score
from ..render import building_label, render_city, render_placement, render_score_sheet, render_site
from ..rules import apply_unchecked
from ..site import DESIGNATED, square_name
from ..state import PLACE, GameState
from ..tiles import TILES, Mode
from .session import PlaySession

_TYPE_WORDS = {
    BuildingType.TOWER_BLOCK: "tower block",
    BuildingType.SHOP: "shop",
    BuildingType.PUBLIC_SERVICE: "public service",
    BuildingType.PARK: "park",
    BuildingType.FACTORY: "factory",
    BuildingType.HARBOR: "harbor",
    BuildingType.OFFICE_TOWER: "office tower",
    BuildingType.MONUMENT: "monument",
}

SITE_LEGEND = (
    "(## face-down tile: not available; [U] urbanist; x slot holding an architect;"
    " - slot blocked by the urbanist)"
)
CITY_LEGEND = (
    "Letters: T tower block (T3 = 3 floors, * mayor), S shop, P public service (+VP printed),"
    " Kt tree park, Kp playground, F factory, H harbor, O office tower, M monument"
)


def tile_text(tid: int) -> str:
    """A tile in words: ``T2 tower block, +2 inhabitants``; ``PS2 public service, 2 VP``."""
    k = TILES[tid].kind
    words = _TYPE_WORDS[k.type]
    if k.type is BuildingType.PARK:
        words = "tree park" if k.tree else "playground"
    if k.mayor:
        words += " with the mayor"
    gains = []
    if k.inhabitants:
        gains.append(f"+{k.inhabitants} inhabitant{'s' if k.inhabitants > 1 else ''}")
    if k.energy:
        gains.append(f"+{k.energy} energy")
    if k.vp:
        gains.append(f"{k.vp} VP printed")
    return f"{k.code} {words}" + (", " + " ".join(gains) if gains else "")


@dataclass(frozen=True, slots=True)
class ChoiceGroup:
    """Numbered choices sharing a description: the takes designating one site square, or one
    build/discard."""

    label: str
    options: tuple[tuple[int, Move, str], ...]  # (number, move, short text)


def choices(state: GameState) -> list[ChoiceGroup]:
    """The legal moves as numbered choices. Takes are grouped by the site square they
    designate (buildings first, in site order, then the squares that give nothing); builds
    show the projected score after building; discard comes last."""
    from ..rules import legal_moves

    moves = legal_moves(state)
    player = state.current_player
    groups: list[ChoiceGroup] = []
    n = 0
    if state.phase == PLACE:
        now = projected_score(state, player).total
        city = state.cities[player]
        cols = GEOMETRY[state.config.mode].cols
        for m in moves:
            n += 1
            after = state.copy()
            apply_unchecked(after, m)
            total = projected_score(after, player).total
            delta = f"{total - now:+d}"
            if isinstance(m, Build):
                below = city[(m.row - 1) * cols + m.col - 1]
                where = "empty square" if below is None else f"on {building_label(below)}"
                label = f"build on {m} ({where}) -> projected {total} VP ({delta})"
            else:
                label = f"discard it -> projected {total} VP ({delta})"
            groups.append(ChoiceGroup(label, ((n, m, str(m)),)))
        return groups
    by_square: dict[int, list[Take]] = {}
    for m in moves:
        assert isinstance(m, Take)
        by_square.setdefault(DESIGNATED[m.slot][m.architect], []).append(m)

    def gives_nothing(q: int) -> bool:
        return state.site[q] < 0 or bool(state.face_down >> q & 1)

    for q in sorted(by_square, key=lambda q: (gives_nothing(q), q)):
        tid = state.site[q]
        if tid < 0:
            what = "empty square: takes nothing"
        elif state.face_down >> q & 1:
            what = "face-down tile: takes nothing"
        else:
            what = "takes " + tile_text(tid)
        opts = []
        for m in by_square[q]:
            n += 1
            opts.append((n, m, f"#{m.architect} at {m.slot_name}"))
        groups.append(ChoiceGroup(f"site {square_name(q)} {what}", tuple(opts)))
    return groups


def numbered(groups: Sequence[ChoiceGroup]) -> dict[int, Move]:
    return {num: m for g in groups for num, m, _ in g.options}


def render_choices(groups: Sequence[ChoiceGroup], width: int) -> str:
    """The choices, one group a line (options wrapped to ``width``)."""
    lines: list[str] = []
    single = all(len(g.options) == 1 for g in groups)
    if single:  # build / discard: one numbered line each
        for g in groups:
            num = g.options[0][0]
            lines.append(f"  {num:>2}) {g.label}")
        return "\n".join(lines)
    label_w = min(max(len(g.label) for g in groups), 48)
    for g in groups:
        head = f"  {g.label:<{label_w}}  "
        if len(head) > label_w + 4:
            lines.append(head.rstrip())
            head = " " * (label_w + 4)
        indent = " " * len(head)
        line = head
        for num, _, text in g.options:
            item = f"{num:>2}) {text}   "
            if len(line) + len(item.rstrip()) > width and line.strip():
                lines.append(line.rstrip())
                line = indent
            line += item
        lines.append(line.rstrip())
    return "\n".join(lines)


def side_by_side(blocks: Sequence[str], width: int, gap: int = 4) -> str:
    """Text blocks placed left to right, wrapping to new bands to fit ``width``."""
    split = [b.splitlines() for b in blocks]
    widths = [max(len(x) for x in b) for b in split]
    bands: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(widths):
        if bands[-1] and used + gap + w > width:
            bands.append([])
            used = 0
        used += (gap if bands[-1] else 0) + w
        bands[-1].append(i)
    out: list[str] = []
    for band in bands:
        height = max(len(split[i]) for i in band)
        for r in range(height):
            parts = [(split[i][r] if r < len(split[i]) else "").ljust(widths[i]) for i in band]
            out.append((" " * gap).join(parts).rstrip())
        out.append("")
    return "\n".join(out).rstrip("\n")


def city_block(session: PlaySession, seat: int, state: GameState | None = None, final: bool = False) -> str:
    """One city: its player's name (mayor, to play), resources, projected VP and the grid."""
    state = state or session.state
    score = projected_score(state, seat)
    tags = []
    if seat == state.mayor and not final:
        tags.append("mayor")
    if not state.is_over and seat == state.current_player:
        tags.append("to play")
    title = session.name(seat) + (f" ({', '.join(tags)})" if tags else "")
    kind = "final score" if final else "projected"
    head = f"inhabitants {state.inhabitants[seat]}  energy {state.energy[seat]}  {kind} {score.total} VP"
    grid = render_city(state.city(seat)).splitlines()[1:]
    return "\n".join([title, head, *grid])


def architects_line(session: PlaySession) -> str:
    s = session.state
    if s.config.mode is Mode.CLASSIC:
        parts = [
            f"{session.name(p)} " + " ".join(f"#{a}" for a in s.architects_available(p))
            for p in range(s.config.players)
        ]
        return "Architects left this round: " + "; ".join(parts)
    pool = ", ".join(f"#{a} x{s.architects[a]}" for a in range(1, 6) if s.architects[a])
    return f"Architect pool (shared): {pool}"


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


def recent_actions(session: PlaySession, limit: int) -> list[str]:
    """The last ``limit`` actions (a take and its build or discard), one line each."""
    lines = []
    for a in session.actions()[-limit:]:
        if a.round_started:
            starter = session.name(a.seat)
            lines.append(f"  -- round {a.steps[0].before.round} begins; {starter} holds the mayor --")
        lines.append("  " + a.describe(session.name(a.seat)))
    return lines


def task_line(session: PlaySession) -> str:
    """What the player to move must do now."""
    s = session.state
    name = session.current.name
    if s.phase == PLACE:
        n = s.pending_architect
        if s.config.mode is Mode.CLASSIC:
            where = f"an empty square of row {n} or column {n}, or stack on a matching tower block (R8)"
        else:
            where = f"an empty square numbered {n} or in district {n}, or stack (R16)"
        return f"{name}: build {tile_text(s.pending_tile)} (architect #{n}: {where}) or discard it"
    return f"{name}: take a building - put one of your architects in a free slot"


def render_screen(session: PlaySession, notices: Sequence[str], width: int) -> str:
    """The whole screen of a decision."""
    s = session.state
    parts = [status_line(session), architects_line(session)]
    parts.append("Construction site " + SITE_LEGEND + "\n" + render_site(s))
    parts.append(side_by_side([city_block(session, p) for p in range(s.config.players)], width))
    recent = recent_actions(session, s.config.players)
    if recent:
        parts.append("Last actions:\n" + "\n".join(recent))
    if notices:
        parts.append("\n".join(notices))
    return "\n\n".join(parts)


def prompt_text(session: PlaySession) -> str:
    s = session.state
    if s.phase == PLACE:
        example = "a square like r2c3, or discard"
    else:
        example = "a move like 3L4 (architect #3 in slot L4)"
    return (
        task_line(session)
        + f"\nChoose a number, or type {example}; commands: hint, undo, save [FILE], help, quit"
    )


def ranking_lines(session: PlaySession, out: Outcome) -> list[str]:
    """Players from first to last by R13 (VP, inhabitants placed, fewest empty squares)."""
    order = sorted(range(len(out.scores)), key=lambda p: out.tiebreak(p), reverse=True)
    lines = []
    rank = 0
    prev: tuple[int, int, int] | None = None
    for i, p in enumerate(order):
        key = out.tiebreak(p)
        if key != prev:
            rank = i + 1
            prev = key
        sc = out.scores[p]
        lines.append(
            f"  {rank}. {session.name(p)}: {sc.total} VP, {sc.inhabitants_placed} inhabitants placed, "
            f"{sc.empty_squares} empty squares"
        )
    return lines


def winner_line(session: PlaySession, out: Outcome) -> str:
    """The winner(s), saying which R13 tie-breaker decided."""
    names = [session.name(p) for p in out.winners]
    best = max(out.totals)
    if len(out.winners) > 1:
        return (
            f"Shared victory (R13: tied on VP, inhabitants placed and empty squares): "
            f"{' and '.join(names)} with {best} VP"
        )
    w = out.winners[0]
    tied = [p for p, t in enumerate(out.totals) if t == best and p != w]
    if not tied:
        return f"Winner: {names[0]} with {best} VP"
    others = " and ".join(session.name(p) for p in tied)
    placed = out.scores[w].inhabitants_placed
    if all(out.scores[p].inhabitants_placed < placed for p in tied):
        why = "most inhabitants placed"
    else:
        why = "fewest empty squares"
    return f"Winner: {names[0]} with {best} VP (tied on VP with {others}; wins on {why}, R13)"


def render_final(session: PlaySession, width: int) -> str:
    """The end of the game: every city, the score sheet, the optimal placements, the
    ranking and the winner(s)."""
    s = session.state
    out = session.outcome()
    names = [session.name(p) for p in range(s.config.players)]
    parts = [status_line(session)]
    parts.append(side_by_side([city_block(session, p, final=True) for p in range(s.config.players)], width))
    recent = recent_actions(session, s.config.players)
    if recent:
        parts.append("Last actions:\n" + "\n".join(recent))
    parts.append(
        "Final score sheet (optimal placement, R12):\n"
        + render_score_sheet(out.scores, names, s.config.mode is Mode.EXPERT)
    )
    placements = [
        f"{names[p]}:\n" + render_placement(s.city(p), out.scores[p]) for p in range(s.config.players)
    ]
    parts.append("Optimal placement of inhabitants and energy:\n" + "\n".join(placements))
    parts.append(
        "Ranking (R13: most VP, then most inhabitants placed, then fewest empty squares):\n"
        + "\n".join(ranking_lines(session, out))
    )
    parts.append(winner_line(session, out))
    return "\n\n".join(parts)


def describe_choice(move: Move, groups: Sequence[ChoiceGroup]) -> str:
    """``choice 12 (3L4)`` for a move in the current choices."""
    for num, m in numbered(groups).items():
        if m == move:
            return f"choice {num} ({move})"
    return str(move)


__all__ = [
    "ChoiceGroup",
    "choices",
    "describe_choice",
    "numbered",
    "render_choices",
    "render_final",
    "render_screen",
    "tile_text",
]
