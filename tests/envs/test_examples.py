"""The research examples run: a very short training of the numpy policy gradient on
``Quadropolis-v1``, and one game of the ISMCTS head-to-head harness."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_policy_gradient_example_trains_and_reports_win_rates() -> None:
    pg = _load("train_policy_gradient")
    args = pg.parse(
        ["--max-updates", "2", "--batch", "2", "--eval-games", "2", "--hidden", "16", "--seed", "3"]
    )
    log = io.StringIO()
    result = pg.train(args, log=log)
    history = result["history"]
    assert len(history) == 2 and history[-1]["updates"] == 2 and history[-1]["episodes"] == 4
    for row in history:
        for opp in ("vs_random", "vs_greedy"):
            assert 0.0 <= row[opp]["win_rate"] <= 1.0
    assert "vs random: win" in log.getvalue()


def test_a_policy_update_moves_the_policy_toward_rewarded_actions() -> None:
    pg = _load("train_policy_gradient")
    rng = np.random.default_rng(0)
    policy = pg.Policy(8, 0.05, rng)
    obs = np.ones((2, pg.OBSERVATION_SIZE))
    mask = np.zeros((2, pg.NUM_ACTIONS))
    mask[:, [3, 7]] = 1
    before = policy.forward(obs[:1], mask[:1])[1][0, 3]
    for _ in range(20):  # action 3 returns 1, action 7 returns 0
        policy.update(obs, mask, np.array([3, 7]), np.array([1.0, 0.0]), entropy=0.0)
    probs = policy.forward(obs[:1], mask[:1])[1][0]
    assert abs(probs[3] + probs[7] - 1) < 1e-9  # masked actions get no probability
    assert probs[3] > 0.9 > before


def test_the_ismcts_harness_plays_and_summarizes() -> None:
    harness = _load("ismcts_vs_hard")
    games = harness.main(
        ["--games", "2", "--bot", "greedy", "--initial-take", "0.01", "--initial-place", "0.01"]
    )
    assert [g["bot_seat"] for g in games] == [0, 1] and [g["seed"] for g in games] == [1, 2]
    for g in games:
        assert g["bot_share"] in (0.0, 0.5, 1.0) and len(g["scores"]) == 2
        assert g["times"]["bot"]["take"] and g["times"]["ismcts"]["take"]
    text = harness.summarize(games, "greedy")
    assert "greedy vs OpenSpiel ISMCTS: 2 games" in text and "95% CI" in text


def test_the_ismcts_harness_saves_each_game_and_resumes(tmp_path: Path) -> None:
    harness = _load("ismcts_vs_hard")
    out = tmp_path / "match.json"
    quick = ["--bot", "greedy", "--initial-take", "0.01", "--initial-place", "0.01", "--out", str(out)]
    first = harness.main(["--games", "2", *quick])
    assert [g["seed"] for g in json.loads(out.read_text())["games"]] == [1, 2]
    games = harness.main(["--games", "4", "--resume", *quick])
    assert [g["seed"] for g in games] == [1, 2, 3, 4]
    assert games[:2] == first  # kept, not replayed (ISMCTS is timed: a replay would differ)
    assert [g["bot_seat"] for g in games] == [0, 1, 0, 1]
    assert json.loads(out.read_text())["games"] == games
    with pytest.raises(SystemExit, match="bot='greedy', not 'random'"):
        harness.main(["--games", "4", "--resume", *quick, "--bot", "random"])
    out.write_text('{"games": 3}')
    with pytest.raises(SystemExit, match="not a file this harness wrote"):
        harness.main(["--games", "4", "--resume", *quick])


def test_the_maskable_ppo_example_trains_against_the_ladder() -> None:
    ppo = _load("maskable_ppo")
    out = ppo.main(["--steps", "128", "--n-steps", "64", "--batch", "32", "--eval-games", "2", "--seed", "1"])
    model = out["model"]
    assert model.num_timesteps >= 128  # trained
    for opponent in ("random", "greedy"):
        assert out[opponent].games == 2 and 0.0 <= out[opponent].win_share <= 1.0
    # the trained policy plays legal actions from a masked observation
    env = ppo.LadderOpponents(ppo.make_gym_env(normalize=True), ["greedy:epsilon=0.3"], seed=0)
    obs, _ = env.reset(seed=0)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]
    assert env.unwrapped.opponents[0].name == "greedy:epsilon=0.3"


def test_the_maskable_ppo_example_plays_a_league_on_the_batched_env(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ppo = _load("maskable_ppo")
    quick = ["--steps", "128", "--n-steps", "32", "--batch", "64", "--eval-games", "2", "--seed", "1"]
    out = ppo.main(
        [*quick, "--games", "4", "--league", "2", "--refresh", "2", "--opponents", "random", "--jobs", "2"]
    )
    assert out["model"].num_timesteps >= 128
    assert "checkpoints ['self@" in capsys.readouterr().out  # snapshots taken, kept as checkpoints
    assert out["greedy"].games == 2 and [r[0] for r in out["greedy"].results] == [1, 2]
    with pytest.raises(SystemExit, match="--league needs --games"):
        ppo.main([*quick, "--league", "2"])


def test_the_cleanrl_ppo_example_trains_and_evaluates() -> None:
    ppo = _load("cleanrl_ppo")
    args = ["--steps", "128", "--envs", "2", "--rollout", "64", "--hidden", "16", "--eval-games", "2"]
    out = ppo.main([*args, "--seed", "2"])
    assert out["steps"] == 128 and out["episodes"] >= 2  # whole episodes played and reset
    for opponent in ("random", "greedy"):
        assert out[opponent].games == 2
    agent = out["agent"]
    mask = np.zeros(ppo.NUM_ACTIONS, np.int8)
    mask[[5, 17]] = 1
    assert agent.act(np.zeros(ppo.OBSERVATION_SIZE, np.float32), mask) in (5, 17)


def test_the_neural_training_example_generates_trains_and_exports(tmp_path: Path) -> None:
    from quadropolis.bots import neural

    train = _load("train_neural")
    data = tmp_path / "data.npz"
    train.main(["generate", "--games", "2", "--iterations", "50", "--seed", "7", "--out", str(data)])
    saved = np.load(data)
    assert len(saved["seeds"]) == 2 and len(saved["visits"]) == saved["offsets"][-1] > 40
    assert (saved["visits"].sum(axis=1) > 0).all()  # every decision searched
    weights = tmp_path / "w.npz"
    train.main(["train", str(data), "--epochs", "1", "--batch", "16", "--out", str(weights)])
    with np.load(weights) as w:
        assert {k: w[k].shape for k in w.files} == neural.LAYERS


def test_the_rllib_self_play_example_trains_on_two_ray_workers() -> None:
    """Two iterations of PPO self-play sampled by two Ray env runners, then the evaluation."""
    rllib = _load("rllib_selfplay")
    args = ["--iterations", "2", "--workers", "2", "--batch", "256", "--minibatch", "64", "--epochs", "1"]
    out = rllib.main([*args, "--hidden", "32", "--eval-games", "2", "--seed", "3"])
    history = out["history"]
    assert [row["iteration"] for row in history] == [1, 2]
    assert all(row["agent_steps"] >= 256 and row["episodes"] >= 1 for row in history)  # whole games
    for opponent in ("random", "greedy"):
        assert out[opponent].games == 2 and 0.0 <= out[opponent].win_share <= 1.0
    # the trained module, as a policy, plays a legal action of any position it is shown
    env = rllib.make_env({"mode": "classic"})
    obs, _ = env.reset(seed=4)
    ((agent, seen),) = obs.items()
    action = out["policy"](seen["observations"], seen["action_mask"].astype(np.int8))
    assert seen["action_mask"][action] == 1 and agent == "player_0"


def test_the_baseline_table_evaluates_every_entrant_against_the_same_opponents(tmp_path: Path) -> None:
    table = _load("baseline_table")
    out = tmp_path / "baseline.json"
    text = table.main(["--modes", "classic", "--games", "2", "--ppo-steps", "0", "--out", str(out)])
    lines = text.splitlines()
    assert lines[0].startswith("| mode | entrant | against `random`") and "against `greedy`" in lines[0]
    assert [line.split(" | ")[1] for line in lines[2:]] == [f"`{b}`" for b in table.BOTS]
    saved = json.loads(out.read_text())
    for row in saved:
        assert [e["opponents"] for e in row["evaluations"]] == [["random"], ["greedy"]]
        assert all(e["games"] == 2 and e["seed"] == 0 for e in row["evaluations"])
    greedy_row = next(line for line in lines[2:] if "`greedy`" in line)
    assert greedy_row.count("%") == 6  # two cells of win share (low–high)
