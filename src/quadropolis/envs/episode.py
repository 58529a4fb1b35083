"""One game played through an adapter: the mask check, applying an action and the rewards.

The Gymnasium env and the PettingZoo env play every action through :meth:`Episode.play`;
they and the OpenSpiel game take the rewards of a finished game from :func:`end_rewards`; an
illegal action that ends a game (Gymnasium's ``illegal_action="terminate"``, PettingZoo's
``env()``) is worth :attr:`Episode.illegal_reward`, by default the scheme's lower bound
(:func:`~.rewards.illegal_reward`). So a change to a reward, or to what an illegal action does
to one, lands here once. What each adapter adds is
its framework's bookkeeping (whose turn, infos, terminations, observations).

OpenSpiel checks its actions itself (``apply_action_with_legality_check`` against
``legal_actions()``, the engine's list) and its game applies a trusted action with the
engine's ``apply_unchecked``, as :meth:`Episode.play` does after the mask check.

:meth:`Episode.play` is on the adapters' hot path: it replaces the code each adapter had
inline, with no Python call more per step (see docs/rl.md's adapter figures).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..errors import IllegalMoveError
from ..moves import MOVES, Build
from ..outcome import Outcome, outcome, projected_score
from ..rules import apply_unchecked, explain_illegal
from ..state import GameState
from .actions import NUM_ACTIONS, action_to_move
from .rewards import check_illegal_reward, final_rewards

__all__ = ["Episode", "end_rewards", "refusal"]


class Episode:
    """The engine's state of one game, its reward scheme (:data:`~.rewards.REWARDS`), the
    dense-reward coefficient (0: none), each seat's projected score after its last build
    (what the dense reward is the change of) and :attr:`illegal_reward`, the reward of an
    illegal action that ends the game: ``illegal``, or by default the scheme's bound
    (:func:`~.rewards.check_illegal_reward` refuses a higher one with ``ConfigError``)."""

    __slots__ = ("dense", "illegal_reward", "scheme", "scores", "state")

    def __init__(
        self, state: GameState, scheme: str, dense: float = 0.0, illegal: float | None = None
    ) -> None:
        self.state = state
        self.scheme = scheme
        self.dense = dense
        self.scores = [0] * state.config.players
        self.illegal_reward = check_illegal_reward(state.config.mode, scheme, dense, illegal)

    def play(self, seat: int, action: int, mask: npt.NDArray[np.int8]) -> float | None:
        """Apply ``action`` for ``seat``, the player to move, if ``mask`` (the legal actions
        now) allows it. Returns the seat's dense reward for it, ``None`` when it earns none
        (no dense reward, or not a build): a build earns ``dense`` times the change of the
        seat's exact projected score, so a seat's dense rewards add up to ``dense`` times its
        final score. Raises :class:`~quadropolis.IllegalMoveError` (``action 7: <why>``) and
        leaves the state unchanged for an action outside the mask."""
        if not (0 <= action < NUM_ACTIONS and mask[action]):
            raise IllegalMoveError(f"action {action}: {refusal(self.state, action)}")
        state = self.state
        move = MOVES[action]  # a legal action: no need to check it again
        apply_unchecked(state, move)
        if self.dense and isinstance(move, Build):
            score = projected_score(state, seat).total
            reward = self.dense * (score - self.scores[seat])
            self.scores[seat] = score
            return reward
        return None

    def final(self) -> tuple[Outcome, list[float]]:
        """The outcome of the finished game and every seat's final reward."""
        return end_rewards(self.state, self.scheme)


def end_rewards(state: GameState, scheme: str) -> tuple[Outcome, list[float]]:
    """The outcome of the finished game ``state`` (every city scored exactly) and each seat's
    final reward under ``scheme`` (:func:`~.rewards.final_rewards`)."""
    result = outcome(state)
    return result, final_rewards(result, scheme)


def refusal(state: GameState, action: int) -> str:
    """Why ``action`` is not legal in ``state`` (a sentence naming the rule)."""
    if not 0 <= action < NUM_ACTIONS:
        return "no such action"
    return str(explain_illegal(state, action_to_move(action)))
