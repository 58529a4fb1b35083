"""Which engine computes: the pure-Python rules of record or the compiled one.

The compiled engine (:mod:`quadropolis.native`, built from ``native/`` by ``pip install``)
plays the very same games as the Python modules: same legal moves in the same order, same
states, same optimal scores and placements, same random streams (the differential tests
decide). It takes over where it pays: the final and projected scoring
(:func:`quadropolis.outcome.projected_score`, so every outcome, the server's views and the
bots), random playouts (:func:`quadropolis.playout.random_playout`), the ``greedy`` bot and
the MCTS search (:mod:`quadropolis.bots.mcts`; a bot spec may pin ``engine=``).

The choice comes from the environment variable ``QUADROPOLIS_ENGINE``, read when an engine
is first needed (:func:`current`): ``auto`` (the default: native when it imports, else Python with one
:class:`EngineWarning`), ``python`` or ``native`` (an error when the extension is missing).
:func:`select` and :func:`using` change it at run time (tests and benchmarks compare the two
side by side)."""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Final

from .errors import ConfigError, quote

#: The environment variable that chooses the engine.
ENGINE_VARIABLE: Final = "QUADROPOLIS_ENGINE"
#: The values it takes.
CHOICES: Final = ("auto", "python", "native")


class EngineWarning(UserWarning):
    """``auto`` fell back to the pure-Python engine: the compiled one did not import."""


#: The module :mod:`quadropolis.native` while the compiled engine is selected, else None.
native: ModuleType | None = None
#: Whether an engine has been selected (from the environment or by :func:`select`).
_selected = False
#: Why the compiled engine cannot be used here, or None if it can (known after the first
#: attempt to load it).
unavailable: str | None = None


def _load_native() -> ModuleType | None:
    global unavailable
    try:
        module = importlib.import_module(f"{__package__}.native")
    except ImportError as e:  # the extension was not built, or does not load here
        unavailable = f"{e}"
        return None
    except Exception as e:  # an editable install's rebuild on import failed (no cmake, a compile error)
        unavailable = f"rebuilding it failed: {type(e).__name__}: {e}"
        return None
    unavailable = None
    return module


def current() -> ModuleType | None:
    """:mod:`quadropolis.native` when the compiled engine is selected, None for Python;
    selects from the environment on first use (raising :class:`ConfigError` as
    :func:`select` does). The hot paths call this."""
    return native if _selected else _first_use()


def _first_use() -> ModuleType | None:
    select_from_environment()
    return native


def name() -> str:
    """``"native"`` or ``"python"``: the engine selected (from the environment if none is
    yet)."""
    return "python" if current() is None else "native"


def select(choice: str) -> str:
    """Select the engine (``auto``, ``python`` or ``native``); returns the one selected.

    Raises :class:`ConfigError` for another value, or for ``native`` when the compiled
    engine cannot be loaded (saying why). ``auto`` falls back to Python with one
    :class:`EngineWarning`."""
    global native, _selected
    if choice not in CHOICES:
        raise ConfigError(f"{ENGINE_VARIABLE} must be 'auto', 'python' or 'native', got {quote(choice)}")
    if choice == "python":
        native, _selected = None, True
        return "python"
    module = _load_native()
    if module is None and choice == "native":
        raise ConfigError(
            f"{ENGINE_VARIABLE}=native, but the compiled engine is not available ({unavailable}); "
            "reinstall the package with a C++17 compiler (pip install -e .) or use "
            f"{ENGINE_VARIABLE}=python"
        )
    if module is None:
        warnings.warn(
            f"quadropolis: the compiled engine is not available ({unavailable}); using the slower "
            f"pure-Python engine (set {ENGINE_VARIABLE}=python to silence this)",
            EngineWarning,
            stacklevel=2,
        )
    native, _selected = module, True
    return "python" if module is None else "native"


@contextmanager
def using(choice: str) -> Iterator[str]:
    """Select ``choice`` for the duration of a ``with`` block, then restore the engine
    selected before."""
    before = name()
    try:
        yield select(choice)
    finally:
        select(before)


def pinned(choice: str | None) -> ModuleType | None:
    """The engine a caller pins (a bot spec's ``engine=``): :mod:`quadropolis.native` for
    ``"native"`` (:class:`ConfigError` saying why when the compiled engine cannot be loaded),
    None for ``"python"``, the selected engine for None. Selects nothing."""
    if choice is None:
        return current()
    if choice not in ("python", "native"):
        raise ConfigError(f"an engine is 'python' or 'native', got {quote(choice)}")
    if choice == "python":
        return None
    module = native if native is not None else _load_native()
    if module is None:
        raise ConfigError(
            f"engine=native, but the compiled engine is not available ({unavailable}); reinstall "
            "the package with a C++17 compiler (pip install -e .) or use engine=python"
        )
    return module


def choice() -> str:
    """What ``QUADROPOLIS_ENGINE`` asks for: ``auto`` when unset or empty."""
    return os.environ.get(ENGINE_VARIABLE, "").strip().lower() or "auto"


def select_from_environment() -> str:
    """Select the engine ``QUADROPOLIS_ENGINE`` names (``auto`` when unset or empty)."""
    return select(choice())


__all__ = [
    "CHOICES",
    "ENGINE_VARIABLE",
    "EngineWarning",
    "choice",
    "current",
    "name",
    "pinned",
    "select",
    "select_from_environment",
    "using",
]
