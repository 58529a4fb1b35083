"""The rules of play: which moves are legal, and what a move does.

:func:`legal_moves` is the single source of truth for legality (:func:`legal_move_numbers`
lists the same moves by number, from the same tables). :func:`apply` validates a
move against it and returns a new state, raising :class:`IllegalMoveError` with the rule
broken; :func:`apply_unchecked` mutates a state in place without validation, for search."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .buildings import BuildingType
from .city import GEOMETRY, Building
from .config import GameConfig
from .errors import IllegalMoveError, quote
from .moves import BUILDS, DISCARD, TAKES, Build, Discard, Move, Take, move_number
from .render import tile_label
from .site import BLOCKED_SLOTS, DESIGNATED, SLOT_NAMES, square_name, urbanist_block
from .state import (
    OVER,
    PLACE,
    TAKE,
    TILE_BUILDING,
    TURNS_PER_ROUND,
    GameState,
    lay_out,
    new_state,
)
from .tiles import ROUNDS, TILES, Mode

_STACKABLE: Final = {
    Mode.CLASSIC: frozenset({BuildingType.TOWER_BLOCK}),
    Mode.EXPERT: frozenset({BuildingType.TOWER_BLOCK, BuildingType.OFFICE_TOWER}),
}
_TILE_TYPE: Final = tuple(t.kind.type for t in TILES)
#: TILE_GAIN[all_parks_absorb][tile id]: (inhabitants, energy) the tile gives when built.
#: R11: a playground gives 1 inhabitant. In the §6 variant ``all_parks_absorb`` (the literal
#: reading of the rulebook's single kind of park) every park absorbs and none gives anything.
TILE_GAIN: Final = tuple(
    tuple(
        (0, 0) if variant and t.kind.type is BuildingType.PARK else (t.kind.inhabitants, t.kind.energy)
        for t in TILES
    )
    for variant in (False, True)
)
_TILE_MAYOR: Final = tuple(t.kind.mayor for t in TILES)


def tile_gain(config: GameConfig, tid: int) -> tuple[int, int]:
    """(inhabitants, energy) that tile ``tid`` gives when built in a game of ``config``
    (R11, or none for a park in the §6 variant ``all_parks_absorb``)."""
    return TILE_GAIN[config.all_parks_absorb][tid]


def new_game(config: GameConfig | None = None) -> GameState:
    """A new game: round 1 laid out from the seed (R4), the mayor with ``first_player``."""
    return new_state(config or GameConfig())


def _free_slots(state: GameState) -> int:
    """Bitmask of slots with no architect and, under rule R5, not blocked by the urbanist."""
    free = ~state.slots_used & 0xFFFFF
    if state.urbanist >= 0 and state.config.urbanist_blocks == "lines":
        free &= ~BLOCKED_SLOTS[state.urbanist]
    return free


def legal_moves(state: GameState) -> list[Move]:
    """Every legal move in ``state``, in a fixed order: takes by slot then architect, builds
    by square, then ``discard`` (ascending move numbers, :data:`quadropolis.moves.MOVES`).
    Empty when the game is over."""
    phase = state.phase
    if phase == TAKE:
        # Inlined (as in legal_move_numbers): this is the search's hottest function.
        free = _free_slots(state)
        if state.config.mode is Mode.CLASSIC:
            avail = ~state.architects[(state.starter + state.position) % state.config.players] & 0b11110
        else:
            pool = state.architects
            avail = 0
            for a in (1, 2, 3, 4, 5):
                if pool[a]:
                    avail |= 1 << a
        lo = _TAKE_HALF.get((free & 1023, avail))
        if lo is None:
            lo = _take_half(free & 1023, avail, 0)
        hi = _TAKE_HALF.get((1024 | free >> 10, avail))
        if hi is None:
            hi = _take_half(free >> 10, avail, 10)
        moves: list[Move] = [*lo, *hi]
        if state.config.urbanist_blocks == "square" and state.urbanist >= 0:
            u = state.urbanist
            return [m for m in moves if DESIGNATED[m.slot][m.architect] != u]  # type: ignore[attr-defined]
        return moves
    if phase == PLACE:
        return [*_build_moves(state), DISCARD]
    return []


def legal_move_numbers(state: GameState) -> list[int]:
    """The numbers (:func:`quadropolis.moves.move_number`) of :func:`legal_moves`, in the
    same, ascending, order, made from the same tables without making the moves: for adapters
    that index moves (the RL action masks), where numbering each move would cost more than
    listing them."""
    # The same steps as legal_moves, on numbers (a property test ties the two together).
    phase = state.phase
    if phase == TAKE:
        free = _free_slots(state)
        if state.config.mode is Mode.CLASSIC:
            avail = ~state.architects[(state.starter + state.position) % state.config.players] & 0b11110
        else:
            pool = state.architects
            avail = 0
            for a in (1, 2, 3, 4, 5):
                if pool[a]:
                    avail |= 1 << a
        lo = _TAKE_HALF_NUMBERS.get((free & 1023, avail))
        if lo is None:
            lo = _take_half_numbers(free & 1023, avail, 0)
        hi = _TAKE_HALF_NUMBERS.get((1024 | free >> 10, avail))
        if hi is None:
            hi = _take_half_numbers(free >> 10, avail, 10)
        numbers = [*lo, *hi]
        if state.config.urbanist_blocks == "square" and state.urbanist >= 0:
            u = state.urbanist
            return [k for k in numbers if _DESIGNATED_BY_NUMBER[k] != u]
        return numbers
    if phase == PLACE:
        return [*_build_numbers(state), _DISCARD_NUMBER]
    return []


# The takes of one half (10 slots) of the slots, by (free-slot bits of that half, or 1024 |
# those bits for slots 10-19; bitmask of the architect numbers available), and apart their
# numbers: each filled lazily, generation becomes two lookups (performance).
_TAKE_HALF: dict[tuple[int, int], tuple[Take, ...]] = {}
_TAKE_HALF_NUMBERS: dict[tuple[int, int], tuple[int, ...]] = {}


def _take_half(bits: int, avail: int, offset: int) -> tuple[Take, ...]:
    moves = tuple(
        TAKES[offset + s][a] for s in range(10) if bits >> s & 1 for a in range(1, 6) if avail >> a & 1
    )
    _TAKE_HALF[((1024 if offset else 0) | bits, avail)] = moves
    return moves


def _take_half_numbers(bits: int, avail: int, offset: int) -> tuple[int, ...]:
    key = ((1024 if offset else 0) | bits, avail)
    moves = _TAKE_HALF.get(key) or _take_half(bits, avail, offset)
    numbers = _TAKE_HALF_NUMBERS[key] = tuple(map(move_number, moves))
    return numbers


def _build_moves(state: GameState) -> list[Move]:
    mode = state.config.mode
    city = state.cities[(state.starter + state.position) % state.config.players]
    n = state.pending_architect
    out: list[Move] = [m for q, m in _ELIGIBLE_BUILDS[mode][n] if city[q] is None]
    btype = _TILE_TYPE[state.pending_tile]
    if btype in _STACKABLE[mode]:
        stacks = _stack_squares(mode, city, btype, n)
        if stacks:
            squares = sorted([q for q, _ in _ELIGIBLE_BUILDS[mode][n] if city[q] is None] + stacks)
            return [_BUILD_AT[mode][q] for q in squares]
    return out


def _build_numbers(state: GameState) -> list[int]:
    mode = state.config.mode
    city = state.cities[(state.starter + state.position) % state.config.players]
    n = state.pending_architect
    out = [k for q, k in _ELIGIBLE_NUMBERS[mode][n] if city[q] is None]
    btype = _TILE_TYPE[state.pending_tile]
    if btype in _STACKABLE[mode]:
        stacks = _stack_squares(mode, city, btype, n)
        if stacks:
            out = sorted(out + [_BUILD_NUMBER[mode][q] for q in stacks])
    return out


def _stack_squares(mode: Mode, city: list[Building | None], btype: BuildingType, n: int) -> list[int]:
    """The squares where architect #``n`` may stack a ``btype`` building (R8/R16)."""
    geo = GEOMETRY[mode]
    return [q for q in range(geo.size) if geo.can_stack(city[q], btype, n, q)]


