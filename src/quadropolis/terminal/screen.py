"""What ``quadropolis play`` draws: the screen of a decision (construction site, cities,
recent actions, numbered choices), the views (help, cities, one city, the log) and the end
of the game. Pure functions of a :class:`~quadropolis.terminal.session.PlaySession`; plain
text, readable without colours.

Every screen is fitted to the terminal: ``width`` columns and, when ``height`` is given, at
most ``height`` lines (the prompt comes on the line after). A decision screen tries layouts
from the richest to the most compact and takes the first that fits:

1. sections separated by blank lines, choices described in words, every city in full;
2. the same without blank lines;
3. choices in compact form (``r1c3 T1*  9)1T3 10)5B3``), several to a line;
4. the other cities as one-line summaries (``city N`` shows one in full);
5. as few recent actions as leave room (one at least), the choices in pages (``more``,
   ``back``); on a tiny terminal the other cities and the status lines go too.

The construction site always stands beside (or, when too narrow, above) the city of the
player to move, so on an 80x24 terminal the site, that city and the prompt are always on
screen."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..buildings import BuildingType
from ..city import GEOMETRY
from ..config import GameConfig
from ..moves import Build, Move, Take
from ..outcome import Outcome, projected_score, scores_after
from ..render import (
    CATEGORY_TITLES,
    building_label,
    render_city,
    render_legend,
    render_placement,
    render_score_sheet,
    render_site,
    tile_label,
)
from ..rules import legal_moves, tile_gain
from ..scoring import CATEGORIES, CityScore
from ..site import DESIGNATED, square_name
from ..state import PLACE, GameState
from ..tiles import TILES, Mode
from .session import Action, PlaySession

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

#: What activates each building (RULES.md §3); parks and monuments need nothing.
_NEEDS = {
    BuildingType.TOWER_BLOCK: "1 energy",
    BuildingType.SHOP: "1 energy",
    BuildingType.PUBLIC_SERVICE: "1 inhabitant",
    BuildingType.FACTORY: "1 inhabitant",
    BuildingType.HARBOR: "1 inhabitant",
    BuildingType.OFFICE_TOWER: "1 inhabitant and 1 energy",
}

SITE_LEGEND = (
    "(## face-down tile: not available; [U] urbanist; x slot holding an architect;"
    " - slot blocked by the urbanist)"
)

#: Where the rules are, as the help says it.
RULES_WHERE = "docs/rules.md in the quadropolis repository\n  (rulings R1–R16 are cited in messages)"

_GAP = "   "


def tile_text(tid: int, config: GameConfig | None = None) -> str:
    """A tile in words: ``T2 tower block, +2 inhabitants``; ``PS2 public service, 2 VP``.
    What the tile gives follows the game's variants (``config``; default: none)."""
    k = TILES[tid].kind
    inhabitants, energy = tile_gain(config or GameConfig(), tid)
    words = _TYPE_WORDS[k.type]
    if k.type is BuildingType.PARK:
        words = "tree park" if k.tree else "playground"
    if k.mayor:
        words += " with the mayor"
    gains = []
    if inhabitants:
        gains.append(f"+{inhabitants} inhabitant{'s' if inhabitants > 1 else ''}")
    if energy:
        gains.append(f"+{energy} energy")
    if k.vp:
        gains.append(f"{k.vp} VP printed")
    return f"{k.code} {words}" + (", " + " ".join(gains) if gains else "")


# --- text helpers -----------------------------------------------------------------------------


def clip(line: str, width: int) -> str:
    """``line`` cut to ``width`` columns (``..`` marks a cut)."""
    line = line.rstrip()
    return line if len(line) <= width else line[: max(0, width - 2)].rstrip() + ".."


def wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    """Each line of ``text`` wrapped to ``width`` (continuations indented by ``indent``
    beyond the line's own indentation)."""
    out: list[str] = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line.rstrip())
            continue
        lead = line[: len(line) - len(line.lstrip())]
        out.extend(
            textwrap.wrap(
                line.strip(),
                width,
                initial_indent=lead,
                subsequent_indent=lead + indent,
                break_on_hyphens=False,
            )
            or [""]
        )
    return out


