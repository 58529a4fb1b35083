"""The ``neural`` bot: a small per-move scoring network, trained to imitate the native search,
whose inputs include what ``greedy`` computes exactly, so that it learns a correction over it.

For every legal move the network sees :func:`move_features` -- greedy's value of the move
(the mover's exact projected final score after it, R12, and greedy's tie-breakers), relative to
the best legal move, plus what the move is (a take's architect and the building it takes, a
build's square, the move's number) -- next to a shared context vector of the position
(:func:`context_features`: round, resources, projected scores, architects left). A
shared MLP gives each move a logit; the bot plays the highest (the first such move in the
order of :func:`quadropolis.rules.legal_moves` on a tie), so it is deterministic: the same
position always gets the same move, whatever the RNG.

Inference is NumPy only (the ``rl`` extra); the weights ship in the package
(``bots/data/neural.npz``, made by ``examples/train_neural.py``). The bot needs the position's
greedy values, which the compiled engine computes in about 0.2 ms; a whole decision takes
about a millisecond (docs/bots.md, "Difficulty levels").
"""

from __future__ import annotations

import random
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from ..buildings import KINDS
from ..errors import ConfigError
from ..moves import DISCARD, MOVES, Build, Move, Take, move_number
from ..outcome import projected_score
from ..site import DESIGNATED
from ..state import PLACE, GameState
from ..tiles import ROUNDS, TILES, Mode
from .base import Bot
from .simple import GreedyBot

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: The weights file inside the package.
WEIGHTS: Final = "neural.npz"
#: Tile kinds in a fixed order (one-hot inputs); one more slot means "nothing taken".
KIND_CODES: Final = tuple(KINDS)
_KIND_INDEX: Final = {code: i for i, code in enumerate(KIND_CODES)}
#: Per-move inputs: 7 from greedy's values, 3 kinds of move, 5 architects, the building taken
#: (or nothing), then the move's number one-hot.
MOVE_FEATURES: Final = 7 + 3 + 5 + len(KIND_CODES) + 1 + len(MOVES)
#: Context inputs (see :func:`context_features`): 18 numbers, then the pending building.
CONTEXT_FEATURES: Final = 18 + len(KIND_CODES)
#: Rows of moves per matrix product in :func:`forward_batch` (see there).
CHUNK: Final = 32
#: The first build's and the discard's move numbers.
FIRST_BUILD: Final = min(i for i, m in enumerate(MOVES) if isinstance(m, Build))
DISCARD_NUMBER: Final = move_number(DISCARD)
#: The layers of the exported network: name -> shape (checked when the weights load).
LAYERS: Final[dict[str, tuple[int, ...]]] = {
    "ctx_w": (CONTEXT_FEATURES, 32),
    "ctx_b": (32,),
    "w1": (MOVE_FEATURES + 32, 64),
    "b1": (64,),
    "w2": (64, 64),
    "b2": (64,),
    "w3": (64, 1),
    "b3": (1,),
}


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise ConfigError(
            "the neural bot needs NumPy: pip install 'quadropolis[rl]' (or pip install numpy)"
        ) from None
    return numpy


#: The raw context of a position (ints; :func:`raw_inputs`, and the compiled engine's batched
#: env for the same positions): the mode (1 Expert), the players, round, turn, whether the
#: building is to be placed, the mover's and the best other projected VP, the mover's
#: inhabitants and energy, those of the rival holding the most of both, the architects (Expert:
#: the pool's count of #1-#5; Classic: 1 for each of #1-#4 whose bit ``n - 1`` of the mover's
#: used mask is clear, as the network was trained, then 0), whether the mover holds the mayor,
#: the number of legal moves, the pending building's kind (-1: none) and the mover's seat.
RAW_CONTEXT: Final = 20
#: The raw row of one legal move: greedy's value (5 ints), the move's number, and for a take
#: the kind of the building it takes (-1: a build, a discard or a face-down tile).
RAW_MOVE: Final = 7


