"""The game state: a plain value holding everything needed to continue the game, including
the seed from which every round's layout is drawn. Copy it with :meth:`GameState.copy`
(cheap); serialise it with :meth:`GameState.to_json` / :meth:`GameState.from_json`
(validated: an impossible state is rejected with :class:`InvalidStateError`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .buildings import BuildingType
from .city import GEOMETRY, Building, City, Geometry
from .config import GameConfig
from .errors import InvalidStateError, QuadropolisError, quote, quote_keys
from .phases import OVER, PHASE_NAMES, PLACE, TAKE
from .site import DESIGNATED, SLOT_INDEX, SLOT_NAMES, SQUARES, square_name
from .tiles import ROUNDS, TILES, Mode, Tile, round_tiles

TURNS_PER_ROUND: Final = 4


#: The building each tile becomes when built as a first floor.
TILE_BUILDING: Final[tuple[Building, ...]] = tuple(
    Building(t.kind.type, 1, t.kind.vp, t.kind.tree) for t in TILES
)


def lay_out(config: GameConfig, rnd: int) -> tuple[list[int], int]:
    """The construction site at the start of round ``rnd``: tile ids per site square and the
    bitmask of face-down squares (R4). Drawn from the seed alone (a Fisher-Yates shuffle of
    the round's tiles in manifest order driven by ``random.Random("quadropolis/SEED/ROUND")``),
    so the same seed always gives the same layouts on every platform. A new list each call."""
    seed = config.seed
    last = _LAST_LAYOUT[rnd]
    if last is not None and last[0] == seed and last[1] is config.mode and last[2] == config.players:
        return list(last[3]), last[4]
    tiles, face_down = _draw_layout(config.mode, config.players, seed, rnd)
    # The last layout of each round is remembered, for games that share a seed: OpenSpiel's
    # states all use one hidden seed (their layouts are dealt by chance and the engine's is
    # cleared at once) and ISMCTS replays whole histories from it. Seeding random.Random
    # with a string (SHA-512) is most of a layout's cost. One entry per round, no more: a
    # growing memo slows playouts, whose seeds are all new, by a few percent (measured).
    _LAST_LAYOUT[rnd] = (seed, config.mode, config.players, tuple(tiles), face_down)
    return tiles, face_down


def _draw_layout(mode: Mode, players: int, seed: int, rnd: int) -> tuple[list[int], int]:
    tiles = list(ROUND_TILE_IDS[mode][rnd])
    rand = random.Random(f"quadropolis/{seed}/{rnd}").random
    # Own shuffle rather than random.shuffle: one float per swap is several times faster and
    # its output is fixed by this code alone.
    for i in range(len(tiles) - 1, 0, -1):
        j = int(rand() * (i + 1))
        tiles[i], tiles[j] = tiles[j], tiles[i]
    face_down = 0
    for q, tid in enumerate(tiles):
        if _MIN_PLAYERS[tid] > players:
            face_down |= 1 << q
    return tiles, face_down


#: _LAST_LAYOUT[round]: (seed, mode, players, tiles, face-down bits) of the last layout drawn.
_LAST_LAYOUT: list[tuple[int, Mode, int, tuple[int, ...], int] | None] = [None] * (max(ROUNDS.values()) + 1)


#: ROUND_TILE_IDS[mode][round]: the round's 25 tile ids in manifest order.
ROUND_TILE_IDS: Final = {
    mode: {r: tuple(t.id for t in round_tiles(mode, r)) for r in range(1, ROUNDS[mode] + 1)} for mode in Mode
}
_MIN_PLAYERS: Final = tuple(t.min_players for t in TILES)


class GameState:
    """Everything about a game in progress.

    Attributes (treat as read-only unless you are the engine; use :meth:`copy` before
    mutating through :func:`quadropolis.rules.apply_unchecked`):

    - ``config``; ``round`` (1-based), ``turn`` (1-4 within the round), ``position`` (how many
      players have acted in this turn); ``starter`` (seat that began this round), ``mayor``
      (seat holding the mayor now, R10);
    - ``phase``: :data:`TAKE`, :data:`PLACE` or :data:`OVER`; ``pending_tile`` /
      ``pending_architect``: the building taken and the architect that took it, in PLACE;
    - ``site``: tile id per construction-site square (-1 = empty); ``face_down``: bitmask of
      squares whose tile is face down (R4); ``slots_used``: bitmask of slots holding an
      architect (R1); ``urbanist``: its site square, -1 when off the board;
    - ``architects``: Classic: per player a bitmask of architects #1-#4 already used this
      round; Expert: the shared pool, ``architects[n]`` architects #n left (index 0 unused);
    - ``cities``: per player the building on each city square; ``inhabitants``, ``energy``:
      per player supplies gained so far.
    """

    __slots__ = (
        "architects",
        "cities",
        "config",
        "energy",
        "face_down",
        "inhabitants",
        "mayor",
        "pending_architect",
        "pending_tile",
        "phase",
        "position",
        "round",
        "site",
        "slots_used",
        "starter",
        "turn",
        "urbanist",
    )

    config: GameConfig
    round: int
    turn: int
    position: int
    starter: int
    mayor: int
    phase: int
    pending_tile: int
    pending_architect: int
    site: list[int]
    face_down: int
    slots_used: int
    urbanist: int
    architects: list[int]
    cities: list[list[Building | None]]
    inhabitants: list[int]
    energy: list[int]

    @property
    def geometry(self) -> Geometry:
        return GEOMETRY[self.config.mode]

    @property
    def current_player(self) -> int:
        """The seat whose action it is (meaningless once the game is over)."""
        return (self.starter + self.position) % self.config.players

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def rounds(self) -> int:
        return ROUNDS[self.config.mode]

    def copy(self) -> GameState:
        """An independent copy (buildings are immutable and shared)."""
        s = GameState.__new__(GameState)
        s.config = self.config
        s.round = self.round
        s.turn = self.turn
        s.position = self.position
        s.starter = self.starter
        s.mayor = self.mayor
        s.phase = self.phase
        s.pending_tile = self.pending_tile
        s.pending_architect = self.pending_architect
        s.site = self.site[:]
        s.face_down = self.face_down
        s.slots_used = self.slots_used
        s.urbanist = self.urbanist
        s.architects = self.architects[:]
        s.cities = [c[:] for c in self.cities]
        s.inhabitants = self.inhabitants[:]
        s.energy = self.energy[:]
        return s

    def city(self, player: int) -> City:
        """Player ``player``'s city as a scorable value."""
        return City(
            self.config.mode,
            tuple(self.cities[player]),
            self.inhabitants[player],
            self.energy[player],
        )

    def architects_available(self, player: int) -> list[int]:
        """Architect numbers the player may put in a slot now."""
        if self.config.mode is Mode.CLASSIC:
            used = self.architects[player]
            return [n for n in (1, 2, 3, 4) if not used >> n & 1]
        return [n for n in (1, 2, 3, 4, 5) if self.architects[n] > 0]

    def pending(self) -> Tile | None:
        return TILES[self.pending_tile] if self.pending_tile >= 0 else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in GameState.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        from .render import render_state  # rendering is presentation, kept out of the core

        return render_state(self)

    # --- serialisation -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        geo = self.geometry
        classic = self.config.mode is Mode.CLASSIC
        return {
            "format": "quadropolis-state/1",
            "config": self.config.to_json(),
            "round": self.round,
            "turn": self.turn,
            "position": self.position,
            "starter": self.starter,
            "mayor": self.mayor,
            "phase": PHASE_NAMES[self.phase],
            "pending": None
            if self.pending_tile < 0
            else {"tile": self.pending_tile, "architect": self.pending_architect},
            "site": [None if t < 0 else t for t in self.site],
            "face_down": [square_name(q) for q in range(SQUARES) if self.face_down >> q & 1],
            "slots_used": [SLOT_NAMES[i] for i in range(20) if self.slots_used >> i & 1],
            "urbanist": None if self.urbanist < 0 else square_name(self.urbanist),
            "architects": [[n for n in (1, 2, 3, 4) if used >> n & 1] for used in self.architects]
            if classic
            else {str(n): self.architects[n] for n in range(1, 6)},
            "players": [
                {
                    "city": [[b.to_json() if b else None for b in row] for row in _rows(c, geo)],
                    "inhabitants": self.inhabitants[p],
                    "energy": self.energy[p],
                }
                for p, c in enumerate(self.cities)
            ],
        }

    @classmethod
    def from_json(cls, data: Any) -> GameState:
        """Rebuild and validate a state; raises :class:`InvalidStateError` on anything that
        is malformed or cannot occur in a game."""
        try:
            return _from_json(data)
        except InvalidStateError:
            raise
        except QuadropolisError as e:
            raise InvalidStateError(f"state: {e}") from None
        except (
            KeyError,
            TypeError,
            ValueError,
            IndexError,
            AttributeError,
            ArithmeticError,
            RecursionError,
        ) as e:
            # A last line of defence: validation names every problem it knows of (the fuzz
            # tests check none of their inputs ends up here).
            raise InvalidStateError(f"state: malformed ({type(e).__name__})") from None


def _rows(city: Sequence[Building | None], geo: Geometry) -> list[list[Building | None]]:
    return [list(city[i : i + geo.cols]) for i in range(0, geo.size, geo.cols)]


def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise InvalidStateError(f"state: {msg}")


def _int(data: Any, key: str, lo: int, hi: int) -> int:
    v = data.get(key)
    _need(isinstance(v, int) and not isinstance(v, bool), f"{key!r} must be an integer, got {quote(v)}")
    assert isinstance(v, int)
    _need(lo <= v <= hi, f"{key!r} must be between {lo} and {hi}, got {quote(v)}")
    return v


def _square(name: Any, what: str) -> int:
    _need(isinstance(name, str), f"{what} must be a square name like 'r2c3', got {quote(name)}")
    ok = len(name) == 4 and name[0] == "r" and name[2] == "c" and name[1] in "12345" and name[3] in "12345"
    _need(ok, f"{what}: {quote(name)} is not a construction-site square (r1c1-r5c5)")
    return (int(name[1]) - 1) * 5 + int(name[3]) - 1


#: The fields of a ``quadropolis-state/1`` object.
_FIELDS: Final = frozenset(
    {
        "format",
        "config",
        "round",
        "turn",
        "position",
        "starter",
        "mayor",
        "phase",
        "pending",
        "site",
        "face_down",
        "slots_used",
        "urbanist",
        "architects",
        "players",
    }
)


def _from_json(data: Any) -> GameState:
    """Reads one field group per function, in the order of their checks (the first failing
    check names the problem, so the order is part of the messages), then checks across the
    groups: the tiles held (:func:`_check_tiles`) and the mayor (:func:`_check_mayor`)."""
    s = GameState.__new__(GameState)
    s.config = _read_header(data)
    actions_done = _read_progress(s, data)
    ids, round_ids = _read_site(s, data)
    used_slots = _read_slots(s, data, actions_done, ids)
    reach = _check_emptied(s, used_slots, ids)
    _read_urbanist(s, data, actions_done, reach)
    if s.round == ROUNDS[s.config.mode]:
        _need(s.mayor == s.starter, "the last round has no mayor tile: the mayor cannot have moved (R10)")
    _read_architects(s, data, actions_done)
    _read_pending(s, data, round_ids, ids, used_slots)
    _read_players(s, data, actions_done)
    _check_tiles(s)
    _check_mayor(s)
    return s


def _read_header(data: Any) -> GameConfig:
    """The object's format, its fields and its configuration."""
    _need(isinstance(data, Mapping), "expected a JSON object")
    _need(data.get("format") == "quadropolis-state/1", "'format' must be \"quadropolis-state/1\"")
    unknown = set(data) - _FIELDS
    _need(not unknown, f"unknown field(s) {quote_keys(unknown)}")
    return GameConfig.from_json(data.get("config"))


def _read_progress(s: GameState, data: Any) -> int:
    """Phase, round, turn, position, starter and mayor; returns how many actions (takes) of
    the round are done."""
    config = s.config
    n = config.players
    rounds = ROUNDS[config.mode]
    _need(data.get("phase") in PHASE_NAMES, "'phase' must be one of take, place, over")
    s.phase = PHASE_NAMES.index(data["phase"])
    s.round = _int(data, "round", 1, rounds)
    s.turn = _int(data, "turn", 1, TURNS_PER_ROUND)
    s.position = _int(data, "position", 0, n - 1)
    s.starter = _int(data, "starter", 0, n - 1)
    s.mayor = _int(data, "mayor", 0, n - 1)
    if s.round == 1:
        _need(s.starter == config.first_player, "round 1 is started by the config's first_player")
    if s.phase == OVER:
        _need(
            (s.round, s.turn, s.position) == (rounds, TURNS_PER_ROUND, n - 1),
            "a finished game must stand at the last action of the last round",
        )
    return (s.turn - 1) * n + s.position + (1 if s.phase != TAKE else 0)


def _read_site(s: GameState, data: Any) -> tuple[list[int], set[int]]:
    """The construction site and its face-down tiles (R4); returns the ids on the site and
    the ids of the round's tiles."""
    config = s.config
    n = config.players
    site = data.get("site")
    _need(isinstance(site, list) and len(site) == SQUARES, "'site' must list 25 squares")
    s.site = []
    round_ids = {t.id for t in round_tiles(config.mode, s.round)}
    for q, t in enumerate(site):
        if t is None:
            s.site.append(-1)
            continue
        _need(
            isinstance(t, int) and not isinstance(t, bool),
            f"site {square_name(q)}: tile id must be an integer, got {quote(t)}",
        )
        _need(
            t in round_ids,
            f"site {square_name(q)}: tile {quote(t)} is not a {config.mode.value} round-{s.round} tile",
        )
        s.site.append(t)
    ids = [t for t in s.site if t >= 0]
    _need(len(ids) == len(set(ids)), "'site' holds the same tile twice")
    fd = data.get("face_down")
    _need(isinstance(fd, list), "'face_down' must be a list of squares")
    s.face_down = 0
    for name in fd:
        q = _square(name, "face_down")
        _need(s.site[q] >= 0, f"face_down: {name} holds no tile")
        s.face_down |= 1 << q
    for q, t in enumerate(s.site):
        if t >= 0:
            hidden = TILES[t].min_players > n
            _need(
                hidden == bool(s.face_down >> q & 1),
                f"site {square_name(q)}: tile {t} must be face "
                f"{'down' if hidden else 'up'} with {n} players (R4)",
            )
    return ids, round_ids


def _read_slots(s: GameState, data: Any, actions_done: int, ids: list[int]) -> list[int]:
    """The slots holding an architect (one per action done; no more tiles gone from the site
    than designated); returns their indexes in the listed order."""
    slots = data.get("slots_used")
    _need(isinstance(slots, list), "'slots_used' must be a list of slot names")
    s.slots_used = 0
    for name in slots:
        _need(isinstance(name, str) and name in SLOT_INDEX, f"slots_used: unknown slot {quote(name)}")
        s.slots_used |= 1 << SLOT_INDEX[name]
    _need(len(slots) == len(set(slots)), "'slots_used' lists a slot twice")
    _need(
        len(slots) == actions_done,
        f"{actions_done} architect(s) should be in slots at this point of the round, "
        f"'slots_used' lists {len(slots)}",
    )
    taken = 25 - len(ids)
    _need(taken <= actions_done, f"{taken} tiles left the site but only {actions_done} were designated")
    return [SLOT_INDEX[name] for name in slots]


def _check_emptied(s: GameState, used_slots: list[int], ids: list[int]) -> set[int]:
    """Only squares an architect in a used slot can have designated (R1) can have been
    emptied this round, and never of a face-down tile (R4); returns those squares (the only
    ones the urbanist can stand on)."""
    n = s.config.players
    architects = GEOMETRY[s.config.mode].architects
    reach = {DESIGNATED[sl][a] for sl in used_slots for a in range(1, architects + 1)}
    for q, tid in enumerate(s.site):
        _need(
            tid >= 0 or q in reach,
            f"site {square_name(q)} is empty but no architect in a used slot can have designated it",
        )
    for t in round_tiles(s.config.mode, s.round):
        _need(
            t.min_players <= n or t.id in ids,
            f"tile {t.id} is face down with {n} players (R4) and cannot have left the site",
        )
    return reach


def _read_urbanist(s: GameState, data: Any, actions_done: int, reach: set[int]) -> None:
    """The urbanist: off the board before the round's first action (the mayor then still
    with the starter, R10), else on a square some used slot designates."""
    urb = data.get("urbanist")
    if actions_done == 0:
        _need(urb is None, "the urbanist is off the board before the round's first action")
        s.urbanist = -1
        _need(s.mayor == s.starter, "the holder of the mayor starts the round (R10)")
    else:
        s.urbanist = _square(urb, "urbanist")
        _need(s.urbanist in reach, "the urbanist stands on a square no used slot designates")


def _read_architects(s: GameState, data: Any, actions_done: int) -> None:
    """Classic: each player's architects used this round, one per action; Expert: the
    shared pool, short of one architect per action done."""
    n = s.config.players
    arch = data.get("architects")
    if s.config.mode is Mode.CLASSIC:
        _need(
            isinstance(arch, list) and len(arch) == n, "'architects' must list each player's used architects"
        )
        s.architects = []
        for p, used in enumerate(arch):
            _need(
                isinstance(used, list)
                and all(isinstance(a, int) and not isinstance(a, bool) and 1 <= a <= 4 for a in used)
                and len(set(used)) == len(used),
                f"architects of player {p}: a list of distinct numbers 1-4",
            )
            s.architects.append(sum(1 << a for a in used))
        for p in range(n):
            acted = sum(1 for k in range(actions_done) if (s.starter + k) % n == p)
            _need(
                len(arch[p]) == acted,
                f"player {p} has acted {acted} time(s) this round but used {len(arch[p])} architect(s)",
            )
    else:
        _need(
            isinstance(arch, Mapping) and set(arch) == {"1", "2", "3", "4", "5"},
            "'architects' must give the pool count of each number 1-5",
        )
        s.architects = [0] + [arch[str(k)] for k in range(1, 6)]
        for k in range(1, 6):
            v = s.architects[k]
            _need(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= n,
                f"pool count of #{k} must be 0-{n}",
            )
        _need(
            sum(s.architects) == 5 * n - actions_done,
            f"the pool must hold {5 * n - actions_done} architects at this point",
        )


def _read_pending(
    s: GameState, data: Any, round_ids: set[int], ids: list[int], used_slots: list[int]
) -> None:
    """The building in hand (place phase only): a face-up tile of the round taken from the
    urbanist's square by an architect its player has used."""
    n = s.config.players
    architects = GEOMETRY[s.config.mode].architects
    pend = data.get("pending")
    if s.phase != PLACE:
        _need(pend is None, "'pending' must be null outside the place phase")
        s.pending_tile, s.pending_architect = -1, 0
        return
    _need(isinstance(pend, Mapping), "'pending' must name the taken tile in the place phase")
    _need(set(pend) == {"tile", "architect"}, "'pending' holds exactly 'tile' and 'architect'")
    tid = pend.get("tile")
    _need(
        isinstance(tid, int) and not isinstance(tid, bool) and tid in round_ids and tid not in ids,
        "'pending.tile' must be a tile of this round no longer on the site",
    )
    _need(TILES[tid].min_players <= n, f"'pending.tile' {tid} is face down with {n} players (R4)")
    a = pend.get("architect")
    _need(
        isinstance(a, int) and not isinstance(a, bool) and 1 <= a <= architects,
        f"'pending.architect' must be 1-{architects}",
    )
    player = (s.starter + s.position) % n
    if s.config.mode is Mode.CLASSIC:
        _need(s.architects[player] >> a & 1 == 1, f"player {player} has not used architect #{a}")
    else:
        _need(s.architects[a] < n, f"no architect #{a} has left the pool")
    _need(
        s.urbanist >= 0
        and s.site[s.urbanist] < 0
        and any(DESIGNATED[sl][a] == s.urbanist for sl in used_slots),
        f"the taken tile must come from the urbanist's square, designated by architect #{a}",
    )
    s.pending_tile, s.pending_architect = tid, a


def _read_players(s: GameState, data: Any, actions_done: int) -> None:
    """Each player's city (read by :meth:`City.from_json`), no more tiles than the player has
    taken, and supplies their buildings can have given."""
    config = s.config
    n = config.players
    players = data.get("players")
    _need(isinstance(players, list) and len(players) == n, f"'players' must list {n} players")
    s.cities, s.inhabitants, s.energy = [], [], []
    for p, pl in enumerate(players):
        _need(isinstance(pl, Mapping), f"player {p}: expected an object")
        _need(
            set(pl) == {"city", "inhabitants", "energy"},
            f"player {p}: expected exactly 'city', 'inhabitants' and 'energy'",
        )
        try:
            city = City.from_json(
                {
                    "mode": config.mode.value,
                    "rows": pl.get("city"),
                    "inhabitants": pl.get("inhabitants", 0),
                    "energy": pl.get("energy", 0),
                }
            )
        except InvalidStateError as e:
            raise InvalidStateError(f"state: player {p}: {e}") from None
        acted = (s.round - 1) * TURNS_PER_ROUND + sum(
            1 for k in range(actions_done) if (s.starter + k) % n == p
        )
        floors = sum(b.floors for b in city.buildings if b is not None)
        _need(
            floors <= acted,
            f"player {p}'s city holds {floors} tiles but the player has taken at most {acted}",
        )
        _check_resources(city, p, config.all_parks_absorb)
        s.cities.append(list(city.buildings))
        s.inhabitants.append(city.inhabitants)
        s.energy.append(city.energy)


#: What a city shows of a tile: its type, printed VP and park variant (a stack shows only
#: its type and height, so tower block and office tower floors are counted by type).
_Look = tuple[BuildingType, int, bool]


def _look(b: Building) -> _Look:
    return (b.type, b.vp, b.tree)


def _describe(look: _Look) -> str:
    btype, vp, tree = look
    if btype is BuildingType.PARK:
        return "tree parks" if tree else "playgrounds"
    if btype in (BuildingType.TOWER_BLOCK, BuildingType.OFFICE_TOWER):
        return f"{btype.words} floors"
    if btype in (BuildingType.PUBLIC_SERVICE, BuildingType.HARBOR):
        return f"{btype.plural} printing {vp} VP"
    return btype.plural


def _check_tiles(s: GameState) -> None:
    """The tiles in the cities (every floor of a stack is one), the building in hand and the
    site are distinct tiles of the manifest (TILES.md): for each look (type, printed VP, tree
    park or playground) the cities hold no more than the face-up tiles (R4) of the rounds so
    far that have left the site and are not in hand."""
    mode, n = s.config.mode, s.config.players
    on_site = set(s.site)
    avail: dict[_Look, int] = {}
    for t in TILES:
        if not t.in_mode(mode) or t.min_players > n or t.round > s.round:
            continue
        if t.round == s.round and (t.id in on_site or t.id == s.pending_tile):
            continue
        look = _look(TILE_BUILDING[t.id])
        avail[look] = avail.get(look, 0) + 1
    held: dict[_Look, int] = {}
    for city in s.cities:
        for b in city:
            if b is not None:
                look = _look(b)
                held[look] = held.get(look, 0) + b.floors
    for look, count in sorted(held.items()):
        most = avail.get(look, 0)
        _need(
            count <= most,
            f"the cities hold {count} {_describe(look)} but only {most} such tile(s) "
            f"of {mode.value} rounds 1-{s.round} with {n} players can have been built (TILES.md)",
        )


def _check_mayor(s: GameState) -> None:
    """R10: the mayor changes hands during a round only when the round's mayor tower block
    is built, and the one who built it holds the mayor."""
    if s.mayor == s.starter:
        return
    mayor_tile = next(t.id for t in round_tiles(s.config.mode, s.round) if t.kind.mayor)
    _need(
        mayor_tile not in s.site and mayor_tile != s.pending_tile,
        f"player {s.mayor} holds the mayor but this round's mayor tower block (tile {mayor_tile}) "
        "has not been built (R10)",
    )
    _need(
        any(b is not None and b.type is BuildingType.TOWER_BLOCK for b in s.cities[s.mayor]),
        f"player {s.mayor} holds the mayor but has no tower block (R10)",
    )


def _check_resources(city: City, p: int, all_parks_absorb: bool) -> None:
    """Supplies come only from built tiles (R3: unlimited, never spent during the game), so
    they are bounded by what the city's buildings can have given."""
    tower_floors = playgrounds = factories = harbors = 0
    for b in city.buildings:
        if b is None:
            continue
        if b.type is BuildingType.TOWER_BLOCK:
            tower_floors += b.floors
        elif b.type is BuildingType.PARK and not b.tree and not all_parks_absorb:
            playgrounds += 1  # the literal-reading variant gives no inhabitant for a playground (§6)
        elif b.type is BuildingType.FACTORY:
            factories += 1
        elif b.type is BuildingType.HARBOR:
            harbors += 1
    inh, en = city.inhabitants, city.energy
    # tower blocks give 1-3 inhabitants a floor, playgrounds 1, factories 1-3 energy,
    # harbors 2 units in all (2 inhabitants, 2 energy, or 1 of each) or none
    _need(inh >= tower_floors + playgrounds, f"player {p} has fewer inhabitants than their buildings gave")
    _need(en >= factories, f"player {p} has less energy than their factories gave")
    extra = max(0, inh - 3 * tower_floors - playgrounds) + max(0, en - 3 * factories)
    _need(extra <= 2 * harbors, f"player {p} has more inhabitants and energy than their buildings can give")


def new_state(config: GameConfig) -> GameState:
    """The state at the start of round 1."""
    n = config.players
    geo = GEOMETRY[config.mode]
    s = GameState.__new__(GameState)
    s.config = config
    s.round = 1
    s.turn = 1
    s.position = 0
    s.starter = config.first_player
    s.mayor = config.first_player
    s.phase = TAKE
    s.pending_tile = -1
    s.pending_architect = 0
    s.site, s.face_down = lay_out(config, 1)
    s.slots_used = 0
    s.urbanist = -1
    s.architects = [0] * n if config.mode is Mode.CLASSIC else [0] + [n] * 5
    s.cities = [[None] * geo.size for _ in range(n)]
    s.inhabitants = [0] * n
    s.energy = [0] * n
    return s


__all__ = [
    "OVER",
    "PLACE",
    "TAKE",
    "TILE_BUILDING",
    "TURNS_PER_ROUND",
    "BuildingType",
    "GameState",
    "lay_out",
    "new_state",
]
