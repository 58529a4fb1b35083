"""Domain exceptions. Every error the package raises on bad input derives from
:class:`QuadropolisError`, itself a :class:`ValueError`, so callers can catch one type.

:func:`quote` renders an untrusted value for a message: messages stay one short line
whatever the input (a 5,000-digit integer, a megabyte of text, a list nested 1,000 deep)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final


class QuadropolisError(ValueError):
    """Root of every error raised by quadropolis on bad input."""


class IllegalMoveError(QuadropolisError):
    """A move that the rules forbid in this state; the message names the rule broken.

    ``reason`` is a stable code for the rule broken (one of
    :data:`quadropolis.rules.ILLEGAL_MESSAGES`, or ``"illegal"`` when none was given) and
    ``params`` the values its message is made of, so that a client can say it in another
    language; the message itself is the English sentence."""

    def __init__(
        self, message: str, reason: str = "illegal", params: Mapping[str, str | int] | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, str | int] = dict(params or {})


class NotationError(QuadropolisError):
    """Text that is not a move in the canonical notation, or a hand-built move that has no
    notation (an architect, slot, row or column out of range)."""


class InvalidStateError(QuadropolisError):
    """A serialised state (or city) that is malformed or cannot occur in a game."""


class ConfigError(QuadropolisError):
    """A game configuration with an unknown or out-of-range option."""


class RecordError(QuadropolisError):
    """A game record that is malformed or does not replay."""


#: Longest text :func:`quote` shows before cutting it.
QUOTE_CHARS: Final = 40
_SMALL_INT: Final = 10**15
_LOG10_2: Final = 0.30103
#: Integers up to 2,000 bits (602 digits) are converted to text to quote their first digits:
#: below the smallest limit Python allows for int-to-text conversion (640 digits).
_SAFE_BITS: Final = 2000


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """A short, safe rendering of an untrusted value for an error message.

    Integers of up to 15 digits and floats are shown as they are; a longer integer by its
    first digits and length, or beyond 600 digits by its approximate size only (``str()``
    of an integer over 4,300 digits raises, and is slow long before). Text is
    ``repr``-quoted, at most ``limit`` characters inside the quotes (escapes count), then
    its length if it was cut. ``None`` and booleans as Python writes them; anything else
    only by its type (containers are never rendered, so a deeply nested one cannot
    recurse)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        if -_SMALL_INT < value < _SMALL_INT:
            return int.__repr__(value)
        bits = abs(value).bit_length()
        if bits <= _SAFE_BITS:
            text = int.__repr__(value)
            digits = len(text.lstrip("-"))
            return f"{text[:12]}... ({digits} digits)"
        sign = "a negative" if value < 0 else "an"
        return f"{sign} integer of about {int((bits - 1) * _LOG10_2) + 1} digits"
    if isinstance(value, float):
        return float.__repr__(value)
    if isinstance(value, str):
        text = value[:limit]
        shown = str.__repr__(text)
        while len(shown) > limit + 2:  # escapes such as \x1f or \U0001b2fc are long
            text = text[: len(text) * 2 // 3]
            shown = str.__repr__(text)
        return shown if text == value else f"{shown}... ({len(value)} characters)"
    return _kind(value)


def quote_keys(keys: Iterable[object]) -> str:
    """Keys of an object for a message (unknown fields, say), each quoted safely, sorted,
    at most five shown."""
    shown = sorted(quote(k) for k in keys)
    more = f" and {len(shown) - 5} more" if len(shown) > 5 else ""
    return ", ".join(shown[:5]) + more


def _kind(value: object) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name
