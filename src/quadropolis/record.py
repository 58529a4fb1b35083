"""Game records: ``{"format": "quadropolis-game/1", "config": {...}, "moves": [...],
"result": {...}}``. A record replays deterministically: the seed in its configuration fixes
every round's layout, and its moves (canonical notation) fix everything else."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .config import GameConfig
from .errors import QuadropolisError, RecordError
from .moves import Move
from .outcome import Outcome, outcome
from .rules import apply_unchecked, explain_illegal, new_game
from .state import GameState

FORMAT: Final = "quadropolis-game/1"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A configuration, the moves played, and (for a finished game) its result."""

    config: GameConfig
    moves: tuple[str, ...]
    result: Mapping[str, Any] | None = None
    #: Optional: who plays each seat (a bot spec such as "hard", or "human:NAME").
    seats: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": FORMAT, "config": self.config.to_json(), "moves": list(self.moves)}
        if self.seats is not None:
            d["seats"] = list(self.seats)
        if self.result is not None:
            d["result"] = dict(self.result)
        return d

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Parse a record's structure (the moves are checked by :func:`replay`)."""
        if not isinstance(data, Mapping):
            raise RecordError("record: expected a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"record: 'format' must be {FORMAT!r}, got {data.get('format')!r}")
        unknown = set(data) - {"format", "config", "moves", "result", "seats"}
        if unknown:
            raise RecordError(f"record: unknown field(s) {', '.join(sorted(unknown))}")
        try:
            config = GameConfig.from_json(data.get("config"))
        except QuadropolisError as e:
            raise RecordError(f"record: {e}") from None
        moves = data.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("record: 'moves' must be a list of moves in notation")
        result = data.get("result")
        if result is not None and not isinstance(result, Mapping):
            raise RecordError("record: 'result' must be an object")
        seats = data.get("seats")
        if seats is not None and (
            not isinstance(seats, list)
            or len(seats) != config.players
            or not all(isinstance(x, str) for x in seats)
        ):
            raise RecordError(f"record: 'seats' must list {config.players} names, one per seat")
        return cls(config, tuple(moves), result, None if seats is None else tuple(seats))

    @classmethod
    def of_game(
        cls,
        config: GameConfig,
        moves: Iterable[Move | str],
        final: GameState,
        seats: Iterable[str] | None = None,
        result_of: Outcome | None = None,
    ) -> GameRecord:
        """The record of a game played from ``config`` through ``moves`` to ``final``.
        Pass ``result_of`` when the final outcome is already known, to avoid scoring again."""
        result = None
        if final.is_over:
            result = result_json(result_of if result_of is not None else outcome(final))
        return cls(config, tuple(str(m) for m in moves), result, None if seats is None else tuple(seats))


def result_json(out: Outcome) -> dict[str, Any]:
    """The part of an outcome a record keeps: totals, winners and tie-break values."""
    return {
        "scores": list(out.totals),
        "winners": list(out.winners),
        "inhabitants_placed": [s.inhabitants_placed for s in out.scores],
        "empty_squares": [s.empty_squares for s in out.scores],
    }


def replay(record: GameRecord, *, check_result: bool = True) -> GameState:
    """Replay every move from the configuration; returns the final state.

    Raises :class:`RecordError` naming the move number (1-based), the move and the reason
    for the first move that does not parse or is illegal, or when the recorded result
    disagrees with the replayed one."""
    state = new_game(record.config)
    for i, text in enumerate(record.moves, 1):
        try:
            move = Move.parse(text)
        except QuadropolisError as e:
            raise RecordError(f"move {i}: {e}") from None
        reason = explain_illegal(state, move)
        if reason is not None:
            raise RecordError(f"move {i} ({text}): illegal: {reason}")
        apply_unchecked(state, move)
    if check_result and record.result is not None:
        if not state.is_over:
            raise RecordError(f"record has a result but the game is not over after {len(record.moves)} moves")
        got = result_json(outcome(state))
        for key, value in got.items():
            if key in record.result and record.result[key] != value:
                raise RecordError(
                    f"recorded result {key}={record.result[key]} does not match the replay ({value})"
                )
    return state
