"""What the commands of every application share (score, simulate, replay, bench, play, arena...):
the variant options, option types, the epilog citing the rules, the command line's error type,
safe JSON reading and the shortening of untrusted text in messages.

This is the one module of :mod:`quadropolis.cli` that applications may import; it stays light
(the standard library and the rules core only)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any, Final

from ..errors import QuadropolisError
from ..site import URBANIST_BLOCKS

#: The epilog of ``--help``: where the rules of play are, and what the rulings in messages cite.
RULES_EPILOG: Final = (
    "rules of play: docs/rules.md (rulings R1–R16 cited in messages); "
    "'quadropolis serve' shows them at /rules"
)

#: Longest piece of untrusted text (a file's content, a name, an argument) a message quotes.
QUOTE_LIMIT: Final = 80
#: Longest message line the command line prints; a longer one keeps its head and its end.
MESSAGE_LIMIT: Final = 400
#: Deepest nesting of arrays and objects :func:`load_json_text` accepts. Every document the
#: package reads is a few levels deep; the limit keeps far below Python's recursion limit,
#: so neither the parser nor code that later walks or prints the value can overflow.
MAX_JSON_DEPTH: Final = 100


class CliError(QuadropolisError):
    """Bad input detected by a command (a file that cannot be read, invalid JSON...): the
    message is one line naming the problem (and the file and line); exit status 1."""


def add_variant_options(p: argparse.ArgumentParser, *, urbanist: bool = True, defaults: bool = True) -> None:
    """The variants of docs/rules.md §6. With ``defaults=False`` an option left out is ``None``, so a
    command can tell it apart from one given explicitly (``play --load`` does)."""
    if urbanist:
        p.add_argument(
            "--urbanist-blocks",
            choices=list(URBANIST_BLOCKS),
            default="lines" if defaults else None,
            help="variant: the urbanist blocks its lines (rule R5, default) or only its square",
        )
    p.add_argument(
        "--all-parks-absorb",
        action="store_true",
        default=False if defaults else None,
        help="variant (the literal rulebook reading): every park absorbs one energy "
        "and a playground gives no inhabitant",
    )


def positive_int(text: str) -> int:
    """``type=`` for options that count something (``--repeat``, ``--games``): an integer ≥ 1.
    Anything else is a malformed command line (argparse: exit status 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {clip(repr(text))}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


# --- messages ---------------------------------------------------------------------------------


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``…`` when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# A quoted run ('...' or "...", as repr writes them) or any run of non-blank characters.
_LONG_RUN: Final = re.compile(r"(?<!\w)(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")(?!\w)|\S+")


def one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """A message made safe to print as one line: line breaks and control characters escaped,
    every quoted piece or unbroken run longer than :data:`QUOTE_LIMIT` clipped (``…``), and
    the whole kept under ``limit`` characters (head and end, ``…`` between)."""
    if len(message) > 5 * limit:  # bound the work below whatever the input's size
        message = message[: 3 * limit] + "…" + message[-2 * limit :]
    if any(c < " " or c == "\x7f" for c in message):
        message = "".join(c if c >= " " and c != "\x7f" else repr(c)[1:-1] for c in message)
    if len(message) > QUOTE_LIMIT:
        message = _LONG_RUN.sub(_clip_run, message)
    if len(message) > limit:
        tail = limit // 3
        message = message[: limit - tail - 1] + "…" + message[-tail:]
    return message


def _clip_run(m: re.Match[str]) -> str:
    run = m.group(0)
    if len(run) <= QUOTE_LIMIT:
        return run
    if run[0] in "'\"" and run[-1] == run[0] and len(run) > 1:
        return clip(run[:-1], QUOTE_LIMIT - 1) + run[0]
    return clip(run)


# --- JSON ------------------------------------------------------------------------------------


def load_json_text(text: str, where: str, *, first_line: int = 1) -> Any:
    """Parse one JSON document read from ``where`` (a file name, ``-``...), whose first line
    is line ``first_line`` of that file (for JSON Lines).

    Raises :class:`CliError` with one line naming ``where`` and the line for invalid JSON,
    an integer literal too long for Python (over 4,300 digits by default), or nesting deeper
    than :data:`MAX_JSON_DEPTH`; never ``RecursionError`` or a bare ``ValueError``."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        line = first_line + e.lineno - 1
        raise CliError(f"{where}: line {line}: invalid JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise _too_deep(text, where, first_line) from None
    except ValueError:  # int() refuses the digits of a huge integer literal
        raise _too_long_integer(text, where, first_line) from None
    return check_json_depth(value, text, where, first_line=first_line)


def check_json_depth(value: Any, text: str, where: str, *, first_line: int = 1) -> Any:
    """``value``, already parsed from ``text`` by :func:`json.loads`, if its arrays and objects
    nest at most :data:`MAX_JSON_DEPTH` deep; else :class:`CliError` naming the line, as
    :func:`load_json_text` does."""
    if _depth_exceeds(value, MAX_JSON_DEPTH):
        raise _too_deep(text, where, first_line)
    return value


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` deep (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, dict):
            v = v.values()
        elif not isinstance(v, list):
            continue
        if depth > limit:
            return True
        stack.extend((x, depth + 1) for x in v if isinstance(x, dict | list))
    return False


# Tokens that matter for locating a problem: strings (skipped whole), brackets, numbers, newlines.
_TOKEN: Final = re.compile(r'"(?:[^"\\\n]|\\.)*"|[\[{]|[\]}]|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\n')


def _too_deep(text: str, where: str, first_line: int) -> CliError:
    line = first_line
    depth = 0
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if tok == "\n":
            line += 1
        elif tok in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return CliError(f"{where}: line {line}: JSON nested deeper than {MAX_JSON_DEPTH} levels")
        elif tok in "]}":
            depth -= 1
    return CliError(f"{where}: JSON nested deeper than {MAX_JSON_DEPTH} levels")


def _too_long_integer(text: str, where: str, first_line: int) -> CliError:
    most = sys.get_int_max_str_digits()
    line = first_line
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if tok == "\n":
            line += 1
        elif tok[0] in "-0123456789" and tok.lstrip("-").isdigit() and len(tok.lstrip("-")) > most > 0:
            digits = len(tok.lstrip("-"))
            return CliError(f"{where}: line {line}: integer literal of {digits} digits (at most {most})")
    return CliError(f"{where}: an integer literal is too long (at most {most} digits)")


__all__ = [
    "MAX_JSON_DEPTH",
    "RULES_EPILOG",
    "CliError",
    "add_variant_options",
    "check_json_depth",
    "clip",
    "load_json_text",
    "one_line",
    "positive_int",
]
