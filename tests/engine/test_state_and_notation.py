"""State serialisation and validation; move notation."""

from __future__ import annotations

import json

import pytest
from helpers import game, played, replaced
from hypothesis import given, settings
from hypothesis import strategies as st

from quadropolis import (
    DISCARD,
    Build,
    GameConfig,
    GameState,
    InvalidStateError,
    Mode,
    Move,
    NotationError,
    Take,
    apply,
    legal_moves,
)
from quadropolis.errors import ConfigError, QuadropolisError
from quadropolis.moves import BUILDS, TAKES
from quadropolis.site import DESIGNATED, SLOT_INDEX, SLOT_NAMES
from quadropolis.tiles import TILES

ALL_MOVES: list[Move] = [TAKES[s][a] for s in range(20) for a in range(1, 6)]
ALL_MOVES += [BUILDS[r][c] for r in range(1, 5) for c in range(1, 6)] + [DISCARD]


@given(st.sampled_from(ALL_MOVES))
def test_notation_round_trips(move: Move) -> None:
    text = str(move)
    assert Move.parse(text) == move
    assert Move.parse(text.lower()) == move and Move.parse(f"  {text.upper()} ") == move


def test_notation_examples() -> None:
    assert str(Take.at(3, "L4")) == "3L4"
    assert Move.parse("#3L4") == Take(3, SLOT_NAMES.index("L4"))
    assert str(Build(2, 3)) == "r2c3" and Move.parse("R2C3") == Build(2, 3)
    assert Move.parse("discard") == DISCARD


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "is not a move"),
        ("3X4", "is not a move"),
        ("6L1", "numbered 1-5"),
        ("0L1", "numbered 1-5"),
        ("3L6", "no slot L6"),
        ("r5c1", "r1c1 to r4c5"),
        ("r1c6", "r1c1 to r4c5"),
        ("build", "is not a move"),
    ],
)
def test_bad_notation_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Move.parse(text)
    assert issubclass(NotationError, QuadropolisError) and issubclass(QuadropolisError, ValueError)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(Mode)), st.integers(2, 4), st.integers(0, 10**6), st.integers(0, 200))
def test_state_json_round_trips(mode: Mode, players: int, seed: int, actions: int) -> None:
    s = played(mode, players, seed, actions)
    data = json.loads(json.dumps(s.to_json()))
    back = GameState.from_json(data)
    assert back == s
    assert back.to_json() == s.to_json()
    assert legal_moves(back) == legal_moves(s)


@pytest.mark.parametrize(
    "path,value,message",
    [
        (["format"], "x", "format"),
        (["config", "players"], 5, "players must be 2, 3 or 4"),
        (["config", "mode"], "turbo", "mode must be"),
        (["config", "variants", "house_rule"], True, "unknown variant"),
        (["round"], 9, "'round' must be between 1 and 4"),
        (["phase"], "dance", "'phase' must be one of"),
        (["site", 0], 141, "is not a classic round-1 tile"),
        (["site", 0], "T1", "tile id must be an integer"),
        (["slots_used"], ["L1", "L1"], "lists a slot twice"),
        (["slots_used"], ["Q9"], "unknown slot"),
        (["urbanist"], "r9c9", "not a construction-site square"),
        (["players", 0, "energy"], -1, "must not be negative"),
        (["players", 0, "city", 0, 0], {"type": "tower_block", "floors": 5}, "at most 4 floor"),
        (["players", 0, "city", 0, 0], {"type": "castle"}, "unknown building type"),
        (["players", 0, "city", 0, 0], {"type": "office_tower"}, "only in expert"),
        (["architects"], [[1, 1], []], "distinct"),
        (["pending"], {"tile": 0, "architect": 1}, "'pending' must be null"),
        (["surprise"], 1, "unknown field"),
    ],
)
def test_impossible_states_are_rejected(path: list, value: object, message: str) -> None:  # type: ignore[type-arg]
    s = played(Mode.CLASSIC, 2, 3, 3)
    assert s.phase == 0 and s.round == 1
    data = replaced(s.to_json(), path, value)
    with pytest.raises(InvalidStateError, match=message):
        GameState.from_json(data)


