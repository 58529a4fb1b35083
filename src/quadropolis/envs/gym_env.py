"""``Quadropolis-v1``: the Gymnasium single-agent env. The agent holds one seat; bots
(:func:`quadropolis.bots.make_bot` specs) play the others.

=================  ==============================================================================
Action space       ``Discrete(121)``: see :mod:`quadropolis.envs.encoding` (takes 0-99, builds
                   100-119, discard 120)
Observation space  ``Box(0, high, (2409,), float32)``, the agent's view (:data:`~.encoding.LAYOUT`);
                   ``Box(0, 1, ...)`` with ``normalize=True`` (each value divided by its bound)
Action mask        ``info["action_mask"]`` (int8, 121) with every observation, and the method
                   ``action_masks()`` (sb3-contrib's ``MaskablePPO`` calls it); **all ones** once
                   the episode is over (pgx's convention: under Gymnasium's default ``NEXT_STEP``
                   autoreset the next action is ignored, and a masked categorical over an
                   all-zeros mask is all ``-inf``, which gives NaN probabilities)
Global state       ``state()``: the position seen from seat 0 (absolute seats, the same encoding;
                   normalised with ``normalize``) for a centralised critic; ``state_space``
Reward             at the end of the game: ``reward="win_share"`` (R13: 1, 1/k for a k-way tie, 0)
                   or ``"margin"`` (own VP minus the best other VP); plus, if ``dense_reward=c``
                   is not 0, ``c`` times the change of the agent's exact projected score at each
                   of its builds (the changes add up to ``c`` times its final score). An illegal
                   action: ``illegal_reward``, by default the lowest return a legal finish can
                   bring (:func:`~.rewards.illegal_reward`: 0 for ``win_share``, -337 Classic and
                   -773 Expert for ``margin``, lower with dense rewards); a higher one is refused
Episode            one game; ``terminated`` at its end; never truncated
=================  ==============================================================================

Options (``gymnasium.make("Quadropolis-v1", **options)``): ``mode`` (``"classic"`` |
``"expert"``), ``players`` (2-4), ``seat`` (the agent's seat, or ``None`` for a seat drawn each
episode), ``opponents`` (one opponent for every other seat, or a list, one per other seat in
seat order; default ``"random"``; an opponent is a bot spec, a :class:`~quadropolis.bots.Bot`
or a policy, see :mod:`.opponents`; MCTS bots run in this process; :meth:`set_opponents`
changes them from the next reset, as :class:`~.selfplay.SelfPlay` does), ``reward``,
``dense_reward``, ``illegal_action`` (``"terminate"``: an action outside the mask ends the
episode with ``illegal_reward`` and ``info["illegal_action"] = True``; ``"raise"``:
:class:`~quadropolis.IllegalMoveError`), ``normalize`` (observations in [0, 1]),
``render_mode`` (``"ansi"``: the engine's text board with the seed hidden; ``"human"``:
printed; ``"rgb_array"``: an H x W x 3 ``uint8`` picture of the table, :mod:`.picture`;
``None``), ``urbanist_blocks``, ``all_parks_absorb``.

Engines: with the compiled engine selected (:mod:`quadropolis.engine`), each game has a
native twin played move for move with the Python state, and the observations and masks are
computed from it by the compiled encoder (:mod:`.native_obs`): the same values, faster
(tests/envs/test_native_env.py). ``gymnasium.make_vec("Quadropolis-v1", num_envs=N)`` steps N
games in compiled code (:mod:`.vector`).

Seeding: ``reset(seed=S)`` plays the engine's game with seed ``S`` (its layouts), the bot in
seat ``k`` using ``quadropolis.bots.bot_rng(S, k)`` as in ``play_match``; ``reset()`` draws the
game seed from the env's ``np_random``. Same seed and actions, same game.

Version history: v1 (``Quadropolis-v1``): an illegal action is worth the scheme's lower bound by
default (was -1, which beat losing under ``margin``), the mask is all ones once the episode is
over (was all zeros); new options ``normalize`` and ``render_mode="rgb_array"``, ``state()``,
opponents as objects. v0, first release.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Bot, bot_rng, observe
from ..config import GameConfig
from ..errors import ConfigError, IllegalMoveError, QuadropolisError
from ..phases import OVER
from ..rules import apply_unchecked, new_game
from ..state import GameState
from ..tiles import Mode
from .encoding import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    Encoder,
    check_reward,
    observation_high,
    shared_action_mask,
)
from .episode import Episode
from .native_obs import NativeTwin
from .opponents import Opponent, make_opponent, normalizer
from .rewards import check_illegal_reward

ObsType = npt.NDArray[np.float32]

#: The mask once the episode is over: every action (ignored by the autoreset that follows).
_OVER_MASK: Final = np.frombuffer(b"\1" * NUM_ACTIONS, np.int8)


class QuadropolisEnv(gymnasium.Env[ObsType, np.int64]):
    """One seat of a Quadropolis game against bots (see the module docstring)."""

    # gymnasium.Env declares an instance variable, and make() reads the class's
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        mode: str = "classic",
        players: int = 2,
        seat: int | None = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        reward: str = "win_share",
        dense_reward: float = 0.0,
        illegal_action: str = "terminate",
        illegal_reward: float | None = None,
        normalize: bool = False,
        render_mode: str | None = None,
        urbanist_blocks: str = "lines",
        all_parks_absorb: bool = False,
    ) -> None:
        game_mode = Mode.parse(mode)
        # Validates players and the variants.
        self._base = GameConfig(
            mode=game_mode,
            players=players,
            urbanist_blocks=urbanist_blocks,
            all_parks_absorb=all_parks_absorb,
        )
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < players):
            raise ConfigError(f"seat must be None or a seat from 0 to {players - 1}, got {seat!r}")
        self.normalize = bool(normalize)
        self._bots: list[Bot] = []
        self._next_bots: list[Bot] | None = None  # set_opponents(): from the next reset
        self.set_opponents(opponents)
        self.reward_scheme = check_reward(reward)
        self.dense_reward = float(dense_reward)
        if illegal_action not in ("terminate", "raise"):
            raise ConfigError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_reward = check_illegal_reward(
            game_mode, self.reward_scheme, self.dense_reward, illegal_reward
        )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.seat = seat
        high = np.ones(OBSERVATION_SIZE, np.float32) if self.normalize else observation_high()
        self.observation_space = spaces.Box(0.0, high, (OBSERVATION_SIZE,), np.float32)
        #: The space of :meth:`state` (the observation's).
        self.state_space = self.observation_space
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._scale = normalizer() if self.normalize else None
        self._encoder = Encoder()
        self._state: GameState | None = None
        # With the compiled engine selected (at reset): the game's native twin, played move for
        # move with the Python state, from which the observations and masks are computed.
        self._twin: NativeTwin | None = None
        self._episode: Episode | None = None  # the mask check, the moves and the rewards
        self._agent = 0
        self._seats: dict[int, Bot] = {}
        self._rngs: dict[int, random.Random] = {}
        # The legal actions now: read-only, possibly shared (copied wherever it is handed out).
        self._mask: npt.NDArray[np.int8] = np.zeros(NUM_ACTIONS, np.int8)
        self._done = True
        self._moves = 0

    # --- Gymnasium API ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**62))
        n = self._base.players
        if self._next_bots is not None:
            self._bots, self._next_bots = self._next_bots, None
        self._agent = self.seat if self.seat is not None else int(self.np_random.integers(n))
        others = [p for p in range(n) if p != self._agent]
        self._seats = dict(zip(others, self._bots, strict=True))
        self._rngs = {p: bot_rng(game_seed, p) for p in others}
        config = GameConfig(
            mode=self._base.mode,
            players=n,
            seed=game_seed,
            urbanist_blocks=self._base.urbanist_blocks,
            all_parks_absorb=self._base.all_parks_absorb,
        )
        self._state = new_game(config)
        self._twin = NativeTwin.start(config, self.normalize)
        self._episode = Episode(self._state, self.reward_scheme, self.dense_reward, self.illegal_reward)
        self._encoder.reset()
        self._done = False
        self._moves = 0
        self._play_bots()
        obs, info = self._observe()
        if self._state.is_over:  # cannot happen (every seat acts), kept for safety
            self._done = True
        return obs, info

    def step(self, action: np.int64 | int) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        episode = self._episode
        if episode is None or self._done:
            raise QuadropolisError("the episode is over: call reset()")
        state = episode.state
        try:
            shaped = episode.play(self._agent, int(action), self._mask)
            if self._twin is not None:
                self._twin.play(int(action))
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._done = True
            self._mask = _OVER_MASK
            info = self._info()
            info["illegal_action"] = True
            return self._encode(state, self._agent), episode.illegal_reward, True, False, info
        self._moves += 1
        reward = 0.0
        if shaped is not None:
            reward += shaped
        self._play_bots()
        terminated = state.is_over
        obs, info = self._observe()
        if terminated:
            self._done = True
            result, rewards = episode.final()
            reward += rewards[self._agent]
            info["scores"] = result.totals
            info["winners"] = result.winners
        return obs, reward, terminated, False, info

    def render(self) -> Any:
        """``"ansi"``: the text board (str); ``"rgb_array"``: the table as an H x W x 3 uint8
        array (:func:`~.picture.table_picture`); ``"human"``: prints the board; ``None``
        before the first reset or without a render mode."""
        if self._state is None or self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            from .picture import table_picture  # Pillow: imported only by who draws

            return table_picture(self._state, agent=self._agent)
        text = str(observe(self._state))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # --- extras ----------------------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now (bool, 121): the hook of sb3-contrib's ``MaskablePPO``; all
        ones once the episode is over (see the module docstring)."""
        return self._mask.astype(bool)

    def state(self) -> ObsType:
        """The global state for a centralised critic: the position seen from seat 0 (absolute
        seats; normalised with ``normalize``), in :attr:`state_space`. Public information only,
        like every observation."""
        return self._encode(self.game_state, 0)

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """Play the next episodes, from the next :meth:`reset`, against ``opponents`` (one for
        every other seat, or one per other seat in seat order: see the module docstring).
        Policies see observations normalised as the agent's."""
        n = self._base.players
        chosen = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * (n - 1)
        if len(chosen) != n - 1:
            raise ConfigError(f"{n} players need {n - 1} opponent(s), got {len(chosen)}")
        self._next_bots = [make_opponent(o, self.normalize) for o in chosen]

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._base.players

    @property
    def opponents(self) -> list[Bot]:
        """The bots of the other seats in the current episode, in seat order past the agent."""
        return list(self._bots)

    @property
    def game_state(self) -> GameState:
        """The engine's state (with its seed: do not show it to the agent)."""
        if self._state is None:
            raise QuadropolisError("call reset() first")
        return self._state

    @property
    def agent_seat(self) -> int:
        """The agent's seat in the current episode."""
        return self._agent

    @property
    def moves_played(self) -> int:
        """Moves applied in the current episode, the bots' included."""
        return self._moves

    # --- internals -------------------------------------------------------------------------

    def _play_bots(self) -> None:
        state = self._state
        assert state is not None
        seats, rngs, twin = self._seats, self._rngs, self._twin
        while state.phase != OVER:
            p = state.current_player
            bot = seats.get(p)
            if bot is None:
                break
            move = bot.choose(observe(state), rngs[p])
            apply_unchecked(state, move)
            if twin is not None:
                twin.play(move)
            self._moves += 1

    def _observe(self) -> tuple[ObsType, dict[str, Any]]:
        """The agent's observation and info now (the mask updated): one call per step."""
        state = self._state
        assert state is not None
        if state.phase == OVER:
            mask = _OVER_MASK
        elif self._twin is not None:
            mask = self._twin.mask()
        else:
            mask = shared_action_mask(state)
        self._mask = mask
        return self._encode(state, self._agent), {"action_mask": mask.copy(), "seat": self._agent}

    def _encode(self, state: GameState, seat: int) -> ObsType:
        if self._twin is not None:  # the twin of state: the same values, computed natively
            return self._twin.encode(seat)
        obs = self._encoder.encode(state, seat)
        if self._scale is not None:
            obs *= self._scale
        return obs

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "seat": self._agent}
