"""The arena: tournaments between bots, played in parallel, with statistics.

Library API: :func:`run_tournament` plays the games and returns a :class:`TournamentResult`
(every game's result plus per-entrant statistics, as data); :mod:`quadropolis.arena.report`
saves it as JSON or CSV, plots score distributions and formats the table, and
:mod:`quadropolis.arena.command` is the ``quadropolis arena`` command.

**Entrants and seats.** Entrants are the bot specs in the order given (``specs[i]`` is
entrant ``i``). Game ``g`` (0-based) uses seed ``seed + g`` and seats entrant ``i`` in seat
``(i + g) mod N``, so over any multiple of N games every entrant sits in every seat equally
often. In a **round robin** there are more entrants than seats: every group of N entrants
(``itertools.combinations`` order) plays ``games`` games, its k-th game with seed
``seed + k`` (every group sees the same layouts) and the group's i-th member in seat
``(i + k) mod N`` (:func:`schedule`). Every game is played by
:func:`quadropolis.bots.play_match` with fresh bots built by :func:`entrant_bot`
(``make_bot(spec, workers=1, trusted=True, time_caps=False)``, or a policy's
``python:module:attribute``) (parallelism is across games; a level's root-parallel trees
are searched one after another, with the same moves as in two processes, and its time cap
is dropped), so any game is reproducible alone and the results do not depend on the
backend, the number of jobs or the load (only the measured thinking times do).

**Backends.** ``"local"`` runs the games in a :class:`~concurrent.futures.ProcessPoolExecutor`
of ``jobs`` processes (in-process when ``jobs == 1``); ``"ray"`` runs each game as a Ray task,
on a local Ray started with ``num_cpus=jobs`` or on an existing cluster (``ray_address``);
Ray is the optional extra ``quadropolis[ray]``.

**Policies as entrants.** A spec ``python:module:attribute`` imports ``module`` and takes its
``attribute`` (dotted for nested ones): a :class:`~quadropolis.bots.Bot` (used as it is), a
``Bot`` subclass (made with no arguments) or anything else taken as an RL policy, a callable
``(observation, action_mask) -> action`` or an object with SB3's ``predict``, played by
``quadropolis.envs.PolicyBot`` on raw observations (put a ``PolicyBot(policy,
normalize=True)`` in the module for a policy trained on normalised ones). The module is
imported again in each worker process: it must be importable there (the command line puts the
working directory first on ``sys.path``, as ``python -m`` does). Only the command line and
the library take such specs; ``make_bot`` never does (a saved record or a network client
cannot make a process import code).

The statistics (Wilson intervals, the Bradley-Terry rating) are in :mod:`quadropolis.stats`
(a core module the RL evaluation shares)."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import logging
import math
import os
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Final

from ..bots import Bot, make_bot, play_match
from ..config import GameConfig
from ..errors import QuadropolisError
from ..record import GameRecord
from ..scoring import CATEGORIES
from ..stats import RATING_ANCHOR, bradley_terry, lineup, mean_sd, pairwise_results, wilson_interval

__all__ = [
    "BACKENDS",
    "PYTHON_SPEC",
    "ArenaError",
    "EntrantStats",
    "Fixture",
    "GameResult",
    "TournamentResult",
    "entrant_bot",
    "entrant_labels",
    "play_game",
    "run_tournament",
    "schedule",
]

BACKENDS: Final = ("local", "ray")
#: The prefix of an entrant imported from Python code: ``python:module:attribute``.
PYTHON_SPEC: Final = "python:"
FORMAT: Final = "quadropolis-arena/1"
RAY_HINT: Final = "pip install 'quadropolis[ray]'"
PLOT_HINT: Final = "pip install 'quadropolis[plot]'"
RATING_METHOD: Final = (
    "Bradley-Terry maximum likelihood on the pairwise results of every game (R13 order; exact ties "
    "count half), one virtual draw between every pair of entrants as prior, Elo scale (400 log10), "
    f"mean {RATING_ANCHOR:g}"
)

SEATING: Final = "game g uses seed S+g; entrant i sits in seat (i+g) mod N"
SEATING_ROUND_ROBIN: Final = (
    "every group of N entrants (combinations order) plays G games; its game k uses seed S+k and "
    "the group's i-th member sits in seat (i+k) mod N"
)

#: Progress callback: ``progress(games_done, games_total)``.
Progress = Callable[[int, int], None]


class ArenaError(QuadropolisError):
    """A tournament that cannot be run as asked (wrong number of bots, bad option, missing
    optional dependency, unwritable output)."""


# --------------------------------------------------------------------------- games


def entrant_bot(spec: str) -> Bot:
    """The bot of an entrant's spec: ``make_bot(spec, workers=1, trusted=True,
    time_caps=False)``, or for ``python:module:attribute`` the attribute as a bot (see the
    module docstring). Raises :class:`ArenaError` for a Python spec that cannot be loaded,
    :class:`~quadropolis.ConfigError` for a bad bot spec."""
    spec = spec.strip()
    if not spec.startswith(PYTHON_SPEC):
        return make_bot(spec, workers=1, trusted=True, time_caps=False)
    module_name, _, attribute = spec[len(PYTHON_SPEC) :].partition(":")
    if not module_name or not attribute:
        raise ArenaError(f"bot {spec!r}: write python:module:attribute, e.g. python:mypolicy:policy")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as e:
        raise ArenaError(
            f"bot {spec!r}: cannot import {module_name} ({e}); is it on the Python path?"
        ) from None
    for name in attribute.split("."):
        try:
            obj = getattr(obj, name)
        except AttributeError:
            raise ArenaError(f"bot {spec!r}: {module_name} has no attribute {attribute}") from None
    if isinstance(obj, type) and issubclass(obj, Bot):
        obj = obj()
    if isinstance(obj, Bot):
        return obj
    from ..envs import PolicyBot  # an RL policy: numpy and the encoder, only when one enters

    return PolicyBot(obj, name=spec)


@dataclass(frozen=True, slots=True)
class Fixture:
    """Game ``game`` of a tournament: seed offset ``offset`` (the game's seed is the
    tournament's plus it) and ``seats[seat]`` = the entrant sitting there."""

    game: int
    offset: int
    seats: tuple[int, ...]


def schedule(entrants: int, players: int, games: int, round_robin: bool = False) -> list[Fixture]:
    """Every game of a tournament. Without ``round_robin`` the entrants are the players and
    game ``g`` has offset ``g`` and :func:`lineup` ``(N, g)``. With it, every group of
    ``players`` entrants plays ``games`` games: offsets ``0..games-1`` and the group's i-th
    member in seat ``(i + k) mod players`` in its k-th game."""
    if not round_robin:
        return [Fixture(g, g, lineup(entrants, g)) for g in range(games)]
    if entrants <= players:
        raise ArenaError(f"a round robin needs more entrants than the {players} seats, got {entrants}")
    fixtures: list[Fixture] = []
    for group in itertools.combinations(range(entrants), players):
        for k in range(games):
            seats = tuple(group[i] for i in lineup(players, k))
            fixtures.append(Fixture(len(fixtures), k, seats))
    return fixtures


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
    ranks: tuple[int, ...]
    breakdowns: tuple[dict[str, int], ...]
    think_time: tuple[float, ...]
    decisions: tuple[int, ...]
    record: dict[str, Any]

    def rank_key(self, seat: int) -> tuple[int]:
        """Higher is better: the seat's place by R13 (the outcome's ``ranks``), negated."""
        return (-self.ranks[seat],)

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
            "ranks": list(self.ranks),
            "breakdowns": [dict(b) for b in self.breakdowns],
            "think_seconds": [round(t, 6) for t in self.think_time],
            "decisions": list(self.decisions),
            "record": self.record,
        }


