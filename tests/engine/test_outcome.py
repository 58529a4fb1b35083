"""The outcome: R13's ranking and what decided it, and the projected scores after each move,
computed once in the core (the server, terminal, arena, bots and browser display them)."""

from __future__ import annotations

import random

import pytest

from quadropolis import GameConfig, Mode, apply, legal_moves, new_game
from quadropolis.buildings import BuildingType as BT
from quadropolis.city import Building
from quadropolis.errors import RecordError
from quadropolis.moves import Discard
from quadropolis.outcome import (
    Outcome,
    fed_score,
    fed_scores_after,
    outcome,
    places,
    projected_score,
    result_places,
    scores_after,
)
from quadropolis.phases import PLACE
from quadropolis.record import FORMAT, GameRecord, replay, result_json
from quadropolis.rules import apply_unchecked
from quadropolis.scoring import CityScore, Placement


def _city(total: int, inhabitants: int, empty: int) -> CityScore:
    return CityScore(total, {}, inhabitants, empty, Placement((), (), (), (), 0, 0))


def _of(*cities: tuple[int, int, int]) -> Outcome:
    scores = tuple(_city(*c) for c in cities)
    keys = [(s.total, s.inhabitants_placed, -s.empty_squares) for s in scores]
    return Outcome(scores, tuple(p for p, k in enumerate(keys) if k == max(keys)))


def test_decided_by_names_the_first_r13_criterion_that_separates_the_winner() -> None:
    assert _of((30, 5, 2), (20, 9, 0)).decided_by == "score"
    assert _of((30, 5, 2), (30, 4, 0)).decided_by == "inhabitants_placed"
    assert _of((30, 5, 2), (30, 5, 3)).decided_by == "empty_squares"
    assert _of((30, 5, 2), (30, 5, 2), (10, 0, 0)).decided_by == "shared"
    # a tie lower down does not matter: the winner is alone on VP
    assert _of((40, 0, 9), (30, 5, 2), (30, 5, 2)).decided_by == "score"


def test_ranks_follow_r13_and_equal_places_are_shared() -> None:
    assert _of((30, 5, 2), (20, 9, 0)).ranks == (1, 2)
    assert _of((20, 9, 0), (30, 5, 2)).ranks == (2, 1)
    assert _of((30, 5, 2), (30, 6, 2), (30, 6, 1)).ranks == (3, 2, 1)
    assert _of((30, 5, 2), (30, 5, 2), (10, 0, 0), (31, 0, 0)).ranks == (2, 2, 4, 1)
    assert _of((10, 0, 0), (10, 0, 0), (10, 0, 0)).ranks == (1, 1, 1)
    assert _of((30, 5, 2), (30, 5, 2), (10, 0, 0), (31, 0, 0)).order == (3, 0, 1, 2)


def test_winners_are_exactly_the_first_places_of_real_games() -> None:
    rng = random.Random(13)
    for g in range(30):
        state = new_game(GameConfig(mode=Mode(("classic", "expert")[g % 2]), players=2 + g % 3, seed=g))
        while not state.is_over:
            moves = legal_moves(state)
            apply_unchecked(state, moves[int(rng.random() * len(moves))])
        out = outcome(state)
        assert out.winners == tuple(p for p, r in enumerate(out.ranks) if r == 1)
        assert (out.decided_by == "shared") == (len(out.winners) > 1)
        assert [out.ranks[p] for p in out.order] == sorted(out.ranks)


def test_scores_after_is_the_projection_after_each_legal_move() -> None:
    state = new_game(GameConfig(mode=Mode.EXPERT, players=3, seed=5))
    rng = random.Random(5)
    checked = 0
    while not state.is_over and checked < 12:
        if state.phase == PLACE:
            seat = state.current_player
            pairs = scores_after(state)
            assert [m for m, _ in pairs] == legal_moves(state)
            for move, score in pairs:
                assert score == projected_score(apply(state, move), seat)
            other = (seat + 1) % 3
            assert [s for _, s in scores_after(state, other)] == [projected_score(state, other)] * len(pairs)
            checked += 1
        moves = legal_moves(state)
        state = apply(state, moves[int(rng.random() * len(moves))])
    assert checked == 12


