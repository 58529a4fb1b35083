"""Fuzzing the API's untrusted inputs: saved states, game records, cities, move
notation and hand-built moves.

Seeded mutation loops over real documents (deterministic, so a failure reproduces from the
case number it prints): keys deleted or added, values replaced by huge, negative, boolean,
float, null, text, deeply nested or duplicated values, numbers nudged by one, lists cut or
doubled. Every input must either be accepted — and then behave: round-trip, give legal
moves that apply, score, replay — or be rejected with a :class:`QuadropolisError` whose
message is one short line. Anything else (TypeError, KeyError, RecursionError, an assertion
inside the engine, a corrupted input state) fails the test."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quadropolis import (
    City,
    GameConfig,
    GameState,
    IllegalMoveError,
    Mode,
    Move,
    NotationError,
    QuadropolisError,
    apply,
    explain_illegal,
    legal_moves,
    new_game,
    outcome,
    score_city,
)
from quadropolis.citygen import random_city
from quadropolis.moves import DISCARD, Build, Take
from quadropolis.record import GameRecord, replay

Json = Any


def _deep(depth: int) -> Json:
    v: Json = 0
    for i in range(depth):
        v = [v] if i % 2 else {"a": v}
    return v


#: Replacement values: the classes of value that broke validation before.
ODD_VALUES: list[Json] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    5,
    25,
    999,
    1000,
    2**31,
    2**53 + 1,
    2**63,
    -(2**63) - 1,
    10**5000,
    -(10**5000),
    0.0,
    1.5,
    -0.5,
    float("inf"),
    float("nan"),
    "",
    "x",
    "r1c1",
    "L1",
    "classic",
    "expert",
    "take",
    "place",
    "over",
    "tower_block",
    "tree",
    "quadropolis-state/1",
    "quadropolis-game/1",
    "9" * 10_000,
    [],
    [None],
    [1, 2, 3],
    {},
    {"type": "monument"},
    {"type": "tower_block", "floors": 5},
    _deep(1_000),
    _deep(50_000),
    # not JSON, but what a Python caller may pass
    (1, 2),
    {1: "a", None: 2},
    b"r1c1",
    {"r1c1"},
    object(),
]


def _paths(doc: Json, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Paths to the values of a document, not below depth 8 (real documents are shallower;
    deeper ones are values this fuzzer nested, which it treats as opaque)."""
    yield prefix
    if len(prefix) >= 8:
        return
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


def _at(doc: Json, path: tuple[Any, ...]) -> Json:
    for k in path:
        doc = doc[k]
    return doc


def mutate(doc: Json, rng: random.Random, rounds: int = 1) -> tuple[Json, list[str]]:
    """A mutated deep copy of ``doc`` and what was done to it."""
    d = copy.deepcopy(doc)
    done: list[str] = []
    while len(done) < rounds:
        paths = list(_paths(d))
        path = rng.choice(paths)
        target = _at(d, path)
        parent = _at(d, path[:-1]) if path else None
        op = rng.randrange(9)
        if op == 0 and path:  # delete the key or list item
            del parent[path[-1]]
            done.append(f"delete {path}")
        elif op == 1 and path:  # replace by an odd value
            value = rng.choice(ODD_VALUES)
            parent[path[-1]] = value
            done.append(f"{path} = {_short(value)}")
        elif op == 2 and isinstance(target, int) and not isinstance(target, bool) and path:
            delta = rng.choice((-1, 1, -2, 2, 5))
            parent[path[-1]] = target + delta
            done.append(f"{path} += {delta}")
        elif op == 3 and isinstance(target, list) and target:  # duplicate or cut a list
            if rng.random() < 0.5:
                target.extend(list(target))  # shared items: they may be deeply nested
                done.append(f"double {path}")
            else:
                del target[rng.randrange(len(target)) :]
                done.append(f"cut {path}")
        elif op == 4 and isinstance(target, dict):  # an unknown key
            key = rng.choice(["x", "", "seed", "floors", "1", "6", 1, None, ("t",)])
            target[key] = rng.choice(ODD_VALUES)
            done.append(f"add {path}[{key!r}]")
        elif op == 5 and path:  # nest the value deeply
            value = target
            for _ in range(rng.choice((1, 2, 1_000))):
                value = [value]
            parent[path[-1]] = value
            done.append(f"nest {path}")
        elif op == 6 and isinstance(parent, list) and len(parent) > 1:  # swap two siblings
            i = rng.randrange(len(parent))
            parent[path[-1]], parent[i] = parent[i], parent[path[-1]]
            done.append(f"swap {path} with [{i}]")
        elif op == 7 and path:  # a value of the same kind from elsewhere in the document
            donor = _at(d, rng.choice(paths))
            parent[path[-1]] = donor  # shared, not copied: it may hold a deeply nested value
            done.append(f"{path} = value from elsewhere")
        elif op == 8 and path and isinstance(target, str):
            parent[path[-1]] = rng.choice([target.upper(), target + " ", target[:-1], target * 2])
            done.append(f"edit text {path}")
    return d, done