@pytest.mark.parametrize("junk", [None, 3, "state", [], {"format": "quadropolis-state/1"}])
def test_malformed_state_documents(junk: object) -> None:
    with pytest.raises(InvalidStateError):
        GameState.from_json(junk)


def test_face_down_must_match_the_player_count() -> None:
    s = game(Mode.CLASSIC, 2, seed=1)
    data = s.to_json()
    data["face_down"] = data["face_down"][1:]
    with pytest.raises(InvalidStateError, match=r"must be face down with 2 players \(R4\)"):
        GameState.from_json(data)


def test_config_validation() -> None:
    with pytest.raises(ConfigError, match="first_player"):
        GameConfig(players=2, first_player=2)
    with pytest.raises(ConfigError, match="urbanist_blocks"):
        GameConfig(urbanist_blocks="diagonal")
    with pytest.raises(ConfigError, match="unknown option"):
        GameConfig.from_json({"mode": "classic", "players": 2, "seed": 1, "speed": 3})
    cfg = GameConfig(mode=Mode.EXPERT, players=3, seed=-5, first_player=2, all_parks_absorb=True)
    assert GameConfig.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg


def test_copy_is_independent() -> None:
    s = played(Mode.EXPERT, 4, 2, 30)
    snapshot = s.to_json()
    c = s.copy()
    assert c == s
    m = legal_moves(c)[0]
    c2 = apply(c, m)
    assert c == s and c2 != s
    c.cities[0][0] = None
    c.architects[1] = 0
    c.site[0] = -1
    c.inhabitants[0] += 1
    assert s.to_json() == snapshot


def _place_state() -> GameState:
    """A Classic 2-player state in the place phase (player 0 took a face-up building)."""
    s = game(Mode.CLASSIC, 2, seed=7)
    take = next(m for m in legal_moves(s) if apply(s, m).phase == 1)
    return apply(s, take)


def test_more_impossible_states_are_rejected() -> None:
    base = played(Mode.CLASSIC, 2, 3, 3)
    data = base.to_json()
    cases: list[tuple[dict, str]] = []  # type: ignore[type-arg]
    # the urbanist on a square no used slot can designate
    far = set(range(25)) - {DESIGNATED[SLOT_INDEX[n]][a] for n in data["slots_used"] for a in range(1, 5)}
    q = min(far)
    cases.append((replaced(data, ["urbanist"], f"r{q // 5 + 1}c{q % 5 + 1}"), "no used slot designates"))
    # a tile vanished from a square nobody designated
    site = list(data["site"])
    site[q] = None
    cases.append((replaced(data, ["site"], site), "no architect in a used slot can have designated it"))
    # impossible resources
    cases.append((replaced(data, ["players", 1, "energy"], 50), "more inhabitants and energy"))
    cases.append((replaced(data, ["players", 1, "bonus"], 1), "expected exactly"))
    # the mayor cannot differ from the starter in the last round
    last = played(Mode.CLASSIC, 2, 3, 10**6).to_json()
    cases.append((replaced(last, ["mayor"], 1 - last["starter"]), "last round has no mayor tile"))
    # round 1 is started by first_player
    cases.append((replaced(data, ["starter"], 1), "first_player"))
    place = _place_state().to_json()
    cases.append((replaced(place, ["pending", "architect"], True), "'pending.architect' must be"))
    used = place["architects"][0][0]
    other = next(a for a in (1, 2, 3, 4) if a != used)
    cases.append((replaced(place, ["pending", "architect"], other), f"has not used architect #{other}"))
    hidden = next(t.id for t in TILES if t.round == 1 and t.min_players > 2)
    # a face-down tile (R4) can be neither taken nor missing from the site
    cases.append((replaced(place, ["pending", "tile"], hidden), "no longer on the site"))
    # designate a face-down square (legal, takes nothing: R4/R6), then pretend its tile left
    s0 = game(Mode.CLASSIC, 2, seed=7)
    fd_take = next(m for m in legal_moves(s0) if s0.face_down >> DESIGNATED[m.slot][m.architect] & 1)  # type: ignore[attr-defined]
    after = apply(s0, fd_take).to_json()
    q = DESIGNATED[fd_take.slot][fd_take.architect]  # type: ignore[attr-defined]
    gone = replaced(after, ["site", q], None)
    gone["face_down"] = [n for n in gone["face_down"] if n != f"r{q // 5 + 1}c{q % 5 + 1}"]
    cases.append((gone, "is face down with 2 players"))
    for bad, message in cases:
        with pytest.raises(InvalidStateError, match=message):
            GameState.from_json(bad)


