"""Terminal play: ``quadropolis play``, a whole game in a text terminal, humans (hotseat)
against bots.

Holds :mod:`.session` (the game with its seats, history, undo rule and record; no I/O),
:mod:`.screen` (the text screens and the numbered choices) and :mod:`.app` (the input loop,
saving and loading, and the ``play`` command). May import the standard library, the rules
core, the public API of :mod:`quadropolis.bots` and :mod:`quadropolis.cli.options`."""

from __future__ import annotations

from .app import PlayError, TerminalUI, add_play_command
from .session import PlaySession, Seat, UndoError, make_seats

__all__ = ["PlayError", "PlaySession", "Seat", "TerminalUI", "UndoError", "add_play_command", "make_seats"]
