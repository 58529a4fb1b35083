"""The ``quadropolis`` command line: score, simulate, replay, bench.

Every command has ``--help``. Bad input gives a one-line message on stderr and exit status 1
(2 for a malformed command line), never a traceback."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn, TextIO

from ..arena import add_arena_command
from ..city import GEOMETRY, City
from ..config import GameConfig
from ..errors import QuadropolisError
from ..moves import Move
from ..outcome import outcome
from ..playout import random_playout
from ..record import GameRecord, replay
from ..render import render_city, render_placement, render_score_sheet, render_state
from ..scoring import score_city
from ..terminal import add_play_command
from ..tiles import Mode
from .options import add_variant_options


class CliError(Exception):
    """Bad input detected by the command line (message shown as is, exit 1)."""


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a directory") from None
    except UnicodeDecodeError:
        raise CliError(f"{path}: not UTF-8 text") from None
    except OSError as e:
        raise CliError(f"{path}: {e.strerror}") from None


def _json_documents(text: str, path: str) -> Iterator[tuple[str, Any]]:
    """One JSON document, or JSON Lines; yields (location, value)."""
    stripped = text.strip()
    if not stripped:
        raise CliError(f"{path}: empty input")
    try:
        yield path, json.loads(stripped)
        return
    except json.JSONDecodeError:
        pass
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as e:
            raise CliError(f"{path}: line {n}: invalid JSON ({e.msg} at column {e.colno})") from None
        yield f"{path}: line {n}", value


def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    text = _read_text(args.file)
    docs = list(_json_documents(text, args.file))
    cities: list[tuple[str, Any]] = []
    for where, value in docs:
        if isinstance(value, list):  # a JSON array of cities
            cities.extend((f"{where}: city {i + 1}", v) for i, v in enumerate(value))
        else:
            cities.append((where, value))
    for i, (where, data) in enumerate(cities):
        try:
            city = City.from_json(data)
        except QuadropolisError as e:
            raise CliError(f"{where}: {e}") from None
        score = score_city(city, all_parks_absorb=args.all_parks_absorb)
        geo = GEOMETRY[city.mode]
        if args.json:
            out.write(json.dumps(score.to_json(geo), separators=(",", ":")) + "\n")
        else:
            if i:
                out.write("\n")
            title = f"City {i + 1} ({city.mode.value})" if len(cities) > 1 else f"City ({city.mode.value})"
            out.write(render_city(city, title) + "\n")
            out.write(render_score_sheet([score], ["VP"], city.mode is Mode.EXPERT) + "\n")
            out.write("Optimal placement:\n" + render_placement(city, score) + "\n")
    return 0


def _config(args: argparse.Namespace, seed: int) -> GameConfig:
    return GameConfig(
        mode=Mode(args.mode),
        players=args.players,
        seed=seed,
        urbanist_blocks=args.urbanist_blocks,
        all_parks_absorb=args.all_parks_absorb,
    )


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    if args.games < 1:
        raise CliError("--games must be at least 1")
    records = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115
    wins = [0.0] * args.players
    totals = [0] * args.players
    win_scores: list[int] = []
    n_moves = 0
    start = time.perf_counter()
    try:
        for g in range(args.games):
            seed = args.seed + g
            config = _config(args, seed)
            played: list[Move] = []
            final = random_playout(config, random.Random(f"playout/{seed}"), played)
            result = outcome(final)
            n_moves += len(played)
            for p in result.winners:
                wins[p] += 1 / len(result.winners)
            for p, s in enumerate(result.totals):
                totals[p] += s
            win_scores.append(max(result.totals))
            if args.json:
                line = {
                    "seed": seed,
                    "scores": list(result.totals),
                    "winners": list(result.winners),
                    "moves": len(played),
                }
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
            if records is not None:
                rec = GameRecord.of_game(config, played, final, result_of=result)
                records.write(json.dumps(rec.to_json(), separators=(",", ":")) + "\n")
    finally:
        if records is not None:
            records.close()
    elapsed = time.perf_counter() - start
    if not args.json:
        g = args.games
        out.write(
            f"{g} random {args.mode} games, {args.players} players, seeds {args.seed}-{args.seed + g - 1}"
            f" ({elapsed:.2f} s, {g / elapsed:.0f} games/s including final scoring)\n"
        )
        out.write(f"moves per game: {n_moves / g:.1f}\n")
        out.write(f"mean winning score: {sum(win_scores) / g:.1f} VP\n")
        for p in range(args.players):
            out.write(f"seat {p}: mean score {totals[p] / g:6.1f} VP, wins {wins[p] / g:6.1%}\n")
    return 0


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    text = _read_text(args.file)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise CliError(f"{args.file}: invalid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    try:
        record = GameRecord.from_json(data)
        final = replay(record)
    except QuadropolisError as e:
        raise CliError(f"{args.file}: {e}") from None
    result = outcome(final)
    geo = GEOMETRY[final.config.mode]
    if args.json:
        out.write(json.dumps({"over": final.is_over, **result.to_json(geo)}, separators=(",", ":")) + "\n")
        return 0
    out.write(render_state(final, result.scores) + "\n\n")
    names = [f"Player {p}" for p in range(final.config.players)]
    out.write(render_score_sheet(result.scores, names, final.config.mode is Mode.EXPERT) + "\n")
    if final.is_over:
        win = ", ".join(f"player {p}" for p in result.winners)
        shared = " (shared victory, R13)" if len(result.winners) > 1 else ""
        out.write(f"Winner: {win}{shared} with {max(result.totals)} VP after {len(record.moves)} moves\n")
    else:
        out.write(f"Game not over after {len(record.moves)} moves (scores above are projections)\n")
    return 0


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from ..bench import SECTIONS, run_benchmarks

    sections = tuple(args.sections) or tuple(SECTIONS)
    for name in sections:
        if name not in SECTIONS:
            raise CliError(f"unknown benchmark section {name!r} (choose from {', '.join(SECTIONS)})")
    run_benchmarks(out, repeat=args.repeat, quick=args.quick, as_json=args.json, sections=sections)
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="quadropolis", description="Quadropolis rules engine: score cities, simulate and replay games."
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    s = sub.add_parser(
        "score",
        help="score cities optimally (R12)",
        description=(
            "Score one city (JSON) or many (JSON Lines, or a JSON array) with the optimal placement of "
            "inhabitants and energy. FILE '-' reads standard input."
        ),
    )
    s.add_argument("file", metavar="FILE")
    s.add_argument("--json", action="store_true", help="one JSON object per city, per line")
    add_variant_options(s, urbanist=False)
    s.set_defaults(func=cmd_score)

    m = sub.add_parser(
        "simulate",
        help="play seeded games with uniformly random legal moves",
        description=(
            "Play G games with uniformly random legal moves. Game i uses seed S+i for the layout and "
            "for the choice of moves, so every game can be reproduced alone."
        ),
    )
    _game_options(m)
    m.add_argument("--games", type=int, default=100, metavar="G", help="number of games (default 100)")
    m.add_argument("--json", action="store_true", help="one JSON line per game")
    m.add_argument("--records", metavar="FILE", help="also write each game's record (JSON Lines)")
    m.set_defaults(func=cmd_simulate)

    r = sub.add_parser(
        "replay",
        help="validate and replay a game record",
        description=(
            "Replay a game record (quadropolis-game/1), checking every move and the recorded result; "
            "prints the final position, score sheets and winner."
        ),
    )
    r.add_argument("file", metavar="FILE")
    r.add_argument("--json", action="store_true", help="print the outcome as JSON")
    r.set_defaults(func=cmd_replay)

    b = sub.add_parser(
        "bench",
        help="performance benchmark",
        description=(
            "Measure random playouts (games/s, with exact final scoring of every city), optimal scoring "
            "time on a fixed corpus of 1,000 full Expert cities, memory per state and copy cost. "
            "Each figure is the median of --repeat runs, on one core."
        ),
    )
    b.add_argument(
        "sections",
        nargs="*",
        metavar="SECTION",
        help="engine (playouts, scoring, state) and/or bots (MCTS simulations/s, time per move "
        "of each level); default: both",
    )
    b.add_argument("--repeat", type=int, default=5, help="runs per figure (default 5)")
    b.add_argument("--quick", action="store_true", help="smaller workloads (smoke test)")
    b.add_argument("--json", action="store_true", help="print figures as one JSON object")
    b.set_defaults(func=cmd_bench)
    # Further commands register themselves below (one line each).
    add_play_command(sub)
    add_arena_command(sub)
    return p


def _game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", choices=["classic", "expert"], default="classic")
    p.add_argument("--players", type=int, choices=[2, 3, 4], default=2)
    p.add_argument("--seed", type=int, default=0, metavar="S")
    add_variant_options(p)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args, sys.stdout))
    except (CliError, QuadropolisError) as e:
        print(f"quadropolis {args.command}: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"quadropolis {args.command}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