def _short(v: Json) -> str:
    from quadropolis.errors import quote

    return quote(v)


def assert_domain_error(e: BaseException, what: str) -> None:
    """Only QuadropolisError, with a short one-line message from validation itself."""
    assert isinstance(e, QuadropolisError), f"{what}: {type(e).__name__}: {e}"
    msg = str(e)
    assert "\n" not in msg and len(msg) <= 300, f"{what}: message too long or multi-line: {msg[:400]}"
    assert "malformed" not in msg, f"{what}: fell through to the catch-all: {msg}"


def _game(mode: Mode, players: int, seed: int, stop: int | None = None) -> list[GameState]:
    """Every state of a random game (up to ``stop`` actions)."""
    s = new_game(GameConfig(mode=mode, players=players, seed=seed, first_player=seed % players))
    rng = random.Random(seed)
    out = [s]
    while not s.is_over and (stop is None or len(out) <= stop):
        s = apply(s, rng.choice(legal_moves(s)))
        out.append(s)
    return out


@pytest.fixture(scope="module")
def corpus() -> list[GameState]:
    """Real states of every mode and player count, every phase, early and late."""
    states: list[GameState] = []
    for i, (mode, players) in enumerate((m, n) for m in Mode for n in (2, 3, 4)):
        game = _game(mode, players, 100 + i)
        states += [*game[:: max(1, len(game) // 12)], game[-1], game[-2]]
    return states


def _exercise_state(s: GameState, rng: random.Random) -> None:
    """An accepted state behaves: it round-trips, its legal moves apply, it scores, and it
    plays on to the end (across round boundaries, drawn from its seed)."""
    again = GameState.from_json(json.loads(json.dumps(s.to_json())))
    assert again == s and again.to_json() == s.to_json()
    outcome(s)
    steps = 0
    while not s.is_over:
        moves = legal_moves(s)
        assert moves, "no legal move in a state that is not over (R7)"
        s = apply(s, moves[0] if steps == 0 else rng.choice(moves))
        steps += 1
    outcome(s)


# --- (a) states ------------------------------------------------------------------------------


def test_fuzz_states(corpus: list[GameState]) -> None:
    rng = random.Random(7)
    accepted = 0
    for case in range(4000):
        base = rng.choice(corpus).to_json()
        doc, done = mutate(base, rng, rounds=rng.choice((1, 1, 1, 2, 3)))
        what = f"state case {case}: {done}"
        try:
            s = GameState.from_json(doc)
        except Exception as e:  # the point: only the domain error may escape
            assert_domain_error(e, what)
            continue
        accepted += 1
        try:
            _exercise_state(s, random.Random(case))
        except Exception as e:
            raise AssertionError(f"{what}: accepted, then {type(e).__name__}: {e}") from e
    assert accepted > 150  # the mutations also produce states that are still possible


# --- (b) records -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    out = []
    for i, (mode, players) in enumerate(((Mode.CLASSIC, 2), (Mode.EXPERT, 3), (Mode.CLASSIC, 4))):
        game = _game(mode, players, 300 + i)
        rng = random.Random(300 + i)
        moves: list[str] = []
        s = game[0]
        while not s.is_over:
            m = rng.choice(legal_moves(s))
            moves.append(str(m))
            s = apply(s, m)
        seats = ("greedy", *(f"human:P{k}" for k in range(1, players)))
        out.append(GameRecord.of_game(s.config, moves, s, seats).to_json())
        out.append(GameRecord(s.config, tuple(moves[:7])).to_json())
    return out


def test_fuzz_records(records: list[dict[str, Any]]) -> None:
    rng = random.Random(11)
    replayed = 0
    for case in range(1500):
        doc, done = mutate(rng.choice(records), rng, rounds=rng.choice((1, 1, 2)))
        what = f"record case {case}: {done}"
        try:
            rec = GameRecord.from_json(doc)
            state = replay(rec)
        except Exception as e:
            assert_domain_error(e, what)
            continue
        replayed += 1
        assert GameRecord.from_json(json.loads(json.dumps(rec.to_json()))) == rec, what
        assert GameState.from_json(state.to_json()) == state, what
    assert replayed > 60


# --- (c) cities ------------------------------------------------------------------------------


def test_fuzz_cities() -> None:
    rng = random.Random(13)
    cities = [random_city(rng, mode).to_json() for mode in Mode for _ in range(20)]
    scored = 0
    for case in range(4000):
        doc, done = mutate(rng.choice(cities), rng, rounds=rng.choice((1, 1, 2, 3)))
        what = f"city case {case}: {done}"
        try:
            city = City.from_json(doc)
        except Exception as e:
            assert_domain_error(e, what)
            continue
        try:
            assert City.from_json(json.loads(json.dumps(city.to_json()))) == city
            for apa in (False, True):
                score_city(city, all_parks_absorb=apa)
        except Exception as e:
            raise AssertionError(f"{what}: accepted, then {type(e).__name__}: {e}") from e
        scored += 1
    assert scored > 250


# --- (d) moves -------------------------------------------------------------------------------

_NOTATION = st.text(alphabet="0123456789#tblrcTBLRC discard\t\n-+.３١", max_size=12)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        _NOTATION,
        st.text(max_size=30),
        st.text(min_size=1, max_size=20).map(lambda t: t * 20),  # quoted briefly in the message
        st.binary(max_size=5),
        st.integers(),
        st.none(),
    )
)
def test_fuzz_notation(text: Any) -> None:
    try:
        m = Move.parse(text)
    except Exception as e:
        assert isinstance(e, NotationError), f"{text!r}: {type(e).__name__}: {e}"
        assert_domain_error(e, repr(text))
        return
    assert Move.parse(str(m)) == m


_ANY = st.one_of(
    st.integers(-30, 30),
    st.integers(),
    st.booleans(),
    st.floats(),
    st.none(),
    st.text(max_size=4),
    st.lists(st.integers(), max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(_ANY, _ANY)
def test_fuzz_hand_built_moves(a: Any, b: Any) -> None:
    for kind in (Take, Build):
        try:
            m = kind(a, b)
        except Exception as e:
            assert isinstance(e, NotationError), f"{kind.__name__}({a!r}, {b!r}): {type(e).__name__}"
            assert_domain_error(e, f"{kind.__name__}(...)")
            continue
        assert Move.parse(str(m)) == m


def _random_move(rng: random.Random, s: GameState) -> Any:
    r = rng.random()
    if r < 0.3:
        moves = legal_moves(s)
        if moves:
            return rng.choice(moves)
    if r < 0.55:
        return Take(rng.randint(1, 5), rng.randrange(20))
    if r < 0.8:
        return Build(rng.randint(1, 4), rng.randint(1, 5))
    if r < 0.85:
        return DISCARD
    return rng.choice(["3L4", "r2c3", "discard", "6L1", "r9c9", "", "3l4 ", 5, None, 2.5, Take, object()])


def test_fuzz_apply(corpus: list[GameState]) -> None:
    rng = random.Random(17)
    for case in range(3000):
        s = rng.choice(corpus)
        before = s.to_json()
        snapshot = s.copy()
        m = _random_move(rng, s)
        what = f"apply case {case}: {m!r} in round {s.round}, phase {s.phase}"
        try:
            after = apply(s, m)
        except Exception as e:
            assert isinstance(e, IllegalMoveError | NotationError), f"{what}: {type(e).__name__}: {e}"
            assert_domain_error(e, what)
            assert explain_illegal(s, m) is not None if not isinstance(m, str) else True, what
        else:
            assert isinstance(m, str) or m in legal_moves(s), what
            assert after is not s
        assert s == snapshot and s.to_json() == before, f"{what}: the input state changed"


@pytest.mark.parametrize("mode", list(Mode))
def test_legality_agrees_for_every_constructible_move(mode: Mode, corpus: list[GameState]) -> None:
    every: list[Move] = [Take(a, sl) for a in range(1, 6) for sl in range(20)]
    every += [Build(r, c) for r in range(1, 5) for c in range(1, 6)] + [DISCARD]
    for s in corpus:
        if s.config.mode is not mode:
            continue
        legal = set(legal_moves(s))
        for m in every:
            assert (explain_illegal(s, m) is None) == (m in legal), (m, s.round, s.phase)
