"""``quadropolis play``: a whole game in the terminal, humans (hotseat) against bots.

The game itself is a :class:`~quadropolis.terminal.session.PlaySession` (no I/O); the screen is
drawn by :mod:`quadropolis.terminal.screen`; this module reads the players' entries, asks the
bots, saves and loads records, and registers the command."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Final, TextIO, TypeVar

from ..bots import LEVELS, Bot, make_bot
from ..cli.options import add_variant_options
from ..config import GameConfig
from ..errors import NotationError, QuadropolisError, RecordError
from ..moves import Move
from ..record import GameRecord
from ..state import PLACE
from ..tiles import Mode
from .screen import (
    ChoiceGroup,
    choices,
    describe_choice,
    numbered,
    prompt_text,
    render_choices,
    render_final,
    render_screen,
)
from .session import PlaySession, UndoError, make_seats

CLEAR: Final = "\x1b[H\x1b[2J"
DEFAULT_HINT: Final = "hard"

HELP: Final = """\
How to play (RULES.md has the rules):
  On your turn, type the number of a choice, or the move itself:
    take   '3L4'   put architect #3 in slot L4 (left end of row 4 of the construction site);
                   slots are T1-T5 (top of each column), B1-B5 (bottom), L1-L5 (left), R1-R5 (right);
                   architect #n designates the n-th square counted from the slot's side
    build  'r2c3'  build the building you took on row 2, column 3 of your city
    discard        discard the building you took (R9)
  Commands:
    hint           what the hint bot ({hint}) would play here
    undo           take back your last action (your take and your build or discard),
                   as long as no one else has acted since
    save [FILE]    write the game record (quadropolis-game/1){save}
    board          draw the screen again
    help           this text
    quit           leave the game (offers to save; Ctrl-D also quits, saving to --save FILE)
  City letters: T tower block (T3 = 3 floors, T* = mayor tile), S shop, P public service
  (P+2 = 2 VP printed), Kt tree park, Kp playground, F factory, H harbor, O office tower,
  M monument; '.' an empty square."""


class PlayError(QuadropolisError):
    """Bad options or files for ``quadropolis play`` (one line, exit status 1)."""


class _Quit(Exception):
    """The player asked to leave the game."""


_P = TypeVar("_P", bound=argparse.ArgumentParser)


def add_play_command(sub: argparse._SubParsersAction[_P]) -> None:
    """Register ``quadropolis play`` on the command line's subparsers."""
    levels = "; ".join(f"{k}: {v}" for k, v in LEVELS.items())
    p = sub.add_parser(
        "play",
        help="play a game in the terminal against bots (or hotseat)",
        description=(
            "Play a whole game in the terminal. Humans take the seats not given to bots (hotseat when "
            "there are several); seats are numbered from 0, humans first then bots (--bots-first for the "
            "other way), and seat 0 holds the mayor in round 1. On your turn choose a move by number or "
            f"type it (3L4, r2c3, discard); 'help' lists the commands. Bot levels: {levels}."
        ),
    )
    p.add_argument("--mode", choices=["classic", "expert"], default=None, help="game mode (default classic)")
    p.add_argument("--players", type=int, choices=[2, 3, 4], default=None, help="number of seats (default 2)")
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SPEC",
        help="a bot seat (repeat): random, greedy, easy, medium, hard, or e.g. mcts:iterations=500",
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
    make_bot(args.hint_bot)  # a bad hint spec fails before the game starts
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
        seats = None
        if args.bot or args.name or args.bots_first:
            seats = make_seats(record.config.players, args.bot, args.name, args.bots_first)
        session = PlaySession.from_record(record, seats)
        s = session.state
        where = "game over" if s.is_over else f"round {s.round}, turn {s.turn}"
        return session, f"Resumed {args.load}: {len(record.moves)} moves replayed ({where})."
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000_000)
    config = GameConfig(
        mode=Mode(args.mode or "classic"),
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
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PlayError(f"{path}: invalid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    try:
        return GameRecord.from_json(data)
    except RecordError as e:
        raise PlayError(f"{path}: {e}") from None


def save_record(session: PlaySession, path: str) -> None:
    """Write the game record to ``path`` (atomically: a partial file never replaces a good one)."""
    text = json.dumps(session.record().to_json(), separators=(",", ":")) + "\n"
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise


@contextlib.contextmanager
def _sigint_deferred(active: bool) -> Iterator[None]:
    """Hold back Ctrl-C while a multi-process bot searches: worker processes forked meanwhile
    inherit the blocked signal (so they never print a traceback of their own) and the
    interrupt reaches this process once the search returns."""
    if (
        not active
        or not hasattr(signal, "pthread_sigmask")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class TerminalUI:
    """The read-eval-draw loop around a :class:`PlaySession`. ``ask`` reads one entry (like
    :func:`input`: prompt in, line out, :class:`EOFError` at the end of input)."""

    def __init__(
        self,
        session: PlaySession,
        out: TextIO,
        ask: Callable[[str], str],
        *,
        clear: bool = False,
        save_path: str | None = None,
        hint_spec: str = DEFAULT_HINT,
        width: int | None = None,
    ) -> None:
        self.session = session
        self.out = out
        self.ask = ask
        self.clear = clear
        self.save_path = save_path
        self.hint_spec = hint_spec
        self.width = width
        self.notices: list[str] = []
        self.groups: list[ChoiceGroup] = []
        #: Where ``save`` without a file name writes (--save FILE, else the --load FILE).
        self.default_file = save_path

    # --- output -----------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _width(self) -> int:
        if self.width is not None:
            return self.width
        return max(60, shutil.get_terminal_size((100, 40)).columns - 1)

    def draw(self) -> None:
        """The screen of the current decision, then the numbered choices."""
        s = self.session
        self.groups = choices(s.state)
        screen = render_screen(s, self.notices, self._width())
        self.notices = []
        self.out.write((CLEAR if self.clear else "\n") + screen + "\n\n")
        self.say(prompt_text(s) + "\n" + render_choices(self.groups, self._width()))

    # --- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end (or until the players leave). Returns the exit status: 0, or 130
        after Ctrl-C."""
        try:
            try:
                while not self.session.is_over:
                    if self.session.current.is_human:
                        self.human_decision()
                    else:
                        self.bot_action()
            except _Quit:
                return 0
            except EOFError:
                self.say("\nEnd of input: leaving the game.")
                self._save_on_exit()
                return 0
            self.finish()
            return 0
        except KeyboardInterrupt:
            self.out.write("\nInterrupted.\n")
            with contextlib.suppress(KeyboardInterrupt):
                self._save_on_exit()
            self.out.flush()
            return 130
        finally:
            self.session.close()

    def human_decision(self) -> None:
        """Draw, then read entries until one changes the game (a move or an undo)."""
        self.draw()
        prompt = f"{self.session.current.name}> "
        while True:
            text = self.ask(prompt).strip()
            if self.handle(text):
                return

    def handle(self, text: str) -> bool:
        """Act on one entry; True when the game changed (the screen must be drawn again)."""
        s = self.session
        word, _, rest = text.partition(" ")
        word = word.lower()
        if not text:
            self.say("Type a choice number, a move, or 'help'.")
            return False
        if word in ("help", "?", "h"):
            save = f" (default {self.default_file})" if self.default_file else ""
            self.say(HELP.format(hint=self.hint_spec, save=save))
            return False
        if word in ("board", "redraw", "list"):
            return True
        if word == "hint":
            self.hint()
            return False
        if word == "undo":
            try:
                removed = s.undo()
            except UndoError as e:
                self.say(f"Cannot undo: {e}.")
                return False
            self.notices.append("Undone: " + "; ".join(st.text for st in removed))
            self._autosave()
            return True
        if word == "save":
            self.save(rest.strip() or None)
            return False
        if word in ("quit", "exit", "q"):
            self.quit()
        move = self.parse(text)
        if move is None:
            return False
        s.play(move)
        self._autosave()
        return True

    def parse(self, text: str) -> Move | None:
        """The move an entry names (a choice number or notation), or None after saying why not."""
        table = numbered(self.groups)
        if text.isdigit():
            move = table.get(int(text))
            if move is None:
                self.say(f"No choice {text}: choose a number from 1 to {len(table)}.")
            return move
        try:
            move = Move.parse(text)
        except NotationError as e:
            self.say(f"{e} (or a command: hint, undo, save, help, quit)")
            return None
        reason = self.session.explain(move)
        if reason is not None:
            self.say(f"Not allowed: {reason}.")
            return None
        return move

    def hint(self) -> None:
        s = self.session
        self.say(f"Thinking about a hint ({self.hint_spec})...")
        with _sigint_deferred(_multi_process(s.hint_bot(self.hint_spec))):
            move = s.hint(self.hint_spec)
        self.say(f"Hint ({self.hint_spec}): {describe_choice(move, self.groups)}: {s.describe(move)}")

    def bot_action(self) -> None:
        """The bot whose turn it is plays a whole action (take, then build or discard)."""
        s = self.session
        seat = s.current_seat
        with _sigint_deferred(_multi_process(s.bot(seat))):
            s.play(s.bot_move())
            while s.current_seat == seat and s.state.phase == PLACE:
                s.play(s.bot_move())
        action = s.actions()[-1]
        self.say(action.describe(s.name(seat)))
        self._autosave()

    def finish(self) -> None:
        """The end of the game: final screen, score sheets, winner; offers to save."""
        s = self.session
        self.out.write((CLEAR if self.clear else "\n") + render_final(s, self._width()) + "\n")
        if self.save_path:
            self._autosave()
            self.say(f"\nGame record saved to {self.save_path}.")
            return
        if not any(seat.is_human for seat in s.seats):
            return
        try:
            answer = self.ask("\nType 'save FILE' to keep the game record, or press Enter to leave: ").strip()
        except EOFError:
            self.say("")
            return
        word, _, rest = answer.partition(" ")
        if word.lower() == "save":
            self.save(rest.strip() or None)

    # --- saving -----------------------------------------------------------------------------

    def save(self, path: str | None) -> bool:
        path = path or self.default_file
        if not path:
            self.say("Save where? Type 'save FILE' (or start with --save FILE).")
            return False
        try:
            save_record(self.session, path)
        except OSError as e:
            self.say(f"Could not save to {path}: {e.strerror or e}.")
            return False
        n = len(self.session.steps)
        self.say(f"Saved to {path} ({n} moves; resume with: quadropolis play --load {path}).")
        return True

    def _autosave(self) -> None:
        if self.save_path:
            try:
                save_record(self.session, self.save_path)
            except OSError as e:
                self.notices.append(f"Could not save to {self.save_path}: {e.strerror or e}.")

    def _save_on_exit(self) -> None:
        if self.save_path:
            self.save(self.save_path)

    def quit(self) -> None:
        """Leave the game, saving to --save FILE or offering to save."""
        if self.save_path:
            self.save(self.save_path)
            raise _Quit
        try:
            answer = self.ask("Save the game before leaving? File name (Enter to leave without saving): ")
        except EOFError:
            answer = ""
        if answer.strip():
            self.save(answer.strip())
        self.say("Goodbye.")
        raise _Quit


def _multi_process(bot: Bot) -> bool:
    """Whether ``bot`` searches in several processes (see :func:`_sigint_deferred`)."""
    return int(getattr(bot, "workers", 1)) > 1
