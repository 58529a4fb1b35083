"""RLlib self-play on the PettingZoo env ``quadropolis_v1``: PPO plays every seat with one shared
policy, its games sampled by several Ray env-runner workers.

Every seat of ``quadropolis_v1.env(normalize=True)`` is mapped to the one module ``main``
(parameter sharing: the policy plays against itself, and each seat's experience trains it), an
action-masking PPO module (RLlib's ``ActionMaskingTorchRLModule``: the env's ``action_mask``
sets the logits of illegal actions to the lowest float). ``--workers`` Ray env runners sample the
games (RLlib's ``PettingZooEnv`` turns the turn-based AEC env into its ``MultiAgentEnv``); the
learner updates ``main`` after each iteration. At the end the policy (deterministic: its best
legal action) is evaluated with :func:`quadropolis.envs.evaluate` against ``random`` and
``greedy``. Needs ``pip install 'quadropolis[rllib]'`` (Ray with RLlib, PyTorch CPU)::

    python examples/rllib_selfplay.py --iterations 20 --workers 2 --eval-games 200
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import ray
import torch
from pettingzoo.utils import BaseWrapper
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.rllib.utils.metrics import (
    ENV_RUNNER_RESULTS,
    NUM_ENV_STEPS_SAMPLED_LIFETIME,
    NUM_EPISODES,
)
from ray.tune.registry import register_env

from quadropolis.envs import evaluate, quadropolis_v1

ENV = "quadropolis_selfplay"
MODULE = "main"


class MaskedObservations(BaseWrapper[str, Any, Any]):
    """``quadropolis_v1``'s observations as RLlib's action-masking module reads them: the keys
    ``observations`` and ``action_mask`` (a float mask: the module takes its logarithm)."""

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        inner = self.env.observation_space(agent)
        mask = gymnasium.spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32)
        return gymnasium.spaces.Dict({"observations": inner["observation"], "action_mask": mask})

    def observe(self, agent: str) -> dict[str, Any]:
        obs = self.env.observe(agent)
        return {"observations": obs["observation"], "action_mask": obs["action_mask"].astype(np.float32)}


def make_env(config: dict[str, Any]) -> PettingZooEnv:
    """The env each env runner builds: ``quadropolis_v1`` with normalised observations."""
    env = quadropolis_v1.env(
        mode=config.get("mode", "classic"), players=config.get("players", 2), normalize=True
    )
    return PettingZooEnv(MaskedObservations(env))


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mode", choices=("classic", "expert"), default="classic")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--iterations", type=int, default=20, help="training iterations")
    p.add_argument("--workers", type=int, default=2, help="Ray env-runner workers")
    p.add_argument("--batch", type=int, default=4000, help="agent steps per iteration")
    p.add_argument("--minibatch", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4, help="passes over each iteration's batch")
    p.add_argument("--hidden", type=int, default=256, help="width of the two hidden layers")
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


def config_for(args: argparse.Namespace) -> PPOConfig:
    """PPO with one shared action-masking module for every seat, sampled by ``--workers``."""
    if __name__ != "__main__":  # imported (as by the tests): the workers cannot import this file
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    register_env(ENV, make_env)
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={"fcnet_hiddens": [args.hidden, args.hidden], "head_fcnet_hiddens": []},
    )
    return (
        PPOConfig()
        .environment(ENV, env_config={"mode": args.mode, "players": args.players})
        .multi_agent(policies={MODULE}, policy_mapping_fn=lambda agent_id, episode, **kw: MODULE)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MODULE: module}))
        .env_runners(num_env_runners=args.workers, num_envs_per_env_runner=1, num_cpus_per_env_runner=1)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=3e-4,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


class GreedyPolicy:
    """The trained module as an :func:`evaluate` policy: its best legal action."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def __call__(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        obs = {
            "observations": torch.as_tensor(observation[None], dtype=torch.float32),
            "action_mask": torch.as_tensor(mask[None], dtype=torch.float32),
        }
        with torch.no_grad():
            out = self.module.forward_inference({Columns.OBS: obs})
        return int(out[Columns.ACTION_DIST_INPUTS][0].argmax())


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train for ``--iterations`` iterations, evaluate; returns each iteration's figures
    (``history``), the policy and its evaluations."""
    args = parse(argv)
    ray.init(num_cpus=max(2, args.workers), include_dashboard=False, log_to_driver=False)
    try:
        algo = config_for(args).build_algo()
        history = []
        episodes = 0
        for i in range(args.iterations):
            result = algo.train()
            # one agent acts per step of a turn-based game: env steps are agent steps
            episodes += int(result[ENV_RUNNER_RESULTS].get(NUM_EPISODES, 0))
            row = {
                "iteration": i + 1,
                "agent_steps": int(result[NUM_ENV_STEPS_SAMPLED_LIFETIME]),
                "episodes": episodes,
            }
            history.append(row)
            print(row, flush=True)
        policy = GreedyPolicy(algo.get_module(MODULE))
        out: dict[str, Any] = {"history": history, "policy": policy}
        for opponent in ("random", "greedy"):
            result = evaluate(
                policy,
                opponent,
                mode=args.mode,
                players=args.players,
                games=args.eval_games,
                seed=args.seed,
                normalize=True,
            )
            out[opponent] = result
            print(f"after {args.iterations} iterations, against {opponent}: {result}", flush=True)
        algo.stop()
        return out
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
    sys.exit(0)
