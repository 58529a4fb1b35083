"""Bot specs: the text naming a bot and its options (``"hard"``, ``"greedy"``,
``"mcts:iterations=2000,workers=2"``), parsed and checked into a :class:`Bot` by
:func:`make_bot`. The options are listed in :mod:`quadropolis.bots`.

Specs are untrusted unless the caller says otherwise: :data:`BUDGET_CAPS` bound what a saved
record or a network client may ask for, :data:`TUNING_CAPS` bound the search's tuning always,
and every problem is a :class:`~quadropolis.errors.ConfigError` naming the spec."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

from ..engine import pinned
from ..errors import ConfigError, quote
from .base import Bot
from .levels import EASY_EPSILON, LEVELS, SEARCH_LEVELS
from .mcts import MCTSBot
from .neural import NeuralBot
from .options import SearchOptions
from .simple import EpsilonGreedyBot, GreedyBot, RandomBot

BOT_NAMES: Final = ("random", "greedy", "mcts", *(n for n in LEVELS if n != "neural"), "neural")
#: Iterations per take of a plain ``mcts`` spec.
MCTS_ITERATIONS: Final = 1000


#: Budgets an untrusted spec (from a saved record, a network client...) may ask for: beyond
#: these a bot could hang the process that loads it. ``make_bot(spec, trusted=True)`` lifts
#: them, for specs the user typed on the command line.
BUDGET_CAPS: Final[dict[str, float]] = {
    "iterations": 20_000,
    "seconds": 10.0,
    "workers": 8,
    "trees": 8,
    "horizon": 40,
}
#: Bounds on the search's tuning options, trusted or not (beyond them the search's
#: arithmetic overflows or its rewards stop meaning anything): one per field of
#: :class:`~quadropolis.bots.options.SearchOptions` but ``horizon`` (a budget, capped above).
TUNING_CAPS: Final[dict[str, float]] = {
    "c": 100.0,
    "pw_c": 100.0,
    "pw_alpha": 1.0,
    "credit": 100.0,
    "bias": 100.0,
    "fed": 1.0,
    "greed": 1.0,
}
#: Tuning options that may be zero (the others must be positive).
_ZERO_OK: Final = frozenset({"credit", "bias", "fed", "greed"})
#: Longest spec accepted (a real one is under 100 characters).
SPEC_MAX_CHARS: Final = 200


def _options(spec: str, text: str) -> dict[str, str]:
    opts: dict[str, str] = {}
    for part in filter(None, text.split(",")):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ConfigError(f"bot {spec!r}: options are written key=value, got {part!r}")
        opts[key.strip()] = value.strip()
    return opts


def _number(
    spec: str,
    opts: dict[str, str],
    key: str,
    kind: Callable[[str], float],
    zero_ok: bool = False,
    cap: float | None = None,
    trusted: bool = False,
) -> float | None:
    if key not in opts:
        return None
    try:
        v = kind(opts.pop(key))
    except ValueError:
        whole = " whole" if kind is int else ""
        raise ConfigError(f"bot {spec!r}: {key} must be a{whole} number") from None
    if not math.isfinite(v):
        raise ConfigError(f"bot {spec!r}: {key} must be a finite number")
    if v < 0 or (v == 0 and not zero_ok):
        raise ConfigError(f"bot {spec!r}: {key} must be {'zero or more' if zero_ok else 'positive'}")
    if key in TUNING_CAPS and v > TUNING_CAPS[key]:
        raise ConfigError(f"bot {spec!r}: {key} must be at most {TUNING_CAPS[key]:g}")
    if cap is not None and v > cap and not trusted:
        raise ConfigError(
            f"bot {spec!r}: {key} must be at most {cap:g} (the cap on bot specs from saved games "
            "and other untrusted sources)"
        )
    return v


def _engine_option(spec: str, opts: dict[str, str]) -> str | None:
    """The spec's ``engine`` option (popped): ``python``, ``native`` (refused with the reason
    when the compiled engine is not available here) or None when absent."""
    if "engine" not in opts:
        return None
    engine = opts.pop("engine").lower()
    if engine not in ("python", "native"):
        raise ConfigError(f"bot {spec!r}: engine must be 'python' or 'native', got {engine!r}")
    try:
        pinned(engine)
    except ConfigError as e:
        raise ConfigError(f"bot {spec!r}: {e}") from None
    return engine


def _search_bot(
    spec: str,
    name: str,
    rest: str,
    opts: dict[str, str],
    workers: int | None,
    trusted: bool,
    time_caps: bool,
) -> MCTSBot:
    """``mcts`` or a search level, with the spec's options (popped from ``opts``). What the
    spec leaves out comes from the level, or for plain ``mcts``: :data:`MCTS_ITERATIONS`
    iterations, one tree, the mode's default horizon, no time cap."""
    level = SEARCH_LEVELS.get(name)

    def budget(key: str, kind: Callable[[str], float], zero_ok: bool = False) -> float | None:
        return _number(spec, opts, key, kind, zero_ok, cap=BUDGET_CAPS[key], trusted=trusted)

    iterations = budget("iterations", int)
    seconds = budget("seconds", float)
    w = budget("workers", int)
    t = budget("trees", int)
    if iterations is None and seconds is None:
        iterations = level.iterations if level else MCTS_ITERATIONS
        if time_caps and level:
            seconds = level.seconds
    # "workers=N" alone keeps its old meaning: N trees in N processes.
    trees = int(t) if t is not None else int(w) if w is not None else level.trees if level else 1
    own_workers = int(w) if w is not None else level.workers if level else 1
    n_workers = workers if workers is not None else own_workers
    # Any: the float fields of SearchOptions, which mypy would check against horizon too.
    tuning: dict[str, Any] = {}
    for k in TUNING_CAPS:
        v = _number(spec, opts, k, float, zero_ok=k in _ZERO_OK)
        if v is not None:
            tuning[k] = v
    if level and "greed" not in tuning:
        tuning["greed"] = level.greed
    engine = _engine_option(spec, opts)
    horizon = budget("horizon", int, zero_ok=True)
    if horizon is None and level:
        horizon = level.horizon
    options = SearchOptions(horizon=None if horizon is None else int(horizon), **tuning)
    return MCTSBot(
        iterations=None if iterations is None else int(iterations),
        seconds=seconds,
        workers=n_workers,
        trees=trees,
        name=spec.strip() if rest else name,
        options=options,
        engine=engine,
    )


