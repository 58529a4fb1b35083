"""Statistics of games between players, shared by the arena (:mod:`quadropolis.arena`) and the
RL evaluation (:mod:`quadropolis.envs`), which both import it from here: the seat rotation of a
match (:func:`lineup`), Wilson score intervals, mean and standard deviation, and the
Bradley-Terry rating fit on the Elo scale. Pure functions of numbers (standard library only).

**Rating method.** Every game is split into pairwise results: for each pair of seats, the
player ranked higher by the R13 order (VP, then inhabitants placed, then fewest empty
squares) scores 1 against the other, an exact tie scores ½ each. The Bradley-Terry model
``P(i beats j) = p_i / (p_i + p_j)`` is fitted to all of them by maximum likelihood with the
minorisation-maximisation iteration of Hunter (2004), a draw counting as half a win and half
a loss. A weak prior of one virtual drawn game between every pair of entrants keeps the
ratings finite when one entrant always wins. Strengths are put on the Elo scale,
``rating_i = anchor + 400 log10(p_i)`` with the geometric mean of the ``p_i`` fixed at 1, so
the ratings average ``anchor`` (1500) and a difference of D points predicts an expected
pairwise score of ``1 / (1 + 10^(-D/400))`` (200 points ≈ 76%)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Final

#: The two-sided 95% normal quantile.
Z95: Final = 1.959963984540054

#: Ratings average this (Elo scale).
RATING_ANCHOR: Final = 1500.0

__all__ = [
    "RATING_ANCHOR",
    "Z95",
    "bradley_terry",
    "lineup",
    "mean_sd",
    "pairwise_results",
    "rating_against",
    "wilson_interval",
]


def lineup(entrants: int, game: int) -> tuple[int, ...]:
    """Who sits where in game ``game``: ``lineup(N, g)[seat]`` is the entrant in ``seat``.
    Entrant ``i`` sits in seat ``(i + g) mod N`` (over N games every entrant plays every seat)."""
    if entrants < 1:
        raise ValueError("need at least one entrant")
    return tuple((seat - game) % entrants for seat in range(entrants))


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``successes`` may be
    fractional: shared victories count as fractions of a win). ``(0, 1)`` when ``n == 0``."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (n - 1 in the denominator; 0 for fewer than two
    values). ``(0, 0)`` for no values."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    m = math.fsum(values) / n
    if n == 1:
        return (m, 0.0)
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    return (m, math.sqrt(var))


def pairwise_results(
    entrants: Sequence[int], keys: Sequence[tuple[int, ...]]
) -> list[tuple[int, int, float]]:
    """The pairwise results of one game: ``entrants[seat]`` is who sat in each seat and
    ``keys[seat]`` its ranking key (higher is better; equal keys tie). Returns
    ``(i, j, score of i against j)`` for every pair of seats."""
    out: list[tuple[int, int, float]] = []
    for a in range(len(entrants)):
        for b in range(a + 1, len(entrants)):
            s = 1.0 if keys[a] > keys[b] else 0.0 if keys[a] < keys[b] else 0.5
            out.append((entrants[a], entrants[b], s))
    return out


def bradley_terry(
    n: int,
    results: Iterable[tuple[int, int, float]],
    *,
    prior: float = 1.0,
    prior_pairs: Iterable[tuple[int, int]] | None = None,
    anchor: float = RATING_ANCHOR,
    max_iterations: int = 10_000,
    tolerance: float = 1e-10,
) -> list[float]:
    """Elo-scale ratings of ``n`` entrants from pairwise results ``(i, j, s)`` (``s`` is the
    score of ``i`` against ``j``: 1 win, ½ draw, 0 loss), fitted by maximum likelihood of the
    Bradley-Terry model with ``prior`` virtual drawn games between every pair (must be > 0,
    so that every rating is finite). The ratings average ``anchor``. ``prior_pairs``: the
    pairs that get the virtual games (default: every pair, right for a round robin; pass the
    pairs that met when combining tournaments, so that two entrants that never met are not
    pulled together by a draw that never happened). The pairs that met must connect the
    entrants."""
    if n < 1:
        raise ValueError("need at least one entrant")
    if prior <= 0:
        raise ValueError("prior must be positive")
    points = [[0.0] * n for _ in range(n)]  # points[i][j]: what i scored against j
    for i, j, s in results:
        if i == j or not (0 <= i < n and 0 <= j < n):
            raise ValueError(f"bad pair ({i}, {j}) for {n} entrants")
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"a pairwise score is between 0 and 1, got {s}")
        points[i][j] += s
        points[j][i] += 1.0 - s
    if prior_pairs is None:
        prior_pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    for i, j in set(prior_pairs):
        if i == j or not (0 <= i < n and 0 <= j < n):
            raise ValueError(f"bad pair ({i}, {j}) for {n} entrants")
        points[i][j] += prior / 2
        points[j][i] += prior / 2
    games = [[points[i][j] + points[j][i] for j in range(n)] for i in range(n)]
    total = [math.fsum(row) for row in points]
    p = [1.0] * n
    for _ in range(max_iterations):
        new = [
            total[i] / math.fsum(games[i][j] / (p[i] + p[j]) for j in range(n) if j != i) if n > 1 else 1.0
            for i in range(n)
        ]
        g = math.exp(math.fsum(math.log(x) for x in new) / n)
        new = [x / g for x in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, p, strict=True))
        p = new
        if change < tolerance:
            break
    return [anchor + 400.0 * math.log10(x) for x in p]


def rating_against(results: Iterable[tuple[float, float]], *, prior: float = 1.0) -> float:
    """The Elo-scale rating of one player whose opponents' ratings are held fixed: the maximum
    likelihood of the Bradley-Terry model (as :func:`bradley_terry`) over pairwise results
    ``(opponent's rating, score)`` (1 win, ½ draw, 0 loss), with ``prior`` virtual drawn games
    against each distinct opponent rating (must be > 0, so the rating is finite). Found by
    bisection: the expected score rises with the rating."""
    if prior <= 0:
        raise ValueError("prior must be positive")
    observed = list(results)
    if not observed:
        raise ValueError("need at least one result")
    for _, score in observed:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a pairwise score is between 0 and 1, got {score}")
    # (opponent's rating, score, weight): the results, then the prior's virtual draws
    terms = [(r, score, 1.0) for r, score in observed] + [
        (r, 0.5, prior) for r in sorted({r for r, _ in observed})
    ]

    def surplus(x: float) -> float:  # observed minus expected score: decreasing in x
        return math.fsum(w * (score - 1.0 / (1.0 + 10.0 ** ((r - x) / 400.0))) for r, score, w in terms)

    lo, hi = min(r for r, _, _ in terms) - 4000.0, max(r for r, _, _ in terms) + 4000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if surplus(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
