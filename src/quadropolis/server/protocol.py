"""The protocol's messages, typed: one model per message with a ``type`` literal, a decoder
table keyed by ``type`` for what clients send over the websocket, models for what the server
sends, and the bodies of the HTTP API (FastAPI derives ``/openapi.json`` from them).

Every inbound message is decoded by :func:`decode`: size first, then JSON, then the model of
its ``type`` (strict: no extra fields, no coercion of ``"0"`` into ``0``). Anything wrong is
a :class:`~quadropolis.server.errors.BadMessage` (or :class:`TooLarge`) answered with an
``error`` reply, never an exception inside a handler. docs/protocol.md shows every message
with an example; a test decodes each example there."""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Final, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from ..bots import LEVELS
from .clocks import check_move_time
from .errors import BadMessage, IllegalMove, ServerError, TooLarge
from .settings import MAX_MESSAGE_BYTES

Token = Annotated[str, StringConstraints(min_length=1, max_length=64)]
ClientId = Annotated[str, StringConstraints(max_length=64)]
#: The session cookie of a logged-in browser: set by the account routes
#: (:mod:`.accounts.routes`), read by them and by the websocket hub (:mod:`.hub`).
COOKIE: Final = "quadropolis_session"
#: Unicode categories a name may not hold: controls (NUL, ESC of ANSI sequences, newlines),
#: formats (bidi overrides, zero-width characters), line and paragraph separators, and lone
#: surrogates. Names are shown to every player; these would forge or hide what others see.
UNPRINTABLE: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: The protocol's version (docs/protocol.md, CHANGELOG.md): bumped by a change to a message or
#: an endpoint that would break a client written for the version before; an addition such a
#: client may ignore keeps it.
PROTOCOL_VERSION: Final = 1


def _printable(name: str, what: str = "a name") -> str:
    """``name`` if it holds no character of :data:`UNPRINTABLE`; raises ``ValueError``
    naming the first one (by code point: the character itself may be invisible)."""
    for ch in name:
        if unicodedata.category(ch) in UNPRINTABLE:
            raise ValueError(f"{what} may not hold control or invisible characters (U+{ord(ch):04X})")
    return name


def _printable_chat(text: str) -> str:
    return _few_marks(_printable(text, "a chat line"))


#: Combining marks a chat line may stack on one character, after NFC: as many as the scripts
#: that stack them need (a Thai consonant's vowel and tone mark), far fewer than the heaps
#: ("Zalgo" text) that spill over the lines around a line.
CHAT_MARKS: Final = 2


def _few_marks(text: str) -> str:
    """``text`` if no character of its NFC form carries more than :data:`CHAT_MARKS`
    combining marks; raises ``ValueError`` naming the first one that does."""
    chars = unicodedata.normalize("NFC", text)
    i = 0
    while i < len(chars):
        marks = 0
        while i + 1 + marks < len(chars) and unicodedata.category(chars[i + 1 + marks]) in ("Mn", "Me"):
            marks += 1
        if marks > CHAT_MARKS:
            raise ValueError(
                f"a chat line may stack at most {CHAT_MARKS} combining marks on one character; "
                f"character {i + 1} (U+{ord(chars[i]):04X}) carries {marks}"
            )
        i += 1 + marks
    return text


Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=40),
    AfterValidator(_printable),
]
#: Longest chat line (characters, after trimming spaces at both ends).
CHAT_MAX: Final = 200
#: A chat line: plain text on one line, refused (not silently changed) if it holds a
#: character a name may not hold — a newline, an ANSI escape, a bidi override.
ChatText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=CHAT_MAX),
    AfterValidator(_printable_chat),
]
Seat = Annotated[int, Field(ge=0, le=3)]
Version = Annotated[int, Field(ge=0, le=1_000_000)]
MoveText = Annotated[str, StringConstraints(min_length=1, max_length=16)]


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# --- client -> server (websocket) ---------------------------------------------------------


