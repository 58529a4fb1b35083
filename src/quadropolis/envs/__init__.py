"""Reinforcement-learning interfaces: a Gymnasium env, a PettingZoo AEC env and an OpenSpiel
game, all thin wrappers of the rules engine sharing one encoding (:mod:`.encoding`, the
contract, over :mod:`.actions`, :mod:`.layout`, :mod:`.encoder`, :mod:`.tables`, :mod:`.text`
and :mod:`.rewards`) and one episode module (:mod:`.episode`: the mask check, the move and
the rewards of a step).

- ``gymnasium.make("Quadropolis-v1", ...)``: one seat for the agent, the other seats played by
  bots (:class:`~quadropolis.envs.gym_env.QuadropolisEnv`); registered when this package is
  imported, so ``gymnasium.make("quadropolis.envs:Quadropolis-v1")`` works alone.
- ``gymnasium.make_vec("Quadropolis-v1", num_envs=N, vectorization_mode="vector_entry_point")``:
  N games stepped together by the compiled engine
  (:class:`~quadropolis.envs.vector.QuadropolisVectorEnv`, the ``vector_entry_point``;
  ``autoreset_mode=AutoresetMode.SAME_STEP`` for CleanRL-style loops), and
  :class:`quadropolis.envs.sb3.QuadropolisSB3VecEnv`, the same games as a stable-baselines3
  ``VecEnv`` (for sb3-contrib's ``MaskablePPO``; imports stable-baselines3).
- ``pettingzoo.make("aec", "quadropolis_v1")`` (registered when this package is imported) or
  ``from quadropolis.envs import quadropolis_v1; quadropolis_v1.env()``: the PettingZoo AEC env.
- ``import quadropolis.envs.openspiel_game`` registers ``python_quadropolis`` with
  ``pyspiel``; then ``pyspiel.load_game("python_quadropolis", {"mode": "expert"})``.

The research kit around them: opponents as objects (:mod:`.opponents`: bot specs, bots or
policies, and :class:`PolicyBot`, a policy playing as a bot), self-play and a league
(:class:`quadropolis.envs.selfplay.SelfPlay`), the evaluation protocol (:func:`evaluate`,
:mod:`.evaluation`), a cheap ladder of opponents (:data:`LADDER`, :mod:`.ladder`) and
pictures of the table (:mod:`.picture`, ``render_mode="rgb_array"``).

Needs the ``rl`` extra (numpy, gymnasium, pettingzoo, open-spiel): ``pip install
'quadropolis[rl]'``. Importing this package needs numpy only (gymnasium and PettingZoo, when
installed, get their registrations); each adapter module imports its own framework. May import
the standard library, numpy, Pillow and those frameworks, the rules core (with
:mod:`quadropolis.stats`, the statistics and seating :func:`evaluate` shares with the arena) and
the public package ``quadropolis.bots``; never the arena (which enters RL policies through it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .encoding import (
    ACTION_BUILD,
    ACTION_DISCARD,
    KIND_CODES,
    LAYOUT,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    REWARDS,
    ActionError,
    Encoder,
    Part,
    action_mask,
    action_to_move,
    encode,
    final_rewards,
    layout_table,
    legal_actions,
    move_to_action,
    observation_text,
    views,
)
from .evaluation import (
    LADDER_RATINGS,
    RATED_RUNGS,
    Evaluation,
    LadderEvaluation,
    evaluate,
    evaluate_batched,
    evaluate_ladder,
)
from .ladder import LADDER, Rung, ladder_specs
from .opponents import PolicyBot, as_policy, make_opponent

if TYPE_CHECKING:
    from gymnasium.vector import VectorEnv
    from pettingzoo import AECEnv

    from .gym_env import QuadropolisEnv

#: Gymnasium id of the single-agent env.
GYM_ID = "Quadropolis-v1"
#: PettingZoo name of the AEC env (module ``quadropolis.envs.quadropolis_v1``).
PETTINGZOO_NAME = "quadropolis_v1"
#: OpenSpiel short name of the game.
OPENSPIEL_NAME = "python_quadropolis"


def register() -> None:
    """Register ``Quadropolis-v1`` with gymnasium and ``quadropolis_v1`` with PettingZoo's AEC
    registry, each if installed (idempotent). Done when this package is imported."""
    try:
        import gymnasium
    except ImportError:
        pass
    else:
        if GYM_ID not in gymnasium.registry:
            gymnasium.register(
                id=GYM_ID,
                entry_point="quadropolis.envs.gym_env:QuadropolisEnv",
                vector_entry_point="quadropolis.envs.vector:make_vector_env",
            )
    try:
        import pettingzoo
    except ImportError:
        return
    # PettingZoo has a registry since 1.27 (before, only the module convention quadropolis_v1)
    registry = getattr(pettingzoo, "aec_registry", None)
    if registry is not None and "quadropolis-v1" not in registry:
        pettingzoo.register("aec", PETTINGZOO_NAME, entry_point="quadropolis.envs.pettingzoo_env:env")


def make_gym_env(**options: Any) -> QuadropolisEnv:
    """A :class:`~quadropolis.envs.gym_env.QuadropolisEnv` without gymnasium's wrappers."""
    from .gym_env import QuadropolisEnv

    return QuadropolisEnv(**options)


def make_vector_env(num_envs: int = 1, **options: Any) -> VectorEnv[Any, Any, Any]:
    """``num_envs`` games stepped together: a
    :class:`~quadropolis.envs.vector.QuadropolisVectorEnv` (the compiled engine), else
    gymnasium's ``SyncVectorEnv`` of single envs; what ``gymnasium.make_vec("Quadropolis-v1",
    num_envs, vectorization_mode="vector_entry_point", **options)`` returns."""
    from .vector import make_vector_env as make

    return make(num_envs, **options)


def make_pettingzoo_env(wrapped: bool = True, **options: Any) -> AECEnv:
    """The PettingZoo AEC env: ``quadropolis_v1.env(**options)`` (with PettingZoo's wrappers),
    or ``quadropolis_v1.raw_env(**options)`` if not ``wrapped``."""
    from .pettingzoo_env import env, raw_env

    return env(**options) if wrapped else raw_env(**options)


def load_openspiel_game(params: dict[str, Any] | None = None) -> Any:
    """``pyspiel.load_game("python_quadropolis", params)`` after registering the game."""
    from .openspiel_game import load

    return load(params)


register()

__all__ = [
    "ACTION_BUILD",
    "ACTION_DISCARD",
    "GYM_ID",
    "KIND_CODES",
    "LADDER",
    "LADDER_RATINGS",
    "LAYOUT",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "OPENSPIEL_NAME",
    "PETTINGZOO_NAME",
    "RATED_RUNGS",
    "REWARDS",
    "ActionError",
    "Encoder",
    "Evaluation",
    "LadderEvaluation",
    "Part",
    "PolicyBot",
    "Rung",
    "action_mask",
    "action_to_move",
    "as_policy",
    "encode",
    "evaluate",
    "evaluate_batched",
    "evaluate_ladder",
    "final_rewards",
    "ladder_specs",
    "layout_table",
    "legal_actions",
    "load_openspiel_game",
    "make_gym_env",
    "make_opponent",
    "make_pettingzoo_env",
    "make_vector_env",
    "move_to_action",
    "observation_text",
    "register",
    "views",
]
