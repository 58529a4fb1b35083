"""Clocks (issue 23 item 3): a table's time per move, and what happens when it runs out.

A game is created with a time per move (``CreateGame.move_time``, seconds): **live**, 1 to 5
minutes (:data:`LIVE`), **correspondence**, 1 to 3 days (:data:`CORRESPONDENCE`), or none
(the default: casual and hotseat games, as before clocks existed).

- **The deadline**: each action (a move or an undo) starts the next move's time; so does the
  start of the game. The deadline is stored with the game (``games.deadline``) in the same
  transaction as the action, so it survives a restart, and is served in the view
  (``clock.deadline``, seconds since the epoch): the client only counts down to it.
- **When it runs out, the bot plays that move** for the seat to move — the table's
  ``takeover_level`` — recorded with the actor ``clock``. The player keeps the seat and plays
  the next move of theirs themselves. (Adjourning instead would let one absent player stall
  everyone; a bot's move keeps a correspondence game going, as a takeover does.)
- **Who notices**: the service's clock task wakes at the earliest deadline of every running
  game in the database (a game not yet in memory is loaded for it, so deadlines pass after a
  restart too) and at least every :data:`CLOCK_POLL` seconds (deadlines set by other server
  processes).
- **Expiry**: a game with a clock expires only once no person has acted in it for both the
  usual expiry time (``Limits.waiting_expiry`` / ``playing_expiry``) and
  :data:`IDLE_MOVES` times its time per move: a correspondence game of one day per move
  lives three days without anyone acting, not one hour.
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
