"""The table as a picture: ``render_mode="rgb_array"`` of the Gymnasium and PettingZoo envs.

:func:`table_picture` draws a position with Pillow into an H x W x 3 ``uint8`` array of a
fixed size (:data:`PICTURE_SIZE`, the same for every frame of every game, as a video needs):

- a header: mode, round and turn, and who does what now (``Player 2 to take``, ``Player 1 to
  build T2 (architect #3)``), or the final result;
- the construction site, 5 x 5: each face-up tile in its building type's colour with its
  label (:func:`quadropolis.render.tile_label`), face-down tiles hatched (R4), the urbanist a
  white ring; around it the 20 slots, filled when an architect holds one, crossed when the
  urbanist blocks it (R5);
- every city (a 2 x 2 grid of them), its squares in the colours of their buildings with their
  labels (:func:`quadropolis.render.building_label`), under a title with the seat, its exact
  projected score (R12), inhabitants and energy, the mayor; the player to move framed in
  yellow and the agent's city (Gymnasium) marked.

Presentation only: it reads the state, never changes it, and shows nothing the players do not
see (face-down tiles stay hidden). Needs Pillow (the ``rl`` extra), imported by the render
call only.
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from ..buildings import BuildingType
from ..city import GEOMETRY
from ..outcome import outcome, projected_score
from ..phases import OVER, PLACE
from ..render import building_label, seat_names, tile_label
from ..site import BLOCKED_SLOTS, SLOT_NAMES
from ..state import GameState
from ..tiles import ROUNDS, TILES, Mode

__all__ = ["PICTURE_SIZE", "TYPE_COLOURS", "table_picture"]

#: Width and height of every picture, in pixels (multiples of 16, as video encoders like).
PICTURE_SIZE: Final = (960, 544)

_B = BuildingType
#: The colour of each building type (RGB).
TYPE_COLOURS: Final[dict[BuildingType, tuple[int, int, int]]] = {
    _B.TOWER_BLOCK: (66, 110, 204),
    _B.SHOP: (232, 183, 40),
    _B.PUBLIC_SERVICE: (145, 92, 200),
    _B.PARK: (60, 165, 87),
    _B.FACTORY: (138, 106, 74),
    _B.HARBOR: (38, 160, 180),
    _B.OFFICE_TOWER: (226, 120, 52),
    _B.MONUMENT: (214, 80, 122),
}
_BACKGROUND: Final = (28, 31, 38)
_PANEL: Final = (40, 44, 54)
_EMPTY: Final = (58, 63, 76)
_MISSING: Final = (34, 37, 45)  # no square (Classic cities use 4 columns of the 5)
_GRID: Final = (92, 98, 114)
_TEXT: Final = (235, 237, 242)
_DIM: Final = (150, 156, 170)
_TO_MOVE: Final = (255, 214, 64)
_BLOCKED: Final = (214, 76, 76)
_ARCHITECT: Final = (240, 240, 240)

_HEADER = 40
_SITE_CELL = 62
_SLOT = 26  # the band of slots around the site
_SITE_X, _SITE_Y = 24, _HEADER + 34
_CITY_CELL = 44
_CITIES_X = _SITE_X + 2 * _SLOT + 5 * _SITE_CELL + 40
_CITY_W = (PICTURE_SIZE[0] - _CITIES_X - 16) // 2
_CITY_H = (PICTURE_SIZE[1] - _HEADER - 16) // 2
_TITLE = 40  # the title lines above a city's grid


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _text_colour(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Dark text on a light fill, light text on a dark one (legible on every colour)."""
    r, g, b = fill
    return (20, 20, 24) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else _TEXT


def _cell(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    fill: tuple[int, int, int],
    label: str,
    size: int,
) -> None:
    draw.rectangle(box, fill=fill, outline=_GRID, width=1)
    if label:
        x0, y0, x1, y1 = box
        draw.text(
            ((x0 + x1) / 2, (y0 + y1) / 2), label, font=_font(size), anchor="mm", fill=_text_colour(fill)
        )


