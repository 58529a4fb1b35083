"""The encoding shared by every adapter: a fixed integer action space, the action mask, a
fixed-shape observation vector with named views, an observation text, and the rewards.

**Actions** (the same 121 integers in every mode and for every player count)::

    action   0 ..  99   Take(architect, slot):  slot * 5 + (architect - 1)
                        slot 0-19 = T1..T5, B1..B5, L1..L5, R1..R5 (site.SLOT_NAMES)
    action 100 .. 119   Build(row, col):         100 + (row - 1) * 5 + (col - 1)
                        (a 4 x 5 grid; Classic cities use columns 1-4)
    action 120          Discard

:func:`action_to_move` / :func:`move_to_action` round-trip the engine's notation
(``str(action_to_move(a))`` is ``3L4``, ``r2c3`` or ``discard``). :func:`legal_actions` and
:func:`action_mask` (a new array; :func:`shared_action_mask`, the same read-only and cached)
are built from the engine's legal moves (:func:`quadropolis.rules.legal_move_numbers`, the
numbers of :func:`quadropolis.legal_moves`, the only source of legality): an action is the
engine's move number (:data:`quadropolis.moves.MOVES`), and the engine lists legal moves in
ascending order.

**Observations** are one float32 vector of :data:`OBSERVATION_SIZE` values seen by one
*observer* seat: seats are *relative* (0 = the observer, 1 = the next seat in turn order...).
:data:`LAYOUT` lists its parts in memory order and :func:`views` reshapes a vector (or a
batch) into them; the README's table is generated from :data:`LAYOUT`. Only what every
player may know is encoded: never the seed, the layouts of rounds to come, nor which
face-down tile lies where (R4). :func:`encode` computes one; an :class:`Encoder` computes a
sequence of them faster (it rewrites only what changed since its last call), with the same
result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import is_not, ne
from typing import Final

import numpy as np
import numpy.typing as npt

from ..buildings import KINDS, BuildingType
from ..city import GEOMETRY, Building
from ..config import GameConfig
from ..errors import QuadropolisError
from ..moves import MOVES, Build, Discard, Move, Take, move_number
from ..outcome import Outcome
from ..phases import PLACE, TAKE
from ..render import building_label, tile_label
from ..rules import legal_move_numbers
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
    "shared_action_mask",
    "views",
]


class ActionError(QuadropolisError):
    """An integer that is not an action of the fixed action space (0-120)."""


# --- actions ---------------------------------------------------------------------------------

ACTION_BUILD: Final = 100
ACTION_DISCARD: Final = 120
NUM_ACTIONS: Final = 121

# The actions are the engine's move numbers (quadropolis.moves.MOVES, the same integers in the
# same order): legal_move_numbers lists the legal actions directly.


def action_to_move(action: int) -> Move:
    """The move of an action (an interned :class:`Move`). Raises :class:`ActionError`."""
    try:
        a = int(action)
    except (TypeError, ValueError):
        raise ActionError(f"an action is an integer 0-{NUM_ACTIONS - 1}, got {action!r}") from None
    if not 0 <= a < NUM_ACTIONS:
        raise ActionError(f"an action is an integer 0-{NUM_ACTIONS - 1}, got {a}")
    return MOVES[a]


def move_to_action(move: Move | str) -> int:
    """The action of a move (or of its notation, e.g. ``"3L4"``: :class:`NotationError` if it
    is not one), its move number. Raises :class:`ActionError` for anything else."""
    if isinstance(move, str):
        move = Move.parse(move)
    if isinstance(move, (Take, Build, Discard)):
        return move_number(move)
    raise ActionError(f"{move!r} has no action")


def legal_actions(state: GameState) -> list[int]:
    """The legal actions, ascending (:func:`quadropolis.rules.legal_move_numbers`: the
    numbers of :func:`quadropolis.legal_moves`). A new list."""
    return legal_move_numbers(state)


def shared_action_mask(state: GameState) -> npt.NDArray[np.int8]:
    """:func:`action_mask` without the copy: a read-only array shared between calls (for an
    adapter that copies it wherever it hands it out)."""
    key = bytes(legal_move_numbers(state))  # the actions as bytes (each fits in one): the key
    mask = _MASKS.get(key)
    if mask is None:
        # A mask is a function of the legal actions alone: cache it (bounded; performance).
        if len(_MASKS) >= _MASKS_MAX:
            _MASKS.clear()
        hot = bytearray(NUM_ACTIONS)
        for a in key:
            hot[a] = 1
        # Read-only (a view of bytes): shared, so mutating it raises. Made from bytes rather
        # than by numpy indexing, which costs more than this loop for a few dozen actions.
        mask = _MASKS[key] = np.frombuffer(bytes(hot), np.int8)
    return mask


_MASKS: dict[bytes, npt.NDArray[np.int8]] = {}
_MASKS_MAX: Final = 50_000


def action_mask(state: GameState) -> npt.NDArray[np.int8]:
    """int8 vector of :data:`NUM_ACTIONS`: 1 for the legal actions of the player to move (all
    zeros once the game is over). A new array at each call."""
    return shared_action_mask(state).copy()


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


_Key = tuple[Mode, int, str, bool]  # what the static block depends on: a config without its seed
_STATIC: dict[_Key, npt.NDArray[np.float32]] = {}
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
_USED_HOT: Final = tuple(
    tuple(tuple(_USED + r * 5 + a - 1 for a in (1, 2, 3, 4) if m >> a & 1) for m in range(32))
    for r in range(4)
)
#: _SITE_HOT[t][q]: the offset set by tile t face up on site square q (its kind's feature).
_SITE_HOT: Final = tuple(tuple(_SITE + q * 21 + k for q in range(25)) for k in _KIND_OF_TILE)
_SQUARES: Final = range(25)
_ONES: Final = repeat(1)


def _one_hot(width: int, i: int) -> bytes:
    b = bytearray(width)
    b[i] = 1
    return bytes(b)


# Byte patterns of parts, indexed as the offset tables above are (a negative index too), so
# both give the same bits. The position's parts from the urbanist to the architects used are
# contiguous: they are written as one slice, joined from the patterns.
_KIND_BYTES: Final = tuple(_one_hot(21, k) for k in _KIND_OF_TILE)  # per tile id
_NO_KIND: Final = bytes(21)
_POSITION: Final = _URBANIST
assert [p.name for p in LAYOUT if _URBANIST <= p.offset < _CITY.offset] == [
    "urbanist",
    "slot_used",
    "slot_blocked",
    "hand_tile",
    "hand_architect",
    "seat_present",
    "seat_to_move",
    "seat_mayor",
    "seat_starter",
    "architects_used",
]
_URBANIST_BYTES: Final = tuple(_one_hot(25, q) for q in range(25))
_NO_URBANIST: Final = bytes(25)
_SLOT_BYTES: Final = tuple(bytes(m >> i & 1 for i in range(10)) for m in range(1024))  # 10 slots
_BLOCKED_BYTES: Final = tuple(bytes(BLOCKED_SLOTS[q] >> i & 1 for i in range(20)) for q in range(25))
_NOT_BLOCKED: Final = bytes(20)
_HAND_ARCH_BYTES: Final = tuple(_one_hot(5, a - 1) for a in range(1, 6))  # per architect - 1
_EMPTY_HAND: Final = bytes(21 + 5)
_PRESENT_BYTES: Final = {n: b"\1" * n + bytes(4 - n) for n in (2, 3, 4)}
_SEAT_BYTES: Final = tuple(_one_hot(4, r) for r in range(4))
_USED_BYTES: Final = tuple(bytes(m >> a & 1 for a in (1, 2, 3, 4)) + b"\0" for m in range(32))
#: _ROTATION[n][observer]: the seat of each relative seat.
_ROTATION: Final = {n: tuple(tuple((o + r) % n for r in range(n)) for o in range(n)) for n in (2, 3, 4)}


def _byte_block(block: npt.NDArray[np.float32]) -> bytes:
    """``block`` (whole numbers 0-255) as bytes: one byte per value."""
    out = block.astype(np.uint8)
    assert np.array_equal(out, block)  # exact: every value of a block is a small count
    return out.tobytes()


_STATIC_BYTES: dict[_Key, bytes] = {}
_ROUND_BYTES: Final = {key: _byte_block(block) for key, block in _ROUND.items()}


def _building_features(b: Building) -> list[int]:
    """Offsets, within one city square's features, of the ones set by ``b``."""
    hot = [int(b.type)]
    hot.extend(range(8, 8 + min(b.floors, 5)))
    hot.extend(range(13, 13 + min(b.vp, 3)))
    if b.type is BuildingType.PARK and b.tree:
        hot.append(16)
    return hot


