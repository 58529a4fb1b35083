"""The common bot interface and what a bot may see.

A bot is asked for a move with :meth:`Bot.choose` and receives an *observation*: the state
with the seed replaced, so nothing it can compute reveals hidden information (the layouts
of future rounds). Face-down tiles of the current round are unplayable and their set is
public (the manifest and the player count fix it), so only the seed is hidden."""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from typing import Final

from ..config import GameConfig
from ..moves import Move
from ..state import GameState

#: The seed a redacted state carries: a bot sees this instead of the real one.
HIDDEN_SEED = 0


def observe(state: GameState) -> GameState:
    """What every player may see: a copy of ``state`` whose seed is hidden (its config equals
    ``dataclasses.replace(state.config, seed=HIDDEN_SEED)``; configs are frozen, so
    observations of one game share that object)."""
    obs = state.copy()
    obs.config = _hidden_config(state.config)
    return obs


def _hidden_config(config: GameConfig) -> GameConfig:
    """``dataclasses.replace(config, seed=HIDDEN_SEED)``, made once per config object."""
    # Bots observe at every decision and replace() re-runs the config's validation: cache
    # it. Keyed by identity (a dataclass hashes in Python, slowly); the entry holds the
    # config itself, so its id cannot be reused by another object while it is cached.
    entry = _HIDDEN.get(id(config))
    if entry is not None and entry[0] is config:
        return entry[1]
    hidden = dataclasses.replace(config, seed=HIDDEN_SEED)
    if len(_HIDDEN) >= _HIDDEN_MAX:  # bounded: a new config per game (its seed)
        _HIDDEN.clear()
    _HIDDEN[id(config)] = (config, hidden)
    return hidden


_HIDDEN: dict[int, tuple[GameConfig, GameConfig]] = {}
_HIDDEN_MAX: Final = 256


def determinize(obs: GameState, rng: random.Random) -> GameState:
    """A copy of an observation with a sampled seed: one possible future (the layouts of
    the rounds still to come are drawn from it)."""
    s = obs.copy()
    s.config = dataclasses.replace(obs.config, seed=rng.getrandbits(62))
    return s


class Bot(ABC):
    """A player. ``choose`` returns a legal move for ``state.current_player``; it must be
    deterministic given (``state``, the ``rng`` state) when its budget is in iterations."""

    name: str = "bot"

    @abstractmethod
    def choose(self, state: GameState, rng: random.Random) -> Move:
        """Pick a legal move in ``state`` (an observation, see :func:`observe`)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