def test_hand_built_out_of_range_moves_are_refused_when_made() -> None:
    """Moves check their values when built (no move without a notation exists); a Build
    that exists but lies outside a Classic city is illegal there, with the reason."""
    from quadropolis import IllegalMoveError, NotationError, explain_illegal

    makers = (
        lambda: Take(1, 20),
        lambda: Take(1, -1),
        lambda: Take(0, 0),
        lambda: Build(1, 0),
        lambda: Build(0, 1),
        lambda: Build(5, 1),
    )
    for make in makers:
        with pytest.raises(NotationError):
            make()
    p = _place_state()
    assert "rows and" in (explain_illegal(p, Build(1, 5)) or "")
    with pytest.raises(IllegalMoveError):
        apply(p, Build(1, 5))


@pytest.mark.parametrize(
    "cell,message",
    [
        ({"type": "shop", "vp": 1}, "a shop prints none VP"),
        ({"type": "public_service", "vp": 3}, "at most 2 VP"),
        ({"type": "harbor", "vp": 4}, "at most 3 VP"),
    ],
)
def test_printed_vp_only_where_tiles_print_it(cell: dict, message: str) -> None:  # type: ignore[type-arg]
    from quadropolis import City

    rows = [[cell, None, None, None]] + [[None] * 4] * 3
    with pytest.raises(InvalidStateError, match=message):
        City.from_json({"mode": "classic", "rows": rows})


def test_remembered_layouts_are_fresh_lists_equal_to_a_new_draw() -> None:
    # lay_out remembers the last layout of each round (OpenSpiel's states share one seed): a
    # caller may mutate the list it gets (the engine empties site squares in place) without
    # changing what the next call returns, and every call equals a layout drawn afresh.
    from quadropolis import state as state_module

    config = GameConfig(mode=Mode.EXPERT, players=3, seed=4242)
    first, face_down = state_module.lay_out(config, 2)
    expected = list(first)
    assert (expected, face_down) == state_module._draw_layout(Mode.EXPERT, 3, 4242, 2)
    first[:] = [-1] * len(first)  # what a game does to its site
    again = state_module.lay_out(config, 2)
    assert again == (expected, face_down) and again[0] is not first
    # remembered by seed, mode and player count: another of them is drawn, not reused
    other = state_module.lay_out(GameConfig(mode=Mode.EXPERT, players=4, seed=4242), 2)
    assert other[0] == expected and other[1] != face_down  # same order, fewer tiles face down
    assert state_module.lay_out(GameConfig(mode=Mode.EXPERT, players=3, seed=4243), 2)[0] != expected
    assert state_module.lay_out(GameConfig(mode=Mode.CLASSIC, players=3, seed=4242), 2)[0] != expected
    assert state_module.lay_out(config, 2) == (expected, face_down)


def test_move_numbers_follow_the_documented_formulas() -> None:
    from quadropolis.moves import MOVES, move_number

    assert len(MOVES) == 121 and len(set(MOVES)) == 121
    for k, m in enumerate(MOVES):
        assert move_number(m) == k
        assert move_number(Move.parse(str(m))) == k  # interned
    assert move_number(Take(3, SLOT_INDEX["L4"])) == SLOT_INDEX["L4"] * 5 + 2  # made by hand
    assert move_number(Build(2, 3)) == 100 + 5 + 2
    assert move_number(DISCARD) == 120
    with pytest.raises(TypeError):
        move_number("3L4")  # type: ignore[arg-type]
