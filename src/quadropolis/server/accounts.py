"""Accounts (issue 23): registration, passwords, sessions, login throttling, and the seats an
account holds. Knows nothing of HTTP (:mod:`.accounts_routes` is the transport).

- **Usernames** (:func:`check_username`): NFKC-normalised, then 3–20 ASCII letters, digits,
  ``_`` or ``-``. ASCII only is the confusable check: no Cyrillic ``а`` can pass for a Latin
  ``a``, with no confusables table to keep current; NFKC first maps look-alike compatibility
  forms (fullwidth ``ａｌｉｃｅ``) onto the ASCII they look like, so they collide with it instead
  of being a separate name. Unique case-insensitively; :data:`RESERVED` names are refused.
- **Passwords** (:func:`check_password`): 8–256 characters (the maximum bounds the hashing
  work a request can cause), hashed with Argon2id (``argon2-cffi``'s defaults, RFC 9106's
  low-memory profile); never logged, stored or returned in clear.
- **Sessions**: a random 256-bit id in the browser's cookie, its SHA-256 in the database, valid
  :data:`SESSION_SECONDS` from login (logging out or deleting the account ends it; changing the
  password ends every other session of the account).
- **Throttling** (:class:`Throttle`): failed logins per account and per client address in a
  sliding window; over either, ``rate_limited`` (429) until the window has room again."""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from ..bots import LEVELS
from .account_storage import AccountData, AccountStore, HeldGame, UsernameTaken
from .data import AccountProof
from .errors import BadAccount, Forbidden, NotLoggedIn, RateLimited
from .errors import UsernameTaken as UsernameTakenError
from .passwords import Passwords
from .protocol import CreateGame
from .service import GameService, NewGame, seat_plan

T = TypeVar("T")

USERNAME_MIN: Final = 3
USERNAME_MAX: Final = 20
PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 256
#: How long a session lasts from login (30 days).
SESSION_SECONDS: Final = 30 * 86400
_USERNAME: Final = re.compile(r"[A-Za-z0-9_-]+")
#: Names no one may register (compared case-insensitively, with ``_`` and ``-`` ignored): the
#: server's own roles, the bots' levels and names, and the name of deleted accounts' seats.
RESERVED: Final = frozenset(
    {"admin", "administrator", "root", "system", "server", "moderator", "mod", "support", "staff"}
    | {"quadropolis", "bot", "bots", "guest", "anonymous", "player", "me", "null", "none"}
    | {"formerplayer", "deleted", "nobody"}
    | {level.casefold() for level in LEVELS}
)


def check_username(raw: str) -> str:
    """The username as stored (NFKC form), or :class:`BadAccount` saying what is wrong."""
    for ch in raw:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            raise BadAccount(f"a username may not hold control or invisible characters (U+{ord(ch):04X})")
    name = unicodedata.normalize("NFKC", raw)
    if not name.isascii():
        raise BadAccount("a username may hold only the letters A-Z, digits, '_' and '-'")
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise BadAccount(f"a username has {USERNAME_MIN} to {USERNAME_MAX} characters")
    if not _USERNAME.fullmatch(name):
        raise BadAccount("a username may hold only the letters A-Z, digits, '_' and '-'")
    if name.casefold().replace("_", "").replace("-", "") in RESERVED or name.casefold().startswith("bot"):
        raise BadAccount(f"the username {name!r} is reserved")
    return name


def check_password(password: str) -> str:
    """``password`` if its length is allowed (it is never echoed in the error)."""
    if len(password) < PASSWORD_MIN:
        raise BadAccount(f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise BadAccount(f"a password has at most {PASSWORD_MAX} characters")
    return password


def hash_session(session_id: str) -> bytes:
    """What the database keeps of a session id: its SHA-256."""
    return hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).digest()


class Throttle:
    """At most ``limit`` events per key in any ``window`` seconds (a sliding window of
    timestamps). Memory stays bounded: at most ``limit`` timestamps per key, and once more
    than :attr:`max_keys` keys are held the idle ones are dropped."""

    max_keys: Final = 10_000

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._events: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        events = self._events.get(key)
        if events is None:
            return deque()
        horizon = self.clock() - self.window
        while events and events[0] <= horizon:
            events.popleft()
        if not events:
            del self._events[key]
        return events

    def full(self, key: str) -> float | None:
        """Seconds until ``key`` may try again, or ``None`` if it may now."""
        events = self._recent(key)
        if len(events) < self.limit:
            return None
        return max(1.0, events[0] + self.window - self.clock())

    def add(self, key: str) -> None:
        if len(self._events) >= self.max_keys:
            for idle in [k for k, v in self._events.items() if v[-1] <= self.clock() - self.window]:
                del self._events[idle]
        self._events.setdefault(key, deque(maxlen=self.limit)).append(self.clock())

    def give_back(self, key: str) -> None:
        """Forget the newest event of ``key`` (an attempt that turned out to succeed)."""
        events = self._events.get(key)
        if events:
            events.pop()

    def clear(self, key: str) -> None:
        self._events.pop(key, None)


@dataclass(frozen=True, slots=True)
class LoginLimits:
    """Failed logins allowed per account and per client address in ``window`` seconds."""

    per_account: int = 10
    per_address: int = 30
    window: float = 15 * 60


