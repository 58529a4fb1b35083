"""Samples per CPU-second of sb3-contrib's MaskablePPO collecting rollouts on the batched env's
SB3 adapter (:class:`quadropolis.envs.sb3.QuadropolisSB3VecEnv`) and on ``DummyVecEnv`` of
single envs, side by side: the same opponent, games, policy network and rollout length; the
two alternate ``--repeats`` times and the median of each is reported (CPU time of this
process, torch on one thread). ``--learn`` times whole ``learn()`` calls instead (collection
and the gradient updates). Needs ``pip install 'quadropolis[rl,train]'`` and the compiled
engine::

    python examples/sb3_throughput.py --games 16 --n-steps 256 --repeats 5 --opponent greedy
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from quadropolis.envs import make_gym_env
from quadropolis.envs.sb3 import QuadropolisSB3VecEnv


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=16, help="games stepped together (num_envs)")
    p.add_argument("--n-steps", type=int, default=256, help="steps per game per rollout")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--opponent", default="greedy")
    p.add_argument("--learn", action="store_true", help="time learn() (collection and updates)")
    return p.parse_args(argv)


def _env(kind: str, games: int, opponent: str) -> Any:
    options: dict[str, Any] = {"opponents": opponent, "normalize": True, "seat": None}
    if kind == "adapter":
        return QuadropolisSB3VecEnv(games, **options)
    return DummyVecEnv([lambda: make_gym_env(**options) for _ in range(games)])


def samples_per_cpu_second(kind: str, args: argparse.Namespace, seed: int) -> float:
    """One measure: a fresh env and model, one rollout (or one learn() of one rollout)."""
    env = _env(kind, args.games, args.opponent)
    env.seed(seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=256, n_epochs=1, seed=seed, device="cpu"
    )
    samples = args.games * args.n_steps
    start = time.process_time()
    if args.learn:
        model.learn(total_timesteps=samples)
    else:
        # SB3 has no public call for one rollout alone: learn()'s own setup, then its collection
        _, callback = model._setup_learn(samples, None)
        callback.on_training_start(locals(), globals())
        assert model.env is not None
        model.collect_rollouts(model.env, callback, model.rollout_buffer, n_rollout_steps=args.n_steps)
    return float(samples / (time.process_time() - start))


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Measure and print; returns each kind's measures, medians and their ratio."""
    args = parse(argv)
    torch.set_num_threads(1)
    runs: dict[str, list[float]] = {"adapter": [], "dummy": []}
    for r in range(args.repeats):
        for kind in ("adapter", "dummy"):
            runs[kind].append(samples_per_cpu_second(kind, args, seed=r))
    medians = {kind: statistics.median(values) for kind, values in runs.items()}
    ratio = medians["adapter"] / medians["dummy"]
    what = "learn()" if args.learn else "collect_rollouts"
    for kind, values in runs.items():
        shown = ", ".join(f"{v:,.0f}" for v in values)
        print(f"{kind:8} {what}: median {medians[kind]:,.0f} samples per CPU-second ({shown})")
    print(f"ratio: {ratio:.1f}x ({args.games} games, opponent {args.opponent}, n_steps {args.n_steps})")
    return {"runs": runs, "medians": medians, "ratio": ratio}


if __name__ == "__main__":
    main()
