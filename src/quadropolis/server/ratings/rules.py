"""Ratings: which finished games are rated, who is rated at each seat, and the
OpenSkill update (Weng-Lin Plackett-Luce, the ``openskill`` package). Knows nothing of the
database (:mod:`.storage` keeps ratings and history) or of HTTP.

**Rated players.** Accounts, one rating per mode (Classic, Expert), and the bots: one rating
per bot level per mode, so a player alone earns a rating by playing bots.

**Rated games** (:func:`entrants`; the table's part: :func:`..rated.rated_table`): a game
that ended with a result (``over``; cancelled, expired and abandoned games have none), with
the standard rules (no variant), whose every seat is either held by an account or a bot from
start to end (a bot seat where no person ever moved), with at least one account seat and no
account holding two seats (hotseat games are unrated: one person at several seats). So a
guest at the table, the guided first game (its fixed deal) or a game of bots alone is
unrated. An account seat that resigned or was taken over stays the account's: its result is
the account's.

**No rating without playing**: a game where an account seat has fewer than
:data:`~..data.MIN_OWN_MOVES` moves of its own (played by its person and in effect, not by a
bot for them) is unrated — aborted, as lichess aborts a game before each side has moved. So
a rated table the account never came to, played by the takeover or clock bot, changes no
rating; resigning after that many moves is a loss.

**Forfeits are losses** (:func:`rated_places`): the seats of the result's ``forfeits``
(resigned, or timed out when the game expired) are placed last, the earliest forfeit lowest
(:func:`quadropolis.outcome.places`). A seat whose last move in effect a bot played for its
absent person (``takeover``, or ``clock`` when the time per move ran out) forfeits too, for
the ratings only: placed below every seat that did not forfeit and above the resigners, the
one whose person stopped earlier (its last own move) lower.

**The update** (:func:`rate`): each seat is one team of one player; places are those above
(equal places are a tie). A bot level at several seats of one game is updated by the sum of
its seats' changes in μ and the smallest σ among them (one game's worth of certainty). A
rating is shown as its ordinal μ − 3σ (what the leaderboard sorts by: a rating that is
likely at least this high), with μ ± σ."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

from ...outcome import Outcome, places, rank_key
from ..clocks import CLOCK_ACTOR
from ..data import MIN_OWN_MOVES, OVER, SeatData
from ..rated import rated_table
from ..settings import RATED_HISTORY

#: Rated games an account needs before its games against other accounts are rated, unless
#: the server says otherwise (``--rated-history``).
HISTORY_GAMES: Final = RATED_HISTORY
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


#: The actors of a bot's move for an absent person (:mod:`..service`): takeover and clock.
FOR_ABSENT: Final = frozenset({"takeover", CLOCK_ACTOR})


@dataclass(frozen=True, slots=True)
class SeatPlay:
    """How a seat was played, from its moves in effect (undone ones left out): how many its
    person played (``own_moves``), whether its last move was a bot's for its absent person
    (``left``: takeover or clock), and where its person's last move stands among the game's
    moves (``last_own``; -1 if none)."""

    own_moves: int = 0
    left: bool = False
    last_own: int = -1


def seat_plays(moves: Sequence[tuple[int, str]], players: int) -> tuple[SeatPlay, ...]:
    """Each seat's :class:`SeatPlay` from the game's moves in effect, in order: each move's
    seat and actor (``player``, ``bot``, ``takeover`` or ``clock``)."""
    own = [0] * players
    last_own = [-1] * players
    last_actor = [""] * players
    for i, (seat, actor) in enumerate(moves):
        last_actor[seat] = actor
        if actor == "player":
            own[seat] += 1
            last_own[seat] = i
    return tuple(SeatPlay(own[p], last_actor[p] in FOR_ABSENT, last_own[p]) for p in range(players))


def rated_places(result: Outcome, plays: Sequence[SeatPlay]) -> tuple[int, ...]:
    """The places a rated game's seats are rated by (the module doc): the result's forfeits
    last, and above them the seats a bot finished for an absent person."""
    left = sorted(
        (p for p, play in enumerate(plays) if play.left and p not in result.forfeits),
        key=lambda p: (plays[p].last_own, p),
    )
    return places([rank_key(s) for s in result.scores], (*result.forfeits, *left))


def entrants(
    config: Mapping[str, Any],
    status: str,
    seats: Sequence[SeatData],
    moved: Collection[int],
    plays: Sequence[SeatPlay],
    facts: Mapping[int, AccountFacts],
    history: int = HISTORY_GAMES,
) -> tuple[Entrant, ...] | None:
    """Who is rated at each seat of a finished game, or ``None`` if the game is unrated (the
    rules of the module doc). ``seats``: each seat as stored at the end (kind, bot level,
    account); ``moved``: the seats where a person played a move; ``plays``: how each seat
    was played (:func:`seat_plays`); ``facts``: what the Sybil rule reads of each account at
    the table and ``history`` the rated games each needs (:func:`may_rate_each_other`)."""
    if status != OVER or not rated_table(config, seats):
        return None
    accounts = {s.seat: s.account for s in seats if s.account is not None}
    if any(plays[seat].own_moves < MIN_OWN_MOVES for seat in accounts):
        return None  # aborted: an account that did not play its first moves
    if not may_rate_each_other([facts[a] for a in accounts.values()], history):
        return None
    out = []
    for seat in seats:
        if seat.account is not None:
            out.append(Entrant(account=seat.account))
        elif seat.seat not in moved and seat.level is not None:
            out.append(Entrant(bot=seat.level))
        else:
            return None  # a guest's seat, resigned to a bot
    return tuple(out)


def rate(
    seats: Sequence[Entrant], ranks: Sequence[int], before: Mapping[Entrant, Rating]
) -> tuple[list[Rating], dict[Entrant, Rating]]:
    """One rated game: ``seats`` (who is at each seat), their places (:func:`rated_places`:
    1 = first, equal = tie) and every entrant's rating ``before``. Returns each seat's
    rating after the game as computed for that seat, and each entrant's new rating (a bot
    level at several seats merged as the module doc says)."""
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


@dataclass(frozen=True, slots=True)
class AccountFacts:
    """What the Sybil rule reads of an account at a rated table: the client key (an IPv6
    address's /64) it signed up from (``unknown:ID`` for an account older than the sign-up
    records: equal to no other), and how many rated games it had already played."""

    signup_key: str
    rated_games: int


def may_rate_each_other(facts: Collection[AccountFacts], history: int = HISTORY_GAMES) -> bool:
    """Whether the accounts of one game may be rated against each other: always for one
    account (against bots); for several, only if none signed up from the same address as
    another and each has played ``history`` rated games before (the server's setting,
    :data:`HISTORY_GAMES` by default). Otherwise the game is unrated for everyone at it (two
    accounts of one person would trade points)."""
    if len(facts) < 2:
        return True
    keys = [f.signup_key for f in facts]
    return len(set(keys)) == len(keys) and all(f.rated_games >= history for f in facts)
