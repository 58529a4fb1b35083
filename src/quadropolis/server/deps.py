"""What the HTTP routes depend on, in one place: the runtime the app's lifespan builds (one
object on ``app.state``), typed ``…Dep`` dependencies reading it, the client's address, the
seat's Bearer token, the session cookie, the CSRF check of state-changing account requests,
the error replies of the OpenAPI description and the seat links of the replies.

**Session cookie** ``quadropolis_session``: HttpOnly (no script reads it), SameSite=Lax,
Secure when the request came over https, Path=/, lasting
:data:`~.accounts.service.SESSION_SECONDS` (set by :mod:`.accounts.routes`).

**CSRF** (:func:`same_site`): every state-changing request acting for the session cookie
(the account routes' POST, PUT, DELETE; starting the daily challenge) must carry the header
``X-Quadropolis-Client`` (any value) and, when the browser sends ``Origin`` or
``Sec-Fetch-Site``, come from this server's own origin. A cross-site page cannot send the
header: an HTML form has no custom headers, and a cross-site ``fetch`` with one needs a CORS
preflight this server never approves. SameSite=Lax also keeps the cookie off cross-site POSTs.
So no token has to be kept in sync between page and server. Seat-token (Bearer) requests are
unchanged: a cross-site page does not hold the token."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Final
from urllib.parse import urlsplit

from fastapi import Cookie, Depends, Header
from starlette.requests import HTTPConnection, Request

from .accounts.service import AccountService
from .data import AccountData, Credential
from .edges import RateLimits, client_key
from .errors import Forbidden, NotLoggedIn
from .hub import Hub
from .protocol import COOKIE, Created, ErrorBody, Invite, SeatPass
from .ratings.service import RatingService
from .records import Records
from .service import GameService, NewGame, Viewer
from .social.daily import DailyService
from .social.rematch import RematchService

#: The header a state-changing request acting for the session cookie must carry (module doc).
CSRF_HEADER: Final = "X-Quadropolis-Client"

#: The error replies of the game routes' OpenAPI description.
ERROR_RESPONSES: Final[dict[int | str, dict[str, Any]]] = {
    status: {"model": ErrorBody} for status in (400, 403, 404, 409, 413, 422, 429, 500, 503)
}
#: The error replies of the account, social and ratings routes' OpenAPI description.
ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}


@dataclass
class Runtime:
    """What the lifespan builds and the routes use (``app.state.runtime``)."""

    service: GameService
    hub: Hub
    rates: RateLimits
    accounts: AccountService
    daily: DailyService
    rematches: RematchService
    ratings: RatingService
    records: Records


def runtime(connection: HTTPConnection) -> Runtime:
    """The runtime of the app serving ``connection`` (a request or a websocket)."""
    found: Runtime = connection.app.state.runtime
    return found


RuntimeDep = Annotated[Runtime, Depends(runtime)]


def games(rt: RuntimeDep) -> GameService:
    return rt.service


def records(rt: RuntimeDep) -> Records:
    """The records side (:mod:`.records`): records, summaries, replays, hints, reviews."""
    return rt.records


def rates(rt: RuntimeDep) -> RateLimits:
    """The per-address HTTP limits (:class:`.edges.RateLimits`)."""
    return rt.rates


def accounts(rt: RuntimeDep) -> AccountService:
    return rt.accounts


def daily(rt: RuntimeDep) -> DailyService:
    return rt.daily


def rematches(rt: RuntimeDep) -> RematchService:
    return rt.rematches


def ratings(rt: RuntimeDep) -> RatingService:
    return rt.ratings


GamesDep = Annotated[GameService, Depends(games)]
RatesDep = Annotated[RateLimits, Depends(rates)]
AccountsDep = Annotated[AccountService, Depends(accounts)]
DailyDep = Annotated[DailyService, Depends(daily)]
RematchesDep = Annotated[RematchService, Depends(rematches)]
RatingsDep = Annotated[RatingService, Depends(ratings)]
RecordsDep = Annotated[Records, Depends(records)]


def client(request: Request) -> str:
    """The client's key (:func:`.edges.client_key`: its address; an IPv6 one's /64): the
    quota and every limit count on it, the guests' and the accounts'."""
    return client_key(request.client.host if request.client is not None else None)


ClientDep = Annotated[str, Depends(client)]
#: The ``Authorization`` header (``Bearer TOKEN``: a seat's token), where a route takes one.
Authorization = Annotated[str | None, Header()]


def bearer(authorization: str | None) -> str:
    """The token of ``Authorization: Bearer TOKEN`` (``forbidden`` without one)."""
    if authorization is None:
        raise Forbidden("this needs the seat's token: Authorization: Bearer TOKEN")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Forbidden("this needs the seat's token: Authorization: Bearer TOKEN")
    return token.strip()


def action_token(client: ClientDep, rates: RatesDep, authorization: Authorization = None) -> str:
    """The seat's token of an action over HTTP (a move, an undo, cancelling, leaving,
    resigning), once the client's action rate allows one more (``rate_limited``); then
    ``forbidden`` without a Bearer token."""
    rates.action(client)
    return bearer(authorization)


ActionTokenDep = Annotated[str, Depends(action_token)]


# --- the session cookie ------------------------------------------------------------------

SessionId = Annotated[str | None, Cookie(alias=COOKIE, include_in_schema=False)]


def same_site(request: Request) -> None:
    """The CSRF check of the module doc: ``forbidden`` for a request a cross-site page made."""
    headers = request.headers
    if CSRF_HEADER.lower() not in headers:
        raise Forbidden(f"this request needs the header {CSRF_HEADER} (sent by the browser client)")
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise Forbidden("cross-site requests are refused")
    origin = headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != headers.get("host"):
        raise Forbidden("cross-site requests are refused")


async def current_account(service: AccountsDep, session: SessionId = None) -> AccountData:
    """The logged-in account (``not_logged_in`` without a live session)."""
    return await service.account_of(session)


async def maybe_account(request: Request) -> AccountData | None:
    """The logged-in account, or ``None`` for a guest (no session, or an expired one)."""
    session = request.cookies.get(COOKIE)
    if not session:
        return None
    try:
        return await runtime(request).accounts.account_of(session)
    except NotLoggedIn:
        return None


AccountDep = Annotated[AccountData, Depends(current_account)]
MaybeAccountDep = Annotated[AccountData | None, Depends(maybe_account)]


def viewer(request: Request) -> Viewer:
    """The id of the account of the request's session (``None``: a guest), looked up only if
    asked for (:meth:`.service.GameService.check_watch`)."""

    async def account() -> int | None:
        found = await maybe_account(request)
        return None if found is None else found.id

    return account


async def watched_seats(
    game_id: str, request: Request, service: GamesDep, authorization: Authorization = None
) -> dict[int, Credential]:
    """The seats of ``game_id`` the Bearer token holds (``forbidden`` if it holds none);
    without one, the caller must be allowed to watch the game (the daily challenge hides its
    day's games: :meth:`.service.GameService.check_watch`). ``not_found`` if there is no such
    game."""
    await service.game(game_id)
    if authorization is not None:
        return dict(await service.authenticate(game_id, [bearer(authorization)]))
    await service.check_watch(game_id, viewer(request))
    return {}


#: The seats a request reading a game holds (none: a spectator allowed to watch).
SeatsDep = Annotated[dict[int, Credential], Depends(watched_seats)]


# --- seat links ----------------------------------------------------------------------------


def seat_link(game_id: str, seat: int, token: str) -> str:
    """The private link of a seat (the token in the fragment: browsers never send it)."""
    return f"/?game={game_id}&seat={seat}#token={token}"


def seat_passes(game_id: str, tokens: Mapping[int, str]) -> list[SeatPass]:
    """A pass for each seat of ``tokens`` (its token and private link), by seat."""
    return [SeatPass(seat=s, token=t, link=seat_link(game_id, s, t)) for s, t in sorted(tokens.items())]


def created(new: NewGame) -> Created:
    """The reply to creating a game: a pass for each seat taken, an invite link for each
    seat left open, the links to watch and to play live."""
    return Created(
        game=new.game,
        seats=seat_passes(new.game, new.tokens),
        invites=[Invite(seat=s, link=f"/?game={new.game}&join={s}") for s in new.invites],
        watch=f"/?game={new.game}",
        websocket=f"/ws/games/{new.game}",
    )