_NO_FEATURES: Final = bytes(_CITY_FEATURES)
# By identity (hashing a dataclass is slow): an entry holds its building, so the id is not
# reused while the entry lives. Buildings of one floor are interned by the engine
# (TILE_BUILDING); stacks are new objects, hence the bound.
_FEATURES: dict[int, tuple[Building, bytes]] = {}
_FEATURES_MAX: Final = 10_000


def _square_features(b: Building) -> bytes:
    """The features of one city square holding ``b``, one byte each."""
    entry = _FEATURES.get(id(b))
    if entry is not None and entry[0] is b:
        return entry[1]
    hot = bytearray(_CITY_FEATURES)
    for f in _building_features(b):
        hot[f] = 1
    if len(_FEATURES) >= _FEATURES_MAX:
        _FEATURES.clear()
    _FEATURES[id(b)] = (b, bytes(hot))
    return bytes(hot)


class Encoder:
    """Encodes observations. Every value of an observation is a whole number 0-255 (counts
    included, in a real game), so the encoder keeps, as bytes, the observation of the last
    position it encoded as seat 0 sees it without the position's one-hot bits, and copies of
    what it was built from (the site, every city, the counts, the round, the configuration).
    At each call it rewrites only the parts whose source differs in the new state (a city
    changes when its owner builds, the site at each take), copies the bytes, rotates the
    seats' parts to the observer's view, writes the position's bits and converts to float32
    in one numpy call. One encoder per environment; :func:`encode` uses a fresh one. The
    result never depends on the cache: any state may follow any other, for any observer."""

    __slots__ = (
        "_base",
        "_buf",
        "_bytes",
        "_cities",
        "_config",
        "_counts",
        "_face_down",
        "_key",
        "_pool",
        "_round",
        "_site",
        "_wide_counts",
        "_wide_pool",
    )

    def __init__(self) -> None:
        # The bytes of the observation being encoded, seen as uint8 by numpy: converted to
        # float32 in one call. Never resized (numpy holds a view of it).
        self._buf = bytearray(OBSERVATION_SIZE)
        self._bytes = np.frombuffer(self._buf, np.uint8)
        self._base = bytearray(OBSERVATION_SIZE)
        self._config: GameConfig | None = None
        self._key: _Key | None = None
        self._round = 0
        self._site: list[int] = []
        self._face_down = 0
        self._cities: list[list[Building | None]] = []
        self._counts: tuple[list[int], list[int]] | None = None  # inhabitants, energy
        self._pool: list[int] | None = None  # Expert: the architects' pool
        # A count that is not a byte (a state made by hand): written as a float at the end.
        self._wide_counts = self._wide_pool = False

    def reset(self) -> None:
        """Forget the cached observation (optional: it is checked against the state)."""
        self._config = self._key = None

    def __reduce__(self) -> tuple[type[Encoder], tuple[()]]:
        # A copy (copy, deepcopy, pickle) is a fresh encoder: numpy's view of the buffer would
        # not survive one, and the cache is rebuilt from the next state anyway.
        return (Encoder, ())

    def encode(
        self, state: GameState, observer: int, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """The observation of ``state`` by seat ``observer`` (written into ``out`` if given,
        else a new array)."""
        cfg = state.config
        if cfg is not self._config:
            self._configure(cfg)
        base = self._base
        if state.round != self._round:
            base[_STATIC_END:_ROUND_END] = _ROUND_BYTES[cfg.mode, cfg.players, state.round]
            self._round = state.round
        if state.site != self._site or state.face_down != self._face_down:
            self._update_site(state)
        if state.cities != self._cities:
            self._update_cities(state)
        counts = self._counts
        if counts is None or state.inhabitants != counts[0] or state.energy != counts[1]:
            self._update_counts(state)
        classic = cfg.mode is Mode.CLASSIC
        architects = state.architects
        if not classic and architects[1:6] != self._pool:
            self._update_pool(architects)

        n = cfg.players
        o = observer % n
        buf = self._buf
        buf[:] = base
        if o:  # the observer's seat first: rotate the cities and the counts
            at = _CITY.offset + o * _CITY_BLOCK
            end = _CITY.offset + n * _CITY_BLOCK
            buf[_CITY.offset : end] = base[at:end] + base[_CITY.offset : at]
            at, end = _INHABITANTS + o, _INHABITANTS + n
            buf[_INHABITANTS:end] = base[at:end] + base[_INHABITANTS:at]
            at, end = _ENERGY + o, _ENERGY + n
            buf[_ENERGY:end] = base[at:end] + base[_ENERGY:at]

        # The position.
        buf[_TURN + state.turn - 1] = 1
        phase = state.phase
        if phase == TAKE:
            buf[_PHASE] = 1
        elif phase == PLACE:
            buf[_PHASE + 1] = 1
        u = state.urbanist
        if u < 25 and (phase != PLACE or 1 <= state.pending_architect <= 5):
            slots = state.slots_used
            pieces = [
                _URBANIST_BYTES[u] if u >= 0 else _NO_URBANIST,
                _SLOT_BYTES[slots & 1023],
                _SLOT_BYTES[slots >> 10],
                _BLOCKED_BYTES[u] if u >= 0 and cfg.urbanist_blocks == "lines" else _NOT_BLOCKED,
                _KIND_BYTES[state.pending_tile] if phase == PLACE else _EMPTY_HAND,
            ]
            if phase == PLACE:
                pieces.append(_HAND_ARCH_BYTES[state.pending_architect - 1])
            pieces.append(_PRESENT_BYTES[n])
            pieces.append(_SEAT_BYTES[(state.starter + state.position - observer) % n])
            pieces.append(_SEAT_BYTES[(state.mayor - observer) % n])
            pieces.append(_SEAT_BYTES[(state.starter - observer) % n])
            if classic:
                for p in _ROTATION[n][o]:
                    pieces.append(_USED_BYTES[architects[p]])
            part = b"".join(pieces)
            buf[_POSITION : _POSITION + len(part)] = part
        else:  # an urbanist or an architect off the tables (a state made by hand)
            any(map(buf.__setitem__, _position_bits(state, observer), _ONES))

        if out is None:
            obs = self._bytes.astype(np.float32)
        else:
            obs = out
            obs[:] = self._bytes
        if self._wide_counts or self._wide_pool:
            _write_counts(obs, state, o)
        return obs

    def _configure(self, cfg: GameConfig) -> None:
        """Point at ``cfg``; start afresh unless only the seed (or the object) changed."""
        self._config = cfg
        key = (cfg.mode, cfg.players, cfg.urbanist_blocks, cfg.all_parks_absorb)
        if key == self._key:
            return
        self._key = key
        static = _STATIC_BYTES.get(key)
        if static is None:
            static = _STATIC_BYTES[key] = _byte_block(_static_block(cfg))
        n = cfg.players
        base = self._base = bytearray(OBSERVATION_SIZE)
        base[:_STATIC_END] = static
        base[_PRESENT : _PRESENT + n] = b"\1" * n
        # What the zeros of base show: no round (its block is written next), an empty site,
        # empty cities, no counts (written next), the pool: zeros in Classic.
        self._round = 0
        self._site = [-1] * 25
        self._face_down = 0
        size = GEOMETRY[cfg.mode].size
        self._cities = [[None] * size for _ in range(n)]
        self._counts = None
        self._pool = None if cfg.mode is Mode.EXPERT else [0] * 5
        self._wide_counts = self._wide_pool = False

    def _update_site(self, state: GameState) -> None:
        base = self._base
        site, fd = state.site, state.face_down
        if fd != self._face_down or len(site) != 25:
            # A new round (every square's features depend on its face-down bit): rewrite all.
            tiles = [site[q] for q in _SQUARES]
            down = [t >= 0 and fd >> q & 1 for q, t in enumerate(tiles)]
            base[_SITE:_FACE_DOWN] = b"".join(
                [_NO_KIND if t < 0 or d else _KIND_BYTES[t] for t, d in zip(tiles, down, strict=True)]
            )
            base[_FACE_DOWN : _FACE_DOWN + 25] = bytes(down)
            self._site = tiles
            self._face_down = fd
            return
        snap = self._site
        # A take changes the urbanist's square alone: try it first.
        q = state.urbanist
        if 0 <= q < 25 and site[q] != snap[q]:
            _set_square(base, snap, q, site[q], fd)
            if site == snap:
                return
        for q in compress(_SQUARES, map(ne, site, snap)):  # the changed squares, at C speed
            _set_square(base, snap, q, site[q], fd)

    def _update_cities(self, state: GameState) -> None:
        base = self._base
        cols = state.geometry.cols
        snaps = self._cities
        for p in range(len(snaps)):
            city = state.cities[p]
            snap = snaps[p]
            if city == snap:  # identical buildings compare at C speed
                continue
            start = _CITY.offset + p * _CITY_BLOCK
            if len(snap) != len(city):  # not a city of this mode: start from an empty one
                base[start : start + _CITY_BLOCK] = bytes(_CITY_BLOCK)
                snap = snaps[p] = [None] * len(city)
            # Buildings are immutable: a new object is a change (found at C speed).
            for q in compress(range(len(city)), map(is_not, city, snap)):
                b = city[q]
                at = start + (q // cols * 5 + q % cols) * _CITY_FEATURES
                base[at : at + _CITY_FEATURES] = _NO_FEATURES if b is None else _square_features(b)
                snap[q] = b

    def _update_counts(self, state: GameState) -> None:
        inh, en = state.inhabitants, state.energy
        n = len(self._cities)  # the player count
        self._counts = (inh[:], en[:])
        try:
            if len(inh) != n or len(en) != n:
                raise ValueError
            counts = bytes(inh), bytes(en)  # ValueError, TypeError: not bytes
        except (ValueError, TypeError):
            self._wide_counts = True
        else:
            self._base[_INHABITANTS : _INHABITANTS + n] = counts[0]
            self._base[_ENERGY : _ENERGY + n] = counts[1]
            self._wide_counts = False

    def _update_pool(self, architects: list[int]) -> None:
        self._pool = pool = architects[1:6]
        try:
            self._base[_POOL : _POOL + 5] = bytes(pool)  # ValueError, TypeError: not bytes
            self._wide_pool = False
        except (ValueError, TypeError):
            self._wide_pool = True


def _set_square(base: bytearray, snap: list[int], q: int, t: int, fd: int) -> None:
    """Site square ``q`` now holds tile ``t`` (-1: none), face down if ``fd`` says so."""
    old = snap[q]
    if old >= 0:
        base[_FACE_DOWN + q if fd >> q & 1 else _SITE_HOT[old][q]] = 0
    if t >= 0:
        base[_FACE_DOWN + q if fd >> q & 1 else _SITE_HOT[t][q]] = 1
    snap[q] = t


def _position_bits(state: GameState, observer: int) -> list[int]:
    """The offsets of the position's bits from the urbanist to the architects used (bar
    the seats present, already in the base): the general way, for any values."""
    cfg = state.config
    n = cfg.players
    hot = []
    if state.phase == PLACE:
        hot.append(_HAND + _KIND_OF_TILE[state.pending_tile])
        hot.append(_HAND_ARCH + state.pending_architect - 1)
    slots = state.slots_used
    hot.extend(_SLOT_LO[slots & 1023])
    hot.extend(_SLOT_HI[slots >> 10])
    u = state.urbanist
    if u >= 0:
        hot.append(_URBANIST + u)
        if cfg.urbanist_blocks == "lines":
            hot.extend(_BLOCKED[u])
    hot.append(_TO_MOVE + (state.starter + state.position - observer) % n)
    hot.append(_MAYOR + (state.mayor - observer) % n)
    hot.append(_STARTER + (state.starter - observer) % n)
    if cfg.mode is Mode.CLASSIC:
        for r, p in enumerate(_ROTATION[n][observer % n]):
            hot.extend(_USED_HOT[r][state.architects[p]])
    return hot


def _write_counts(obs: npt.NDArray[np.float32], state: GameState, observer: int) -> None:
    """Write the counts (inhabitants, energy, Expert pool) as floats, whatever their values."""
    n = state.config.players
    for r in range(n):
        p = (observer + r) % n
        obs[_INHABITANTS + r] = state.inhabitants[p]
        obs[_ENERGY + r] = state.energy[p]
    if state.config.mode is not Mode.CLASSIC:
        obs[_POOL : _POOL + 5] = state.architects[1:6]


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
