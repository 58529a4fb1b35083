"""The action space shared by every adapter: 121 integers, the engine's move numbers.

Every legal action is a move number of :data:`quadropolis.moves.MOVES` (the same integers in
the same order), so the mask comes straight from the engine's list of legal moves
(:func:`quadropolis.rules.legal_move_numbers`, the only source of legality) and cannot drift
from the rules. The table of actions is in :mod:`quadropolis.envs.encoding`.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..errors import QuadropolisError
from ..moves import MOVES, Build, Discard, Move, Take, move_number
from ..rules import legal_move_numbers
from ..state import GameState

__all__ = [
    "ACTION_BUILD",
    "ACTION_DISCARD",
    "NUM_ACTIONS",
    "ActionError",
    "action_mask",
    "action_to_move",
    "legal_actions",
    "move_to_action",
    "shared_action_mask",
]


class ActionError(QuadropolisError):
    """An integer that is not an action of the fixed action space (0-120)."""


ACTION_BUILD: Final = 100
ACTION_DISCARD: Final = 120
NUM_ACTIONS: Final = 121

# The actions are the engine's move numbers (quadropolis.moves.MOVES, the same integers in the
# same order): legal_move_numbers lists the legal actions directly.


def action_to_move(action: int) -> Move:
    """The move of an action (an interned :class:`Move`). Raises :class:`ActionError`."""
    try:
        a = int(action)
    except (TypeError, ValueError):
        raise ActionError(f"an action is an integer 0-{NUM_ACTIONS - 1}, got {action!r}") from None
    if not 0 <= a < NUM_ACTIONS:
        raise ActionError(f"an action is an integer 0-{NUM_ACTIONS - 1}, got {a}")
    return MOVES[a]


def move_to_action(move: Move | str) -> int:
    """The action of a move (or of its notation, e.g. ``"3L4"``: :class:`NotationError` if it
    is not one), its move number. Raises :class:`ActionError` for anything else."""
    if isinstance(move, str):
        move = Move.parse(move)
    if isinstance(move, (Take, Build, Discard)):
        return move_number(move)
    raise ActionError(f"{move!r} has no action")


def legal_actions(state: GameState) -> list[int]:
    """The legal actions, ascending (:func:`quadropolis.rules.legal_move_numbers`: the
    numbers of :func:`quadropolis.legal_moves`). A new list."""
    return legal_move_numbers(state)


def shared_action_mask(state: GameState) -> npt.NDArray[np.int8]:
    """:func:`action_mask` without the copy: a read-only array shared between calls (for an
    adapter that copies it wherever it hands it out)."""
    key = bytes(legal_move_numbers(state))  # the actions as bytes (each fits in one): the key
    mask = _MASKS.get(key)
    if mask is None:
        # A mask is a function of the legal actions alone: cache it (bounded; performance).
        if len(_MASKS) >= _MASKS_MAX:
            _MASKS.clear()
        hot = bytearray(NUM_ACTIONS)
        for a in key:
            hot[a] = 1
        # Read-only (a view of bytes): shared, so mutating it raises. Made from bytes rather
        # than by numpy indexing, which costs more than this loop for a few dozen actions.
        mask = _MASKS[key] = np.frombuffer(bytes(hot), np.int8)
    return mask


_MASKS: dict[bytes, npt.NDArray[np.int8]] = {}
_MASKS_MAX: Final = 50_000


def action_mask(state: GameState) -> npt.NDArray[np.int8]:
    """int8 vector of :data:`NUM_ACTIONS`: 1 for the legal actions of the player to move (all
    zeros once the game is over). A new array at each call."""
    return shared_action_mask(state).copy()