class Auth(Message):
    """Present seat tokens: the connection then acts for those seats (several for hotseat).
    With ``account`` it also acts for the seats the logged-in account holds (its session
    cookie, sent with the websocket's handshake from the server's own origin)."""

    type: Literal["auth"]
    tokens: Annotated[list[Token], Field(max_length=4)] = []
    account: bool = False
    id: ClientId | None = None

    @model_validator(mode="after")
    def _something_to_present(self) -> Auth:
        if not self.tokens and not self.account:
            raise ValueError("auth needs seat tokens, or account: true (the session of a logged-in account)")
        return self


class MoveMessage(Message):
    """Play ``move`` (engine notation) for ``seat``, against the game at ``version``."""

    type: Literal["move"]
    seat: Seat
    version: Version
    move: MoveText
    id: ClientId | None = None


class UndoMessage(Message):
    """Take back ``seat``'s last action, against the game at ``version``."""

    type: Literal["undo"]
    seat: Seat
    version: Version
    id: ClientId | None = None


class SyncMessage(Message):
    """Ask for the current state again (a ``state`` push follows)."""

    type: Literal["sync"]
    id: ClientId | None = None


class PingMessage(Message):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]
    id: ClientId | None = None


class ChatMessage(Message):
    """Say ``text`` at the table (seat holders only; see docs/protocol.md, "Table chat")."""

    type: Literal["chat"]
    text: ChatText
    id: ClientId | None = None


Inbound = Auth | MoveMessage | UndoMessage | SyncMessage | PingMessage | ChatMessage


def _by_type(union: Any) -> dict[str, type[Message]]:
    """The models of a union of messages, by the value of their ``type`` literal (in the
    union's order): the union is the one list of a direction's messages."""
    models: tuple[type[Message], ...] = get_args(union)
    return {get_args(m.model_fields["type"].annotation)[0]: m for m in models}


#: The decoder table: the model of each inbound ``type``.
INBOUND: Final = _by_type(Inbound)


def decode(data: str | bytes, limit: int = MAX_MESSAGE_BYTES) -> Message:
    """The typed message in ``data``; raises :class:`TooLarge` or :class:`BadMessage`."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise TooLarge(f"message of {size} bytes; the limit is {limit}")
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        raise BadMessage("not a JSON message") from None
    if not isinstance(obj, dict):
        raise BadMessage("a message is a JSON object with a 'type'")
    kind = obj.get("type")
    model = INBOUND.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise BadMessage(f"unknown message type; expected one of {', '.join(INBOUND)}")
    try:
        return model.model_validate(obj)
    except ValidationError as e:
        raise BadMessage(f"{kind}: {_first_error(e)}") from None


def message_id(data: str | bytes) -> str | None:
    """The ``id`` of a message that failed to decode, if it has a usable one (to echo): a
    string of at most 64 characters that is valid Unicode text, else ``None``."""
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        return None
    ident = obj.get("id") if isinstance(obj, dict) else None
    if not isinstance(ident, str) or len(ident) > 64:
        return None
    # JSON may escape a lone surrogate ("\ud800"): no reply holding it can be encoded.
    return ident if ident.isascii() or _is_text(ident) else None


def _is_text(value: str) -> bool:
    """Whether ``value`` encodes as UTF-8 (holds no lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _first_error(e: ValidationError) -> str:
    err = e.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(x) for x in err["loc"]) or "message"
    return f"{where}: {err['msg']}"


# --- server -> client (websocket) ---------------------------------------------------------


class Welcome(Message):
    """First reply on a connection, and the reply to ``auth``: the seats this connection
    holds (empty for a spectator)."""

    type: Literal["welcome"] = "welcome"
    game: str
    you: list[int]
    id: str | None = None


class StatePush(Message):
    """The game as this client may see it (see :mod:`quadropolis.server.views`); sent on
    connecting, after ``auth`` and ``sync``, and to every client of the game after each
    accepted action (and when a player arrives or leaves)."""

    type: Literal["state"] = "state"
    game: str
    version: int
    view: dict[str, Any]