def play_game(
    template: GameConfig, specs: Sequence[str], seed: int, game: int, fixture: Fixture | None = None
) -> GameResult:
    """Play game ``game`` of a tournament with fresh bots: by default seed ``seed + game``
    and seats rotated by :func:`lineup`; a ``fixture`` (:func:`schedule`) gives both instead.
    A pure function of its arguments, apart from timings."""
    if fixture is None:
        fixture = Fixture(game, game, lineup(len(specs), game))
    seats = fixture.seats
    bots_specs = tuple(specs[e].strip() for e in seats)
    config = dataclasses.replace(template, seed=seed + fixture.offset)
    bots = [entrant_bot(s) for s in bots_specs]
    m = play_match(config, bots)
    out = m.outcome
    record = GameRecord.of_game(config, m.moves, m.final, seats=bots_specs, result_of=out).to_json()
    return GameResult(
        game=fixture.game,
        seed=config.seed,
        entrants=seats,
        bots=bots_specs,
        scores=out.totals,
        winners=out.winners,
        ranks=out.ranks,
        breakdowns=tuple({c: int(s.breakdown.get(c, 0)) for c in CATEGORIES} for s in out.scores),
        think_time=m.think_time,
        decisions=m.decisions,
        record=record,
    )


def _play_job(args: tuple[GameConfig, tuple[str, ...], int, Fixture]) -> GameResult:
    template, specs, seed, fixture = args
    return play_game(template, specs, seed, fixture.game, fixture)


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
    pairs = [
        r
        for g in games
        for r in pairwise_results(g.entrants, [g.rank_key(s) for s in range(len(g.entrants))])
    ]
    ratings = bradley_terry(n, pairs)
    stats: list[EntrantStats] = []
    for e in range(n):
        seats = [(g, g.seat_of(e)) for g in games if e in g.entrants]
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
    round_robin: bool = False
    games_per_group: int = 0

    @property
    def labels(self) -> list[str]:
        return [e.label for e in self.entrants]

    @property
    def mean_winning_score(self) -> float:
        return math.fsum(max(g.scores) for g in self.games) / len(self.games) if self.games else 0.0

    def head_to_head(self) -> list[list[tuple[float, int]]]:
        """``[i][j]`` = (points of entrant i against j, encounters): over every game where
        both played, 1 when i ranked above j (R13), 1/2 for an exact tie."""
        n = len(self.specs)
        table = [[(0.0, 0) for _ in range(n)] for _ in range(n)]
        for g in self.games:
            for a, b, score in pairwise_results(g.entrants, [g.rank_key(s) for s in range(len(g.entrants))]):
                pa, na = table[a][b]
                pb, nb = table[b][a]
                table[a][b] = (pa + score, na + 1)
                table[b][a] = (pb + 1.0 - score, nb + 1)
        return table

    def summary_json(self) -> dict[str, Any]:
        return {
            "head_to_head": [[{"points": p, "encounters": k} for p, k in row] for row in self.head_to_head()],
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
                "seating": SEATING_ROUND_ROBIN if self.round_robin else SEATING,
                "round_robin": self.round_robin,
                "games_per_group": self.games_per_group if self.round_robin else len(self.games),
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


def _check(
    template: GameConfig, specs: Sequence[str], games: int, jobs: int, backend: str, round_robin: bool
) -> None:
    if round_robin and len(specs) <= template.players:
        raise ArenaError(
            f"a round robin of {template.players}-player games needs more than {template.players} "
            f"--bot options, got {len(specs)}"
        )
    if not round_robin and len(specs) != template.players:
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
        entrant_bot(spec)  # raises ConfigError for an unknown bot or option, ArenaError for python:


def _run_local(
    template: GameConfig,
    specs: tuple[str, ...],
    fixtures: list[Fixture],
    seed: int,
    jobs: int,
    progress: Progress | None,
) -> list[GameResult]:
    results: list[GameResult] = []
    total = len(fixtures)
    if jobs == 1:
        for f in fixtures:
            results.append(play_game(template, specs, seed, f.game, f))
            if progress is not None:
                progress(len(results), total)
        return results
    pool = ProcessPoolExecutor(max_workers=min(jobs, total), initializer=_ignore_sigint)
    try:
        pending: set[Future[GameResult]] = {
            pool.submit(_play_job, (template, specs, seed, f)) for f in fixtures
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                results.append(fut.result())
            if progress is not None:
                progress(len(results), total)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return results


def _run_ray(
    template: GameConfig,
    specs: tuple[str, ...],
    fixtures: list[Fixture],
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
        refs = [task.remote(template, specs, seed, f.game, f) for f in fixtures]
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
                progress(len(results), len(fixtures))
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
    round_robin: bool = False,
) -> TournamentResult:
    """Play ``games`` games between the bots ``specs`` (one per seat of
    ``config_template``, whose seed is ignored): game ``g`` uses seed ``seed + g`` and the
    lineup :func:`lineup` ``(N, g)``. With ``round_robin``, ``specs`` has more entrants than
    seats and every group of them plays ``games`` games (:func:`schedule`). ``jobs``
    (default: the number of CPUs) games run at a time on ``backend`` (``"local"`` or
    ``"ray"``); ``progress(done, total)`` is called as games finish. Raises
    :class:`ArenaError` (or :class:`ConfigError` for a bad bot spec)."""
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    specs = tuple(s.strip() for s in specs)
    _check(config_template, specs, games, jobs, backend, round_robin)
    if ray_address is not None and backend != "ray":
        raise ArenaError("a Ray address needs the ray backend")
    fixtures = schedule(len(specs), config_template.players, games, round_robin)
    start = time.perf_counter()
    if progress is not None:
        progress(0, len(fixtures))
    if backend == "ray":
        played = _run_ray(config_template, specs, fixtures, seed, jobs, progress, ray_address)
    else:
        played = _run_local(config_template, specs, fixtures, seed, jobs, progress)
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
        round_robin=round_robin,
        games_per_group=games,
    )