def raw_inputs(state: GameState, values: list[tuple[tuple[int, ...], Move]]) -> tuple[Any, Any]:
    """``(context, rows)``: the position's :data:`RAW_CONTEXT` ints and one row of
    :data:`RAW_MOVE` ints per ``(greedy value, move)`` of ``values`` (:meth:`GreedyBot.values`
    of ``state``), in that order."""
    np_ = _numpy()
    p = state.current_player
    players = state.config.players
    expert = state.config.mode is Mode.EXPERT
    totals = [projected_score(state, q).total for q in range(players)]
    rivals = [q for q in range(players) if q != p]
    other = max(rivals, key=lambda q: totals[q])
    rich = max(rivals, key=lambda q: state.inhabitants[q] + state.energy[q])
    if expert:
        arch = [state.architects[n] for n in range(1, 6)]
    else:
        used = state.architects[p]
        arch = [0 if used >> (n - 1) & 1 else 1 for n in range(1, 5)] + [0]
    pending = -1
    if state.phase == PLACE and state.pending_tile >= 0:
        pending = _KIND_INDEX[TILES[state.pending_tile].kind.code]
    context = [
        int(expert), players, state.round, state.turn, int(state.phase == PLACE), totals[p], totals[other],
        state.inhabitants[p], state.energy[p], state.inhabitants[rich], state.energy[rich],
        *arch, int(state.mayor == p), len(values), pending, p,
    ]  # fmt: skip
    rows = np_.full((len(values), RAW_MOVE), -1, np_.int32)
    for i, (value, move) in enumerate(values):
        rows[i, :5] = value
        rows[i, 5] = move_number(move)
        if isinstance(move, Take):
            q = DESIGNATED[move.slot][move.architect]
            tid = state.site[q]
            if tid >= 0 and not state.face_down >> q & 1:
                rows[i, 6] = _KIND_INDEX[TILES[tid].kind.code]
    return np_.array(context, np_.int32), rows


def features(context: Any, rows: Any, counts: Any) -> tuple[Any, Any]:
    """The network's inputs of ``k`` positions from their raw inputs (:func:`raw_inputs`):
    ``context`` ``(k, RAW_CONTEXT)``, ``rows`` (the positions' move rows one after another)
    and ``counts`` (rows per position) -> ``(ctx, moves)``, ``(k, CONTEXT_FEATURES)`` and
    ``(rows, MOVE_FEATURES)`` float32, scaled to about [-1, 1].

    Context: mode, round / rounds, turn / 4, phase, own and best other VP / 50, their
    difference / 20, resources / 10, the architects (Expert: / players), mayor, moves / 50,
    the pending building one-hot. Per move: greedy's VP, inhabitants placed, empty squares
    (negated), built flag and resources, each minus the best legal move's; whether the move is
    greedy's choice (its whole value the best); its VP gain over the city as it stands; then a
    take, a build or a discard, the take's architect, the building it takes (or nothing), and
    the move's number, each one-hot."""
    np_ = _numpy()
    c = np_.asarray(context, np_.float64).reshape(-1, RAW_CONTEXT)
    k = len(c)
    expert = c[:, 0]
    ctx = np_.zeros((k, CONTEXT_FEATURES), np_.float64)
    ctx[:, 0] = expert
    ctx[:, 1] = c[:, 2] / np_.where(expert > 0, ROUNDS[Mode.EXPERT], ROUNDS[Mode.CLASSIC])
    ctx[:, 2] = c[:, 3] / 4
    ctx[:, 3] = c[:, 4]
    ctx[:, 4], ctx[:, 5], ctx[:, 6] = c[:, 5] / 50, c[:, 6] / 50, (c[:, 5] - c[:, 6]) / 20
    ctx[:, 7:11] = c[:, 7:11] / 10
    ctx[:, 11:16] = c[:, 11:16] / np_.where(expert > 0, c[:, 1], 1.0)[:, None]
    ctx[:, 16] = c[:, 16]
    ctx[:, 17] = c[:, 17] / 50
    pending = c[:, 18].astype(np_.int64)
    ctx[np_.flatnonzero(pending >= 0), 18 + pending[pending >= 0]] = 1.0
    return ctx.astype(np_.float32), _move_inputs(np_, rows, counts, c[:, 5])


