"""The compiled engine (``quadropolis._native``, docs/native.md) in the Python engine's terms:
states, cities, scores, playouts and greedy values converted both ways, bit-identical to the
Python engine (tests/native/test_differential.py).

Importing this module raises :class:`ImportError` when the extension is not built. It picks
no engine: callers choose. Standard library, core modules and ``quadropolis._native`` only."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final, Protocol

from . import _native
from .buildings import BuildingType
from .city import GEOMETRY, Building, City
from .config import GameConfig
from .errors import IllegalMoveError
from .moves import MOVES, Move, move_number
from .rules import illegal_reason
from .scoring import CATEGORIES, CityScore, Placement
from .state import GameState
from .tiles import Mode

if TYPE_CHECKING:  # the stub's alias: the score tuple of quadropolis._native
    from ._native import ScoreTuple

#: The field tuple layout this module writes and reads (docs/native.md, "Data layout").
ABI: Final = 1
if _native.ABI != ABI:
    raise ImportError(f"quadropolis._native has ABI {_native.ABI}, this module expects {ABI}: rebuild it")
# The types the binding reads (Building) and builds (Move, CityScore, Placement) in place of
# tuples that Python would convert: that conversion cost more than the engine's work.
_native.use_types(MOVES, Building, CityScore, Placement, CATEGORIES)

_MODE_INDEX: Final = {Mode.CLASSIC: 0, Mode.EXPERT: 1}
_MODES: Final = (Mode.CLASSIC, Mode.EXPERT)
_MAX_PLAYERS: Final = 4
_MAX_SQUARES: Final = 20
_EMPTY: Final = (-1, 0, 0, 0)
_TYPES: Final = tuple(BuildingType)


def _cells(buildings: tuple[Building | None, ...] | list[Building | None]) -> list[int]:
    """(type, floors, vp, tree) per square, flat (a BuildingType is an int)."""
    out: list[int] = []
    for b in buildings:
        out += _EMPTY if b is None else (b.type, b.floors, b.vp, 1 if b.tree else 0)
    return out


def to_native(state: GameState) -> _native.State:
    """The native state of ``state`` (raises ``ValueError`` if the native validation rejects it)."""
    c = state.config
    n = c.players
    classic = c.mode is Mode.CLASSIC
    architects = [*state.architects, 0, 0, 0, 0, 0, 0][:6] if classic else list(state.architects)
    cities: list[int] = []
    for p in range(_MAX_PLAYERS):
        squares = state.cities[p] if p < n else []
        cities += _cells(squares) + list(_EMPTY) * (_MAX_SQUARES - len(squares))
    pad = [0] * (_MAX_PLAYERS - n)
    fields = (
        _MODE_INDEX[c.mode],
        n,
        c.seed,
        c.first_player,
        int(c.urbanist_blocks == "square"),
        int(c.all_parks_absorb),
        state.round,
        state.turn,
        state.position,
        state.starter,
        state.mayor,
        state.phase,
        state.pending_tile,
        state.pending_architect,
        *state.site,
        state.face_down,
        state.slots_used,
        state.urbanist,
        *architects,
        *cities,
        *state.inhabitants,
        *pad,
        *state.energy,
        *pad,
    )
    return _native.State(fields)


#: Buildings by their cells, shared (buildings are immutable values; GameState.copy shares them).
_BUILDINGS: dict[tuple[int, ...], Building | None] = {_EMPTY: None}


def _building(cell: tuple[int, ...]) -> Building | None:
    try:
        return _BUILDINGS[cell]
    except KeyError:  # at most a few hundred valid cells exist: the cache stays small
        b = _BUILDINGS[cell] = Building(_TYPES[cell[0]], cell[1], cell[2], bool(cell[3]))
        return b


def config_of(ns: _native.State) -> GameConfig:
    """The configuration carried by the native state ``ns``."""
    f = ns.fields()
    return GameConfig(
        mode=_MODES[f[0]],
        players=f[1],
        seed=f[2],
        first_player=f[3],
        urbanist_blocks="square" if f[4] else "lines",
        all_parks_absorb=bool(f[5]),
    )


def from_native(ns: _native.State, config: GameConfig | None = None) -> GameState:
    """The Python state of ``ns``. ``config``, when given, must be the one ``ns`` was made
    from (the field tuple carries it too; a mismatch raises ``ValueError``); passing the
    game's own object keeps ``state.config is config``."""
    f = ns.fields()
    if config is None:
        config = config_of(ns)
    expected = (
        _MODE_INDEX[config.mode],
        config.players,
        config.seed,
        config.first_player,
        int(config.urbanist_blocks == "square"),
        int(config.all_parks_absorb),
    )
    if f[:6] != expected:
        raise ValueError(f"native state config {f[:6]} does not match {expected}")
    n = config.players
    size = GEOMETRY[config.mode].size
    s = GameState.__new__(GameState)
    s.config = config
    s.round, s.turn, s.position, s.starter, s.mayor, s.phase = f[6:12]
    s.pending_tile, s.pending_architect = f[12], f[13]
    s.site = list(f[14:39])
    s.face_down, s.slots_used, s.urbanist = f[39], f[40], f[41]
    s.architects = list(f[42 : 42 + n]) if config.mode is Mode.CLASSIC else list(f[42:48])
    words = iter(f[48:368])
    cells = list(zip(words, words, words, words, strict=True))  # (type, floors, vp, tree) per square
    s.cities = [[_building(c) for c in cells[p * _MAX_SQUARES : p * _MAX_SQUARES + size]] for p in range(n)]
    s.inhabitants = list(f[368 : 368 + n])
    s.energy = list(f[372 : 372 + n])
    return s


