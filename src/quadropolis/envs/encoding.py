"""The encoding shared by every adapter: a fixed integer action space, the action mask, a
fixed-shape observation vector with named views, an observation text, and the rewards.

**Actions** (the same 121 integers in every mode and for every player count)::

    action   0 ..  99   Take(architect, slot):  slot * 5 + (architect - 1)
                        slot 0-19 = T1..T5, B1..B5, L1..L5, R1..R5 (site.SLOT_NAMES)
    action 100 .. 119   Build(row, col):         100 + (row - 1) * 5 + (col - 1)
                        (a 4 x 5 grid; Classic cities use columns 1-4)
    action 120          Discard

:func:`action_to_move` / :func:`move_to_action` round-trip the engine's notation
(``str(action_to_move(a))`` is ``3L4``, ``r2c3`` or ``discard``). :func:`action_mask` is built
from :func:`quadropolis.legal_moves`, the only source of legality; the engine lists legal
moves in ascending action order.

**Observations** are one float32 vector of :data:`OBSERVATION_SIZE` values seen by one
*observer* seat: seats are *relative* (0 = the observer, 1 = the next seat in turn order...).
:data:`LAYOUT` lists its parts in memory order and :func:`views` reshapes a vector (or a
batch) into them; the README's table is generated from :data:`LAYOUT`. Only what every
player may know is encoded: never the seed, the layouts of rounds to come, nor which
face-down tile lies where (R4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from ..buildings import KINDS, BuildingType
from ..city import GEOMETRY, Building
from ..config import GameConfig
from ..errors import QuadropolisError
from ..moves import BUILDS, DISCARD, TAKES, Build, Discard, Move, Take
from ..outcome import Outcome
from ..phases import PLACE, TAKE
from ..render import building_label, tile_label
from ..rules import legal_moves
from ..site import BLOCKED_SLOTS, SLOT_NAMES, square_name
from ..state import GameState
from ..tiles import ROUNDS, TILES, Mode

__all__ = [
    "ACTION_BUILD",
    "ACTION_DISCARD",
    "KIND_CODES",
    "LAYOUT",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "REWARDS",
    "ActionError",
    "Encoder",
    "Part",
    "action_mask",
    "action_to_move",
    "check_reward",
    "encode",
    "final_rewards",
    "layout_table",
    "legal_actions",
    "move_to_action",
    "observation_high",
    "observation_text",
    "reward_bounds",
    "score_bounds",
    "views",
]


class ActionError(QuadropolisError):
    """An integer that is not an action of the fixed action space (0-120)."""


# --- actions ---------------------------------------------------------------------------------

ACTION_BUILD: Final = 100
ACTION_DISCARD: Final = 120
NUM_ACTIONS: Final = 121

_ACTION_MOVES: Final[tuple[Move, ...]] = (
    *(TAKES[slot][a] for slot in range(20) for a in range(1, 6)),
    *(BUILDS[r][c] for r in range(1, 5) for c in range(1, 6)),
    DISCARD,
)
# Legal-move generation hands out the interned moves of quadropolis.moves (module-level, never
# freed), so their identity finds the action without hashing a dataclass (performance).
_ACTION_OF_ID: Final[dict[int, int]] = {id(m): a for a, m in enumerate(_ACTION_MOVES)}


def action_to_move(action: int) -> Move:
    """The move of an action (an interned :class:`Move`). Raises :class:`ActionError`."""
    try:
        a = int(action)
    except (TypeError, ValueError):
        raise ActionError(f"an action is an integer 0-{NUM_ACTIONS - 1}, got {action!r}") from None
    if not 0 <= a < NUM_ACTIONS:
        raise ActionError(f"an action is an integer 0-{NUM_ACTIONS - 1}, got {a}")
    return _ACTION_MOVES[a]


def move_to_action(move: Move | str) -> int:
    """The action of a move (or of its notation, e.g. ``"3L4"``). Raises :class:`ActionError`
    for a move outside the action space (a hand-made ``Take`` with a bad slot...)."""
    if isinstance(move, str):
        move = Move.parse(move)
    a = _ACTION_OF_ID.get(id(move))
    if a is not None:
        return a
    if isinstance(move, Take) and 1 <= move.architect <= 5 and 0 <= move.slot < 20:
        return move.slot * 5 + move.architect - 1
    if isinstance(move, Build) and 1 <= move.row <= 4 and 1 <= move.col <= 5:
        return ACTION_BUILD + (move.row - 1) * 5 + move.col - 1
    if isinstance(move, Discard):
        return ACTION_DISCARD
    raise ActionError(f"{move!r} has no action")


def legal_actions(state: GameState) -> list[int]:
    """The legal actions, ascending (from :func:`quadropolis.legal_moves`)."""
    moves = legal_moves(state)
    try:
        actions = list(map(_ACTION_OF_ID.__getitem__, map(id, moves)))
    except KeyError:  # a move that is not one of the interned ones
        actions = [move_to_action(m) for m in moves]
    actions.sort()  # already ascending (linear time): OpenSpiel requires it, so make sure
    return actions


def action_mask(state: GameState) -> npt.NDArray[np.int8]:
    """int8 vector of :data:`NUM_ACTIONS`: 1 for the legal actions of the player to move (all
    zeros once the game is over). A new array at each call."""
    key = tuple(legal_actions(state))
    mask = _MASKS.get(key)
    if mask is None:
        # A mask is a function of the legal actions alone: cache it (bounded; performance).
        if len(_MASKS) >= _MASKS_MAX:
            _MASKS.clear()
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[list(key)] = 1
        _MASKS[key] = mask
    return mask.copy()


_MASKS: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}
_MASKS_MAX: Final = 50_000


# --- observation layout ----------------------------------------------------------------------

#: Tile kinds (TILES.md codes), in the order of every per-kind feature.
KIND_CODES: Final[tuple[str, ...]] = tuple(KINDS)
_KIND_OF_TILE: Final = tuple(KIND_CODES.index(t.kind.code) for t in TILES)
_TILE_INHABITANTS: Final = {m: sum(t.kind.inhabitants for t in TILES if t.in_mode(m)) for m in Mode}
_TILE_ENERGY: Final = {m: sum(t.kind.energy for t in TILES if t.in_mode(m)) for m in Mode}
_MAX_RESOURCE: Final = float(max(max(_TILE_INHABITANTS.values()), max(_TILE_ENERGY.values())))
_CITY_FEATURES: Final = 17  # type one-hot 8, floors >= 1..5, printed VP >= 1..3, tree park
_MAX_TO_COME: Final = float(
    max(
        sum(1 for t in TILES if t.in_mode(m) and t.round > 1 and t.kind.code == k)
        for m in Mode
        for k in KINDS
    )
)


@dataclass(frozen=True, slots=True)
class Part:
    """One named part of the observation vector: ``vector[offset : offset + size]`` reshaped
    to ``shape``; values lie in ``[0, high]``."""

    name: str
    shape: tuple[int, ...]
    high: float
    description: str
    offset: int = 0

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


def _layout(parts: Sequence[Part]) -> tuple[Part, ...]:
    out, offset = [], 0
    for p in parts:
        out.append(Part(p.name, p.shape, p.high, p.description, offset))
        offset += p.size
    return tuple(out)


#: The parts of the observation, in memory order.
LAYOUT: Final[tuple[Part, ...]] = _layout(
    [
        # constant for a game configuration
        Part("mode", (2,), 1, "one-hot: Classic, Expert"),
        Part("players", (3,), 1, "one-hot: 2, 3, 4 players"),
        Part("variants", (2,), 1, '§6 variant switches: urbanist_blocks="square", all_parks_absorb'),
        Part(
            "square_exists",
            (20,),
            1,
            "city square q (4 rows x 5 columns, row-major) exists: Classic has columns 1-4",
        ),
        Part(
            "square_district",
            (20, 5),
            1,
            "[q, d-1]: square q lies in district d (Classic: the 2x2 quadrants 1-4, R2)",
        ),
        Part("square_number", (20, 5), 1, "[q, n-1]: square q is numbered n (Expert, R16; zeros in Classic)"),
        Part(
            "square_eligible",
            (5, 20),
            1,
            "[n-1, q]: architect #n may build on empty square q "
            "(R8: row or column n; R16: numbered n or district n)",
        ),
        # constant for a round
        Part("round", (5,), 1, "one-hot: round 1-5 (Classic has 4)"),
        Part(
            "to_come",
            (21,),
            _MAX_TO_COME,
            "per tile kind (KIND_CODES): tiles of the rounds after this one that will lie face up "
            "with this player count (public manifest, R4)",
        ),
        # the position
        Part("turn", (4,), 1, "one-hot: turn 1-4 of the round"),
        Part("phase", (2,), 1, "one-hot: take a building, build or discard it (zeros when the game is over)"),
        Part(
            "site_tile",
            (25, 21),
            1,
            "[s, k]: face-up tile of kind k on site square s (r1c1..r5c5, row-major)",
        ),
        Part("site_face_down", (25,), 1, "site square holds a face-down tile: not available (R4)"),
        Part("urbanist", (25,), 1, "one-hot: the urbanist's site square (zeros while it is off the board)"),
        Part("slot_used", (20,), 1, "slot T1..T5, B1..B5, L1..L5, R1..R5 holds an architect this round (R1)"),
        Part(
            "slot_blocked",
            (20,),
            1,
            "slot blocked by the urbanist's row and column (R5; zeros under the square variant)",
        ),
        Part("hand_tile", (21,), 1, "one-hot kind of the building taken and not yet built or discarded"),
        Part("hand_architect", (5,), 1, "one-hot number of the architect that took it"),
        Part("seat_present", (4,), 1, "relative seat r is in the game (seat 0 = the observer)"),
        Part("seat_to_move", (4,), 1, "one-hot: relative seat whose action it is"),
        Part("seat_mayor", (4,), 1, "one-hot: relative seat holding the mayor (R10)"),
        Part("seat_starter", (4,), 1, "one-hot: relative seat that started this round"),
        Part(
            "architects_used",
            (4, 5),
            1,
            "[r, n-1]: relative seat r has used architect #n this round (Classic)",
        ),
        Part(
            "city",
            (4, 20, _CITY_FEATURES),
            1,
            "[r, q, f]: relative seat r's city square q: f 0-7 building type one-hot (tower block, shop, "
            "public service, park, factory, harbor, office tower, monument), f 8-12 floors >= 1..5, "
            "f 13-15 printed VP >= 1..3, f 16 tree park (a park without it is a playground, R11)",
        ),
        Part("inhabitants", (4,), _MAX_RESOURCE, "inhabitants of relative seat r (a count)"),
        Part("energy", (4,), _MAX_RESOURCE, "energy of relative seat r (a count)"),
        Part(
            "pool", (5,), 4, "Expert: architects #1..#5 left in the common pool (a count; zeros in Classic)"
        ),
    ]
)
_P: Final = {p.name: p for p in LAYOUT}
OBSERVATION_SIZE: Final = LAYOUT[-1].offset + LAYOUT[-1].size


def observation_high() -> npt.NDArray[np.float32]:
    """Upper bound of every observation value (the lower bound is 0)."""
    high = np.empty(OBSERVATION_SIZE, np.float32)
    for p in LAYOUT:
        high[p.offset : p.offset + p.size] = p.high
    return high


def views(obs: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
    """Named views (no copy) of an observation vector, or of a batch ``(..., OBSERVATION_SIZE)``."""
    lead = obs.shape[:-1]
    return {p.name: obs[..., p.offset : p.offset + p.size].reshape(*lead, *p.shape) for p in LAYOUT}


def layout_table() -> str:
    """The observation layout as a Markdown table (the README's)."""
    rows = ["| part | shape | offset | values | meaning |", "|---|---|---|---|---|"]
    for p in LAYOUT:
        shape = " × ".join(str(d) for d in p.shape)
        values = "0/1" if p.high == 1 else f"0–{p.high:g}"
        rows.append(f"| `{p.name}` | {shape} | {p.offset} | {values} | {p.description} |")
    return "\n".join(rows)


# --- encoding --------------------------------------------------------------------------------

_STATIC_END: Final = _P["round"].offset
_ROUND_END: Final = _P["turn"].offset
_CITY: Final = _P["city"]
_CITY_BLOCK: Final = 20 * _CITY_FEATURES


def _static_block(config: GameConfig) -> npt.NDArray[np.float32]:
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    v = views(obs)
    mode = config.mode
    v["mode"][0 if mode is Mode.CLASSIC else 1] = 1
    v["players"][config.players - 2] = 1
    v["variants"][:] = (config.urbanist_blocks == "square", config.all_parks_absorb)
    geo = GEOMETRY[mode]
    for q in range(geo.size):
        r, c = divmod(q, geo.cols)
        cq = r * 5 + c
        v["square_exists"][cq] = 1
        v["square_district"][cq, geo.district[q] - 1] = 1
        if geo.number is not None:
            v["square_number"][cq, geo.number[q] - 1] = 1
        for n in range(1, geo.architects + 1):
            if q in geo.eligible[n]:
                v["square_eligible"][n - 1, cq] = 1
    return obs[:_STATIC_END].copy()


def _round_block(mode: Mode, players: int, rnd: int) -> npt.NDArray[np.float32]:
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    v = views(obs)
    v["round"][rnd - 1] = 1
    for t in TILES:
        if t.in_mode(mode) and t.round > rnd and t.min_players <= players:
            v["to_come"][_KIND_OF_TILE[t.id]] += 1
    return obs[_STATIC_END:_ROUND_END].copy()


_STATIC: dict[tuple[Mode, int, str, bool], npt.NDArray[np.float32]] = {}
_ROUND: Final = {
    (m, n, r): _round_block(m, n, r) for m in Mode for n in (2, 3, 4) for r in range(1, ROUNDS[m] + 1)
}


def _bits(offset: int, width: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(width) if m >> i & 1) for m in range(1 << width))


