"""What a new game is made of: its seats as asked (:func:`seat_plan`), its deal
(:func:`game_config`), the stored game (:func:`new_game_data`) with a token for each seat its
creator takes, and the per-address quotas (:func:`check_quota`). Pure but for drawing the
seed, the first player and the tokens at random, and the quotas' two reads of the store;
the service stores the game."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from ..bots import LEVELS
from ..config import GameConfig
from ..tiles import Mode
from .bot_pool import COSTLY_LEVELS
from .clocks import deadline_after
from .data import GUIDED_SEED, PLAYING, WAITING, GameData, SeatData
from .errors import BadMessage, LimitReached
from .game import BOT, HUMAN, hash_token
from .protocol import CreateGame, SeatSpec
from .settings import Limits
from .storage import Store

#: Who plays a resigned seat at a table without takeover: the weakest level.
WEAKEST_LEVEL: Final = next(iter(LEVELS))


def new_token() -> str:
    """A seat token: 128 random bits, URL-safe text."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True, slots=True)
class NewGame:
    """What creating a game gives its creator: the game id, a token for each seat taken (to
    keep private) and the open seats to invite players to."""

    game: str
    tokens: dict[int, str]
    invites: list[int]


def seat_plan(spec: CreateGame) -> tuple[list[SeatSpec], list[int]]:
    """The seats (default: all open for humans) and the ones the creator takes;
    :class:`BadMessage` for an inconsistent spec."""
    seats = list(spec.seats) if spec.seats is not None else [SeatSpec() for _ in range(spec.players)]
    if len(seats) != spec.players:
        raise BadMessage(f"{spec.players} players need {spec.players} seats, got {len(seats)}")
    for i, s in enumerate(seats):
        if (s.type == "bot") != (s.level is not None):
            raise BadMessage(f"seat {i}: a bot seat needs a level, a human seat none")
    humans = [i for i, s in enumerate(seats) if s.type == "human"]
    take = list(spec.take) if spec.take is not None else humans[:1]
    if len(set(take)) != len(take) or any(t not in humans for t in take):
        raise BadMessage(f"take: seats to take must be distinct human seats among {humans}")
    return seats, take


def game_config(spec: CreateGame) -> GameConfig:
    """A deal drawn for ``spec`` (the guided first game's fixed seed if it asks for it)."""
    first = secrets.randbelow(spec.players) if spec.first_player == "random" else spec.first_player
    if first >= spec.players:
        raise BadMessage(f"first_player must be a seat from 0 to {spec.players - 1}")
    if spec.guided and (spec.mode != "classic" or spec.players != 2):
        raise BadMessage("guided: the guided first game is a Classic game for 2 players")
    return GameConfig(
        mode=Mode.parse(spec.mode),
        players=spec.players,
        seed=GUIDED_SEED if spec.guided else secrets.randbits(62),
        first_player=first,
        urbanist_blocks=spec.variants.urbanist_blocks,
        all_parks_absorb=spec.variants.all_parks_absorb,
    )


def costly_seats(spec: CreateGame, seats: list[SeatSpec]) -> int:
    """The seats of a new game a costly bot may play: bots of a costly level, and every
    human seat when a costly bot takes over absent players."""
    bots = sum(1 for s in seats if s.type == "bot" and s.level in COSTLY_LEVELS)
    takeover = spec.takeover_after is not None and spec.takeover_level in COSTLY_LEVELS
    return bots + (sum(1 for s in seats if s.type == "human") if takeover else 0)


