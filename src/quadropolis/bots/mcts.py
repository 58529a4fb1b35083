"""Monte Carlo tree search that treats the tiles of future rounds honestly.

* **Determinisation at round boundaries.** The bot sees an observation whose seed is hidden
  (:func:`~quadropolis.bots.base.observe`). Within the current round nothing is hidden that
  matters, so the tree covers the rest of the current round exactly; every iteration draws a
  fresh seed, i.e. a fresh sample of the layouts of the rounds to come, and the rollout plays
  through them. Nodes are never expanded past the round boundary, so no statistic mixes two
  different layouts of the same round.
* **Max^n UCT.** Each node stores a reward per player; the player to move at a node picks
  the child maximising its own mean reward plus the UCB exploration term.
* **Pruning and progressive widening.** Children come from
  :func:`~quadropolis.bots.policy.ordered_moves` (duplicates pruned, best-first by a cheap
  prior); a node with ``n`` visits may have ``ceil(pw_c * n ** pw_alpha)`` children.
* **Progressive bias at the root** (``bias`` > 0; off in the levels, where it measured no
  gain): every root move gets
  ``greedy``'s value (the mover's projected final score after it, exact scoring, R12;
  :func:`greedy_prior`), the root's children are ordered by it, and a move worse than the
  best by ``d`` VP starts with a handicap ``bias * d / MARGIN_SCALE`` on its selection value
  that fades as ``1 / (visits + 1)``: the search spends its few visits per take on the
  moves the exact scorer likes (monuments by parks, harbor runs, office groups), unless
  its rollouts show better.
* **Rollouts** use :func:`~quadropolis.bots.policy.rollout_move`. By default in Classic
  they play to the end of the game and are scored exactly (the levels cut them at a horizon
  in both modes, see :mod:`quadropolis.bots.levels`). In Expert they stop after a *horizon* of a few
  actions per player and the leaf is evaluated with the exact scorer applied to every city
  as it stands (:func:`reward`): Expert games are a quarter longer, the cheap rollout policy
  misplays monuments, office towers and harbors, and a whole random future buries the
  difference between two moves under noise. Measured in the arena against ``greedy``
  (600 iterations): 2-player, 40 games: full rollouts 48% (100 games), horizon 3 actions per
  player 75%, 6 per player 77.5%, 12 per player 65%; 4-player against three ``greedy``, 24
  games: 3 per player 37.5%, 6 per player 41.7%.
  The reward mixes the win share with the score margin.
* **Root parallelism.** With ``trees > 1`` independent trees (distinct seeds drawn from the
  bot's RNG, the iteration budget shared equally) are searched and their root visit counts
  summed; ``workers`` processes run them at once, or one process runs them one after
  another. With an iteration budget the move depends only on the state, the RNG and
  ``trees``, never on ``workers`` or timing: the arena and the server (one process) play
  exactly the moves the terminal (two processes) plays.
* **Two implementations, one search.** With the compiled engine selected
  (:func:`quadropolis.engine.current`) or pinned (``engine="native"``), each tree is searched
  in C++ (``native/src/bots/search.cpp``, docs/native.md): the same algorithm, options, prior and
  random draws, so for a seed it returns the very visit counts this module's Python search
  returns (tested), 23 to 36 times faster (docs/performance.md); its trees run in threads
  (the search releases the GIL). ``engine="python"`` pins this module's search on the
  pure-Python engine, so the two can meet in one arena.
"""

from __future__ import annotations

import math
import os
import random
import time
import weakref
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from types import ModuleType
from typing import Any, Final

from ..engine import pinned, using
from ..moves import Move
from ..outcome import fed_score, outcome
from ..rules import apply_unchecked, legal_moves
from ..scoring import CityScore
from ..state import OVER, PLACE, GameState
from ..tiles import Mode
from .base import Bot, determinize
from .options import DEFAULT_CREDIT, DEFAULT_OPTIONS, SearchOptions
from .policy import ordered_moves, rollout_move
from .simple import GreedyBot

