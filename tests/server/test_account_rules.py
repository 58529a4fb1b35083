"""The accounts' rules without a server (issue 23): usernames and the login throttle's
sliding window, on a clock the test moves."""

from __future__ import annotations

import pytest

from quadropolis.server.accounts import Throttle, check_password, check_username
from quadropolis.server.errors import BadAccount


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_throttle_slides_its_window() -> None:
    clock = Clock()
    throttle = Throttle(3, 60.0, clock)
    for t in (0.0, 10.0, 20.0):
        clock.now = t
        assert throttle.full("k") is None
        throttle.add("k")
    assert throttle.full("k") == 40.0  # the first event leaves the window at 60
    assert throttle.full("other") is None
    clock.now = 60.0
    assert throttle.full("k") is None
    throttle.add("k")
    assert throttle.full("k") == 10.0
    throttle.give_back("k")
    assert throttle.full("k") is None


def test_the_throttle_drops_idle_keys_when_it_holds_many() -> None:
    clock = Clock()
    throttle = Throttle(1, 60.0, clock)
    for i in range(Throttle.max_keys):
        throttle.add(f"k{i}")
    clock.now = 61.0
    throttle.add("new")
    assert throttle.full("new") is not None
    assert len(throttle._events) == 1


def test_usernames_are_normalised_before_the_rules() -> None:
    assert check_username("Ann_42") == "Ann_42"
    assert check_username("ａｎｎ") == "ann"  # fullwidth forms are the ASCII they look like
    for bad in ("аnn", "a\tb", "ann\u202e", "x", "Moderator", "former-player", "EXPERT", "bot2000"):
        with pytest.raises(BadAccount):
            check_username(bad)


def test_password_bounds() -> None:
    assert check_password("8 chars!") == "8 chars!"
    with pytest.raises(BadAccount, match="at least 8"):
        check_password("7 chars")
    with pytest.raises(BadAccount, match="at most 256"):
        check_password("p" * 257)