def side_by_side(blocks: Sequence[str], width: int, gap: int = 4) -> str:
    """Text blocks placed left to right, wrapping to new bands to fit ``width``."""
    split = [b.splitlines() for b in blocks]
    widths = [max((len(x) for x in b), default=0) for b in split]
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


def paginate_sections(sections: Sequence[Sequence[str]], height: int | None) -> list[list[str]]:
    """Sections (lists of lines) put on pages of at most ``height`` lines, a blank line
    between sections, never splitting a section that fits on a page."""
    if height is None:
        out: list[str] = []
        for sec in sections:
            if out:
                out.append("")
            out.extend(sec)
        return [out]
    pages: list[list[str]] = [[]]
    for sec in sections:
        page = pages[-1]
        need = len(sec) + (1 if page else 0)
        if page and len(page) + need > height:
            pages.append([])
            page = pages[-1]
        if page:
            page.append("")
        if len(sec) <= height - len(page):
            page.extend(sec)
            continue
        for line in sec:  # too long for one page: cut it
            if len(pages[-1]) >= height:
                pages.append([])
            pages[-1].append(line)
    return [p for p in pages if p] or [[]]


# --- choices ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChoiceGroup:
    """Numbered choices sharing a description: the takes designating one site square, or one
    build/discard. ``short`` is the compact description; ``why`` says why a build lowers the
    projected score (empty otherwise)."""

    label: str
    options: tuple[tuple[int, Move, str], ...]  # (number, move, short text)
    short: str = ""
    why: str = ""


def lowering_reason(before: CityScore, after: CityScore, square: int | None, btype: BuildingType) -> str:
    """Why a build changes the projected score as it does: the categories of the projected
    breakdown that change (``-3 = 3 inhabitants not placed (unused inhabitants -3)``) and,
    when the new building is not activated, what it needs."""
    parts = []
    for c in CATEGORIES:
        d = after.breakdown[c] - before.breakdown[c]
        if not d:
            continue
        if c == "unused_inhabitants" and d < 0:
            parts.append(f"{-d} inhabitant{'s' if d < -1 else ''} not placed (unused inhabitants {d:+d})")
        elif c == "pollution" and d < 0:
            parts.append(f"{-d} unused energy (pollution {d:+d})")
        else:
            parts.append(f"{CATEGORY_TITLES[c].lower()} {d:+d}")
    text = f"{after.total - before.total:+d} = " + ", ".join(parts)
    if square is not None and square in after.placement.removed and btype in _NEEDS:
        text += f"; the {_TYPE_WORDS[btype]} is not activated yet (it needs {_NEEDS[btype]})"
    return text


def choices(state: GameState) -> list[ChoiceGroup]:
    """The legal moves as numbered choices. Takes are grouped by the site square they
    designate (buildings first, in site order, then the squares that give nothing); builds
    show the projected score after building (and why, when it drops); discard comes last."""
    moves = legal_moves(state)
    player = state.current_player
    groups: list[ChoiceGroup] = []
    n = 0
    if state.phase == PLACE:
        before = projected_score(state, player)
        now = before.total
        city = state.cities[player]
        cols = GEOMETRY[state.config.mode].cols
        btype = TILES[state.pending_tile].kind.type
        for m, after in scores_after(state, player):
            n += 1
            total = after.total
            delta = f"{total - now:+d}"
            why = ""
            if isinstance(m, Build):
                q = (m.row - 1) * cols + m.col - 1
                below = city[q]
                where = "empty square" if below is None else f"on {building_label(below)}"
                label = f"build on {m} ({where}) -> projected {total} VP ({delta})"
                short = (
                    f"{m}{'' if below is None else ' on ' + building_label(below)} -> {total} VP ({delta})"
                )
                if total < now:
                    why = lowering_reason(before, after, q, btype)
            else:
                label = f"discard it -> projected {total} VP ({delta})"
                short = f"discard -> {total} VP ({delta})"
            groups.append(ChoiceGroup(label, ((n, m, str(m)),), short, why))
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
            what, code = "empty square: takes nothing", "-"
        elif state.face_down >> q & 1:
            what, code = "face-down tile: takes nothing", "##"
        else:
            what, code = "takes " + tile_text(tid, state.config), tile_label(tid)
        opts = []
        for m in by_square[q]:
            n += 1
            opts.append((n, m, f"#{m.architect} at {m.slot_name}"))
        groups.append(ChoiceGroup(f"site {square_name(q)} {what}", tuple(opts), f"{square_name(q)} {code}"))
    return groups


