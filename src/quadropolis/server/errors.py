"""The errors the server answers with. Each has a stable ``code`` (the ``code`` of the
protocol's ``{"type": "error"}`` reply, listed in docs/protocol.md) and the HTTP status used
when it answers an HTTP request. All derive from :class:`quadropolis.QuadropolisError`."""

from __future__ import annotations

from typing import ClassVar

from ..errors import QuadropolisError


class ServerError(QuadropolisError):
    """A request the server refuses; ``code`` names the kind, the message says why."""

    code: ClassVar[str] = "error"
    status: ClassVar[int] = 400


class BadMessage(ServerError):
    """Malformed input: not JSON, an unknown message type, a missing or mistyped field."""

    code = "bad_message"
    status = 400


class TooLarge(ServerError):
    """A message or request body over the size limit."""

    code = "too_large"
    status = 413


class RateLimited(ServerError):
    """More messages per second than one connection may send, or more HTTP actions than one
    address may make; ``retry_after``: seconds until one is allowed again, if known (HTTP
    replies carry it as ``Retry-After``)."""

    code = "rate_limited"
    status = 429

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LimitReached(ServerError):
    """A per-client quota is used up (unfinished games created by one client)."""

    code = "limit_reached"
    status = 429


class NotFound(ServerError):
    """No such game, or no such seat in it."""

    code = "not_found"
    status = 404


class Forbidden(ServerError):
    """The token is absent or does not hold the seat acted for (spectators hold none)."""

    code = "forbidden"
    status = 403


class SeatTaken(ServerError):
    """Joining a seat that someone already holds, or one that is a bot's."""

    code = "seat_taken"
    status = 409


class NotStarted(ServerError):
    """Acting in a game still waiting for players."""

    code = "not_started"
    status = 409


class GameOver(ServerError):
    """Acting in a finished game."""

    code = "game_over"
    status = 409


class GameStarted(ServerError):
    """Leaving or cancelling a game that has started (its players resign instead)."""

    code = "game_started"
    status = 409


class NotOver(ServerError):
    """Asking for the full record (with its seed) of a game still running."""

    code = "not_over"
    status = 409


class NotYourTurn(ServerError):
    """Acting for a seat that is not the one to move."""

    code = "not_your_turn"
    status = 409


class Stale(ServerError):
    """The action names a version other than the game's current one: the client acted on an
    old view (or the same action was sent twice). Nothing was applied."""

    code = "stale"
    status = 409


class IllegalMove(ServerError):
    """A move the rules forbid; the message is the engine's reason. ``reason`` and ``params``
    are the engine's code for it and its values (:class:`quadropolis.rules.Refusal`), absent
    (``None``) for text that is not a move at all."""

    code = "illegal_move"
    status = 422

    def __init__(
        self, message: str, reason: str | None = None, params: dict[str, str | int] | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params


class BadRecord(ServerError):
    """A ``quadropolis-game/1`` record that does not parse or replay; the message is the
    engine's reason (naming the first wrong move)."""

    code = "bad_record"
    status = 422


class UndoRefused(ServerError):
    """Undo not allowed now (nothing to undo, or someone else has acted since)."""

    code = "undo_refused"
    status = 409


class Unavailable(ServerError):
    """The server cannot serve the request now (shutting down, storage unreachable)."""

    code = "unavailable"
    status = 503


class InternalError(ServerError):
    """A fault of the server itself (logged); nothing was applied."""

    code = "internal"
    status = 500


# --- accounts --------------------------------------------------------------------------


class BadAccount(ServerError):
    """A username or password refused at registration: the message says why."""

    code = "bad_account"
    status = 422


class UsernameTaken(ServerError):
    """Another account has that username (compared ignoring case)."""

    code = "username_taken"
    status = 409


class NotLoggedIn(ServerError):
    """The request needs a logged-in account (a live session cookie)."""

    code = "not_logged_in"
    status = 401


class AlreadyPlayed(ServerError):
    """The account has played the day's challenge already (once per account and day)."""

    code = "already_played"
    status = 409


#: Every error class, by code (the protocol documentation lists each).
ERRORS: dict[str, type[ServerError]] = {
    cls.code: cls
    for cls in (
        BadMessage,
        TooLarge,
        RateLimited,
        LimitReached,
        NotFound,
        Forbidden,
        SeatTaken,
        NotStarted,
        GameOver,
        GameStarted,
        NotOver,
        NotYourTurn,
        Stale,
        IllegalMove,
        BadRecord,
        UndoRefused,
        Unavailable,
        InternalError,
        BadAccount,
        UsernameTaken,
        NotLoggedIn,
        AlreadyPlayed,
    )
}