_SITE: Final = _P["site_tile"].offset
_FACE_DOWN: Final = _P["site_face_down"].offset
_URBANIST: Final = _P["urbanist"].offset
_SLOT_LO: Final = _bits(_P["slot_used"].offset, 10)
_SLOT_HI: Final = _bits(_P["slot_used"].offset + 10, 10)
_BLOCKED: Final = tuple(
    tuple(_P["slot_blocked"].offset + i for i in range(20) if BLOCKED_SLOTS[q] >> i & 1) for q in range(25)
)
_TURN: Final = _P["turn"].offset
_PHASE: Final = _P["phase"].offset
_HAND: Final = _P["hand_tile"].offset
_HAND_ARCH: Final = _P["hand_architect"].offset
_PRESENT: Final = _P["seat_present"].offset
_TO_MOVE: Final = _P["seat_to_move"].offset
_MAYOR: Final = _P["seat_mayor"].offset
_STARTER: Final = _P["seat_starter"].offset
_USED: Final = _P["architects_used"].offset
_INHABITANTS: Final = _P["inhabitants"].offset
_ENERGY: Final = _P["energy"].offset
_POOL: Final = _P["pool"].offset


_SITE_END: Final = _P["site_face_down"].offset + 25  # site_tile and site_face_down are contiguous
_SITE_BLOCK: Final = _SITE_END - _SITE
_USED_HOT: Final = tuple(
    tuple(tuple(_USED + r * 5 + a - 1 for a in (1, 2, 3, 4) if m >> a & 1) for m in range(32))
    for r in range(4)
)


