"""Accounts: registration, passwords, sessions, login throttling, and the seats an
account holds. Knows nothing of HTTP (:mod:`.routes` is the transport).

- **Usernames** (:func:`.rules.check_username`): NFKC-normalised, then 3–20 ASCII letters, digits,
  ``_`` or ``-``. ASCII only keeps other scripts' look-alikes out (no Cyrillic ``а`` can pass
  for a Latin ``a``); NFKC first maps look-alike compatibility forms (fullwidth ``ａｌｉｃｅ``)
  onto the ASCII they look like. Unique case-insensitively and by confusable skeleton
  (:mod:`.names`: ``a1ice``, ``aIice`` and ``alice`` are one name, ``rnary`` and
  ``mary`` too); :data:`.rules.RESERVED` names and their look-alikes are refused.
- **Passwords** (:func:`.rules.check_password`): 8–256 characters (the maximum bounds the hashing
  work a request can cause), not containing the username (ignoring case), not too easy to
  guess (:func:`.passwords.weakness`); hashed with Argon2id (``argon2-cffi``'s defaults, RFC
  9106's low-memory profile); never logged, stored or returned in clear.
- **Sign-up quota** (:class:`SignupLimits`): at most so many accounts created from one client
  key (:func:`..edges.client_key`) per hour and per day, counted in the database (so across
  server processes); over it, ``rate_limited`` (429) with ``Retry-After``.
- **Sessions**: a random 256-bit id in the browser's cookie, its SHA-256 in the database, valid
  :data:`SESSION_SECONDS` from login (logging out or deleting the account ends it; changing the
  password ends every other session of the account).
- **Throttling** (:class:`.limits.LoginGuard`): every check of a password (login,
  password change, deletion) per address and per (account, address) with backoff, and per
  account against the addresses that failed recently."""

from __future__ import annotations

import asyncio
import hashlib
import math
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from ..data import AccountData, AccountProof
from ..errors import Forbidden, NotLoggedIn, RateLimited
from ..errors import UsernameTaken as UsernameTakenError
from ..protocol import CreateGame
from ..service import GameService, NewGame, seat_plan
from .limits import LoginGuard, LoginLimits
from .passwords import Passwords
from .rules import PASSWORD_MAX, USERNAME_MAX, check_password, check_username, too_easy
from .storage import AccountStore, HeldGame, SignupsFull, UsernameTaken

T = TypeVar("T")

#: How long a session lasts from login (30 days).
SESSION_SECONDS: Final = 30 * 86400


def hash_session(session_id: str) -> bytes:
    """What the database keeps of a session id: its SHA-256."""
    return hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).digest()


@dataclass(frozen=True, slots=True)
class SignupLimits:
    """Accounts one client key may create: ``per_hour`` in any hour, ``per_day`` in any day."""

    per_hour: int = 3
    per_day: int = 10

    def quotas(self) -> tuple[tuple[int, float], ...]:
        return ((self.per_hour, 3600.0), (self.per_day, 86400.0))


@dataclass(frozen=True, slots=True)
class Login:
    """A logged-in account and its new session id (for the cookie only)."""

    account: AccountData
    session_id: str


def _span(seconds: float) -> str:
    return {3600.0: "hour", 86400.0: "day"}.get(seconds, f"{seconds:g} s")


