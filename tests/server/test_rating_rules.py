"""Which tables are rated, and which accounts may be rated against each other: the pure rules
of ``server/ratings/rules.py``, without a database (the server-level attacks are in the
``test_abuse_*`` files)."""

from __future__ import annotations

from quadropolis.server.data import GUIDED_SEED, SeatData
from quadropolis.server.ratings.rules import HISTORY_GAMES, AccountFacts, may_rate_each_other, rated_table

CONFIG = {"mode": "classic", "players": 2, "seed": 7}


def person(seat: int, account: int | None) -> SeatData:
    return SeatData(seat, "human", None, f"P{seat}", b"t" * 32, 1.0, account=account)


def bot(seat: int, level: str = "easy") -> SeatData:
    return SeatData(seat, "bot", level, f"Bot ({level})", None, None)


def test_a_table_is_rated_only_with_accounts_at_every_persons_seat() -> None:
    assert rated_table(CONFIG, [person(0, 1), bot(1)])
    assert rated_table(CONFIG, [person(0, 1), person(1, 2)])
    assert not rated_table(CONFIG, [person(0, 1), person(1, None)])  # a guest
    assert not rated_table(CONFIG, [person(0, 1), person(1, 1)])  # hotseat: one person
    assert not rated_table(CONFIG, [bot(0), bot(1)])  # bots alone
    assert not rated_table({**CONFIG, "seed": GUIDED_SEED}, [person(0, 1), bot(1)])  # the known deal
    assert not rated_table({**CONFIG, "variants": {"all_parks_absorb": True}}, [person(0, 1), bot(1)])
    # A resigned seat stays its account's: the table is still rated (its result counts).
    resigned = SeatData(0, "bot", "easy", "Bot (easy)", None, None, account=1)
    assert rated_table(CONFIG, [resigned, person(1, 2)])


def test_accounts_of_one_address_or_without_history_are_not_rated_against_each_other() -> None:
    seasoned = HISTORY_GAMES
    assert may_rate_each_other([AccountFacts("10.0.0.1", 0)])  # alone against bots: always
    assert may_rate_each_other([AccountFacts("10.0.0.1", seasoned), AccountFacts("10.0.0.2", seasoned)])
    assert not may_rate_each_other([AccountFacts("10.0.0.1", seasoned), AccountFacts("10.0.0.1", seasoned)])
    assert not may_rate_each_other(
        [AccountFacts("10.0.0.1", seasoned), AccountFacts("10.0.0.2", seasoned - 1)]
    )
    # Accounts older than the sign-up records (no address known) are told apart by history only.
    assert may_rate_each_other([AccountFacts("unknown:1", seasoned), AccountFacts("unknown:2", seasoned)])
