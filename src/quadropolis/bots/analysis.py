"""What a search bot thinks of a position: its few best candidate moves, each with the share
of the search it received, the chance of winning the bot estimates after it, and the score
it expects for the player to move. Used for hints and for reviewing a game move by move.

The analysis runs the very search the level plays with (same budget and settings), in one
process: its ``best`` move is what a one-process search of that level chooses from the same
seed (``hard`` as played sums two such trees, so it may differ when moves are close). The
estimates are means over the search's simulations through each move: in Classic they play
to the end of the game; in Expert they stop a few actions ahead (the level's horizon) and
value each city by its exact score there, crediting resources held (see
:func:`~quadropolis.bots.mcts.reward`), so the Expert score is a look-ahead estimate."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..errors import ConfigError
from ..moves import Move
from ..phases import PLACE
from ..rules import describe_move, legal_moves, move_facts
from ..state import GameState
from .mcts import MCTSBot, search


@dataclass(frozen=True, slots=True)
class Candidate:
    """One move considered: ``visits`` simulations went through it; ``win_chance`` (0-1,
    shared wins split, R13) and ``expected_score`` (VP) are their means for the player to move."""

    move: Move
    text: str
    visits: int
    win_chance: float
    expected_score: float
    #: What the move does, as values (:func:`quadropolis.rules.move_facts`).
    facts: dict[str, str | int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "move": str(self.move),
            "text": self.text,
            "facts": self.facts,
            "visits": self.visits,
            "win_chance": round(self.win_chance, 4),
            "expected_score": round(self.expected_score, 2),
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis of a position for ``player`` (the one to move) by bot ``level``."""

    player: int
    level: str
    iterations: int
    candidates: tuple[Candidate, ...]

    @property
    def best(self) -> Move:
        """The move the level would play: the most visited (ties: earlier legal move)."""
        return self.candidates[0].move

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.player,
            "bot": self.level,
            "iterations": self.iterations,
            "candidates": [c.to_json() for c in self.candidates],
            "best": str(self.best),
        }


def analyse(observation: GameState, bot: MCTSBot, seed: int, top: int = 5) -> Analysis:
    """Search ``observation`` (a state whose seed may be hidden; never needed) with ``bot``'s
    settings and iteration budget (a build gets the bot's fraction of it, as in play) and
    return the ``top`` candidates, most visited first. Deterministic for a given ``seed``.
    Raises :class:`ConfigError` for a bot with a time budget only, or a finished game."""
    if observation.is_over:
        raise ConfigError("the game is over: there is no move to analyse")
    if bot.iterations is None:
        raise ConfigError(f"bot {bot.name!r}: analysis needs an iteration budget")
    fraction = bot.place_fraction if observation.phase == PLACE else 1.0
    iterations = max(1, round(bot.iterations * fraction))
    stats: dict[str, list[float]] = {}
    search(observation, seed, iterations, None, bot.options, root_stats=stats, engine=bot.engine)
    order = {str(m): i for i, m in enumerate(legal_moves(observation))}
    ranked = sorted(stats, key=lambda k: (-stats[k][0], order[k]))[: max(1, top)]
    candidates = []
    for key in ranked:
        n, wins, value = stats[key][:3]
        move = Move.parse(key)
        text = describe_move(observation, move).partition(": ")[2]
        candidates.append(Candidate(move, text, int(n), wins / n, value / n, move_facts(observation, move)))
    return Analysis(observation.current_player, bot.name, iterations, tuple(candidates))


def analysis_seed(moves_played: int, seed_material: str = "") -> int:
    """A seed fixed by the position in a game (so the same position gets the same analysis)."""
    return random.Random(f"analysis/{seed_material}/{moves_played}").getrandbits(62)
