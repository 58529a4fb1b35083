"""The arena: tournaments between bots, played in parallel, with statistics.

Library API: :func:`run_tournament` plays the games and returns a :class:`TournamentResult`
(every game's result plus per-entrant statistics, as data); :func:`write_results` saves it
as JSON or CSV and :func:`plot_scores` draws the score distributions. The ``quadropolis
arena`` command (:func:`add_arena_command`) formats them.

**Entrants and seats.** Entrants are the bot specs in the order given (``specs[i]`` is
entrant ``i``). Game ``g`` (0-based) uses seed ``seed + g`` and seats entrant ``i`` in seat
``(i + g) mod N``, so over any multiple of N games every entrant sits in every seat equally
often. Every game is played by :func:`quadropolis.bots.play_match` with fresh bots built
by ``make_bot(spec, workers=1)`` (parallelism is across games), so any game is reproducible
alone and the results do not depend on the backend or the number of jobs (only the
measured thinking times do).

**Backends.** ``"local"`` runs the games in a :class:`~concurrent.futures.ProcessPoolExecutor`
of ``jobs`` processes (in-process when ``jobs == 1``); ``"ray"`` runs each game as a Ray task,
on a local Ray started with ``num_cpus=jobs`` or on an existing cluster (``ray_address``);
Ray is the optional extra ``quadropolis[ray]``.

The statistics (Wilson intervals, the Bradley-Terry rating) are in :mod:`quadropolis.arena_stats`."""

from __future__ import annotations

import argparse
import csv
import dataclasses
import importlib
import io
import json
import logging
import math
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TextIO

from .arena_stats import RATING_ANCHOR, bradley_terry, mean_sd, pairwise_results, wilson_interval
from .bots import BOT_NAMES, LEVELS, make_bot, play_match
from .cli_options import add_variant_options
from .config import GameConfig
from .errors import QuadropolisError
from .record import GameRecord
from .scoring import CATEGORIES
from .tiles import Mode

__all__ = [
    "BACKENDS",
    "ArenaError",
    "EntrantStats",
    "GameResult",
    "ProgressBar",
    "TournamentResult",
    "add_arena_command",
    "entrant_labels",
    "lineup",
    "play_game",
    "plot_scores",
    "run_tournament",
    "write_results",
]

BACKENDS: Final = ("local", "ray")
FORMAT: Final = "quadropolis-arena/1"
RAY_HINT: Final = "pip install 'quadropolis[ray]'"
PLOT_HINT: Final = "pip install 'quadropolis[plot]'"
RATING_METHOD: Final = (
    "Bradley-Terry maximum likelihood on the pairwise results of every game (R13 order; exact ties "
    "count half), one virtual draw between every pair of entrants as prior, Elo scale (400 log10), "
    f"mean {RATING_ANCHOR:g}"
)

#: Progress callback: ``progress(games_done, games_total)``.
Progress = Callable[[int, int], None]


class ArenaError(QuadropolisError):
    """A tournament that cannot be run as asked (wrong number of bots, bad option, missing
    optional dependency, unwritable output)."""


# --------------------------------------------------------------------------- games


def lineup(entrants: int, game: int) -> tuple[int, ...]:
    """Who sits where in game ``game``: ``lineup(N, g)[seat]`` is the entrant in ``seat``.
    Entrant ``i`` sits in seat ``(i + g) mod N``."""
    if entrants < 1:
        raise ValueError("need at least one entrant")
    return tuple((seat - game) % entrants for seat in range(entrants))


def entrant_labels(specs: Sequence[str]) -> list[str]:
    """Names for the entrants: the spec, with ``#2``, ``#3``... appended to repeats."""
    seen: dict[str, int] = {}
    labels: list[str] = []
    for spec in specs:
        s = spec.strip()
        seen[s] = seen.get(s, 0) + 1
        labels.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return labels


