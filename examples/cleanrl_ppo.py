"""A CleanRL-style PPO with action masks, in one file (PyTorch), on ``Quadropolis-v1`` against
the ladder of opponents.

``--envs`` copies of the env (``gymnasium.vector.SyncVectorEnv``, normalised observations)
step together; each env draws its episode's opponent (seeded) from ``--opponents``, by default
the cheap rungs of :data:`quadropolis.envs.LADDER` from ``random`` to ``greedy``. The agent is
an MLP actor-critic whose logits of illegal actions are set to a large negative number before
the categorical (``info["action_mask"]``). The vector env resets an env in the step that ends
its episode (``AutoresetMode.SAME_STEP``, as CleanRL's loop expects: the next observation
and mask are the new episode's). GAE, clipped
surrogate, value and entropy losses, as in CleanRL's ``ppo.py``. At the end the greedy
(argmax) policy is evaluated with :func:`quadropolis.envs.evaluate` against ``random`` and
``greedy``. Needs ``pip install 'quadropolis[rl,train]'``::

    python examples/cleanrl_ppo.py --steps 200000 --out agent.pt
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import torch
from torch import nn

from quadropolis.envs import NUM_ACTIONS, OBSERVATION_SIZE, evaluate, ladder_specs, make_gym_env


class Agent(nn.Module):
    """Actor and critic MLPs over the normalised observation."""

    def __init__(self, hidden: int) -> None:
        super().__init__()

        def mlp(out: int, gain: float) -> nn.Sequential:
            last = nn.Linear(hidden, out)
            nn.init.orthogonal_(last.weight, gain)
            return nn.Sequential(
                nn.Linear(OBSERVATION_SIZE, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), last
            )

        self.actor, self.critic = mlp(NUM_ACTIONS, 0.01), mlp(1, 1.0)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs)[:, 0]

    def dist(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
        logits = self.actor(obs).masked_fill(~mask, -1e8)
        return torch.distributions.Categorical(logits=logits)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The most likely legal action: the policy that :func:`evaluate` plays."""
        with torch.no_grad():
            o = torch.as_tensor(obs, dtype=torch.float32)[None]
            m = torch.as_tensor(mask, dtype=torch.bool)[None]
            return int(self.dist(o, m).probs.argmax())


def make_env(mode: str, opponents: Sequence[str], seed: int) -> Any:
    def thunk() -> Any:
        env = make_gym_env(mode=mode, normalize=True)
        rng = random.Random(seed)
        reset = env.reset

        def reset_with_opponent(**kwargs: Any) -> Any:
            env.set_opponents(rng.choice(list(opponents)))
            return reset(**kwargs)

        env.reset = reset_with_opponent  # type: ignore[method-assign]
        return env

    return thunk


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mode", choices=("classic", "expert"), default="classic")
    default = [s for s in ladder_specs() if s != "neural"]
    p.add_argument("--opponents", nargs="+", default=default)
    p.add_argument("--steps", type=int, default=200_000, help="agent steps of training, all envs")
    p.add_argument("--envs", type=int, default=8)
    p.add_argument("--rollout", type=int, default=128, help="steps per env per update")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--lr", type=float, default=2.5e-4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="save the agent's state_dict here")
    return p.parse_args(argv)


def ppo_update(agent: Agent, opt: torch.optim.Optimizer, batch: dict[str, torch.Tensor], args: Any) -> None:
    """CleanRL's PPO epochs over one rollout (flattened ``batch``)."""
    n = batch["obs"].shape[0]
    size = max(1, n // args.minibatches)
    for _ in range(args.epochs):
        for idx in torch.randperm(n).split(size):
            dist = agent.dist(batch["obs"][idx], batch["mask"][idx])
            ratio = (dist.log_prob(batch["act"][idx]) - batch["logp"][idx]).exp()
            adv = batch["adv"][idx]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(idx) > 1 else adv
            pg = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
            v = 0.5 * ((agent.value(batch["obs"][idx]) - batch["ret"][idx]) ** 2).mean()
            loss = pg + 0.5 * v - args.ent_coef * dist.entropy().mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            opt.step()


def collect(envs: Any, agent: Agent, state: dict[str, Any], args: Any) -> dict[str, torch.Tensor]:
    """One rollout of ``args.rollout`` steps per env, with GAE advantages and returns."""
    keys = ("obs", "mask", "act", "logp", "rew", "done", "val")
    buf: dict[str, list[torch.Tensor]] = {k: [] for k in keys}
    obs, mask = state["obs"], state["mask"]
    for _ in range(args.rollout):
        with torch.no_grad():
            dist = agent.dist(obs, mask)
            act = dist.sample()
            buf["logp"].append(dist.log_prob(act))
            buf["val"].append(agent.value(obs))
        buf["obs"].append(obs)
        buf["mask"].append(mask)
        buf["act"].append(act)
        o, r, term, trunc, info = envs.step(act.numpy())
        buf["rew"].append(torch.as_tensor(r, dtype=torch.float32))
        buf["done"].append(torch.as_tensor(term | trunc, dtype=torch.float32))
        obs = torch.as_tensor(o, dtype=torch.float32)
        mask = torch.as_tensor(info["action_mask"], dtype=torch.bool)
        state["episodes"] += int((term | trunc).sum())
    state["obs"], state["mask"] = obs, mask
    t = {k: torch.stack(v) for k, v in buf.items()}
    with torch.no_grad():
        next_v = agent.value(obs)
    adv = torch.zeros_like(t["rew"])
    last = torch.zeros(args.envs)
    for s in reversed(range(args.rollout)):
        nv = next_v if s == args.rollout - 1 else t["val"][s + 1]
        notdone = 1.0 - t["done"][s]
        delta = t["rew"][s] + args.gamma * nv * notdone - t["val"][s]
        last = delta + args.gamma * args.gae_lambda * notdone * last
        adv[s] = last
    out = {k: v.flatten(0, 1) for k, v in t.items()}
    out["adv"], out["ret"] = adv.flatten(), (adv + t["val"]).flatten()
    return out


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, evaluate and (with ``--out``) save; returns the agent and its evaluations."""
    args = parse(argv)
    torch.manual_seed(args.seed)
    envs = gymnasium.vector.SyncVectorEnv(
        [make_env(args.mode, args.opponents, args.seed + i) for i in range(args.envs)],
        autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
    )
    agent = Agent(args.hidden)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    o, info = envs.reset(seed=args.seed)
    state: dict[str, Any] = {
        "obs": torch.as_tensor(o, dtype=torch.float32),
        "mask": torch.as_tensor(info["action_mask"], dtype=torch.bool),
        "episodes": 0,
    }
    updates = max(1, args.steps // (args.envs * args.rollout))
    for _ in range(updates):
        batch = collect(envs, agent, state, args)
        batch["done"] = batch["done"].bool()
        ppo_update(agent, opt, batch, args)
    steps = updates * args.envs * args.rollout
    results: dict[str, Any] = {"agent": agent, "steps": steps, "episodes": state["episodes"]}
    for opponent in ("random", "greedy"):
        result = evaluate(
            agent.act, opponent, mode=args.mode, games=args.eval_games, seed=args.seed, normalize=True
        )
        results[opponent] = result
        print(f"after {steps} steps ({state['episodes']} episodes), against {opponent}: {result}")
    if args.out:
        torch.save(agent.state_dict(), args.out)
    return results


if __name__ == "__main__":
    main()
    sys.exit(0)