MARGIN_SCALE: Final = 15.0
#: Rollout actions per player (takes and builds; a rollout is ``horizon * players`` actions)
#: after the tree before the leaf is evaluated, by mode when a bot does not set it; 0 plays
#: to the end of the game. Plain ``mcts`` keeps whole Classic rollouts (its measured
#: history); the difficulty levels set 6 in both modes (:mod:`quadropolis.bots.levels`,
#: docs/bots.md, "Difficulty levels": stronger and cheaper in Classic too).
DEFAULT_HORIZON: Final = {Mode.CLASSIC: 0, Mode.EXPERT: 6}


class Node:
    __slots__ = ("children", "moves", "n", "player", "w")

    def __init__(self, player: int, players: int) -> None:
        self.player = player
        self.moves: list[Move] | None = None  # candidate moves, computed on first expansion
        self.children: list[tuple[Move, Node]] = []
        self.n = 0
        self.w = [0.0] * players


def evaluate(
    state: GameState, credit: float = DEFAULT_CREDIT, fed: float = 0.0
) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """(value per player, winners) of a finished or truncated game. A finished game is valued
    by its outcome (exact optimal scores, R12; winners by R13, ties shared). A truncated one
    by :func:`leaf_value` of each city; the best value wins there."""
    out = outcome(state)
    if state.phase == OVER:
        return tuple(float(t) for t in out.totals), out.winners
    values = tuple(leaf_value(state, p, s, credit, fed) for p, s in enumerate(out.scores))
    top = max(values)
    return values, tuple(p for p, v in enumerate(values) if v == top)


def leaf_value(state: GameState, player: int, score: CityScore, credit: float, fed: float) -> float:
    """A truncated leaf's value of ``player``'s city, whose exact optimal score as it stands is
    ``score``: that total plus ``credit`` VP per unused inhabitant or energy unit
    (:data:`DEFAULT_CREDIT`); with ``fed`` (0 to 1) > 0, that blended with the city's
    :func:`~quadropolis.outcome.fed_score` (what its buildings are worth once fed), weight
    ``fed`` on the latter. The native search computes the very same doubles."""
    now = score.total + credit * (score.placement.unused_inhabitants + score.placement.unused_energy)
    if fed <= 0:
        return now
    return (1.0 - fed) * now + fed * fed_score(state, player)


def margin(values: tuple[float, ...], player: int) -> float:
    """``player``'s value less the best other player's (VP): what :func:`reward` squashes
    and the root statistics sum."""
    return values[player] - max(v for i, v in enumerate(values) if i != player)


def reward(state: GameState, credit: float = DEFAULT_CREDIT, fed: float = 0.0) -> list[float]:
    """Per-player reward of a finished or truncated game (:func:`evaluate`): half the win
    share, half a squashed :func:`margin` against the best other player."""
    values, winners = evaluate(state, credit, fed)
    share = 1.0 / len(winners)
    res = []
    for p in range(len(values)):
        win = share if p in winners else 0.0
        res.append(0.5 * win + 0.25 * (1.0 + math.tanh(margin(values, p) / MARGIN_SCALE)))
    return res


