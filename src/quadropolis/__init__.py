"""quadropolis: a faithful rules engine for the board game Quadropolis (Classic and Expert,
2-4 players) with exact optimal final scoring.

Typical use::

    from quadropolis import GameConfig, Mode, new_game, legal_moves, apply, outcome
    state = new_game(GameConfig(mode=Mode.CLASSIC, players=3, seed=42))
    state = apply(state, "3L4")      # architect #3 at the left end of row 4
    ...
"""

from .buildings import BuildingType
from .city import GEOMETRY, Building, City, Geometry
from .config import GameConfig
from .errors import (
    ConfigError,
    IllegalMoveError,
    InvalidStateError,
    NotationError,
    QuadropolisError,
    RecordError,
)
from .moves import DISCARD, Build, Discard, Move, Take
from .outcome import Outcome, outcome, projected_score, scores_after
from .record import GameRecord, replay
from .rules import (
    ILLEGAL_MESSAGES,
    Refusal,
    apply,
    apply_unchecked,
    describe_move,
    explain_illegal,
    illegal_reason,
    legal_moves,
    move_facts,
    new_game,
)
from .scoring import CATEGORIES, CityScore, Placement, score_city
from .state import GameState
from .tiles import TILES, Mode, Tile

__version__ = "0.1.0"

__all__ = [
    "CATEGORIES",
    "DISCARD",
    "GEOMETRY",
    "ILLEGAL_MESSAGES",
    "TILES",
    "Build",
    "Building",
    "BuildingType",
    "City",
    "CityScore",
    "ConfigError",
    "Discard",
    "GameConfig",
    "GameRecord",
    "GameState",
    "Geometry",
    "IllegalMoveError",
    "InvalidStateError",
    "Mode",
    "Move",
    "NotationError",
    "Outcome",
    "Placement",
    "QuadropolisError",
    "RecordError",
    "Refusal",
    "Take",
    "Tile",
    "__version__",
    "apply",
    "apply_unchecked",
    "describe_move",
    "explain_illegal",
    "illegal_reason",
    "legal_moves",
    "move_facts",
    "new_game",
    "outcome",
    "projected_score",
    "replay",
    "score_city",
    "scores_after",
]