def _header(draw: ImageDraw.ImageDraw, state: GameState, names: list[str]) -> None:
    cfg = state.config
    mode = cfg.mode.value.capitalize()
    if state.phase == OVER:
        result = outcome(state)
        won = " and ".join(names[p] for p in result.winners)
        what = f"game over: {won} {'win' if len(result.winners) > 1 else 'wins'}"
        where = f"{mode}, {cfg.players} players"
    else:
        p = state.current_player
        if state.phase == PLACE:
            tile = tile_label(state.pending_tile)
            what = f"{names[p]} to build {tile} (architect #{state.pending_architect}) or discard it"
        else:
            what = f"{names[p]} to take a building"
        where = (
            f"{mode}, {cfg.players} players · round {state.round}/{ROUNDS[cfg.mode]} · turn {state.turn}/4"
        )
    draw.rectangle((0, 0, PICTURE_SIZE[0], _HEADER), fill=_PANEL)
    draw.text((16, _HEADER / 2), "QUADROPOLIS", font=_font(18), anchor="lm", fill=_TO_MOVE)
    draw.text((150, _HEADER / 2), where, font=_font(16), anchor="lm", fill=_DIM)
    draw.text((PICTURE_SIZE[0] - 16, _HEADER / 2), what, font=_font(16), anchor="rm", fill=_TEXT)


