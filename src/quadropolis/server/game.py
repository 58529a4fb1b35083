"""A game as the server holds it in memory: configuration, seats, the action log (every
accepted action, undos included) and the engine state that log leads to.

Pure: no I/O, no clock, no network. The service stores an action first and only then hands it
to :meth:`LiveGame.record`; after a restart :meth:`LiveGame.rebuild` replays the stored log
with the engine (every move checked again by :func:`~quadropolis.rules.explain_illegal`), so
the state in memory is always exactly the one the database describes.

Versions: version 0 is the initial position; each accepted action (a move or an undo) adds
one. A client acting names the version it saw; any other version is stale."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ..bots import LEVELS
from ..config import GameConfig
from ..errors import QuadropolisError
from ..moves import Move
from ..outcome import Outcome, outcome
from ..phases import PLACE
from ..record import GameRecord, result_forfeits, result_json, seat_label
from ..rules import apply_unchecked, describe_move, explain_illegal, illegal_reason, move_facts, new_game
from ..state import GameState
from ..undo import check_undo
from .clocks import CLOCK_ACTOR
from .data import ENDED, OVER, PLAYING, AccountProof, ActionData, Credential, GameData, SeatData
from .errors import GameOver, IllegalMove, InternalError, NotStarted, NotYourTurn, UndoRefused

HUMAN: Final = "human"
BOT: Final = "bot"


def hash_token(token: str) -> bytes:
    """What the database keeps of a seat token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def proof(credential: Credential) -> bytes | AccountProof:
    """What :meth:`LiveGame.held_by` compares: a token's SHA-256, or the account itself."""
    return credential if isinstance(credential, AccountProof) else hash_token(credential)


def still_held(game: LiveGame, credentials: Mapping[int, Credential]) -> frozenset[int]:
    """Of the seats a client proved (seat -> token or account), those its credential still
    holds (:meth:`LiveGame.held_by`): a seat left (open again, or taken by someone else since)
    or resigned (now a bot's) is no longer the client's to play or to see as its own."""
    return frozenset(
        seat for seat, credential in credentials.items() if game.held_by(seat, proof(credential))
    )


class CorruptGame(InternalError):
    """A stored history that does not replay (an illegal move or a wrong undo): a fault of
    the server's data, answered as ``internal``."""


@dataclass(frozen=True, slots=True)
class Step:
    """A move in effect (not undone): who played it, the log version that played it, and
    what it did in words. (No state is kept per move: thousands of live games' states would
    make every full garbage collection pause the server; undo replays the moves instead.)"""

    seat: int
    move: Move
    version: int
    text: str


