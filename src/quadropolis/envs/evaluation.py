"""The evaluation protocol: :func:`evaluate` plays a policy against opponents as the arena
would and reports its win share, mean VP and margin with 95% intervals, and a rating on the
bots' ladder, so that published numbers are comparable.

**Protocol** (the arena's, :mod:`quadropolis.arena`): the entrants are the policy (entrant 0)
and the opponents (entrants 1 to N-1, in the order given); game ``g`` (0-based) is the engine's
game with seed ``seed + g`` and seats entrant ``i`` in seat ``(i + g) mod N``
(:func:`quadropolis.stats.lineup`), so over a multiple of N games the policy plays every seat
equally often; every bot given by its spec is built afresh for each game with
``make_bot(spec, workers=1, trusted=True, time_caps=False)`` and draws from
``quadropolis.bots.bot_rng(seed + g, seat)`` (:func:`quadropolis.bots.play_match`). The same
games are played by ``quadropolis arena --games G --seed S --bot python:module:policy --bot
greedy`` (the policy as ``--bot python:module:attribute``), with the same results for a
deterministic policy. Report the env version, mode, players, opponents, games and seed.

**Figures.** Win share: 1 for a sole win, 1/k in a k-way tie (R13), with its 95% Wilson
interval (:func:`quadropolis.stats.wilson_interval`). Mean VP and mean margin (own final VP
minus the best other final VP), each with a 95% normal interval, mean ± 1.96 sd / sqrt(n)
(:func:`quadropolis.stats.mean_sd`). **Rating**: in 2-player games against bots of the ladder
(:data:`LADDER_RATINGS`), the policy's Bradley-Terry rating with the opponents' ratings held
at their ladder values (:func:`quadropolis.stats.rating_against`: the arena's method, R13
pairwise results, one virtual draw per opponent); ``None`` otherwise.

**On the batched env**: :func:`evaluate_batched` plays the same games (seeds, seats, the
bots' generators) with a *batched* policy on :class:`~.vector.QuadropolisVectorEnv`, one batch
per seat of the policy, every game's first episode, and returns the same figures: for a
deterministic policy and opponents that keep nothing from one game to the next (the engine's
``random`` and ``greedy``, the epsilon-greedy rungs, ``neural``), the very results of
:func:`evaluate` (tests/envs/test_vector_same_step.py compares them).
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from ..bots import Bot, make_bot, play_match
from ..config import GameConfig
from ..errors import ConfigError
from ..outcome import Outcome
from ..stats import Z95, lineup, mean_sd, rating_against, wilson_interval
from ..tiles import Mode
from .opponents import Opponent, PolicyBot

__all__ = [
    "LADDER_RATINGS",
    "RATED_RUNGS",
    "Evaluation",
    "LadderEvaluation",
    "evaluate",
    "evaluate_batched",
    "evaluate_ladder",
]

#: The bots' ratings on the ladder's scale (2-player games; docs/bots.md, "Difficulty levels":
#: ``quadropolis arena --ratings`` over the ladder, ``hard`` against ``greedy`` and the round
#: robin of each mode, measured 2026-11-22). Elo units, 400 points = 10:1 odds.
LADDER_RATINGS: Final[dict[Mode, dict[str, float]]] = {
    Mode.CLASSIC: {
        "random": 429.0,
        "easy": 1076.0,
        "greedy": 1600.0,
        "medium": 1719.0,
        "hard": 1997.0,
        "expert": 2178.0,
    },
    Mode.EXPERT: {
        "random": 292.0,
        "easy": 1061.0,
        "medium": 1708.0,
        "greedy": 1749.0,
        "hard": 2085.0,
        "expert": 2104.0,
    },
}


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What :func:`evaluate` measured (see the module docstring): the policy's figures with
    their 95% intervals, the protocol's parameters, and each game's ``(seed, seat, VP,
    margin, win share)``."""

    mode: str
    players: int
    opponents: tuple[str, ...]
    games: int
    seed: int
    win_share: float
    win_share_ci95: tuple[float, float]
    mean_vp: float
    mean_vp_ci95: tuple[float, float]
    margin: float
    margin_ci95: tuple[float, float]
    rating: float | None
    results: tuple[tuple[int, int, int, int, float], ...]

    def __str__(self) -> str:
        lo, hi = self.win_share_ci95
        rating = "" if self.rating is None else f", rating {self.rating:.0f}"
        return (
            f"{self.games} games, {self.mode}, {self.players} players, against {', '.join(self.opponents)} "
            f"(seeds {self.seed}-{self.seed + self.games - 1}, seats rotated): "
            f"win share {self.win_share:.1%} ({lo:.1%}-{hi:.1%}), "
            f"mean VP {self.mean_vp:.1f} ({_span(self.mean_vp_ci95)}), "
            f"margin {self.margin:+.1f} ({_span(self.margin_ci95)}){rating}"
        )

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


