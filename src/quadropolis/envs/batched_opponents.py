"""The opponents the batched env (:mod:`.vector`) decides in Python rather than in the engine:
``neural`` with batched inference, bots played game by game with the single env's generators
(the epsilon-greedy rungs, and ``random`` and ``greedy`` when they must be decided per game, as
a league's members, from the engine's masks and greedy's values), and batched policies. Each is
an object with ``forget()`` (a reset: drop what is kept between moves) and ``moves(games,
listed, others)`` (the moves of the listed waiting games of the engine's batch ``games``;
``others``: the mover's index among the other seats)."""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .. import engine
from ..bots import (
    NEURAL_RAW_CONTEXT,
    NEURAL_RAW_MOVE,
    Bot,
    BotError,
    EpsilonGreedyBot,
    bot_rng,
    make_bot,
    neural_choose_rows,
    observe,
)
from ..errors import ConfigError
from ..moves import move_number
from .actions import NUM_ACTIONS
from .layout import OBSERVATION_SIZE

__all__ = ["BATCHED_OPPONENTS", "NATIVE_OPPONENTS", "external_opponent", "predictor"]

#: The opponents the batched env plays natively, by their bot specs (bots.simple).
NATIVE_OPPONENTS: Final = ("random", "greedy")
#: The bot specs the batched env plays with batched inference (see :class:`_NeuralOpponent`).
BATCHED_OPPONENTS: Final = ("neural",)
_MOVE_COLUMN: Final = 5  # in the engine's rows of greedy's values: the value before, the move


def external_opponent(o: Any, made: dict[Any, Any]) -> Any:
    """The opponent decided here for ``o`` (not a native code): an object with ``forget()``
    and ``moves(games, listed, others)``; ``made`` keeps those already built, by spec or
    object, so an opponent given for several seats is called once per step for all of them.
    An object with ``batched_opponent`` true (:class:`~.league.League`) is one already."""
    if getattr(o, "batched_opponent", False) is True:
        return o
    if isinstance(o, str) and o in NATIVE_OPPONENTS + BATCHED_OPPONENTS:
        return made.setdefault(o, _NeuralOpponent() if o == "neural" else _bot_opponent(o))
    if isinstance(o, (str, Bot)):
        key = o if isinstance(o, str) else id(o)
        return made[key] if key in made else made.setdefault(key, _bot_opponent(o))
    if callable(getattr(o, "predict", None)):  # SB3: before callable (a torch module is)
        return made[id(o)] if id(o) in made else made.setdefault(id(o), _PolicyOpponent(predictor(o)))
    if callable(o):
        return made[id(o)] if id(o) in made else made.setdefault(id(o), _PolicyOpponent(o))
    raise ConfigError(
        f"an opponent of the batched env is a bot spec, a Bot or a batched policy "
        f"(observations, masks) -> actions; got {o!r}"
    )


class _NeuralOpponent:
    """``neural`` over a batch: the engine writes every waiting game's raw inputs
    (:func:`quadropolis.bots.neural.raw_inputs`), one forward pass scores all their moves."""

    def __init__(self) -> None:
        make_bot("neural")  # a ConfigError now if NumPy or the weights are missing

    def forget(self) -> None:
        """Nothing kept between moves."""

    def moves(
        self, games: Any, listed: npt.NDArray[np.int32], others: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.int64]:
        """The move ``neural`` plays in each listed waiting game of ``games`` (VectorGames;
        ``others``, the mover's index among the other seats, is not needed)."""
        native = engine.current()
        assert native is not None
        k = len(listed)
        seats = np.empty(k, np.int32)
        context = np.empty((k, NEURAL_RAW_CONTEXT), np.int32)
        rows = np.empty((k * native.MAX_LEGAL, NEURAL_RAW_MOVE), np.int32)
        counts = np.empty(k, np.int32)
        games.opponent_inputs(listed, seats, context, rows, counts)
        rows = rows[: int(counts.sum())]
        return rows[neural_choose_rows(context, rows, counts), 5].astype(np.int64)  # type: ignore[no-any-return]


class _BotOpponent:
    """A bot (spec or :class:`~quadropolis.bots.Bot`) played game by game: each waiting game's
    state is read back from the engine and the bot chooses with the generator the single env
    gives that seat (``bots.bot_rng(seed, seat)``), kept for the whole episode."""

    def __init__(self, bot: str | Bot) -> None:
        # Opponents are chosen in code by the researcher: trusted budgets, as the single env's
        self.bot = make_bot(bot, workers=1, trusted=True) if isinstance(bot, str) else bot
        self._rngs: dict[tuple[int, int, int], random.Random] = {}  # (game, seed, seat)

    def forget(self) -> None:
        """Drops the generators (a reset may replay a seed: its bots start afresh)."""
        self._rngs.clear()

    def moves(
        self, games: Any, listed: npt.NDArray[np.int32], others: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.int64]:
        native = engine.current()
        assert native is not None
        moves = np.empty(len(listed), np.int64)
        for k, i in enumerate(listed.tolist()):
            state = native.from_native(games.state(i))
            rng = self.rng(games, i, state.current_player)
            moves[k] = move_number(self.bot.choose(observe(state), rng))
        return moves

    def rng(self, games: Any, game: int, seat: int) -> random.Random:
        """The generator of ``seat``'s bot in ``game``'s current episode."""
        seed = games.episode_seed(game)
        rng = self._rngs.get((game, seed, seat))
        if rng is None:
            # the game's earlier episodes' generators are done with
            for key in [key for key in self._rngs if key[0] == game and key[1] != seed]:
                del self._rngs[key]
            rng = self._rngs[game, seed, seat] = bot_rng(seed, seat)
        return rng