def _move_inputs(np_: Any, rows: Any, counts: Any, own: Any) -> Any:
    """:func:`features`' per-move half (``own``: each position's projected VP now)."""
    r = np_.asarray(rows, np_.int64).reshape(-1, RAW_MOVE)
    x = np_.zeros((len(r), MOVE_FEATURES), np_.float32)
    if not len(r):
        return x
    counts = np_.asarray(counts, np_.int64)
    starts = np_.concatenate([[0], np_.cumsum(counts)[:-1]])
    game = np_.repeat(np_.arange(len(counts)), counts)
    vals = r[:, :5].astype(np_.float32)
    best = np_.maximum.reduceat(vals, starts, axis=0)[game]
    x[:, 0] = (vals[:, 0] - best[:, 0]) / 10
    x[:, 1] = (vals[:, 1] - best[:, 1]) / 5
    x[:, 2] = (vals[:, 2] - best[:, 2]) / 5
    x[:, 3] = vals[:, 3]
    x[:, 4] = (vals[:, 4] - best[:, 4]) / 10
    # greedy's choice: the lexicographically best value, as one key (each part within 2**11)
    key = np_.zeros(len(r), np_.int64)
    for j in range(5):
        key = key * 4096 + (r[:, j] + 2048)
    x[:, 5] = key == np_.maximum.reduceat(key, starts)[game]
    x[:, 6] = (vals[:, 0] - own[game].astype(np_.float32)) / 10
    number = r[:, 5]
    take = number < FIRST_BUILD
    x[:, 7] = take
    x[:, 8] = (number >= FIRST_BUILD) & (number < DISCARD_NUMBER)
    x[:, 9] = number == DISCARD_NUMBER
    t = np_.flatnonzero(take)
    x[t, 10 + number[t] % 5] = 1.0
    kind = np_.where(r[t, 6] >= 0, r[t, 6], len(KIND_CODES))
    x[t, 15 + kind] = 1.0
    x[np_.arange(len(r)), 15 + len(KIND_CODES) + 1 + number] = 1.0
    return x


def context_features(state: GameState, n_moves: int) -> list[float]:
    """The context inputs of ``state`` (:func:`features`) for a position with ``n_moves``
    legal moves, as a list."""
    context, _ = raw_inputs(state, [])
    context[17] = n_moves
    ctx, _ = features(context, _numpy().zeros((0, RAW_MOVE), "int32"), [0])
    return [float(v) for v in ctx[0]]


def move_features(state: GameState, values: list[tuple[tuple[int, ...], Move]]) -> npt.NDArray[np.float32]:
    """One row of :data:`MOVE_FEATURES` inputs per ``(greedy value, move)`` of ``values``
    (:meth:`GreedyBot.values` of ``state``), in that order (:func:`features`)."""
    context, rows = raw_inputs(state, values)
    return features(context, rows, [len(values)])[1]  # type: ignore[no-any-return]


@cache
def load_weights() -> dict[str, Any]:
    """The shipped network's weights (float32 values in float64 arrays named as in
    :data:`LAYERS`), loaded once.
    Raises :class:`ConfigError` if NumPy is missing or the file does not match :data:`LAYERS`."""
    np_ = _numpy()
    path = resources.files("quadropolis.bots") / "data" / WEIGHTS
    with path.open("rb") as f, np_.load(f) as data:
        weights = {k: data[k].astype(np_.float64) for k in data.files}  # float64: see forward_batch
    return check_weights(weights)


def check_weights(weights: dict[str, Any]) -> dict[str, Any]:
    """``weights`` if it holds exactly the layers of :data:`LAYERS` with their shapes; else
    :class:`ConfigError` naming the first difference."""
    if set(weights) != set(LAYERS):
        raise ConfigError(f"neural weights: expected layers {sorted(LAYERS)}, got {sorted(weights)}")
    for name, shape in LAYERS.items():
        if tuple(weights[name].shape) != shape:
            raise ConfigError(f"neural weights: {name} has shape {weights[name].shape}, expected {shape}")
    return weights


def logits(state: GameState, values: list[tuple[tuple[int, ...], Move]], weights: dict[str, Any]) -> Any:
    """The network's logit for each move of ``values`` (greedy's values of ``state``)."""
    context, rows = raw_inputs(state, values)
    ctx, moves = features(context, rows, [len(values)])
    return forward_batch(ctx, moves, [len(values)], weights)


