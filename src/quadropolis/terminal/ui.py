"""The terminal's input loop (:class:`TerminalUI`): it draws the screens of
:mod:`.screen` and :mod:`.views`, reads the players' entries, asks the bots and saves the game
record. The ``play`` command (:mod:`.command`) starts it."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Final, TextIO

from ..bots import Bot
from ..city import GEOMETRY
from ..errors import NotationError
from ..moves import Move
from ..state import PLACE
from .choices import ChoiceGroup, choices, describe_choice, numbered
from .parts import action_text
from .screen import Screen, render_screen
from .session import PlaySession, UndoError
from .text import clip, paginate_sections, wrap
from .views import cities_sections, city_sections, final_sections, help_sections, log_lines, view_screen

CLEAR: Final = "\x1b[H\x1b[2J"
DEFAULT_HINT: Final = "hard"
#: A city square as typed (``r2c3``), to say which squares a city has when out of range.
_SQUARE: Final = re.compile(r"r(\d+)\s*c(\d+)")


class _Quit(Exception):
    """The player asked to leave the game."""


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
    :func:`input`: prompt in, line out, :class:`EOFError` at the end of input).

    On a terminal every screen is fitted to its size (``width`` x ``height`` lines above the
    prompt, from :func:`shutil.get_terminal_size` unless given; no height limit when the
    output is not a terminal): see :mod:`.screen`. With ``clear`` every answer redraws the
    whole screen, messages included, so nothing scrolls away; without it messages are
    printed as they come and the screen is drawn again only when it changes."""

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
        height: int | None = None,
    ) -> None:
        self.session = session
        self.out = out
        self.ask = ask
        self.clear = clear
        self.save_path = save_path
        self.hint_spec = hint_spec
        self.width = width
        self.height = height
        self.notices: list[str] = []
        self.groups: list[ChoiceGroup] = []
        #: Where ``save`` without a file name writes (--save FILE, else the --load FILE).
        self.default_file = save_path
        #: The moves in the file last saved or loaded (``quit`` asks only if they differ).
        self.saved_moves: list[Move] = list(session.moves)
        #: The view shown instead of the board: ("help" | "cities" | "city" | "log", seat).
        self.view: tuple[str, int] | None = None
        self.page = 0  # the page shown (of the choices, or of the view)
        self.pages = 1
        self._redraw = False

    # --- output -----------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def notify(self, text: str) -> None:
        """A message for the player: shown on the next screen (or printed, not clearing)."""
        self.notices.append(text)

    def _flush_notices(self) -> None:
        for n in self.notices:
            self.say(n)
        self.notices = []

    def _width(self) -> int:
        if self.width is not None:
            return self.width
        return max(40, shutil.get_terminal_size((100, 40)).columns - 1)

    def _height(self) -> int | None:
        """Lines available above the prompt: the terminal's, or no limit when the output is
        not a terminal."""
        if self.height is not None:
            return self.height
        try:
            tty = self.out.isatty()
        except (AttributeError, ValueError):
            tty = False
        if not tty:
            return None
        return max(10, shutil.get_terminal_size((100, 40)).lines - 1)

    def draw(self) -> None:
        """The screen of the current decision (or of the view asked for) with the messages."""
        width, height = self._width(), self._height()
        if self.view is not None:
            screen = self._view_screen(width, height)
        else:
            screen = render_screen(self.session, self.notices, width, height, self.page, self.groups)
            self.notices = []
        self.page, self.pages = screen.page, screen.pages
        self.out.write((CLEAR if self.clear else "\n") + screen.text + "\n")
        self.out.flush()
        self._redraw = False

    def _view_screen(self, width: int, height: int | None) -> Screen:
        assert self.view is not None
        kind, seat = self.view
        s = self.session
        back = "Enter: back to the game"
        if kind == "help":
            sections = help_sections(self.hint_spec, self.default_file, s.config.mode, width)
            return view_screen("help", sections, width, height, self.page, back)
        if kind == "cities":
            return view_screen("every city", cities_sections(s, width), width, height, self.page, back)
        if kind == "city":
            sections = city_sections(s, seat, width)
            return view_screen(f"city {seat + 1}", sections, width, height, self.page, back)
        return view_screen("log", [log_lines(s, width)], width, height, self.page, back)

    def refresh(self) -> None:
        """After an entry that left the game as it was: redraw (when clearing, or when the
        view changed), else print the messages."""
        if self.clear or self._redraw:
            self.draw()
        else:
            self._flush_notices()

    def question(self, text: str, prompt: str) -> str:
        """Ask something besides a move: on the board redrawn with the question in place of
        the choices when clearing, else just the question."""
        if self.clear:
            width, height = self._width(), self._height()
            screen = render_screen(self.session, self.notices, width, height, groups=[], question=text)
            self.notices = []
            self.out.write(CLEAR + screen.text + "\n")
        else:
            self.say(text)
        return self.ask(prompt)

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
                self.finish()
            except _Quit:
                return 0
            except EOFError:
                self.say("\nEnd of input: leaving the game.")
                self._save_on_exit()
                return 0
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
        self.groups = choices(self.session.state)
        self.view = None
        self.page = 0
        self.draw()
        prompt = f"{self.session.current.name}> "
        while True:
            text = self.ask(prompt).strip()
            if self.handle(text):
                return
            self.refresh()

    def handle(self, text: str) -> bool:
        """Act on one entry; True when the game changed (the screen must be drawn again)."""
        s = self.session
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in _PAGE_WORDS:
            if self.pages > 1:
                self.page = (self.page + _PAGE_WORDS[word]) % self.pages
                self._redraw = True
            elif self.view is None:
                self.notify("All the choices are on the screen.")
            return False
        leaving_view = self.view is not None
        self.view = None
        self.page = 0
        if not text:
            if leaving_view:
                self._redraw = True
            else:
                self.notify("Type a choice number, a move, or 'help'.")
            return False
        if word in ("help", "?", "h", "legend"):
            return self.show(("help", 0), page=1 if word == "legend" else 0)
        if word in ("board", "redraw", "list"):
            self._redraw = True
            return False
        if word == "cities":
            return self.show(("cities", 0))
        if word == "city":
            n = rest.strip()
            players = s.config.players
            if not (n.isdigit() and 1 <= int(n) <= players):
                self.notify(
                    f"Which city? Type 'city N' with N from 1 to {players} (the seat numbers), or 'cities'."
                )
                return False
            return self.show(("city", int(n) - 1))
        if word in ("log", "history"):
            return self.show(("log", 0), page=-1)
        if word == "hint":
            self.hint()
            return False
        if word == "undo":
            try:
                removed = s.undo()
            except UndoError as e:
                self.notify(f"Cannot undo: {e}.")
                return False
            self.notify("Undone: " + "; ".join(st.text for st in removed))
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

    def show(self, view: tuple[str, int], page: int = 0) -> bool:
        """Show a view (help, cities, a city, the log) instead of the board (``page`` -1:
        the last page)."""
        self.view = view
        self.page = page
        self._redraw = True
        return False

    def parse(self, text: str) -> Move | None:
        """The move an entry names (a choice number or notation), or None after saying why not."""
        table = numbered(self.groups)
        if text.isdigit():
            move = table.get(int(text))
            if move is None:
                self.notify(f"No choice {text}: choose a number from 1 to {len(table)}.")
            return move
        square = _SQUARE.fullmatch(text.strip().lower())
        if square:
            geo = GEOMETRY[self.session.config.mode]
            row, col = int(square.group(1)), int(square.group(2))
            if not (1 <= row <= geo.rows and 1 <= col <= geo.cols):
                self.notify(
                    f"{text.strip()!r}: {geo.mode.value} city squares are r1c1 to "
                    f"r{geo.rows}c{geo.cols} ({geo.rows} rows, {geo.cols} columns)."
                )
                return None
        try:
            move = Move.parse(text)
        except NotationError as e:
            self.notify(f"{e} (or a command: hint, undo, save, help, quit)")
            return None
        reason = self.session.explain(move)
        if reason is not None:
            self.notify(f"Not allowed: {reason}.")
            return None
        return move

    def hint(self) -> None:
        s = self.session
        self.say(f"Thinking about a hint ({self.hint_spec})...")
        with _sigint_deferred(_multi_process(s.hint_bot(self.hint_spec))):
            move = s.hint(self.hint_spec)
        self.notify(f"Hint ({self.hint_spec}): {describe_choice(move, self.groups)}: {s.describe(move)}")

    def bot_action(self) -> None:
        """The bot whose turn it is plays a whole action (take, then build or discard)."""
        s = self.session
        seat = s.current_seat
        with _sigint_deferred(_multi_process(s.bot(seat))):
            s.play(s.bot_move())
            while s.current_seat == seat and s.state.phase == PLACE:
                s.play(s.bot_move())
        action = s.actions()[-1]
        self.say(action_text(s, action, self._width()))
        self._autosave()

    def finish(self) -> None:
        """The end of the game: the ranking and winner(s), every city, the score sheet and
        the optimal placements (in pages on a small terminal); then offers to save, asking
        again until the answer is 'save [FILE]' or 'quit'."""
        s = self.session
        width, height = self._width(), self._height()
        self._autosave()
        humans = any(seat.is_human for seat in s.seats)
        saved = f"Game record saved to {self.save_path}." if self.save_path else ""
        if self.save_path:
            options = f"{saved} Type 'quit' (or Enter on the last page) to leave."
        else:
            options = "Type 'save FILE' to keep the game record, or 'quit' to leave without saving."
        body = None if height is None or not humans else max(1, height - 3)  # 3: the footer
        pages = paginate_sections(final_sections(s, width), body)
        if not humans or (self.save_path and len(pages) == 1):
            self.out.write((CLEAR if self.clear else "\n") + "\n".join(pages[0]) + "\n")
            if saved:
                self.say("\n" + saved)
            return
        page, shown = 0, -1
        while True:
            where = f"page {page + 1}/{len(pages)}: more, back" if len(pages) > 1 else "results above"
            message = " ".join(self.notices) or options
            self.notices = []
            footer = wrap(f"[Game over, {where}] {message}", width)[:3]
            if self.clear or page != shown:
                self.out.write((CLEAR if self.clear else "\n") + "\n".join([*pages[page], *footer]) + "\n")
                shown = page
            else:
                self.say("\n".join(footer))
            try:
                answer = self.ask("game over> ").strip()
            except EOFError:
                self.say("")
                return
            word, _, rest = answer.partition(" ")
            word = word.lower()
            if word in _PAGE_WORDS:
                page = (page + _PAGE_WORDS[word]) % len(pages)
            elif not answer and page + 1 < len(pages):
                page += 1
            elif word in ("quit", "exit", "q") or (not answer and self.save_path):
                return
            elif word == "save":
                if self.save(rest.strip() or None):
                    self._flush_notices()
                    return
            else:
                what = f"Unknown entry {clip(answer, 20)!r}. " if answer else ""
                self.notify(what + options)

    # --- saving -----------------------------------------------------------------------------

    def save(self, path: str | None) -> bool:
        path = path or self.default_file
        if not path:
            self.notify("Save where? Type 'save FILE' (or start with --save FILE).")
            return False
        try:
            save_record(self.session, path)
        except OSError as e:
            self.notify(f"Could not save to {path}: {e.strerror or e}.")
            return False
        n = len(self.session.steps)
        self.saved_moves = list(self.session.moves)
        self.notify(f"Saved to {path} ({n} moves; resume with: quadropolis play --load {path}).")
        return True

    def unsaved(self) -> bool:
        """Whether moves were played (or undone) since the last save or load."""
        return self.session.moves != self.saved_moves

    def _autosave(self) -> None:
        if self.save_path:
            try:
                save_record(self.session, self.save_path)
                self.saved_moves = list(self.session.moves)
            except OSError as e:
                self.notify(f"Could not save to {self.save_path}: {e.strerror or e}.")

    def _save_on_exit(self) -> None:
        if self.save_path:
            self.save(self.save_path)
            self._flush_notices()

    def quit(self) -> None:
        """Leave the game: saving to --save FILE, or offering to save moves not saved yet."""
        if self.save_path:
            self._save_on_exit()
            raise _Quit
        if not self.unsaved():
            self._flush_notices()
            self.say("Goodbye (nothing unsaved).")
            raise _Quit
        try:
            n = len(self.session.moves)
            answer = self.question(
                f"Leaving the game ({n} moves, not all saved). Save it first?",
                "File name (Enter to leave without saving): ",
            )
        except EOFError:
            answer = ""
        if answer.strip():
            self.save(answer.strip())
        self._flush_notices()
        self.say("Goodbye.")
        raise _Quit


#: Paging words and the direction they turn pages.
_PAGE_WORDS: Final = {"more": 1, "next": 1, "m": 1, "n": 1, "back": -1, "prev": -1, "b": -1, "p": -1}


def _multi_process(bot: Bot) -> bool:
    """Whether ``bot`` searches in several processes (see :func:`_sigint_deferred`)."""
    return int(getattr(bot, "workers", 1)) > 1


__all__ = ["CLEAR", "DEFAULT_HINT", "TerminalUI", "save_record"]