class _EpsilonGreedyOpponent(_BotOpponent):
    """``greedy:epsilon=E`` (and ``easy``) without reading the state back, with
    :class:`~quadropolis.bots.EpsilonGreedyBot`'s draws from the same generators: first
    ``random() < epsilon`` in each waiting game; then, in the games that drew a random move,
    a uniformly random one of the mask's legal moves (the engine lists them in ascending
    action numbers, as the Python engine does), and in the others a uniformly random one of
    greedy's best, from greedy's values of every legal move that the engine writes (the rows
    ``neural`` reads, in the same order)."""

    def moves(
        self, games: Any, listed: npt.NDArray[np.int32], others: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.int64]:
        epsilon = self.bot.epsilon  # type: ignore[attr-defined]
        rngs = [
            self.rng(games, game, seat)
            for game, seat in zip(listed.tolist(), _seats(games, listed, others), strict=True)
        ]
        explore = np.array([rng.random() < epsilon for rng in rngs], np.bool_)
        moves = np.empty(len(listed), np.int64)
        if explore.any():
            rows = np.flatnonzero(explore)
            moves[rows] = self._random(games, listed[rows], [rngs[j] for j in rows])
        if not explore.all():
            rows = np.flatnonzero(~explore)
            moves[rows] = self._greedy(games, listed[rows], [rngs[j] for j in rows])
        return moves

    @staticmethod
    def _random(games: Any, listed: npt.NDArray[np.int32], rngs: list[random.Random]) -> list[int]:
        k = len(listed)
        masks = np.empty((k, NUM_ACTIONS), np.int8)
        games.opponent_observe(listed, np.empty((k, OBSERVATION_SIZE), np.float32), masks)
        out = []
        for mask, rng in zip(masks, rngs, strict=True):
            legal = mask.nonzero()[0]
            out.append(int(legal[int(rng.random() * len(legal))]))
        return out

    @staticmethod
    def _greedy(games: Any, listed: npt.NDArray[np.int32], rngs: list[random.Random]) -> list[int]:
        native = engine.current()
        assert native is not None
        k = len(listed)
        rows = np.empty((k * native.MAX_LEGAL, NEURAL_RAW_MOVE), np.int32)
        counts = np.empty(k, np.int32)
        games.opponent_inputs(
            listed, np.empty(k, np.int32), np.empty((k, NEURAL_RAW_CONTEXT), np.int32), rows, counts
        )
        out = []
        start = 0
        for n, rng in zip(counts.tolist(), rngs, strict=True):
            block = rows[start : start + n].tolist()
            start += n
            best = max(row[:_MOVE_COLUMN] for row in block)
            ties = [row[_MOVE_COLUMN] for row in block if row[:_MOVE_COLUMN] == best]
            out.append(ties[int(rng.random() * len(ties))])
        return out


class _RuleOpponent(_EpsilonGreedyOpponent):
    """``random`` or ``greedy`` decided here rather than in the engine (a league's member: the
    engine's codes are per seat, not per game), with the draws of
    :class:`~quadropolis.bots.RandomBot` and :class:`~quadropolis.bots.GreedyBot` from the
    single env's generators, from the engine's masks and greedy's values."""

    def moves(
        self, games: Any, listed: npt.NDArray[np.int32], others: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.int64]:
        rngs = [
            self.rng(games, game, seat)
            for game, seat in zip(listed.tolist(), _seats(games, listed, others), strict=True)
        ]
        play = self._random if self.bot.name == "random" else self._greedy
        return np.array(play(games, listed, rngs), np.int64)


def predictor(model: Any) -> Any:
    """An object with SB3's ``predict`` as a batched policy: its deterministic actions for all
    the waiting games at once, with their masks (sb3-contrib's ``action_masks``)."""

    def policy(observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> Any:
        actions, _ = model.predict(observations, action_masks=masks.astype(bool), deterministic=True)
        return np.asarray(actions).astype(np.int64)

    return policy


def _seats(games: Any, listed: npt.NDArray[np.int32], others: npt.NDArray[np.int32]) -> list[int]:
    """The seat to move in each listed waiting game, from its index among the other seats
    (the agent's seat skipped)."""
    return [
        k + (k >= games.agent_seat(game)) for game, k in zip(listed.tolist(), others.tolist(), strict=True)
    ]


def _bot_opponent(bot: str | Bot) -> _BotOpponent:
    """The fastest exact way to play ``bot`` in the batch."""
    if isinstance(bot, str) and bot in NATIVE_OPPONENTS:
        return _RuleOpponent(bot)
    opponent = _BotOpponent(bot)
    return _EpsilonGreedyOpponent(bot) if type(opponent.bot) is EpsilonGreedyBot else opponent


class _PolicyOpponent:
    """A policy called on a batch: ``policy(observations, masks) -> actions``, the observations
    ``(k, 2409)`` float32 from the seat to move (normalised if the env is) and the masks
    ``(k, 121)`` int8 of the ``k`` games waiting for it."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def forget(self) -> None:
        """Nothing kept between moves (the policy keeps what it keeps)."""

    def moves(
        self, games: Any, listed: npt.NDArray[np.int32], others: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.int64]:
        k = len(listed)
        obs = np.empty((k, OBSERVATION_SIZE), np.float32)
        masks = np.empty((k, NUM_ACTIONS), np.int8)
        games.opponent_observe(listed, obs, masks)
        actions = np.asarray(self.policy(obs, masks))
        if actions.shape != (k,) or not np.issubdtype(actions.dtype, np.integer):
            raise BotError(
                f"the opponent policy must return {k} integer actions, "
                f"got shape {actions.shape} of {actions.dtype}"
            )
        return actions.astype(np.int64)
