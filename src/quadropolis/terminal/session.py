"""The state of a game played in the terminal, with no I/O: who sits where (humans and
bots), the moves played with the state before each (for ``undo``), bot and hint moves, and
the game record. :mod:`quadropolis.terminal.ui` draws it and reads the players' entries."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..bots import Bot, BotError, bot_rng, make_bot, observe
from ..config import GameConfig
from ..errors import ConfigError, QuadropolisError
from ..moves import Move, Take
from ..outcome import Outcome, outcome
from ..record import HUMAN_PREFIX, GameRecord, replay, seat_label, unique_labels
from ..rules import apply, describe_move, explain_illegal, legal_moves, new_game
from ..state import GameState
from ..undo import check_undo, last_action_start

#: How a human seat is named in a game record's ``seats`` (``"human:Alice"``).


class UndoError(QuadropolisError):
    """``undo`` is not allowed now; the message says why."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Who plays a seat: a human (``bot is None``) or a bot given by its spec. ``trusted``:
    the spec was typed on the command line, so its budget may exceed the caps that apply to
    specs read from saved games (:func:`quadropolis.bots.make_bot`)."""

    name: str
    bot: str | None = None
    trusted: bool = field(default=False, compare=False)  # how it was given, not who plays

    @property
    def is_human(self) -> bool:
        return self.bot is None

    @property
    def record_name(self) -> str:
        """The seat as a game record names it: ``human:NAME`` or the bot spec."""
        return HUMAN_PREFIX + self.name if self.bot is None else self.bot

    @staticmethod
    def from_record(text: str) -> Seat:
        """The seat a record names (``human:NAME`` or a bot spec, checked by make_bot)."""
        if text.startswith(HUMAN_PREFIX):
            name = text[len(HUMAN_PREFIX) :].strip()
            if not name:
                raise ConfigError(f"seat {text!r}: a human seat needs a name after 'human:'")
            return Seat(name)
        make_bot(text)  # validates the spec (ConfigError naming the problem)
        return Seat(bot_label(text), text.strip())


def bot_label(spec: str) -> str:
    """How a bot is named on screen: ``Bot hard`` (as any record's seat is shown)."""
    return seat_label(spec)


def make_seats(
    players: int, bots: Sequence[str], names: Sequence[str], bots_first: bool = False
) -> list[Seat]:
    """Seats for a new game: ``players - len(bots)`` humans (named from ``names``, by default
    ``Player 1``, ``Player 2``...) then the bots, or the bots first with ``bots_first``.
    Raises :class:`ConfigError` for too many bots or names, or an unknown bot spec."""
    if len(bots) > players:
        raise ConfigError(f"{len(bots)} bots for {players} players: at most {players} bots")
    humans = players - len(bots)
    if len(names) > humans:
        raise ConfigError(f"{len(names)} names given for {humans} human seat(s)")
    for spec in bots:
        make_bot(spec, trusted=True)  # fail early, with the bot module's message
    human_seats = [Seat(names[i].strip() if i < len(names) else f"Player {i + 1}") for i in range(humans)]
    if any(not s.name for s in human_seats):
        raise ConfigError("a player's name cannot be empty")
    bot_seats = [Seat(bot_label(spec), spec.strip(), trusted=True) for spec in bots]
    return unique_names(bot_seats + human_seats if bots_first else human_seats + bot_seats)


def unique_names(seats: Iterable[Seat]) -> list[Seat]:
    """The seats with repeated names told apart by a suffix: ``Bot greedy``, ``Bot greedy (2)``."""
    seats = list(seats)
    names = unique_labels(s.name for s in seats)
    return [s if s.name == n else Seat(n, s.bot, s.trusted) for s, n in zip(seats, names, strict=True)]


@dataclass(frozen=True, slots=True)
class Step:
    """One move played: by whom, the move, the state before it, and what it did."""

    seat: int
    move: Move
    before: GameState
    text: str  # describe_move(before, move) without its "player N: " prefix


@dataclass(frozen=True, slots=True)
class Action:
    """A player's action: a take, then the build or discard of the building taken (if any)."""

    seat: int
    steps: tuple[Step, ...]
    round_started: bool  # the first step of this action is the first of a new round

    def describe(self, name: str) -> str:
        """``Bot hard: architect #3 at L4 -> r4c3, takes S (shop); builds S on r2c2``."""
        return f"{name}: " + "; ".join(s.text for s in self.steps)


class PlaySession:
    """A game in progress between humans and bots.

    ``play`` applies a validated move; ``bot_move`` asks the bot whose turn it is (it sees only
    :func:`~quadropolis.bots.observe`, the seed hidden); ``undo`` takes back the current
    player's last action while no one else has acted since; ``record`` is the game record
    (``quadropolis-game/1``, with ``seats``)."""

    def __init__(self, config: GameConfig, seats: Sequence[Seat], moves: Iterable[Move | str] = ()) -> None:
        if len(seats) != config.players:
            raise ConfigError(f"{config.players} players need {config.players} seats, got {len(seats)}")
        self.config = config
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.state: GameState = new_game(config)
        self.steps: list[Step] = []
        self._bots: dict[int, Bot] = {}
        self._rngs: dict[int, random.Random] = {}
        self._hint_bots: dict[str, Bot] = {}
        for m in moves:
            self.play(m)

    @classmethod
    def from_record(cls, record: GameRecord, seats: Sequence[Seat] | None = None) -> PlaySession:
        """Resume a recorded game (validated move by move by :func:`quadropolis.record.replay`).
        Seats: ``seats`` if given, else the record's, else every seat a human."""
        replay(record)
        if seats is None:
            if record.seats is not None:
                seats = unique_names(Seat.from_record(s) for s in record.seats)
            else:
                seats = make_seats(record.config.players, [], [])
        return cls(record.config, seats, record.moves)

    # --- whose turn ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def current_seat(self) -> int:
        return self.state.current_player

    @property
    def current(self) -> Seat:
        return self.seats[self.state.current_player]

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def legal_moves(self) -> list[Move]:
        return legal_moves(self.state)

    # --- playing ------------------------------------------------------------------------

    def explain(self, move: Move) -> str | None:
        """Why ``move`` is illegal now (with the player's name), or ``None``."""
        reason = explain_illegal(self.state, move)
        if reason is None:
            return None
        return reason.replace(f"player {self.current_seat} ", f"{self.current.name} ")

    def play(self, move: Move | str) -> Step:
        """Play ``move`` (validated: :class:`IllegalMoveError` / :class:`NotationError`)."""
        if isinstance(move, str):
            move = Move.parse(move)
        before = self.state
        seat = before.current_player
        self.state = apply(before, move)
        text = describe_move(before, move).partition(": ")[2].replace("_", " ")
        step = Step(seat, move, before, text)
        self.steps.append(step)
        return step

    def bot_move(self) -> Move:
        """The move of the bot whose turn it is (not played). Raises :class:`BotError` if the
        bot returns an illegal move."""
        seat = self.current_seat
        move = self.bot(seat).choose(observe(self.state), self._rngs[seat])
        reason = explain_illegal(self.state, move)
        if reason is not None:
            raise BotError(f"{self.seats[seat].name} played {move}: {reason}")
        return move

    def bot(self, seat: int) -> Bot:
        """The bot playing ``seat`` (made on first use, with its RNG ``bot_rng(seed, seat)``)."""
        bot = self._bots.get(seat)
        if bot is None:
            spec = self.seats[seat].bot
            if spec is None:
                raise ValueError(f"seat {seat} ({self.seats[seat].name}) is not a bot")
            bot = self._bots[seat] = make_bot(spec, trusted=self.seats[seat].trusted)
            self._rngs[seat] = bot_rng(self.config.seed, seat)
        return bot

    def hint_bot(self, spec: str) -> Bot:
        """The hint bot ``spec`` (from the command line, so trusted with its budget)."""
        bot = self._hint_bots.get(spec)
        if bot is None:
            bot = self._hint_bots[spec] = make_bot(spec, trusted=True)
        return bot

    def hint(self, spec: str = "hard") -> Move:
        """What the bot ``spec`` would play for the current player (not played). It sees the
        same observation as any bot; its randomness is fixed by the position."""
        bot = self.hint_bot(spec)
        rng = random.Random(f"hint/{len(self.steps)}")
        return bot.choose(observe(self.state), rng)

    def describe(self, move: Move) -> str:
        """What ``move`` would do now, without the player prefix."""
        return describe_move(self.state, move).partition(": ")[2].replace("_", " ")

    def close(self) -> None:
        """Release bot resources (search processes)."""
        for bot in [*self._bots.values(), *self._hint_bots.values()]:
            close = getattr(bot, "close", None)
            if callable(close):
                close()

    # --- history --------------------------------------------------------------------------

    def actions(self) -> list[Action]:
        """The moves played, grouped into actions (a take and its build or discard)."""
        out: list[Action] = []
        group: list[Step] = []
        for step in self.steps:
            if isinstance(step.move, Take) and group:
                out.append(self._action(group))
                group = []
            group.append(step)
        if group:
            out.append(self._action(group))
        return out

    @staticmethod
    def _action(group: list[Step]) -> Action:
        first = group[0].before
        new_round = first.round > 1 and first.turn == 1 and first.position == 0
        return Action(group[0].seat, tuple(group), new_round)

    def undo_refusal(self, seat: int | None = None) -> str | None:
        """Why ``seat`` (default: the current one) may not undo now, or ``None`` if it may
        (the rule of :mod:`quadropolis.undo`)."""
        if seat is None:
            seat = self.current_seat
        name = self.seats[seat].name
        if self.is_over:
            return "the game is over"
        check = check_undo(self.history(), seat)
        if check.start is None:
            return f"{name} has not acted yet: nothing to undo"
        if check.answered_by is not None:
            i, other, _ = check.answered_by
            mine = "; ".join(s.text for s in self.steps[check.start : i])
            j = i + 1  # the other seat's whole action: its take and its build or discard
            while (
                j < len(self.steps)
                and self.steps[j].seat == other
                and not isinstance(self.steps[j].move, Take)
            ):
                j += 1
            theirs = "; ".join(s.text for s in self.steps[i:j])
            who = self.seats[other].name
            return (
                f"{who} has acted since {name}'s last action ({name}: {mine}); "
                f"then {who}: {theirs}. Only an action no one else has answered can be undone"
            )
        return None

    def history(self) -> list[tuple[int, Move]]:
        """The moves played, each with the seat that played it."""
        return [(s.seat, s.move) for s in self.steps]

    def undo(self, seat: int | None = None) -> list[Step]:
        """Take back ``seat``'s last action (its take and, if made, its build or discard),
        allowed only while no one else has acted since. Returns the steps removed; raises
        :class:`UndoError` saying why not."""
        if seat is None:
            seat = self.current_seat
        reason = self.undo_refusal(seat)
        if reason is not None:
            raise UndoError(reason)
        start = last_action_start(self.history(), seat)
        assert start is not None
        removed = self.steps[start:]
        del self.steps[start:]
        self.state = removed[0].before
        return removed

    # --- results ------------------------------------------------------------------------

    @property
    def moves(self) -> list[Move]:
        return [s.move for s in self.steps]

    def record(self) -> GameRecord:
        """The game record so far (with its result once the game is over) naming each seat."""
        return GameRecord.of_game(self.config, self.moves, self.state, [s.record_name for s in self.seats])

    def outcome(self) -> Outcome:
        return outcome(self.state)
