"""Password hashing (Argon2id, ``argon2-cffi``), kept from slowing the games down.

One hash or verification costs about 0.2 s of CPU by design (RFC 9106's low-memory profile:
three passes over 64 MiB). Run on the event loop it would freeze every game that long; run in
an unbounded pool, a burst of logins would take every core. So :class:`Passwords`:

- hashes in its own threads (``threads``, default one), never on the event loop, and at a
  lower priority (``nice`` +10 for those threads, on Linux, where priorities are per thread):
  a login then waits for a move's work, never the other way round;
- queues at most ``waiting`` more; past that a request is refused at once with
  ``rate_limited`` (429, ``Retry-After: 1``) instead of piling up memory and minutes of work.

Failed logins are throttled per account and address on top of this (:mod:`.limits`).

:func:`weakness` says why a new password is too easy to guess: ``zxcvbn`` (Dropbox's estimator,
its Python port) estimates how many guesses it takes, from its lists of common passwords,
names and words, keyboard patterns, repeats, sequences and dates; under :data:`MIN_GUESSES`
the password is refused with the estimator's reason."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Final, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn  # type: ignore[import-untyped]

from ..errors import RateLimited

T = TypeVar("T")

#: How much lower than the server's the hashing threads' priority is (``nice`` steps).
NICER: Final = 10
#: A new password must take at least this many guesses by ``zxcvbn``'s estimate (its score
#: 2, "safe from throttled online attacks": logins are throttled, :mod:`.limits`).
MIN_GUESSES: Final = 10**6
#: ``zxcvbn`` looks at this many characters at most (its own limit: its time grows quickly
#: with the length); a longer password is judged by its beginning.
ESTIMATED_LENGTH: Final = 72


def weakness(password: str) -> str | None:
    """Why ``password`` is too easy to guess (the estimator's words, never the password), or
    ``None``. About a millisecond; 30 ms for the longest pattern of 72 characters."""
    found = zxcvbn(password[:ESTIMATED_LENGTH])
    if found["guesses"] >= MIN_GUESSES:
        return None
    warning = str(found["feedback"].get("warning") or "").rstrip(".")
    return warning or "it follows a pattern that is quickly guessed"


def _lower_priority() -> None:
    """Make the calling thread :data:`NICER` (Linux; elsewhere a no-op)."""
    if hasattr(os, "setpriority") and hasattr(threading, "get_native_id"):
        with contextlib.suppress(OSError):
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + NICER)


class Passwords:
    """Argon2id hashing and verification in ``threads`` low-priority threads, at most
    ``waiting`` more queued (see the module doc). Thread-safe counting: a request abandoned
    by its client still holds its place until its hashing is done."""

    def __init__(self, threads: int = 1, waiting: int = 16, max_length: int = 256) -> None:
        self._hasher = PasswordHasher()
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="argon2", initializer=_lower_priority)
        self._room = threads + waiting
        self._max_length = max_length
        self._busy = 0
        self._lock = threading.Lock()

    async def hash(self, password: str) -> str:
        """The Argon2id hash of ``password``."""
        return await self._submit(self._hasher.hash, password)

    async def verify(self, password_hash: str, password: str) -> bool:
        """Whether ``password`` matches ``password_hash`` (``False`` for an unreadable hash or
        a password over the maximum length, which is never hashed)."""
        return await self._submit(self._verify, password_hash, password)

    async def weakness(self, password: str) -> str | None:
        """:func:`weakness` in the hashing threads (its cost is bounded as theirs is)."""
        return await self._submit(weakness, password)

    def hash_now(self, password: str) -> str:
        """:meth:`hash` in the calling thread (for set-up, before the server serves)."""
        return self._hasher.hash(password)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _verify(self, password_hash: str, password: str) -> bool:
        if len(password) > self._max_length:
            return False
        try:
            return self._hasher.verify(password_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    async def _submit(self, fn: Callable[..., T], *args: Any) -> T:
        with self._lock:
            if self._busy >= self._room:
                raise RateLimited("the server is busy checking passwords: try again in 1 s", retry_after=1)
            self._busy += 1
        future: Future[T] = self._pool.submit(fn, *args)
        future.add_done_callback(self._release)
        return await asyncio.wrap_future(future)

    def _release(self, _future: Future[Any]) -> None:
        with self._lock:
            self._busy -= 1