def new_game_data(
    spec: CreateGame,
    client: str,
    config: GameConfig,
    tokens: Mapping[int, str],
    holders: Mapping[int, int],
    now: float,
    clock_scale: float,
) -> GameData:
    """The game to store: its seats (those in ``tokens`` taken by the creator, held by the
    accounts in ``holders``), ``playing`` at once if no human seat is left open (its first
    deadline counted from ``now``), else ``waiting``."""
    seats, take = seat_plan(spec)
    rows = tuple(
        _seat_row(i, s.type, s.level, s.name or spec.name, take, tokens, now, named=bool(s.name))
        for i, s in enumerate(seats)
    )
    rows = tuple(replace(r, account=holders.get(r.seat)) if r.seat in take else r for r in rows)
    status = WAITING if any(r.kind == HUMAN and r.token_hash is None for r in rows) else PLAYING
    due = deadline_after(spec.move_time, now, clock_scale) if status == PLAYING else None
    return GameData(
        id=secrets.token_urlsafe(9),
        config=config.to_json(),
        status=status,
        public=spec.public,
        creator=client[:64],
        takeover_after=spec.takeover_after,
        takeover_level=spec.takeover_level,
        created_at=now,
        finished_at=None,
        result=None,
        seats=rows,
        analysis=_analysis_allowed(spec, rows),
        last_activity=now,
        move_seconds=spec.move_time,
        deadline=due,
        started_at=now if status == PLAYING else None,
    )


def _analysis_allowed(spec: CreateGame, rows: tuple[SeatData, ...]) -> bool:
    """The table option ``analysis``: as asked, or by default on iff at most one person plays
    — the creator (if they take seats) counts as one, each human seat left open as one
    more. So a game against bots, a hotseat game of one creator, or bots watched with one
    open seat allow hints; two different people at the table do not."""
    if spec.analysis is not None:
        return spec.analysis
    creator = 1 if any(r.kind == HUMAN and r.token_hash is not None for r in rows) else 0
    others = sum(1 for r in rows if r.kind == HUMAN and r.token_hash is None)
    return creator + others <= 1


def _seat_row(
    seat: int,
    kind: str,
    level: str | None,
    name: str,
    take: list[int],
    tokens: Mapping[int, str],
    now: float,
    *,
    named: bool = False,
) -> SeatData:
    """A seat as created; a taken seat is ``name`` as given for it (``named``), else the
    creator's name, numbered when the creator takes several seats (hotseat)."""
    if kind == "bot":
        return SeatData(seat, BOT, level, f"Bot ({level})", None, None)
    if seat in take:
        shown = name if named or len(take) == 1 else f"{name} ({seat + 1})"
        return SeatData(seat, HUMAN, None, shown, hash_token(tokens[seat]), now, host=True)
    return SeatData(seat, HUMAN, None, "", None, None)


async def check_quota(
    run: Callable[..., Awaitable[Any]], store: Store, limits: Limits, client: str, now: float, costly: int
) -> None:
    """:class:`LimitReached` if ``client`` has created its quota of live games, or if
    ``costly`` more costly bot seats would put it over its limit of those (``run``: how the
    caller runs a storage call off the event loop)."""
    since = (now - limits.waiting_expiry, now - limits.playing_expiry)
    active: int = await run(store.active_games_of, client, *since)
    if active >= limits.games_per_client:
        raise _too_many_games(active, limits)
    if costly:
        held: int = await run(store.costly_seats_of, client, COSTLY_LEVELS)
        if held + costly > limits.costly_bots_per_client:
            raise _too_many_costly(held, costly, limits.costly_bots_per_client)


def _too_many_games(active: int, limits: Limits) -> LimitReached:
    """The refusal of a new game to an address that has ``active`` live games, its quota."""
    return LimitReached(
        f"You have {active} open game{'s' if active != 1 else ''} from this address, the "
        "limit: finish, resign or "
        "cancel one of them to start another (a game waiting for players expires after "
        f"{_duration(limits.waiting_expiry)} without activity, a running one after "
        f"{_duration(limits.playing_expiry)} without a move)"
    )


def _too_many_costly(held: int, costly: int, cap: int) -> LimitReached:
    """The refusal of ``costly`` more costly bot seats to an address holding ``held``."""
    return LimitReached(
        f"this address has {held} hard or expert bot seats in unfinished games and asks for "
        f"{costly} more; the limit is {cap} at once (finish a game, or choose easy or medium)"
    )


def _duration(seconds: float) -> str:
    """``seconds`` in players' words: "30 minutes", "1 hour", "45 seconds"."""
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds:g} seconds"
