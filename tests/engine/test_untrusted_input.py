"""Hardening found by fuzzing: untrusted input (saved games, city files, bot specs,
hand-built moves) gives a domain error with a short, precise message, never another
exception, a hang, or an error while formatting the error."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from helpers import game, played, replaced
from hypothesis import given, settings
from hypothesis import strategies as st

from quadropolis import (
    Building,
    BuildingType,
    City,
    ConfigError,
    GameConfig,
    GameState,
    IllegalMoveError,
    InvalidStateError,
    Mode,
    Move,
    NotationError,
    QuadropolisError,
    RecordError,
    apply,
    explain_illegal,
    legal_moves,
    new_game,
    score_city,
)
from quadropolis.bots import BUDGET_CAPS, SEARCH_LEVELS, MCTSBot, make_bot
from quadropolis.config import SEED_MAX, SEED_MIN
from quadropolis.errors import quote
from quadropolis.moves import Build, Take
from quadropolis.record import GameRecord, replay
from quadropolis.site import DESIGNATED
from quadropolis.state import PLACE
from quadropolis.tiles import TILES

B = BuildingType
HUGE = 10**5000  # str() of it raises (Python's 4,300-digit limit)


def short(e: pytest.ExceptionInfo[Exception]) -> str:
    """The message, checked to be one short line."""
    msg = str(e.value)
    assert "\n" not in msg and len(msg) < 300, msg
    return msg


def empty_rows(mode: Mode) -> list[list[Any]]:
    cols = 4 if mode is Mode.CLASSIC else 5
    return [[None] * cols for _ in range(4)]


# --- huge integers: the message itself must format ---------------------------------------


def test_quote_never_renders_an_unbounded_value() -> None:
    assert quote(12) == "12" and quote(True) == "True" and quote(None) == "None"
    assert quote(2**53) == "900719925474... (16 digits)"
    assert quote(HUGE) == "an integer of about 5000 digits"
    assert quote(-HUGE).startswith("a negative integer of about")
    assert quote("x" * 10_000) == repr("x" * 40) + "... (10000 characters)"
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    assert quote(deep) == "a list" and quote({"a": deep}) == "an object"


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"players": HUGE}, "players must be 2, 3 or 4, got an integer of about 5000 digits"),
        ({"players": -HUGE}, "players must be 2, 3 or 4, got a negative integer of about"),
        ({"first_player": HUGE}, "first_player must be a seat from 0 to 1, got an integer of about"),
        ({"seed": HUGE}, r"seed must be between -2\*\*63 and 2\*\*63-1, got an integer of about"),
    ],
)
def test_huge_integers_in_a_config_give_a_short_message(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as e:
        GameConfig(**kwargs)  # type: ignore[arg-type]
    short(e)
    data: dict[str, Any] = {"mode": "classic", "players": 2, "seed": 1, **kwargs}
    with pytest.raises(ConfigError, match="config: " + message) as e:
        GameConfig.from_json(data)
    short(e)


@pytest.mark.parametrize(
    "cell,field,message",
    [
        ({"type": "tower_block", "floors": HUGE}, None, "at most 4 floor"),
        ({"type": "tower_block", "floors": -HUGE}, None, "'floors' must be at least 1"),
        ({"type": "harbor", "vp": HUGE}, None, "prints at most 3 VP"),
        ({"type": "harbor", "vp": -HUGE}, None, "'vp' must not be negative"),
        (None, "inhabitants", "'inhabitants' must be a whole number from 0 to 999"),
        (None, "energy", "'energy' must be a whole number from 0 to 999"),
    ],
)
def test_huge_integers_in_a_city_give_a_short_message(cell: Any, field: str | None, message: str) -> None:
    rows = empty_rows(Mode.CLASSIC)
    rows[0][0] = cell
    data: dict[str, Any] = {"mode": "classic", "rows": rows}
    if field:
        data[field] = HUGE
    with pytest.raises(InvalidStateError, match=message) as e:
        City.from_json(data)
    assert "digits" in short(e)


@pytest.mark.parametrize(
    "path",
    [["round"], ["turn"], ["mayor"], ["site", 3], ["players", 1, "energy"], ["config", "first_player"]],
)
def test_huge_integers_in_a_state_give_a_short_message(path: list[Any]) -> None:
    data = played(Mode.CLASSIC, 2, 3, 5).to_json()
    node = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = HUGE
    with pytest.raises(InvalidStateError) as e:
        GameState.from_json(data)
    msg = short(e)
    # named by validation (not the catch-all's "malformed (ValueError: Exceeds the limit...")
    assert "integer of about 5000 digits" in msg and "malformed" not in msg


# --- the seed is bounded -------------------------------------------------------------------


def test_seed_is_a_signed_64_bit_integer() -> None:
    for seed in (SEED_MIN, SEED_MAX, -5, 0):
        s = new_game(GameConfig(seed=seed))
        while s.round == 1:  # the next round is laid out from the seed (R4)
            s = apply(s, legal_moves(s)[0])
        assert s.round == 2
    for seed in (SEED_MAX + 1, SEED_MIN - 1, HUGE):
        with pytest.raises(ConfigError, match=r"seed must be between -2\*\*63 and 2\*\*63-1"):
            GameConfig(seed=seed)


def test_a_saved_state_with_an_unbounded_seed_is_rejected() -> None:
    # Used to load, then crash at the end of the round when the next layout was drawn.
    data = game(Mode.CLASSIC, 2, seed=1).to_json()
    data["config"]["seed"] = HUGE
    with pytest.raises(InvalidStateError, match=r"state: config: seed must be between -2\*\*63") as e:
        GameState.from_json(data)
    short(e)
    data["config"]["seed"] = 2**63
    with pytest.raises(InvalidStateError, match=r"got 922337203685\.\.\. \(19 digits\)"):
        GameState.from_json(data)


# --- hand-built moves ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda: Take(True, 0), "Take: architect must be an integer from 1 to 5, got True"),
        (lambda: Take(1, False), "Take: slot must be an integer from 0 to 19 .*, got False"),
        (lambda: Take(0, 0), "architect must be an integer from 1 to 5, got 0"),
        (lambda: Take(6, 0), "architect must be an integer from 1 to 5, got 6"),
        (lambda: Take(1, 20), "slot must be an integer from 0 to 19"),
        (lambda: Take(1, -1), "slot must be an integer from 0 to 19"),
        (lambda: Take(1.0, 0), "got 1.0"),
        (lambda: Take("3", 0), "got '3'"),
        (lambda: Take(HUGE, 0), "got an integer of about 5000 digits"),
        (lambda: Build(True, 1), "Build: row must be an integer from 1 to 4 .*, got True"),
        (lambda: Build(0, 1), "row must be an integer from 1 to 4"),
        (lambda: Build(5, 1), "row must be an integer from 1 to 4"),
        (lambda: Build(1, 0), "col must be an integer from 1 to 5"),
        (lambda: Build(1, 6), "col must be an integer from 1 to 5"),
        (lambda: Build(1, None), "got None"),
        (lambda: Take.at(1, "Z9"), r"no slot 'Z9' \(slots are T1-T5"),
        (lambda: Take.at(1, 5), "no slot 5"),
    ],
)
def test_hand_built_moves_are_checked_when_made(make: Any, message: str) -> None:
    # Take(True, 0) used to be accepted by apply() and recorded as the unparsable 'TrueT1'.
    with pytest.raises(NotationError, match=message) as e:
        make()
    short(e)


@given(
    st.one_of(st.integers(-3, 25), st.booleans(), st.floats(), st.none(), st.text(max_size=3)),
    st.one_of(st.integers(-3, 25), st.booleans(), st.floats(), st.none(), st.text(max_size=3)),
)
def test_every_constructible_move_has_a_notation(a: Any, b: Any) -> None:
    for kind in (Take, Build):
        try:
            m = kind(a, b)
        except NotationError:
            continue
        assert Move.parse(str(m)) == m


def test_moves_that_exist_but_not_in_classic_are_illegal() -> None:
    # Out of every range: no such move. Expert has architect #5 and a fifth column, so those
    # moves exist, and a Classic game rejects them by its rules.
    with pytest.raises(NotationError):
        Take(0, 0)
    s = game(Mode.CLASSIC, 2, seed=7)
    with pytest.raises(IllegalMoveError, match="classic architects are numbered 1-4"):
        apply(s, Take(5, 0))
    take = next(m for m in legal_moves(s) if apply(s, m).phase == PLACE)
    p = apply(s, take)
    with pytest.raises(IllegalMoveError, match="a classic city has 4 rows and 4 columns"):
        apply(p, Build(1, 5))


class SneakyTake(Take):
    """A subclass of a move kind: equal to no generated move, whatever its fields."""

    __slots__ = ()


class SneakyBuild(Build):
    __slots__ = ()


def test_a_subclass_of_a_move_kind_is_refused_with_a_clear_error() -> None:
    # Such a move passed every check of apply() and then tripped its internal assertion
    # ("passed checks but is not generated"): an AssertionError, not a QuadropolisError.
    s = game(Mode.CLASSIC, 2, seed=7)
    take = legal_moves(s)[0]
    assert isinstance(take, Take)
    sneaky = SneakyTake(take.architect, take.slot)
    with pytest.raises(IllegalMoveError, match="SneakyTake is not a move kind") as e:
        apply(s, sneaky)
    short(e)
    assert explain_illegal(s, sneaky) is not None and sneaky not in legal_moves(s)
    p = next(apply(s, m) for m in legal_moves(s) if apply(s, m).phase == PLACE)
    build = next(m for m in legal_moves(p) if isinstance(m, Build))
    with pytest.raises(IllegalMoveError, match="SneakyBuild is not a move kind"):
        apply(p, SneakyBuild(build.row, build.col))


# --- city bounds ---------------------------------------------------------------------------


def full_expert_city(inhabitants: int, energy: int) -> City:
    from quadropolis.citygen import random_city

    c = random_city(random.Random(4), Mode.EXPERT, filled=20)
    return City(Mode.EXPERT, c.buildings, inhabitants, energy)


@pytest.mark.parametrize(
    "inhabitants,energy,message",
    [
        (-5, 0, "'inhabitants' must be a whole number from 0 to 999, got -5"),
        (0, -1, "'energy' must be a whole number from 0 to 999, got -1"),
        (1000, 0, "got 1000"),
        (200_000_000, 0, "got 200000000"),
        (0, 2**53, r"got 900719925474\.\.\. \(16 digits\)"),
        (True, 0, "got True"),
        (1.0, 0, "got 1.0"),
    ],
)
def test_city_resources_are_bounded(inhabitants: Any, energy: Any, message: str) -> None:
    # Negative resources used to crash the scorer; 200,000,000 inhabitants overflowed its keys.
    with pytest.raises(InvalidStateError, match=message):
        City(Mode.CLASSIC, (None,) * 16, inhabitants, energy)
    data = {"mode": "classic", "rows": empty_rows(Mode.CLASSIC), "inhabitants": inhabitants, "energy": energy}
    with pytest.raises(InvalidStateError):
        City.from_json(data)


def test_the_resource_cap_is_far_above_a_game_and_scores_exactly() -> None:
    with pytest.raises(InvalidStateError, match="from 0 to 999, got 1000"):
        full_expert_city(1000, 0)
    rich = score_city(full_expert_city(999, 999))
    assert rich.placement.unused_inhabitants + rich.inhabitants_placed == 999
    assert City.from_json(full_expert_city(999, 999).to_json()) == full_expert_city(999, 999)


@pytest.mark.parametrize(
    "mode,building,message",
    [
        (Mode.CLASSIC, Building(B.TOWER_BLOCK, 5), "a tower block has at most 4 floor"),
        (Mode.EXPERT, Building(B.TOWER_BLOCK, 6), "a tower block has at most 5 floor"),
        (Mode.EXPERT, Building(B.SHOP, 2), "a shop has at most 1 floor"),
        (Mode.CLASSIC, Building(B.TOWER_BLOCK, True), "'floors' must be an integer, got True"),
        (Mode.CLASSIC, Building(B.TOWER_BLOCK, 0), "'floors' must be at least 1"),
        (Mode.CLASSIC, Building(B.HARBOR, 1, 4), "a harbor prints at most 3 VP"),
        (Mode.CLASSIC, Building(B.SHOP, 1, 1), "a shop prints none VP"),
        (Mode.CLASSIC, Building(B.PUBLIC_SERVICE, 1, -1), "'vp' must not be negative"),
        (Mode.CLASSIC, Building(B.SHOP, tree=True), "a shop cannot be a tree park"),
        (Mode.CLASSIC, Building(B.PARK, tree=1), "'tree' must be true or false, got 1"),  # type: ignore[arg-type]
        (Mode.CLASSIC, Building(0, 1), "'type' must be a BuildingType, got 0"),  # type: ignore[arg-type]
        (Mode.CLASSIC, Building(B.OFFICE_TOWER), "office towers exist only in expert mode"),
        (Mode.CLASSIC, Building(B.MONUMENT), "monuments exist only in expert mode"),
        (Mode.CLASSIC, "tower", "expected a Building or None, got 'tower'"),
    ],
)
def test_city_buildings_are_checked_when_made(mode: Mode, building: Any, message: str) -> None:
    cells = [None] * (16 if mode is Mode.CLASSIC else 20)
    cells[5] = building
    with pytest.raises(InvalidStateError, match=f"city: r2c{2 if mode is Mode.CLASSIC else 1}: {message}"):
        City(mode, tuple(cells))


def test_city_shape_is_checked_when_made() -> None:
    with pytest.raises(InvalidStateError, match="buildings must be a tuple of 16 squares"):
        City(Mode.CLASSIC, [None] * 16)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match=r"a tuple of 20 squares \(expert city\), got a list of 16"):
        City(Mode.EXPERT, (None,) * 16)
    with pytest.raises(InvalidStateError, match="mode must be a Mode, got 'classic'"):
        City("classic", (None,) * 16)  # type: ignore[arg-type]


# --- tile counts against the manifest --------------------------------------------------------


def final_state(mode: Mode, players: int, seed: int = 11) -> dict[str, Any]:
    return played(mode, players, seed, 10**6).to_json()


def fill(data: dict[str, Any], player: int, cell: dict[str, Any], count: int) -> None:
    """Put ``cell`` on the first ``count`` squares of the player's city."""
    city = data["players"][player]["city"]
    cols = len(city[0])
    for q in range(count):
        city[q // cols][q % cols] = dict(cell)


def spread(data: dict[str, Any], cell: dict[str, Any], count: int) -> dict[str, Any]:
    """The cities hold ``count`` copies of ``cell`` (one a square, player 0's city first) and
    nothing else; each player has the inhabitants those buildings give at least."""
    mode = Mode(data["config"]["mode"])
    size = 16 if mode is Mode.CLASSIC else 20
    for p in range(len(data["players"])):
        here = max(0, min(size, count - p * size))
        data["players"][p] = {"city": empty_rows(mode), "inhabitants": 0, "energy": 0}
        fill(data, p, cell, here)
        if cell["type"] == "tower_block" or cell.get("variant") == "playground":
            data["players"][p]["inhabitants"] = here * cell.get("floors", 1)
    return data


def test_twelve_monuments_are_rejected() -> None:
    # Expert with 2 players sees the monuments of rounds 2 and 3 only (TILES.md).
    data = spread(final_state(Mode.EXPERT, 2), {"type": "monument"}, 12)
    with pytest.raises(InvalidStateError, match="the cities hold 12 monuments but only 2 such tile") as e:
        GameState.from_json(data)
    assert "of expert rounds 1-5 with 2 players can have been built (TILES.md)" in short(e)


@pytest.mark.parametrize(
    "mode,cell",
    [
        (Mode.EXPERT, {"type": "monument"}),
        (Mode.CLASSIC, {"type": "public_service", "vp": 2}),
        (Mode.CLASSIC, {"type": "public_service", "vp": 1}),  # none face up with 2 players (R4)
        (Mode.CLASSIC, {"type": "public_service"}),
        (Mode.CLASSIC, {"type": "park", "variant": "playground"}),
        (Mode.EXPERT, {"type": "park", "variant": "tree"}),
        (Mode.EXPERT, {"type": "harbor", "vp": 3}),
        (Mode.CLASSIC, {"type": "harbor", "vp": 2}),
        (Mode.CLASSIC, {"type": "harbor"}),  # H2I, H2E, H1I1E print no VP
        (Mode.EXPERT, {"type": "office_tower"}),
        (Mode.CLASSIC, {"type": "shop"}),
        (Mode.EXPERT, {"type": "tower_block"}),  # T1, T1m (mayor), T2, T3 all look alike
    ],
)
def test_cities_hold_at_most_the_tiles_of_the_manifest(mode: Mode, cell: dict[str, Any]) -> None:
    data = final_state(mode, 2)
    on_site = {t for t in data["site"] if t is not None}
    b = Building.from_json(cell)
    available = sum(
        1
        for t in TILES
        if t.in_mode(mode)
        and t.min_players <= 2
        and t.id not in on_site
        and (t.kind.type, t.kind.vp, t.kind.tree) == (b.type, b.vp, b.tree)
    )
    GameState.from_json(spread(data, cell, available))
    with pytest.raises(
        InvalidStateError, match=f"the cities hold {available + 1} .* but only {available} such"
    ) as e:
        GameState.from_json(spread(data, cell, available + 1))
    assert "(TILES.md)" in short(e)


def test_stacked_tower_floors_count_one_tile_each() -> None:
    data = final_state(Mode.CLASSIC, 2)
    on_site = {t for t in data["site"] if t is not None}
    available = sum(
        1
        for t in TILES
        if t.in_mode(Mode.CLASSIC)
        and t.min_players <= 2
        and t.kind.type is B.TOWER_BLOCK
        and t.id not in on_site
    )
    spread(data, {"type": "tower_block", "floors": 4}, 4)  # 16 floors: what player 0 took
    fill(data, 1, {"type": "tower_block", "floors": 4}, 4)  # and player 1: not in the box
    data["players"][1]["inhabitants"] = 16
    with pytest.raises(InvalidStateError, match=f"32 tower block floors but only {available} such tile"):
        GameState.from_json(data)
    data["players"][1]["city"][0][0] = None
    data["players"][1]["city"][0][1]["floors"] = 2  # 26 floors
    assert available < 26
    with pytest.raises(InvalidStateError, match=f"26 tower block floors but only {available} such tile"):
        GameState.from_json(data)


def test_tiles_on_the_site_or_in_hand_are_not_in_any_city() -> None:
    # Expert round 2 has the first monument (TILES.md). While it lies on the construction
    # site, or is the building in hand, no city can hold a monument.
    s = game(Mode.EXPERT, 2, seed=5)
    while s.round < 2:
        s = apply(s, legal_moves(s)[-1])
    monument = next(q for q in range(25) if s.site[q] >= 0 and TILES[s.site[q]].code == "M")
    data = s.to_json()
    fill(data, 0, {"type": "monument"}, 1)
    with pytest.raises(InvalidStateError, match="1 monuments but only 0 such tile"):
        GameState.from_json(data)
    take = next(
        m
        for m in legal_moves(s)
        if DESIGNATED[m.slot][m.architect] == monument  # type: ignore[attr-defined]
    )
    held = apply(s, take)
    assert held.phase == PLACE and TILES[held.pending_tile].code == "M"
    data = held.to_json()
    fill(data, 1, {"type": "monument"}, 1)
    with pytest.raises(InvalidStateError, match="1 monuments but only 0 such tile"):
        GameState.from_json(data)


def test_the_mayor_moves_only_with_the_mayor_tower_block() -> None:
    s = played(Mode.CLASSIC, 2, 3, 3)
    assert s.round == 1 and s.mayor == s.starter == 0
    data = s.to_json()
    data["mayor"] = 1  # R10: nobody built this round's mayor tower block (it is on the site)
    with pytest.raises(
        InvalidStateError, match=r"player 1 holds the mayor but .* has not been built \(R10\)"
    ):
        GameState.from_json(data)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(list(Mode)), st.integers(2, 4), st.integers(0, 2**32), st.data())
