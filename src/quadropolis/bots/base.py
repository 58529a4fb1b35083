"""The common bot interface and what a bot may see.

A bot is asked for a move with :meth:`Bot.choose` and receives an *observation*: the state
with the seed replaced, so nothing it can compute reveals hidden information (the layouts
of future rounds). Face-down tiles of the current round are unplayable and their set is
public (the manifest and the player count fix it), so only the seed is hidden."""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod

from ..moves import Move
from ..state import GameState

#: The seed a redacted state carries: a bot sees this instead of the real one.
HIDDEN_SEED = 0


def observe(state: GameState) -> GameState:
    """What every player may see: a copy of ``state`` whose seed is hidden."""
    obs = state.copy()
    obs.config = dataclasses.replace(state.config, seed=HIDDEN_SEED)
    return obs


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
