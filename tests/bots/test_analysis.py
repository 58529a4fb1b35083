"""The analysis of a position by a search bot (hints, game review): candidates, their win
chance and expected score, agreement with the bot's own choice."""

from __future__ import annotations

import random

import pytest
from helpers import game, pending

from quadropolis import Building, BuildingType, ConfigError, Mode, apply, legal_moves
from quadropolis.bots import SEARCH_LEVELS, MCTSBot, analyse, analysis_seed, make_bot, observe
from quadropolis.moves import Build


def _last_build() -> object:
    # Last action of a Classic game (as in test_bots): player 1 holds a tree park; only r1c2,
    # between its two tower blocks, gives 4 VP and the win.
    s = game(Mode.CLASSIC, 2, seed=1)
    s.round, s.turn, s.position = 4, 4, 1
    s.architects = [0b11110, 0b11100]
    pending(s, "PKT", 1)
    s.cities[0][10] = Building(BuildingType.TOWER_BLOCK, 2)
    s.energy[0] = 1
    s.cities[1][0] = Building(BuildingType.TOWER_BLOCK)
    s.cities[1][2] = Building(BuildingType.TOWER_BLOCK)
    s.energy[1] = 2
    return s


def test_at_the_last_action_each_candidate_carries_its_exact_result() -> None:
    """The game ends with this build, so every simulation through a move is the same game:
    its win chance is 1 or 0 and its expected score the exact final score."""
    from quadropolis import outcome

    s = _last_build()
    a = analyse(observe(s), MCTSBot(iterations=90), seed=3, top=20)  # type: ignore[arg-type]
    assert a.player == 1 and a.best == Build(1, 2)  # the 6 VP build
    assert len(a.candidates) == len(legal_moves(s))  # type: ignore[arg-type]
    for c in a.candidates:
        final = outcome(apply(s, c.move))  # type: ignore[arg-type]
        assert c.win_chance == (1.0 if final.winners == (1,) else 0.0)
        assert c.expected_score == final.totals[1]
    assert a.candidates[0].expected_score == max(c.expected_score for c in a.candidates)
    assert [c.visits for c in a.candidates] == sorted((c.visits for c in a.candidates), reverse=True)


def test_analysis_agrees_with_the_one_process_search_it_describes() -> None:
    s = game(Mode.CLASSIC, 2, seed=11)
    obs = observe(s)
    bot = MCTSBot(iterations=120)
    seed = random.Random(5).getrandbits(62)  # what choose() draws first from Random(5)
    a = analyse(obs, bot, seed=seed, top=40)
    assert a.best == bot.choose(obs, random.Random(5))
    assert sum(c.visits for c in a.candidates) <= 120
    assert {c.move for c in a.candidates} <= set(legal_moves(s))
    for c in a.candidates:
        assert 0.0 <= c.win_chance <= 1.0 and c.expected_score >= -40
    again = analyse(obs, bot, seed=seed, top=40)
    assert again == a  # deterministic for a seed
    assert a.to_json()["best"] == str(a.best) and len(a.to_json()["candidates"]) == len(a.candidates)  # type: ignore[arg-type]


def test_analysis_of_levels_uses_their_budget_and_refuses_what_it_cannot_do() -> None:
    s = game(Mode.EXPERT, 2, seed=4)
    hard = make_bot("hard")
    assert isinstance(hard, MCTSBot)
    try:
        a = analyse(observe(s), hard, seed=analysis_seed(0, "x"), top=3)
    finally:
        hard.close()
    assert a.iterations == SEARCH_LEVELS["hard"].iterations and len(a.candidates) == 3 and a.level == "hard"
    with pytest.raises(ConfigError, match="iteration budget"):
        analyse(observe(s), MCTSBot(iterations=None, seconds=0.1), seed=1)
    over = game(Mode.CLASSIC, 2, seed=1)
    while not over.is_over:
        over = apply(over, legal_moves(over)[0])
    with pytest.raises(ConfigError, match="game is over"):
        analyse(observe(over), MCTSBot(iterations=10), seed=1)
