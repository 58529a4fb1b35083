"""quadropolis._native on bad input: every wrong type is a TypeError and every out-of-range
value or impossible state a ValueError, each with a message; nothing crashes the process
(scripts/sanitize.sh runs these under AddressSanitizer and UBSan)."""

from __future__ import annotations

import random

import pytest

from quadropolis import Building, BuildingType, GameConfig, GameState, InvalidStateError, Mode
from quadropolis import _native as nat
from quadropolis.native import to_native
from quadropolis.rules import apply_unchecked, legal_moves, new_game

COUNT = 376
PHASE, PENDING_TILE, PENDING_ARCHITECT, SITE, URBANIST, ARCHITECTS, CITIES = 11, 12, 13, 14, 41, 42, 48


def _fields(mode: Mode = Mode.CLASSIC, players: int = 2, steps: int = 0) -> list[int]:
    state = new_game(GameConfig(mode=mode, players=players, seed=5))
    rng = random.Random(1)
    for _ in range(steps):
        moves = legal_moves(state)
        apply_unchecked(state, moves[int(rng.random() * len(moves))])
    return list(to_native(state).fields())


def _rejected(fields: list[int] | tuple[int, ...], error: type[Exception] = ValueError) -> str:
    with pytest.raises(error) as e:
        nat.State(tuple(fields))
    assert str(e.value)
    return str(e.value)


def test_valid_fields_round_trip() -> None:
    for mode in Mode:
        for steps in (0, 1, 2, 9, 30):
            f = _fields(mode, 3, steps)
            assert list(nat.State(tuple(f)).fields()) == f
    assert nat.ABI == 1


@pytest.mark.parametrize("length", [0, 1, COUNT - 1, COUNT + 1, 10_000])
def test_wrong_lengths(length: int) -> None:
    assert "376" in _rejected([0] * length) or length > COUNT + 1


