"""Bots: ``random``, ``greedy`` (``greedy:epsilon=E``: a random legal move with probability
E), the search bot ``mcts``, the learned bot ``neural`` (:mod:`quadropolis.bots.neural`, needs
NumPy) and the difficulty levels ``easy``, ``medium``, ``neural``, ``hard`` and ``expert``
(defined in :mod:`quadropolis.bots.levels`).

Every bot implements :class:`Bot` (``choose(observation, rng) -> Move``) and only ever sees
an observation with the seed hidden (:func:`observe`). Build one from a spec with
:func:`make_bot` (:mod:`.spec`): a name, optionally with options, e.g. ``"hard"``, ``"greedy"``,
``"mcts:iterations=2000,workers=2"``, ``"mcts:seconds=0.5"``.

Options of ``mcts`` and the search levels (which they override): ``iterations`` (per take;
a build gets about a third), ``seconds``, ``trees`` (root-parallel trees sharing the
budget), ``workers`` (processes searching them; alone, ``workers=N`` also means ``N``
trees), the exploration constant ``c``, progressive widening ``pw_c`` and ``pw_alpha``,
``horizon`` (rollout actions per player before the leaf is scored; 0 plays to the end;
for plain ``mcts`` by mode, see :data:`~quadropolis.bots.mcts.DEFAULT_HORIZON`) and
``credit`` (VP per unused resource at a truncated leaf), ``fed`` (0-1: the weight of each
city's fed score in a truncated leaf's value, see :func:`~quadropolis.bots.mcts.leaf_value`),
``greed`` (0-1: how often a rollout's take is the face-up building the prior values most,
see :func:`~quadropolis.bots.policy.rollout_move`), and ``engine`` (``python`` or
``native``: the search's implementation, pinned; by default the selected engine's, see
:mod:`quadropolis.engine`). A search bot holds its tuning (``c`` to ``greed``) as one
:class:`SearchOptions` value (:mod:`.options`), which the Python search and the native one
read alike."""

from __future__ import annotations

from .analysis import Analysis, Candidate, analyse, analysis_seed
from .base import Bot, determinize, observe
from .levels import EASY_EPSILON, LEVEL_DETAILS, LEVELS, SEARCH_LEVELS, SearchLevel
from .match import BotError, MatchResult, bot_rng, play_match
from .mcts import MCTSBot, search
from .neural import RAW_CONTEXT as NEURAL_RAW_CONTEXT
from .neural import RAW_MOVE as NEURAL_RAW_MOVE
from .neural import choose_rows as neural_choose_rows
from .options import SearchOptions
from .review import (
    LABELS,
    REVIEW_ITERATIONS,
    THRESHOLDS,
    MoveReview,
    PlayerSummary,
    PositionSearch,
    Review,
    assemble,
    label_of,
    move_accuracy,
    positions,
    review_record,
    search_position,
)
from .simple import EpsilonGreedyBot, GreedyBot, RandomBot
from .spec import BOT_NAMES, BUDGET_CAPS, MCTS_ITERATIONS, SPEC_MAX_CHARS, TUNING_CAPS, make_bot

__all__ = [
    "BOT_NAMES",
    "BUDGET_CAPS",
    "EASY_EPSILON",
    "LABELS",
    "LEVELS",
    "LEVEL_DETAILS",
    "MCTS_ITERATIONS",
    "NEURAL_RAW_CONTEXT",
    "NEURAL_RAW_MOVE",
    "REVIEW_ITERATIONS",
    "SEARCH_LEVELS",
    "SPEC_MAX_CHARS",
    "THRESHOLDS",
    "TUNING_CAPS",
    "Analysis",
    "Bot",
    "BotError",
    "Candidate",
    "EpsilonGreedyBot",
    "GreedyBot",
    "MCTSBot",
    "MatchResult",
    "MoveReview",
    "PlayerSummary",
    "PositionSearch",
    "RandomBot",
    "Review",
    "SearchLevel",
    "SearchOptions",
    "analyse",
    "analysis_seed",
    "assemble",
    "bot_rng",
    "determinize",
    "label_of",
    "make_bot",
    "move_accuracy",
    "neural_choose_rows",
    "observe",
    "play_match",
    "positions",
    "review_record",
    "search",
    "search_position",
]