def numbered(groups: Sequence[ChoiceGroup]) -> dict[int, Move]:
    return {num: m for g in groups for num, m, _ in g.options}


def render_choices(groups: Sequence[ChoiceGroup], width: int) -> str:
    """The choices in words, one group a line (options wrapped to ``width``)."""
    return "\n".join(line for block in _verbose_blocks(groups, width) for line in block[0])


def _verbose_blocks(groups: Sequence[ChoiceGroup], width: int) -> list[tuple[list[str], list[int]]]:
    """Each group as its lines in words, with its choice numbers."""
    blocks: list[tuple[list[str], list[int]]] = []
    if not groups:
        return blocks
    if all(len(g.options) == 1 for g in groups):  # build / discard: one numbered line each
        for g in groups:
            num = g.options[0][0]
            blocks.append((wrap(f"  {num:>2}) {g.label}", width, "      "), [num]))
        return blocks
    label_w = min(max(len(g.label) for g in groups), 48, max(10, width - 20))
    for g in groups:
        lines = []
        head = f"  {g.label:<{label_w}}  "
        if len(head) > label_w + 4:
            lines.extend(wrap(head.rstrip(), width))
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
        blocks.append((lines, [num for num, _, _ in g.options]))
    return blocks


def _compact_blocks(groups: Sequence[ChoiceGroup], width: int) -> list[tuple[list[str], list[int]]]:
    """The choices in compact cells (``r1c3 T1*  9)1T3 10)5B3``; ``3) r2c2 -> 7 VP (-3)``),
    as many to a line as fit; each line is a block."""
    if not groups:
        return []
    cells: list[tuple[str, list[int]]] = []
    if all(len(g.options) == 1 for g in groups):
        nw = len(str(groups[-1].options[0][0]))
        for g in groups:
            num = g.options[0][0]
            cells.append((f"{num:>{nw}}) {g.short or g.label}" + (" !" if g.why else ""), [num]))
    else:
        label_w = max(len(g.short) for g in groups)
        for g in groups:
            opts = " ".join(f"{num:>2}){m}" for num, m, _ in g.options)
            cells.append((f"{g.short:<{label_w}} {opts}", [num for num, _, _ in g.options]))
    gap = 2
    half = (width - gap) // 2
    small = [len(c) for c, _ in cells if len(c) <= half]
    cw = max(small) if len(small) * 5 >= len(cells) * 4 else max(len(c) for c, _ in cells)
    blocks: list[tuple[list[str], list[int]]] = []
    line = ""
    nums: list[int] = []
    for text, ns in cells:
        text = clip(text, width)
        piece = text.ljust(cw)
        if line and len(line) + gap + len(piece.rstrip()) > width:
            blocks.append(([line.rstrip()], nums))
            line, nums = "", []
        line = (line + " " * gap + piece) if line else piece
        nums = nums + ns
    if line:
        blocks.append(([line.rstrip()], nums))
    return blocks


def _ranges(nums: Sequence[int]) -> str:
    """``1-6, 9`` for the numbers given."""
    out: list[str] = []
    ns = sorted(nums)
    i = 0
    while i < len(ns):
        j = i
        while j + 1 < len(ns) and ns[j + 1] == ns[j] + 1:
            j += 1
        out.append(f"{ns[i]}-{ns[j]}" if j > i else str(ns[i]))
        i = j + 1
    return ", ".join(out)