def test_every_state_of_a_random_game_round_trips(
    mode: Mode, players: int, seed: int, data: st.DataObject
) -> None:
    first = data.draw(st.integers(0, players - 1))
    s = new_game(GameConfig(mode=mode, players=players, seed=seed, first_player=first))
    rng = random.Random(seed)
    while True:
        back = GameState.from_json(json.loads(json.dumps(s.to_json())))
        assert back == s
        if s.is_over:
            break
        s = apply(s, rng.choice(legal_moves(s)))


# --- untrusted bot budgets -------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec,cap",
    [
        ("mcts:iterations=100000000", "iterations must be at most 20000"),
        ("hard:iterations=20001", "iterations must be at most 20000"),
        ("mcts:seconds=10.5", "seconds must be at most 10"),
        ("medium:workers=9", "workers must be at most 8"),
        ("mcts:horizon=41", "horizon must be at most 40"),
    ],
)
def test_untrusted_bot_budgets_are_capped(spec: str, cap: str) -> None:
    with pytest.raises(ConfigError, match=f"bot '{spec}': {cap} \\(the cap on bot specs from saved games"):
        make_bot(spec)
    bot = make_bot(spec, trusted=True)  # the command line's own options may go beyond
    assert isinstance(bot, MCTSBot)


def test_budgets_at_the_caps_and_the_levels_are_accepted() -> None:
    bot = make_bot("mcts:iterations=20000,seconds=10,workers=8,trees=8,horizon=40")
    assert isinstance(bot, MCTSBot) and bot.iterations == 20000 and bot.seconds == 10 and bot.workers == 8
    assert BUDGET_CAPS == {"iterations": 20_000, "seconds": 10.0, "workers": 8, "trees": 8, "horizon": 40}
    for level in SEARCH_LEVELS:  # every level is within the caps a saved game may ask for
        assert isinstance(make_bot(level), MCTSBot)
    hard = make_bot("hard")
    assert (
        isinstance(hard, MCTSBot)
        and hard.iterations == SEARCH_LEVELS["hard"].iterations
        and hard.workers == 2
    )
    trusted = make_bot("mcts:iterations=100000000", trusted=True)
    assert isinstance(trusted, MCTSBot) and trusted.iterations == 100_000_000


