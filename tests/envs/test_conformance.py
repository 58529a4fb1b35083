"""Random-play conformance: the engine and every adapter play side by side on the same seeds
and must produce the same games, observations, masks and scores.

The reference game is played by the engine alone: seat 0 picks uniformly random legal moves
from a test RNG, the other seats are ``random`` bots with their ``bot_rng(seed, seat)`` (as in
``play_match`` and in the Gymnasium env). Then the Gymnasium env (agent in seat 0, ``random``
opponents) is fed seat 0's moves, the PettingZoo env every move, and the OpenSpiel game every
move with each round dealt from the chance outcomes of the engine's seeded layout."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from quadropolis import GameConfig, GameState, Mode, Move, apply_unchecked, legal_moves, new_game, outcome
from quadropolis.bots import RandomBot, bot_rng, observe
from quadropolis.envs import (
    action_mask,
    encode,
    final_rewards,
    load_openspiel_game,
    make_gym_env,
    move_to_action,
    quadropolis_v1,
)
from quadropolis.envs.openspiel_game import chance_actions_for_seed

SQUARE = {"urbanist_blocks": "square", "all_parks_absorb": True}
CASES = [
    *((Mode.CLASSIC, players, seed, {}) for players in (2, 3, 4) for seed in (1, 2)),
    *((Mode.EXPERT, players, seed, {}) for players in (2, 3, 4) for seed in (3, 4)),
    (Mode.CLASSIC, 2, 5, SQUARE),
    (Mode.EXPERT, 3, 6, SQUARE),
]


@dataclass
class Reference:
    config: GameConfig
    moves: list[Move]
    before: list[GameState]  # the state before each move
    final: GameState


def _reference(mode: Mode, players: int, seed: int, variants: dict[str, Any]) -> Reference:
    config = GameConfig(mode=mode, players=players, seed=seed, **variants)
    state = new_game(config)
    agent_rng = random.Random(f"agent/{seed}")
    bots = {p: RandomBot() for p in range(1, players)}
    rngs = {p: bot_rng(seed, p) for p in range(1, players)}
    moves, before = [], []
    while not state.is_over:
        p = state.current_player
        move = agent_rng.choice(legal_moves(state)) if p == 0 else bots[p].choose(observe(state), rngs[p])
        before.append(state.copy())
        moves.append(move)
        apply_unchecked(state, move)
    return Reference(config, moves, before, state)


@pytest.fixture(
    scope="module",
    params=CASES,
    ids=lambda c: f"{c[0].value}-{c[1]}p-seed{c[2]}" + ("-variants" if c[3] else ""),
)
def ref(request: pytest.FixtureRequest) -> Reference:
    return _reference(*request.param)


def test_gymnasium_env_plays_the_same_game(ref: Reference) -> None:
    cfg = ref.config
    env = make_gym_env(mode=cfg.mode.value, players=cfg.players, seat=0, opponents="random", **cfg.variants)
    obs, info = env.reset(seed=cfg.seed)
    agent_turns = [k for k, s in enumerate(ref.before) if s.current_player == 0]
    for k in agent_turns:
        expected = ref.before[k]
        assert env.game_state == expected  # the bots replied exactly as in the reference
        assert np.array_equal(obs, encode(expected, 0))
        assert np.array_equal(info["action_mask"], action_mask(expected))
        obs, reward, done, _, info = env.step(move_to_action(ref.moves[k]))
    assert done and env.game_state == ref.final
    result = outcome(ref.final)
    assert info["scores"] == result.totals and reward == final_rewards(result, "win_share")[0]


def test_pettingzoo_env_plays_the_same_game(ref: Reference) -> None:
    cfg = ref.config
    env = quadropolis_v1.raw_env(mode=cfg.mode.value, players=cfg.players, reward="margin", **cfg.variants)
    env.reset(seed=cfg.seed)
    for expected, move in zip(ref.before, ref.moves, strict=True):
        seat = expected.current_player
        assert env.agent_selection == f"player_{seat}"
        obs = env.observe(env.agent_selection)
        assert np.array_equal(obs["observation"], encode(expected, seat))
        assert np.array_equal(obs["action_mask"], action_mask(expected))
        env.step(move_to_action(move))
    assert env.state_of_game == ref.final and all(env.terminations.values())
    result = outcome(ref.final)
    margins = final_rewards(result, "margin")
    for p, agent in enumerate(env.possible_agents):
        assert env._cumulative_rewards[agent] == margins[p]
        assert env.infos[agent]["scores"] == result.totals


def test_openspiel_game_plays_the_same_game(ref: Reference) -> None:
    cfg = ref.config
    game = load_openspiel_game({"mode": cfg.mode.value, "players": cfg.players, **cfg.variants})
    state = game.new_initial_state()
    moves = iter(zip(ref.before, ref.moves, strict=True))
    while not state.is_terminal():
        if state.is_chance_node():
            rnd = state.game_state.round
            for tile in chance_actions_for_seed(cfg, rnd):
                assert tile in dict(state.chance_outcomes())
                state.apply_action(tile)
            continue
        expected, move = next(moves)
        assert state.game_state == observe(expected)  # the same position, seed hidden
        assert state.legal_actions() == [move_to_action(m) for m in legal_moves(expected)]
        state.apply_action(move_to_action(move))
    assert next(moves, None) is None
    assert state.game_state == observe(ref.final)
    assert state.returns() == final_rewards(outcome(ref.final), "win_share")