def _building_features(b: Building) -> list[int]:
    """Offsets, within one city square's features, of the ones set by ``b``."""
    hot = [int(b.type)]
    hot.extend(range(8, 8 + min(b.floors, 5)))
    hot.extend(range(13, 13 + min(b.vp, 3)))
    if b.type is BuildingType.PARK and b.tree:
        hot.append(16)
    return hot


class Encoder:
    """Encodes observations. Between calls it keeps the dense block of the site and of each
    city and updates only what changed (a city changes when its owner builds, the site at each
    take): one encoder per environment; :func:`encode` uses a fresh one. The result never
    depends on the cache."""

    __slots__ = ("_cities", "_site")

    def __init__(self) -> None:
        self._cities: dict[int, tuple[list[Building | None], npt.NDArray[np.float32]]] = {}
        self._site: tuple[list[int], int, npt.NDArray[np.float32]] | None = None  # snapshot, face_down

    def reset(self) -> None:
        """Forget the cached blocks (optional: they are checked against the state anyway)."""
        self._cities.clear()
        self._site = None

    def _city_block(self, state: GameState, seat: int) -> npt.NDArray[np.float32]:
        city = state.cities[seat]
        cached = self._cities.get(seat)
        if cached is None or len(cached[0]) != len(city):
            snap: list[Building | None] = [None] * len(city)
            block = np.zeros(_CITY_BLOCK, np.float32)
            self._cities[seat] = (snap, block)
        else:
            snap, block = cached
            if snap == city:  # identical buildings compare at C speed
                return block
        cols = state.geometry.cols
        for q, b in enumerate(city):
            if b is not snap[q]:  # buildings are immutable: a new object is a change
                base = (q // cols * 5 + q % cols) * _CITY_FEATURES
                block[base : base + _CITY_FEATURES] = 0
                if b is not None:
                    block[[base + f for f in _building_features(b)]] = 1
                snap[q] = b
        return block

    def _site_block(self, state: GameState) -> npt.NDArray[np.float32]:
        site, fd = state.site, state.face_down
        cached = self._site
        if cached is None or cached[1] != fd:
            snap = [-1] * 25
            block = np.zeros(_SITE_BLOCK, np.float32)
            self._site = (snap, fd, block)
        else:
            snap, _, block = cached
            if snap == site:
                return block
        # A square's features depend only on its tile and its face-down bit (unchanged here).
        for q in range(25):
            t = site[q]
            if t != snap[q]:
                block[q * 21 : q * 21 + 21] = 0
                block[_SITE_BLOCK - 25 + q] = 0
                if t >= 0:
                    block[_SITE_BLOCK - 25 + q if fd >> q & 1 else q * 21 + _KIND_OF_TILE[t]] = 1
                snap[q] = t
        return block

    def encode(
        self, state: GameState, observer: int, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """The observation of ``state`` by seat ``observer`` (written into ``out`` if given)."""
        cfg = state.config
        n = cfg.players
        if out is None:
            obs = np.zeros(OBSERVATION_SIZE, np.float32)
        else:
            obs = out
            obs.fill(0)
        key = (cfg.mode, n, cfg.urbanist_blocks, cfg.all_parks_absorb)
        static = _STATIC.get(key)
        if static is None:
            static = _STATIC[key] = _static_block(cfg)
        obs[:_STATIC_END] = static
        obs[_STATIC_END:_ROUND_END] = _ROUND[cfg.mode, n, state.round]
        obs[_SITE:_SITE_END] = self._site_block(state)

        hot = [_TURN + state.turn - 1]
        ap = hot.append
        phase = state.phase
        if phase == TAKE:
            ap(_PHASE)
        elif phase == PLACE:
            ap(_PHASE + 1)
            ap(_HAND + _KIND_OF_TILE[state.pending_tile])
            ap(_HAND_ARCH + state.pending_architect - 1)
        slots = state.slots_used
        hot.extend(_SLOT_LO[slots & 1023])
        hot.extend(_SLOT_HI[slots >> 10])
        u = state.urbanist
        if u >= 0:
            ap(_URBANIST + u)
            if cfg.urbanist_blocks == "lines":
                hot.extend(_BLOCKED[u])
        ap(_TO_MOVE + (state.starter + state.position - observer) % n)
        ap(_MAYOR + (state.mayor - observer) % n)
        ap(_STARTER + (state.starter - observer) % n)
        classic = cfg.mode is Mode.CLASSIC
        city_off = _CITY.offset
        architects = state.architects
        for r in range(n):
            p = (observer + r) % n
            ap(_PRESENT + r)
            if classic:
                hot.extend(_USED_HOT[r][architects[p]])
            start = city_off + r * _CITY_BLOCK
            obs[start : start + _CITY_BLOCK] = self._city_block(state, p)
            obs[_INHABITANTS + r] = state.inhabitants[p]
            obs[_ENERGY + r] = state.energy[p]
        obs[hot] = 1
        if not classic:
            obs[_POOL : _POOL + 5] = architects[1:6]
        return obs


def encode(state: GameState, observer: int) -> npt.NDArray[np.float32]:
    """The observation of ``state`` by seat ``observer`` (see :data:`LAYOUT`)."""
    return Encoder().encode(state, observer)


# --- observation text ------------------------------------------------------------------------


def observation_text(state: GameState, observer: int) -> str:
    """A compact one-line text of what seat ``observer`` sees (seats relative, as in the
    observation vector): round, turn, phase, the site (``##`` face down, ``.`` empty), the
    urbanist, used slots, architects, the building in hand and every city with its supplies.
    Distinct public positions give distinct texts."""
    cfg = state.config
    n = cfg.players
    rel = [(observer + r) % n for r in range(n)]
    site = []
    for q, t in enumerate(state.site):
        site.append("." if t < 0 else "##" if state.face_down >> q & 1 else tile_label(t))
    if state.is_over:
        status = "over"
    else:
        status = f"s{(state.current_player - observer) % n} "
        if state.phase == PLACE:
            status += f"places {tile_label(state.pending_tile)}#{state.pending_architect}"
        else:
            status += "takes"
    if cfg.mode is Mode.CLASSIC:
        arch = " ".join(
            f"s{r}:" + "".join(str(a) for a in (1, 2, 3, 4) if not state.architects[p] >> a & 1)
            for r, p in enumerate(rel)
        )
    else:
        arch = "pool:" + "".join(str(state.architects[a]) for a in range(1, 6))
    slots = "".join(SLOT_NAMES[i] for i in range(20) if state.slots_used >> i & 1) or "-"
    urb = square_name(state.urbanist) if state.urbanist >= 0 else "-"
    cities = " ".join(
        f"s{r}[{','.join(map(building_label, state.cities[p]))}]i{state.inhabitants[p]}e{state.energy[p]}"
        for r, p in enumerate(rel)
    )
    variants = "" if cfg.urbanist_blocks == "lines" and not cfg.all_parks_absorb else f" {cfg.variants}"
    return (
        f"{cfg.mode.value} {n}p{variants} r{state.round}t{state.turn} {status} "
        f"mayor s{(state.mayor - observer) % n} starter s{(state.starter - observer) % n} | "
        f"site {' '.join(site)} | urbanist {urb} | slots {slots} | {arch} | {cities}"
    )


# --- rewards ---------------------------------------------------------------------------------

#: Reward schemes: ``win_share`` (1 for a sole win, 1/k for a k-way tie on every R13
#: tie-breaker, 0 otherwise) and ``margin`` (own final VP minus the best other final VP).
REWARDS: Final = ("win_share", "margin")


def check_reward(scheme: str) -> str:
    if scheme not in REWARDS:
        raise QuadropolisError(f"reward must be one of {', '.join(REWARDS)}, got {scheme!r}")
    return scheme


def final_rewards(result: Outcome, scheme: str) -> list[float]:
    """Each seat's final reward under ``scheme`` (see :data:`REWARDS`)."""
    totals = result.totals
    if scheme == "win_share":
        share = 1.0 / len(result.winners)
        return [share if p in result.winners else 0.0 for p in range(len(totals))]
    if scheme == "margin":
        return [float(t - max(u for q, u in enumerate(totals) if q != p)) for p, t in enumerate(totals)]
    raise QuadropolisError(f"reward must be one of {', '.join(REWARDS)}, got {scheme!r}")


def score_bounds(mode: Mode) -> tuple[int, int]:
    """A lower and an upper bound of any final city score in ``mode``: the lowest is every
    inhabitant and energy unit of the mode's tiles unused; the highest, every square at the
    best any single building can score there plus the whole-city bonuses (public service
    districts, both harbor runs)."""
    low = -(_TILE_INHABITANTS[mode] + _TILE_ENERGY[mode])
    if mode is Mode.CLASSIC:
        return low, 16 * 12 + 14 + 2 * 12  # factory next to 4 harbors: 12
    return low, 20 * 30 + 20 + 2 * 18  # office tower of 5 floors in a group of 5+: 30


def reward_bounds(mode: Mode, scheme: str) -> tuple[float, float]:
    """Bounds of :func:`final_rewards` under ``scheme``."""
    if scheme == "win_share":
        return 0.0, 1.0
    low, high = score_bounds(mode)
    return float(low - high), float(high - low)
