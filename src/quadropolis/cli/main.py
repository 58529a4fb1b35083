"""The ``quadropolis`` command line: the parser, and :func:`main`, which runs a command.

Commands: ``score``, ``simulate``, ``replay`` and ``bench`` (:mod:`.commands`), ``review``
(:mod:`.review`), then those the
applications register (``play``, ``arena``, ``serve``). Every command has ``--help``, and the
top-level ``--help`` lists them all, one line each.

Exit status and messages:

* 0 on success.
* 1 for bad input (a file that cannot be read, invalid JSON, an invalid city or record, an
  illegal move...): one line on stderr, ``quadropolis COMMAND: error: ...``, naming the problem
  (and the file and line); quoted input is clipped (``…``), so the line stays short whatever
  the input. Never a traceback.
* 2 for a malformed command line (argparse's message, on one line), or a
  ``QUADROPOLIS_ENGINE`` that cannot be had (an unknown value, or ``native`` where the compiled
  engine is not built): ``quadropolis: error: ...``.

The engine (:mod:`quadropolis.engine`) is chosen before any command runs; ``--version`` names
it. When ``auto`` falls back to the pure-Python engine, one line on stderr says so.
* 141 (128 + SIGPIPE, what ``cat`` or ``seq`` give) when the reader of standard output goes
  away early (``quadropolis simulate --json | head -1``): the command stops quietly, with no
  message, so a shell pipeline sees the output was cut short as it would with any other tool.
* 130 after Ctrl-C."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Final, NoReturn

from .. import __version__, engine
from ..arena import add_arena_command
from ..errors import QuadropolisError
from ..server import add_serve_command
from ..terminal import add_play_command
from .commands import cmd_bench, cmd_replay, cmd_score, cmd_simulate
from .options import RULES_EPILOG, CliError, add_variant_options, one_line, positive_int
from .review import add_review

#: Exit status when standard output is closed early: 128 + SIGPIPE (13).
EXIT_BROKEN_PIPE: Final = 141


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``quadropolis`` parser: this module's commands, then those the applications
    register."""
    p = _Parser(
        prog="quadropolis",
        description=(
            "Quadropolis: play it in the terminal (play) or in the browser (serve), pit bots against "
            "each other (arena), score cities, simulate, replay and benchmark games."
        ),
        epilog=RULES_EPILOG,
    )
    p.add_argument(
        "--version",
        action="version",
        version=f"quadropolis {__version__} (engine: {engine.name()})",
        help="show the version and the engine in use (QUADROPOLIS_ENGINE) and exit",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    _add_score(sub)
    _add_simulate(sub)
    _add_replay(sub)
    add_review(sub, _command)
    _add_bench(sub)
    # Further commands register themselves below (one line each).
    add_play_command(sub)
    add_arena_command(sub)
    add_serve_command(sub)
    return p


def _command(
    sub: argparse._SubParsersAction[_Parser], name: str, help: str, description: str
) -> argparse.ArgumentParser:
    """A subcommand's parser, its ``--help`` ending with the rules epilog."""
    return sub.add_parser(name, help=help, description=description, epilog=RULES_EPILOG)


def _add_score(sub: argparse._SubParsersAction[_Parser]) -> None:
    s = _command(
        sub,
        "score",
        help="score cities optimally (R12)",
        description=(
            "Score one city (JSON) or many (JSON Lines, or a JSON array) with the optimal placement of "
            "inhabitants and energy. FILE '-' reads standard input. JSON Lines are streamed: each "
            "city's result is written as soon as its line is read. The drawing of a city is followed "
            "by a legend of the tile codes."
        ),
    )
    s.add_argument("file", metavar="FILE")
    s.add_argument("--json", action="store_true", help="one JSON object per city, per line")
    add_variant_options(s, urbanist=False)
    s.set_defaults(func=cmd_score)


def _add_simulate(sub: argparse._SubParsersAction[_Parser]) -> None:
    m = _command(
        sub,
        "simulate",
        help="play seeded games with uniformly random legal moves",
        description=(
            "Play G games with uniformly random legal moves. Game i uses seed S+i for the layout and "
            "for the choice of moves, so every game can be reproduced alone. Seats are shown as "
            "Player 1, Player 2...; the JSON output keeps the record format's 0-based seat indexes."
        ),
    )
    _game_options(m)
    m.add_argument(
        "--games", type=positive_int, default=100, metavar="G", help="number of games (default 100)"
    )
    m.add_argument("--json", action="store_true", help="one JSON line per game")
    m.add_argument(
        "--records",
        metavar="FILE",
        help="also write each game's record (JSON Lines: replay game N with 'replay FILE --game N')",
    )
    m.set_defaults(func=cmd_simulate)


def _add_replay(sub: argparse._SubParsersAction[_Parser]) -> None:
    r = _command(
        sub,
        "replay",
        help="validate and replay a game record",
        description=(
            "Replay a game record (quadropolis-game/1), checking every move and the recorded result; "
            "prints the final position, a legend of the tile codes, the score sheet and the winner. "
            "FILE holds one record (any layout) or JSON Lines of records, one game a line (as written "
            "by 'simulate --records'): choose one with --game N. Seats are named as in the record "
            "('human:NAME' shows NAME, a bot spec 'Bot SPEC'), else Player 1, Player 2..."
        ),
    )
    r.add_argument("file", metavar="FILE")
    r.add_argument(
        "--game",
        type=positive_int,
        metavar="N",
        help="the game to replay in a file of JSON Lines, numbered from 1 (required if it holds several)",
    )
    r.add_argument("--json", action="store_true", help="print the outcome as JSON")
    r.set_defaults(func=cmd_replay)


def _add_bench(sub: argparse._SubParsersAction[_Parser]) -> None:
    b = _command(
        sub,
        "bench",
        help="performance benchmark",
        description=(
            "Measure random playouts (games/s, with exact final scoring of every city), optimal scoring "
            "time on a fixed corpus of 1,000 full Expert cities, memory per state and copy cost; "
            "section bots: MCTS simulations/s and the time per move of each level. Each figure is the "
            "median of --repeat runs, on one core. --quick is a smoke run of a few seconds with tiny "
            "workloads (its figures are not comparable with a full run's)."
        ),
    )
    b.add_argument(
        "sections",
        nargs="*",
        metavar="SECTION",
        help="engine (playouts, scoring, state), bots (MCTS simulations/s, time per move of each "
        "level), envs (RL adapters' moves/s beside the engine's; needs the rl extra), server "
        "(concurrent games on loopback), web (page load and click times in Chromium); "
        "default: engine and bots",
    )
    b.add_argument(
        "--repeat", type=positive_int, default=None, help="runs per figure (default 5; 1 with --quick)"
    )
    b.add_argument("--quick", action="store_true", help="tiny workloads, one run each: a smoke test")
    b.add_argument("--json", action="store_true", help="print figures as one JSON object")
    b.set_defaults(func=cmd_bench)


def _game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", choices=["classic", "expert"], default="classic")
    p.add_argument("--players", type=int, choices=[2, 3, 4], default=2)
    p.add_argument("--seed", type=int, default=0, metavar="S")
    add_variant_options(p)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); returns the exit status
    (see the module's docstring). A malformed command line exits through ``SystemExit(2)``."""
    try:
        _select_engine()
    except QuadropolisError as e:
        print(one_line(f"quadropolis: error: {e}"), file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = int(args.func(args, sys.stdout))
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return status
    except BrokenPipeError:  # before OSError, of which it is a kind
        _discard_stdout()
        return EXIT_BROKEN_PIPE
    except (CliError, QuadropolisError) as e:
        _error(args.command, str(e))
        return 1
    except OSError as e:
        _error(args.command, str(e))
        return 1
    except KeyboardInterrupt:
        return 130


def _select_engine() -> None:
    """Select the engine ``QUADROPOLIS_ENGINE`` names; a fallback to Python is one line on
    stderr (the warning's text alone, not Python's file:line report)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", engine.EngineWarning)
        engine.select_from_environment()
    for w in caught:
        print(one_line(str(w.message)), file=sys.stderr)


def _error(command: str, message: str) -> None:
    print(one_line(f"quadropolis {command}: error: {message}"), file=sys.stderr)


def _discard_stdout() -> None:
    """Point standard output at /dev/null: the interpreter flushes it once more at exit, and a
    closed pipe would make that flush print a warning."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (tests capture it)
        pass
