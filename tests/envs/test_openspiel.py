"""``python_quadropolis``: OpenSpiel's random simulation test, explicit chance, tensors and
strings, serialization, ``resample_from_infostate``, and OpenSpiel's MCTS and ISMCTS bots."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from quadropolis import ConfigError, Mode
from quadropolis.envs import encode, load_openspiel_game, observation_text
from quadropolis.envs.openspiel_game import QuadropolisState
from quadropolis.tiles import TILES

PARAMS = [
    {},
    {"mode": "expert", "players": 3, "reward": "margin"},
    {"mode": "expert", "players": 2, "urbanist_blocks": "square", "all_parks_absorb": True},
]


@pytest.mark.parametrize("params", PARAMS)
def test_openspiels_random_simulation_test_passes(params: dict[str, object]) -> None:
    game = load_openspiel_game(params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_parameters_and_types() -> None:
    game = pyspiel.load_game("python_quadropolis")  # registered by importing ...openspiel_game
    assert game.num_players() == 2 and game.num_distinct_actions() == 121
    assert game.max_chance_outcomes() == 142 and game.max_game_length() == 4 * 4 * 2 * 2
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    margin2 = load_openspiel_game({"reward": "margin"})
    assert margin2.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    margin4 = load_openspiel_game({"reward": "margin", "players": 4, "mode": "expert"})
    assert margin4.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert margin4.max_utility() == -margin4.min_utility() > 600
    assert game.observation_tensor_shape() == game.information_state_tensor_shape() == [2409]
    for bad in ({"mode": "chess"}, {"players": 5}, {"reward": "elo"}):
        with pytest.raises(ConfigError):
            load_openspiel_game(bad)


def _deal_round(state: QuadropolisState, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choice(outcomes)[0])


def test_each_round_is_dealt_square_by_square_by_chance() -> None:
    game = load_openspiel_game({"players": 2})
    state = game.new_initial_state()
    rng = random.Random(0)
    for k in range(25):
        assert state.is_chance_node() and state.dealing
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 25 - k and sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(TILES[t].round == 1 for t, _ in outcomes)
        tile = rng.choice(outcomes)[0]
        state.apply_action(tile)
        assert state.game_state.site[k] == tile  # row-major: square k gets the k-th outcome
        assert bool(state.game_state.face_down >> k & 1) == (TILES[tile].min_players > 2)
    assert state.current_player() == 0 and not state.dealing
    while state.game_state.round == 1:  # play round 1: then round 2 is dealt by chance
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_chance_node() and state.game_state.site == [-1] * 25
    assert {t for t, _ in state.chance_outcomes()} == {
        t.id for t in TILES if t.round == 2 and t.in_mode(Mode.CLASSIC)
    }


def _midgame(params: dict[str, object], seed: int, actions: int) -> QuadropolisState:
    state = load_openspiel_game(params).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history()) < actions:
        if state.is_chance_node():
            _deal_round(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_tensors_and_strings_are_the_shared_encoding() -> None:
    state = _midgame({"players": 3}, seed=1, actions=120)
    for p in range(3):
        assert np.array_equal(np.array(state.observation_tensor(p)), encode(state.game_state, p))
        assert np.array_equal(np.array(state.information_state_tensor(p)), encode(state.game_state, p))
        assert state.observation_string(p) == f"p{p} " + observation_text(state.game_state, p)
    info = state.information_state_string(0)
    assert info.startswith("p0 ") and "##" in info  # face-down deals shown without their tile
    # the public history: every move in the engine's notation, in order
    moves = [state.action_to_string(h.player, h.action) for h in state.full_history() if h.player >= 0]
    assert " ".join(moves[-3:]) in info and len(moves) > 20


def test_serialization_round_trips() -> None:
    game = load_openspiel_game({"mode": "expert", "players": 2})
    state = _midgame({"mode": "expert", "players": 2}, seed=2, actions=150)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and state2.history() == state.history()
    assert state2.game_state == state.game_state and str(state2) == str(state)
    assert pickle.loads(pickle.dumps(state)).game_state == state.game_state
    clone = state.clone()
    assert clone.game_state == state.game_state and clone.game_state is not state.game_state


def test_resample_from_infostate_keeps_every_players_information() -> None:
    state = _midgame({"players": 2}, seed=3, actions=140)  # round 2 under way
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(player, sampler) for _ in range(6)]
    for s in samples:
        for p in range(2):
            assert s.information_state_string(p) == state.information_state_string(p)
            assert s.observation_tensor(p) == state.observation_tensor(p)
        assert s.legal_actions() == state.legal_actions() and len(s.history()) == len(state.history())
        for new, old in zip(s.full_history(), state.full_history(), strict=True):
            assert new.player == old.player
            if new.player >= 0 or TILES[old.action].min_players <= 2:
                assert new.action == old.action  # moves and face-up deals are kept
            else:  # a face-down deal: another face-down tile of the same round
                assert (
                    TILES[new.action].min_players > 2 and TILES[new.action].round == TILES[old.action].round
                )
        face_up = [q for q in range(25) if not state.game_state.face_down >> q & 1]
        assert [s.game_state.site[q] for q in face_up] == [state.game_state.site[q] for q in face_up]
    # the hidden tiles really are resampled
    assert any(s.game_state.site != state.game_state.site for s in samples)


def test_openspiels_mcts_and_ismcts_bots_play_a_game() -> None:
    game = load_openspiel_game()
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bots = [
        mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rs),
        ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rs),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            action = int(bots[state.current_player()].step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_openspiels_cpp_mcts_bot_plays_a_game_through_mcts_action() -> None:
    """pyspiel.MCTSBot (C++) on the python game: every move through mcts_action is legal and
    the game ends (its step() crashes on python games: see openspiel_game's docstring)."""
    from quadropolis.envs.openspiel_game import mcts_action

    game = load_openspiel_game()
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bots = [pyspiel.MCTSBot(game, evaluator, 2.0, 8, 100, False, seed, False) for seed in (1, 2)]
    rs = np.random.RandomState(0)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(outcomes, p=probs)))
            continue
        root = bots[state.current_player()].mcts_search(state)
        assert root.explore_count == 8
        action = mcts_action(bots[state.current_player()], state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert 0 < moves <= game.max_game_length() and sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])
