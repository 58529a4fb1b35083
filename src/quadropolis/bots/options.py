"""The search's tuning as one value: :class:`SearchOptions`, read by the Python search
(:func:`quadropolis.bots.mcts.search`), held by :class:`~quadropolis.bots.mcts.MCTSBot` and
handed to the native search (:func:`quadropolis.native.search_native`, which reads the same
fields by name). Standard library only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: VP credited at a truncated leaf for each inhabitant or energy unit held but unused: the
#: final scoring counts it -1, yet mid-game it can still activate a building to come, so
#: the credit cancels the penalty (measured: 0.5 played no better than 1).
DEFAULT_CREDIT: Final = 1.0


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """The tuning of one search (every field means the same in the Python and the native
    search):

    - ``c``: the UCT exploration constant;
    - ``pw_c``, ``pw_alpha``: progressive widening, a node with ``n`` visits may have
      ``ceil(pw_c * (n + 1) ** pw_alpha)`` children;
    - ``horizon``: rollout actions per player before a leaf is evaluated (0: to the end of
      the game; None: the mode's :data:`~quadropolis.bots.mcts.DEFAULT_HORIZON`);
    - ``credit``: VP per unused inhabitant or energy unit at a truncated leaf;
    - ``bias``: > 0, the progressive bias at the root from greedy's values;
    - ``fed``: 0 to 1, the weight of each city's fed score in a truncated leaf's value;
    - ``greed``: 0 to 1, how often a rollout's take is the best by the prior.

    The defaults are plain ``mcts``'s."""

    c: float = 0.7
    pw_c: float = 2.0
    pw_alpha: float = 0.5
    horizon: int | None = None
    credit: float = DEFAULT_CREDIT
    bias: float = 0.0
    fed: float = 0.0
    greed: float = 0.0


#: Plain ``mcts``'s tuning (every default).
DEFAULT_OPTIONS: Final = SearchOptions()

__all__ = ["DEFAULT_CREDIT", "DEFAULT_OPTIONS", "SearchOptions"]
