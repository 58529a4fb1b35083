"""Ratings over several saved tournaments (``quadropolis arena --ratings FILE ...``): one
Bradley-Terry fit of every game in the files, entrants identified by their bot spec, so a
ladder measured pair by pair (``easy`` against ``random``, ``medium`` against ``easy``...)
gets one scale.

Each game gives the pairwise results of its seats by their R13 places (the files' ``ranks``,
as the outcome computed them: the better place wins, equal places tie). Files saved before
places were kept have only ``winners`` and ``scores``: there a seat among the winners beats
one that is not, two winners tie, and two other seats are ordered by score (equal scores
tie). The virtual drawn game of the prior is given only to pairs that met, and the pairs
that met must connect every entrant (else no common scale exists)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..stats import bradley_terry, wilson_interval
from .tournament import FORMAT, ArenaError


@dataclass(frozen=True, slots=True)
class CombinedRating:
    """One bot spec over all the files: games played, wins (ties shared), rating."""

    spec: str
    games: int
    wins: float
    rating: float
    opponents: tuple[str, ...]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def _pair_score(a: int, b: int, game: _Game) -> float:
    _, scores, winners, ranks = game
    if ranks is not None:
        return 1.0 if ranks[a] < ranks[b] else 0.0 if ranks[a] > ranks[b] else 0.5
    wa, wb = a in winners, b in winners
    if wa != wb:
        return 1.0 if wa else 0.0
    if wa or scores[a] == scores[b]:
        return 0.5
    return 1.0 if scores[a] > scores[b] else 0.0


#: One saved game: (spec per seat, scores, winners, places or None in files without them).
_Game = tuple[list[str], list[int], list[int], list[int] | None]


def _games(doc: Any, where: str) -> list[_Game]:
    """Every game of one saved tournament (see :data:`_Game`)."""
    try:
        if doc["format"] != FORMAT:
            raise ArenaError(f"{where}: not a saved arena ({FORMAT!r} expected, got {doc['format']!r})")
        specs = [str(s).strip() for s in doc["tournament"]["entrants"]]
        out = []
        for g in doc["games"]:
            seats = [specs[int(e)] for e in g["entrants"]]
            scores = [int(x) for x in g["scores"]]
            winners = [int(w) for w in g["winners"]]
            ranks = [int(r) for r in g["ranks"]] if "ranks" in g else None
            if len(scores) != len(seats) or not winners or not set(winners) <= set(range(len(seats))):
                raise ValueError
            if ranks is not None and (
                len(ranks) != len(seats) or not all(1 <= r <= len(seats) for r in ranks)
            ):
                raise ValueError
            out.append((seats, scores, winners, ranks))
    except ArenaError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        raise ArenaError(
            f"{where}: not a saved arena (write one with quadropolis arena --out FILE.json)"
        ) from None
    if not out:
        raise ArenaError(f"{where}: no games")
    return out


def combine(docs: Sequence[tuple[str, Any]]) -> list[CombinedRating]:
    """The ratings of every bot spec in the saved tournaments ``docs`` (``(where, parsed
    JSON)`` pairs), best first. Raises :class:`ArenaError` for a file that is not a saved
    arena, or when the entrants do not all meet directly or through others."""
    games = [g for where, doc in docs for g in _games(doc, where)]
    names = sorted({s for seats, *_ in games for s in seats})
    index = {s: i for i, s in enumerate(names)}
    results: list[tuple[int, int, float]] = []
    played = [0] * len(names)
    wins = [0.0] * len(names)
    met: set[tuple[int, int]] = set()
    for game in games:
        seats, _, winners, _ = game
        ids = [index[s] for s in seats]
        for seat, e in enumerate(ids):
            played[e] += 1
            if seat in winners:
                wins[e] += 1 / len(winners)
        for a in range(len(ids)):
            for b in range(a + 1, len(ids)):
                if ids[a] != ids[b]:
                    results.append((ids[a], ids[b], _pair_score(a, b, game)))
                    met.add((min(ids[a], ids[b]), max(ids[a], ids[b])))
    _check_connected(names, met)
    ratings = bradley_terry(len(names), results, prior_pairs=met)
    out = [
        CombinedRating(
            spec=names[i],
            games=played[i],
            wins=wins[i],
            rating=ratings[i],
            opponents=tuple(names[j] for j in range(len(names)) if (min(i, j), max(i, j)) in met),
        )
        for i in range(len(names))
    ]
    return sorted(out, key=lambda r: -r.rating)


def _check_connected(names: Sequence[str], met: set[tuple[int, int]]) -> None:
    reach = {0} if names else set()
    todo = list(reach)
    while todo:
        i = todo.pop()
        for a, b in met:
            for x, y in ((a, b), (b, a)):
                if x == i and y not in reach:
                    reach.add(y)
                    todo.append(y)
    apart = [names[i] for i in range(len(names)) if i not in reach]
    if apart:
        raise ArenaError(
            f"no game links {', '.join(apart)} to {names[0]}: the files' entrants must meet, "
            "directly or through others, to share a scale"
        )


def format_ratings(ratings: Sequence[CombinedRating], files: int) -> str:
    """The table printed by ``quadropolis arena --ratings``."""
    rows = [["bot", "games", "wins", "win rate", "95% CI", "rating", "met"]]
    for r in ratings:
        lo, hi = wilson_interval(min(r.wins, r.games), r.games)
        rows.append(
            [
                r.spec,
                str(r.games),
                f"{r.wins:g}" if r.wins == int(r.wins) else f"{r.wins:.1f}",
                f"{r.win_rate:.1%}",
                f"{lo:.1%}-{hi:.1%}",
                f"{r.rating:.0f}",
                ", ".join(r.opponents),
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            c.rjust(w) if 0 < i < 6 else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
    total = sum(r.games for r in ratings)
    foot = (
        f"{files} file{'s' * (files != 1)}; ratings: one Bradley-Terry fit of the pairwise results of "
        "every game (Elo scale, mean 1500; one virtual draw per pair that met); "
        f"{total} bot-games in all."
    )
    return "\n".join(lines) + "\n\n" + foot + "\n"
