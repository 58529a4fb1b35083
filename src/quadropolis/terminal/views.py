"""The views shown instead of the board (help, every city, one city, the log), in pages,
and the end of the game (ranking, winner, cities, score sheet, placements)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..outcome import Outcome, projected_score
from ..render import CATEGORY_TITLES, render_legend, render_placement, render_score_sheet
from ..scoring import CityScore, mode_categories
from ..tiles import Mode
from .parts import city_block, recent_actions, status_line
from .screen import Screen
from .session import PlaySession
from .text import clip, paginate_sections, side_by_side, wrap

#: Where the rules are, as the help says it.
RULES_WHERE = "docs/rules.md in the quadropolis repository\n  (rulings R1–R16 are cited in messages)"


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
        for c in mode_categories(Mode.EXPERT if expert else Mode.CLASSIC)
        if score.breakdown[c]
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


__all__ = [
    "HELP",
    "RULES_WHERE",
    "breakdown_line",
    "cities_sections",
    "city_sections",
    "final_sections",
    "help_sections",
    "help_text",
    "log_lines",
    "ranking_lines",
    "render_final",
    "view_screen",
    "winner_line",
]
