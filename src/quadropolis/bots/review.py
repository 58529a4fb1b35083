"""Post-game review, as chess players know it from lichess: every decision of a game gets the
best move a strong search finds, the mover's win chance, expected VP and expected VP margin
before and after the move played, the loss, and a label; each player an accuracy.

**The search.** Each position is searched by the native MCTS (the Python one with
``QUADROPOLIS_ENGINE=python``: the same search draw for draw) on ``observe(state)`` (the
seed hidden: the review does not know the future layouts either) with a fixed iteration
budget (:data:`REVIEW_ITERATIONS` per take, a third per build, one tree), rollouts as plain
``mcts`` (Classic: to the end of the game, so the win chance is a real one under the rollout
policy; Expert: 6 actions per player, then every city scored exactly) and a seed fixed by
the move's number (:func:`~quadropolis.bots.analysis_seed`): the same record and budget
always give the same review.

**Before and after.** *Before* a move the mover's win chance is the search's value of its
best move (the most visited root move: its mean win share, R13 ties split). *After* it is the
same search's mean for the move played (a take that differs from a searched one only by the
slot used is the same decision, as the search prunes it), when the move played is the best
one or the search gave it at least :func:`min_visits` simulations; otherwise (a move the
search dismissed early) the next position's search says it: the mover's best there when the
mover moves again (a take is followed by the building), one minus the opponent's best in a
2-player game, and the exact result after the last move. The loss is
``max(0, before - after)``: the best move loses 0.

**Expected VP margin** (``margin_before``, ``margin_after``): the same means of the mover's
VP less the best other player's at the search's leaves (the figure the search's reward
squashes, :func:`~quadropolis.bots.mcts.margin`): positive ahead, negative behind. It comes
from the same search as the win chance; after a dismissed move from the next position too
(in a 2-player game the opponent's margin negated; after the last move the exact totals). The
best move's after equals its before. Reviews stored before the margin was reported lack
these two fields; readers treat them as optional.

**Labels** by win-chance loss: ``good`` below 0.05, ``inaccuracy`` from 0.05, ``mistake``
from 0.10, ``blunder`` from 0.20 (:data:`THRESHOLDS`). Lichess uses 0.1 / 0.2 / 0.3 on its
-1..1 winning-chances scale, i.e. 0.05 / 0.10 / 0.15 on our 0..1 scale; the blunder step is
wider here because a sampled estimate is noisier than a chess engine's evaluation.

**Accuracy** of a move: lichess's formula ``103.1668 * exp(-0.04354 * L) - 3.1669`` with
``L`` the loss in percentage points, clipped to 0-100 (100 for the best move, about 80 for a
5-point loss, 40 for 20 points); a player's accuracy is the mean over their decisions that
had a choice (a forced move says nothing of the player)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import ConfigError
from ..moves import Build, Move, Take
from ..outcome import outcome
from ..phases import PLACE
from ..record import GameRecord
from ..rules import apply_unchecked, legal_moves, move_facts, new_game
from ..site import DESIGNATED
from ..state import GameState
from ..tiles import TILES
from .analysis import analysis_seed
from .base import observe
from .mcts import search

#: Simulations per take decision (a build or discard gets :data:`BUILD_FRACTION` of it).
REVIEW_ITERATIONS: Final = 30_000
#: The share of the budget a build-or-discard decision gets (about 8 options, not 40).
BUILD_FRACTION: Final = 1 / 3
#: Labels by win-chance loss, worst first: (label, the smallest loss that earns it).
THRESHOLDS: Final = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
LABELS: Final = ("good", "inaccuracy", "mistake", "blunder")
#: How many moves the review lists as the worst (with a loss of an inaccuracy at least).
WORST: Final = 5


def label_of(loss: float) -> str:
    """The label of a move losing ``loss`` win chance (see :data:`THRESHOLDS`)."""
    for name, threshold in THRESHOLDS:
        if loss >= threshold:
            return name
    return "good"


def move_accuracy(loss: float) -> float:
    """Lichess's accuracy of a move (0-100) from its win-chance loss (0-1)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss * 100) - 3.1669))


