"""Train a Quadropolis agent on CPU with numpy only: REINFORCE with a learned baseline.

The agent plays ``Quadropolis-v1`` (one seat, the other seats played by bots) with a small
two-layer policy over the 121 actions, masked by ``info["action_mask"]``. Every
``--eval-every`` seconds it plays ``--eval-games`` games, its seat alternating, against
``random`` and against ``greedy`` (its most likely legal action each time) and prints its win
rate (R13 win share) and mean score against each. Nothing to install beyond
``pip install 'quadropolis[rl]'``::

    python examples/train_policy_gradient.py --minutes 10
    python examples/train_policy_gradient.py --mode expert --opponent greedy --minutes 30 --out run.json

The reward is the game's win share plus ``--dense`` times the change of the agent's exact
projected score at each of its builds (the env's ``dense_reward``), which gives a signal at
every build instead of once a game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from quadropolis.envs.encoding import NUM_ACTIONS, OBSERVATION_SIZE, observation_high

Array = npt.NDArray[np.float64]


@dataclass
class Policy:
    """tanh hidden layer, then action logits and a state value; Adam on all parameters."""

    hidden: int
    lr: float
    rng: np.random.Generator
    params: dict[str, Array] = field(default_factory=dict)
    moments: dict[str, tuple[Array, Array]] = field(default_factory=dict)
    steps: int = 0

    def __post_init__(self) -> None:
        r = self.rng
        self.params = {
            "w1": r.normal(0, 1 / np.sqrt(OBSERVATION_SIZE), (OBSERVATION_SIZE, self.hidden)),
            "b1": np.zeros(self.hidden),
            "w2": r.normal(0, 0.01, (self.hidden, NUM_ACTIONS)),
            "b2": np.zeros(NUM_ACTIONS),
            "wv": np.zeros((self.hidden, 1)),
            "bv": np.zeros(1),
        }
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.scale = 1.0 / observation_high().astype(np.float64)

    def forward(self, obs: Array, mask: Array) -> tuple[Array, Array, Array]:
        """(hidden, action probabilities, values) of a batch of observations."""
        p = self.params
        h = np.tanh((obs * self.scale) @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * (mask > 0)
        probs = e / e.sum(axis=1, keepdims=True)
        values = (h @ p["wv"] + p["bv"])[:, 0]
        return h, probs, values

    def act(self, obs: Array, mask: Array, greedy: bool = False) -> int:
        _, probs, _ = self.forward(obs[None], mask[None])
        if greedy:
            return int(np.argmax(probs[0]))
        return int(self.rng.choice(NUM_ACTIONS, p=probs[0]))

    def update(self, obs: Array, mask: Array, actions: Array, returns: Array, entropy: float) -> None:
        p = self.params
        x = obs * self.scale
        h, probs, values = self.forward(obs, mask)
        adv = returns - values
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        n = len(actions)
        onehot = np.zeros_like(probs)
        onehot[np.arange(n), actions.astype(int)] = 1
        # d(-adv * log p[a] - entropy * H) / d logits
        logp = np.log(probs + 1e-12)
        ent_grad = probs * (logp + (-(probs * logp).sum(axis=1, keepdims=True)))
        dlogits = (probs - onehot) * adv[:, None] + entropy * ent_grad * (mask > 0)
        dlogits /= n
        dv = (values - returns)[:, None] / n
        grads = {
            "w2": h.T @ dlogits,
            "b2": dlogits.sum(axis=0),
            "wv": h.T @ dv,
            "bv": dv.sum(axis=0),
        }
        dh = dlogits @ p["w2"].T + dv @ p["wv"].T
        dpre = dh * (1 - h * h)
        grads["w1"] = x.T @ dpre
        grads["b1"] = dpre.sum(axis=0)
        self.steps += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            m, v = self.moments[k]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mhat = m / (1 - b1**self.steps)
            vhat = v / (1 - b2**self.steps)
            p[k] -= self.lr * mhat / (np.sqrt(vhat) + 1e-8)


def evaluate(
    policy: Policy, mode: str, players: int, opponent: str, games: int, seed: int
) -> dict[str, float]:
    """Win share and mean score of the greedy policy over ``games`` games, seats alternating."""
    share = score = 0.0
    for g in range(games):
        env = gymnasium.make(
            "Quadropolis-v1", mode=mode, players=players, seat=g % players, opponents=opponent
        )
        obs, info = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            action = policy.act(obs.astype(np.float64), info["action_mask"].astype(np.float64), greedy=True)
            obs, r, done, _, info = env.step(action)
            reward += float(r)
        share += reward
        score += info["scores"][g % players]
        env.close()
    return {"win_rate": share / games, "mean_score": score / games}


def train(args: argparse.Namespace, log: Any = sys.stdout) -> dict[str, Any]:
    rng = np.random.default_rng(args.seed)
    policy = Policy(args.hidden, args.lr, rng)
    env = gymnasium.make(
        "Quadropolis-v1",
        mode=args.mode,
        players=args.players,
        seat=None,
        opponents=args.opponent,
        dense_reward=args.dense,
    )
    start = time.perf_counter()
    deadline = start + args.minutes * 60
    history: list[dict[str, Any]] = []
    episodes = updates = 0
    next_eval = start

    def report() -> None:
        row: dict[str, Any] = {
            "seconds": round(time.perf_counter() - start, 1),
            "episodes": episodes,
            "updates": updates,
        }
        for opp in ("random", "greedy"):
            result = evaluate(policy, args.mode, args.players, opp, args.eval_games, seed=10**6)
            row[f"vs_{opp}"] = result
        history.append(row)
        print(
            f"{row['seconds']:>7.0f}s  episodes {episodes:>6}  "
            f"vs random: win {row['vs_random']['win_rate']:.1%} score {row['vs_random']['mean_score']:.1f}  "
            f"vs greedy: win {row['vs_greedy']['win_rate']:.1%} score {row['vs_greedy']['mean_score']:.1f}",
            file=log,
            flush=True,
        )

    game = 0
    while True:
        now = time.perf_counter()
        if now >= next_eval:
            report()
            after = time.perf_counter()
            deadline += after - now  # evaluations do not count as training time
            next_eval = after + args.eval_every
        if now >= deadline or (args.max_updates and updates >= args.max_updates):
            break
        batch_obs, batch_mask, batch_act, batch_ret = [], [], [], []
        for _ in range(args.batch):
            obs, info = env.reset(seed=args.seed * 10**7 + game)
            game += 1
            rewards: list[float] = []
            done = False
            while not done:
                mask = info["action_mask"].astype(np.float64)
                o = obs.astype(np.float64)
                action = policy.act(o, mask)
                batch_obs.append(o)
                batch_mask.append(mask)
                batch_act.append(action)
                obs, r, done, _, info = env.step(action)
                rewards.append(float(r))
            batch_ret.extend(np.cumsum(rewards[::-1])[::-1])  # undiscounted return-to-go
            episodes += 1
        policy.update(
            np.array(batch_obs), np.array(batch_mask), np.array(batch_act), np.array(batch_ret), args.entropy
        )
        updates += 1
    report()
    env.close()
    return {"args": vars(args), "history": history}


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="classic", choices=["classic", "expert"])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponent", default="random", help="bot spec of the training opponents")
    ap.add_argument("--minutes", type=float, default=5.0, help="training time (evaluations excluded)")
    ap.add_argument("--max-updates", type=int, default=0, help="stop after this many updates (0: no limit)")
    ap.add_argument("--batch", type=int, default=16, help="episodes per update")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--dense", type=float, default=0.05, help="dense_reward coefficient")
    ap.add_argument("--eval-games", type=int, default=50)
    ap.add_argument("--eval-every", type=float, default=60.0, help="seconds between evaluations")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="write the history as JSON to this file")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    result = train(args)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
