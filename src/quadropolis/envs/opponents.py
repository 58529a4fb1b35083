"""Opponents as objects: a bot spec, a :class:`~quadropolis.bots.Bot`, or a *policy*, all
turned into bots that play the seats the agent does not hold.

A **policy** is what a learner produces, in either of two shapes:

- a callable ``policy(observation, action_mask) -> action``: ``observation`` is the float32
  vector of :data:`~.layout.LAYOUT` seen from the seat to move (divided by its bounds, in
  [0, 1], when the opponent is built with ``normalize=True``, as the Gymnasium env does under
  its own ``normalize=True``), ``action_mask`` the int8 mask of the 121 actions; it returns
  one legal action (an integer);
- an object with stable-baselines3's ``predict(observation, action_masks=mask,
  deterministic=True) -> (action, state)`` (sb3-contrib's ``MaskablePPO`` and its policies).

:class:`PolicyBot` plays a policy as a bot, so a policy can sit wherever a bot can: as an
opponent in the Gymnasium env, in :func:`~.evaluation.evaluate` and in ``quadropolis arena
--bot python:module:attribute``. A policy that returns an action outside the mask raises
:class:`~quadropolis.bots.BotError` (the mask is the only source of legality).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from ..bots import Bot, BotError, make_bot
from ..errors import ConfigError
from ..moves import MOVES, Move
from ..state import GameState
from .actions import NUM_ACTIONS, shared_action_mask
from .encoder import Encoder
from .layout import observation_high

__all__ = ["Opponent", "Policy", "PolicyBot", "as_policy", "make_opponent", "normalizer"]

#: A policy: ``policy(observation, action_mask) -> action`` (see the module docstring).
Policy: TypeAlias = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]
#: What ``opponents=`` accepts for a seat: a bot spec, a bot, a policy or an SB3-style model.
Opponent: TypeAlias = "str | Bot | Policy | object"


def normalizer() -> npt.NDArray[np.float32]:
    """What an observation is multiplied by to lie in [0, 1]: ``1 / observation_high()``."""
    return (1.0 / observation_high()).astype(np.float32)


def as_policy(obj: Any) -> Policy:
    """``obj`` as a callable ``(observation, action_mask) -> action``: an object with a
    ``predict`` method (stable-baselines3) is called as ``predict(observation,
    action_masks=mask, deterministic=True)``; any other callable is used as it is. Raises
    :class:`~quadropolis.ConfigError` for anything else."""
    predict = getattr(obj, "predict", None)
    if callable(predict):

        def act(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
            out = predict(obs, action_masks=mask.astype(bool), deterministic=True)
            action = out[0] if isinstance(out, tuple) else out  # SB3: (action, recurrent state)
            return int(np.asarray(action).reshape(-1)[0])

        return act
    if callable(obj):
        return obj  # type: ignore[no-any-return]
    raise ConfigError(
        f"an opponent is a bot spec, a Bot, a policy (observation, action_mask) -> action or an "
        f"object with predict(); got {type(obj).__name__}"
    )


class PolicyBot(Bot):
    """A policy (see the module docstring) playing as a bot: it encodes the position from the
    seat to move with its own :class:`~.encoder.Encoder`, computes the mask and asks the policy
    for an action. ``choose`` ignores ``rng``: a policy brings its own randomness."""

    def __init__(self, policy: Any, name: str = "policy", normalize: bool = False) -> None:
        self.policy = policy
        self.name = name
        self._act = as_policy(policy)
        self._encoder = Encoder()
        self._scale = normalizer() if normalize else None

    def choose(self, state: GameState, rng: random.Random) -> Move:
        obs = self._encoder.encode(state, state.current_player)
        if self._scale is not None:
            obs *= self._scale
        mask = shared_action_mask(state).copy()  # the policy may keep or change it
        action = int(self._act(obs, mask))
        if not (0 <= action < NUM_ACTIONS and mask[action]):
            raise BotError(f"policy {self.name} returned action {action}, which the mask forbids")
        return MOVES[action]


def make_opponent(opponent: Opponent, normalize: bool = False, name: str = "policy") -> Bot:
    """A bot for ``opponent``: a spec goes through ``make_bot(spec, workers=1, trusted=True)``
    (opponents are chosen in code by the researcher: trusted budgets), a :class:`Bot` is used
    as it is, anything else is a policy (:class:`PolicyBot`, seeing normalised observations if
    ``normalize``)."""
    if isinstance(opponent, str):
        return make_bot(opponent, workers=1, trusted=True)
    if isinstance(opponent, Bot):
        return opponent
    return PolicyBot(opponent, name=name, normalize=normalize)