def test_non_ints_and_huge_ints() -> None:
    f = _fields()
    for bad in (1.5, "1", None, True, [1]):
        g = f[:]
        g[6] = bad  # type: ignore[call-overload]
        _rejected(g, TypeError)
    for huge in (2**63, -(2**63) - 1, 10**100):
        g = f[:]
        g[2] = huge
        assert "range" in _rejected(g)
    with pytest.raises(TypeError):
        nat.State([0] * COUNT)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        nat.State(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("index", range(COUNT))
def test_out_of_range_fields(index: int) -> None:
    """Every field, set far out of its range (both ways), is rejected by name."""
    f = _fields(Mode.EXPERT, 4, 11)
    for bad in (-(2**40), 2**40):
        g = f[:]
        g[index] = bad
        if index == 2:  # the seed: any signed 64-bit value is valid
            nat.State(tuple(g))
            continue
        _rejected(g)


def test_inconsistent_states() -> None:
    f = _fields()
    cases = {
        "place phase without a pending tile": {PHASE: 1},
        "pending tile outside the place phase": {PENDING_TILE: 3},
        "urbanist before the first action": {URBANIST: 4},
        "a tile twice on the site": {SITE: f[SITE + 1]},
        "an expert-only tile in classic": {SITE: 25},
        "architect used without acting": {ARCHITECTS: 0b10},
        "a building in an empty city": {CITIES: 0, CITIES + 1: 1},
        "floors on an empty square": {CITIES + 1: 2},
        "an office tower in classic": {CITIES: 6, CITIES + 1: 1},
        "too tall a tower": {CITIES: 0, CITIES + 1: 5},
        "a building on a classic city's 17th square": {CITIES + 16 * 4: 1, CITIES + 16 * 4 + 1: 1},
        "a city for an absent player": {CITIES + 3 * 80: 1, CITIES + 3 * 80 + 1: 1},
        "inhabitants from nowhere": {368: 5},
        "the game over mid-game": {PHASE: 2},
        "mayor moved without its tower": {10: 1},
    }
    for what, changes in cases.items():
        g = f[:]
        for k, v in changes.items():
            g[k] = v
        assert _rejected(g), what


def test_illegal_move_numbers() -> None:
    s = nat.State(tuple(_fields()))
    legal = set(s.legal_moves())
    for move in [-1, 121, 2**40, *[m for m in range(121) if m not in legal]]:
        with pytest.raises(ValueError, match="not legal"):
            s.apply(move)
    for bad in (1.0, "3L4", None, True, 2**70):
        with pytest.raises((TypeError, ValueError)):
            s.apply(bad)  # type: ignore[arg-type]
    assert set(s.legal_moves()) == legal


def test_new_state_arguments() -> None:
    for args in [
        (2, 2, 0, 0, False),
        (0, 1, 0, 0, False),
        (0, 5, 0, 0, False),
        (0, -2, 0, 0, False),
        (0, 2, 0, 2, False),
        (0, 2, 0, -1, False),
        (0, 2, 2**63, 0, False),
    ]:
        with pytest.raises(ValueError):
            nat.new_state(*args)
    for args in [(0.0, 2, 0, 0, False), (0, 2, 0, 0, 1), (0, 2, "7", 0, False), (0, True, 0, 0, False)]:
        with pytest.raises(TypeError):
            nat.new_state(*args)  # type: ignore[arg-type]
    s = nat.new_state(1, 4, -(2**63), 3, True, True)
    assert s.current_player() == 3


def test_score_arguments() -> None:
    s = nat.State(tuple(_fields(Mode.CLASSIC, 3, 40)))
    for p in (-1, 3, 4, 2**80):
        with pytest.raises(ValueError):
            s.score(p, False)
    with pytest.raises(TypeError):
        s.score(0, 0)  # type: ignore[arg-type]
    empty = (-1, 0, 0, 0) * 16
    assert nat.score_city(0, empty, 0, 0, False)[0] == 0
    bad_cities = [
        (2, empty, 0, 0),
        (0, empty[:-4], 0, 0),
        (0, (*empty, -1, 0, 0, 0), 0, 0),
        (1, empty, 0, 0),
        (0, empty, -1, 0),
        (0, empty, 0, 1000),
        (0, (6, 1, 0, 0, *empty[4:]), 0, 0),
        (0, (0, 0, 0, 0, *empty[4:]), 0, 0),
        (0, (3, 1, 0, 2, *empty[4:]), 0, 0),
        (0, (1, 1, 0, 1, *empty[4:]), 0, 0),
        (0, (2, 1, 3, 0, *empty[4:]), 0, 0),
        (0, (8, 1, 0, 0, *empty[4:]), 0, 0),
        (0, (-2, 0, 0, 0, *empty[4:]), 0, 0),
        (0, (0, 2**40, 0, 0, *empty[4:]), 0, 0),
    ]
    for mode, cells, inh, en in bad_cities:
        with pytest.raises(ValueError) as e:
            nat.score_city(mode, cells, inh, en, False)
        assert str(e.value)
    with pytest.raises(TypeError):
        nat.score_city(0, list(empty), 0, 0, False)  # type: ignore[arg-type]


def test_score_buildings_arguments() -> None:
    """score_buildings reads Building objects in place: anything else on a square, a wrong
    square count or a building no city can hold is refused with a message."""
    empty: list[Building | None] = [None] * 16
    score = nat.score_buildings(0, empty, 3, 2, False)
    assert (score.total, score.breakdown["unused_inhabitants"], score.placement.unused_energy) == (-5, -3, 2)
    tower = Building(BuildingType.TOWER_BLOCK)
    assert (
        nat.score_buildings(0, (tower, *empty[1:]), 0, 0, False).total
        == nat.score_city(0, (0, 1, 0, 0, *(-1, 0, 0, 0) * 15), 0, 0, False)[0]
    )

    class Tower(Building):
        __slots__ = ()

    bad = [
        (0, empty[:-1], 0, 0),
        (0, [*empty, None], 0, 0),
        (1, empty, 0, 0),
        (0, [None] * 21, 0, 0),
        (0, [(0, 1, 0, 0), *empty[1:]], 0, 0),
        (0, [7, *empty[1:]], 0, 0),
        (0, [Tower(BuildingType.TOWER_BLOCK), *empty[1:]], 0, 0),
        (0, [Building(BuildingType.TOWER_BLOCK, floors=0), *empty[1:]], 0, 0),
        (0, [Building(BuildingType.TOWER_BLOCK, floors=2**80), *empty[1:]], 0, 0),
        (0, [Building(BuildingType.TOWER_BLOCK, floors=9), *empty[1:]], 0, 0),
        (0, empty, -1, 0),
        (0, empty, 0, 1000),
        (2, empty, 0, 0),
    ]
    for mode, buildings, inhabitants, energy in bad:
        with pytest.raises(ValueError) as e:
            nat.score_buildings(mode, buildings, inhabitants, energy, False)  # type: ignore[arg-type]
        assert str(e.value)
    for args in [
        (0, iter(empty), 0, 0, False),
        (0, [Building(BuildingType.TOWER_BLOCK, floors="2"), *empty[1:]], 0, 0, False),  # type: ignore[arg-type]
        (0, empty, 0.5, 0, False),
        (0, empty, 0, 0, 0),
    ]:
        with pytest.raises(TypeError):
            nat.score_buildings(*args)  # type: ignore[arg-type]


def test_use_types_refuses_what_it_cannot_build() -> None:
    """use_types checks every class and slot before keeping any: after a refused call the
    types handed over by quadropolis.native still serve."""
    from quadropolis.moves import MOVES
    from quadropolis.scoring import CATEGORIES, CityScore, Placement

    class Plain:
        pass

    good = (MOVES, Building, CityScore, Placement, CATEGORIES)
    refused: list[tuple[object, ...]] = [
        (MOVES[:-1], *good[1:]),
        (list(MOVES), *good[1:]),
        (MOVES, Building, Placement, CityScore, CATEGORIES),  # slots of the wrong class
        (MOVES, Building, Plain, Placement, CATEGORIES),
        (MOVES, Building, int, Placement, CATEGORIES),  # not defined in Python
        (MOVES, Building, CityScore, "Placement", CATEGORIES),
        (*good[:4], CATEGORIES[:-1]),
        (*good[:4], (*CATEGORIES[:-1], 3)),
    ]
    for args in refused:
        with pytest.raises(TypeError) as e:
            nat.use_types(*args)  # type: ignore[arg-type]
        assert str(e.value)
    with pytest.raises(ValueError):
        nat.use_types(MOVES, Building, CityScore, Placement, (*CATEGORIES[:-1], CATEGORIES[0]))
    as_list: list[Building | None] = [None] * 16
    as_tuple: tuple[Building | None, ...] = (None,) * 16
    assert nat.score_buildings(0, as_list, 0, 0, False) == nat.score_buildings(0, as_tuple, 0, 0, False)


def test_random_game_arguments() -> None:
    s = nat.new_state(1, 2, 9, 0, False)
    for seed in ("x" * 257, 2**64):
        with pytest.raises(ValueError):
            s.copy().random_game(seed)
    with pytest.raises(TypeError):
        s.copy().random_game(1.5)  # type: ignore[arg-type]
    moves, scores = s.random_game(9)
    assert s.is_over() and len(scores) == 2 and moves


def test_playout_rng_state_is_checked() -> None:
    s = nat.State(tuple(_fields()))
    good = random.Random(3).getstate()[1]
    for bad in (
        good[:-1],
        (*good, 0),
        (*good[:-1], 625),
        (*good[:-1], -1),
        (-1, *good[1:]),
        (2**32, *good[1:]),
    ):
        with pytest.raises(ValueError):
            s.copy().random_playout(bad)
    with pytest.raises(TypeError):
        s.random_playout(list(good))  # type: ignore[arg-type]
    moves, after = s.random_playout(good)
    assert s.is_over() and moves and len(after) == 625


def _mutate(state: GameState, rng: random.Random) -> None:
    """One small corruption of a state reached in play (some leave it valid)."""
    n = state.config.players
    kind = rng.randrange(12)
    if kind == 0:
        state.mayor = rng.randrange(n)
    elif kind == 1:
        state.starter = rng.randrange(n)
    elif kind == 2:
        state.inhabitants[rng.randrange(n)] += rng.choice([-2, -1, 1, 2, 5])
    elif kind == 3:
        state.energy[rng.randrange(n)] += rng.choice([-2, -1, 1, 2, 5])
    elif kind == 4:
        a, b = rng.randrange(25), rng.randrange(25)
        state.site[a], state.site[b] = state.site[b], state.site[a]
    elif kind == 5:
        state.site[rng.randrange(25)] = -1
    elif kind == 6:
        state.urbanist = rng.randrange(-1, 25)
    elif kind == 7:
        state.slots_used ^= 1 << rng.randrange(20)
    elif kind == 8:
        if state.config.mode is Mode.CLASSIC:
            state.architects[rng.randrange(n)] ^= 1 << rng.randrange(1, 5)
        else:
            state.architects[rng.randrange(1, 6)] = rng.randrange(0, n + 1)
    elif kind == 9:
        p = rng.randrange(n)
        q = rng.randrange(len(state.cities[p]))
        building = Building(rng.choice(list(BuildingType)), rng.randrange(1, 4), rng.choice([0, 0, 1, 2]))
        state.cities[p][q] = building if rng.random() < 0.7 else None
    elif kind == 10:
        state.position = rng.randrange(n)
        state.turn = rng.randrange(1, 5)
    else:
        state.face_down ^= 1 << rng.randrange(25)


def test_native_validation_accepts_exactly_what_from_json_accepts() -> None:
    """States reached in play, each corrupted in one small way: the native validation and
    GameState.from_json accept the same ones."""
    rng = random.Random(1)
    verdicts = set()
    for _ in range(1500):
        config = GameConfig(
            mode=rng.choice(list(Mode)),
            players=rng.choice([2, 3, 4]),
            seed=rng.getrandbits(40),
            all_parks_absorb=rng.random() < 0.3,
        )
        state = new_game(config)
        for _ in range(rng.randrange(0, 150)):
            if state.is_over:
                break
            moves = legal_moves(state)
            apply_unchecked(state, moves[int(rng.random() * len(moves))])
        _mutate(state, rng)
        try:
            GameState.from_json(state.to_json())
            python_accepts = True
        except InvalidStateError:
            python_accepts = False
        try:
            to_native(state)
            native_accepts = True
        except ValueError:
            native_accepts = False
        assert native_accepts == python_accepts, state.to_json()
        verdicts.add(python_accepts)
    assert verdicts == {True, False}
