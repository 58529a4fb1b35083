"""Arena output: results files (JSON, CSV), score plots, the progress bar and the results table."""

from __future__ import annotations

import csv
import importlib
import io
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TextIO

from ..scoring import CATEGORY_HEADS, mode_categories
from ..stats import RATING_ANCHOR, wilson_interval
from .tournament import CSV_FIELDS, PLOT_HINT, ArenaError, TournamentResult, _import_optional

# --------------------------------------------------------------------------- output


def output_format(path: str) -> str:
    """``"json"`` or ``"csv"`` from the file name, else :class:`ArenaError`."""
    ext = Path(path).suffix.lower()
    if ext not in (".json", ".csv"):
        raise ArenaError(f"{path}: results are written as .json or .csv (got {ext or 'no extension'!r})")
    return ext[1:]


PLOT_FORMATS: Final = (".png", ".svg", ".pdf")


def _check_writable(path: str) -> None:
    """Fail early (before hours of games) when ``path`` cannot be written."""
    p = Path(path)
    existed = p.exists()
    if p.is_dir():
        raise ArenaError(f"{path}: is a directory")
    try:
        with open(p, "a", encoding="utf-8"):
            pass
    except OSError as e:
        raise ArenaError(f"{path}: cannot write ({e.strerror})") from None
    if not existed:
        p.unlink()


def write_results(result: TournamentResult, path: str) -> None:
    """Save the tournament as JSON (every game with its record, and the summary) or CSV
    (one row per game × seat), chosen by the extension of ``path``."""
    fmt = output_format(path)
    buf = io.StringIO()
    if fmt == "json":
        json.dump(result.to_json(), buf, indent=1)
        buf.write("\n")
    else:
        w = csv.DictWriter(buf, fieldnames=list(CSV_FIELDS), lineterminator="\n")
        w.writeheader()
        w.writerows(result.csv_rows())
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(buf.getvalue())
    except OSError as e:
        raise ArenaError(f"{path}: cannot write ({e.strerror})") from None


