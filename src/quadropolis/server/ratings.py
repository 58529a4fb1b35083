"""Ratings (issue 23): which finished games are rated, who is rated at each seat, and the
OpenSkill update (Weng-Lin Plackett-Luce, the ``openskill`` package). Knows nothing of the
database (:mod:`.rating_storage` keeps ratings and history) or of HTTP.

**Rated players.** Accounts, one rating per mode (Classic, Expert), and the bots: one rating
per bot level per mode, so a player alone earns a rating by playing bots.

**Rated games** (:func:`entrants`): a game that ended with a result (``over``; cancelled,
expired and abandoned games have none), with the standard rules (no variant), whose every
seat is either held by an account or a bot from start to end (a bot seat where no person
ever moved), with at least one account seat and no account holding two seats (hotseat
games are unrated: one person at several seats). So a guest at the table, the guided first
game (its fixed deal) or a game of bots alone is unrated. An account seat that resigned
or was taken over stays the account's: its result is the account's.

**The update** (:func:`rate`): each seat is one team of one player; places are the core's R13
ranking (:attr:`quadropolis.outcome.Outcome.ranks`; equal places are a tie). A bot level at
several seats of one game is updated by the sum of its seats' changes in μ and the smallest σ
among them (one game's worth of certainty). A rating is shown as its ordinal μ − 3σ (what
the leaderboard sorts by: a rating that is likely at least this high), with μ ± σ."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

from ..bots import LEVELS
from .data import GUIDED_SEED, OVER, SeatData

#: The modes rated apart.
MODES: Final = ("classic", "expert")
#: The configuration's variants that a rated game has (the standard rules).
STANDARD_VARIANTS: Final = {"urbanist_blocks": "lines", "all_parks_absorb": False}
_MODEL: Final = PlackettLuce()
#: A new player's rating (OpenSkill's defaults: μ 25, σ 25/3).
INITIAL_MU: Final[float] = _MODEL.mu
INITIAL_SIGMA: Final[float] = _MODEL.sigma


@dataclass(frozen=True, slots=True)
class Entrant:
    """Who is rated at a seat: an account (``account``) or a bot level (``bot``)."""

    account: int | None = None
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one mode: μ, σ and the rated games it counts."""

    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """μ − 3σ: what is shown as the rating and what the leaderboard sorts by."""
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rated_table(config: Mapping[str, Any], seats: Sequence[SeatData]) -> bool:
    """Whether a game at this table is rated if it ends with a result (the rules of the module
    doc that the table alone decides): the standard rules of a rated mode, not the guided
    game, every seat an account's (its own) or a bot's, at least one account. While such a
    game runs nobody may have it analysed (:meth:`.service.GameService.analysis`)."""
    if config.get("mode") not in MODES or not 2 <= len(seats) <= 4:
        return False
    if config.get("seed") == GUIDED_SEED and config.get("mode") == "classic" and len(seats) == 2:
        return False
    if {**STANDARD_VARIANTS, **config.get("variants", {})} != STANDARD_VARIANTS:
        return False
    accounts = [s.account for s in seats if s.account is not None]
    if not accounts or len(set(accounts)) != len(accounts):
        return False
    return all(s.account is not None or (s.kind == "bot" and s.level in LEVELS) for s in seats)


def entrants(
    config: Mapping[str, Any],
    status: str,
    seats: Sequence[tuple[str, str | None]],
    moved: Collection[int],
    accounts: Mapping[int, int],
) -> tuple[Entrant, ...] | None:
    """Who is rated at each seat of a finished game, or ``None`` if the game is unrated (the
    rules of the module doc). ``seats``: each seat's kind (``human``/``bot``) and bot level
    as stored at the end; ``moved``: the seats where a person played a move; ``accounts``:
    each seat held by an account, to the account."""
    if status != OVER or config.get("mode") not in MODES or not 2 <= len(seats) <= 4:
        return None
    if config.get("seed") == GUIDED_SEED and config.get("mode") == "classic" and len(seats) == 2:
        return None
    variants = {**STANDARD_VARIANTS, **config.get("variants", {})}
    if variants != STANDARD_VARIANTS:
        return None
    if not accounts or len(set(accounts.values())) != len(accounts):
        return None
    out = []
    for seat, (kind, level) in enumerate(seats):
        if seat in accounts:
            out.append(Entrant(account=accounts[seat]))
        elif kind == "bot" and level in LEVELS and seat not in moved:
            out.append(Entrant(bot=level))
        else:
            return None  # a guest's seat
    return tuple(out)


def rate(
    seats: Sequence[Entrant], ranks: Sequence[int], before: Mapping[Entrant, Rating]
) -> tuple[list[Rating], dict[Entrant, Rating]]:
    """One rated game: ``seats`` (who is at each seat), their R13 places (1 = first, equal =
    tie) and every entrant's rating ``before``. Returns each seat's rating after the game as
    computed for that seat, and each entrant's new rating (a bot level at several seats
    merged as the module doc says)."""
    teams = [[_MODEL.rating(mu=before[e].mu, sigma=before[e].sigma)] for e in seats]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    per_seat = [Rating(t[0].mu, t[0].sigma, before[e].games + 1) for e, t in zip(seats, rated, strict=True)]
    after: dict[Entrant, Rating] = {}
    for entrant, new in zip(seats, per_seat, strict=True):
        old = before[entrant]
        merged = after.get(entrant)
        if merged is None:
            after[entrant] = new
        else:
            after[entrant] = Rating(merged.mu + new.mu - old.mu, min(merged.sigma, new.sigma), new.games)
    return per_seat, after


#: Rated games an account must have (against bots, or people) before its games against other
#: accounts are rated: a new account cannot be made only to feed another one rating points.
HISTORY_GAMES: Final = 5


@dataclass(frozen=True, slots=True)
class AccountFacts:
    """What the Sybil rule reads of an account at a rated table: the client key (an IPv6
    address's /64) it signed up from (``unknown:ID`` for an account older than the sign-up
    records: equal to no other), and how many rated games it had already played."""

    signup_key: str
    rated_games: int


def may_rate_each_other(facts: Collection[AccountFacts]) -> bool:
    """Whether the accounts of one game may be rated against each other: always for one
    account (against bots); for several, only if none signed up from the same address as
    another and each has played :data:`HISTORY_GAMES` rated games before. Otherwise the game
    is unrated for everyone at it (two accounts of one person would trade points)."""
    if len(facts) < 2:
        return True
    keys = [f.signup_key for f in facts]
    return len(set(keys)) == len(keys) and all(f.rated_games >= HISTORY_GAMES for f in facts)