def search(
    root_state: GameState,
    seed: int,
    iterations: int | None,
    deadline: float | None,
    options: SearchOptions = DEFAULT_OPTIONS,
    *,
    root_stats: dict[str, list[float]] | None = None,
    root_prior: dict[Move, float] | None = None,
    engine: str | None = None,
) -> dict[str, int]:
    """Run one tree tuned by ``options`` (:class:`~quadropolis.bots.options.SearchOptions`);
    returns visit counts of the root's children by move notation.
    ``engine``: ``"native"`` or ``"python"`` pins the implementation (the Python one then
    runs on the pure-Python engine); None follows the selected engine. The native search
    derives ``root_prior`` itself (:func:`greedy_prior`, natively) when ``options.bias`` > 0.
    ``options.horizon``: rollout actions per player before a leaf is evaluated (0: to the end
    of the game; ``None``: :data:`DEFAULT_HORIZON` of the mode); ``credit`` and ``fed``: see
    :func:`leaf_value`; ``greed``: how often a rollout's take is the best by the prior
    (:func:`~quadropolis.bots.policy.rollout_move`).
    ``root_stats``, when given, receives per root move ``[visits, win share sum, value sum,
    margin sum]`` for the player to move at the root (the margin: its value less the best
    other player's, :func:`margin`; what the analysis and the review show); the search is
    the same.
    ``root_prior`` (a value in VP per root move, the best 0, the others below; by default
    :func:`greedy_prior` when ``bias`` > 0) orders the root's children and, with ``bias``
    > 0, adds the progressive bias
    ``bias * prior / (MARGIN_SCALE * (visits + 1))`` to their selection value: a move the
    prior finds worse needs evidence to be tried often, and the bias fades as it gets it."""
    native = pinned(engine)
    if native is not None:
        try:
            ns = native.to_native(root_state)
        except ValueError:  # a hand-built state the compiled engine refuses: Python searches it
            ns = None
        if ns is not None:
            return _search_native(native, ns, seed, iterations, deadline, options, root_stats)
    if root_prior is None and options.bias > 0:
        root_prior = greedy_prior(root_state)
    if engine is None:
        return _search_python(root_state, seed, iterations, deadline, options, root_stats, root_prior)
    with using("python"):
        return _search_python(root_state, seed, iterations, deadline, options, root_stats, root_prior)


def _search_native(
    native: ModuleType,
    ns: Any,
    seed: int,
    iterations: int | None,
    deadline: float | None,
    options: SearchOptions,
    root_stats: dict[str, list[float]] | None,
) -> dict[str, int]:
    """:func:`search` by the compiled engine from the native state ``ns``."""
    seconds = None if deadline is None else max(0.0, deadline - time.perf_counter())
    found = native.search_native(ns, seed, iterations, seconds, options)
    if root_stats is not None:
        for move, visits, wins, value, margins in found:
            root_stats[str(move)] = [float(visits), wins, value, margins]
    return {str(move): visits for move, visits, *_ in found}


def _search_python(
    root_state: GameState,
    seed: int,
    iterations: int | None,
    deadline: float | None,
    options: SearchOptions,
    root_stats: dict[str, list[float]] | None,
    root_prior: dict[Move, float] | None,
) -> dict[str, int]:
    """:func:`search` in Python."""
    c, pw_c, pw_alpha, bias = options.c, options.pw_c, options.pw_alpha, options.bias
    credit, fed, greed = options.credit, options.fed, options.greed
    rng = random.Random(seed)
    players = root_state.config.players
    rollout_steps = _rollout_steps(root_state, options.horizon)
    root = Node(root_state.current_player, players)
    root_round = root_state.round
    bias_of = None if root_prior is None or bias <= 0 else _bias_table(root_prior, bias)
    done = 0
    while not _stop(root, done, iterations, deadline):
        done += 1
        s = determinize(root_state, rng)
        node = root
        path = [root]
        while s.phase != OVER and s.round == root_round:
            if node.moves is None:
                node.moves = ordered_moves(s)
                if node is root and root_prior is not None:
                    node.moves.sort(key=lambda m: -root_prior.get(m, 0.0))  # stable: prior first
            allowed = min(len(node.moves), math.ceil(pw_c * (node.n + 1) ** pw_alpha))
            if len(node.children) < allowed:
                m = node.moves[len(node.children)]
                apply_unchecked(s, m)
                child = Node(s.current_player, players)
                node.children.append((m, child))
                path.append(child)
                break
            p = node.player
            log_n = math.log(node.n + 1)
            best_v = -1e18
            best: tuple[Move, Node] = node.children[0]
            biased = node is root and bias_of is not None
            for pair in node.children:
                ch = pair[1]
                v = ch.w[p] / ch.n + c * math.sqrt(log_n / ch.n) if ch.n else 1e9
                if biased:
                    v += bias_of[pair[0]] / (ch.n + 1)  # type: ignore[index]
                if v > best_v:
                    best_v, best = v, pair
            apply_unchecked(s, best[0])
            node = best[1]
            path.append(node)
        steps = rollout_steps
        while s.phase != OVER and steps > 0:
            apply_unchecked(s, rollout_move(s, rng, greed=greed))
            steps -= 1
        while s.phase == PLACE:  # a building in hand is built (or discarded) before evaluation
            apply_unchecked(s, rollout_move(s, rng, greed=greed))
        r = reward(s, credit, fed)
        if root_stats is not None and len(path) > 1:
            _record_root(root_stats, root, path[1], s, credit, fed)
        for nd in path:
            nd.n += 1
            w = nd.w
            for i in range(players):
                w[i] += r[i]
    return {str(m): ch.n for m, ch in root.children}


