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
about a millisecond (README, "Difficulty levels").
"""

from __future__ import annotations

import random
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from ..buildings import KINDS
from ..errors import ConfigError
from ..moves import MOVES, Build, Discard, Move, Take, move_number
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
#: Rows of moves per matrix product in :func:`forward` (see there).
CHUNK: Final = 32
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


def context_features(state: GameState, n_moves: int) -> list[float]:
    """The position as the mover sees it, scaled to about [-1, 1]: mode, round and turn,
    phase, the mover's and the best opponent's projected VP and their difference, each one's
    inhabitants and energy, the mover's architects still usable (Classic: unused this round;
    Expert: the pool's count of each), whether the mover holds the mayor, the number of legal
    moves, then the pending building's kind (one-hot, PLACE phase only)."""
    p = state.current_player
    players = state.config.players
    expert = state.config.mode is Mode.EXPERT
    own = projected_score(state, p).total
    other = max(projected_score(state, q).total for q in range(players) if q != p)
    rivals = [q for q in range(players) if q != p]
    rich = max(rivals, key=lambda q: state.inhabitants[q] + state.energy[q])
    if expert:
        arch = [state.architects[n] / players for n in range(1, 6)]
    else:
        used = state.architects[p]
        arch = [0.0 if used >> (n - 1) & 1 else 1.0 for n in range(1, 5)] + [0.0]
    ctx = [
        1.0 if expert else 0.0,
        state.round / ROUNDS[state.config.mode],
        state.turn / 4,
        1.0 if state.phase == PLACE else 0.0,
        own / 50,
        other / 50,
        (own - other) / 20,
        state.inhabitants[p] / 10,
        state.energy[p] / 10,
        state.inhabitants[rich] / 10,
        state.energy[rich] / 10,
        *arch,
        1.0 if state.mayor == p else 0.0,
        n_moves / 50,
    ]
    kinds = [0.0] * len(KIND_CODES)
    if state.phase == PLACE and state.pending_tile >= 0:
        kinds[_KIND_INDEX[TILES[state.pending_tile].kind.code]] = 1.0
    return ctx + kinds


def move_features(state: GameState, values: list[tuple[tuple[int, ...], Move]]) -> npt.NDArray[np.float32]:
    """One row of :data:`MOVE_FEATURES` inputs per ``(greedy value, move)`` of ``values``
    (:meth:`GreedyBot.values` of ``state``), in that order: the value's VP, inhabitants
    placed, empty squares (negated), built flag and resources held, each minus the best
    legal move's; whether the move is greedy's choice (its whole value the best); its VP
    gain over the city as it stands; then what the move is (see the module docstring)."""
    np_ = _numpy()
    n = len(values)
    x = np_.zeros((n, MOVE_FEATURES), np_.float32)
    vals = np_.array([v for v, _ in values], np_.float32)
    best = vals.max(axis=0)
    x[:, 0] = (vals[:, 0] - best[0]) / 10
    x[:, 1] = (vals[:, 1] - best[1]) / 5
    x[:, 2] = (vals[:, 2] - best[2]) / 5
    x[:, 3] = vals[:, 3]
    x[:, 4] = (vals[:, 4] - best[4]) / 10
    top = max(v for v, _ in values)
    x[:, 5] = [1.0 if v == top else 0.0 for v, _ in values]
    x[:, 6] = (vals[:, 0] - projected_score(state, state.current_player).total) / 10
    base = 15 + len(KIND_CODES) + 1
    for i, (_, move) in enumerate(values):
        if isinstance(move, Take):
            x[i, 7] = 1.0
            x[i, 10 + move.architect - 1] = 1.0
            q = DESIGNATED[move.slot][move.architect]
            tid = state.site[q]
            if tid < 0 or state.face_down >> q & 1:
                x[i, 15 + len(KIND_CODES)] = 1.0
            else:
                x[i, 15 + _KIND_INDEX[TILES[tid].kind.code]] = 1.0
        elif isinstance(move, Build):
            x[i, 8] = 1.0
        elif isinstance(move, Discard):
            x[i, 9] = 1.0
        x[i, base + move_number(move)] = 1.0
    return x  # type: ignore[no-any-return]


@cache
def load_weights() -> dict[str, Any]:
    """The shipped network's weights (float32 arrays named as in :data:`LAYERS`), loaded once.
    Raises :class:`ConfigError` if NumPy is missing or the file does not match :data:`LAYERS`."""
    np_ = _numpy()
    path = resources.files("quadropolis.bots") / "data" / WEIGHTS
    with path.open("rb") as f, np_.load(f) as data:
        weights = {k: data[k].astype(np_.float32) for k in data.files}
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
    np_ = _numpy()
    ctx = np_.array(context_features(state, len(values)), np_.float32)
    return forward(ctx, move_features(state, values), weights)


def forward(ctx: Any, moves: Any, weights: dict[str, Any]) -> Any:
    """The network: ``ctx`` (:data:`CONTEXT_FEATURES` values), ``moves`` (one row of
    :data:`MOVE_FEATURES` per move) -> one logit per move."""
    np_ = _numpy()
    h_ctx = np_.maximum(ctx @ weights["ctx_w"] + weights["ctx_b"], 0.0)
    # The moves go through in blocks of CHUNK rows: on larger products the BLAS library starts
    # threads, which cost milliseconds on a loaded machine (measured: 90 Expert moves took
    # 7 ms at once, 25 us in blocks). Each row's logit is the same either way.
    out = []
    for lo in range(0, len(moves), CHUNK):
        block = moves[lo : lo + CHUNK]
        x = np_.concatenate([block, np_.broadcast_to(h_ctx, (len(block), h_ctx.shape[0]))], axis=1)
        h = np_.maximum(x @ weights["w1"] + weights["b1"], 0.0)
        h = np_.maximum(h @ weights["w2"] + weights["b2"], 0.0)
        out.append((h @ weights["w3"] + weights["b3"])[:, 0])
    return np_.concatenate(out)


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
        return values[int(scores.argmax())][1]


__all__ = [
    "CONTEXT_FEATURES",
    "LAYERS",
    "MOVE_FEATURES",
    "NeuralBot",
    "check_weights",
    "context_features",
    "forward",
    "load_weights",
    "logits",
    "move_features",
]
