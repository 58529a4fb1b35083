"""Bots: ``random``, ``greedy``, the search bot ``mcts`` and the difficulty levels ``easy``,
``medium`` and ``hard``.

Every bot implements :class:`Bot` (``choose(observation, rng) -> Move``) and only ever sees
an observation with the seed hidden (:func:`observe`). Build one from a spec with
:func:`make_bot`: a name, optionally with options, e.g. ``"hard"``, ``"greedy"``,
``"mcts:iterations=2000,workers=2"``, ``"mcts:seconds=0.5"``.

Options of ``mcts``, ``medium`` and ``hard``: ``iterations`` (per take; a build gets about a
third), ``seconds``, ``workers`` (search processes), the exploration constant ``c``,
progressive widening ``pw_c`` and ``pw_alpha``, ``horizon`` (rollout actions per player before
the leaf is scored; 0 plays to the end; default by mode, see
:data:`~quadropolis.bots.mcts.DEFAULT_HORIZON`) and ``credit`` (VP per unused resource at a
truncated leaf)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from ..errors import ConfigError
from ..tiles import Mode
from .base import Bot, determinize, observe
from .match import BotError, MatchResult, bot_rng, play_match
from .mcts import DEFAULT_HORIZON, MCTSBot, search
from .simple import EpsilonGreedyBot, GreedyBot, RandomBot

_LOOKAHEAD: Final = (
    f"rollouts to the end (Classic) or {DEFAULT_HORIZON[Mode.EXPERT]} actions per player, "
    "then exact scoring (Expert)"
)
#: What each difficulty level is (shown by ``--help`` and the README).
LEVELS: Final[dict[str, str]] = {
    "easy": "greedy, but a random legal move 35% of the time (instant)",
    "medium": f"MCTS with 150 iterations per take (a third of that per build), one process; {_LOOKAHEAD}",
    "hard": (
        "MCTS with 600 iterations per take (a third of that per build), root-parallel over 2 processes; "
        + _LOOKAHEAD
    ),
}

BOT_NAMES: Final = ("random", "greedy", "mcts", *LEVELS)


def _options(spec: str, text: str) -> dict[str, str]:
    opts: dict[str, str] = {}
    for part in filter(None, text.split(",")):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ConfigError(f"bot {spec!r}: options are written key=value, got {part!r}")
        opts[key.strip()] = value.strip()
    return opts


def _number(
    spec: str, opts: dict[str, str], key: str, kind: Callable[[str], float], zero_ok: bool = False
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
    return v


def make_bot(spec: str, *, workers: int | None = None) -> Bot:
    """A bot from its spec (see the module docstring). ``workers`` overrides the number of
    search processes of MCTS-based bots (the arena runs games in parallel instead, so it
    passes 1). Raises :class:`ConfigError` for an unknown name or option."""
    name, _, rest = spec.strip().partition(":")
    name = name.lower()
    opts = _options(spec, rest)
    bot: Bot
    if name == "random":
        bot = RandomBot()
    elif name == "greedy":
        bot = GreedyBot()
    elif name == "easy":
        bot = EpsilonGreedyBot(0.35, name="easy")
    elif name in ("mcts", "medium", "hard"):
        defaults = {"mcts": (1000, 1), "medium": (150, 1), "hard": (600, 2)}[name]
        iterations = _number(spec, opts, "iterations", int)
        seconds = _number(spec, opts, "seconds", float)
        w = _number(spec, opts, "workers", int)
        if iterations is None and seconds is None:
            iterations = defaults[0]
        n_workers = workers if workers is not None else int(w) if w is not None else defaults[1]
        tuning: dict[str, float | None] = {
            k: _number(spec, opts, k, float, zero_ok=k == "credit")
            for k in ("c", "pw_c", "pw_alpha", "credit")
            if k in opts
        }
        horizon = _number(spec, opts, "horizon", int, zero_ok=True)
        bot = MCTSBot(
            iterations=None if iterations is None else int(iterations),
            seconds=seconds,
            workers=n_workers,
            name=spec.strip() if rest else name,
            horizon=None if horizon is None else int(horizon),
            **{k: v for k, v in tuning.items() if v is not None},
        )
    else:
        raise ConfigError(f"unknown bot {name!r} (choose from {', '.join(BOT_NAMES)})")
    if opts:
        raise ConfigError(f"bot {spec!r}: unknown option(s) {', '.join(sorted(opts))}")
    return bot


__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "Bot",
    "BotError",
    "EpsilonGreedyBot",
    "GreedyBot",
    "MCTSBot",
    "MatchResult",
    "RandomBot",
    "bot_rng",
    "determinize",
    "make_bot",
    "observe",
    "play_match",
    "search",
]