def _rollout_steps(state: GameState, horizon: int | None) -> int:
    """Rollout actions after the tree: ``horizon`` per player (``None``: the mode's
    :data:`DEFAULT_HORIZON`); a rollout ends at the horizon, or earlier at the end of the game
    (0: only there)."""
    if horizon is None:
        horizon = DEFAULT_HORIZON[state.config.mode]
    return horizon * state.config.players if horizon > 0 else 1 << 30


def _bias_table(root_prior: dict[Move, float], bias: float) -> dict[Move, float]:
    """The progressive bias of each root move at its first visit (see :func:`search`)."""
    return {m: bias * v / MARGIN_SCALE for m, v in root_prior.items()}


def _stop(root: Node, done: int, iterations: int | None, deadline: float | None) -> bool:
    """Whether the search ends after ``done`` iterations: the budget is spent, or the most
    visited root child cannot be overtaken by the iterations left (checked every 64
    iterations from a quarter of the budget on; counts only, so deterministic), or the
    deadline has passed (after one iteration at least)."""
    if iterations is not None:
        if done >= iterations:
            return True
        if done & 63 == 0 and len(root.children) > 1 and done >= iterations // 4:
            first, second = sorted((ch.n for _, ch in root.children), reverse=True)[:2]
            if first - second > iterations - done:
                return True
    return deadline is not None and done > 0 and time.perf_counter() >= deadline


def _record_root(
    stats: dict[str, list[float]], root: Node, child: Node, leaf: GameState, credit: float, fed: float
) -> None:
    """Add one iteration's outcome, as the root player sees it, to ``stats`` of its move."""
    move = next(str(m) for m, ch in root.children if ch is child)
    values, winners = evaluate(leaf, credit, fed)
    me = root.player
    entry = stats.setdefault(move, [0.0, 0.0, 0.0, 0.0])
    entry[0] += 1
    entry[1] += 1.0 / len(winners) if me in winners else 0.0
    entry[2] += values[me]
    entry[3] += margin(values, me)


def greedy_prior(state: GameState) -> dict[Move, float]:
    """Each legal move's projected final score of the mover's own city (exact optimal
    scoring, R12; a take valued by the best build of what it takes: ``greedy``'s value),
    minus the best one's: 0 for greedy's choices, negative for the others."""
    scored = GreedyBot().values(state)
    best = max(v[0] for v, _ in scored)
    return {m: float(v[0] - best) for v, m in scored}


def _search_job(
    args: tuple[GameState, int, int | None, float | None, SearchOptions, str | None],
) -> dict[str, int]:
    state, seed, iterations, deadline, options, engine = args
    return search(state, seed, iterations, deadline, options, engine=engine)