def lowering_notes(groups: Sequence[ChoiceGroup]) -> list[str]:
    """Why the builds that lower the projected score do so, one line per distinct reason."""
    reasons: dict[str, list[int]] = {}
    for g in groups:
        if g.why:
            reasons.setdefault(g.why, []).extend(num for num, _, _ in g.options)
    if not reasons:
        return []
    head = "! lowers the projected VP (the city scored as if the game ended now):"
    return [head] + [f"  {_ranges(nums)}: {why}" for why, nums in reasons.items()]


# --- the parts of a screen ----------------------------------------------------------------------


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
            word = _TYPE_WORDS[btype]
            where += f", or on {_a(word)} there or where it becomes floor {n}"
        tile = tile_text(s.pending_tile, s.config)
        return f"{name}: build {tile} (architect #{n}: {where}, {rule}) or discard it"
    return f"{name}: take a building - put one of your architects in a free slot"


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _how_to_answer(session: PlaySession, compact: bool, paging: str = "") -> str:
    place = session.state.phase == PLACE
    example = "r2c3" if place else "3L4"
    if paging:
        return f"{paging} number or move ({example}); help lists commands"
    if compact:
        return f"Number or move ({example}); or help, hint, undo, cities, city N, log, save, quit"
    words = "a square like r2c3, or discard" if place else "a move like 3L4 (architect #3 in slot L4)"
    commands = "hint, undo, cities, city N, log, save [FILE], help, quit"
    return f"Choose a number, or type {words}; commands: {commands}"


# --- the decision screen --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Screen:
    """A screen to draw above the prompt: its lines, and the page of choices shown."""

    lines: tuple[str, ...]
    page: int = 0
    pages: int = 1

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True, slots=True)
class _Layout:
    blanks: bool  # blank lines between the sections
    verbose: bool  # choices described in words
    full_cities: bool  # the other cities in full (else one-line summaries)
    paged: bool  # the last resort: one recent action, choices in pages


_LAYOUTS = (
    _Layout(True, True, True, False),
    _Layout(False, True, True, False),
    _Layout(False, False, True, False),
    _Layout(False, False, False, False),
    _Layout(False, False, False, True),
)


def board_lines(
    session: PlaySession, width: int, full_cities: bool, long_head: bool, seat: int | None = None
) -> list[list[str]]:
    """The board as sections: the construction site beside the city of ``seat`` (default:
    the player to move), then the other cities (in full side by side, or one line each)."""
    s = session.state
    me = s.current_player if seat is None else seat
    site = render_site(s).splitlines()
    site_w = max(len(x) for x in site)
    mine_w = width - site_w - len(_GAP)
    mine = city_block(session, me, long_head=long_head).splitlines()
    if max(len(x) for x in mine) > mine_w:
        mine = city_block(session, me, long_head=False, width=max(mine_w, 20)).splitlines()
    if max(len(x) for x in mine) <= mine_w:
        board = [
            (
                (site[i] if i < len(site) else "").ljust(site_w) + _GAP + (mine[i] if i < len(mine) else "")
            ).rstrip()
            for i in range(max(len(site), len(mine)))
        ]
    else:  # too narrow: the site above the city
        board = site + [clip(x, width) for x in city_block(session, me, long_head=False).splitlines()]
    others = [p for p in range(s.config.players) if p != me]
    sections = [board]
    if others:
        if full_cities:
            blocks = [city_block(session, p, long_head=long_head) for p in others]
            sections.append([clip(x, width) for x in side_by_side(blocks, width).splitlines()])
        else:
            sections.append([city_summary(session, p, width) for p in others])
    return sections


def render_screen(
    session: PlaySession,
    notices: Sequence[str],
    width: int,
    height: int | None = None,
    page: int = 0,
    groups: Sequence[ChoiceGroup] | None = None,
    question: str | None = None,
) -> Screen:
    """The screen of a decision, fitted to ``width`` columns and ``height`` lines (the
    prompt comes on the next line): status, architects, the site beside the current city,
    the other cities, recent actions, messages, the task, the choices (page ``page`` when
    they need several) and how to answer; or, given a ``question``, the question instead
    of the task and choices."""
    groups = list(groups) if groups is not None else choices(session.state)
    for layout in _LAYOUTS[:-1] if height is not None else _LAYOUTS[:1]:
        screen = _compose(session, notices, width, height, page, groups, layout, question)
        if screen is not None:
            return screen
    screen = _compose(session, notices, width, height, page, groups, _LAYOUTS[-1], question)
    assert screen is not None  # the paged layout always fits
    return screen


