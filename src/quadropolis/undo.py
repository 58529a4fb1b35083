"""The undo rule shared by every way of playing (terminal, server, browser).

Undo is not in the rulebook; it is this project's courtesy to players, the same everywhere:
a player may take back **their own last action** (their take and, if made, its build or
discard) **while no one else has acted since**. Anything later than someone else's answer
stays played. A history is the sequence of ``(seat, move)`` pairs in the order played."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .moves import Move, Take


def last_action_start(history: Sequence[tuple[int, Move]], seat: int) -> int | None:
    """Index in ``history`` of ``seat``'s last take (where its last action began), or
    ``None`` if the seat has not acted yet."""
    for i in range(len(history) - 1, -1, -1):
        who, move = history[i]
        if who == seat and isinstance(move, Take):
            return i
    return None


@dataclass(frozen=True, slots=True)
class UndoCheck:
    """What :func:`check_undo` found: ``start`` is the index from which the history would be
    cut (``None`` if the seat has nothing to undo); ``answered_by`` is the first later step
    by another seat, as ``(index, seat, move)``, when there is one (undo is then refused)."""

    start: int | None
    answered_by: tuple[int, int, Move] | None

    @property
    def allowed(self) -> bool:
        return self.start is not None and self.answered_by is None


def check_undo(history: Sequence[tuple[int, Move]], seat: int) -> UndoCheck:
    """Whether ``seat`` may take back its last action now (the game must not be over; that
    is the caller's to check, as only it knows the state)."""
    start = last_action_start(history, seat)
    if start is None:
        return UndoCheck(None, None)
    for i in range(start, len(history)):
        who, move = history[i]
        if who != seat:
            return UndoCheck(start, (i, who, move))
    return UndoCheck(start, None)
