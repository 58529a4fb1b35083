"""Invariants of whole random games in every mode and player count."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quadropolis import GameConfig, GameState, Mode, Take, apply, legal_moves, new_game
from quadropolis.city import GEOMETRY
from quadropolis.moves import move_number
from quadropolis.rules import legal_move_numbers
from quadropolis.state import TAKE

CASES = [(m, p) for m in Mode for p in (2, 3, 4)]


def play(config: GameConfig, rng: random.Random, check: bool = True) -> tuple[GameState, list[str]]:
    s = new_game(config)
    moves: list[str] = []
    geo = GEOMETRY[config.mode]
    while not s.is_over:
        legal = legal_moves(s)
        assert legal, "R7: a legal move always exists until the game ends"
        assert len(set(legal)) == len(legal)
        numbers = [move_number(m) for m in legal]
        assert numbers == sorted(numbers) and legal_move_numbers(s) == numbers
        m = rng.choice(legal)
        moves.append(str(m))
        s = apply(s, m)
        if check:
            assert all(v >= 0 for v in s.inhabitants + s.energy)
            for city in s.cities:
                for b in city:
                    if b is not None:
                        assert 1 <= b.floors <= geo.max_floors.get(b.type, 1)
    return s, moves


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 2**32))
def test_games_end_after_exactly_4_turns_x_rounds_x_players_takes(case: tuple[Mode, int], seed: int) -> None:
    mode, players = case
    config = GameConfig(mode=mode, players=players, seed=seed, first_player=seed % players)
    s, moves = play(config, random.Random(seed))
    rounds = 4 if mode is Mode.CLASSIC else 5
    takes = [m for m in moves if m[0].isdigit()]
    assert len(takes) == 4 * rounds * players
    assert s.round == rounds
    # every player took exactly 4 actions per round: each non-take move follows a take
    builds = len(moves) - len(takes)
    assert builds <= len(takes)
    placed = sum(b.floors for city in s.cities for b in city if b is not None)
    assert placed == sum(1 for m in moves if m.startswith("r"))


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 2**32))
def test_same_seed_and_moves_give_the_same_game(case: tuple[Mode, int], seed: int) -> None:
    mode, players = case
    config = GameConfig(mode=mode, players=players, seed=seed)
    s1, moves = play(config, random.Random(seed), check=False)
    s2 = new_game(config)
    for m in moves:
        s2 = apply(s2, m)
    assert s2 == s1 and s2.to_json() == s1.to_json()


@pytest.mark.parametrize("mode,players", CASES)
def test_each_player_acts_four_times_per_round_in_seat_order(mode: Mode, players: int) -> None:
    s = new_game(GameConfig(mode=mode, players=players, seed=1, first_player=players - 1))
    rng = random.Random(2)
    order: list[tuple[int, int]] = []
    while not s.is_over:
        if s.phase == TAKE:
            order.append((s.round, s.current_player))
        m = rng.choice(legal_moves(s))
        if isinstance(m, Take):
            assert s.current_player == (s.starter + s.position) % players
        s = apply(s, m)
    for rnd in range(1, s.rounds + 1):
        seats = [p for r, p in order if r == rnd]
        assert len(seats) == 4 * players
        start = seats[0]
        assert seats == [(start + k) % players for k in range(4 * players)]


def test_different_seeds_give_different_layouts() -> None:
    layouts = {tuple(new_game(GameConfig(seed=s)).site) for s in range(50)}
    assert len(layouts) == 50


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(CASES), st.sampled_from(["lines", "square"]), st.integers(0, 2**32))
def test_legal_move_numbers_are_the_numbers_of_the_legal_moves_under_every_variant(
    case: tuple[Mode, int], blocks: str, seed: int
) -> None:
    # legal_move_numbers is made from the same tables as legal_moves, not from its moves: it
    # must list exactly their numbers, ascending, in every position (R5 lines or the square
    # variant's designated-square rule, stacks included).
    mode, players = case
    s = new_game(GameConfig(mode=mode, players=players, seed=seed, urbanist_blocks=blocks))
    rng = random.Random(seed)
    while not s.is_over:
        legal = legal_moves(s)
        assert legal_move_numbers(s) == [move_number(m) for m in legal]
        s = apply(s, rng.choice(legal))
    assert legal_move_numbers(s) == [] == legal_moves(s)
