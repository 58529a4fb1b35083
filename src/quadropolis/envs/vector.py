"""The batched env: ``num_envs`` games of ``Quadropolis-v1`` stepped together by the compiled
engine, a Gymnasium :class:`~gymnasium.vector.VectorEnv`.

``gymnasium.make_vec("Quadropolis-v1", num_envs=N, vectorization_mode="vector_entry_point",
**options)`` returns :class:`QuadropolisVectorEnv` (the registered ``vector_entry_point``,
:func:`make_vector_env`). Each game is exactly what the single env
(:class:`~.gym_env.QuadropolisEnv`) plays from the same seed and actions: the same observation
encoding (:mod:`.encoding`, computed by :mod:`.native_obs`), the same 121 action numbers, the
same bots with the same generators (``bots.bot_rng``), the same rewards (:mod:`.rewards`),
the same illegal-action handling; tests/envs/test_vector.py compares them step by step.

Options: those of the single env — ``mode``, ``players``, ``seat`` (an int, or ``None``: drawn
at each episode), ``opponents``, ``reward``, ``dense_reward``, ``illegal_action``,
``illegal_reward``, ``normalize``, ``urbanist_blocks``, ``all_parks_absorb`` — except that the
opponents (one for every other seat, or a list) are the engine's native bots ``"random"`` and
``"greedy"``, the learned bot ``"neural"``, batched policies, callables ``(observations,
masks) -> actions`` over all the games waiting for them (``(k, 2409)`` float32 from the seat to
move, normalised if the env is, and ``(k, 121)`` int8; ``k`` integer actions), an object with
stable-baselines3's ``predict`` (a model or a frozen copy of its policy: deterministic actions
for all the waiting games in one call, with their masks), or any other bot
spec or :class:`~quadropolis.bots.Bot` (every rung of :data:`~.ladder.LADDER`:
``greedy:epsilon=E``, ``easy``, ``medium``, search levels with small budgets such as
``mcts:iterations=50``), played game by game in Python with the single env's generators
(``bots.bot_rng(seed, seat)``), so at about the single env's speed for those seats; and
``render_mode`` is ``None``. :meth:`~QuadropolisVectorEnv.set_opponents` changes the
opponents from the next :meth:`~QuadropolisVectorEnv.reset`. A game waits at the turn of
``neural``, of a policy or of a bot played in Python; each step decides all the waiting
games at once (``neural``: the engine writes their raw inputs, one NumPy pass scores every
move, :func:`quadropolis.bots.neural_choose_rows`) until every game is at the agent's turn.
A policy's action outside the mask is a
:class:`~quadropolis.bots.BotError` (nothing played). ``copy`` (default true) returns copies of
the batch's arrays at each call; ``copy=False`` returns the arrays the engine writes in place
at the next call (faster; copy what you keep).

Arrays: observations ``(N, 2409)`` float32, rewards ``(N,)`` float64, terminations and
truncations ``(N,)`` bool (never truncated), ``infos["action_mask"]`` ``(N, 121)`` int8,
``infos["seat"]`` (the agent's seat per game) and ``infos["illegal_action"]`` (the step
ended the game's episode on an illegal action); :meth:`~QuadropolisVectorEnv.action_masks`
gives the masks as bool.

**Autoreset** (option ``autoreset_mode``, a :class:`gymnasium.vector.AutoresetMode` or its
name; ``metadata["autoreset_mode"]`` gives it, Gymnasium's own value): ``NEXT_STEP`` by default,
Gymnasium's default: the step that ends a game's episode returns its last observation, its
final reward and ``terminated=True``, with an all-ones mask (as the single env: a masked
categorical over an all-zeros mask gives NaN); at the game's next step its action is ignored
and its next episode starts (reward 0, ``terminated=False``, the new episode's first
observation and mask). ``SAME_STEP`` (what stable-baselines3 and CleanRL-style loops expect):
the step that ends a game's episode returns its final reward and ``terminated=True`` with the
*next* episode's first observation, mask and seat; the last observation is in
``infos["final_obs"][i]`` and the ended episode's info (``action_mask``, ``seat``,
``illegal_action``) in ``infos["final_info"]``, each with Gymnasium's ``"_"``-prefixed mask of
the games concerned, as ``SyncVectorEnv(..., autoreset_mode=SAME_STEP)`` gives them.

**Results**: in every mode, the step that ends a game's episode by the end of the game gives
``infos["final_scores"]`` ``(N, players)`` int32 (each seat's VP, seat order),
``infos["winners"]`` ``(N, players)`` bool (R13: most VP, then inhabitants placed, then
fewest empty squares) and ``infos["margin"]`` ``(N,)`` int32 (the agent's VP minus the best
other VP), meaningful where ``infos["_final_scores"]`` (the same for ``_winners`` and
``_margin``) is true; an episode ended by an illegal action has none.

**Seeding**: ``reset(seed=S)`` plays game ``i``'s first episode with game seed ``S + i`` (the
seed of ``SyncVectorEnv``'s env ``i``, so the single env's ``reset(seed=S + i)`` plays the
same game; with ``seat=None`` the first episode's seat is drawn as the single env draws it,
from ``np_random`` seeded with ``S + i``, so it is ``SyncVectorEnv``'s seat too),
``reset(seed=[s0, s1, ...])`` one seed per game; game ``i``'s later episodes take
their seeds (and, with ``seat=None``, their seats) from a SplitMix64 stream seeded with its
first seed (:attr:`~QuadropolisVectorEnv.episode_seeds` gives them). ``reset()`` draws the
seeds from the env's ``np_random``. Same seeds and actions, same episodes, bit for bit.

**Bad input**: an action array of the wrong shape or not of integers raises
:class:`~quadropolis.envs.ActionError` (no game moves); an action outside 0-120 or outside the
mask follows ``illegal_action`` as in the single env: ``"terminate"`` ends that game's episode
with ``illegal_reward`` and ``infos["illegal_action"]``; ``"raise"`` raises
:class:`~quadropolis.IllegalMoveError` naming the game and the rule, before any game moves.

**Without the compiled engine** (or with ``QUADROPOLIS_ENGINE=python``), :func:`make_vector_env`
returns Gymnasium's :class:`~gymnasium.vector.SyncVectorEnv` of single envs: the same
observations, masks, rewards and autoreset, at the single env's speed (its later episodes'
seeds come from each env's ``np_random``); :class:`QuadropolisVectorEnv` itself raises
:class:`~quadropolis.ConfigError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import engine
from ..bots import BotError
from ..config import GameConfig
from ..errors import ConfigError, IllegalMoveError, QuadropolisError
from ..tiles import Mode
from .actions import NUM_ACTIONS, ActionError
from .batched_opponents import NATIVE_OPPONENTS, external_opponent
from .episode import refusal
from .layout import OBSERVATION_SIZE, observation_high
from .native_obs import native_encoding
from .rewards import REWARDS, check_illegal_reward, check_reward

__all__ = ["NATIVE_OPPONENTS", "QuadropolisVectorEnv", "make_vector_env"]

_EXTERNAL: Final = 2  # the engine's code of an opponent decided here (vector_env.hpp)
_SEED_LIMIT: Final = 2**63


class QuadropolisVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` games of ``Quadropolis-v1`` stepped by the compiled engine (see the module
    docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1,
        mode: str = "classic",
        players: int = 2,
        seat: int | None = 0,
        opponents: Any = "random",
        reward: str = "win_share",
        dense_reward: float = 0.0,
        illegal_action: str = "terminate",
        illegal_reward: float | None = None,
        normalize: bool = False,
        render_mode: str | None = None,
        urbanist_blocks: str = "lines",
        all_parks_absorb: bool = False,
        copy: bool = True,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        native = engine.current()
        if native is None:
            why = engine.unavailable or "QUADROPOLIS_ENGINE=python"
            raise ConfigError(
                f"the batched env needs the compiled engine ({why}); "
                "gymnasium.make_vec falls back to SyncVectorEnv"
            )
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= 2**20:
            raise ConfigError(f"num_envs must be an int from 1 to {2**20}, got {num_envs!r}")
        config = _config(mode, players, urbanist_blocks, all_parks_absorb)
        if seat is not None and not (type(seat) is int and 0 <= seat < players):
            raise ConfigError(f"seat must be None or a seat from 0 to {players - 1}, got {seat!r}")
        if illegal_action not in ("terminate", "raise"):
            raise ConfigError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        if render_mode is not None:
            raise ConfigError(f"the batched env draws nothing: render_mode must be None, got {render_mode!r}")
        self.num_envs = num_envs
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        # An instance's metadata: the class's says the default
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.seat = seat
        self.reward_scheme = check_reward(reward)
        self.dense_reward = float(dense_reward)
        self.illegal_action = illegal_action
        self.illegal_reward = check_illegal_reward(config.mode, reward, self.dense_reward, illegal_reward)
        self.normalize = bool(normalize)
        self.render_mode = None
        self.copy = bool(copy)
        self._config = config
        self._codes, self._external = _opponents(opponents, players)
        self._next_opponents: Any = None  # set_opponents(): from the next reset
        self._games = self._make_games(native, num_envs)
        self._native = native
        high = np.ones(OBSERVATION_SIZE, np.float32) if self.normalize else observation_high()
        self.single_observation_space = spaces.Box(0.0, high, (OBSERVATION_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        self._obs = np.zeros((n, OBSERVATION_SIZE), np.float32)
        self._masks = np.zeros((n, NUM_ACTIONS), np.int8)
        self._rewards = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)  # never set: a game always ends
        self._illegal = np.zeros(n, np.bool_)
        self._seats = np.zeros(n, np.int32)
        self._waiting = np.zeros(n, np.int32)  # games waiting for a batched opponent
        self._waiting_opponent = np.zeros(n, np.int32)
        # SAME_STEP: where the restarted games' rewards, terminations and illegal flags go (the
        # step's own are kept); never read
        self._scratch = (np.zeros(n, np.float64), np.zeros(n, np.bool_), np.zeros(n, np.bool_))
        self._started = False

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start an episode in every game (seeds: see the module docstring)."""
        seeds = self._seeds(seed)
        if self._next_opponents is not None:
            self._codes, self._external = self._next_opponents
            self._next_opponents = None
            self._games = self._make_games(self._native, self.num_envs)
        for opponent in self._external.values():
            opponent.forget()
        self._games.reset(seeds, self._first_seats(seeds), *self._outputs())
        self._play_opponents(self._outputs())
        self._started = True
        return self._out(self._obs), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One action per game (ignored in a game whose episode ended at the last step)."""
        if not self._started:
            raise QuadropolisError("call reset() first")
        chosen = self._actions(actions)
        if self.illegal_action == "raise":
            i = self._games.first_illegal(chosen)
            if i >= 0:
                a = int(chosen[i])
                raise IllegalMoveError(f"game {i}: action {a}: {refusal(self.game_state(i), a)}")
        self._games.step(chosen, *self._outputs())
        self._play_opponents(self._outputs())
        infos = self._infos()
        ended = np.flatnonzero(self._terminated)
        if len(ended):
            self._results(infos)
            if self.autoreset_mode is AutoresetMode.SAME_STEP:
                self._restart(ended, infos)
        out = self._out
        return (
            out(self._obs),
            out(self._rewards),
            out(self._terminated),
            out(self._truncated),
            infos,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game now, ``(N, 121)`` bool (all ones in a game whose
        episode just ended)."""
        return self._masks.astype(bool)

    def set_opponents(self, opponents: Any) -> None:
        """Play the episodes from the next :meth:`reset` on against ``opponents`` (one for every
        other seat, or one per other seat in seat order; see the module docstring for what an
        opponent may be). Checked now: a bad opponent is a :class:`~quadropolis.ConfigError`
        here, and nothing changes."""
        self._next_opponents = _opponents(opponents, self._config.players)

    @property
    def episode_seeds(self) -> list[int]:
        """Each game's current episode seed (the single env's ``reset(seed=...)`` plays it)."""
        return [self._games.episode_seed(i) for i in range(self.num_envs)]

    def game_state(self, game: int) -> Any:
        """Game ``game``'s state as the Python engine's :class:`~quadropolis.state.GameState`
        (with its seed: do not show it to the agent)."""
        if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game < self.num_envs:
            raise QuadropolisError(f"game must be 0 to {self.num_envs - 1}, got {game!r}")
        return self._native.from_native(self._games.state(game))

    # --- internals -------------------------------------------------------------------------

    def _make_games(self, native: Any, count: int) -> Any:
        """The engine's batch of ``count`` games, with the current opponents."""
        config = self._config
        return native.VectorGames(
            native_encoding(native),
            0 if config.mode is Mode.CLASSIC else 1,
            config.players,
            config.urbanist_blocks == "square",
            config.all_parks_absorb,
            -1 if self.seat is None else self.seat,
            self._codes,
            REWARDS.index(self.reward_scheme),
            self.dense_reward,
            self.illegal_reward,
            self.normalize,
            count,
        )

    def _outputs(self) -> tuple[npt.NDArray[Any], ...]:
        return (self._obs, self._masks, self._rewards, self._terminated, self._illegal, self._seats)

    def _results(self, infos: dict[str, Any]) -> None:
        """Adds the final scores, winners and margins of the games whose episode ended by the
        end of the game at this step to ``infos``, as the engine kept them when it computed the
        final rewards (nothing is scored again here)."""
        n, players = self.num_envs, self._config.players
        scores = np.empty((n, players), np.int32)
        winners = np.empty((n, players), np.bool_)
        margin = np.empty(n, np.int32)
        over = np.empty(n, np.bool_)
        self._games.results(scores, winners, margin, over)
        for key, value in (("final_scores", scores), ("winners", winners), ("margin", margin)):
            infos[key], infos["_" + key] = value, over

    def _restart(self, ended: npt.NDArray[np.intp], infos: dict[str, Any]) -> None:
        """SAME_STEP: starts the next episode of the games in ``ended`` now; their last
        observations and infos go to ``final_obs`` and ``final_info``."""
        n = self.num_envs
        done = self._terminated.copy()
        final_obs = np.full(n, None, dtype=object)
        for i in ended:
            final_obs[i] = self._obs[i].copy()
        infos["final_obs"], infos["_final_obs"] = final_obs, done
        final_info = {key: infos[key] for key in ("action_mask", "seat", "illegal_action")}
        final_info.update({"_" + key: done for key in list(final_info)})
        infos["final_info"], infos["_final_info"] = final_info, done
        outputs = (self._obs, self._masks, *self._scratch, self._seats)
        bad = self._games.restart(np.ascontiguousarray(ended, np.int32), *outputs)
        assert bad < 0, bad  # ended lists finished games, ascending
        self._play_opponents(outputs)
        infos["action_mask"] = self._masks.copy()
        infos["seat"] = self._seats.copy()

    def _first_seats(self, seeds: npt.NDArray[np.int64]) -> npt.NDArray[np.int32]:
        """The agent's seat in each game's first episode: the single env's draw from
        ``np_random`` seeded with the game's seed under ``seat=None``, else -1 (the engine
        uses the fixed seat)."""
        if self.seat is not None:
            return np.full(self.num_envs, -1, np.int32)
        players = self._config.players
        return np.array([seeding.np_random(int(s))[0].integers(players) for s in seeds], np.int32)

    def _play_opponents(self, outputs: tuple[npt.NDArray[Any], ...]) -> None:
        """Plays the batched opponents' moves: all the games waiting for one at once, until
        every game is at the agent's turn or over (the engine writes their outputs then)."""
        while self._external:
            k = self._games.waiting(self._waiting, self._waiting_opponent)
            if k == 0:
                return
            games, which = self._waiting[:k], self._waiting_opponent[:k]
            moves = np.empty(k, np.int64)
            # an opponent given for several seats decides all its waiting games in one call
            for opponent, indexes in _by_object(self._external):
                rows = (
                    np.flatnonzero(np.isin(which, indexes))
                    if len(indexes) < len(self._external)
                    else np.arange(k)
                )
                if len(rows):
                    moves[rows] = opponent.moves(self._games, np.ascontiguousarray(games[rows]), which[rows])
            bad = self._games.resume(np.ascontiguousarray(games), moves, *outputs)
            if bad >= 0:
                raise BotError(
                    f"game {int(games[bad])}: the opponent policy chose action {int(moves[bad])}, "
                    "not a legal action there (see its action mask)"
                )

    def _seeds(self, seed: int | Sequence[int | None] | None) -> npt.NDArray[np.int64]:
        n = self.num_envs
        if seed is None or isinstance(seed, (int, np.integer)):
            if seed is not None:
                _check_seed(seed)
                _check_seed(int(seed) + n - 1)  # the last game's
            super().reset(seed=None if seed is None else int(seed))
            if seed is None:
                return self.np_random.integers(2**62, size=n, dtype=np.int64)
            return np.arange(int(seed), int(seed) + n, dtype=np.int64)
        if isinstance(seed, str) or not isinstance(seed, Sequence) or len(seed) != n:
            raise ConfigError(f"seed must be None, an int or a list of {n} seeds, got {seed!r}")
        return np.array(
            [int(self.np_random.integers(2**62)) if s is None else _check_seed(s) for s in seed], np.int64
        )

    def _actions(self, actions: Any) -> npt.NDArray[np.int64]:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise ActionError(
                f"actions must be {self.num_envs} integers (shape ({self.num_envs},)), "
                f"got shape {a.shape} of {a.dtype}"
            )
        if a.dtype.kind == "u":  # an unsigned value past int64's range is out of range anyway
            a = np.minimum(a, NUM_ACTIONS)
        if a.dtype != np.int64:
            a = a.astype(np.int64)
        return np.ascontiguousarray(a)

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self._masks.copy(),
            "seat": self._seats.copy(),
            "illegal_action": self._illegal.copy(),
        }