@dataclass(frozen=True, slots=True)
class Login:
    """A logged-in account and its new session id (for the cookie only)."""

    account: AccountData
    session_id: str


class AccountService:
    """Accounts, sessions and account seats over :class:`AccountStore` (see the module doc)."""

    def __init__(
        self,
        store: AccountStore,
        games: GameService,
        limits: LoginLimits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.games = games
        self.clock = clock
        self.limits = limits or LoginLimits()
        self._passwords = Passwords(max_length=PASSWORD_MAX)
        self._dummy = self._passwords.hash_now(secrets.token_urlsafe(16))
        self._per_account = Throttle(self.limits.per_account, self.limits.window)
        self._per_address = Throttle(self.limits.per_address, self.limits.window)

    def close(self) -> None:
        """Stop the hashing threads (queued hashing is dropped: the server is stopping)."""
        self._passwords.close()

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Database calls in a worker thread: the event loop never waits on them (hashing has
        its own bounded, low-priority threads: :class:`.passwords.Passwords`)."""
        return await asyncio.to_thread(fn, *args)

    # --- accounts ----------------------------------------------------------------------

    async def register(self, username: str, password: str) -> Login:
        """A new account, logged in. ``bad_account`` for a refused name or password,
        ``username_taken`` if another account has the name."""
        name = check_username(username)
        hashed = await self._passwords.hash(check_password(password))
        try:
            account = await self._run(self.store.insert_account, name, hashed, self.clock())
        except UsernameTaken:
            raise UsernameTakenError(f"the username {name!r} is taken") from None
        return await self._open_session(account)

    async def login(self, username: str, password: str, address: str) -> Login:
        """Log in; ``rate_limited`` after too many failures for the account or the address,
        ``forbidden`` for a wrong name or password (the same reply for both)."""
        key = unicodedata.normalize("NFKC", username).casefold()[:64]
        for throttle, who in ((self._per_account, key), (self._per_address, address)):
            wait = throttle.full(who)
            if wait is not None:
                raise RateLimited(f"too many failed logins; try again in {int(wait)} s")
        # Counted as failures before verifying (no await since the check above), so guesses
        # sent all at once cannot each pass the check; a success takes its count back.
        self._per_account.add(key)
        self._per_address.add(address)
        account = await self._run(self.store.by_username, key) if len(key) <= USERNAME_MAX else None
        if account is None or not await self._passwords.verify(account.password_hash, password):
            if account is None:  # as slow as a wrong password: the reply tells no names
                await self._passwords.verify(self._dummy, password)
            raise Forbidden("wrong username or password")
        self._per_account.clear(key)
        self._per_address.give_back(address)
        return await self._open_session(account)

    async def _open_session(self, account: AccountData) -> Login:
        session_id = secrets.token_urlsafe(32)
        now = self.clock()
        await self._run(
            self.store.insert_session, hash_session(session_id), account.id, now, now + SESSION_SECONDS
        )
        return Login(account, session_id)

    async def account_of(self, session_id: str | None) -> AccountData:
        """The account of a live session; ``not_logged_in`` otherwise."""
        if session_id:
            account = await self._run(self.store.session_account, hash_session(session_id), self.clock())
            if account is not None:
                return account
        raise NotLoggedIn("log in first")

    async def logout(self, session_id: str) -> None:
        await self._run(self.store.delete_session, hash_session(session_id))

    async def change_password(self, account: AccountData, session_id: str, current: str, new: str) -> None:
        """Replace the password (the current one is asked again); other sessions end."""
        await self._confirm(account, current)
        hashed = await self._passwords.hash(check_password(new))
        await self._run(self.store.set_password, account.id, hashed, hash_session(session_id))

    async def delete(self, account: AccountData, password: str) -> None:
        """Delete the account (the password is asked again). Its games stay; its seats are
        named "Former player", in memory too for the games this process holds."""
        await self._confirm(account, password)
        for game_id in await self._run(self.store.delete_account, account.id):
            game = self.games.loaded(game_id)
            if game is not None:
                await self.games.catch_up(game)

    async def _confirm(self, account: AccountData, password: str) -> None:
        if not await self._passwords.verify(account.password_hash, password):
            raise Forbidden("wrong password")

    # --- seats -------------------------------------------------------------------------

    async def create(self, account: AccountData, spec: CreateGame, address: str) -> NewGame:
        """Create a game as the account: the seats it takes are named after it and its own."""
        named = spec.model_copy(update={"name": account.username})
        _, take = seat_plan(spec)
        return await self.games.create(named, address, holders=dict.fromkeys(take, account.id))

    async def join(self, account: AccountData, game_id: str, seat: int) -> str:
        """Take an open seat as the account (named after it, its own): its token."""
        return await self.games.join(game_id, seat, account.username, account=account.id)

    async def seats(self, account: AccountData, game_id: str) -> list[int]:
        """The seats of ``game_id`` the account holds now (``not_found`` if no such game)."""
        return self.games.account_seats(await self.games.game(game_id), account.id)

    @staticmethod
    def proof(account: AccountData) -> AccountProof:
        """What the account acts with; the game service checks it against the seat."""
        return AccountProof(account.id)

    async def games_of(self, account: AccountData, limit: int = 200) -> list[HeldGame]:
        return await self._run(self.store.games_of, account.id, limit)
