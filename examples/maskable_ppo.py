"""MaskablePPO (sb3-contrib) on ``Quadropolis-v1`` against the ladder of opponents.

Each episode's opponent is drawn (seeded) from ``--opponents``, by default the cheap rungs of
:data:`quadropolis.envs.LADDER` from ``random`` to ``greedy``; observations are normalised
(``normalize=True``), and the masks come from the env's ``action_masks()``. At the end the
policy is evaluated with :func:`quadropolis.envs.evaluate_ladder` (deterministic actions):
:func:`quadropolis.envs.evaluate` against ``random`` and against ``greedy``, and one rating
from both; then saved. With ``--games N`` it trains on the batched env instead
(:class:`quadropolis.envs.sb3.QuadropolisSB3VecEnv`, N games stepped by the compiled engine,
the agent's seat drawn): one batch plays one set of opponents, so the ladder becomes a
curriculum, ``--steps`` split evenly over ``--opponents`` in their order, the opponents
changed between stages (``set_opponents``: the games in play end truncated). With ``--games N
--league K`` it plays a league on the batched env instead
(:class:`quadropolis.envs.league.League`): in each episode of each game the opponent is the
latest frozen snapshot of the model (half the time), one of its ``K`` last snapshots or one of
``--opponents``, a snapshot taken every ``--refresh`` episodes. ``--jobs`` plays the final
evaluation in that many processes. Needs ``pip install 'quadropolis[rl,train]'``::

    python examples/maskable_ppo.py --steps 200000 --out ppo-classic
    python examples/maskable_ppo.py --mode expert --opponents random greedy:epsilon=0.6 --steps 50000
    python examples/maskable_ppo.py --games 64 --n-steps 64 --batch 1024 --steps 1000000
    python examples/maskable_ppo.py --games 64 --league 4 --opponents greedy --steps 1000000 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

import gymnasium
from sb3_contrib import MaskablePPO

from quadropolis.envs import evaluate_ladder, ladder_specs, make_gym_env
from quadropolis.envs.league import League
from quadropolis.envs.sb3 import QuadropolisSB3VecEnv, frozen_copy


class LadderOpponents(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Draws each episode's opponent from ``opponents`` (specs), seeded, before the reset."""

    def __init__(self, env: Any, opponents: Sequence[str], seed: int) -> None:
        super().__init__(env)
        self.choices = list(opponents)
        self.rng = random.Random(seed)

    def reset(self, **kwargs: Any) -> Any:
        self.env.unwrapped.set_opponents(self.rng.choice(self.choices))
        return self.env.reset(**kwargs)

    def action_masks(self) -> Any:
        return self.env.unwrapped.action_masks()


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mode", choices=("classic", "expert"), default="classic")
    default = [s for s in ladder_specs() if s != "neural"]
    p.add_argument("--opponents", nargs="+", default=default, help="bot specs, one drawn per episode")
    p.add_argument("--steps", type=int, default=200_000, help="agent steps of training")
    p.add_argument("--n-steps", type=int, default=2048, help="steps per rollout")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--games",
        type=int,
        default=0,
        help="train on the batched env with this many games (0: the single env)",
    )
    p.add_argument("--league", type=int, default=0, help="with --games: a league of this many snapshots")
    p.add_argument("--refresh", type=int, default=64, help="with --league: episodes between snapshots")
    p.add_argument("--jobs", type=int, default=1, help="processes for the final evaluation")
    p.add_argument("--out", default=None, help="save the model here (a .zip)")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, evaluate and (with ``--out``) save; returns the model and its evaluations."""
    args = parse(argv)
    if args.league and not args.games:
        raise SystemExit("--league needs --games (the league plays on the batched env)")
    model = (
        _train_league(args) if args.league else _train_batched(args) if args.games else _train_single(args)
    )
    # the games of evaluate(model, rung, ...) against each rung, and one rating from them all
    ladder = evaluate_ladder(
        model,
        ("random", "greedy"),
        mode=args.mode,
        games=args.eval_games,
        seed=args.seed,
        normalize=True,
        jobs=args.jobs,
    )
    results: dict[str, Any] = {"model": model, "ladder": ladder}
    for opponent, result in zip(ladder.rungs, ladder.evaluations, strict=True):
        results[opponent] = result
        print(f"after {args.steps} steps, against {opponent}: {result}")
    print(f"after {args.steps} steps, on the ladder: {ladder}")
    if args.out:
        model.save(args.out)
    return results


def _train_single(args: argparse.Namespace) -> MaskablePPO:
    env = LadderOpponents(make_gym_env(mode=args.mode, normalize=True), args.opponents, args.seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch, seed=args.seed, verbose=0, device="cpu"
    )
    model.learn(total_timesteps=args.steps)
    return model


def _train_batched(args: argparse.Namespace) -> MaskablePPO:
    """The curriculum on the batched env: one stage per opponent, in order."""
    env = QuadropolisSB3VecEnv(
        args.games, mode=args.mode, seat=None, normalize=True, opponents=args.opponents[0]
    )
    env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch, seed=args.seed, verbose=0, device="cpu"
    )
    stage = max(1, args.steps // len(args.opponents))
    for k, opponent in enumerate(args.opponents):
        if k:  # every game restarts against the next rung (the games in play end truncated)
            env.set_opponents(opponent)
        model.learn(total_timesteps=stage, reset_num_timesteps=k == 0)
    return model


def _train_league(args: argparse.Namespace) -> MaskablePPO:
    """A league on the batched env: snapshots of the model, its last ``--league`` checkpoints
    and ``--opponents``, drawn game by game."""
    model: Any = None  # the snapshots are taken once training plays, after the model exists
    league = League(
        lambda: frozen_copy(model.policy),
        refresh=args.refresh,
        league=args.league,
        bots=args.opponents,
        seed=args.seed,
    )
    env = QuadropolisSB3VecEnv(args.games, mode=args.mode, seat=None, normalize=True, opponents=league)
    env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch, seed=args.seed, verbose=0, device="cpu"
    )
    model.learn(total_timesteps=args.steps)
    kept = [name for name, _ in league.checkpoints]
    print(f"league: {league.episodes} episodes, latest {league.latest}, checkpoints {kept}")
    return model


if __name__ == "__main__":
    main()
    sys.exit(0)