class Accepted(Message):
    """An action stored in the database: it is now part of the game at ``version``."""

    type: Literal["accepted"] = "accepted"
    game: str
    version: int
    seat: int
    kind: Literal["move", "undo"]
    move: str | None = None
    id: str | None = None


class ErrorReply(Message):
    """A refused message or request: ``code`` is one of docs/protocol.md's error codes. An
    ``illegal_move`` also carries the engine's ``reason`` code and its ``params``, so that a
    client can say it in its player's language."""

    type: Literal["error"] = "error"
    code: str
    message: str
    id: str | None = None
    reason: str | None = None
    params: dict[str, str | int] | None = None

    @classmethod
    def of(cls, error: ServerError, id: str | None = None) -> ErrorReply:
        """The reply refusing with ``error``."""
        reason, params = _refusal(error)
        return cls(code=error.code, message=str(error), id=id, reason=reason, params=params)


class Pong(Message):
    type: Literal["pong"] = "pong"
    id: str | None = None


class ChatEntry(Message):
    """One line of the table chat: who said it (seat and name at the time) and when."""

    seat: int
    name: str
    text: str
    at: float


class ChatPush(Message):
    """Table chat: on connecting, the lines kept (``history``: they replace what the client
    shows); then each new line as it is said."""

    type: Literal["chat"] = "chat"
    game: str
    history: bool
    lines: list[ChatEntry]


class RematchOffer(Message):
    """A player of this finished game asked for a rematch (to the connections holding a
    seat): ``rematch`` is the new game, where each of the seats is kept for its player."""

    type: Literal["rematch"] = "rematch"
    game: str
    rematch: str
    by: list[int]


Outbound = Welcome | StatePush | Accepted | ErrorReply | Pong | ChatPush | RematchOffer

#: Every outbound message model, by ``type``.
OUTBOUND: Final = _by_type(Outbound)


# --- HTTP bodies --------------------------------------------------------------------------


class Body(BaseModel):
    """An HTTP body, decoded as strictly as a websocket :class:`Message`: no extra fields,
    no coercion (``"players": "2"`` or ``"seat": true`` is ``bad_message``); an integer is
    still accepted where a float is meant (JSON does not tell ``60`` from ``60.0``)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Variants(Body):
    urbanist_blocks: Literal["lines", "square"] = "lines"
    all_parks_absorb: bool = False


class SeatSpec(Body):
    """A seat at creation: open for a human, or a bot of one of the levels (``easy``,
    ``medium``, ``hard``: the definitions of :data:`quadropolis.bots.LEVELS`)."""

    type: Literal["human", "bot"] = "human"
    level: str | None = None
    #: A human seat the creator takes in hotseat: the name shown for it (default: the
    #: creator's ``name`` with the seat number).
    name: Name | None = None

    @field_validator("level")
    @classmethod
    def _known_level(cls, level: str | None) -> str | None:
        if level is not None and level not in LEVELS:
            raise ValueError(f"bot level must be one of {', '.join(LEVELS)}")
        return level


class CreateGame(Body):
    """A new game. ``seats`` (default: every seat open for a human) lists one entry per
    player; ``take`` lists the open seats the creator holds at once (default: the first
    open seat; ``[]``: none, e.g. to watch bots; several: hotseat). ``public`` games are
    listed in the lobby. ``takeover_after`` (seconds, or ``null`` for never): a bot of
    ``takeover_level`` plays a human seat whose player has been gone that long, until
    they come back. ``analysis``: whether the players may ask for hints while the game
    runs; ``null`` (default): on iff at most one person plays (the creator, if taking
    seats, counts as one, and each human seat left open as one more).
    ``first_player``: a seat, or ``"random"`` for one drawn by the server. ``guided``: the
    guided first game's deal (``GUIDED_SEED`` of :mod:`.data`: Classic, 2 players), the one
    its lessons were written for. ``move_time``: the clock, seconds per move — live 60 to
    300, correspondence 86400 to 259200 (1 to 3 days), ``null`` (default) for none; when a
    player's time runs out the bot (``takeover_level``) plays that move (:mod:`.clocks`)."""

    mode: Literal["classic", "expert"] = "classic"
    players: Annotated[int, Field(ge=2, le=4)] = 2
    variants: Variants = Variants()
    first_player: Annotated[int, Field(ge=0, le=3)] | Literal["random"] = 0
    seats: list[SeatSpec] | None = None
    name: Name = "Player 1"
    take: list[Seat] | None = None
    public: bool = True
    takeover_after: Annotated[float, Field(ge=1, le=7 * 86400)] | None = None
    takeover_level: str = "easy"
    analysis: bool | None = None
    guided: bool = False
    move_time: float | None = None

    @field_validator("move_time")
    @classmethod
    def _allowed_move_time(cls, seconds: float | None) -> float | None:
        return check_move_time(seconds)

    @field_validator("takeover_level")
    @classmethod
    def _known_takeover_level(cls, level: str) -> str:
        if level not in LEVELS:
            raise ValueError(f"takeover_level must be one of {', '.join(LEVELS)}")
        return level