@dataclass(slots=True)
class LiveGame:
    """The authoritative game. Mutated only by the service, under :attr:`lock`. Of the table's
    settings it keeps those play needs (takeover, analysis, the creator's address for the
    bots' turns); the lobby's (``public``) are read from the storage."""

    id: str
    config: GameConfig
    status: str
    takeover_after: float | None
    takeover_level: str
    created_at: float
    seats: list[SeatData]
    #: Whether the players may ask for the analysis (hints) of the running game.
    analysis: bool = False
    #: The address that created the game (whose turn its bots take in the bot pool).
    creator: str = ""
    #: The table's time per move (seconds, as chosen), ``None``: no clock (:mod:`.clocks`).
    move_seconds: float | None = None
    #: When the time of the move being played runs out (as stored); ``None``: none due.
    deadline: float | None = None
    #: When the game started (``None`` while it waits for players).
    started_at: float | None = None
    log: list[ActionData] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    #: What each logged action did, in words, by version (undone moves keep theirs).
    texts: dict[int, str] = field(default_factory=dict)
    #: The same as values for a client's own words (:func:`quadropolis.rules.move_facts`; an
    #: undo: ``{"kind": "undo", "count": moves taken back}``), by version.
    facts: dict[int, dict[str, str | int]] = field(default_factory=dict)
    state: GameState = field(init=False)
    result: Outcome | None = None
    finished_at: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: Bumped by every change a client should see that is not an action (a seat claimed, a
    #: player leaving or coming back); lets the view cache tell the two apart.
    presence: int = 0

    def __post_init__(self) -> None:
        self.state = new_game(self.config)

    # --- construction ------------------------------------------------------------------

    @classmethod
    def rebuild(cls, data: GameData) -> LiveGame:
        """The game as stored: its log replayed with the engine. Raises :class:`CorruptGame`
        if the log does not replay."""
        game = cls(
            id=data.id,
            config=GameConfig.from_json(data.config),
            status=data.status,
            takeover_after=data.takeover_after,
            takeover_level=data.takeover_level,
            created_at=data.created_at,
            seats=list(data.seats),
            analysis=data.analysis,
            creator=data.creator,
            finished_at=data.finished_at,
            move_seconds=data.move_seconds,
            deadline=data.deadline,
            started_at=data.started_at,
        )
        game.extend(data.actions)
        game.set_status(data.status)
        return game

    @classmethod
    def of_record(cls, record: GameRecord, at: int) -> LiveGame:
        """The position after the first ``at`` moves of ``record`` (already replayed: its
        moves are legal), as a game of no id, seats named by ``record.seats``; for views of
        a record (the replay viewer). Its moves are logged as the seats' players' or bots'."""
        names = record.seats or tuple(f"{HUMAN}:" for _ in range(record.config.players))
        forfeits = result_forfeits(record.result)
        # A forfeit's time is its order: the record keeps the order, not the time.
        when = {seat: float(i) for i, seat in enumerate(forfeits)}
        seats = [
            SeatData(i, HUMAN, None, seat_label(n), b"", None, forfeited_at=when.get(i))
            if n.startswith(f"{HUMAN}:")
            else SeatData(
                i, BOT, n if n in LEVELS else None, seat_label(n), None, None, forfeited_at=when.get(i)
            )
            for i, n in enumerate(names)
        ]
        game = cls(
            id="",
            config=record.config,
            status=PLAYING,
            takeover_after=None,
            takeover_level="easy",
            created_at=0.0,
            seats=seats,
        )
        state = game.state
        for version, text in enumerate(record.moves[:at], 1):
            seat = state.current_player
            actor = "player" if seats[seat].kind == HUMAN else "bot"
            game.record(ActionData(version, seat, "move", text, None, actor, 0.0))
            state = game.state
        if forfeits and at == len(record.moves):  # the end of a game a forfeit ended early
            game.set_status(OVER)
        return game

    def extend(self, actions: tuple[ActionData, ...] | list[ActionData]) -> None:
        """Replay stored actions that follow the log (already stored ones are skipped)."""
        for action in actions:
            if action.version <= self.version:
                continue
            if action.version != self.version + 1:
                raise CorruptGame(f"game {self.id}: version {action.version} follows {self.version}")
            self.record(action, check=True)

    # --- reading -----------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.log)

    @property
    def is_over(self) -> bool:
        return self.status == OVER

    @property
    def to_move(self) -> int | None:
        """The seat whose action it is, ``None`` unless the game is being played."""
        return self.state.current_player if self.status == PLAYING else None

    @property
    def forfeits(self) -> tuple[int, ...]:
        """The seats whose players forfeited (resigned, or timed out), in the order they did."""
        gone = [s for s in self.seats if s.forfeited_at is not None]
        return tuple(s.seat for s in sorted(gone, key=lambda s: (s.forfeited_at, s.seat)))

    def own_moves(self, seat: int) -> int:
        """How many moves in effect (not undone) ``seat``'s person played themself (not a
        bot for them: takeover, clock, or a resigned seat's)."""
        return sum(1 for s in self.steps if s.seat == seat and self.log[s.version - 1].actor == "player")

    def history(self) -> list[tuple[int, Move]]:
        return [(s.seat, s.move) for s in self.steps]

    def moves(self) -> list[str]:
        """The moves in effect, in the engine's notation (undone ones left out)."""
        return [str(s.move) for s in self.steps]

    def seat_of_token(self, token_hash: bytes) -> int | None:
        """The seat whose token has this SHA-256, compared in constant time with every seat
        (so the time taken does not tell which seat, if any, nearly matched)."""
        found = None
        for seat in self.seats:
            stored = seat.token_hash if seat.token_hash is not None else b"\0" * 32
            if hmac.compare_digest(stored, token_hash) and seat.token_hash is not None:
                found = seat.seat
        return found

    def holds(self, seat: int, token_hash: bytes) -> bool:
        """Whether ``token_hash`` is the hash of ``seat``'s token (constant-time compare)."""
        if not 0 <= seat < len(self.seats):
            return False
        stored = self.seats[seat].token_hash
        return stored is not None and hmac.compare_digest(stored, token_hash)

    def held_by(self, seat: int, proof: bytes | AccountProof) -> bool:
        """Whether ``proof`` (a token's SHA-256, or an account) holds ``seat`` now: the seat is
        a person's (not open, not resigned to a bot) and the proof is its token's hash
        (constant-time compare) or its account. The one rule of who may act for a seat."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != HUMAN:
            return False
        if isinstance(proof, AccountProof):
            return self.seats[seat].account == proof.account
        return self.holds(seat, proof)

    def seats_of_account(self, account: int) -> list[int]:
        """The seats ``account`` holds now (a person plays them: resigned ones excluded)."""
        return [s.seat for s in self.seats if s.kind == HUMAN and s.account == account]

    def open_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == HUMAN and s.token_hash is None]

    def seat_names(self) -> list[str]:
        """Who plays each seat, as a record names them (``human:NAME`` or the bot level)."""
        return [f"human:{s.name}" if s.kind == HUMAN else str(s.level) for s in self.seats]

    def record_json(self) -> dict[str, Any]:
        """The ``quadropolis-game/1`` record (seed included: only for a finished game); its
        result, once over, names the forfeits, so a game a forfeit ended early replays too."""
        result = None if self.result is None else result_json(self.result)
        return GameRecord(self.config, tuple(self.moves()), result, tuple(self.seat_names())).to_json()

    # --- checking an action (raises the protocol's errors) -----------------------------

    def check_not_ended(self) -> None:
        """:class:`GameOver` if the game is over, cancelled, expired or abandoned."""
        if self.status == OVER:
            raise GameOver(f"game {self.id} is over")
        if self.status in ENDED:
            raise GameOver(f"game {self.id} has ended: it was {self.status}")

    def check_playing(self) -> None:
        self.check_not_ended()
        if self.status != PLAYING:
            raise NotStarted(f"game {self.id} is waiting for players (open seats: {self.open_seats()})")

    def check_move(self, seat: int, text: str) -> Move:
        """The move ``text`` parsed and checked for ``seat`` against the engine's rules."""
        self.check_playing()
        if seat != self.state.current_player:
            raise NotYourTurn(f"it is seat {self.state.current_player}'s turn, not seat {seat}'s")
        try:
            move = Move.parse(text)
        except QuadropolisError as e:
            raise IllegalMove(str(e)) from None
        refusal = illegal_reason(self.state, move)
        if refusal is not None:
            raise IllegalMove(refusal.message, refusal.reason, refusal.params)
        return move

    def check_undo(self, seat: int) -> int:
        """How many moves ``seat`` would take back by undoing now (the rule of
        :mod:`quadropolis.undo`); raises :class:`UndoRefused` saying why it may not."""
        self.check_playing()
        check = check_undo(self.history(), seat)
        if check.start is None:
            raise UndoRefused(f"seat {seat} has no action to undo")
        if check.answered_by is not None:
            _, other, move = check.answered_by
            raise UndoRefused(
                f"seat {other} has acted since seat {seat}'s last action ({move}): "
                "only an action no one else has answered can be undone"
            )
        timed_out = [s.move for s in self.steps[check.start :] if self._actor(s) == CLOCK_ACTOR]
        if timed_out:
            # Else an undo would give back the turn whose time ran out, again and again.
            raise UndoRefused(
                f"{timed_out[0]} was played for seat {seat} when its time ran out: "
                "a move played by the clock cannot be taken back"
            )
        return len(self.steps) - check.start

    # --- clocks (:mod:`.clocks`) ----------------------------------------------------------

    def _actor(self, step: Step) -> str:
        return self.log[step.version - 1].actor

    def _moment(self, kept: int) -> float:
        """When the position after the first ``kept`` moves in effect was reached: the
        ``kept``-th move's time, or the game's start for none."""
        if kept > 0:
            return self.log[self.steps[kept - 1].version - 1].created_at
        return self.started_at if self.started_at is not None else self.created_at

    def turn_start(self, kept: int, mid_turn: bool) -> float:
        """When the turn being played after the first ``kept`` moves in effect became its
        seat's: at the move that handed it over, so a take (``mid_turn``: its build is due),
        or an undo back to the turn's start, leaves the turn's time as it was."""
        return self._moment(kept - 1 if mid_turn else kept)

    def activity_after_undo(self, kept: int) -> float:
        """The game's last activity once only the first ``kept`` moves are in effect: the
        last of them a person played, or the start (an undo and the move it takes back are
        no activity)."""
        for i in range(kept - 1, -1, -1):
            if self._actor(self.steps[i]) == "player":
                return max(self._moment(i + 1), self._moment(0))
        return self._moment(0)

    # --- changing ----------------------------------------------------------------------

    def record(self, action: ActionData, check: bool = False) -> None:
        """Apply a stored action (the next version). With ``check`` (replaying the database)
        the move or undo is validated first and :class:`CorruptGame` raised if it is wrong."""
        if action.kind == "move":
            self._record_move(action, check)
        elif action.kind == "undo":
            self._record_undo(action, check)
        else:
            raise CorruptGame(f"game {self.id} version {action.version}: unknown action kind {action.kind!r}")
        self.log.append(action)
        if self.state.is_over and self.status != OVER:
            self.status = OVER
            self.finished_at = action.created_at
        if self.state.is_over and self.result is None:
            self.result = outcome(self.state, self.forfeits)

    def set_status(self, status: str, at: float | None = None) -> None:
        """Take the status stored for the game. A game ``over`` before its last move (a
        forfeit ended it) gets its result here: its cities scored as they stand, its forfeits
        last (:func:`quadropolis.outcome.places`)."""
        self.status = status
        if status == OVER and self.result is None:
            self.result = outcome(self.state, self.forfeits)
            self.finished_at = self.finished_at if at is None else at

    def _record_move(self, action: ActionData, check: bool) -> None:
        move = Move.parse(action.move or "")
        before = self.state
        if check:
            reason = explain_illegal(before, move)
            if reason is not None or action.seat != before.current_player:
                raise CorruptGame(f"game {self.id} version {action.version} ({action.move}): {reason}")
        text = describe_move(before, move).partition(": ")[2]
        after = before.copy()
        apply_unchecked(after, move)
        self.steps.append(Step(action.seat, move, action.version, text))
        self.texts[action.version] = text
        self.facts[action.version] = move_facts(before, move)
        self.state = after

    def _record_undo(self, action: ActionData, check: bool) -> None:
        check_result = check_undo(self.history(), action.seat)
        if check and (
            not check_result.allowed or len(self.steps) - (check_result.start or 0) != action.undone
        ):
            raise CorruptGame(f"game {self.id} version {action.version}: seat {action.seat} may not undo")
        start = len(self.steps) - (action.undone or 0)
        undone = ", ".join(str(s.move) for s in self.steps[start:])
        self.texts[action.version] = f"takes back {undone}"
        self.facts[action.version] = {"kind": "undo", "count": len(self.steps) - start}
        del self.steps[start:]
        self.state = self._replayed()

    def _replayed(self) -> GameState:
        """The state after the moves in effect, replayed from the start (they are legal: each
        was checked when accepted)."""
        state = new_game(self.config)
        for step in self.steps:
            apply_unchecked(state, step.move)
        return state

    def result_json(self) -> dict[str, Any] | None:
        return None if self.result is None else result_json(self.result)

    def set_seats(self, seats: tuple[SeatData, ...] | list[SeatData]) -> None:
        if list(seats) != self.seats:
            self.seats = list(seats)
            self.presence += 1

    def seen(self, seat: int, when: float) -> None:
        self.seats[seat] = replace(self.seats[seat], last_seen=when)


def effects(game: LiveGame, action: ActionData) -> tuple[dict[str, Any] | None, float, float | None]:
    """What storing ``action`` does to its game besides the history (:mod:`.clocks`): the
    result if that move ends the game; when the turn to play after it became its seat's (a
    move handing the turn over starts a new one; a take, whose build is due, keeps the
    turn's; an undo goes back to the start of the undoer's turn, whose time it does not
    restart); the game's last activity after an undo (``None``: the storage's rule)."""
    if action.kind == "undo":
        kept = len(game.steps) - (action.undone or 0)
        return None, game.turn_start(kept, mid_turn=False), game.activity_after_undo(kept)
    after = game.state.copy()
    apply_unchecked(after, Move.parse(action.move or ""))
    result = result_json(outcome(after, game.forfeits)) if after.is_over else None
    if after.phase == PLACE:
        return result, game.turn_start(len(game.steps) + 1, mid_turn=True), None
    return result, action.created_at, None