#: The rungs :func:`evaluate_ladder` plays by default: rated bots far enough apart that an agent
#: anywhere from ``random`` to ``greedy`` wins some games and loses some against them.
RATED_RUNGS: Final = ("random", "easy", "greedy")


@dataclass(frozen=True, slots=True)
class LadderEvaluation:
    """What :func:`evaluate_ladder` measured: one rating from the games against every rung at
    once, its 95% interval, and each rung's :class:`Evaluation` (in the order of ``rungs``)."""

    mode: str
    rungs: tuple[str, ...]
    games: int  # per rung
    seed: int
    rating: float
    rating_ci95: tuple[float, float]
    evaluations: tuple[Evaluation, ...]

    def __str__(self) -> str:
        lo, hi = self.rating_ci95
        shares = ", ".join(
            f"{e.win_share:.1%} vs {r}" for r, e in zip(self.rungs, self.evaluations, strict=True)
        )
        return f"rating {self.rating:.0f} ({lo:.0f}-{hi:.0f}) from {self.games} games per rung: {shares}"

    def to_json(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["evaluations"] = [e.to_json() for e in self.evaluations]
        return out


def _span(ci: tuple[float, float]) -> str:
    return f"{ci[0]:.1f} to {ci[1]:.1f}"


def _mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    mean, sd = mean_sd(values)
    half = Z95 * sd / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, (mean - half, mean + half)


def _label(opponent: Opponent, k: int) -> str:
    if isinstance(opponent, str):
        return opponent.strip()
    if isinstance(opponent, Bot):
        return opponent.name
    return f"policy#{k}"


def evaluate(
    policy: Any,
    opponents: Opponent | Sequence[Opponent] = "greedy",
    *,
    mode: str = "classic",
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    normalize: bool = False,
    urbanist_blocks: str = "lines",
    all_parks_absorb: bool = False,
    jobs: int = 1,
) -> Evaluation:
    """Play ``games`` games of ``policy`` against ``opponents`` by the protocol of the module
    docstring and return its figures. ``policy``: a callable ``(observation, action_mask) ->
    action``, an object with SB3's ``predict`` or a :class:`~quadropolis.bots.Bot`
    (:mod:`.opponents`); it sees observations in [0, 1] if ``normalize``. ``opponents``: one
    for every other seat, or one per other seat (bot specs, bots or policies). ``jobs``: the
    games are shared among that many worker processes (forked where the platform can, so the
    policy need not be picklable; each worker plays with its own copy of the policy and of
    the bot objects given); the results are those of ``jobs=1``, game for game, for a policy
    and bots that keep nothing from one game to the next. Raises
    :class:`~quadropolis.ConfigError` for bad arguments, :class:`~quadropolis.bots.BotError`
    if the policy plays outside the mask."""
    template = _template(mode, players, games, urbanist_blocks, all_parks_absorb)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ConfigError(f"jobs must be an int of at least 1, got {jobs!r}")
    others = _opponent_list(opponents, players)
    me = policy if isinstance(policy, Bot) else PolicyBot(policy, normalize=normalize)
    ladder = LADDER_RATINGS[template.mode]
    rated = players == 2 and all(isinstance(o, str) and o.strip().lower() in ladder for o in others)
    work = _Games(me, tuple(others), template, seed, normalize, ladder if rated else None)
    played = _play_all(work, games, jobs)
    results = [result for result, _ in played]
    pairs = [pair for _, game_pairs in played for pair in game_pairs]
    return _evaluation(template, others, seed, results, pairs if rated else None)


@dataclass(frozen=True, slots=True)
class _Games:
    """What every game of an :func:`evaluate` call shares; :meth:`play` plays one."""

    me: Bot
    others: tuple[Opponent, ...]
    template: GameConfig
    seed: int
    normalize: bool
    ladder: Mapping[str, float] | None  # the ladder's ratings if the policy is rated

    def play(self, g: int) -> tuple[tuple[int, int, int, int, float], list[tuple[float, float]]]:
        """Game ``g``: its result and the policy's (ladder rating, pairwise score) pairs."""
        players = self.template.players
        seats = lineup(players, g)  # seats[seat] = the entrant there
        config = dataclasses.replace(self.template, seed=self.seed + g)
        out = play_match(config, [_entrant(e, self.me, self.others, self.normalize) for e in seats]).outcome
        pairs = [] if self.ladder is None else _ladder_pairs(seats, out, self.others, self.ladder)
        return _result(config.seed, seats.index(0), out), pairs


#: The games of the :func:`evaluate` call a worker process serves (set by its initializer).
_WORKER_GAMES: list[_Games] = []


def _serve(games: _Games) -> None:
    _WORKER_GAMES[:] = [games]


def _play_chunk(chunk: range) -> list[tuple[tuple[int, int, int, int, float], list[tuple[float, float]]]]:
    return [_WORKER_GAMES[0].play(g) for g in chunk]


def _play_all(
    work: _Games, games: int, jobs: int
) -> list[tuple[tuple[int, int, int, int, float], list[tuple[float, float]]]]:
    """Every game's result and pairs, in game order: here, or in ``jobs`` worker processes
    (chunks of consecutive games, about four per worker, so that uneven games even out)."""
    if jobs == 1 or games == 1:
        return [work.play(g) for g in range(games)]
    size = max(1, math.ceil(games / (4 * jobs)))
    chunks = [range(start, min(start + size, games)) for start in range(0, games, size)]
    # fork: the worker inherits the policy instead of unpickling it (a closure, a model)
    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    )
    with ProcessPoolExecutor(
        min(jobs, len(chunks)), mp_context=context, initializer=_serve, initargs=(work,)
    ) as pool:
        return [played for part in pool.map(_play_chunk, chunks) for played in part]


