"""Terminal play: ``quadropolis play``, a whole game in a text terminal, humans (hotseat)
against bots.

Holds :mod:`.session` (the game with its seats, history, undo rule and record; no I/O); the
text, all pure functions of a session: :mod:`.text` (helpers: clip, wrap, side by side,
pages), :mod:`.choices` (the numbered choices), :mod:`.parts` (a city, the status, the
actions, the task), :mod:`.screen` (the decision screen, fitted to the terminal) and
:mod:`.views` (help, cities, a city, the log, the end of the game); :mod:`.ui` (the input
loop and saving) and :mod:`.command` (the ``play`` command: options, loading, the run).
May import the standard library, the rules core, the public API of :mod:`quadropolis.bots`
and :mod:`quadropolis.cli.options`."""

from __future__ import annotations

from .command import PlayError, add_play_command
from .session import PlaySession, Seat, UndoError, make_seats
from .ui import TerminalUI

__all__ = ["PlayError", "PlaySession", "Seat", "TerminalUI", "UndoError", "add_play_command", "make_seats"]