class AccountService:
    """Accounts, sessions and account seats over :class:`AccountStore` (see the module doc)."""

    def __init__(
        self,
        store: AccountStore,
        games: GameService,
        limits: LoginLimits | None = None,
        clock: Callable[[], float] | None = None,
        signups: SignupLimits | None = None,
    ) -> None:
        self.store = store
        self.games = games
        #: Wall time: the game service's clock unless one is given.
        self.clock = clock or games.clock.time
        self.signups = signups or SignupLimits()
        self.guard = LoginGuard(limits, games.clock.monotonic)
        self._passwords = Passwords(max_length=PASSWORD_MAX)
        self._dummy = self._passwords.hash_now(secrets.token_urlsafe(16))

    def close(self) -> None:
        """Stop the hashing threads (queued hashing is dropped: the server is stopping)."""
        self._passwords.close()

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Database calls in a worker thread: the event loop never waits on them (hashing has
        its own bounded, low-priority threads: :class:`.passwords.Passwords`)."""
        return await asyncio.to_thread(fn, *args)

    # --- accounts ----------------------------------------------------------------------

    async def register(self, username: str, password: str, address: str) -> Login:
        """A new account, logged in, created from ``address`` (a client key). ``bad_account``
        for a refused name or password, ``username_taken`` if another account has the name or
        one that looks like it, ``rate_limited`` over the address's sign-up quota."""
        name = check_username(username)
        too_easy(await self._passwords.weakness(check_password(password, name)))
        quotas = self.signups.quotas()
        try:
            await self._run(self.store.check_signups, address, self.clock(), quotas)
            hashed = await self._passwords.hash(password)
            account = await self._run(self.store.insert_account, name, hashed, self.clock(), address, quotas)
        except UsernameTaken:
            raise UsernameTakenError(f"the username {name!r} is taken, or one that looks like it") from None
        except SignupsFull as full:
            wait = max(1, math.ceil(full.retry_after))
            raise RateLimited(
                f"at most {full.amount} accounts per {_span(full.window)} may be created from this "
                f"address: try again in {wait} s",
                retry_after=wait,
            ) from None
        return await self._open_session(account)

    async def login(self, username: str, password: str, address: str) -> Login:
        """Log in from ``address`` (a client key); ``rate_limited`` while the throttle refuses
        the attempt (:mod:`.limits`), ``forbidden`` for a wrong name or password (the
        same reply for both)."""
        key = unicodedata.normalize("NFKC", username).casefold()[:64]
        self.guard.admit(key, address)  # counted as a failure until proved right
        account = await self._run(self.store.by_username, key) if len(key) <= USERNAME_MAX else None
        # An unknown name is verified against a dummy hash: as slow as a wrong password, so
        # the reply tells no names.
        if not await self._verify(key, address, account.password_hash if account else self._dummy, password):
            raise Forbidden("wrong username or password")
        assert account is not None  # the dummy hash's password is never sent
        self.guard.succeeded(key, address)
        return await self._open_session(account)

    async def _verify(self, key: str, address: str, password_hash: str, password: str) -> bool:
        """Verify an admitted attempt; one the hashing threads are too busy to take is not
        counted against ``address`` (its ``rate_limited`` says to try again in 1 s)."""
        try:
            right = await self._passwords.verify(password_hash, password)
        except RateLimited:
            self.guard.give_back(key, address)
            raise
        if not right:
            self.guard.failed(key, address)
        return right

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

    async def change_password(
        self, account: AccountData, session_id: str, current: str, new: str, address: str
    ) -> None:
        """Replace the password (the current one is asked again, throttled as logins are);
        other sessions end."""
        check_password(new, account.username)
        await self._confirm(account, current, address)
        too_easy(await self._passwords.weakness(new))
        hashed = await self._passwords.hash(new)
        await self._run(self.store.set_password, account.id, hashed, hash_session(session_id))

    async def delete(self, account: AccountData, password: str, address: str) -> None:
        """Delete the account (the password is asked again, throttled as logins are). Its
        games stay; its seats are named "Former player", in memory too for the games this
        process holds."""
        await self._confirm(account, password, address)
        for game_id in await self._run(self.store.delete_account, account.id):
            game = self.games.loaded(game_id)
            if game is not None:
                await self.games.catch_up(game)

    async def _confirm(self, account: AccountData, password: str, address: str) -> None:
        """``forbidden`` unless ``password`` is the account's; counted by the login throttle."""
        key = account.username.casefold()
        self.guard.admit(key, address)
        if not await self._verify(key, address, account.password_hash, password):
            raise Forbidden("wrong password")
        self.guard.succeeded(key, address)

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
        return (await self.games.game(game_id)).seats_of_account(account.id)

    @staticmethod
    def proof(account: AccountData) -> AccountProof:
        """What the account acts with; the game service checks it against the seat."""
        return AccountProof(account.id)

    async def games_of(self, account: AccountData, limit: int = 200) -> list[HeldGame]:
        return await self._run(self.store.games_of, account.id, limit)
