"""``quadropolis review RECORD [--game N] [--json] [--budget N]``: the post-game review of a
record (:func:`quadropolis.bots.review_record`), as text (a sparkline of each player's win
chance, accuracy, the worst moves with the best move instead) or as JSON."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TextIO

from ..bots import REVIEW_ITERATIONS, Review, review_record
from ..errors import QuadropolisError
from ..record import GameRecord
from .commands import name_players, seat_names, select_game
from .io import read_documents
from .options import CliError, clip, positive_int

#: The most simulations per take the command accepts (a review then takes hours).
MAX_BUDGET: Final = 1_000_000
#: Sparkline blocks, lowest first: a win chance of 0 to 1 in eight steps.
BLOCKS: Final = "▁▂▃▄▅▆▇█"
#: The widest sparkline; longer games are sampled evenly.
CHART_WIDTH: Final = 64


def add_review(sub: argparse._SubParsersAction[Any], command: Callable[..., argparse.ArgumentParser]) -> None:
    """Register ``quadropolis review`` (``command`` makes a subcommand's parser)."""
    r = command(
        sub,
        "review",
        help="review a game move by move: win chances, mistakes, accuracy",
        description=(
            "Review a game record (quadropolis-game/1) as chess players know it from lichess: every "
            "decision is searched by the native MCTS with a fixed budget (the same review every "
            "time), giving the best move, the mover's win chance before and after the move played, "
            "the loss and a label: inaccuracy (loss of 0.05 win chance or more), mistake (0.10), "
            "blunder (0.20). Prints each player's win chance as a sparkline, accuracy (lichess's "
            "formula) and the worst moves with the best move instead. A progress bar goes to "
            "stderr when it is a terminal."
        ),
    )
    r.add_argument("file", metavar="RECORD")
    r.add_argument(
        "--game", type=positive_int, metavar="N", help="the game to review in a file of JSON Lines (from 1)"
    )
    r.add_argument("--json", action="store_true", help="print the review as one JSON object")
    r.add_argument(
        "--budget",
        type=positive_int,
        default=REVIEW_ITERATIONS,
        metavar="N",
        help=f"search simulations per take (a third per build; default {REVIEW_ITERATIONS:,}, "
        f"at most {MAX_BUDGET:,})",
    )
    r.set_defaults(func=cmd_review)


def cmd_review(args: argparse.Namespace, out: TextIO) -> int:
    if args.budget > MAX_BUDGET:
        raise CliError(f"--budget {args.budget} is too large (at most {MAX_BUDGET:,})")
    doc, _ = select_game(read_documents(args.file), args.game, clip(args.file))
    try:
        record = GameRecord.from_json(doc.value())
    except QuadropolisError as e:
        raise CliError(f"{doc.where}: {e}") from None
    names = seat_names(record)
    bar = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    try:
        review = review_record(record, args.budget, None if bar is None else bar.update)
    except QuadropolisError as e:
        raise CliError(f"{doc.where}: {name_players(str(e), names)}") from None
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        out.write(json.dumps({**review.to_json(), "names": names}, separators=(",", ":")) + "\n")
    else:
        out.write(render_review(review, names))
    return 0


class ProgressBar:
    """``Reviewing [######------] 24/48 moves  12s`` redrawn in place on ``stream``."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.start = time.monotonic()

    def update(self, done: int, total: int) -> None:
        self.stream.write("\r" + progress_line(done, total, time.monotonic() - self.start))
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def progress_line(done: int, total: int, seconds: float, width: int = 30) -> str:
    """One progress line: a bar of ``width`` cells, the count of moves and the time spent."""
    filled = width * done // max(1, total)
    return f"Reviewing [{'#' * filled}{'-' * (width - filled)}] {done}/{total} moves  {seconds:.0f}s"


def sparkline(values: Sequence[float | None]) -> str:
    """A win chance (0-1) per position as blocks; an unknown value repeats the last known one
    (a space before the first), sampled evenly down to :data:`CHART_WIDTH` characters."""
    filled: list[float | None] = []
    last: float | None = None
    for v in values:
        last = v if v is not None else last
        filled.append(last)
    if len(filled) > CHART_WIDTH:
        step = len(filled) / CHART_WIDTH
        filled = [filled[int(i * step)] for i in range(CHART_WIDTH)]
    return "".join(" " if v is None else BLOCKS[min(7, int(v * 8))] for v in filled)


def render_review(review: Review, names: Sequence[str]) -> str:
    """The text review: chart, accuracy per player, the worst moves."""
    width = max(len(n) for n in names)
    chart = review.chart()
    lines = [
        f"Review: {len(review.moves)} moves, {review.iterations:,} search simulations per take",
        "",
        "Win chance before each move (low ▁ to high █):",
    ]
    for p, name in enumerate(names):
        lines.append(f"  {name:<{width}}  {sparkline([row[p] for row in chart])}")
    lines += ["", "Accuracy (100: always the best move found):"]
    for s in review.summaries:
        counts = ", ".join(f"{k} {s.counts[k]}" for k in s.counts)
        lines.append(f"  {names[s.player]:<{width}}  {s.accuracy:5.1f}%   {counts}")
    lines += ["", "Worst moves:" if review.worst else "Worst moves: none (no inaccuracy)"]
    for i in review.worst:
        m = review.moves[i]
        lines.append(
            f"  move {m.index + 1}, {names[m.player]}: {m.text}: {m.label}, "
            f"win chance {m.win_before:.0%} -> {m.win_after:.0%}, "
            f"{margin_words(m.margin_before)} -> {margin_words(m.margin_after)}; best was {m.best_text}"
        )
    return "\n".join(lines) + "\n"


def margin_words(margin: float) -> str:
    """An expected VP margin in players' words: ``6.2 VP ahead``, ``3.1 VP behind``, ``level``."""
    if round(margin, 1) == 0:
        return "level"
    return f"{abs(margin):.1f} VP {'ahead' if margin > 0 else 'behind'}"


__all__ = ["add_review", "cmd_review", "margin_words", "progress_line", "render_review", "sparkline"]
