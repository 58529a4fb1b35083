"""Laying a round out from given outcomes instead of from the seed.

The engine draws each round's layout from the seed (:func:`quadropolis.state.lay_out`). An
adapter that models the deal as explicit chance (OpenSpiel) lays the round out itself: at the
start of a round it clears the construction site with :func:`start_deal`, then puts the
round's tiles one at a time on the squares in row-major order (r1c1, r1c2, ... r5c5) with
:func:`deal_tile`; each tile is turned face up or left face down by the player count (R4).
:func:`seeded_deal` gives the tile order the seed would have laid out, so dealing it
reproduces the engine's game exactly.

.. warning:: While a deal is under way the site has empty squares that no architect
   emptied: that state is not playable (no move may be applied to it) until the last of the
   round's 25 tiles is dealt (:func:`deal_complete`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .config import GameConfig
from .errors import QuadropolisError
from .phases import TAKE
from .site import SQUARES, square_name
from .state import GameState, lay_out
from .tiles import ROUNDS, TILES, Mode, round_tiles


class DealError(QuadropolisError):
    """A deal that cannot happen: not at the start of a round, a tile of another round, a tile
    dealt twice, or a deal into a full site."""


_ROUND_IDS: Final[dict[Mode, dict[int, tuple[int, ...]]]] = {
    mode: {r: tuple(t.id for t in round_tiles(mode, r)) for r in range(1, ROUNDS[mode] + 1)} for mode in Mode
}
_ROUND_SETS: Final[dict[Mode, dict[int, frozenset[int]]]] = {
    mode: {r: frozenset(ids) for r, ids in rounds.items()} for mode, rounds in _ROUND_IDS.items()
}
_MIN_PLAYERS: Final = tuple(t.min_players for t in TILES)


def round_tile_ids(mode: Mode, rnd: int) -> tuple[int, ...]:
    """Ids of the 25 tiles of round ``rnd`` of ``mode``, in manifest order."""
    try:
        return _ROUND_IDS[mode][rnd]
    except KeyError:
        raise DealError(f"{mode.value} has rounds 1-{ROUNDS[mode]}, not {rnd}") from None


def at_round_start(state: GameState) -> bool:
    """True when no action of the current round has been taken yet (the layout may be dealt)."""
    return (
        state.phase == TAKE
        and state.turn == 1
        and state.position == 0
        and state.slots_used == 0
        and state.urbanist < 0
    )


def start_deal(state: GameState) -> None:
    """Clear the construction site of the current round, in place, so that its layout can be
    dealt with :func:`deal_tile`. Raises :class:`DealError` once the round has begun."""
    if not at_round_start(state):
        raise DealError(
            f"round {state.round} has begun (turn {state.turn}, position {state.position}): "
            "its layout can no longer be dealt"
        )
    state.site = [-1] * SQUARES
    state.face_down = 0


def deal_tile(state: GameState, tile: int) -> int:
    """Put ``tile`` on the first empty square of the site (row-major), face down if the player
    count leaves it so (R4); returns the square. Raises :class:`DealError` if the tile is not
    one of the round's, is already on the site, or the site is full."""
    site = state.site
    try:
        q = site.index(-1)
    except ValueError:
        raise DealError("the site is full: all 25 tiles of the round are dealt") from None
    if not (isinstance(tile, int) and tile in _ROUND_SETS[state.config.mode][state.round]):
        raise DealError(f"tile {tile!r} is not a {state.config.mode.value} round-{state.round} tile")
    if tile in site:
        raise DealError(f"tile {tile} is already on the site at {square_name(site.index(tile))}")
    site[q] = tile
    if _MIN_PLAYERS[tile] > state.config.players:
        state.face_down |= 1 << q
    return q


def undealt(state: GameState) -> list[int]:
    """Ids of the round's tiles not on the site yet, ascending: the outcomes of the next deal.
    (Meaningful during a deal; afterwards, the tiles taken this round.)"""
    on_site = set(state.site)
    return [t for t in _ROUND_IDS[state.config.mode][state.round] if t not in on_site]


def deal_complete(state: GameState) -> bool:
    """True when every square of the site holds a tile (the deal is over)."""
    return -1 not in state.site


def lay_out_from(state: GameState, tiles: Sequence[int]) -> None:
    """Lay the current round out from ``tiles`` (``tiles[q]`` on site square ``q``), in place.
    ``tiles`` must be an order of the round's 25 tiles; raises :class:`DealError` otherwise or
    once the round has begun. The state is left unchanged on error."""
    ids = list(tiles)
    expected = _ROUND_SETS[state.config.mode][state.round]
    if len(ids) != SQUARES or set(ids) != expected:
        raise DealError(
            f"a layout of round {state.round} is an order of its {SQUARES} tiles "
            f"{sorted(expected)}, got {ids}"
        )
    if not at_round_start(state):
        start_deal(state)  # raises with the reason
    face_down = 0
    for q, t in enumerate(ids):
        if _MIN_PLAYERS[t] > state.config.players:
            face_down |= 1 << q
    state.site = ids
    state.face_down = face_down


def seeded_deal(config: GameConfig, rnd: int) -> list[int]:
    """The tile order the engine lays out from ``config.seed`` for round ``rnd``: dealt as
    chance outcomes, it gives the same game as the seed."""
    round_tile_ids(config.mode, rnd)  # validates rnd
    return lay_out(config, rnd)[0]


__all__ = [
    "DealError",
    "at_round_start",
    "deal_complete",
    "deal_tile",
    "lay_out_from",
    "round_tile_ids",
    "seeded_deal",
    "start_deal",
    "undealt",
]
