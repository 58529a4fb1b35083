"""The manifest checks listed in TILES.md."""

from collections import Counter

import pytest

from quadropolis.buildings import BuildingType as B
from quadropolis.tiles import ROUNDS, TILES, Mode, round_tiles


def test_total_and_mode_split() -> None:
    assert len(TILES) == 142
    by_mode = Counter(t.modes for t in TILES)
    assert by_mode == {"both": 83, "classic": 17, "expert": 42}


def test_per_type_totals_match_the_rulebook() -> None:
    totals = Counter(t.kind.type for t in TILES)
    assert totals == {
        B.TOWER_BLOCK: 32,
        B.SHOP: 15,
        B.PUBLIC_SERVICE: 19,
        B.PARK: 15,
        B.FACTORY: 19,
        B.HARBOR: 21,
        B.OFFICE_TOWER: 17,
        B.MONUMENT: 4,
    }


@pytest.mark.parametrize("mode,total", [(Mode.CLASSIC, 100), (Mode.EXPERT, 125)])
def test_25_tiles_per_round(mode: Mode, total: int) -> None:
    assert ROUNDS[mode] == (4 if mode is Mode.CLASSIC else 5)
    rounds = [round_tiles(mode, r) for r in range(1, ROUNDS[mode] + 1)]
    assert [len(r) for r in rounds] == [25] * ROUNDS[mode]
    assert sum(len(r) for r in rounds) == total
    assert not any(t.round > ROUNDS[mode] for t in TILES if t.in_mode(mode))


@pytest.mark.parametrize("mode", list(Mode))
def test_reveal_16_20_25_by_player_count(mode: Mode) -> None:
    for r in range(1, ROUNDS[mode] + 1):
        tiles = round_tiles(mode, r)
        revealed = [sum(1 for t in tiles if t.min_players <= n) for n in (2, 3, 4)]
        assert revealed == [16, 20, 25], (mode, r)


@pytest.mark.parametrize("mode", list(Mode))
def test_one_mayor_tower_block_each_round_but_the_last(mode: Mode) -> None:
    last = ROUNDS[mode]
    for r in range(1, last + 1):
        mayors = [t for t in round_tiles(mode, r) if t.kind.mayor]
        assert len(mayors) == (0 if r == last else 1), (mode, r)
        assert all(t.kind.type is B.TOWER_BLOCK for t in mayors)


def test_monuments_by_round_and_marking() -> None:
    monuments = [(t.round, t.min_players) for t in TILES if t.kind.type is B.MONUMENT]
    assert sorted(monuments) == [(2, 2), (3, 2), (4, 3), (5, 4)]
    assert all(t.modes == "expert" for t in TILES if t.kind.type in (B.MONUMENT, B.OFFICE_TOWER))
    seen = {n: sum(1 for _, m in monuments if m <= n) for n in (2, 3, 4)}
    assert seen == {2: 2, 3: 3, 4: 4}


def test_one_playground_per_round_and_its_inhabitant() -> None:
    # A1 and R11: one playground per round; it gives 1 inhabitant and is not a tree park.
    for mode in Mode:
        for r in range(1, ROUNDS[mode] + 1):
            playgrounds = [t for t in round_tiles(mode, r) if t.kind.type is B.PARK and not t.kind.tree]
            assert len(playgrounds) == 1
            assert playgrounds[0].kind.inhabitants == 1 and playgrounds[0].min_players == 2


def test_tile_ids_are_indexes() -> None:
    assert [t.id for t in TILES] == list(range(142))