def _load_pyplot() -> Any:
    mpl = _import_optional("matplotlib", PLOT_HINT, "--plot")
    mpl.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def plot_scores(result: TournamentResult, path: str) -> None:
    """Draw each entrant's score distribution (box plot with the mean, and histograms) to
    ``path`` (.png, .svg or .pdf) with matplotlib's Agg backend."""
    if Path(path).suffix.lower() not in PLOT_FORMATS:
        raise ArenaError(f"{path}: plots are written as {', '.join(PLOT_FORMATS)}")
    plt = _load_pyplot()
    labels = result.labels
    data = [[g.scores[g.seat_of(e)] for g in result.games] for e in range(len(labels))]
    fig, (ax_box, ax_hist) = plt.subplots(1, 2, figsize=(11, 4.5))
    try:
        ax_box.boxplot(data, showmeans=True)
        ax_box.set_xticks(range(1, len(labels) + 1), labels, rotation=20)
        ax_box.set_ylabel("final score (VP)")
        ax_box.set_title("Score per entrant (box: quartiles, triangle: mean)")
        lo = min(min(d) for d in data)
        hi = max(max(d) for d in data)
        bins = list(range(lo, hi + 2, max(1, (hi - lo + 1) // 30 + 1)))
        for label, d in zip(labels, data, strict=True):
            ax_hist.hist(d, bins=bins, histtype="step", linewidth=1.5, label=label)
        ax_hist.set_xlabel("final score (VP)")
        ax_hist.set_ylabel("games")
        ax_hist.yaxis.set_major_locator(
            importlib.import_module("matplotlib.ticker").MaxNLocator(integer=True)
        )
        ax_hist.set_title("Score distribution")
        ax_hist.legend()
        t = result.template
        fig.suptitle(
            f"{t.mode.value.capitalize()}, {t.players} players, {len(result.games)} games ({_seeds(result)})"
        )
        fig.tight_layout()
        try:
            fig.savefig(path)
        except OSError as e:
            raise ArenaError(f"{path}: cannot write ({e.strerror})") from None
    finally:
        plt.close(fig)


def _seconds(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 60 else format_duration(seconds)


def format_duration(seconds: float) -> str:
    """``42s``, ``1m02s``, ``2h05m``."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class ProgressBar:
    """A progress line on ``stream``: ``[#####-----] 120/400 games  1m02s elapsed  ETA 1m35s``,
    redrawn in place (``\\r``) on a terminal at most every ``redraw`` seconds, else printed
    as a plain line every ``every`` seconds and when done."""

    def __init__(
        self,
        stream: TextIO,
        *,
        width: int = 20,
        tty: bool | None = None,
        redraw: float = 0.1,
        every: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.width = width
        self.tty = stream.isatty() if tty is None else tty
        self.redraw = redraw
        self.every = every
        self.clock = clock
        self.start = clock()
        self.last: float | None = None
        self.drawn = 0

    def line(self, done: int, total: int) -> str:
        elapsed = self.clock() - self.start
        filled = self.width * done // total if total else self.width
        eta = format_duration(elapsed / done * (total - done)) if done else "--"
        bar = "#" * filled + "-" * (self.width - filled)
        return f"[{bar}] {done}/{total} games  {format_duration(elapsed)} elapsed  ETA {eta}"

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        final = done >= total
        if self.tty:
            if final or self.last is None or now - self.last >= self.redraw:
                text = self.line(done, total)
                pad = " " * max(0, self.drawn - len(text))  # wipe what a longer line left
                self.drawn = len(text)
                self.stream.write("\r" + text + pad + ("\n" if final else ""))
                self.stream.flush()
                self.last = now
        elif final or (self.last is not None and now - self.last >= self.every):
            self.stream.write(self.line(done, total) + "\n")
            self.stream.flush()
            self.last = now
        elif self.last is None:
            self.last = now


def _table(rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [
            c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _seeds(result: TournamentResult) -> str:
    if result.round_robin:
        last = result.seed + result.games_per_group - 1
        return f"round robin: every group of {result.template.players} plays seeds {result.seed}-{last}"
    return f"seeds {result.seed}-{result.seed + len(result.games) - 1}"


def format_report(result: TournamentResult) -> str:
    """The results tables printed by ``quadropolis arena``."""
    t = result.template
    g = len(result.games)
    variants = [
        *(["urbanist blocks its square"] if t.urbanist_blocks == "square" else []),
        *(["all parks absorb"] if t.all_parks_absorb else []),
    ]
    head = (
        f"Arena: {t.mode.value}, {t.players} players, {g} game{'s' * (g != 1)} "
        f"({_seeds(result)}, seats rotated)"
        + (f", variants: {', '.join(variants)}" if variants else "")
        + f"; {result.backend} backend, {result.jobs} job{'s' * (result.jobs != 1)}, "
        f"{_seconds(result.elapsed)}"
    )
    rows = [["entrant", "games", "wins", "win rate", "95% CI", "score", "± sd", "rating", "ms/move"]]
    for e in result.entrants:
        lo, hi = e.win_rate_ci95
        rows.append(
            [
                e.label,
                str(e.games),
                f"{e.wins:g}" if e.wins == int(e.wins) else f"{e.wins:.2f}",
                f"{e.win_rate:.1%}",
                f"{lo:.1%}-{hi:.1%}",
                f"{e.mean_score:.1f}",
                f"± {e.sd_score:.1f}",
                f"{e.rating:.0f}",
                f"{e.seconds_per_move * 1000:.2f}",
            ]
        )
    main = _table(rows, right={1, 2, 3, 4, 5, 6, 7, 8})
    cats = mode_categories(t.mode)
    crow = [["mean VP by category", *(CATEGORY_HEADS[c] for c in cats)]]
    for e in result.entrants:
        crow.append([e.label, *(f"{e.category_means[c]:.1f}" for c in cats)])
    categories = _table(crow, right=set(range(1, len(cats) + 1)))
    pairs = f"{_head_to_head(result)}\n\n" if len(result.specs) > 2 else ""
    foot = (
        f"Mean winning score: {result.mean_winning_score:.1f} VP. Wins share ties (R13); "
        "95% CI: Wilson score interval; rating: Bradley-Terry fit of the pairwise results "
        f"within each game, Elo scale, mean {RATING_ANCHOR:g}; ms/move: mean thinking time per decision."
    )
    return f"{head}\n\n{main}\n\n{categories}\n\n{pairs}{foot}\n"


def _head_to_head(result: TournamentResult) -> str:
    """Each entrant's score against each other one (row against column), with its 95% CI."""
    labels = result.labels
    rows = [["row's score against column", *labels]]
    for i, row in enumerate(result.head_to_head()):
        cells = [labels[i]]
        for j, (points, n) in enumerate(row):
            if i == j or not n:
                cells.append("-")
                continue
            lo, hi = wilson_interval(points, n)
            cells.append(f"{points / n:.0%} ({lo:.0%}-{hi:.0%}) of {n}")
        rows.append(cells)
    return _table(rows, right=set(range(1, len(labels) + 1)))