def min_visits(iterations: int) -> int:
    """Simulations the move played needs in the search for its mean to be trusted."""
    return max(20, iterations // 100)


def move_words(state: GameState, move: Move) -> str:
    """What ``move`` does in ``state``, in players' words (notation in brackets)."""
    if isinstance(move, Take):
        q = DESIGNATED[move.slot][move.architect]
        tid = state.site[q]
        if tid < 0 or state.face_down >> q & 1:
            what = "takes nothing"
        else:
            what = f"takes a {TILES[tid].kind.type.key.replace('_', ' ')}"
        return f"architect {move.architect} in slot {move.slot_name}: {what} ({move})"
    building = "building"
    if state.phase == PLACE and state.pending_tile >= 0:
        building = TILES[state.pending_tile].kind.type.key.replace("_", " ")
    if isinstance(move, Build):
        return f"builds the {building} on row {move.row}, column {move.col} ({move})"
    return f"discards the {building} ({move})"


@dataclass(frozen=True, slots=True)
class Expected:
    """The mover's expectation after a move: win chance (0-1), score (VP) and margin (VP
    over the best other player; negative: behind)."""

    win: float
    score: float
    margin: float


@dataclass(frozen=True, slots=True)
class PositionSearch:
    """One position searched: per root move ``[visits, win share sum, score sum, margin sum]``
    for the player to move (notation keys), the iterations asked, and whether the move was
    forced."""

    stats: dict[str, list[float]]
    iterations: int
    forced: bool

    def best(self) -> str:
        """The most visited move (ties: the first in the search's order)."""
        return max(self.stats, key=lambda k: self.stats[k][0])

    def mean(self, key: str) -> Expected:
        """What the player to move can expect after root move ``key``."""
        n, wins, value, margin = self.stats[key]
        return Expected(wins / n, value / n, margin / n)


def search_position(state: GameState, index: int, iterations: int = REVIEW_ITERATIONS) -> PositionSearch:
    """Search ``state`` (not over) for the review of its move number ``index`` (0-based):
    deterministic for a given state, index and budget. Runs in the server's workers too."""
    moves = legal_moves(state)
    budget = max(1, round(iterations * (BUILD_FRACTION if state.phase == PLACE else 1.0)))
    stats: dict[str, list[float]] = {}
    search(observe(state), analysis_seed(index, "review"), budget, None, root_stats=stats)
    return PositionSearch(stats, budget, len(moves) == 1)


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One decision reviewed. Win chances and scores are the mover's (``player``, 0-based)."""

    index: int
    player: int
    move: str
    text: str
    best: str
    best_text: str
    win_before: float
    win_after: float
    score_before: float
    score_after: float
    #: Expected VP margin over the best other player (negative: behind).
    margin_before: float
    margin_after: float
    loss: float
    label: str
    forced: bool
    #: What the move played and the best move do, as values (:func:`quadropolis.rules.move_facts`).
    facts: dict[str, str | int]
    best_facts: dict[str, str | int]

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for name in self.__slots__:
            v = getattr(self, name)
            d[name] = round(v, 4) if isinstance(v, float) else v
        return d


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player's accuracy (0-100, see the module) and how many moves got each label."""

    player: int
    accuracy: float
    counts: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "accuracy": round(self.accuracy, 1), "counts": dict(self.counts)}


@dataclass(frozen=True, slots=True)
class Review:
    """A game reviewed: every decision, each player's summary, the worst moves (indexes into
    ``moves``, worst first) and the budget per take."""

    players: int
    iterations: int
    moves: tuple[MoveReview, ...]
    summaries: tuple[PlayerSummary, ...]
    worst: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "quadropolis-review/1",
            "players": self.players,
            "iterations": self.iterations,
            "thresholds": {name: t for name, t in THRESHOLDS},
            "moves": [m.to_json() for m in self.moves],
            "players_summary": [s.to_json() for s in self.summaries],
            "worst": list(self.worst),
            "chart": self.chart(),
            "margin_chart": self.margin_chart(),
        }

    def chart(self) -> list[list[float | None]]:
        """Each seat's win chance before every move (``None`` where the review does not know
        it: another player's move in a game of 3 or 4; in 2 players one minus the mover's)."""
        return [self._row(m.player, m.win_before, 1.0 - m.win_before) for m in self.moves]

    def margin_chart(self) -> list[list[float | None]]:
        """Each seat's expected VP margin before every move, as :meth:`chart` (in 2 players
        the other seat's is the mover's negated)."""
        return [self._row(m.player, m.margin_before, -m.margin_before) for m in self.moves]

    def _row(self, mover: int, value: float, other: float) -> list[float | None]:
        row: list[float | None] = [None] * self.players
        row[mover] = round(value, 4)
        if self.players == 2:
            row[1 - mover] = round(other, 4)
        return row