#: _BUILD_AT[mode][q]: the move that builds on city square q; _BUILD_NUMBER: its number.
_BUILD_AT: Final = {
    mode: tuple(
        BUILDS[q // GEOMETRY[mode].cols + 1][q % GEOMETRY[mode].cols + 1] for q in range(GEOMETRY[mode].size)
    )
    for mode in Mode
}
_BUILD_NUMBER: Final = {mode: tuple(map(move_number, builds)) for mode, builds in _BUILD_AT.items()}
#: _ELIGIBLE_BUILDS[mode][n]: (square, Build move) for the squares architect #n may use when
#: empty, ascending; _ELIGIBLE_NUMBERS: (square, the move's number).
_ELIGIBLE_BUILDS: Final = {
    mode: tuple(tuple((q, _BUILD_AT[mode][q]) for q in sorted(GEOMETRY[mode].eligible[n])) for n in range(6))
    for mode in Mode
}
_ELIGIBLE_NUMBERS: Final = {
    mode: tuple(tuple((q, move_number(m)) for q, m in squares) for squares in table)
    for mode, table in _ELIGIBLE_BUILDS.items()
}
_DISCARD_NUMBER: Final = move_number(DISCARD)
#: The site square a take's urbanist goes to, by the take's number (the square variant).
_DESIGNATED_BY_NUMBER: Final = tuple(DESIGNATED[k // 5][k % 5 + 1] for k in range(100))


#: The move classes themselves (see :func:`explain_illegal`).
_MOVE_KINDS: Final = (Take, Build, Discard)


#: Every reason the rules give for refusing a move, by its stable code (the ``reason`` of
#: :class:`IllegalMoveError`, of :class:`Refusal` and of the server's ``illegal_move``
#: replies), with its English sentence. ``{a_building}`` / ``{building_words}`` (and the same
#: for ``below``) are the building type named by the ``building`` parameter, in words.
ILLEGAL_MESSAGES: Final[dict[str, str]] = {
    "game_over": "the game is over",
    "not_a_move_kind": (
        "{kind} is not a move kind: a move is a Take, Build or Discard itself (or its notation)"
    ),
    "must_take": "player {player} must first take a building: put an architect in a slot (e.g. '3L4')",
    "no_such_slot": "{move}: no such slot (slots are T1-T5, B1-B5, L1-L5, R1-R5)",
    "architect_number": "architect #{architect} at {slot}: {mode} architects are numbered 1-{count}",
    "architect_used": (
        "architect #{architect} at {slot}: player {player} has already used architect #{architect} this round"
    ),
    "architect_not_in_pool": (
        "architect #{architect} at {slot}: no architect #{architect} is left in the pool"
    ),
    "slot_taken": "architect #{architect} at {slot}: slot {slot} already holds an architect this round (R1)",
    "urbanist_row": "architect #{architect} at {slot}: the urbanist blocks row {line} (R5)",
    "urbanist_column": "architect #{architect} at {slot}: the urbanist blocks column {line} (R5)",
    "urbanist_square": (
        "architect #{architect} at {slot}: the urbanist stands on {square} "
        "(variant: the urbanist blocks only its square)"
    ),
    "must_build": "player {player} took a building and must build it (e.g. 'r2c3') or 'discard' it",
    "outside_city": "{square}: a {mode} city has {rows} rows and {cols} columns",
    "not_in_line": "architect #{architect}: {square} is not in row {architect} or column {architect} (R8)",
    "not_in_district": (
        "architect #{architect}: {square} is neither numbered {architect} nor in district {architect} (R16)"
    ),
    "not_stackable": "{square} is occupied by {a_below}; {a_building} cannot be stacked",
    "wrong_stack": "{square} holds {a_below}; {a_building} can only go on {a_building} ({rule})",
    "max_floors": "{square}: the {building_words} already has {floors} floors, the most allowed",
    "stack_not_in_line": (
        "architect #{architect}: stacking on {square} needs the square "
        "in row {architect} or column {architect} or the new floor ({floor}) to be numbered {architect} (R8)"
    ),
    "stack_not_in_district": (
        "architect #{architect}: stacking on {square} needs the square "
        "numbered {architect} or in district {architect} "
        "or the new floor ({floor}) to be numbered {architect} (R16)"
    ),
}


@dataclass(frozen=True)
class Refusal:
    """Why a move is illegal: ``reason``, a code of :data:`ILLEGAL_MESSAGES`, and the values
    its sentence is made of (numbers, slot and square names, building type keys, the mode)."""

    reason: str
    params: dict[str, str | int] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The English sentence, naming the rule broken."""
        values: dict[str, str | int] = dict(self.params)
        for name in ("building", "below"):
            if name in self.params:
                noun = BuildingType.from_key(str(self.params[name])).words
                values[f"a_{name}"] = _a(noun)
                values[f"{name}_words"] = noun
        return ILLEGAL_MESSAGES[self.reason].format(**values)

    def error(self) -> IllegalMoveError:
        """The :class:`IllegalMoveError` that says it."""
        return IllegalMoveError(self.message, self.reason, self.params)


def explain_illegal(state: GameState, move: Move) -> str | None:
    """Why ``move`` is illegal in ``state`` (a sentence naming the rule), or ``None`` if legal."""
    refusal = illegal_reason(state, move)
    return None if refusal is None else refusal.message


def illegal_reason(state: GameState, move: Move) -> Refusal | None:
    """Why ``move`` is illegal in ``state``, as a code and its values, or ``None`` if legal."""
    if state.phase == OVER:
        return Refusal("game_over")
    # Exactly one of the kinds: a subclass would pass every check below yet equal no
    # generated move (dataclass equality compares classes), so legal_moves would disagree.
    if isinstance(move, Move) and type(move) not in _MOVE_KINDS:
        return Refusal("not_a_move_kind", {"kind": type(move).__name__[:40]})
    if state.phase == TAKE:
        return _take_refusal(state, move)
    return _place_refusal(state, move)


def _take_refusal(state: GameState, move: Move) -> Refusal | None:
    player = state.current_player
    if not isinstance(move, Take):
        return Refusal("must_take", {"player": player})
    a, s = move.architect, move.slot
    geo = GEOMETRY[state.config.mode]
    # Moves built by hand (not parsed) may hold any integers: range-check before indexing.
    if not (isinstance(s, int) and 0 <= s < 20):
        return Refusal("no_such_slot", {"move": repr(move)})
    if not (isinstance(a, int) and 1 <= a <= geo.architects):
        where: dict[str, str | int] = {"architect": quote(a), "slot": SLOT_NAMES[s]}
        return Refusal(
            "architect_number", {**where, "mode": state.config.mode.value, "count": geo.architects}
        )
    where = {"architect": a, "slot": SLOT_NAMES[s]}
    if a not in state.architects_available(player):
        if state.config.mode is Mode.CLASSIC:
            return Refusal("architect_used", {**where, "player": player})
        return Refusal("architect_not_in_pool", where)
    if state.slots_used >> s & 1:
        return Refusal("slot_taken", where)
    blocked = urbanist_block(s, a, state.urbanist, state.config.urbanist_blocks)
    if blocked:
        return Refusal(blocked[0], {**where, **blocked[1]})
    return None


def _place_refusal(state: GameState, move: Move) -> Refusal | None:
    if isinstance(move, Discard):
        return None
    if not isinstance(move, Build):
        return Refusal("must_build", {"player": state.current_player})
    geo = GEOMETRY[state.config.mode]
    mode = state.config.mode
    if not (isinstance(move.row, int) and isinstance(move.col, int)) or not (
        1 <= move.row <= geo.rows and 1 <= move.col <= geo.cols
    ):
        return Refusal(
            "outside_city", {"square": str(move), "mode": mode.value, "rows": geo.rows, "cols": geo.cols}
        )
    q = (move.row - 1) * geo.cols + (move.col - 1)
    n = state.pending_architect
    btype = TILES[state.pending_tile].kind.type
    below = state.cities[state.current_player][q]
    classic = mode is Mode.CLASSIC
    square = str(move)
    if below is None:
        if q in geo.eligible[n]:
            return None
        return Refusal("not_in_line" if classic else "not_in_district", {"architect": n, "square": square})
    pieces: dict[str, str | int] = {"square": square, "below": below.type.key, "building": btype.key}
    if btype not in _STACKABLE[mode]:
        return Refusal("not_stackable", pieces)
    if below.type is not btype:
        return Refusal("wrong_stack", {**pieces, "rule": "R8" if classic else "R16"})
    limit = geo.max_floors[btype]
    if below.floors >= limit:
        return Refusal("max_floors", {"square": square, "building": btype.key, "floors": limit})
    if geo.can_stack(below, btype, n, q):
        return None
    code = "stack_not_in_line" if classic else "stack_not_in_district"
    return Refusal(code, {"architect": n, "square": square, "floor": below.floors + 1})


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def apply(state: GameState, move: Move | str) -> GameState:
    """Play ``move`` (a :class:`Move` or its notation) on a copy of ``state`` and return it.

    Raises :class:`IllegalMoveError` naming the broken rule; ``state`` is never modified."""
    if isinstance(move, str):
        move = Move.parse(move)
    refusal = illegal_reason(state, move)
    if refusal is not None:
        raise refusal.error()
    # explain_illegal and legal_moves must agree: legal_moves stays the source of truth.
    assert move in legal_moves(state), f"{move} passed checks but is not generated"
    new = state.copy()
    apply_unchecked(new, move)
    return new


def apply_unchecked(state: GameState, move: Move) -> None:
    """Play a move known to be legal, mutating ``state`` in place (fast path for search)."""
    player = (state.starter + state.position) % state.config.players
    if move.__class__ is Take:
        assert isinstance(move, Take)
        a = move.architect
        state.slots_used |= 1 << move.slot
        if state.config.mode is Mode.CLASSIC:
            state.architects[player] |= 1 << a
        else:
            state.architects[a] -= 1
        q = DESIGNATED[move.slot][a]
        state.urbanist = q
        tid = state.site[q]
        if tid >= 0 and not state.face_down >> q & 1:
            state.site[q] = -1
            state.pending_tile = tid
            state.pending_architect = a
            state.phase = PLACE
            return
        # R4/R6: an empty or face-down square gives nothing; the action ends here.
        _next_action(state)
        return
    tid = state.pending_tile
    if move.__class__ is Build:
        assert isinstance(move, Build)
        city = state.cities[player]
        q = (move.row - 1) * GEOMETRY[state.config.mode].cols + move.col - 1
        below = city[q]
        if below is None:
            city[q] = TILE_BUILDING[tid]
        else:
            city[q] = Building(below.type, below.floors + 1, below.vp + TILES[tid].kind.vp, below.tree)
        inh, en = TILE_GAIN[state.config.all_parks_absorb][tid]  # R11, or the §6 variant
        state.inhabitants[player] += inh
        state.energy[player] += en
        if _TILE_MAYOR[tid]:
            state.mayor = player  # R10: building the mayor tower block, not taking it
    state.pending_tile = -1
    state.pending_architect = 0
    _next_action(state)


def _next_action(state: GameState) -> None:
    state.phase = TAKE
    n = state.config.players
    state.position += 1
    if state.position < n:
        return
    if state.turn < TURNS_PER_ROUND:
        state.position = 0
        state.turn += 1
        return
    if state.round == ROUNDS[state.config.mode]:
        state.position = n - 1
        state.phase = OVER
        return
    # End of round: unused tiles leave, architects return, the urbanist leaves the board,
    # the next round's tiles are laid out and the mayor's holder starts (R10).
    state.round += 1
    state.turn = 1
    state.position = 0
    state.starter = state.mayor
    state.site, state.face_down = lay_out(state.config, state.round)
    state.slots_used = 0
    state.urbanist = -1
    state.architects = [0] * n if state.config.mode is Mode.CLASSIC else [0] + [n] * 5


def move_facts(state: GameState, move: Move) -> dict[str, str | int]:
    """What ``move`` does in ``state`` (before it is played), as values a client can put in
    words in any language: ``kind`` (``take``, ``build``, ``discard``); for a take the
    ``architect``, ``slot`` and designated ``square``; the ``square`` built on; the tile as
    the site shows it (``tile``, :func:`quadropolis.render.tile_label`) with its ``building``
    type key, absent when a take designates an empty square or a face-down tile (then
    ``nothing`` is ``empty`` or ``face_down``)."""
    if isinstance(move, Take):
        q = DESIGNATED[move.slot][move.architect]
        facts: dict[str, str | int] = {
            "kind": "take",
            "architect": move.architect,
            "slot": move.slot_name,
            "square": square_name(q),
        }
        tid = state.site[q]
        if tid < 0:
            return {**facts, "nothing": "empty"}
        if state.face_down >> q & 1:
            return {**facts, "nothing": "face_down"}
        return {**facts, **_tile_facts(tid)}
    if isinstance(move, Build):
        return {"kind": "build", "square": str(move), **_tile_facts(state.pending_tile)}
    return {"kind": "discard", **_tile_facts(state.pending_tile)}


def _tile_facts(tid: int) -> dict[str, str | int]:
    return {"tile": tile_label(tid), "building": TILES[tid].kind.type.key}


def describe_move(state: GameState, move: Move) -> str:
    """A sentence telling what ``move`` does in ``state`` (before it is played), with the tile
    as the site shows it (:func:`move_facts`)."""
    player = state.current_player
    f = move_facts(state, move)
    if isinstance(move, Take):
        if f.get("nothing") == "empty":
            what = "an empty square: takes nothing"
        elif f.get("nothing") == "face_down":
            what = "a face-down tile: takes nothing"
        else:
            words = TILES[state.site[DESIGNATED[move.slot][move.architect]]].kind.words
            what = f"takes {f['tile']} ({words})"
        return f"player {player}: architect #{f['architect']} at {f['slot']} -> {f['square']}, {what}"
    if f["kind"] == "build":
        return f"player {player}: builds {f['tile']} on {f['square']}"
    return f"player {player}: discards {f['tile']}"