def _greedy_bot(spec: str, opts: dict[str, str]) -> Bot:
    """``greedy``, or with ``epsilon=E`` (0 to 1; popped from ``opts``) greedy playing a
    uniformly random legal move with probability E, drawn from the bot's RNG (seeded)."""
    epsilon = _number(spec, opts, "epsilon", float, zero_ok=True)
    if epsilon is None:
        return GreedyBot()
    if epsilon > 1:
        raise ConfigError(f"bot {spec!r}: epsilon must be at most 1")
    return EpsilonGreedyBot(epsilon, name=spec.strip())


def make_bot(spec: str, *, workers: int | None = None, trusted: bool = False, time_caps: bool = True) -> Bot:
    """A bot from its spec (see the module docstring). ``workers`` overrides the number of
    search processes of MCTS-based bots (the arena runs games in parallel instead, so it
    passes 1; the moves do not change, see :mod:`~quadropolis.bots.mcts`). Raises
    :class:`ConfigError` for an unknown name or option.

    Specs are untrusted by default: ``iterations``, ``seconds``, ``workers``, ``trees`` and
    ``horizon`` are capped by :data:`BUDGET_CAPS` (20,000 iterations, 10 seconds, 8
    workers or trees, 40 actions per player) so that a saved game or a network client cannot
    make the bot hang the process. ``trusted=True`` lifts these caps (for options the user
    typed on the command line; never for records or network input). The tuning bounds
    :data:`TUNING_CAPS` always hold. ``time_caps=False`` drops a level's time cap (not a
    ``seconds`` the spec gives), so the level depends only on the seed (the arena)."""
    if not isinstance(spec, str):
        raise ConfigError(f"a bot spec must be text, got {quote(spec)}")
    if len(spec) > SPEC_MAX_CHARS:
        raise ConfigError(f"bot {quote(spec)}: a spec has at most {SPEC_MAX_CHARS} characters")
    name, _, rest = spec.strip().partition(":")
    name = name.lower()
    opts = _options(spec, rest)
    bot: Bot
    if name == "random":
        bot = RandomBot()
    elif name == "greedy":
        bot = _greedy_bot(spec, opts)
    elif name == "neural":
        bot = NeuralBot()  # NumPy is imported only now: a clear ConfigError without it
    elif name == "easy":
        bot = EpsilonGreedyBot(EASY_EPSILON, name="easy")
    elif name == "mcts" or name in SEARCH_LEVELS:
        bot = _search_bot(spec, name, rest, opts, workers, trusted, time_caps)
    else:
        raise ConfigError(f"unknown bot {name!r} (choose from {', '.join(BOT_NAMES)})")
    if opts:
        raise ConfigError(f"bot {spec!r}: unknown option(s) {', '.join(sorted(opts))}")
    return bot


__all__ = ["BOT_NAMES", "BUDGET_CAPS", "MCTS_ITERATIONS", "SPEC_MAX_CHARS", "TUNING_CAPS", "make_bot"]
