"""The ``quadropolis`` command line: the top of the package, which assembles the commands of
every application (``score``, ``simulate`` and ``replay`` are its own; ``bench``, ``play``,
``arena``... come from their subpackages).

:mod:`.options` holds the option vocabulary shared by several commands (the variants of the
rules); applications may import it. Nothing else imports this package: :func:`main` loads the
applications only when it runs, so importing :mod:`quadropolis.cli.options` stays light."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    from .main import main as run

    return run(argv)


__all__ = ["main"]
