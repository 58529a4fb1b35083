"""Storage of accounts: the tables and the repository the account service uses.
Like :mod:`..storage`, it hands out plain values, never a row or a session, and is synchronous
(the service calls it from a worker thread).

Two tables, in the same database as the games (created by migration ``0005``):

- ``accounts``: the username as the player chose it, its case-folded key (unique: ``Alice``
  and ``alice`` are one account), its confusable skeleton (unique: ``a1ice`` cannot join
  ``alice``, :mod:`.names`), the Argon2id hash of the password (never the password),
  when it was created and the client key of the address that created it (``signup_key``,
  :func:`..edges.client_key`: an IPv6 address's /64), which the sign-up quota counts on.
- ``account_sessions``: one row per logged-in browser: the SHA-256 of the session id (the id
  itself lives only in the browser's cookie), the account, and when it expires.
Which account holds which seat is not kept here but with the seat (``seats.account_id``:
:mod:`..storage`), so that joining, leaving and resigning change it with the seat's token.
Deleting an account clears it from its seats and renames them :data:`FORMER_PLAYER`; the
games, their seats and actions stay."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..data import OVER, AccountData
from ..schema import AccountRow, GameRow, SeatRow, SessionRow
from .names import skeleton

#: How the seats of a deleted account are named from then on.
FORMER_PLAYER: Final = "Former player"
#: The ``signup_key`` of an account whose creating address is not known (made before it was
#: kept, or stored without one): this prefix and the account's id, so it equals no other's.
UNKNOWN_SIGNUP: Final = "unknown:"


@dataclass(frozen=True, slots=True)
class HeldGame:
    """A game one of whose seats is an account's: the game's status and those seats (resigned
    ones included: their results are the account's)."""

    game: str
    status: str
    seats: tuple[int, ...]
    created_at: float
    finished_at: float | None


class UsernameTaken(Exception):
    """Another account has that username, or one that looks like it (the same skeleton)."""


class SignupsFull(Exception):
    """The address has created as many accounts as a quota allows; ``retry_after``: seconds
    until it may create one again."""

    def __init__(self, amount: int, window: float, retry_after: float) -> None:
        super().__init__(amount, window, retry_after)
        self.amount = amount
        self.window = window
        self.retry_after = retry_after


#: A sign-up quota: at most ``amount`` accounts created from one client key in ``window`` s.
Quota = tuple[int, float]


def _account(r: AccountRow) -> AccountData:
    return AccountData(r.id, r.username, r.password_hash, r.created_at, r.signup_key)


def _lock_key(signup_key: str) -> int:
    """A PostgreSQL advisory lock id (signed 64 bits) for ``signup_key``."""
    return int.from_bytes(hashlib.sha256(signup_key.encode()).digest()[:8], "big", signed=True)


class AccountStore:
    """Every read and write of accounts and sessions, and the games of an account, on the
    games' engine."""

    def __init__(self, engine: Engine) -> None:
        self._session = sessionmaker(engine, expire_on_commit=False)

    def insert_account(
        self,
        username: str,
        password_hash: str,
        now: float,
        signup_key: str | None = None,
        quotas: Sequence[Quota] = (),
    ) -> AccountData:
        """Store a new account; :class:`UsernameTaken` if its key or its skeleton is taken
        (the database's UNIQUE decides, so two registrations racing for a name cannot both
        win); :class:`SignupsFull` if ``signup_key`` would be over one of ``quotas`` with it.

        The quota is counted in the inserting transaction, after the insert, under a lock of
        the key (PostgreSQL: an advisory lock; SQLite: the insert takes the database's only
        write lock), so registrations racing from one address, in one server process or
        several, cannot pass it together."""
        row = AccountRow(
            username=username,
            username_key=username.casefold(),
            username_skeleton=skeleton(username),
            password_hash=password_hash,
            created_at=now,
            signup_key=signup_key or UNKNOWN_SIGNUP,
        )
        try:
            with self._session.begin() as s:
                if signup_key is not None and quotas and s.get_bind().dialect.name == "postgresql":
                    s.execute(select(func.pg_advisory_xact_lock(_lock_key(signup_key))))
                s.add(row)
                s.flush()
                if signup_key is None:
                    row.signup_key = f"{UNKNOWN_SIGNUP}{row.id}"
                    s.flush()
                else:
                    self._check_quotas(s, signup_key, now, quotas, including_new=True)
                return _account(row)
        except IntegrityError:
            raise UsernameTaken(username) from None

    def check_signups(self, signup_key: str, now: float, quotas: Sequence[Quota]) -> None:
        """:class:`SignupsFull` if ``signup_key`` may not create an account now (a cheap look
        before the password is hashed; :meth:`insert_account` decides)."""
        with self._session() as s:
            self._check_quotas(s, signup_key, now, quotas, including_new=False)

    @staticmethod
    def _check_quotas(
        s: Session, signup_key: str, now: float, quotas: Sequence[Quota], including_new: bool
    ) -> None:
        for amount, window in quotas:
            # Room comes back when the amount-th newest of the other accounts leaves the window
            # (the new one, just inserted, is the newest when it is counted).
            kth = s.scalars(
                select(AccountRow.created_at)
                .where(AccountRow.signup_key == signup_key, AccountRow.created_at > now - window)
                .order_by(AccountRow.created_at.desc())
                .offset(amount if including_new else amount - 1)
                .limit(1)
            ).first()
            if kth is not None:
                raise SignupsFull(amount, window, max(1.0, kth + window - now))

    def by_username(self, username: str) -> AccountData | None:
        with self._session() as s:
            row = s.scalar(select(AccountRow).where(AccountRow.username_key == username.casefold()))
            return None if row is None else _account(row)

    def set_password(self, account_id: int, password_hash: str, keep_session: bytes) -> None:
        """Replace the password hash and end every other session of the account."""
        with self._session.begin() as s:
            s.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash)
            )
            s.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == account_id, SessionRow.id_hash != keep_session
                )
            )

    def delete_account(self, account_id: int) -> list[str]:
        """Delete the account and its sessions; its seats lose their account and are renamed
        :data:`FORMER_PLAYER` (the games stay). Returns the ids of the games concerned."""
        with self._session.begin() as s:
            held = s.scalars(select(SeatRow.game_id).where(SeatRow.account_id == account_id)).all()
            theirs = SeatRow.account_id == account_id
            s.execute(update(SeatRow).where(theirs).values(name=FORMER_PLAYER, account_id=None))
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            s.execute(delete(AccountRow).where(AccountRow.id == account_id))
            return sorted(set(held))

    # --- sessions ----------------------------------------------------------------------

    def insert_session(self, id_hash: bytes, account_id: int, now: float, expires_at: float) -> None:
        """Store a new session; expired ones are deleted in the same transaction (so the
        table holds only live sessions and those expired since the last login)."""
        with self._session.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.expires_at <= now))
            s.add(SessionRow(id_hash=id_hash, account_id=account_id, created_at=now, expires_at=expires_at))

    def session_account(self, id_hash: bytes, now: float) -> AccountData | None:
        """The account of an unexpired session, or ``None``."""
        with self._session() as s:
            row = s.scalar(
                select(AccountRow)
                .join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(SessionRow.id_hash == id_hash, SessionRow.expires_at > now)
            )
            return None if row is None else _account(row)

    def delete_session(self, id_hash: bytes) -> None:
        with self._session.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.id_hash == id_hash))

    # --- seats -------------------------------------------------------------------------

    def games_of(self, account_id: int, limit: int) -> list[HeldGame]:
        """The games where the account holds a seat, newest first (at most ``limit``)."""
        with self._session() as s:
            rows = s.execute(
                select(GameRow.id, GameRow.status, GameRow.created_at, GameRow.finished_at, SeatRow.seat)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(SeatRow.account_id == account_id)
                .order_by(GameRow.created_at.desc(), GameRow.id, SeatRow.seat)
            ).all()
        found: dict[str, HeldGame] = {}
        for game_id, status, created, finished, seat in rows:
            held = found.get(game_id)
            seats = (seat,) if held is None else (*held.seats, seat)
            found[game_id] = HeldGame(game_id, status, seats, created, finished)
        return list(found.values())[:limit]

    def finished_games(self, account_id: int) -> int:
        """How many finished games the account played in."""
        with self._session() as s:
            return int(
                s.scalar(
                    select(func.count(func.distinct(SeatRow.game_id)))
                    .join(GameRow, GameRow.id == SeatRow.game_id)
                    .where(SeatRow.account_id == account_id, GameRow.status == OVER)
                )
                or 0
            )