@dataclass(frozen=True, slots=True)
class GameResult:
    """One arena game. Per-seat tuples are indexed by seat; ``entrants[seat]`` says who sat
    there. ``record`` is the game record JSON (``quadropolis replay`` replays it)."""

    game: int
    seed: int
    entrants: tuple[int, ...]
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    inhabitants_placed: tuple[int, ...]
    empty_squares: tuple[int, ...]
    breakdowns: tuple[dict[str, int], ...]
    think_time: tuple[float, ...]
    decisions: tuple[int, ...]
    record: dict[str, Any]

    def rank_key(self, seat: int) -> tuple[int, int, int]:
        """R13 order: most VP, most inhabitants placed, fewest empty squares."""
        return (self.scores[seat], self.inhabitants_placed[seat], -self.empty_squares[seat])

    def seat_of(self, entrant: int) -> int:
        return self.entrants.index(entrant)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "entrants": list(self.entrants),
            "bots": list(self.bots),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "breakdowns": [dict(b) for b in self.breakdowns],
            "think_seconds": [round(t, 6) for t in self.think_time],
            "decisions": list(self.decisions),
            "record": self.record,
        }


def play_game(template: GameConfig, specs: Sequence[str], seed: int, game: int) -> GameResult:
    """Play game ``game`` of a tournament (seed ``seed + game``, seats rotated by
    :func:`lineup`) with fresh bots. A pure function of its arguments, apart from timings."""
    n = len(specs)
    seats = lineup(n, game)
    bots_specs = tuple(specs[e].strip() for e in seats)
    config = dataclasses.replace(template, seed=seed + game)
    bots = [make_bot(s, workers=1) for s in bots_specs]
    m = play_match(config, bots)
    out = m.outcome
    record = GameRecord.of_game(config, m.moves, m.final, seats=bots_specs).to_json()
    return GameResult(
        game=game,
        seed=config.seed,
        entrants=seats,
        bots=bots_specs,
        scores=out.totals,
        winners=out.winners,
        inhabitants_placed=tuple(s.inhabitants_placed for s in out.scores),
        empty_squares=tuple(s.empty_squares for s in out.scores),
        breakdowns=tuple({c: int(s.breakdown.get(c, 0)) for c in CATEGORIES} for s in out.scores),
        think_time=m.think_time,
        decisions=m.decisions,
        record=record,
    )


def _play_job(args: tuple[GameConfig, tuple[str, ...], int, int]) -> GameResult:
    return play_game(*args)


def _ignore_sigint() -> None:  # pragma: no cover - runs in worker processes
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --------------------------------------------------------------------------- statistics


@dataclass(frozen=True, slots=True)
class EntrantStats:
    """One entrant's results over the tournament (wins share ties, R13)."""

    entrant: int
    spec: str
    label: str
    games: int
    wins: float
    win_rate: float
    win_rate_ci95: tuple[float, float]
    mean_score: float
    sd_score: float
    category_means: dict[str, float]
    rating: float
    decisions: int
    think_seconds: float

    @property
    def seconds_per_move(self) -> float:
        return self.think_seconds / self.decisions if self.decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "entrant": self.entrant,
            "spec": self.spec,
            "label": self.label,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": list(self.win_rate_ci95),
            "mean_score": self.mean_score,
            "sd_score": self.sd_score,
            "category_means": dict(self.category_means),
            "rating": self.rating,
            "decisions": self.decisions,
            "seconds_per_move": self.seconds_per_move,
        }