# The frozen dataclasses' __init__ sets each field through object.__setattr__; a game's final
# scoring builds four of each, which cost a third of a native playout's crossing (measured:
# 3.6 µs a city through __init__, 2.3 µs this way). Their slot descriptors set the same fields
# directly; equality and everything else are the dataclasses' own.
_ACTIVATED, _CUSTOMERS, _ABSORBING, _REMOVED, _UNUSED_I, _UNUSED_E = (
    Placement.__dict__[f].__set__
    for f in ("activated", "customers", "absorbing_parks", "removed", "unused_inhabitants", "unused_energy")
)
_TOTAL, _BREAKDOWN, _PLACED, _EMPTY_SQUARES, _PLACEMENT = (
    CityScore.__dict__[f].__set__
    for f in ("total", "breakdown", "inhabitants_placed", "empty_squares", "placement")
)
_new = object.__new__


def _city_score(t: ScoreTuple) -> CityScore:
    """The CityScore (and Placement) of a native score tuple."""
    total, breakdown, placed, empty, activated, customers, parks, removed, unused_i, unused_e = t
    placement = _new(Placement)
    _ACTIVATED(placement, activated)
    _CUSTOMERS(placement, customers)
    _ABSORBING(placement, parks)
    _REMOVED(placement, removed)
    _UNUSED_I(placement, unused_i)
    _UNUSED_E(placement, unused_e)
    score = _new(CityScore)
    _TOTAL(score, total)
    # The binding always gives the 10 categories: zip needs no strictness check here.
    _BREAKDOWN(score, dict(zip(CATEGORIES, breakdown)))  # noqa: B905
    _PLACED(score, placed)
    _EMPTY_SQUARES(score, empty)
    _PLACEMENT(score, placement)
    return score


def score_city_native(city: City, *, all_parks_absorb: bool = False) -> CityScore:
    """:func:`quadropolis.scoring.score_city`, computed natively."""
    return _native.score_buildings(
        _MODE_INDEX[city.mode], city.buildings, city.inhabitants, city.energy, all_parks_absorb
    )


def projected_score_native(state: GameState, player: int) -> CityScore:
    """:func:`quadropolis.outcome.projected_score`, computed natively: the binding reads the
    city's :class:`Building` objects and checks them (so no :class:`City` is built);
    ``ValueError`` for a square it refuses."""
    return score_buildings_native(state, player, state.inhabitants[player], state.energy[player])


def score_buildings_native(state: GameState, player: int, inhabitants: int, energy: int) -> CityScore:
    """The optimal score of ``player``'s buildings in ``state`` given these resources
    (:func:`projected_score_native` with other resources: the fed score gives plenty);
    ``ValueError`` for a square or a resource count it refuses."""
    config = state.config
    return _native.score_buildings(
        _MODE_INDEX[config.mode], state.cities[player], inhabitants, energy, config.all_parks_absorb
    )


def score_native(ns: _native.State, player: int, *, all_parks_absorb: bool = False) -> CityScore:
    """The optimal score of ``player``'s city in the native state ``ns``."""
    return _city_score(ns.score(player, all_parks_absorb))


def new_native(config: GameConfig) -> _native.State:
    """The native twin of :func:`quadropolis.state.new_state`."""
    return _native.new_state(
        _MODE_INDEX[config.mode],
        config.players,
        config.seed,
        config.first_player,
        config.urbanist_blocks == "square",
        config.all_parks_absorb,
    )


