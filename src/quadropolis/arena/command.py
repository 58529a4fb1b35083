"""``quadropolis arena``: the command line of tournaments between bots."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from pathlib import Path
from typing import Any, TextIO

from ..bots import BOT_NAMES, LEVEL_DETAILS
from ..cli.options import RULES_EPILOG, CliError, add_variant_options, load_json_text, positive_int
from ..config import GameConfig
from ..tiles import Mode
from .ratings import combine, format_ratings
from .report import (
    PLOT_FORMATS,
    ProgressBar,
    _check_writable,
    _load_pyplot,
    format_report,
    output_format,
    plot_scores,
    write_results,
)
from .tournament import (
    BACKENDS,
    PLOT_HINT,
    PYTHON_SPEC,
    RAY_HINT,
    ArenaError,
    _import_optional,
    entrant_bot,
    run_tournament,
)

# --------------------------------------------------------------------------- command line

_DESCRIPTION = """\
Play a tournament between bots and report their strength.

Entrants are the --bot options in order (entrant i is the i-th --bot); there must be one per
player, and specs may repeat (repeats are labelled greedy#2, greedy#3...). Game g (0-based)
uses seed S+g and rotates the seats: entrant i sits in seat (i+g) mod N, so when G is a
multiple of N every entrant plays every seat equally often (a warning is printed otherwise).

With --round-robin there are more entrants than players: every group of N entrants plays G
games (game k of a group uses seed S+k, so every group sees the same layouts, and the
group's members rotate through the seats), and a table of each entrant's score against
each other one is printed as well. Example, the ladder of difficulty levels:
  quadropolis arena --round-robin --players 2 --games 20 --bot random --bot greedy \
    --bot easy --bot medium --bot neural --bot hard --bot expert

Every game is played with fresh bots, each bot using one search process (the parallelism is
across games; a level's root-parallel trees are searched one after another, which gives the
same moves as searching them in parallel, and its time cap is not applied), so every game is
reproducible alone and the results are identical whatever the backend, the number of jobs
or the load (only the measured thinking times vary) -- as long as the bots' budgets are in
iterations: a time budget (mcts:seconds=T) is not reproducible.

Printed per entrant: games, wins (shared victories split, R13), win rate with its 95%
Wilson score interval, mean score ± standard deviation, mean VP per scoring category, a
rating and the mean thinking time per decision, then the mean winning score. The rating is a
Bradley-Terry maximum-likelihood fit of the pairwise results within each game (for every
pair of seats the higher-ranked by R13 scores 1, exact ties 1/2; one virtual drawn game per
pair as prior), on the Elo scale (400 points = 10:1 odds) with the ratings averaging 1500.
A progress bar with ETA is shown on stderr (--quiet hides it)."""


def _epilog() -> str:
    levels = "\n".join(
        textwrap.fill(what, 90, initial_indent=f"  {name:<8} ", subsequent_indent=" " * 11)
        for name, what in LEVEL_DETAILS.items()
    )
    return (
        f"bots: {', '.join(BOT_NAMES)}\n"
        "  random   uniformly random legal moves\n"
        "  greedy   the move giving its own city the best projected final score\n"
        "  mcts     Monte Carlo tree search; options mcts:iterations=N or mcts:seconds=T,\n"
        "           c=, pw_c=, pw_alpha= (tuning), horizon=N (rollout actions per player\n"
        "           before exact scoring; 0 = to the end), credit=X (VP per unused resource there),\n"
        "           fed=F (0-1: weight of each city's score once fed in that value),\n"
        "           greed=G (0-1: how often a rollout takes the building the prior values most)\n"
        f"{levels}\n"
        "  (in the arena every bot uses 1 search process: workers=... is ignored, trees=... is not)\n"
        "  python:MODULE:ATTR  a Bot, a Bot class or an RL policy ((observation, action_mask) -> action,\n"
        "           or an object with SB3's predict) from your code; MODULE is imported from the\n"
        "           working directory or the Python path (see quadropolis.envs.evaluate)\n\n"
        "output (--out): .json keeps every game (seed, bot per seat, scores, winners and the game\n"
        "record, replayable with 'quadropolis replay') and the summary; .csv has one row per\n"
        "game x seat (game, seed, seat, bot, entrant, score, winner, win_share, the VP of each\n"
        "category, think_seconds, decisions).\n\n"
        "example:\n"
        "  quadropolis arena --players 4 --games 400 --seed 1 --bot hard --bot greedy "
        "--bot greedy --bot greedy --out results.json --plot scores.png\n\n"
        "seats are numbered from 0 in the output files (as in game records)\n"
        f"{RULES_EPILOG}"
    )


def add_arena_command(sub: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    """Register ``quadropolis arena`` on the command line's subparsers."""
    a: argparse.ArgumentParser = sub.add_parser(
        "arena",
        help="play a tournament between bots (parallel, statistics, ratings)",
        description=_DESCRIPTION,
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    a.add_argument(
        "--mode", choices=["classic", "expert"], default="classic", help="game mode (default classic)"
    )
    a.add_argument(
        "--players",
        type=int,
        choices=[2, 3, 4],
        default=None,
        metavar="N",
        help="2, 3 or 4 (default: the number of --bot options, which must equal N; 2 with --round-robin)",
    )
    a.add_argument(
        "--games",
        type=positive_int,
        default=100,
        metavar="G",
        help="number of games (default 100); with --round-robin, per group of entrants",
    )
    a.add_argument(
        "--round-robin",
        action="store_true",
        help="more --bot options than players: every group of N of them plays G games",
    )
    a.add_argument("--seed", type=int, default=0, metavar="S", help="game g uses seed S+g (default 0)")
    a.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SPEC",
        help="an entrant, once per player, e.g. hard, greedy, mcts:iterations=500 (see below)",
    )
    a.add_argument(
        "--jobs",
        type=positive_int,
        default=None,
        metavar="J",
        help=f"games played at a time (default: the number of CPUs, {os.cpu_count() or 1}; 1 = serial)",
    )
    a.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="local: a pool of J processes on this machine (default); ray: one Ray task per game, "
        f"on a local Ray with J CPUs or the cluster at --ray-address (needs {RAY_HINT})",
    )
    a.add_argument(
        "--ray-address",
        metavar="ADDR",
        default=None,
        help="join this Ray cluster (e.g. auto or ray://host:10001) instead of starting a local Ray; "
        "its nodes need quadropolis installed",
    )
    _add_output_options(a)
    a.set_defaults(func=cmd_arena)
    return a


def _add_output_options(a: argparse.ArgumentParser) -> None:
    """Where the results go (saved, drawn), the variants, and rating saved arenas."""
    a.add_argument(
        "--out",
        metavar="FILE",
        help="save results; FILE must end in .json (every game, replayable) or .csv (one row per "
        "game x seat): any other suffix is refused before a game is played",
    )
    a.add_argument(
        "--plot",
        metavar="FILE",
        help=f"draw score distributions per entrant (.png/.svg/.pdf; needs {PLOT_HINT})",
    )
    add_variant_options(a)
    a.add_argument("--quiet", action="store_true", help="no progress bar")
    a.add_argument(
        "--ratings",
        nargs="+",
        metavar="FILE",
        help="play nothing: rate every bot of these saved arenas (--out FILE.json) on one "
        "Bradley-Terry scale, e.g. a ladder measured pair by pair",
    )


def _read_saved(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ArenaError(
            f"{path}: cannot read ({getattr(e, 'strerror', None) or 'not UTF-8 text'})"
        ) from None
    try:
        return load_json_text(text, path)
    except CliError as e:
        raise ArenaError(str(e)) from None


def cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    """``quadropolis arena``: run, print the tables, save/plot. Errors raise ArenaError."""
    specs: list[str] = list(args.bot)
    if args.ratings:
        if specs:
            raise ArenaError("--ratings reads saved arenas and plays nothing: give no --bot")
        docs = [(path, _read_saved(path)) for path in args.ratings]
        out.write(format_ratings(combine(docs), len(docs)))
        return 0
    if not specs:
        raise ArenaError("no bots: give one --bot SPEC per player")
    if args.round_robin:
        players = 2 if args.players is None else args.players
        if len(specs) <= players:
            raise ArenaError(
                f"--round-robin needs more --bot options than the {players} players, got {len(specs)}"
            )
    else:
        players = len(specs) if args.players is None else args.players
        if len(specs) != players:
            raise ArenaError(f"--players {players} needs {players} --bot options, got {len(specs)}")
        if not 2 <= players <= 4:
            raise ArenaError(f"a game has 2 to 4 players: give 2 to 4 --bot options, got {players}")
    if args.ray_address is not None and args.backend != "ray":
        raise ArenaError("--ray-address needs --backend ray")
    template = GameConfig(
        mode=Mode.parse(args.mode),
        players=players,
        seed=args.seed,
        urbanist_blocks=args.urbanist_blocks,
        all_parks_absorb=args.all_parks_absorb,
    )
    jobs: int = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if any(s.strip().startswith(PYTHON_SPEC) for s in specs) and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # python:module:attribute finds modules here, as python -m does
    for spec in specs:
        entrant_bot(spec)
    if args.out:
        output_format(args.out)
        _check_writable(args.out)
    if args.plot:
        if Path(args.plot).suffix.lower() not in PLOT_FORMATS:
            raise ArenaError(f"{args.plot}: plots are written as {', '.join(PLOT_FORMATS)}")
        _load_pyplot()
        _check_writable(args.plot)
    if args.backend == "ray":
        _import_optional("ray", RAY_HINT, "the ray backend")
    if args.games % players:
        print(
            f"quadropolis arena: warning: {args.games} games is not a multiple of {players} players, "
            "so the seats are not perfectly balanced",
            file=sys.stderr,
        )
    bar = None if args.quiet else ProgressBar(sys.stderr)
    result = run_tournament(
        template,
        specs,
        args.games,
        args.seed,
        jobs,
        args.backend,
        bar,
        ray_address=args.ray_address,
        round_robin=args.round_robin,
    )
    out.write(format_report(result))
    if args.out:
        write_results(result, args.out)
        out.write(f"Results saved to {args.out}\n")
    if args.plot:
        plot_scores(result, args.plot)
        out.write(f"Score plot saved to {args.plot}\n")
    return 0