def _entrant_stats(specs: Sequence[str], games: Sequence[GameResult]) -> list[EntrantStats]:
    n = len(specs)
    labels = entrant_labels(specs)
    pairs = [r for g in games for r in pairwise_results(g.entrants, [g.rank_key(s) for s in range(n)])]
    ratings = bradley_terry(n, pairs)
    stats: list[EntrantStats] = []
    for e in range(n):
        seats = [(g, g.seat_of(e)) for g in games]
        wins = math.fsum(1 / len(g.winners) for g, s in seats if s in g.winners)
        scores = [float(g.scores[s]) for g, s in seats]
        mean, sd = mean_sd(scores)
        played = len(seats)
        cats = {
            c: (math.fsum(g.breakdowns[s][c] for g, s in seats) / played if played else 0.0)
            for c in CATEGORIES
        }
        stats.append(
            EntrantStats(
                entrant=e,
                spec=specs[e].strip(),
                label=labels[e],
                games=played,
                wins=wins,
                win_rate=wins / played if played else 0.0,
                win_rate_ci95=wilson_interval(min(wins, played), played),
                mean_score=mean,
                sd_score=sd,
                category_means=cats,
                rating=ratings[e],
                decisions=sum(g.decisions[s] for g, s in seats),
                think_seconds=math.fsum(g.think_time[s] for g, s in seats),
            )
        )
    return stats


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """Every game (sorted by game index) and the per-entrant statistics."""

    template: GameConfig
    specs: tuple[str, ...]
    seed: int
    games: tuple[GameResult, ...]
    entrants: tuple[EntrantStats, ...]
    backend: str
    jobs: int
    elapsed: float

    @property
    def labels(self) -> list[str]:
        return [e.label for e in self.entrants]

    @property
    def mean_winning_score(self) -> float:
        return math.fsum(max(g.scores) for g in self.games) / len(self.games) if self.games else 0.0

    def summary_json(self) -> dict[str, Any]:
        return {
            "entrants": [e.to_json() for e in self.entrants],
            "mean_winning_score": self.mean_winning_score,
            "rating_method": RATING_METHOD,
        }

    def to_json(self) -> dict[str, Any]:
        """The whole tournament. Only ``think_seconds``, ``seconds_per_move`` and ``run``
        depend on the machine; everything else is fixed by the arguments."""
        t = self.template
        return {
            "format": FORMAT,
            "tournament": {
                "mode": t.mode.value,
                "players": t.players,
                "variants": t.variants,
                "seed": self.seed,
                "games": len(self.games),
                "entrants": list(self.specs),
                "labels": self.labels,
                "seating": "game g uses seed S+g; entrant i sits in seat (i+g) mod N",
            },
            "games": [g.to_json() for g in self.games],
            "summary": self.summary_json(),
            "run": {"backend": self.backend, "jobs": self.jobs, "elapsed_seconds": round(self.elapsed, 3)},
        }

    def csv_rows(self) -> list[dict[str, Any]]:
        """One row per game × seat (see :data:`CSV_FIELDS`)."""
        labels = self.labels
        rows: list[dict[str, Any]] = []
        for g in self.games:
            for seat, e in enumerate(g.entrants):
                row: dict[str, Any] = {
                    "game": g.game,
                    "seed": g.seed,
                    "seat": seat,
                    "bot": g.bots[seat],
                    "entrant": labels[e],
                    "score": g.scores[seat],
                    "winner": int(seat in g.winners),
                    "win_share": round(1 / len(g.winners), 6) if seat in g.winners else 0,
                }
                row.update(g.breakdowns[seat])
                row["think_seconds"] = round(g.think_time[seat], 6)
                row["decisions"] = g.decisions[seat]
                rows.append(row)
        return rows


CSV_FIELDS: Final = (
    "game",
    "seed",
    "seat",
    "bot",
    "entrant",
    "score",
    "winner",
    "win_share",
    *CATEGORIES,
    "think_seconds",
    "decisions",
)


# --------------------------------------------------------------------------- running


