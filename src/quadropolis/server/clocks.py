"""Clocks: a table's time per move, and what happens when it runs out.

A game is created with a time per move (``CreateGame.move_time``, seconds): **live**, 1 to 5
minutes (:data:`LIVE`), **correspondence**, 1 to 3 days (:data:`CORRESPONDENCE`), or none
(the default: casual and hotseat games, as before clocks existed).

- **The deadline** is a turn's (a take and the build or discard it calls for): its time
  starts when the turn became the seat's — the start of the game, or the move that handed it
  over (a move after which a take is due) — and only such a move starts a new one. A take
  keeps the turn's deadline; an undo goes back to the start of the undoer's turn and to that
  turn's deadline, never a later one: taking and undoing cannot restart or extend a clock.
  The deadline is a function of the moves in effect and their times (and the game's start,
  ``games.started_at``), stored with the game (``games.deadline``) in the same transaction
  as the action, so it survives a restart, and served in the view (``clock.deadline``,
  seconds since the epoch): the client only counts down to it.
- **When it runs out, the bot plays the turn** for the seat to move — the table's
  ``takeover_level`` — move by move, recorded with the actor ``clock``; a move the clock
  played cannot be undone (it would give the timed-out turn back). The player keeps the
  seat and plays their next turn themselves. (Adjourning instead would let one absent
  player stall everyone; a bot's move keeps a correspondence game going, as a takeover does.)
- **Who notices**: the service's clock task wakes at the earliest deadline of every running
  game in the database (a game not yet in memory is loaded for it, so deadlines pass after a
  restart too) and at least every :data:`CLOCK_POLL` seconds (deadlines set by other server
  processes).
- **Expiry** counts moves in effect, not actions: a person's move is activity; an undo sets
  the game's last activity back to the last move still in effect that a person played (or
  the start), so a take and its undo are none. A game with a clock expires only once no
  person has acted in it for both the usual expiry time (``Limits.waiting_expiry`` /
  ``playing_expiry``) and :data:`IDLE_MOVES` times its time per move: a correspondence game
  of one day per move lives three days without anyone acting, not one hour.
- **Scale**: ``Limits.clock_scale`` multiplies every time per move (and so the expiry of
  clocked games). It is 1 in service; tests set it small (``--clock-scale 0.0001`` turns a
  day into 8.6 seconds) to see a correspondence clock run out. The view shows the time per
  move as chosen and the deadline as scaled.

Pure: standard library only."""

from __future__ import annotations

from typing import Final

#: Live games: 1 to 5 minutes per move (seconds).
LIVE: Final = (60.0, 300.0)
#: Correspondence games: 1 to 3 days per move (seconds).
CORRESPONDENCE: Final = (86400.0, 3 * 86400.0)
#: A clocked game expires after this many times its time per move without a person acting.
IDLE_MOVES: Final = 3
#: The clock task looks at the database at least this often (seconds).
CLOCK_POLL: Final = 30.0
#: The actor of a move the bot played because the player's time ran out.
CLOCK_ACTOR: Final = "clock"


def check_move_time(seconds: float | None) -> float | None:
    """``seconds`` if it is an allowed time per move (or ``None``: no clock); ``ValueError``
    saying what is allowed otherwise."""
    if seconds is None:
        return None
    if LIVE[0] <= seconds <= LIVE[1] or CORRESPONDENCE[0] <= seconds <= CORRESPONDENCE[1]:
        return float(seconds)
    raise ValueError(
        "move_time: a live game has 60 to 300 seconds per move, a correspondence game 86400 "
        "to 259200 (1 to 3 days), or null for no clock"
    )


def deadline_after(move_seconds: float | None, start: float, scale: float) -> float | None:
    """When a move started at ``start`` must be played by (``None`` without a clock)."""
    return None if move_seconds is None else start + move_seconds * scale


def kind(move_seconds: float | None) -> str | None:
    """``live``, ``correspondence`` or ``None`` (no clock)."""
    if move_seconds is None:
        return None
    return "live" if move_seconds <= LIVE[1] else "correspondence"
