"""The post-game review (:mod:`quadropolis.bots.review`): labels and accuracy by win-chance
loss, determinism, the best move losing nothing, and that it tells a random game from a
search bot's self-play."""

from __future__ import annotations

import pytest

from quadropolis import GameConfig, Mode, engine
from quadropolis.bots import (
    THRESHOLDS,
    Review,
    label_of,
    make_bot,
    move_accuracy,
    play_match,
    review_record,
)
from quadropolis.errors import ConfigError, RecordError
from quadropolis.outcome import outcome
from quadropolis.playout import random_game
from quadropolis.record import GameRecord, replay

#: A small budget: the tests check behaviour, not strength (docs/cli.md measures that).
BUDGET = 4000


def _random_record(seed: int, mode: Mode = Mode.CLASSIC) -> GameRecord:
    config = GameConfig(mode=mode, players=2, seed=seed)
    moves, _ = random_game(config, seed)
    return GameRecord(config, tuple(str(m) for m in moves))


def _selfplay_record(level: str, seed: int) -> GameRecord:
    config = GameConfig(mode=Mode.CLASSIC, players=2, seed=seed)
    # No time caps: a loaded machine must not change the game.
    result = play_match(config, [make_bot(level, time_caps=False), make_bot(level, time_caps=False)])
    return GameRecord(config, tuple(str(m) for m in result.moves))


def _bad(review: Review) -> int:
    return sum(1 for m in review.moves if m.label in ("mistake", "blunder"))


def test_labels_follow_the_documented_thresholds() -> None:
    assert dict(THRESHOLDS) == {"blunder": 0.20, "mistake": 0.10, "inaccuracy": 0.05}
    assert [label_of(x) for x in (0.0, 0.049, 0.05, 0.099, 0.10, 0.199, 0.20, 0.9)] == [
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_accuracy_is_lichess_formula() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.05) == pytest.approx(79.8, abs=0.1)
    assert move_accuracy(0.20) == pytest.approx(40.0, abs=0.2)
    assert move_accuracy(1.0) == 0.0


def test_review_is_deterministic_and_the_best_move_loses_nothing() -> None:
    full = _random_record(5)
    record = GameRecord(full.config, full.moves[:14])  # a game stopped mid-way reviews too
    seen: list[tuple[int, int]] = []
    first = review_record(record, BUDGET, lambda done, total: seen.append((done, total)))
    again = review_record(record, BUDGET)
    assert first.to_json() == again.to_json()
    assert seen == [(i, 14) for i in range(1, 15)]
    assert len(first.moves) == 14
    for m in first.moves:
        assert 0.0 <= m.win_after <= 1.0 and 0.0 <= m.win_before <= 1.0
        assert m.loss == pytest.approx(max(0.0, m.win_before - m.win_after)) or m.move == m.best
        if m.move == m.best:
            assert m.loss == 0.0 and m.label == "good"
            # the best move's expectation after is the one before, margin included
            assert (m.win_after, m.margin_after) == (m.win_before, m.margin_before)


def test_the_chart_gives_both_players_chances_in_a_two_player_game() -> None:
    record = _random_record(9)
    review = review_record(record, 600)
    chart = review.chart()
    assert len(chart) == len(record.moves)
    assert all(row[0] is not None and row[1] == pytest.approx(1 - row[0], abs=1e-3) for row in chart)
    margins = review.margin_chart()
    assert [row[m.player] for row, m in zip(margins, review.moves, strict=True)] == [
        round(m.margin_before, 4) for m in review.moves
    ]
    assert all(row[0] == -row[1] for row in margins)  # type: ignore[operator]
    # The last move ends the game: every leaf after it is the exact result, so the margin
    # after it is the mover's total less the other player's.
    last = review.moves[-1]
    totals = outcome(replay(record)).totals
    assert last.margin_after == pytest.approx(totals[last.player] - totals[1 - last.player])
    assert len({round(m.margin_before) for m in review.moves}) > 3  # it moves over the game


def test_a_three_player_review_has_margins_against_the_best_other_player() -> None:
    config = GameConfig(mode=Mode.CLASSIC, players=3, seed=8)
    moves, _ = random_game(config, 8)
    review = review_record(GameRecord(config, tuple(str(m) for m in moves)), 300)
    last = review.moves[-1]
    totals = outcome(replay(GameRecord(config, tuple(str(m) for m in moves)))).totals
    best_other = max(t for p, t in enumerate(totals) if p != last.player)
    assert last.margin_after == pytest.approx(totals[last.player] - best_other)
    for row, m in zip(review.margin_chart(), review.moves, strict=True):
        assert row[m.player] == round(m.margin_before, 4) and row.count(None) == 2


def test_a_random_game_has_many_more_mistakes_than_a_search_self_play_game() -> None:
    random_review = review_record(_random_record(21), BUDGET)
    hard_review = review_record(_selfplay_record("hard", 21), BUDGET)
    random_bad, hard_bad = _bad(random_review), _bad(hard_review)
    assert random_bad >= 12, random_bad
    assert random_bad >= 3 * max(1, hard_bad), (random_bad, hard_bad)
    for r in (random_review, hard_review):
        assert len(r.summaries) == 2
    random_accuracy = min(s.accuracy for s in random_review.summaries)
    hard_accuracy = min(s.accuracy for s in hard_review.summaries)
    assert hard_accuracy > random_accuracy + 15
    worst = [random_review.moves[i] for i in random_review.worst]
    assert worst and all(m.label != "good" for m in worst)
    assert [m.loss for m in worst] == sorted((m.loss for m in worst), reverse=True)


def test_bad_records_are_refused_precisely() -> None:
    record = _random_record(3)
    with pytest.raises(RecordError, match=r"move 2 \(zz\)|move 2:"):
        review_record(GameRecord(record.config, (record.moves[0], "zz")), 100)
    with pytest.raises(ConfigError, match="no move"):
        review_record(GameRecord(record.config, ()), 100)


def test_expert_games_review_too() -> None:
    record = _random_record(4, Mode.EXPERT)
    review = review_record(GameRecord(record.config, record.moves[:6]), 600)
    assert [m.index for m in review.moves] == list(range(6))
    assert all(m.text.endswith(f"({m.move})") for m in review.moves)
    assert "tower_block" not in " ".join(m.text + m.best_text for m in review.moves)


def test_the_python_search_reviews_the_same_margins() -> None:
    # QUADROPOLIS_ENGINE=python reviews with the Python search: the same draws, so the same
    # figures, the expected margins included.
    full = _random_record(6)
    record = GameRecord(full.config, full.moves[:5])
    with engine.using("native"):
        native = review_record(record, 150).to_json()
    with engine.using("python"):
        python = review_record(record, 150).to_json()
    assert python == native
    assert all("margin_before" in m and "margin_after" in m for m in python["moves"])
