"""The accounts' rules without a server: usernames, their look-alike skeletons,
passwords, and the login throttle's backoff and per-account rule on a clock the test moves."""

from __future__ import annotations

import pytest

from quadropolis.server.accounts.limits import Backoff, LoginGuard, LoginLimits
from quadropolis.server.accounts.names import skeleton
from quadropolis.server.accounts.passwords import weakness
from quadropolis.server.accounts.rules import check_password, check_username
from quadropolis.server.errors import BadAccount, RateLimited


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_backoff_doubles_its_delay_after_the_free_failures_and_slides_its_window() -> None:
    clock = Clock()
    backoff = Backoff(2, 1.0, 60.0, clock)
    for _ in range(2):
        assert backoff.wait("k") is None
        backoff.add("k")
    assert backoff.wait("k") == 1.0
    clock.now = 1.0
    assert backoff.wait("k") is None
    backoff.add("k")
    assert backoff.wait("k") == 2.0
    assert backoff.wait("other") is None
    backoff.give_back("k")
    assert backoff.wait("k") is None  # one second after the second failure
    clock.now = 61.0  # every failure has left the window
    assert backoff.recent("k") == 0 and backoff.wait("k") is None


def test_the_backoff_forgets_the_least_recent_keys_when_it_holds_many() -> None:
    clock = Clock()
    backoff = Backoff(1, 1.0, 60.0, clock)
    for i in range(Backoff.max_keys + 5):
        backoff.add(f"k{i}")
    assert len(backoff._events) == Backoff.max_keys
    assert backoff.recent("k0") == 0 and backoff.recent(f"k{Backoff.max_keys + 4}") == 1


def test_a_locked_account_refuses_only_addresses_that_failed_recently() -> None:
    clock = Clock()
    guard = LoginGuard(LoginLimits(per_account=4, free_per_pair=2, free_per_address=3), clock)
    for attacker in ("a1", "a2"):
        for _ in range(2):
            guard.admit("alice", attacker)
    clock.now = 10.0  # past every backoff: only the account's rule refuses
    with pytest.raises(RateLimited, match="to this account, and some from this address"):
        guard.admit("alice", "a1")
    guard.admit("alice", "owner")  # a clean address is still heard ...
    guard.succeeded("alice", "owner")  # ... and its right password is not counted
    guard.admit("alice", "a3")  # a new guesser gets one guess,
    with pytest.raises(RateLimited) as refused:
        guard.admit("alice", "a3")  # and no second one
    assert refused.value.retry_after == 890  # when the account's failures fall under 4
    guard.admit("bob", "a4")
    clock.now = 901.0  # the failures have left the window
    guard.admit("alice", "a1")


def test_a_busy_check_is_not_counted() -> None:
    guard = LoginGuard(LoginLimits(free_per_pair=1), Clock())
    guard.admit("alice", "a")
    guard.give_back("alice", "a")
    guard.admit("alice", "a")
    with pytest.raises(RateLimited, match="from this address"):
        guard.admit("alice", "a")


def test_look_alike_names_share_a_skeleton() -> None:
    alice = skeleton("alice")
    assert [skeleton(n) == alice for n in ("aIice", "ALICE", "a1ice", "AL1CE", "aiice")] == [True] * 5
    assert skeleton("rnary") == skeleton("Mary") and skeleton("vvendy") == skeleton("Wendy")
    assert skeleton("0tto") == skeleton("Otto")
    assert skeleton("alice_") != alice and skeleton("bob") != skeleton("dob")
    for name in ("rnary", "aIice", "vv0w"):
        assert skeleton(skeleton(name)) == skeleton(name)  # an equivalence: prototypes are fixed


def test_usernames_are_normalised_before_the_rules() -> None:
    assert check_username("Ann_42") == "Ann_42"
    assert check_username("ａｎｎ") == "ann"  # fullwidth forms are the ASCII they look like
    bad_names = ("аnn", "a\tb", "ann\u202e", "x", "Moderator", "former-player", "EXPERT", "bot2000")
    for bad in (*bad_names, "adrnin", "ADM1N", "b0t_7", "r00t", "Forrner_PIayer"):
        with pytest.raises(BadAccount):
            check_username(bad)


def test_password_bounds() -> None:
    assert check_password("8 chars!", "ann") == "8 chars!"
    with pytest.raises(BadAccount, match="at least 8"):
        check_password("7 chars", "ann")
    with pytest.raises(BadAccount, match="at most 256"):
        check_password("p" * 257, "ann")


def test_passwords_holding_the_username_or_easy_to_guess_are_refused() -> None:
    with pytest.raises(BadAccount, match="may not contain the username"):
        check_password("my-ALICE-2026!", "Alice")
    assert weakness("password") == "This is a top-10 common password"
    assert weakness("qwertyuiop") == "This is a top-100 common password"
    assert weakness("Password1!") is not None and weakness("abcabcabcabc") is not None
    assert weakness("correct horse battery") is None and weakness("a long secret") is None
    assert weakness("q" * 200 + "x") is not None  # judged by its first 72 characters