def random_playout_native(
    config: GameConfig, rng: random.Random, moves: list[Move] | None = None
) -> GameState:
    """:func:`quadropolis.playout.random_playout`, played natively: the same game, the same
    final state, and ``rng`` left exactly where the Python playout leaves it."""
    ns = new_native(config)
    version, mt, gauss = rng.getstate()
    played, after = ns.random_playout(mt)
    rng.setstate((version, after, gauss))
    if moves is not None:
        moves.extend(MOVES[k] for k in played)
    return from_native(ns, config)


def random_game_native(config: GameConfig, seed: int | str) -> tuple[list[Move], tuple[CityScore, ...]]:
    """A whole uniformly random game from ``random.Random(seed)`` played natively: the moves
    and every city's optimal final score, as :func:`quadropolis.playout.random_game` gives
    them. The generator never crosses; ``seed``: an int in the signed 64-bit range or a str
    of at most 256 UTF-8 bytes (else ``ValueError``)."""
    return new_native(config).random_game(seed)


def greedy_values_native(state: GameState) -> list[tuple[tuple[int, ...], Move]]:
    """:meth:`quadropolis.bots.simple.GreedyBot.values`, computed natively."""
    return [(value, MOVES[k]) for value, k in to_native(state).greedy_values()]


#: One root move's statistics from the native search: (move, visits, summed win share, summed
#: value in VP, summed margin in VP: the value less the best other player's) for the player
#: to move at the root.
RootMove = tuple[Move, int, float, float, float]


class SearchTuning(Protocol):
    """What :func:`search_native` reads of its options, by name: the fields of
    :class:`quadropolis.bots.SearchOptions` (the one value the bots tune a search with; this
    core module cannot import the bots), with the same meanings."""

    @property
    def c(self) -> float: ...
    @property
    def pw_c(self) -> float: ...
    @property
    def pw_alpha(self) -> float: ...
    @property
    def horizon(self) -> int | None: ...
    @property
    def credit(self) -> float: ...
    @property
    def bias(self) -> float: ...
    @property
    def fed(self) -> float: ...
    @property
    def greed(self) -> float: ...


def search_native(
    state: GameState | _native.State,
    seed: int,
    iterations: int | None,
    seconds: float | None,
    options: SearchTuning,
) -> list[RootMove]:
    """One tree of :func:`quadropolis.bots.mcts.search`, searched natively (the GIL released,
    so threads can search trees in parallel): the root's children in expansion order with
    their statistics. ``seed``: 0 to 2**63 - 1; ``seconds``: the time budget from now;
    ``options.bias`` > 0 computes greedy's prior at the root natively. ``ValueError`` for an
    option out of range or a finished game (and for a ``GameState`` the native validation
    refuses)."""
    ns = to_native(state) if isinstance(state, GameState) else state
    o = options
    moves, _ = ns.search(
        seed, iterations, seconds, o.c, o.pw_c, o.pw_alpha, o.horizon, o.credit, o.bias, o.fed, o.greed
    )
    return [(MOVES[m], visits, wins, value, margin) for m, visits, wins, value, margin in moves]


def apply_native(ns: _native.State, move: Move) -> None:
    """Play ``move`` on ``ns`` in place; an illegal move raises the Python engine's
    :class:`IllegalMoveError` with the Python engine's explanation."""
    try:
        ns.apply(move_number(move))
    except ValueError:
        refusal = illegal_reason(from_native(ns), move)
        raise (refusal.error() if refusal else IllegalMoveError("not a legal move in this state")) from None


#: The RL encoding's native side (envs/native_obs.py hands it the layout of envs/layout.py):
#: ``Encoding(parts, static_blocks, round_blocks, kind_of_tile, scale)``; ``encode(encoding,
#: ns, observer, normalize, out)`` and ``action_mask(ns, out)`` write the observation and the
#: mask of a native state into NumPy arrays; ``VectorGames``, the batched env's games
#: (envs/vector.py). See the stub for their contracts.
Encoding = _native.Encoding
State = _native.State  # State(fields): fields() back to a state (validated), for pickling
VectorGames = _native.VectorGames
MAX_LEGAL: int = _native.MAX_LEGAL
encode_into = _native.encode
action_mask_into = _native.action_mask


__all__ = [
    "ABI",
    "MAX_LEGAL",
    "Encoding",
    "SearchTuning",
    "State",
    "VectorGames",
    "action_mask_into",
    "apply_native",
    "config_of",
    "encode_into",
    "from_native",
    "greedy_values_native",
    "new_native",
    "random_playout_native",
    "score_city_native",
    "score_native",
    "search_native",
    "to_native",
]