@pytest.mark.parametrize(
    "spec,message",
    [
        ("mcts:pw_alpha=1000", "pw_alpha must be at most 1"),  # 3.0 ** 1000 overflows in the search
        ("mcts:pw_c=1e300", "pw_c must be at most 100"),
        ("mcts:c=1e300", "c must be at most 100"),
        ("mcts:credit=1e300", "credit must be at most 100"),
        ("mcts:bias=1e300", "bias must be at most 100"),
    ],
)
def test_tuning_options_are_bounded_even_when_trusted(spec: str, message: str) -> None:
    for trusted in (False, True):
        with pytest.raises(ConfigError, match=message):
            make_bot(spec, trusted=trusted)


def test_odd_bot_specs_are_errors() -> None:
    with pytest.raises(ConfigError, match="a bot spec must be text, got None"):
        make_bot(None)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"a spec has at most 200 characters") as e:
        make_bot("mcts:" + "c=1," * 10_000)
    short(e)
    with pytest.raises(ConfigError, match="iterations must be at most 20000"):
        make_bot("mcts:iterations=" + "9" * 150)


def test_a_saved_game_cannot_make_a_bot_hang() -> None:
    from quadropolis.terminal.session import PlaySession

    record = GameRecord(GameConfig(players=2, seed=1), (), None, ("human:Ann", "mcts:iterations=100000000"))
    start = time.perf_counter()
    with pytest.raises(ConfigError, match="iterations must be at most 20000"):
        PlaySession.from_record(record)
    assert time.perf_counter() - start < 1