class MCTSBot(Bot):
    """Determinised max^n MCTS. Give ``iterations`` (deterministic) or ``seconds`` per move
    (or both: whichever ends first). ``trees`` root-parallel trees share the budget;
    ``workers`` > 1 searches them in that many processes at once (same moves, less waiting).
    ``options``: the search's tuning (:class:`~quadropolis.bots.options.SearchOptions`: by
    default plain ``mcts``'s, the mode's :data:`DEFAULT_HORIZON`); ``engine``: ``"native"``
    or ``"python"`` pins the search's implementation (see :func:`search`); None follows the
    selected engine. Native trees searched at once run in threads, Python ones in processes.

    A bot searching with ``workers`` > 1 keeps its pool of workers between moves: :meth:`close`
    (or leaving a ``with`` block) shuts it down; one never closed is shut down when the bot is
    collected."""

    def __init__(
        self,
        iterations: int | None = 1000,
        seconds: float | None = None,
        workers: int = 1,
        options: SearchOptions = DEFAULT_OPTIONS,
        name: str = "mcts",
        place_fraction: float = 0.35,
        trees: int | None = None,
        engine: str | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("MCTSBot needs an iteration or a time budget")
        self.iterations = iterations
        self.seconds = seconds
        self.workers = max(1, workers)
        self.trees = max(1, trees if trees is not None else workers)
        self.options = options
        self.name = name
        self.place_fraction = place_fraction
        self.engine = engine
        self._pool: Executor | None = None
        self._shutdown: weakref.finalize[..., MCTSBot] | None = None

    def choose(self, state: GameState, rng: random.Random) -> Move:
        moves = legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        # A build-or-discard decision has few options (about 8): a fraction of the budget
        # finds it as reliably as the whole budget does for a take (about 40 options).
        fraction = self.place_fraction if state.phase == PLACE else 1.0
        iterations = None if self.iterations is None else max(1, round(self.iterations * fraction))
        per = None if iterations is None else max(1, iterations // self.trees)
        seconds = None if self.seconds is None else self.seconds * fraction
        seeds = [rng.getrandbits(62) for _ in range(self.trees)]
        counts: dict[str, int] = {}
        for part in self._search_trees(state, seeds, per, seconds):
            for k, v in part.items():
                counts[k] = counts.get(k, 0) + v
        # most visits; ties go to the earlier move in the legal order (deterministic)
        order = {str(m): i for i, m in enumerate(moves)}
        best = max(counts, key=lambda k: (counts[k], -order[k]))
        return Move.parse(best)

    def _search_trees(
        self, state: GameState, seeds: list[int], per: int | None, seconds: float | None
    ) -> list[dict[str, int]]:
        """Root visit counts of one tree per seed: in parallel (threads for the native search,
        processes for the Python one) when ``workers`` > 1 (each may use all of ``seconds``),
        else one after another (each its share of it)."""
        start = time.perf_counter()
        native = pinned(self.engine)
        options, engine = self.options, self.engine
        if self.workers == 1 or len(seeds) == 1:
            share = None if seconds is None else seconds / len(seeds)
            return [
                search(
                    state, s, per, None if share is None else start + share * (i + 1), options, engine=engine
                )
                for i, s in enumerate(seeds)
            ]
        # The native search releases the GIL: threads run its trees at once.
        kind = ThreadPoolExecutor if native is not None else ProcessPoolExecutor
        pool = self._pool
        if not isinstance(pool, kind):  # none yet, or the selected engine changed
            self.close()
            pool = self._pool = kind(min(self.workers, len(seeds), os.cpu_count() or 1))
            # The finalizer holds the pool, not the bot: a bot dropped unclosed is collected
            # and its pool shut down then.
            self._shutdown = weakref.finalize(self, pool.shutdown)
        deadline = None if seconds is None else start + seconds
        jobs = [(state, s, per, deadline, options, engine) for s in seeds]
        return list(pool.map(_search_job, jobs))

    def close(self) -> None:
        """Shut down the pool of workers, if any (the bot can still search: a new pool is
        made when one is needed)."""
        if self._shutdown is not None:
            self._shutdown()  # runs pool.shutdown() once and detaches the finalizer
            self._shutdown = None
        self._pool = None

    def __enter__(self) -> MCTSBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
