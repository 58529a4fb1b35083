"""Text helpers of the terminal's screens: a tile in words, lines clipped and wrapped to a
width, blocks side by side, sections on pages. Plain functions of strings (and tiles)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ..config import GameConfig
from ..rules import tile_gain
from ..tiles import TILES


def tile_text(tid: int, config: GameConfig | None = None) -> str:
    """A tile in words: ``T2 tower block, +2 inhabitants``; ``PS2 public service, 2 VP``.
    What the tile gives follows the game's variants (``config``; default: none)."""
    k = TILES[tid].kind
    inhabitants, energy = tile_gain(config or GameConfig(), tid)
    words = k.words
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


__all__ = [
    "clip",
    "paginate_sections",
    "side_by_side",
    "tile_text",
    "wrap",
]
