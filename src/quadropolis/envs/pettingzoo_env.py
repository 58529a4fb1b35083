"""``quadropolis_v1``: the PettingZoo AEC env, every seat an agent.

Create it with ``pettingzoo.make("aec", "quadropolis_v1", **options)`` (registered when
``quadropolis.envs`` is imported) or ``from quadropolis.envs import quadropolis_v1;
quadropolis_v1.env(**options)``. ``raw_env`` is the env without PettingZoo's wrappers.

==================  =============================================================================
Agents              ``player_0`` ... ``player_{n-1}`` (seat numbers; ``player_0`` holds the mayor
                    in round 1); an agent acts twice in a row when it takes a building (take,
                    then build or discard)
Action space        ``Discrete(121)`` (:mod:`quadropolis.envs.encoding`: takes 0-99, builds
                    100-119, discard 120)
Observation space   ``Dict(observation=Box(0, high, (2409,), float32), action_mask=Box(0, 1, (121,),
                    int8))``: the observing agent's view, seats relative to it
                    (:data:`~quadropolis.envs.encoding.LAYOUT`); ``Box(0, 1, ...)`` with
                    ``normalize=True`` (each value divided by its bound)
Global state        ``state()``: the position seen from ``player_0`` (absolute seats, the same
                    encoding, normalised with ``normalize``) for a centralised critic (MAPPO...);
                    ``state_space``
Action mask         the observing agent's legal actions; all zeros for an agent not to move and
                    once the game is over (PettingZoo's classic convention)
Rewards             at the end of the game, to every agent: ``reward="win_share"`` (R13: 1, 1/k
                    for a k-way tie, 0) or ``"margin"`` (own VP minus the best other VP); plus, if
                    ``dense_reward=c`` is not 0, ``c`` times the change of an agent's exact
                    projected score at each of its builds
Illegal actions     ``env()`` ends the game giving the offender ``illegal_reward`` (PettingZoo's
                    ``TerminateIllegalWrapper``), by default the lowest return a legal finish can
                    bring (:func:`~quadropolis.envs.rewards.illegal_reward`: 0 for ``win_share``,
                    -337 Classic and -773 Expert for ``margin``); ``raw_env`` raises
                    ``IllegalMoveError``
Render modes        ``"ansi"`` returns the engine's text board (the seed hidden); ``"human"`` prints
                    it; ``"rgb_array"``: an H x W x 3 ``uint8`` picture of the table
==================  =============================================================================

Options: ``mode`` (``"classic"`` | ``"expert"``), ``players`` (2-4), ``reward``,
``dense_reward``, ``illegal_reward``, ``normalize``, ``render_mode``, ``urbanist_blocks``,
``all_parks_absorb``. ``reset(seed=S)`` plays the engine's game with seed ``S``; ``reset()``
draws a seed from a generator that the last seeded reset re-seeded. With the compiled engine
selected, the observations and masks are computed natively from the game's native twin
(:class:`~.native_obs.NativeTwin`): the same values.

**The parallel API.** Quadropolis is strictly turn-based, so there is no ``parallel_env`` of
its own; PettingZoo's ``pettingzoo.utils.conversions.turn_based_aec_to_parallel(env())``
gives one (it passes ``parallel_api_test``): at every step all agents are in the dict, the
one to move acts (its mask has its legal actions) and every other agent's action is ignored
(its mask is all zeros; send any action, e.g. 0).

Version history: v1 (``quadropolis_v1``): ``env()``'s illegal action is worth the scheme's
lower bound by default (was -1, which beat losing under ``margin``); new options
``illegal_reward``, ``normalize`` and ``render_mode="rgb_array"``, ``state()``. v0, first
release.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..bots import observe
from ..config import GameConfig
from ..errors import ConfigError, IllegalMoveError, QuadropolisError
from ..phases import OVER
from ..rules import new_game
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
from .opponents import normalizer
from .rewards import check_illegal_reward

ObsDict = dict[str, npt.NDArray[Any]]


class QuadropolisAEC(AECEnv[str, ObsDict, int]):  # type: ignore[misc]  # pettingzoo is untyped
    """The raw AEC env (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "quadropolis_v1",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        mode: str = "classic",
        players: int = 2,
        reward: str = "win_share",
        dense_reward: float = 0.0,
        illegal_reward: float | None = None,
        normalize: bool = False,
        render_mode: str | None = None,
        urbanist_blocks: str = "lines",
        all_parks_absorb: bool = False,
    ) -> None:
        super().__init__()
        game_mode = Mode.parse(mode)
        self._base = GameConfig(
            mode=game_mode,
            players=players,
            urbanist_blocks=urbanist_blocks,
            all_parks_absorb=all_parks_absorb,
        )
        self.reward_scheme = check_reward(reward)
        self.dense_reward = float(dense_reward)
        #: What ``env()``'s ``TerminateIllegalWrapper`` gives an illegal action (the raw env raises).
        self.illegal_reward = check_illegal_reward(
            game_mode, self.reward_scheme, self.dense_reward, illegal_reward
        )
        self.normalize = bool(normalize)
        self._scale = normalizer() if self.normalize else None
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        high = np.ones(OBSERVATION_SIZE, np.float32) if self.normalize else observation_high()
        #: The space of :meth:`state`.
        self.state_space = spaces.Box(0.0, high, (OBSERVATION_SIZE,), np.float32)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents
        }
        self._encoder = Encoder()
        # With the compiled engine selected (at reset): the game's native twin, which computes
        # the observations and masks (the same values).
        self._twin: NativeTwin | None = None
        self._seeds = np.random.default_rng()
        self._state: GameState | None = None
        self._episode: Episode | None = None  # the mask check, the moves and the rewards
        self._mask: npt.NDArray[np.int8] | None = None
        self._rewarded = False

    # --- PettingZoo API --------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(2**62))
        config = GameConfig(
            mode=self._base.mode,
            players=self._base.players,
            seed=game_seed,
            urbanist_blocks=self._base.urbanist_blocks,
            all_parks_absorb=self._base.all_parks_absorb,
        )
        self._state = new_game(config)
        self._twin = NativeTwin.start(config, self.normalize)
        self._episode = Episode(self._state, self.reward_scheme, self.dense_reward, self.illegal_reward)
        self._encoder.reset()
        self._mask = None
        self._rewarded = False  # whether self.rewards may hold a non-zero value
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_player]

    def observe(self, agent: str) -> ObsDict:
        state = self._state
        if state is None:
            raise QuadropolisError("call reset() first")
        seat = self._seat[agent]
        if state.phase != OVER and seat == state.current_player:
            mask = (self._current_mask() if self._mask is None else self._mask).copy()
        else:
            mask = np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": self._encode(state, seat), "action_mask": mask}

    def state(self) -> npt.NDArray[np.float32]:
        """The global state for a centralised critic: the position seen from ``player_0``
        (absolute seats; normalised with ``normalize``), in :attr:`state_space`. Public
        information only, like every observation."""
        return self._encode(self._require_state(), 0)

    def _encode(self, state: GameState, seat: int) -> npt.NDArray[np.float32]:
        if self._twin is not None:
            return self._twin.encode(seat)
        obs = self._encoder.encode(state, seat)
        if self._scale is not None:
            obs *= self._scale
        return obs

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self._episode
        if episode is None:
            raise QuadropolisError("call reset() first")
        if action is None:
            raise IllegalMoveError(f"{agent} must act: None is only for agents whose game is over")
        mask = self._current_mask() if self._mask is None else self._mask  # observed: known
        try:
            shaped = episode.play(self._seat[agent], int(action), mask)
        except IllegalMoveError as e:
            raise IllegalMoveError(f"{agent}: {e}") from None
        if self._twin is not None:
            self._twin.play(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # most steps reward nothing: skip clearing zeros and adding them
            self._clear_rewards()
            self._rewarded = False
        self._mask = None
        if shaped is not None:
            self.rewards[agent] += shaped
            self._rewarded = True
        state = episode.state
        if state.phase == OVER:
            result, rewards = episode.final()
            for p, r in enumerate(rewards):
                self.rewards[self.possible_agents[p]] += r
            self._rewarded = True
            self.terminations = dict.fromkeys(self.agents, True)
            for ag in self.agents:
                self.infos[ag] = {"scores": result.totals, "winners": result.winners}
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        if self.render_mode is None or self._state is None:
            return None
        if self.render_mode == "rgb_array":
            from .picture import table_picture  # Pillow: imported only by who draws

            return table_picture(self._state)
        text = str(observe(self._state))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # --- extras ----------------------------------------------------------------------------

    @property
    def state_of_game(self) -> GameState:
        """The engine's state (with its seed: do not show it to the agents)."""
        return self._require_state()

    def _require_state(self) -> GameState:
        if self._state is None:
            raise QuadropolisError("call reset() first")
        return self._state

    def _current_mask(self) -> npt.NDArray[np.int8]:
        # observe() and step() both need the mask of the same position: compute it once. It
        # is read-only and shared: observe() hands out copies.
        if self._mask is None:
            twin = self._twin
            self._mask = shared_action_mask(self._require_state()) if twin is None else twin.mask()
        return self._mask


def raw_env(**options: Any) -> QuadropolisAEC:
    """The AEC env without wrappers (``IllegalMoveError`` on an illegal action)."""
    return QuadropolisAEC(**options)


def env(**options: Any) -> AECEnv[str, ObsDict, int]:
    """The AEC env with PettingZoo's standard wrappers: an illegal action ends the game with
    the raw env's ``illegal_reward`` for the offender (``TerminateIllegalWrapper``; by default
    the scheme's lower bound), out-of-range actions are asserted and the call order is
    enforced."""
    raw = raw_env(**options)
    e: AECEnv[str, ObsDict, int] = wrappers.TerminateIllegalWrapper(raw, illegal_reward=raw.illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


__all__ = ["QuadropolisAEC", "env", "raw_env"]
