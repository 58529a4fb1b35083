"""Reading the JSON inputs of the commands, streamed: a file (or ``-``, standard input) holds
either JSON Lines (one document per line, handed over as each line arrives, so memory stays
flat and the first result can be written before the input ends) or a single JSON document laid
out over any number of lines.

The layout is told from the first non-blank line: when it is a complete JSON value the input
is JSON Lines (a one-line document is the same thing); when the line stops short of a value
(``{`` of a pretty-printed object) the whole input is read as one document; anything else is
invalid JSON, reported at once with its line."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from .options import CliError, check_json_depth, clip, load_json_text

_UNSET: Any = object()


@dataclass(slots=True)
class Document:
    """One JSON document of an input, parsed and checked when :meth:`value` is called."""

    #: The input's name as messages show it (a file name, or ``-``).
    source: str
    #: Line of the input where the document starts (1-based).
    line: int
    text: str
    #: Whether the input is JSON Lines (else: a single document).
    json_lines: bool
    #: The value when :func:`json.loads` has already read ``text`` (not yet checked).
    _parsed: Any = field(default=_UNSET, repr=False)

    @property
    def where(self) -> str:
        """``FILE: line N`` for a line of JSON Lines, ``FILE`` for a single document."""
        return f"{self.source}: line {self.line}" if self.json_lines else self.source

    def value(self) -> Any:
        """The parsed document (:class:`CliError` naming the file and line if it is not JSON)."""
        if self._parsed is _UNSET:
            return load_json_text(self.text, self.source, first_line=self.line)
        return check_json_depth(self._parsed, self.text, self.source, first_line=self.line)


def read_documents(path: str) -> Iterator[Document]:
    """The documents of ``path`` (``-``: standard input) in order, read as they are needed.
    Raises :class:`CliError` for a file that cannot be read, text that is not UTF-8, an empty
    input, or a first line that is neither JSON nor the start of a JSON document."""
    source = clip(path)
    lines = _numbered_lines(path, source)
    for n, line in lines:
        if not line.strip():
            continue
        try:
            first = json.loads(line)
        except json.JSONDecodeError as e:
            if e.pos < len(line.rstrip()):  # invalid before the end of the line: not JSON
                load_json_text(line, source, first_line=n)
            # The line stops short of a value: a document laid out over several lines.
            rest = [text for _, text in lines]
            yield Document(source, n, line + "".join(rest), json_lines=False)
            return
        except (ValueError, RecursionError):
            load_json_text(line, source, first_line=n)  # raises, naming the problem and the line
            raise  # pragma: no cover (load_json_text raised)
        yield Document(source, n, line, json_lines=True, _parsed=first)
        for m, more in lines:
            if more.strip():
                yield Document(source, m, more, json_lines=True)
        return
    raise CliError(f"{source}: empty input")


def _numbered_lines(path: str, source: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of every line, decoded as UTF-8 one line at a time."""
    if path == "-":
        stream: Any = sys.stdin
        raw = getattr(stream, "buffer", None)
        if raw is None:  # a text stream standing in for standard input
            yield from enumerate(stream, 1)
            return
        yield from _decoded(raw, source)
        return
    try:
        f = open(path, "rb")  # noqa: SIM115 (closed below, after the last line is read)
    except FileNotFoundError:
        raise CliError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{source}: is a directory") from None
    except OSError as e:
        raise CliError(f"{source}: {e.strerror or e}") from None
    with f:
        yield from _decoded(f, source)


def _decoded(raw: IO[bytes] | Iterable[bytes], source: str) -> Iterator[tuple[int, str]]:
    n = 0
    try:
        for n, data in enumerate(raw, 1):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise CliError(f"{source}: line {n}: not UTF-8 text") from None
            if n == 1 and text.startswith("\ufeff"):  # a byte order mark
                text = text[1:]
            yield n, text
    except OSError as e:
        raise CliError(f"{source}: line {n + 1}: cannot read ({e.strerror or e})") from None


__all__ = ["Document", "read_documents"]