def _compose(
    session: PlaySession,
    notices: Sequence[str],
    width: int,
    height: int | None,
    page: int,
    groups: Sequence[ChoiceGroup],
    layout: _Layout,
    question: str | None = None,
) -> Screen | None:
    s = session.state
    players = s.config.players
    head = [clip(status_line(session), width), *wrap(architects_line(session, width), width)]
    sections = [head, *board_lines(session, width, layout.full_cities, long_head=layout.blanks)]
    if layout.blanks:
        sections[1:2] = [
            ["Construction site " + SITE_LEGEND] if len(SITE_LEGEND) + 18 <= width else [],
            sections[1],
        ]
        sections = [sec for sec in sections if sec]
    notes = [line for n in notices for line in wrap(n, width)]
    if question is not None:  # a question replaces the task and the choices
        notes += wrap(question, width)
        groups = []
    task = wrap(task_line(session), width) if question is None else []
    why = [line for n in lowering_notes(groups) for line in wrap(n, width, "    ")]
    blocks = _verbose_blocks(groups, width) if layout.verbose else _compact_blocks(groups, width)
    choice_lines = [line for b, _ in blocks for line in b]

    def assemble(recent: list[str], shown: list[str], footer: list[str]) -> list[str]:
        parts = list(sections)
        if recent:
            parts.append((["Last actions:"] if layout.blanks else []) + recent)
        if notes:
            parts.append(notes)
        parts.append(task + shown + why + footer)
        out: list[str] = []
        for p in parts:
            if out and layout.blanks:
                out.append("")
            out.extend(p)
        return out

    if not layout.paged:
        footer = wrap(_how_to_answer(session, compact=not layout.verbose), width) if question is None else []
        out = assemble(recent_actions(session, players, width), choice_lines, footer)
        if height is None or len(out) <= height:
            return Screen(tuple(out))
        return None
    # The last resort: the fewest recent actions that leave room, choices in pages; on a
    # very small terminal the other cities, the architects, the notes and messages (but
    # their last lines) and the status line go too.
    assert height is not None
    all_recent = recent_actions(session, players, width)
    footer = [clip(_how_to_answer(session, compact=True), width)] if question is None else []
    need = min(len(choice_lines), 2)
    for cut in range(5):
        if height - len(assemble([], [], footer)) >= need:
            break
        if cut == 0:
            sections = sections[:2]  # the status and architects, the board
        elif cut == 1:
            sections = [sections[0][:1], *sections[1:]]
        elif cut == 2:
            why = why[:1]
        elif cut == 3:
            notes = notes[:2]
        else:
            sections = sections[1:]
    base = assemble([], [], footer)
    room = height - len(base)
    recent = []
    if all_recent and room - 1 >= min(len(choice_lines), 3) + 1:
        # as many recent lines as leave all choices on one page, else one
        spare = room - 1 - len(choice_lines)
        keep = max(1, min(len(all_recent), spare))
        recent = all_recent[-keep:]
    room = max(1, room - len(recent))
    if len(choice_lines) <= room:
        return Screen(tuple(assemble(recent, choice_lines, footer)[:height]))
    pages: list[list[tuple[list[str], list[int]]]] = [[]]
    used = 0
    for b in blocks:
        if pages[-1] and used + len(b[0]) > room:
            pages.append([])
            used = 0
        pages[-1].append(b)
        used += len(b[0])
    page %= len(pages)
    shown = [line for b, _ in pages[page] for line in b]
    nums = [n for _, ns in pages[page] for n in ns]
    total = len(numbered(groups))
    paging = f"[{nums[0]}-{nums[-1]} of {total}, page {page + 1}/{len(pages)}: more, back]" if nums else "[]"
    footer = [clip(_how_to_answer(session, compact=True, paging=paging), width)]
    out = assemble(recent, shown, footer)
    return Screen(tuple(out[: max(height, 1)]), page, len(pages))


