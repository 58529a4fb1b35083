"""Building hand-made positions for scenario tests."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

from quadropolis import GameConfig, GameState, Mode, apply, legal_moves, new_game
from quadropolis.site import SLOT_INDEX
from quadropolis.state import PLACE
from quadropolis.tiles import TILES


def tile(code: str, mode: Mode = Mode.CLASSIC, rnd: int | None = None) -> int:
    """Id of a tile of that kind usable in ``mode`` (in round ``rnd`` if given)."""
    for t in TILES:
        if t.code == code and t.in_mode(mode) and (rnd is None or t.round == rnd):
            return t.id
    raise LookupError(code)


def sq(name: str) -> int:
    """Construction-site square index of 'r2c3'."""
    return (int(name[1]) - 1) * 5 + int(name[3]) - 1


def game(mode: Mode = Mode.CLASSIC, players: int = 2, seed: int = 0, **variants: object) -> GameState:
    return new_game(GameConfig(mode=mode, players=players, seed=seed, **variants))  # type: ignore[arg-type]


def with_site(state: GameState, tiles: dict[str, str | None]) -> GameState:
    """Put tiles (by kind code, None = empty) on named site squares, face up."""
    for name, code in tiles.items():
        q = sq(name)
        state.site[q] = -1 if code is None else tile(code, state.config.mode, state.round)
        state.face_down &= ~(1 << q)
    return state


def pending(state: GameState, code: str, architect: int) -> GameState:
    """Put the current player in the place phase holding a tile of kind ``code``."""
    state.phase = PLACE
    state.pending_tile = tile(code, state.config.mode)
    state.pending_architect = architect
    return state


def slot(name: str) -> int:
    return SLOT_INDEX[name]


def played(mode: Mode, players: int, seed: int, actions: int) -> GameState:
    """A seeded game after ``actions`` random legal actions (fewer if it ends first)."""
    s = game(mode, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if s.is_over:
            break
        s = apply(s, rng.choice(legal_moves(s)))
    return s


def replaced(doc: Any, path: Sequence[Any], value: Any) -> Any:
    """A deep copy of the JSON document ``doc`` with the value at ``path`` replaced."""
    d = copy.deepcopy(doc)
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return d