def positions(record: GameRecord) -> list[GameState]:
    """The state before each move of ``record`` and the final one (``len(moves) + 1``).
    Raises :class:`~quadropolis.errors.RecordError` as :func:`quadropolis.record.replay`
    does; :class:`ConfigError` when the game has no move."""
    from ..record import replay

    replay(record)  # every move legal, the result consistent: precise errors
    if not record.moves:
        raise ConfigError("the record has no move to review")
    state = new_game(record.config)
    states = [state.copy()]
    for text in record.moves:
        apply_unchecked(state, Move.parse(text))
        states.append(state.copy())
    return states


def review_record(
    record: GameRecord,
    iterations: int = REVIEW_ITERATIONS,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review every decision of ``record`` (one search per move, ``progress(done, total)``
    after each). Deterministic for a given record and budget."""
    states = positions(record)
    total = len(record.moves)
    searches = []
    for i in range(total):
        searches.append(search_position(states[i], i, iterations))
        if progress is not None:
            progress(i + 1, total)
    return assemble(record, states, searches, iterations)


def assemble(
    record: GameRecord, states: Sequence[GameState], searches: Sequence[PositionSearch], iterations: int
) -> Review:
    """The review from the searches of every position (see the module for before/after)."""
    reviews = tuple(_review_move(record, states, searches, i) for i in range(len(searches)))
    players = record.config.players
    summaries = tuple(_summary(p, reviews) for p in range(players))
    bad = [r for r in reviews if r.label != "good"]
    worst = tuple(r.index for r in sorted(bad, key=lambda r: (-r.loss, r.index))[:WORST])
    return Review(players, iterations, reviews, summaries, worst)


def _review_move(
    record: GameRecord, states: Sequence[GameState], searches: Sequence[PositionSearch], i: int
) -> MoveReview:
    state, found = states[i], searches[i]
    move = Move.parse(record.moves[i])
    best = found.best()
    before = found.mean(best)
    key = _searched_as(state, move, found.stats)
    if key is not None and (key == best or found.stats[key][0] >= min_visits(found.iterations)):
        after = found.mean(key)
    else:
        after = _after(states, searches, i, key)
    loss = 0.0 if key == best else max(0.0, before.win - after.win)
    return MoveReview(
        index=i,
        player=state.current_player,
        move=str(move),
        text=move_words(state, move),
        best=best,
        best_text=move_words(state, Move.parse(best)),
        win_before=before.win,
        win_after=after.win,
        score_before=before.score,
        score_after=after.score,
        margin_before=before.margin,
        margin_after=after.margin,
        loss=loss,
        label=label_of(loss),
        forced=found.forced,
        facts=move_facts(state, move),
        best_facts=move_facts(state, Move.parse(best)),
    )


def _searched_as(state: GameState, move: Move, stats: dict[str, list[float]]) -> str | None:
    """The root move of the search standing for ``move``: itself, or a take with the same
    architect designating the same square (or taking nothing), which the search merges."""
    if str(move) in stats:
        return str(move)
    if not isinstance(move, Take):
        return None
    want = _take_key(state, move)
    for key in stats:
        other = Move.parse(key)
        if isinstance(other, Take) and _take_key(state, other) == want:
            return key
    return None


def _take_key(state: GameState, take: Take) -> tuple[int, int]:
    q = DESIGNATED[take.slot][take.architect]
    empty = state.site[q] < 0 or state.face_down >> q & 1
    return (-1 if empty else q, take.architect)


def _after(
    states: Sequence[GameState], searches: Sequence[PositionSearch], i: int, key: str | None
) -> Expected:
    """The mover's expectation after move ``i`` when its own search gave it too few
    simulations: from the next position (see the module)."""
    mover = states[i].current_player
    nxt = states[i + 1]
    own = searches[i].mean(key if key is not None else searches[i].best())
    if nxt.is_over:
        out = outcome(nxt)
        share = 1.0 / len(out.winners) if mover in out.winners else 0.0
        best_other = max(t for p, t in enumerate(out.totals) if p != mover)
        return Expected(share, float(out.totals[mover]), float(out.totals[mover] - best_other))
    if i + 1 >= len(searches):  # a record stopped mid-game: its own search only
        return own
    later = searches[i + 1]
    there = later.mean(later.best())
    if nxt.current_player == mover:
        return there
    if nxt.config.players == 2:  # the opponent's chance and margin are the mover's, mirrored
        return Expected(1.0 - there.win, own.score, -there.margin)
    return own


def _summary(player: int, reviews: Sequence[MoveReview]) -> PlayerSummary:
    own = [r for r in reviews if r.player == player]
    counts = {name: sum(1 for r in own if r.label == name) for name in LABELS}
    chosen = [move_accuracy(r.loss) for r in own if not r.forced]
    accuracy = sum(chosen) / len(chosen) if chosen else 100.0
    return PlayerSummary(player, accuracy, counts)