# --- views: help, cities, one city, the log ---------------------------------------------------------


HELP = """\
How to play. The rules: {rules}
On your turn type the number of a choice, or the move itself:
  3L4      take: architect #3 in slot L4 (the left end of row 4 of the site);
           architect #n designates the n-th square counted from its slot's side
  r2c3     build the building taken on row 2, column 3 of your city
  discard  discard the building taken (R9)
Commands:
  more, back    next or previous page (of the choices, or of this help)
  cities        every city in full
  city N        city N (its seat number) in full, with its projected score
  log           every action so far
  hint          what the hint bot ({hint}) would play here
  undo          take back your last action while no one else has acted since
  save [FILE]   write the game record (quadropolis-game/1){save}
  board, Enter  back to the game
  help          this text; 'more' (or 'legend') for the tile codes
  quit          leave the game (asks to save moves not saved; Ctrl-D too)"""


def help_text(hint: str, save_default: str | None, mode: Mode | None = None) -> str:
    """The help: how to play, the commands, where the rules are, then the tile codes."""
    rules = RULES_WHERE
    save = f" (default {save_default})" if save_default else ""
    return HELP.format(rules=rules, hint=hint, save=save) + "\n\n" + render_legend(mode)


def help_sections(hint: str, save_default: str | None, mode: Mode | None, width: int) -> list[list[str]]:
    text = help_text(hint, save_default, mode)
    commands, _, legend = text.partition("\n\n")
    return [wrap(commands, width), wrap(legend, width)]


def cities_sections(session: PlaySession, width: int) -> list[list[str]]:
    """Every city in full (side by side as the width allows)."""
    s = session.state
    long_head = width >= 100
    blocks = [city_block(session, p, long_head=long_head) for p in range(s.config.players)]
    bands = side_by_side(blocks, width).split("\n\n")
    return [[clip(x, width) for x in band.splitlines()] for band in bands]


def breakdown_line(score: CityScore, expert: bool) -> str:
    """A projected score by category, the categories that score only."""
    parts = [
        f"{CATEGORY_TITLES[c].lower()} {score.breakdown[c]:+d}"
        for c in CATEGORIES
        if score.breakdown[c] and (expert or c not in ("office_tower", "monument"))
    ]
    return f"{score.total} VP = " + (", ".join(parts) if parts else "nothing yet")


def city_sections(session: PlaySession, seat: int, width: int) -> list[list[str]]:
    """One city in full, its projected score by category and the placement achieving it."""
    s = session.state
    score = projected_score(s, seat)
    city = s.city(seat)
    expert = s.config.mode is Mode.EXPERT
    return [
        [clip(x, width) for x in city_block(session, seat, long_head=True).splitlines()],
        wrap("Projected score (as if the game ended now): " + breakdown_line(score, expert), width),
        [
            "Placement of inhabitants and energy achieving it:",
            *wrap(render_placement(city, score), width, "    "),
        ],
    ]


def log_lines(session: PlaySession, width: int) -> list[str]:
    """Every action so far, in full, a line where each round begins."""
    lines = []
    rnd = 0
    for a in session.actions():
        first = a.steps[0].before
        if first.round != rnd:
            rnd = first.round
            lines.append(f"-- round {rnd}: {session.name(first.starter)} holds the mayor --")
        lines.extend(wrap("  " + a.describe(session.name(a.seat)), width, "    "))
    return lines or ["No action yet."]