def _site(draw: ImageDraw.ImageDraw, state: GameState) -> None:
    x0, y0 = _SITE_X + _SLOT, _SITE_Y + _SLOT
    size = 5 * _SITE_CELL
    draw.text((_SITE_X, _SITE_Y - 22), "construction site", font=_font(15), fill=_DIM)
    for q in range(25):
        r, c = divmod(q, 5)
        box = (x0 + c * _SITE_CELL, y0 + r * _SITE_CELL, x0 + (c + 1) * _SITE_CELL, y0 + (r + 1) * _SITE_CELL)
        tid = state.site[q]
        if tid < 0:
            _cell(draw, box, _EMPTY, "", 18)
        elif state.face_down >> q & 1:  # hidden (R4): hatched, no label
            _cell(draw, box, _MISSING, "", 18)
            for k in range(-_SITE_CELL, _SITE_CELL, 10):
                draw.line(
                    (
                        box[0] + max(k, 0),
                        box[1] + max(-k, 0),
                        box[0] + min(_SITE_CELL, _SITE_CELL + k),
                        box[1] + min(_SITE_CELL, _SITE_CELL - k),
                    ),
                    fill=_GRID,
                    width=1,
                )
        else:
            _cell(draw, box, TYPE_COLOURS[TILES[tid].kind.type], tile_label(tid), 18)
        if q == state.urbanist:
            draw.ellipse((box[0] + 5, box[1] + 5, box[2] - 5, box[3] - 5), outline=_ARCHITECT, width=4)
    blocked = (
        BLOCKED_SLOTS[state.urbanist]
        if 0 <= state.urbanist < 25 and state.config.urbanist_blocks == "lines"
        else 0
    )
    for i, name in enumerate(SLOT_NAMES):
        side, line = name[0], int(name[1]) - 1
        mid = line * _SITE_CELL + _SITE_CELL // 2
        cx, cy = {
            "T": (x0 + mid, y0 - _SLOT // 2),
            "B": (x0 + mid, y0 + size + _SLOT // 2),
            "L": (x0 - _SLOT // 2, y0 + mid),
            "R": (x0 + size + _SLOT // 2, y0 + mid),
        }[side]
        box = (cx - 10, cy - 10, cx + 10, cy + 10)
        if state.slots_used >> i & 1:  # an architect stands there
            draw.ellipse(box, fill=_ARCHITECT)
        elif blocked >> i & 1:  # the urbanist blocks it (R5)
            draw.ellipse(box, outline=_BLOCKED, width=2)
            draw.line((box[0] + 4, box[1] + 4, box[2] - 4, box[3] - 4), fill=_BLOCKED, width=2)
        else:
            draw.ellipse(box, outline=_GRID, width=2)
            draw.text((cx, cy), name, font=_font(10), anchor="mm", fill=_DIM)


def _legend(draw: ImageDraw.ImageDraw, expert: bool) -> None:
    """The colours' meaning, under the site (office towers and monuments in Expert only)."""
    y = _SITE_Y + 2 * _SLOT + 5 * _SITE_CELL + 14
    shown = [t for t in BuildingType if expert or t not in (_B.OFFICE_TOWER, _B.MONUMENT)]
    for k, t in enumerate(shown):
        x = _SITE_X + (k % 3) * 118
        row_y = y + (k // 3) * 20
        draw.rectangle((x, row_y, x + 12, row_y + 12), fill=TYPE_COLOURS[t])
        draw.text((x + 18, row_y + 6), t.words, font=_font(12), anchor="lm", fill=_DIM)


def _city(
    draw: ImageDraw.ImageDraw,
    state: GameState,
    p: int,
    names: list[str],
    agent: int | None,
    score: int,
    winner: bool,
) -> None:
    col, row = p % 2, p // 2
    x0 = _CITIES_X + col * _CITY_W
    y0 = _HEADER + 16 + row * _CITY_H
    # framed: the player to move, or a winner once the game is over
    to_move = state.current_player == p if state.phase != OVER else winner
    draw.rounded_rectangle(
        (x0, y0, x0 + _CITY_W - 12, y0 + _CITY_H - 12),
        radius=8,
        fill=_PANEL,
        outline=_TO_MOVE if to_move else _PANEL,
        width=3,
    )
    title = names[p] + (" (agent)" if p == agent else "") + ("  · mayor" if state.mayor == p else "")
    draw.text((x0 + 12, y0 + 8), title, font=_font(16), fill=_TO_MOVE if to_move else _TEXT)
    draw.text((x0 + _CITY_W - 24, y0 + 8), f"{score} VP", font=_font(16), anchor="ra", fill=_TEXT)
    draw.text(
        (x0 + 12, y0 + 27),
        f"inhabitants {state.inhabitants[p]} · energy {state.energy[p]}",
        font=_font(12),
        fill=_DIM,
    )
    geometry = GEOMETRY[state.config.mode]
    gx = x0 + (_CITY_W - 12 - 5 * _CITY_CELL) // 2
    gy = y0 + _TITLE + 8
    city = state.cities[p]
    for r in range(4):
        for c in range(5):
            box = (
                gx + c * _CITY_CELL,
                gy + r * _CITY_CELL,
                gx + (c + 1) * _CITY_CELL,
                gy + (r + 1) * _CITY_CELL,
            )
            if c >= geometry.cols:
                continue  # Classic: no fifth column
            b = city[r * geometry.cols + c]
            if b is None:
                _cell(draw, box, _EMPTY, "", 15)
            else:
                _cell(draw, box, TYPE_COLOURS[b.type], building_label(b), 15)


def table_picture(state: GameState, agent: int | None = None) -> npt.NDArray[np.uint8]:
    """The table of ``state`` as an H x W x 3 ``uint8`` array (:data:`PICTURE_SIZE`; see the
    module docstring). ``agent``: the seat to mark as the agent's."""
    image = Image.new("RGB", PICTURE_SIZE, _BACKGROUND)
    draw = ImageDraw.Draw(image)
    names = seat_names(state.config.players)
    _header(draw, state, names)
    _site(draw, state)
    _legend(draw, state.config.mode is not Mode.CLASSIC)
    winners: tuple[int, ...] = ()
    if state.phase == OVER:
        result = outcome(state)
        scores, winners = list(result.totals), result.winners
    else:
        scores = [projected_score(state, p).total for p in range(state.config.players)]
    for p in range(state.config.players):
        _city(draw, state, p, names, agent, scores[p], p in winners)
    return np.asarray(image, dtype=np.uint8)
