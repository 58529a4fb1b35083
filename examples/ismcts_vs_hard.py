"""Head to head: a quadropolis bot (default ``hard``) against OpenSpiel's own ISMCTS, at equal
time per move, in 2-player games of the OpenSpiel game ``python_quadropolis``.

* Game ``g`` uses seed ``S + g``: every round is dealt from the chance outcomes of the engine's
  seeded layout (``chance_actions_for_seed``), so game ``g`` has the layouts of the engine's
  game with that seed; the bot sits in seat ``g % 2`` (seats alternate; use an even ``--games``).
* The bot sees the engine's observation (seed hidden) and uses ``bot_rng(seed, seat)``; MCTS
  bots search in one process (``workers=1``, as in the arena), so both sides use one core.
* ISMCTS is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with a random-rollout evaluator
  (OpenSpiel's defaults: UCT, ``uct_c`` 2, most-visited final policy, unlimited world samples,
  information-state keys), searching until a deadline instead of a fixed number of
  simulations: for each decision, the mean time the bot has taken on decisions of the same kind
  (take, or build/discard) so far in the game (``--initial`` before its first one). The mean
  times of both sides are reported, so the equality can be checked.

Prints the bot's win share (R13: a tie counts 1/2) with a 95% Wilson interval, per seat, the
mean scores and the mean times per decision; ``--out`` writes every game as JSON, rewritten
after each game, so an interrupted run keeps the games it finished; ``--resume`` plays only
the games not in ``--out`` yet (same mode, bot and first seed) and reports on all of them::

    python examples/ismcts_vs_hard.py --mode classic --games 200 --jobs 2 --out classic.json
    python examples/ismcts_vs_hard.py --mode classic --games 200 --jobs 2 --out classic.json --resume
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from quadropolis import GameConfig, Mode, outcome
from quadropolis.arena import wilson_interval
from quadropolis.bots import bot_rng, make_bot
from quadropolis.envs import action_to_move, final_rewards, load_openspiel_game, move_to_action
from quadropolis.envs.openspiel_game import chance_actions_for_seed
from quadropolis.phases import TAKE


class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS, searching until a deadline (at least two simulations: the first
    only expands the root)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = 0.1
        self.simulations: list[int] = []

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            self.simulations.append(0)
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        n = 0
        while n < 2 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            n += 1
        self.simulations.append(n)
        return self.get_final_policy(state, self._root_node)


def play_game(args: dict[str, Any]) -> dict[str, Any]:
    mode, seed, seat, spec = Mode(args["mode"]), args["seed"], args["bot_seat"], args["bot"]
    config = GameConfig(mode=mode, players=2, seed=seed)
    game = load_openspiel_game({"mode": mode.value, "players": 2})
    bot = make_bot(spec, workers=1)
    rng = bot_rng(seed, seat)
    rs = np.random.RandomState(seed % 2**32)
    searcher = TimedISMCTS(game, mcts.RandomRolloutEvaluator(1, rs), args["uct_c"], 1, random_state=rs)
    times: dict[str, dict[str, list[float]]] = {
        "bot": {"take": [], "place": []},
        "ismcts": {"take": [], "place": []},
    }
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            for tile in chance_actions_for_seed(config, state.game_state.round):
                state.apply_action(tile)
            continue
        kind = "take" if state.game_state.phase == TAKE else "place"
        start = time.perf_counter()
        if state.current_player() == seat:
            action = move_to_action(bot.choose(state.game_state.copy(), rng))
            times["bot"][kind].append(time.perf_counter() - start)
        else:
            own = times["bot"][kind]
            searcher.seconds = statistics.mean(own) if own else args["initial"][kind]
            action = int(searcher.step(state))
            times["ismcts"][kind].append(time.perf_counter() - start)
        if action not in state.legal_actions():
            raise RuntimeError(f"seed {seed}: illegal {action_to_move(action)}")
        state.apply_action(action)
    result = outcome(state.game_state)
    shares = final_rewards(result, "win_share")
    return {
        "seed": seed,
        "bot_seat": seat,
        "scores": list(result.totals),
        "winners": list(result.winners),
        "bot_share": shares[seat],
        "times": times,
        "ismcts_simulations": searcher.simulations,
    }


def summarize(games: list[dict[str, Any]], spec: str) -> str:
    n = len(games)
    share = sum(g["bot_share"] for g in games)
    lo, hi = wilson_interval(share, n)
    lines = [
        f"{spec} vs OpenSpiel ISMCTS: {n} games, {spec} win share {share / n:.1%} (95% CI {lo:.1%}-{hi:.1%})"
    ]
    for seat in (0, 1):
        sub = [g for g in games if g["bot_seat"] == seat]
        if sub:
            lines.append(
                f"  {spec} in seat {seat}: {sum(g['bot_share'] for g in sub) / len(sub):.1%} of {len(sub)}"
            )
    bot_scores = [g["scores"][g["bot_seat"]] for g in games]
    is_scores = [g["scores"][1 - g["bot_seat"]] for g in games]
    lines.append(
        f"  mean score: {spec} {statistics.mean(bot_scores):.1f}, ISMCTS {statistics.mean(is_scores):.1f}"
    )
    for kind in ("take", "place"):
        b = [t for g in games for t in g["times"]["bot"][kind]]
        s = [t for g in games for t in g["times"]["ismcts"][kind]]
        if b and s:
            lines.append(
                f"  mean seconds per {kind}: {spec} {statistics.mean(b):.3f}, ISMCTS {statistics.mean(s):.3f}"
            )
    sims = [x for g in games for x in g["ismcts_simulations"] if x]
    if sims:
        lines.append(
            f"  ISMCTS simulations per searched decision: mean {statistics.mean(sims):.0f}, min {min(sims)}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="classic", choices=["classic", "expert"])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1, help="game g uses seed SEED + g")
    ap.add_argument("--bot", default="hard", help="quadropolis bot spec (default hard)")
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument(
        "--initial-take", type=float, default=0.25, help="ISMCTS seconds before the bot's first take"
    )
    ap.add_argument("--initial-place", type=float, default=0.08, help="... before its first build/discard")
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel (one core each)")
    ap.add_argument("--out", help="write every game as JSON (after each game)")
    ap.add_argument("--resume", action="store_true", help="keep the games already in --out")
    args = ap.parse_args(argv)
    games = _finished(args) if args.resume else []
    done = {g["seed"] for g in games}
    tasks = [
        {
            "mode": args.mode,
            "seed": args.seed + g,
            "bot_seat": g % 2,
            "bot": args.bot,
            "uct_c": args.uct_c,
            "initial": {"take": args.initial_take, "place": args.initial_place},
        }
        for g in range(args.games)
        if args.seed + g not in done
    ]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for result in pool.map(play_game, tasks):
                _record(games, result, args, start)
    else:
        for task in tasks:
            _record(games, play_game(task), args, start)
    games.sort(key=lambda g: int(g["seed"]))
    if games:
        print(summarize(games, args.bot))
    return games


def _finished(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The games of ``--out`` from an earlier run of the same match (none if no file)."""
    if not args.out:
        sys.exit("--resume needs --out FILE")
    try:
        with open(args.out, encoding="utf-8") as f:
            saved = json.load(f)
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as e:
        sys.exit(f"{args.out}: cannot resume from it: {e}")
    if not (isinstance(saved, dict) and isinstance(saved.get("games"), list)):
        sys.exit(f"{args.out}: cannot resume from it: not a file this harness wrote")
    before = saved.get("args", {})
    for key in ("mode", "bot", "seed", "uct_c"):
        if before.get(key) != getattr(args, key):
            sys.exit(f"{args.out}: an earlier run with {key}={before.get(key)!r}, not {getattr(args, key)!r}")
    last = args.seed + args.games
    return [g for g in saved["games"] if args.seed <= g["seed"] < last]


def _record(
    games: list[dict[str, Any]], game: dict[str, Any], args: argparse.Namespace, start: float
) -> None:
    """Keep a finished game, show it, and save every game so far (a crash loses none)."""
    games.append(game)
    _progress(games, start)
    if args.out:
        tmp = f"{args.out}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"args": vars(args), "games": games}, f)
        os.replace(tmp, args.out)  # atomic: the file is always a whole JSON document


def _progress(games: list[dict[str, Any]], start: float) -> None:
    g = games[-1]
    print(
        f"game {len(games)}: seed {g['seed']}, bot seat {g['bot_seat']}, scores {g['scores']}, "
        f"bot share {g['bot_share']:g} ({time.perf_counter() - start:.0f}s)",
        file=sys.stderr,
        flush=True,
    )


if __name__ == "__main__":
    assert pyspiel  # OpenSpiel is required
    main()