def test_command_line_bots_may_exceed_the_caps_but_record_seats_may_not() -> None:
    """Specs typed on the command line are trusted; the same spec read from a record is not."""
    from quadropolis.terminal.session import PlaySession, Seat, make_seats

    seats = make_seats(2, ["mcts:iterations=30000"], [])
    assert seats[1].trusted and seats[1].bot == "mcts:iterations=30000"
    session = PlaySession(GameConfig(players=2, seed=1), seats)
    assert session.bot(1).name == "mcts:iterations=30000"
    with pytest.raises(ConfigError, match="at most 20000"):
        Seat.from_record("mcts:iterations=30000")


# --- deep and odd values in documents --------------------------------------------------------


def nested(depth: int, leaf: Any = 1) -> Any:
    v = leaf
    for i in range(depth):
        v = [v] if i % 2 else {"k": v}
    return v


DEEP = nested(100_000)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document."""
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, (*prefix, i))
    return out


def test_deep_values_anywhere_in_a_state_give_the_domain_error() -> None:
    doc = played(Mode.EXPERT, 3, 2, 41).to_json()
    assert doc["phase"] == "place"
    for path in paths(doc):
        with pytest.raises(InvalidStateError) as e:
            GameState.from_json(replaced(doc, path, DEEP))
        assert "malformed" not in short(e), path
    with pytest.raises(InvalidStateError, match="state: expected a JSON object"):
        GameState.from_json(DEEP)


def test_deep_values_anywhere_in_a_record_give_the_domain_error() -> None:
    s = played(Mode.CLASSIC, 2, 4, 10**6)
    moves = ["2T3"]
    record = GameRecord(GameConfig(seed=4), tuple(moves), None, ("greedy", "human:Bo")).to_json()
    record["result"] = {
        "scores": [1, 2],
        "winners": [1],
        "inhabitants_placed": [0, 0],
        "empty_squares": [0, 0],
    }
    assert s.is_over
    for path in paths(record):
        with pytest.raises(RecordError) as e:
            GameRecord.from_json(replaced(record, path, DEEP))
        short(e)


def test_deep_values_anywhere_in_a_city_give_the_domain_error() -> None:
    doc = full_expert_city(30, 30).to_json()
    for path in paths(doc):
        with pytest.raises(InvalidStateError) as e:
            City.from_json(replaced(doc, path, DEEP))
        short(e)


@pytest.mark.parametrize(
    "result,message",
    [
        ([1, 2], "'result' must be an object, got a list"),
        ({"scores": [1]}, "'scores' must be a list of 2 whole numbers"),
        ({"scores": [1, True]}, "'scores' must be a list of 2 whole numbers"),
        ({"winners": [2]}, r"'winners' must be a list of 1 to 2 distinct seats \(0-1\)"),
        ({"winners": []}, "'winners' must be"),
        ({"empty_squares": [HUGE, 0]}, "'empty_squares' must be"),
        ({"bonus": 1}, "'result': unknown field"),
    ],
)
def test_a_record_result_has_the_shape_records_write(result: Any, message: str) -> None:
    data = GameRecord(GameConfig(seed=4), ()).to_json()
    data["result"] = result
    with pytest.raises(RecordError, match=message) as e:
        GameRecord.from_json(data)
    short(e)
    with pytest.raises(RecordError, match=message):
        GameRecord(GameConfig(seed=4), (), result)


def test_hand_built_records_are_checked() -> None:
    with pytest.raises(RecordError, match="'moves' must be a tuple of moves in notation"):
        GameRecord(GameConfig(), ["2T3"])  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="'seats' must list 2 names"):
        GameRecord(GameConfig(), (), None, ("greedy",))
    with pytest.raises(RecordError, match="config must be a GameConfig"):
        GameRecord({"mode": "classic"}, ())  # type: ignore[arg-type]


def test_replay_messages_quote_moves_briefly() -> None:
    record = GameRecord(GameConfig(seed=4), (" " * 100_000 + "9T1",))
    with pytest.raises(RecordError, match=r"move 1: .*architects are numbered 1-5") as e:
        replay(record)
    short(e)
    with pytest.raises(QuadropolisError):
        Move.parse("x" * 1_000_000)
