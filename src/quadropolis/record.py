"""Game records: ``{"format": "quadropolis-game/1", "config": {...}, "moves": [...],
"result": {...}}``. A record replays deterministically: the seed in its configuration fixes
every round's layout, and its moves (canonical notation) fix everything else."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .config import GameConfig
from .errors import QuadropolisError, RecordError, quote, quote_keys
from .moves import Move
from .outcome import Outcome, outcome
from .rules import apply_unchecked, explain_illegal, new_game
from .state import GameState

FORMAT: Final = "quadropolis-game/1"
#: A record's ``seats`` entry for a human: ``human:NAME``; any other entry is a bot spec.
HUMAN_PREFIX: Final = "human:"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A configuration, the moves played, and (for a finished game) its result."""

    config: GameConfig
    moves: tuple[str, ...]
    result: Mapping[str, Any] | None = None
    #: Optional: who plays each seat (a bot spec such as "hard", or "human:NAME").
    seats: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.config, GameConfig):
            raise RecordError(f"record: config must be a GameConfig, got {quote(self.config)}")
        if type(self.moves) is not tuple or not all(isinstance(m, str) for m in self.moves):
            raise RecordError("record: 'moves' must be a tuple of moves in notation")
        if self.result is not None:
            _check_result(self.result, self.config.players)
        seats = self.seats
        players = self.config.players
        if seats is not None and (
            type(seats) is not tuple or len(seats) != players or not all(isinstance(x, str) for x in seats)
        ):
            raise RecordError(f"record: 'seats' must list {players} names, one per seat")

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": FORMAT, "config": self.config.to_json(), "moves": list(self.moves)}
        if self.seats is not None:
            d["seats"] = list(self.seats)
        if self.result is not None:
            d["result"] = dict(self.result)
        return d

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Parse a record's structure (the moves are checked by :func:`replay`).

        Raises :class:`RecordError` naming the first problem; never another exception,
        whatever the value (wrong types, huge integers, deep nesting)."""
        if not isinstance(data, Mapping):
            raise RecordError(f"record: expected a JSON object, got {quote(data)}")
        if data.get("format") != FORMAT:
            raise RecordError(f"record: 'format' must be {FORMAT!r}, got {quote(data.get('format'))}")
        unknown = set(data) - {"format", "config", "moves", "result", "seats"}
        if unknown:
            raise RecordError(f"record: unknown field(s) {quote_keys(unknown)}")
        try:
            config = GameConfig.from_json(data.get("config"))
        except QuadropolisError as e:
            raise RecordError(f"record: {e}") from None
        moves = data.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("record: 'moves' must be a list of moves in notation")
        result = data.get("result")
        if result is not None:
            _check_result(result, config.players)
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
    """The part of an outcome a record keeps: totals, winners and tie-break values, and the
    seats that forfeited (``forfeits``, in the order they did; only when some did)."""
    result: dict[str, Any] = {
        "scores": list(out.totals),
        "winners": list(out.winners),
        "inhabitants_placed": [s.inhabitants_placed for s in out.scores],
        "empty_squares": [s.empty_squares for s in out.scores],
    }
    if out.forfeits:
        result["forfeits"] = list(out.forfeits)
    return result


#: The fields of a record's result: one whole number per seat, except ``winners`` and
#: ``forfeits`` (seats).
RESULT_FIELDS: Final = ("scores", "winners", "inhabitants_placed", "empty_squares", "forfeits")


def result_forfeits(result: Mapping[str, Any] | None) -> tuple[int, ...]:
    """The seats that forfeited, in order, of a checked result (none without a result)."""
    return () if result is None else tuple(result.get("forfeits", ()))


def _check_result(result: Any, players: int) -> None:
    """A result as :func:`result_json` writes it: any of its fields, each a list of whole
    numbers, one per seat (``winners``: 1 to ``players`` distinct seats; ``forfeits``: up
    to ``players`` distinct seats)."""
    if not isinstance(result, Mapping):
        raise RecordError(f"record: 'result' must be an object, got {quote(result)}")
    unknown = set(result) - set(RESULT_FIELDS)
    if unknown:
        raise RecordError(f"record: 'result': unknown field(s) {quote_keys(unknown)}")
    for key in RESULT_FIELDS:
        if key not in result:
            continue
        v = result[key]
        ints = isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        if key in ("winners", "forfeits"):
            least = 1 if key == "winners" else 0
            ok = (
                ints
                and least <= len(v) <= players
                and len(set(v)) == len(v)
                and all(0 <= x < players for x in v)
            )
            what = f"a list of {least} to {players} distinct seats (0-{players - 1})"
        else:
            ok = ints and len(v) == players and all(abs(x) <= _RESULT_MAX for x in v)
            what = f"a list of {players} whole numbers, one per seat"
        if not ok:
            raise RecordError(f"record: 'result': {key!r} must be {what}, got {quote(v)}")


#: Bound on a recorded score or count (a real one is below 1,000).
_RESULT_MAX: Final = 10**6


def replay(record: GameRecord, *, check_result: bool = True) -> GameState:
    """Replay every move from the configuration; returns the final state.

    Raises :class:`RecordError` naming the move number (1-based), the move and the reason
    for the first move that does not parse or is illegal, or when the recorded result
    disagrees with the replayed one. A result with ``forfeits`` may end before the game's
    end (a resignation or a timeout ended it): its cities are scored as they stand."""
    state = new_game(record.config)
    for i, text in enumerate(record.moves, 1):
        try:
            move = Move.parse(text)
        except QuadropolisError as e:
            raise RecordError(f"move {i}: {e}") from None
        reason = explain_illegal(state, move)
        if reason is not None:
            raise RecordError(f"move {i} ({move}): illegal: {reason}")
        apply_unchecked(state, move)
    if check_result and record.result is not None:
        forfeits = result_forfeits(record.result)
        if not state.is_over and not forfeits:
            raise RecordError(
                "record has a result without forfeits but the game is not over after "
                f"{len(record.moves)} moves"
            )
        got = result_json(outcome(state, forfeits))
        for key, value in got.items():
            if key in record.result and record.result[key] != value:
                raise RecordError(
                    f"recorded result {key}={_quote_list(record.result[key])} "
                    f"does not match the replay ({value})"
                )
    return state


def _quote_list(v: Any) -> str:
    """A recorded list of numbers as the record writes it (checked by ``from_json``), or
    quoted safely when the record was built by hand."""
    if isinstance(v, list) and len(v) <= 4 and all(type(x) is int and abs(x) <= _RESULT_MAX for x in v):
        return str(v)
    return quote(v)


def seat_label(entry: str) -> str:
    """How a record's ``seats`` entry is shown: ``human:NAME`` gives NAME, a bot spec gives
    ``Bot SPEC``; one line of printable text (no line breaks or terminal escapes from a
    file), empty when nothing printable is left."""
    if entry.startswith(HUMAN_PREFIX):
        name = entry[len(HUMAN_PREFIX) :]
    else:
        name = f"Bot {entry.strip()}" if entry.strip() else ""
    return " ".join("".join(c if c.isprintable() else " " for c in name).split())


def unique_labels(labels: Iterable[str]) -> list[str]:
    """The labels with repeats told apart by a suffix: ``Bot greedy``, ``Bot greedy (2)``."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out