def test_fed_score_counts_buildings_as_if_their_resources_had_come_in() -> None:
    state = new_game(GameConfig(mode=Mode.CLASSIC, players=2, seed=1))
    state.cities[0][0] = Building(BT.SHOP)
    # no inhabitant yet: the shop scores nothing now, 7 VP with its 4 customers
    assert projected_score(state, 0).total == 0
    assert fed_score(state, 0) == 7
    state.cities[0][1] = Building(BT.TOWER_BLOCK, 2)
    assert fed_score(state, 0) == 7 + 3
    # resources left over are no penalty in the fed score, they are in the projection
    state.inhabitants[0], state.energy[0] = 9, 9
    assert fed_score(state, 0) == 10
    assert projected_score(state, 0).total < 10
    assert fed_score(state, 1) == 0


def test_fed_score_is_never_below_the_projection_and_discard_keeps_it() -> None:
    rng = random.Random(7)
    checked = 0
    for g in range(6):
        state = new_game(GameConfig(mode=Mode(("classic", "expert")[g % 2]), players=2 + g % 3, seed=g))
        while not state.is_over:
            if state.phase == PLACE:
                seat = state.current_player
                pairs = fed_scores_after(state)
                assert [m for m, _ in pairs] == legal_moves(state)
                assert dict(pairs)[Discard()] == fed_score(state, seat)
                for move, fed in pairs:
                    assert fed >= projected_score(apply(state, move), seat).total
                checked += 1
            moves = legal_moves(state)
            apply_unchecked(state, moves[int(rng.random() * len(moves))])
    assert checked > 100


def test_forfeits_are_placed_last_the_earliest_lowest() -> None:
    keys = [(5, 0, 0), (3, 0, 0), (9, 0, 0), (3, 0, 0)]
    assert places(keys) == (2, 3, 1, 3)
    # Seat 2 resigned first, then seat 0: the others ranked by R13 above them.
    assert places(keys, (2, 0)) == (3, 1, 4, 1)
    assert result_places({"scores": [5, 9], "inhabitants_placed": [0, 0], "empty_squares": [0, 0]}) == (2, 1)
    assert result_places(
        {"scores": [5, 9], "inhabitants_placed": [0, 0], "empty_squares": [0, 0], "forfeits": [1]}
    ) == (1, 2)


def test_a_record_ended_by_a_forfeit_replays_and_a_wrong_one_is_refused() -> None:
    config = GameConfig(players=2, seed=3)
    state = new_game(config)
    moves = []
    for _ in range(6):
        move = legal_moves(state)[0]
        moves.append(str(move))
        apply_unchecked(state, move)
    ended = outcome(state, (0,))
    assert ended.winners == (1,) and ended.ranks == (2, 1) and ended.decided_by == "forfeit"
    record = GameRecord.from_json(
        {"format": FORMAT, "config": config.to_json(), "moves": moves, "result": result_json(ended)}
    )
    assert record.result is not None and record.result["forfeits"] == [0]
    assert replay(record).to_json() == state.to_json()
    wrong_winner = GameRecord(config, tuple(moves), {**result_json(ended), "winners": [0]})
    with pytest.raises(RecordError, match="winners"):
        replay(wrong_winner)
    without = {k: v for k, v in result_json(ended).items() if k != "forfeits"}
    with pytest.raises(RecordError, match="not over"):
        replay(GameRecord(config, tuple(moves), without))
    for bad in ([2], [0, 0], "0", [True]):
        with pytest.raises(RecordError, match="forfeits"):
            GameRecord(config, tuple(moves), {**without, "forfeits": bad})