def _by_object(external: dict[int, Any]) -> list[tuple[Any, list[int]]]:
    """The distinct opponents decided here, each with its indexes among the other seats."""
    groups: dict[int, tuple[Any, list[int]]] = {}
    for index, opponent in external.items():
        groups.setdefault(id(opponent), (opponent, []))[1].append(index)
    return list(groups.values())


def _autoreset_mode(mode: AutoresetMode | str) -> AutoresetMode:
    """``NEXT_STEP`` or ``SAME_STEP``, given as the enum or its name or value."""
    if isinstance(mode, AutoresetMode):
        chosen = mode
    else:
        by_name = {m.name.lower(): m for m in AutoresetMode} | {
            str(m.value).lower(): m for m in AutoresetMode
        }
        chosen = by_name.get(str(mode).lower(), AutoresetMode.DISABLED)
    if chosen not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        raise ConfigError(f"autoreset_mode must be AutoresetMode.NEXT_STEP or SAME_STEP, got {mode!r}")
    return chosen


def _config(mode: str, players: int, urbanist_blocks: str, all_parks_absorb: bool) -> GameConfig:
    game_mode = Mode.parse(mode)
    # Validates players and the variants.
    return GameConfig(
        mode=game_mode, players=players, urbanist_blocks=urbanist_blocks, all_parks_absorb=all_parks_absorb
    )


