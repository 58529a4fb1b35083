"""Login throttling that slows the guesser, not the account's owner (:class:`LoginGuard`).

Every attempt to prove an account's password (logging in, and the current password asked
again to change the password or delete the account) is counted as a failure *before* the
password is verified, and taken back if it was right: guesses sent all at once cannot each
pass the check before the first one is counted; a wrong one is dated when it is judged.
Counters, over the last ``window`` seconds (:class:`LoginLimits`; each server process counts
its own):

- per client address (:func:`..edges.client_key`: an IPv6 client is its /64) and per
  (account, address): after ``free_per_address`` / ``free_per_pair`` failures, each further
  attempt must wait ``first_delay`` seconds after the last failure, doubling with every
  failure, at most ``window`` (exponential backoff); earlier: ``rate_limited`` (429) with
  ``Retry-After``;
- per account (from every address): past ``per_account`` failures, the account refuses the
  addresses that have failed to log in recently (to any account), and only those. A right
  password from an address with no recent failure still logs in: a crowd of guessers cannot
  lock its owner out, and each of its addresses gets one guess before it is refused.

Usernames that name no account are counted the same way (the replies tell no names)."""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..errors import RateLimited


@dataclass(frozen=True, slots=True)
class LoginLimits:
    """The numbers of :class:`LoginGuard` (module doc): failures count for 15 minutes; 5 per
    (account, address) and 10 per address are free, then 2 s, 4 s, 8 s … between attempts;
    past 20 on one account, only addresses with no recent failure are heard."""

    window: float = 15 * 60
    free_per_pair: int = 5
    free_per_address: int = 10
    first_delay: float = 2.0
    per_account: int = 20


class Backoff:
    """Failures per key in a sliding ``window``: past ``free`` of them, the next attempt waits
    ``first_delay`` doubled for every failure over ``free`` (at most ``window``) after the last.
    Memory stays bounded: at most ``free + 64`` times per key, at most :attr:`max_keys` keys
    (past that the key that failed least recently is forgotten)."""

    max_keys: Final = 10_000

    def __init__(
        self, free: int, first_delay: float, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.free = free
        self.first_delay = first_delay
        self.window = window
        self.clock = clock
        self._events: OrderedDict[str, deque[float]] = OrderedDict()

    def recent(self, key: str) -> int:
        """How many failures of ``key`` are in the window."""
        events = self._events.get(key)
        if events is None:
            return 0
        horizon = self.clock() - self.window
        while events and events[0] <= horizon:
            events.popleft()
        if not events:
            del self._events[key]
        return len(events)

    def wait(self, key: str) -> float | None:
        """Seconds ``key`` must wait before its next attempt, or ``None`` if it may try now."""
        count = self.recent(key)
        if count < self.free:
            return None
        delay = min(self.first_delay * 2.0 ** (count - self.free), self.window)
        left = self._events[key][-1] + delay - self.clock()
        return left if left > 0 else None

    def until_below(self, key: str, count: int) -> float:
        """Seconds until fewer than ``count`` failures of ``key`` are left in the window."""
        events = self._events.get(key)
        if events is None or len(events) < count:
            return 0.0
        return max(0.0, events[-count] + self.window - self.clock())

    def add(self, key: str) -> None:
        events = self._events.pop(key, None) or deque(maxlen=self.free + 64)
        events.append(self.clock())
        self._events[key] = events  # last in the order: the most recent failure
        while len(self._events) > self.max_keys:
            self._events.popitem(last=False)

    def restamp(self, key: str) -> None:
        """Date the newest failure of ``key`` now (when it was judged, not when it came in)."""
        events = self._events.get(key)
        if events:
            events[-1] = self.clock()

    def give_back(self, key: str) -> None:
        """Forget the newest failure of ``key`` (an attempt that turned out to succeed)."""
        events = self._events.get(key)
        if events:
            events.pop()

    def clear(self, key: str) -> None:
        self._events.pop(key, None)


def _refusal(why: str, wait: float) -> RateLimited:
    seconds = max(1, math.ceil(wait))
    return RateLimited(f"{why}: try again in {seconds} s", retry_after=seconds)


class LoginGuard:
    """The throttle of the module doc, on a monotonic ``clock``. :meth:`admit` before each
    password check, :meth:`succeeded` after a right one."""

    def __init__(
        self, limits: LoginLimits | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limits = limits = limits or LoginLimits()
        self._pairs = Backoff(limits.free_per_pair, limits.first_delay, limits.window, clock)
        self._addresses = Backoff(limits.free_per_address, limits.first_delay, limits.window, clock)
        self._accounts = Backoff(limits.per_account, limits.first_delay, limits.window, clock)

    def admit(self, account: str, address: str) -> None:
        """Count an attempt on ``account`` (its case-folded name) from ``address`` (a client
        key) as a failure, or refuse it with ``rate_limited``. No await: checking and counting
        are one step for the event loop."""
        pair = f"{address} {account}"
        wait = self._pairs.wait(pair)
        if wait is not None:
            raise _refusal("too many failed logins to this account from this address", wait)
        wait = self._addresses.wait(address)
        if wait is not None:
            raise _refusal("too many failed logins from this address", wait)
        if self._accounts.recent(account) >= self.limits.per_account and self._addresses.recent(address):
            wait = min(
                self._accounts.until_below(account, self.limits.per_account),
                self._addresses.until_below(address, 1),
            )
            raise _refusal("too many failed logins to this account, and some from this address", wait)
        self._pairs.add(pair)
        self._addresses.add(address)
        self._accounts.add(account)

    def failed(self, account: str, address: str) -> None:
        """The attempt admitted last was wrong: the backoff runs from now, when the reply goes
        out (verifying may have waited for the hashing threads)."""
        self._pairs.restamp(f"{address} {account}")
        self._addresses.restamp(address)

    def succeeded(self, account: str, address: str) -> None:
        """The attempt admitted last was right: its failures are taken back, and the address's
        earlier failures on this account are forgotten."""
        self.give_back(account, address)
        self._pairs.clear(f"{address} {account}")

    def give_back(self, account: str, address: str) -> None:
        """The attempt admitted last was not judged (the server was busy): it is not counted."""
        self._pairs.give_back(f"{address} {account}")
        self._addresses.give_back(address)
        self._accounts.give_back(account)