def evaluate_batched(
    policy: Any,
    opponents: Any = "greedy",
    *,
    mode: str = "classic",
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    normalize: bool = False,
    urbanist_blocks: str = "lines",
    all_parks_absorb: bool = False,
    batch: int = 256,
) -> Evaluation:
    """:func:`evaluate`'s games and figures on the batched env (see the module docstring):
    ``policy`` is a batched policy ``(observations (k, 2409), masks (k, 121)) -> k actions``
    or an object with SB3's ``predict`` (called on the batch, deterministic, with the masks);
    ``opponents`` are the batched env's; at most ``batch`` games at once. Needs the compiled
    engine. :class:`~quadropolis.bots.BotError` if the policy plays outside the mask."""
    from .batched_opponents import predictor
    from .vector import QuadropolisVectorEnv

    template = _template(mode, players, games, urbanist_blocks, all_parks_absorb)
    others = _opponent_list(opponents, players)
    act = predictor(policy) if callable(getattr(policy, "predict", None)) else policy
    ladder = LADDER_RATINGS[template.mode]
    rated = players == 2 and all(isinstance(o, str) and o.strip().lower() in ladder for o in others)
    results: list[tuple[int, int, int, int, float]] = [(0, 0, 0, 0, 0.0)] * games
    pairs: list[tuple[float, float]] = []
    for mine in range(players):
        # entrant 0 sits in seat g mod N, so entrant (t - mine) mod N in every other seat t
        seat_opponents = [others[(t - mine) % players - 1] for t in range(players) if t != mine]
        chosen = list(range(mine, games, players))
        for start in range(0, len(chosen), batch):
            chunk = chosen[start : start + batch]
            env = QuadropolisVectorEnv(
                len(chunk),
                mode=mode,
                players=players,
                seat=mine,
                opponents=seat_opponents,
                normalize=normalize,
                illegal_action="raise",
                urbanist_blocks=urbanist_blocks,
                all_parks_absorb=all_parks_absorb,
            )
            for g, (vp, margin, share) in zip(chunk, _first_episodes(env, seed, chunk, act), strict=True):
                results[g] = (seed + g, mine, vp, margin, share)
                if rated:
                    pairs.append((ladder[str(others[0]).strip().lower()], share))
    return _evaluation(template, others, seed, results, pairs if rated else None)