def _opponents(opponents: Any, players: int) -> tuple[tuple[int, ...], dict[int, Any]]:
    """The engine's opponent codes, one per other seat (0 random, 1 greedy, 2 decided here),
    and the batched opponents by their index among the other seats."""
    chosen = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * (players - 1)
    if len(chosen) != players - 1:
        raise ConfigError(f"{players} players need {players - 1} opponent(s), got {len(chosen)}")
    codes: list[int] = []
    external: dict[int, Any] = {}
    made: dict[Any, Any] = {}
    for k, o in enumerate(chosen):
        if isinstance(o, str) and o in NATIVE_OPPONENTS:
            codes.append(NATIVE_OPPONENTS.index(o))
            continue
        codes.append(_EXTERNAL)
        external[k] = external_opponent(o, made)
    return tuple(codes), external


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < _SEED_LIMIT:
        raise ConfigError(f"a seed is an int from 0 to 2**63 - 1, got {seed!r}")
    return int(seed)


def make_vector_env(num_envs: int = 1, **options: Any) -> VectorEnv[Any, Any, Any]:
    """The ``vector_entry_point`` of ``Quadropolis-v1``: a :class:`QuadropolisVectorEnv`, or,
    without the compiled engine, a ``SyncVectorEnv`` of single envs (see the module docstring)."""
    if engine.current() is not None:
        return QuadropolisVectorEnv(num_envs, **options)
    options.pop("copy", None)
    autoreset_mode = _autoreset_mode(options.pop("autoreset_mode", AutoresetMode.NEXT_STEP))
    from .gym_env import QuadropolisEnv

    return gymnasium.vector.SyncVectorEnv(
        [lambda: QuadropolisEnv(**options) for _ in range(num_envs)], autoreset_mode=autoreset_mode
    )