def _import_optional(module: str, hint: str, what: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ArenaError(f"{what} needs {module.split('.')[0]}, which is not installed: {hint}") from None


def _check(template: GameConfig, specs: Sequence[str], games: int, jobs: int, backend: str) -> None:
    if len(specs) != template.players:
        raise ArenaError(
            f"{template.players} players need {template.players} --bot options, got {len(specs)}"
        )
    if games < 1:
        raise ArenaError(f"the number of games must be at least 1, got {games}")
    if jobs < 1:
        raise ArenaError(f"the number of jobs must be at least 1, got {jobs}")
    if backend not in BACKENDS:
        raise ArenaError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    for spec in specs:
        make_bot(spec, workers=1)  # raises ConfigError for an unknown bot or option


def _run_local(
    template: GameConfig, specs: tuple[str, ...], games: int, seed: int, jobs: int, progress: Progress | None
) -> list[GameResult]:
    results: list[GameResult] = []
    if jobs == 1:
        for g in range(games):
            results.append(play_game(template, specs, seed, g))
            if progress is not None:
                progress(len(results), games)
        return results
    pool = ProcessPoolExecutor(max_workers=min(jobs, games), initializer=_ignore_sigint)
    try:
        pending: set[Future[GameResult]] = {
            pool.submit(_play_job, (template, specs, seed, g)) for g in range(games)
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                results.append(f.result())
            if progress is not None:
                progress(len(results), games)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return results


def _run_ray(
    template: GameConfig,
    specs: tuple[str, ...],
    games: int,
    seed: int,
    jobs: int,
    progress: Progress | None,
    address: str | None,
) -> list[GameResult]:
    ray = _import_optional("ray", RAY_HINT, "the ray backend")
    started = False
    if not ray.is_initialized():
        common: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
        try:
            if address:
                ray.init(address=address, **common)
            else:
                ray.init(num_cpus=jobs, include_dashboard=False, **common)
        except Exception as e:  # Ray raises many kinds (ConnectionError, RuntimeError...)
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            where = f"join the Ray cluster at {address}" if address else "start a local Ray"
            raise ArenaError(f"cannot {where}: {first}") from None
        started = True
    try:
        task = ray.remote(num_cpus=1)(play_game)
        refs = [task.remote(template, specs, seed, g) for g in range(games)]
        results: list[GameResult] = []
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    results.append(ray.get(ref))
                except Exception as e:
                    cause = getattr(e, "cause", None)
                    if isinstance(cause, QuadropolisError):
                        raise cause from None
                    raise
            if progress is not None:
                progress(len(results), games)
        return results
    finally:
        if started:
            ray.shutdown()


def run_tournament(
    config_template: GameConfig,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int | None = None,
    backend: str = "local",
    progress: Progress | None = None,
    *,
    ray_address: str | None = None,
) -> TournamentResult:
    """Play ``games`` games between the bots ``specs`` (one per seat of
    ``config_template``, whose seed is ignored): game ``g`` uses seed ``seed + g`` and the
    lineup :func:`lineup` ``(N, g)``. ``jobs`` (default: the number of CPUs) games run at a
    time on ``backend`` (``"local"`` or ``"ray"``); ``progress(done, total)`` is called as
    games finish. Raises :class:`ArenaError` (or :class:`ConfigError` for a bad bot spec)."""
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    specs = tuple(s.strip() for s in specs)
    _check(config_template, specs, games, jobs, backend)
    if ray_address is not None and backend != "ray":
        raise ArenaError("a Ray address needs the ray backend")
    start = time.perf_counter()
    if progress is not None:
        progress(0, games)
    if backend == "ray":
        played = _run_ray(config_template, specs, games, seed, jobs, progress, ray_address)
    else:
        played = _run_local(config_template, specs, games, seed, jobs, progress)
    elapsed = time.perf_counter() - start
    played.sort(key=lambda r: r.game)
    return TournamentResult(
        template=config_template,
        specs=specs,
        seed=seed,
        games=tuple(played),
        entrants=tuple(_entrant_stats(specs, played)),
        backend=backend,
        jobs=jobs,
        elapsed=elapsed,
    )


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
            f"{t.mode.value.capitalize()}, {t.players} players, {len(result.games)} games "
            f"(seeds {result.seed}-{result.seed + len(result.games) - 1})"
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


_CATEGORY_HEADS: Final = {
    "tower_block": "tower",
    "shop": "shop",
    "public_service": "public",
    "park": "park",
    "factory": "factory",
    "harbor": "harbor",
    "office_tower": "office",
    "monument": "monument",
    "unused_inhabitants": "unused",
    "pollution": "pollution",
}


def _table(rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [
            c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


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
        f"(seeds {result.seed}-{result.seed + g - 1}, seats rotated)"
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
    cats = [c for c in CATEGORIES if t.mode is Mode.EXPERT or c not in ("office_tower", "monument")]
    crow = [["mean VP by category", *(_CATEGORY_HEADS.get(c, c) for c in cats)]]
    for e in result.entrants:
        crow.append([e.label, *(f"{e.category_means[c]:.1f}" for c in cats)])
    categories = _table(crow, right=set(range(1, len(cats) + 1)))
    foot = (
        f"Mean winning score: {result.mean_winning_score:.1f} VP. Wins share ties (R13); "
        "95% CI: Wilson score interval; rating: Bradley-Terry fit of the pairwise results "
        f"within each game, Elo scale, mean {RATING_ANCHOR:g}; ms/move: mean thinking time per decision."
    )
    return f"{head}\n\n{main}\n\n{categories}\n\n{foot}\n"


# --------------------------------------------------------------------------- command line

_DESCRIPTION = """\
Play a tournament between bots and report their strength.

Entrants are the --bot options in order (entrant i is the i-th --bot); there must be one per
player, and specs may repeat (repeats are labelled greedy#2, greedy#3...). Game g (0-based)
uses seed S+g and rotates the seats: entrant i sits in seat (i+g) mod N, so when G is a
multiple of N every entrant plays every seat equally often (a warning is printed otherwise).
Every game is played with fresh bots, each bot using one search process (the parallelism is
across games), so every game is reproducible alone and the results are identical whatever
the backend or the number of jobs (only the measured thinking times vary) -- as long as
the bots' budgets are in iterations: a time budget (mcts:seconds=T) is not reproducible.

Printed per entrant: games, wins (shared victories split, R13), win rate with its 95%
Wilson score interval, mean score ± standard deviation, mean VP per scoring category, a
rating and the mean thinking time per decision, then the mean winning score. The rating is a
Bradley-Terry maximum-likelihood fit of the pairwise results within each game (for every
pair of seats the higher-ranked by R13 scores 1, exact ties 1/2; one virtual drawn game per
pair as prior), on the Elo scale (400 points = 10:1 odds) with the ratings averaging 1500.
A progress bar with ETA is shown on stderr (--quiet hides it)."""


def _epilog() -> str:
    levels = "\n".join(f"  {name:<8} {what}" for name, what in LEVELS.items())
    return (
        f"bots: {', '.join(BOT_NAMES)}\n"
        "  random   uniformly random legal moves\n"
        "  greedy   the move giving its own city the best projected final score\n"
        "  mcts     Monte Carlo tree search; options mcts:iterations=N or mcts:seconds=T\n"
        f"{levels}\n"
        "  (in the arena every bot uses 1 search process; workers=... is ignored)\n\n"
        "output (--out): .json keeps every game (seed, bot per seat, scores, winners and the game\n"
        "record, replayable with 'quadropolis replay') and the summary; .csv has one row per\n"
        "game x seat (game, seed, seat, bot, entrant, score, winner, win_share, the VP of each\n"
        "category, think_seconds, decisions).\n\n"
        "example:\n"
        "  quadropolis arena --players 4 --games 400 --seed 1 --bot hard --bot greedy "
        "--bot greedy --bot greedy --out results.json --plot scores.png"
    )


def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return v


def add_arena_command(sub: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    """Register ``quadropolis arena`` on the command line's subparsers."""
    a: argparse.ArgumentParser = sub.add_parser(
        "arena",
        help="play a tournament between bots (parallel, statistics, ratings)",
        description=_DESCRIPTION,
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    a.add_argument(
        "--mode", choices=["classic", "expert"], default="classic", help="game mode (default classic)"
    )
    a.add_argument(
        "--players",
        type=int,
        choices=[2, 3, 4],
        default=None,
        metavar="N",
        help="2, 3 or 4 (default: the number of --bot options, which must equal N)",
    )
    a.add_argument(
        "--games", type=_positive_int, default=100, metavar="G", help="number of games (default 100)"
    )
    a.add_argument("--seed", type=int, default=0, metavar="S", help="game g uses seed S+g (default 0)")
    a.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SPEC",
        help="an entrant, once per player, e.g. hard, greedy, mcts:iterations=500 (see below)",
    )
    a.add_argument(
        "--jobs",
        type=_positive_int,
        default=None,
        metavar="J",
        help=f"games played at a time (default: the number of CPUs, {os.cpu_count() or 1}; 1 = serial)",
    )
    a.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="local: a pool of J processes on this machine (default); ray: one Ray task per game, "
        f"on a local Ray with J CPUs or the cluster at --ray-address (needs {RAY_HINT})",
    )
    a.add_argument(
        "--ray-address",
        metavar="ADDR",
        default=None,
        help="join this Ray cluster (e.g. auto or ray://host:10001) instead of starting a local Ray; "
        "its nodes need quadropolis installed",
    )
    a.add_argument(
        "--out", metavar="FILE", help="save results: FILE.json (every game, replayable) or FILE.csv"
    )
    a.add_argument(
        "--plot",
        metavar="FILE",
        help=f"draw score distributions per entrant (.png/.svg/.pdf; needs {PLOT_HINT})",
    )
    add_variant_options(a)
    a.add_argument("--quiet", action="store_true", help="no progress bar")
    a.set_defaults(func=cmd_arena)
    return a


def cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    """``quadropolis arena``: run, print the tables, save/plot. Errors raise ArenaError."""
    specs: list[str] = list(args.bot)
    if not specs:
        raise ArenaError("no bots: give one --bot SPEC per player")
    players = len(specs) if args.players is None else args.players
    if len(specs) != players:
        raise ArenaError(f"--players {players} needs {players} --bot options, got {len(specs)}")
    if not 2 <= players <= 4:
        raise ArenaError(f"a game has 2 to 4 players: give 2 to 4 --bot options, got {players}")
    if args.ray_address is not None and args.backend != "ray":
        raise ArenaError("--ray-address needs --backend ray")
    template = GameConfig(
        mode=Mode(args.mode),
        players=players,
        seed=args.seed,
        urbanist_blocks=args.urbanist_blocks,
        all_parks_absorb=args.all_parks_absorb,
    )
    jobs: int = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    for spec in specs:
        make_bot(spec, workers=1)
    if args.out:
        output_format(args.out)
        _check_writable(args.out)
    if args.plot:
        if Path(args.plot).suffix.lower() not in PLOT_FORMATS:
            raise ArenaError(f"{args.plot}: plots are written as {', '.join(PLOT_FORMATS)}")
        _load_pyplot()
        _check_writable(args.plot)
    if args.backend == "ray":
        _import_optional("ray", RAY_HINT, "the ray backend")
    if args.games % players:
        print(
            f"quadropolis arena: warning: {args.games} games is not a multiple of {players} players, "
            "so the seats are not perfectly balanced",
            file=sys.stderr,
        )
    bar = None if args.quiet else ProgressBar(sys.stderr)
    result = run_tournament(
        template,
        specs,
        args.games,
        args.seed,
        jobs,
        args.backend,
        bar,
        ray_address=args.ray_address,
    )
    out.write(format_report(result))
    if args.out:
        write_results(result, args.out)
        out.write(f"Results saved to {args.out}\n")
    if args.plot:
        plot_scores(result, args.plot)
        out.write(f"Score plot saved to {args.plot}\n")
    return 0
