"""The screen of a decision (construction site, cities, recent actions, numbered choices),
fitted to the terminal. A pure function of a :class:`~quadropolis.terminal.session.PlaySession`;
plain text, readable without colours.

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
screen. The views (help, cities, a city, the log, the end of the game) are in :mod:`.views`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..render import render_site
from ..state import PLACE
from .choices import ChoiceGroup, choices, compact_blocks, lowering_notes, numbered, verbose_blocks
from .parts import architects_line, city_block, city_summary, recent_actions, status_line, task_line
from .session import PlaySession
from .text import clip, side_by_side, wrap

SITE_LEGEND = (
    "(## face-down tile: not available; [U] urbanist; x slot holding an architect;"
    " - slot blocked by the urbanist)"
)


_GAP = "   "


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


@dataclass(slots=True)
class _Draft:
    """A decision screen before it is fitted: its sections (status and architects, the board,
    the other cities), the messages, the task, the notes on lowering builds and the choices
    (as blocks of lines with their numbers)."""

    sections: list[list[str]]
    notes: list[str]
    task: list[str]
    why: list[str]
    blocks: list[tuple[list[str], list[int]]]
    choice_lines: list[str]
    total: int  # how many choices there are
    blanks: bool  # blank lines between the parts

    def assemble(self, recent: list[str], shown: list[str], footer: list[str]) -> list[str]:
        """The lines of the screen with these recent actions, choice lines and footer."""
        parts = list(self.sections)
        if recent:
            parts.append((["Last actions:"] if self.blanks else []) + recent)
        if self.notes:
            parts.append(self.notes)
        parts.append(self.task + shown + self.why + footer)
        out: list[str] = []
        for p in parts:
            if out and self.blanks:
                out.append("")
            out.extend(p)
        return out


def _draft(
    session: PlaySession,
    notices: Sequence[str],
    width: int,
    groups: Sequence[ChoiceGroup],
    layout: _Layout,
    question: str | None,
) -> _Draft:
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
    blocks = verbose_blocks(groups, width) if layout.verbose else compact_blocks(groups, width)
    choice_lines = [line for b, _ in blocks for line in b]
    return _Draft(sections, notes, task, why, blocks, choice_lines, len(numbered(groups)), layout.blanks)


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
    """The screen in ``layout``, or None if it does not fit (the paged layout always fits)."""
    draft = _draft(session, notices, width, groups, layout, question)
    if layout.paged:
        assert height is not None
        return _paged(session, draft, width, height, page, question is not None)
    footer = wrap(_how_to_answer(session, compact=not layout.verbose), width) if question is None else []
    out = draft.assemble(
        recent_actions(session, session.state.config.players, width), draft.choice_lines, footer
    )
    if height is None or len(out) <= height:
        return Screen(tuple(out))
    return None


def _paged(session: PlaySession, draft: _Draft, width: int, height: int, page: int, asking: bool) -> Screen:
    """The last resort: the fewest recent actions that leave room, choices in pages; on a
    very small terminal the other cities, the architects, the notes and messages (but their
    last lines) and the status line go too."""
    all_recent = recent_actions(session, session.state.config.players, width)
    footer = [] if asking else [clip(_how_to_answer(session, compact=True), width)]
    choice_lines = draft.choice_lines
    need = min(len(choice_lines), 2)
    for cut in range(5):
        if height - len(draft.assemble([], [], footer)) >= need:
            break
        if cut == 0:
            draft.sections = draft.sections[:2]  # the status and architects, the board
        elif cut == 1:
            draft.sections = [draft.sections[0][:1], *draft.sections[1:]]
        elif cut == 2:
            draft.why = draft.why[:1]
        elif cut == 3:
            draft.notes = draft.notes[:2]
        else:
            draft.sections = draft.sections[1:]
    room = height - len(draft.assemble([], [], footer))
    recent = []
    if all_recent and room - 1 >= min(len(choice_lines), 3) + 1:
        # as many recent lines as leave all choices on one page, else one
        spare = room - 1 - len(choice_lines)
        keep = max(1, min(len(all_recent), spare))
        recent = all_recent[-keep:]
    room = max(1, room - len(recent))
    if len(choice_lines) <= room:
        return Screen(tuple(draft.assemble(recent, choice_lines, footer)[:height]))
    pages: list[list[tuple[list[str], list[int]]]] = [[]]
    used = 0
    for b in draft.blocks:
        if pages[-1] and used + len(b[0]) > room:
            pages.append([])
            used = 0
        pages[-1].append(b)
        used += len(b[0])
    page %= len(pages)
    shown = [line for b, _ in pages[page] for line in b]
    nums = [n for _, ns in pages[page] for n in ns]
    total = draft.total
    paging = f"[{nums[0]}-{nums[-1]} of {total}, page {page + 1}/{len(pages)}: more, back]" if nums else "[]"
    footer = [clip(_how_to_answer(session, compact=True, paging=paging), width)]
    out = draft.assemble(recent, shown, footer)
    return Screen(tuple(out[: max(height, 1)]), page, len(pages))


__all__ = [
    "SITE_LEGEND",
    "Screen",
    "board_lines",
    "render_screen",
]
