"""``quadropolis play``: the command's options (:func:`add_play_command`), the session they
make (a new game, or one resumed from a record file) and the run of :class:`~.ui.TerminalUI`
on it."""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
from typing import TextIO, TypeVar

from ..bots import BOT_NAMES, LEVELS, make_bot
from ..cli.options import RULES_EPILOG, CliError, add_variant_options, load_json_text
from ..config import GameConfig
from ..errors import QuadropolisError, RecordError
from ..record import GameRecord
from ..tiles import Mode
from .session import PlaySession, make_seats
from .ui import DEFAULT_HINT, TerminalUI


class PlayError(QuadropolisError):
    """Bad options or files for ``quadropolis play`` (one line, exit status 1)."""


_P = TypeVar("_P", bound=argparse.ArgumentParser)


def add_play_command(sub: argparse._SubParsersAction[_P]) -> None:
    """Register ``quadropolis play`` on the command line's subparsers."""
    levels = "; ".join(f"{k}: {v}" for k, v in LEVELS.items())
    p = sub.add_parser(
        "play",
        help="play a game in the terminal against bots (or hotseat)",
        description=(
            "Play a whole game in the terminal. Humans take the seats not given to bots (hotseat when "
            "there are several); seats are numbered from 1, humans first then bots (--bots-first for the "
            "other way), and seat 1 holds the mayor in round 1. On your turn choose a move by number or "
            f"type it (3L4, r2c3, discard); 'help' lists the commands. Bot levels: {levels}."
        ),
        epilog=RULES_EPILOG,
    )
    p.add_argument("--mode", choices=["classic", "expert"], default=None, help="game mode (default classic)")
    p.add_argument("--players", type=int, choices=[2, 3, 4], default=None, help="number of seats (default 2)")
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SPEC",
        help=f"a bot seat (repeat): {', '.join(b for b in BOT_NAMES if b != 'mcts')}, "
        "or e.g. mcts:iterations=500",
    )
    p.add_argument(
        "--name", action="append", default=[], metavar="NAME", help="a human's name, in seat order (repeat)"
    )
    p.add_argument("--bots-first", action="store_true", help="seat the bots before the humans")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="seed (default: random, printed)")
    p.add_argument("--save", metavar="FILE", help="keep the game record in FILE (saved after every action)")
    p.add_argument("--load", metavar="FILE", help="resume the game recorded in FILE")
    p.add_argument(
        "--hint-bot",
        default=DEFAULT_HINT,
        metavar="SPEC",
        help="the bot that answers 'hint' (default hard; e.g. mcts:iterations=200 for a faster hint)",
    )
    p.add_argument("--no-clear", action="store_true", help="never clear the terminal between screens")
    add_variant_options(p, defaults=False)
    p.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    make_bot(args.hint_bot, trusted=True)  # a bad hint spec fails before the game starts
    session, notice = _session(args)
    clear = not args.no_clear and out.isatty() and os.environ.get("TERM", "") != "dumb"
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing for input())
    ui = TerminalUI(session, out, input, clear=clear, save_path=args.save, hint_spec=args.hint_bot)
    ui.default_file = args.save or args.load
    ui.notices.append(notice)
    return ui.run()


def _session(args: argparse.Namespace) -> tuple[PlaySession, str]:
    """The session from the options: a new game, or the one in --load."""
    if args.load:
        given = [
            opt
            for opt, value in (
                ("--mode", args.mode),
                ("--players", args.players),
                ("--seed", args.seed),
                ("--urbanist-blocks", args.urbanist_blocks),
                ("--all-parks-absorb", args.all_parks_absorb),
            )
            if value is not None
        ]
        if given:
            raise PlayError(
                f"--load takes the mode, players, seed and variants from the record; drop {', '.join(given)}"
            )
        record = load_record(args.load)
        try:
            seats = None
            if args.bot or args.name or args.bots_first:
                seats = make_seats(record.config.players, args.bot, args.name, args.bots_first)
            session = PlaySession.from_record(record, seats)
        except QuadropolisError as e:  # every load error names the file
            raise PlayError(f"{args.load}: {e}") from None
        s = session.state
        where = "game over" if s.is_over else f"round {s.round}, turn {s.turn}"
        return session, f"Resumed {args.load}: {len(record.moves)} moves replayed ({where})."
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000_000)
    config = GameConfig(
        mode=Mode.parse(args.mode or "classic"),
        players=args.players or 2,
        seed=seed,
        urbanist_blocks=args.urbanist_blocks or "lines",
        all_parks_absorb=bool(args.all_parks_absorb),
    )
    seats = make_seats(config.players, args.bot, args.name, args.bots_first)
    notice = f"New game, seed {seed} (play the same layouts again with --seed {seed})."
    return PlaySession(config, seats), notice


def load_record(path: str) -> GameRecord:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise PlayError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PlayError(f"{path}: cannot read ({e})") from None
    try:
        data = load_json_text(text, path)  # bounded: no recursion or int-size traceback
    except CliError as e:
        raise PlayError(str(e)) from None
    try:
        return GameRecord.from_json(data)
    except RecordError as e:
        raise PlayError(f"{path}: {e}") from None


__all__ = ["PlayError", "add_play_command", "cmd_play", "load_record"]