def evaluate_ladder(
    policy: Any,
    rungs: Sequence[str] = RATED_RUNGS,
    *,
    mode: str = "classic",
    games: int = 100,
    seed: int = 0,
    normalize: bool = False,
    jobs: int = 1,
    batched: bool = False,
    batch: int = 256,
) -> LadderEvaluation:
    """A rating that ranks agents above and below ``greedy``: ``games`` 2-player games of
    ``policy`` against each rung of ``rungs`` (bots of :data:`LADDER_RATINGS`; the same seeds
    ``seed`` to ``seed + games - 1`` for every rung), then one Bradley-Terry rating fitted to
    all of them at once with the rungs' ratings held at their ladder values (the method of
    :func:`evaluate`'s rating). Against ``greedy`` alone every agent that never wins gets the
    same rating; against several rungs the losses to ``greedy`` and the wins over ``random``
    place it. Its 95% interval is the normal one of the maximum likelihood (the rating ± 1.96
    over the square root of the Fisher information). Played by :func:`evaluate` (``jobs``
    processes), or with ``batched`` by :func:`evaluate_batched` (a batched policy, at most
    ``batch`` games at once). :class:`~quadropolis.ConfigError` for a rung without a rating."""
    game_mode = _template(mode, 2, games, "lines", False).mode
    ladder = LADDER_RATINGS[game_mode]
    names = tuple(str(r).strip().lower() for r in rungs)
    unknown = [r for r in names if r not in ladder]
    if not names or unknown:
        raise ConfigError(f"rungs must be bots of the rated ladder {sorted(ladder)}, got {list(rungs)!r}")
    evaluations = tuple(
        evaluate_batched(policy, r, mode=mode, games=games, seed=seed, normalize=normalize, batch=batch)
        if batched
        else evaluate(policy, r, mode=mode, games=games, seed=seed, normalize=normalize, jobs=jobs)
        for r in names
    )
    # 2 players: the pairwise score is the win share (1 a win, 1/2 a shared one, 0 a loss)
    pairs = [(ladder[r], result[4]) for r, e in zip(names, evaluations, strict=True) for result in e.results]
    rating = rating_against(pairs)
    return LadderEvaluation(
        game_mode.value, names, games, seed, rating, _rating_ci(rating, pairs), evaluations
    )


