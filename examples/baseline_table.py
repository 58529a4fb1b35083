"""The README's baseline table: every entrant evaluated against the same opponents with
:func:`quadropolis.envs.evaluate`, printed as a markdown table with 95% intervals.

The entrants: ``random``; MaskablePPO after ``--ppo-steps`` agent steps
(``examples/maskable_ppo.py``'s training, its defaults: normalised observations, opponents
drawn from the ladder ``random`` ... ``greedy``, seed ``--seed``; deterministic actions); the
learned bot ``neural``; ``greedy``; the search levels ``medium`` and ``hard``. Each plays
``--games`` 2-player games of each ``--modes`` against each ``--opponents`` by the evaluation
protocol (seeds ``--seed`` to ``--seed + games - 1``, seats alternated). Needs ``pip install
'quadropolis[rl,train]'``::

    python examples/baseline_table.py --games 200 --ppo-steps 20000 --seed 0 --out baseline.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from quadropolis.bots import make_bot
from quadropolis.envs import Evaluation, evaluate

BOTS = ("random", "neural", "greedy", "medium", "hard")


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--modes", nargs="+", choices=("classic", "expert"), default=["classic", "expert"])
    p.add_argument("--opponents", nargs="+", default=["random", "greedy"], help="bot specs")
    p.add_argument("--games", type=int, default=200, help="games per entrant, opponent and mode")
    p.add_argument(
        "--ppo-steps", type=int, default=20_000, help="MaskablePPO's training steps (0: leave it out)"
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="also save every evaluation here (JSON)")
    return p.parse_args(argv)


def _maskable_ppo() -> ModuleType:
    """examples/maskable_ppo.py, beside this file (the examples are scripts, not a package)."""
    path = Path(__file__).resolve().with_name("maskable_ppo.py")
    spec = importlib.util.spec_from_file_location("maskable_ppo", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def entrants(mode: str, ppo_steps: int, seed: int) -> list[tuple[str, Any, bool]]:
    """(label, policy or bot, normalised observations) of every entrant for ``mode``; trains
    MaskablePPO for ``ppo_steps`` steps first (its own evaluation left to the table)."""
    out: list[tuple[str, Any, bool]] = []
    for spec in BOTS:
        out.append((f"`{spec}`", make_bot(spec, workers=1, trusted=True, time_caps=False), False))
        if spec == "random" and ppo_steps > 0:
            ppo = _maskable_ppo()
            args = ppo.parse(["--mode", mode, "--steps", str(ppo_steps), "--seed", str(seed)])
            env = ppo.LadderOpponents(ppo.make_gym_env(mode=mode, normalize=True), args.opponents, seed)
            model = ppo.MaskablePPO(
                "MlpPolicy",
                env,
                n_steps=args.n_steps,
                batch_size=args.batch,
                seed=seed,
                verbose=0,
                device="cpu",
            )
            model.learn(total_timesteps=ppo_steps)
            out.append((f"MaskablePPO, {ppo_steps:,} steps", model, True))
    return out


def cell(e: Evaluation) -> str:
    """A table cell: win share with its interval, then the mean margin."""
    lo, hi = e.win_share_ci95
    return f"{e.win_share:.1%} ({lo:.1%}–{hi:.1%}), {e.margin:+.1f}"


def table(rows: list[tuple[str, str, list[Evaluation]]], opponents: Sequence[str]) -> str:
    """The markdown table: one row per (mode, entrant), one column per opponent."""
    head = " | ".join(f"against `{o}`: win share (95% CI), margin" for o in opponents)
    lines = [f"| mode | entrant | {head} | rating |", "|---|---|" + "---|" * len(opponents) + "---|"]
    for mode, label, evals in rows:
        ratings = [e.rating for e in evals if e.rating is not None and e.opponents == ("greedy",)]
        rating = f"{ratings[0]:.0f}" if ratings else "–"
        lines.append(f"| {mode} | {label} | " + " | ".join(cell(e) for e in evals) + f" | {rating} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> str:
    """Evaluate every entrant, print and return the table (and save the figures with --out)."""
    args = parse(argv)
    rows: list[tuple[str, str, list[Evaluation]]] = []
    for mode in args.modes:
        for label, policy, normalize in entrants(mode, args.ppo_steps, args.seed):
            evals = [
                evaluate(policy, o, mode=mode, games=args.games, seed=args.seed, normalize=normalize)
                for o in args.opponents
            ]
            rows.append((mode.capitalize(), label, evals))
            print(f"{mode} {label}: " + "; ".join(str(e) for e in evals), file=sys.stderr, flush=True)
    text = table(rows, args.opponents)
    print(text)
    if args.out:
        saved = [
            {"mode": m, "entrant": label, "evaluations": [e.to_json() for e in ev]} for m, label, ev in rows
        ]
        Path(args.out).write_text(json.dumps(saved, indent=1))
    return text


if __name__ == "__main__":
    main()
