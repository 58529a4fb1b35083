"""PettingZoo's module convention: ``from quadropolis.envs import quadropolis_v1``, then
``quadropolis_v1.env()`` (wrapped) or ``quadropolis_v1.raw_env()``. See
:mod:`quadropolis.envs.pettingzoo_env`."""

from __future__ import annotations

from .pettingzoo_env import QuadropolisAEC, env, raw_env

__all__ = ["QuadropolisAEC", "env", "raw_env"]
