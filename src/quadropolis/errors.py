"""Domain exceptions. Every error the package raises on bad input derives from
:class:`QuadropolisError`, itself a :class:`ValueError`, so callers can catch one type."""

from __future__ import annotations


class QuadropolisError(ValueError):
    """Root of every error raised by quadropolis on bad input."""


class IllegalMoveError(QuadropolisError):
    """A move that the rules forbid in this state; the message names the rule broken."""


class NotationError(QuadropolisError):
    """Text that is not a move in the canonical notation."""


class InvalidStateError(QuadropolisError):
    """A serialised state (or city) that is malformed or cannot occur in a game."""


class ConfigError(QuadropolisError):
    """A game configuration with an unknown or out-of-range option."""


class RecordError(QuadropolisError):
    """A game record that is malformed or does not replay."""