class JoinSeat(Body):
    name: Name = "Player"


class ActRequest(Body):
    """A move over HTTP (``Authorization: Bearer TOKEN``): as the websocket ``move``."""

    seat: Seat
    version: Version
    move: MoveText


class UndoRequest(Body):
    seat: Seat
    version: Version


class SeatRequest(Body):
    """The seat a player leaves (a waiting game) or resigns (a running game)."""

    seat: Seat


class GameStatus(BaseModel):
    """A game's status after a cancellation, a departure or a resignation."""

    type: Literal["status"] = "status"
    game: str
    status: str


class RecordAt(Body):
    """A ``quadropolis-game/1`` record (a finished game's, seed included) and a position in
    it: the number of its moves played."""

    record: Any
    at: Annotated[int, Field(ge=0, le=100_000)]


class RecordBody(Body):
    """A ``quadropolis-game/1`` record to review (finished or not, seed included)."""

    record: Any


class SeatPass(Body):
    """A seat's private pass: keep ``token`` secret; ``link`` opens the seat in a browser."""

    seat: int
    token: str
    link: str


class Invite(Body):
    seat: int
    link: str


class Created(Body):
    game: str
    seats: list[SeatPass]
    invites: list[Invite]
    watch: str
    websocket: str


class ActionDone(Body):
    """The HTTP reply to a move or undo: stored at ``version``."""

    type: Literal["accepted"] = "accepted"
    game: str
    version: int
    seat: int
    kind: Literal["move", "undo"]
    move: str | None = None


class ErrorBody(Body):
    """An HTTP error: as :class:`ErrorReply`, ``reason`` and ``params`` only for an
    ``illegal_move`` (serialised without the fields that are ``None``)."""

    type: Literal["error"] = "error"
    code: str
    message: str
    reason: str | None = None
    params: dict[str, str | int] | None = None

    @classmethod
    def of(cls, error: ServerError) -> ErrorBody:
        """The body refusing with ``error``."""
        reason, params = _refusal(error)
        return cls(code=error.code, message=str(error), reason=reason, params=params)


def _refusal(error: ServerError) -> tuple[str | None, dict[str, str | int] | None]:
    """The engine's reason code and values of an illegal move, else nothing."""
    if isinstance(error, IllegalMove):
        return error.reason, error.params
    return None, None


class SeatSummary(Body):
    seat: int
    kind: str
    level: str | None
    name: str
    open: bool


class GameListEntry(Body):
    game: str
    status: str
    config: dict[str, Any]
    seats: list[SeatSummary]
    created_at: float
    finished_at: float | None = None
    result: dict[str, Any] | None = None


class GameList(Body):
    games: list[GameListEntry]


class MovesSoFar(Body):
    """The moves of a game so far (in effect, undone ones left out) and its whole history
    (every accepted action, undos and undone moves included); never the seed."""

    game: str
    status: str
    version: int
    config: dict[str, Any]
    seats: list[str]
    moves: list[str]
    history: list[dict[str, Any]]