def forward(ctx: Any, moves: Any, weights: dict[str, Any]) -> Any:
    """The network: ``ctx`` (:data:`CONTEXT_FEATURES` values), ``moves`` (one row of
    :data:`MOVE_FEATURES` per move) -> one logit per move (:func:`forward_batch` of one
    position)."""
    np_ = _numpy()
    return forward_batch(np_.asarray(ctx)[None], moves, [len(moves)], weights)


def forward_batch(ctx: Any, moves: Any, counts: Any, weights: dict[str, Any]) -> Any:
    """The network over ``k`` positions at once: ``ctx`` ``(k, CONTEXT_FEATURES)``, ``moves``
    (the positions' move rows one after another), ``counts`` (rows per position) -> one
    float64 logit per row. Computed in float64 so that a row's logit does not depend on the
    rows beside it (a product's rounding can depend on the shape BLAS is given; in float64
    such differences lie far below any gap between two moves' logits): one position alone
    and the same position among a batch get the same move."""
    np_ = _numpy()
    w = weights
    h_ctx = np_.maximum(np_.asarray(ctx, np_.float64) @ w["ctx_w"] + w["ctx_b"], 0.0)
    h_rows = np_.repeat(h_ctx, np_.asarray(counts, np_.int64), axis=0)
    x = np_.concatenate([np_.asarray(moves, np_.float64), h_rows], axis=1)
    # The rows go through in blocks of CHUNK: on larger products the BLAS library starts
    # threads, which cost milliseconds on a loaded machine (measured: 90 Expert moves took
    # 7 ms at once, 25 us in blocks). Each row's logit is the same either way (see above).
    out = []
    for lo in range(0, len(x), CHUNK):
        h = np_.maximum(x[lo : lo + CHUNK] @ w["w1"] + w["b1"], 0.0)
        h = np_.maximum(h @ w["w2"] + w["b2"], 0.0)
        out.append((h @ w["w3"] + w["b3"])[:, 0])
    return np_.concatenate(out) if out else np_.zeros(0)


def best_rows(logits: Any, counts: Any) -> Any:
    """Each position's chosen row: the first of its rows with the highest logit (``logits``
    of :func:`forward_batch`, rows one position after another, ``counts`` per position)."""
    np_ = _numpy()
    counts = np_.asarray(counts, np_.int64)
    starts = np_.concatenate([[0], np_.cumsum(counts)[:-1]])
    game = np_.repeat(np_.arange(len(counts)), counts)
    top = np_.maximum.reduceat(logits, starts)[game]
    index = np_.where(logits == top, np_.arange(len(logits)), len(logits))
    return np_.minimum.reduceat(index, starts)


def choose_rows(context: Any, rows: Any, counts: Any) -> Any:
    """The row ``neural`` plays in each of ``k`` positions given by their raw inputs
    (:func:`raw_inputs`: ``context`` ``(k, RAW_CONTEXT)``, ``rows`` one position's after
    another, ``counts`` per position), with the shipped weights: one forward pass for them
    all, each position getting the move :class:`NeuralBot` plays there."""
    ctx, moves = features(context, rows, counts)
    return best_rows(forward_batch(ctx, moves, counts, load_weights()), counts)


class NeuralBot(Bot):
    """The learned bot (see the module docstring). Raises :class:`ConfigError` when built
    without NumPy or with a weights file that does not match :data:`LAYERS`."""

    name = "neural"

    def __init__(self) -> None:
        self._weights = load_weights()
        self._greedy = GreedyBot()

    def choose(self, state: GameState, rng: random.Random) -> Move:
        values = self._greedy.values(state)
        scores = logits(state, values, self._weights)
        return values[int(best_rows(scores, [len(values)])[0])][1]


__all__ = [
    "CONTEXT_FEATURES",
    "LAYERS",
    "MOVE_FEATURES",
    "RAW_CONTEXT",
    "RAW_MOVE",
    "NeuralBot",
    "best_rows",
    "check_weights",
    "choose_rows",
    "context_features",
    "features",
    "forward",
    "forward_batch",
    "load_weights",
    "logits",
    "move_features",
    "raw_inputs",
]
