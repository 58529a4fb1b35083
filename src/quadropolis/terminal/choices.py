"""The numbered choices of a decision: the legal moves grouped (takes by the site square
they designate; builds with the projected score after them, and why it drops), numbered, and
drawn in words or in compact cells."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..buildings import BuildingType
from ..city import GEOMETRY
from ..moves import Build, Move, Take
from ..outcome import projected_score, scores_after
from ..render import CATEGORY_TITLES, building_label, tile_label
from ..rules import legal_moves
from ..scoring import CATEGORIES, CityScore
from ..site import DESIGNATED, square_name
from ..state import PLACE, GameState
from ..tiles import TILES
from .text import clip, tile_text, wrap

_NEEDS = {
    BuildingType.TOWER_BLOCK: "1 energy",
    BuildingType.SHOP: "1 energy",
    BuildingType.PUBLIC_SERVICE: "1 inhabitant",
    BuildingType.FACTORY: "1 inhabitant",
    BuildingType.HARBOR: "1 inhabitant",
    BuildingType.OFFICE_TOWER: "1 inhabitant and 1 energy",
}


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
        text += f"; the {btype.words} is not activated yet (it needs {_NEEDS[btype]})"
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
    return "\n".join(line for block in verbose_blocks(groups, width) for line in block[0])


def verbose_blocks(groups: Sequence[ChoiceGroup], width: int) -> list[tuple[list[str], list[int]]]:
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


def compact_blocks(groups: Sequence[ChoiceGroup], width: int) -> list[tuple[list[str], list[int]]]:
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


def describe_choice(move: Move, groups: Sequence[ChoiceGroup]) -> str:
    """``choice 12 (3L4)`` for a move in the current choices."""
    for num, m in numbered(groups).items():
        if m == move:
            return f"choice {num} ({move})"
    return str(move)


__all__ = [
    "ChoiceGroup",
    "choices",
    "compact_blocks",
    "describe_choice",
    "lowering_notes",
    "lowering_reason",
    "numbered",
    "render_choices",
    "verbose_blocks",
]