def _rating_ci(rating: float, pairs: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The normal 95% interval of a rating fitted by :func:`~quadropolis.stats.rating_against`
    (its prior's virtual draws included in the information)."""
    scale = math.log(10.0) / 400.0
    terms = [r for r, _ in pairs] + sorted({r for r, _ in pairs})  # the results, the prior's draws
    information = math.fsum(
        scale * scale * p * (1.0 - p) for p in (1.0 / (1.0 + 10.0 ** ((r - rating) / 400.0)) for r in terms)
    )
    half = Z95 / math.sqrt(information)
    return rating - half, rating + half


def _first_episodes(env: Any, seed: int, chunk: list[int], act: Any) -> list[tuple[int, int, float]]:
    """Plays each game of ``env`` (seeds ``seed + g``) to the end of its first episode: the
    agent's (VP, margin, win share) in each."""
    import numpy as np

    from ..bots import BotError
    from ..errors import IllegalMoveError

    obs, infos = env.reset(seed=[seed + g for g in chunk])
    out: dict[int, tuple[int, int, float]] = {}
    while len(out) < len(chunk):
        try:
            obs, _, terminated, _, infos = env.step(np.asarray(act(obs, infos["action_mask"])))
        except IllegalMoveError as e:
            raise BotError(f"the policy played outside the mask: {e}") from None
        for i in np.flatnonzero(terminated).tolist():
            if i not in out:  # a later episode (after the autoreset) is not the protocol's game
                winners = infos["winners"][i]
                seat = int(infos["seat"][i])
                share = 1.0 / int(winners.sum()) if winners[seat] else 0.0
                out[i] = (int(infos["final_scores"][i][seat]), int(infos["margin"][i]), share)
    return [out[i] for i in range(len(chunk))]


def _evaluation(
    template: GameConfig,
    others: Sequence[Any],
    seed: int,
    results: list[tuple[int, int, int, int, float]],
    pairs: list[tuple[float, float]] | None,
) -> Evaluation:
    """The figures of the games played (see the module docstring)."""
    games = len(results)
    wins = math.fsum(r[4] for r in results)
    mean_vp, vp_ci = _mean_ci([float(r[2]) for r in results])
    mean_margin, margin_ci = _mean_ci([float(r[3]) for r in results])
    return Evaluation(
        mode=template.mode.value,
        players=template.players,
        opponents=tuple(_label(o, k + 1) for k, o in enumerate(others)),
        games=games,
        seed=seed,
        win_share=wins / games,
        win_share_ci95=wilson_interval(min(wins, games), games),
        mean_vp=mean_vp,
        mean_vp_ci95=vp_ci,
        margin=mean_margin,
        margin_ci95=margin_ci,
        rating=None if pairs is None else rating_against(pairs),
        results=tuple(results),
    )


def _template(
    mode: str, players: int, games: int, urbanist_blocks: str, all_parks_absorb: bool
) -> GameConfig:
    """The games' configuration without a seed; :class:`ConfigError` for a bad argument."""
    game_mode = Mode.parse(mode)
    template = GameConfig(
        mode=game_mode, players=players, urbanist_blocks=urbanist_blocks, all_parks_absorb=all_parks_absorb
    )
    if games < 1:
        raise ConfigError(f"games must be at least 1, got {games}")
    return template


def _opponent_list(opponents: Opponent | Sequence[Opponent], players: int) -> list[Opponent]:
    """One opponent per other seat; a bad bot spec fails here, before any game."""
    others = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * (players - 1)
    if len(others) != players - 1:
        raise ConfigError(f"{players} players need {players - 1} opponent(s), got {len(others)}")
    for o in others:
        if isinstance(o, str):
            make_bot(o, workers=1, trusted=True)
    return others


def _entrant(i: int, me: Bot, others: Sequence[Opponent], normalize: bool) -> Bot:
    """Entrant ``i``'s bot (0: the policy evaluated); bot specs are made fresh for each game,
    as in the arena."""
    if i == 0:
        return me
    o = others[i - 1]
    if isinstance(o, str):
        return make_bot(o, workers=1, trusted=True, time_caps=False)
    if isinstance(o, Bot):
        return o
    return PolicyBot(o, name=f"policy#{i}", normalize=normalize)


def _result(seed: int, mine: int, out: Outcome) -> tuple[int, int, int, int, float]:
    """(seed, the policy's seat, its VP, its margin over the best other seat, its win share)."""
    vp = out.totals[mine]
    margin = vp - max(v for s, v in enumerate(out.totals) if s != mine)
    return (seed, mine, vp, margin, 1 / len(out.winners) if mine in out.winners else 0.0)


def _ladder_pairs(
    seats: Sequence[int], out: Outcome, others: Sequence[Opponent], ladder: Mapping[str, float]
) -> list[tuple[float, float]]:
    """(opponent's ladder rating, the policy's pairwise score by R13 places) per opponent."""
    mine = seats.index(0)
    pairs = []
    for s, e in enumerate(seats):
        if e:
            a, b = out.ranks[mine], out.ranks[s]
            pairs.append(
                (ladder[str(others[e - 1]).strip().lower()], 1.0 if a < b else 0.0 if a > b else 0.5)
            )
    return pairs
