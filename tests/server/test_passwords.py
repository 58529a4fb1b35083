"""Argon2 hashing beside the games (as the server bench's logins do): in threads of its own, at a
lower priority than the event loop's, and bounded — a burst of logins is refused past the
queue instead of piling up CPU work."""

from __future__ import annotations

import asyncio
import os
import sys
import threading

import pytest

from quadropolis.server.accounts.passwords import NICER, Passwords
from quadropolis.server.errors import RateLimited


def test_a_hash_verifies_its_password_only() -> None:
    passwords = Passwords()
    try:
        hashed = asyncio.run(passwords.hash("a long secret"))
        assert asyncio.run(passwords.verify(hashed, "a long secret"))
        assert not asyncio.run(passwords.verify(hashed, "a long secreT"))
        assert not asyncio.run(passwords.verify("not a hash", "a long secret"))
        assert not asyncio.run(passwords.verify(hashed, "x" * 257))  # over the maximum: never hashed
    finally:
        passwords.close()


def test_past_the_queue_a_request_is_refused_at_once_and_room_comes_back() -> None:
    passwords = Passwords(threads=1, waiting=1)
    hashed = passwords.hash_now("a long secret")

    async def burst() -> list[bool | BaseException]:
        tries = [passwords.verify(hashed, "a long secret") for _ in range(3)]
        return await asyncio.gather(*tries, return_exceptions=True)

    try:
        first, second, third = asyncio.run(burst())
        assert first is True and second is True  # one hashing, one waiting
        assert isinstance(third, RateLimited) and third.retry_after == 1
        assert asyncio.run(passwords.verify(hashed, "a long secret"))  # the room is back
    finally:
        passwords.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread priorities are Linux's")
def test_hashing_runs_at_a_lower_priority_than_the_event_loop() -> None:
    passwords = Passwords()
    seen: list[int] = []

    def nice_of_this_thread() -> None:
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))

    try:
        asyncio.run(passwords._submit(nice_of_this_thread))
        assert seen == [min(19, os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) + NICER)]
    finally:
        passwords.close()
