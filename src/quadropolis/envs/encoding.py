"""The encoding shared by every adapter: a fixed integer action space, the action mask, a
fixed-shape observation vector with named views, an observation text, and the rewards.

**Actions** (the same 121 integers in every mode and for every player count)::

    action   0 ..  99   Take(architect, slot):  slot * 5 + (architect - 1)
                        slot 0-19 = T1..T5, B1..B5, L1..L5, R1..R5 (site.SLOT_NAMES)
    action 100 .. 119   Build(row, col):         100 + (row - 1) * 5 + (col - 1)
                        (a 4 x 5 grid; Classic cities use columns 1-4)
    action 120          Discard

:func:`action_to_move` / :func:`move_to_action` round-trip the engine's notation
(``str(action_to_move(a))`` is ``3L4``, ``r2c3`` or ``discard``). :func:`legal_actions` and
:func:`action_mask` (a new array; :func:`shared_action_mask`, the same read-only and cached)
are built from the engine's legal moves (:func:`quadropolis.rules.legal_move_numbers`, the
numbers of :func:`quadropolis.legal_moves`, the only source of legality): an action is the
engine's move number (:data:`quadropolis.moves.MOVES`), and the engine lists legal moves in
ascending order.

**Observations** are one float32 vector of :data:`OBSERVATION_SIZE` values seen by one
*observer* seat: seats are *relative* (0 = the observer, 1 = the next seat in turn order...).
:data:`LAYOUT` lists its parts in memory order and :func:`views` reshapes a vector (or a
batch) into them; docs/rl.md's table is generated from :data:`LAYOUT`. Only what every
player may know is encoded: never the seed, the layouts of rounds to come, nor which
face-down tile lies where (R4). :func:`encode` computes one; an :class:`Encoder` computes a
sequence of them faster (it rewrites only what changed since its last call), with the same
result.

This module is the contract's one import: it re-exports the parts kept in their own modules,
:mod:`.actions` (the action space and masks), :mod:`.layout` (the observation layout),
:mod:`.encoder` (the encoder, over the byte tables of :mod:`.tables`), :mod:`.text` (the
observation text) and :mod:`.rewards` (the reward schemes).
"""

from __future__ import annotations

from .actions import (
    ACTION_BUILD,
    ACTION_DISCARD,
    NUM_ACTIONS,
    ActionError,
    action_mask,
    action_to_move,
    legal_actions,
    move_to_action,
    shared_action_mask,
)
from .encoder import Encoder, encode
from .layout import KIND_CODES, LAYOUT, OBSERVATION_SIZE, Part, layout_table, observation_high, views
from .rewards import REWARDS, check_reward, final_rewards, reward_bounds, score_bounds
from .text import observation_text

__all__ = [
    "ACTION_BUILD",
    "ACTION_DISCARD",
    "KIND_CODES",
    "LAYOUT",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "REWARDS",
    "ActionError",
    "Encoder",
    "Part",
    "action_mask",
    "action_to_move",
    "check_reward",
    "encode",
    "final_rewards",
    "layout_table",
    "legal_actions",
    "move_to_action",
    "observation_high",
    "observation_text",
    "reward_bounds",
    "score_bounds",
    "shared_action_mask",
    "views",
]