def view_screen(
    title: str, sections: Sequence[Sequence[str]], width: int, height: int | None, page: int, back: str
) -> Screen:
    """A view (help, cities, a city, the log) in pages of ``height`` lines, its last line
    saying how to page and how to go back."""
    body_h = None if height is None else max(1, height - 1)
    pages = paginate_sections(sections, body_h)
    page = min(max(page, 0), len(pages) - 1) if page >= 0 else len(pages) + page
    page = min(max(page, 0), len(pages) - 1)
    more = f"page {page + 1}/{len(pages)}: more, back; " if len(pages) > 1 else ""
    footer = clip(f"[{title}: {more}{back}]", width)
    return Screen(tuple([*pages[page], footer]), page, len(pages))


# --- the end of the game ----------------------------------------------------------------------


def ranking_lines(session: PlaySession, out: Outcome) -> list[str]:
    """Players from first to last place by R13 (the outcome's ranks)."""
    lines = []
    for p in out.order:
        sc = out.scores[p]
        lines.append(
            f"  {out.ranks[p]}. {session.name(p)}: {sc.total} VP, "
            f"{sc.inhabitants_placed} inhabitants placed, {sc.empty_squares} empty squares"
        )
    return lines


#: What settled a single winner, in the players' words (``Outcome.decided_by``).
_DECIDED_WORDS: Final = {
    "inhabitants_placed": "most inhabitants placed",
    "empty_squares": "fewest empty squares",
}


def winner_line(session: PlaySession, out: Outcome) -> str:
    """The winner(s), saying which R13 tie-breaker decided."""
    names = [session.name(p) for p in out.winners]
    best = max(out.totals)
    if out.decided_by == "shared":
        return (
            f"Shared victory (R13: tied on VP, inhabitants placed and empty squares): "
            f"{' and '.join(names)} with {best} VP"
        )
    if out.decided_by == "score":
        return f"Winner: {names[0]} with {best} VP"
    w = out.winners[0]
    others = " and ".join(session.name(p) for p, t in enumerate(out.totals) if t == best and p != w)
    why = _DECIDED_WORDS[out.decided_by]
    return f"Winner: {names[0]} with {best} VP (tied on VP with {others}; wins on {why}, R13)"


def final_sections(session: PlaySession, width: int) -> list[list[str]]:
    """The end of the game as sections: the ranking and the winner(s), every city, the
    score sheet, the optimal placements, the last actions."""
    s = session.state
    out = session.outcome()
    names = [session.name(p) for p in range(s.config.players)]
    long_head = width >= 100
    sheet = render_score_sheet(out.scores, names, s.config.mode is Mode.EXPERT, width=width)
    cities = side_by_side(
        [city_block(session, p, final=True, long_head=long_head) for p in range(s.config.players)], width
    ).split("\n\n")
    sections = [
        [clip(status_line(session), width)],
        wrap(winner_line(session, out), width),
        wrap("Ranking (R13: VP, then inhabitants placed, then fewest empty squares):", width)
        + [clip(x, width) for x in ranking_lines(session, out)],
        *[[clip(x, width) for x in band.splitlines()] for band in cities],
        ["Final score sheet (optimal placement, R12):", *sheet.splitlines()],
    ]
    placements = ["Optimal placement of inhabitants and energy:"]
    for p in range(s.config.players):
        placements.append(f"{names[p]}:")
        placements.extend(wrap(render_placement(s.city(p), out.scores[p]), width, "    "))
    sections.append(placements)
    recent = recent_actions(session, s.config.players, width)
    if recent:
        sections.append(["Last actions:", *recent])
    return sections


def render_final(session: PlaySession, width: int) -> str:
    """The whole end of the game in one text (no height limit)."""
    return "\n".join(paginate_sections(final_sections(session, width), None)[0])


def describe_choice(move: Move, groups: Sequence[ChoiceGroup]) -> str:
    """``choice 12 (3L4)`` for a move in the current choices."""
    for num, m in numbered(groups).items():
        if m == move:
            return f"choice {num} ({move})"
    return str(move)


__all__ = [
    "ChoiceGroup",
    "Screen",
    "choices",
    "cities_sections",
    "city_sections",
    "describe_choice",
    "final_sections",
    "help_sections",
    "help_text",
    "log_lines",
    "numbered",
    "render_choices",
    "render_final",
    "render_screen",
    "tile_text",
    "view_screen",
]
