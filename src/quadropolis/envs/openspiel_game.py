"""``python_quadropolis``: Quadropolis as an OpenSpiel python game, registered with
``pyspiel.register_game`` when this module is imported.

Load it with ``pyspiel.load_game("python_quadropolis", {"mode": "expert", "players": 3})`` (or
:func:`load`). Parameters: ``mode`` (``"classic"`` | ``"expert"``), ``players`` (2-4),
``reward`` (``"win_share"``: R13 win share, 1/k for a k-way tie, constant-sum 1;
``"margin"``: own VP minus the best other VP, zero-sum with 2 players), ``urbanist_blocks``
(``"lines"`` | ``"square"``), ``all_parks_absorb`` (bool).

================  ==============================================================================
Dynamics          sequential; chance explicit and stochastic; terminal rewards only
Chance            the deal of each round's 25 tiles, one square at a time in row-major order
                  (r1c1, r1c2, ... r5c5): the outcome is a tile id (0-141) among the round's
                  tiles not dealt yet, each with probability 1/k. Round 1 is dealt before the
                  first action, each later round right after the last action of the previous one
Players' actions  the 121 actions of :mod:`quadropolis.envs.encoding` (takes 0-99, builds
                  100-119, discard 120)
Information       imperfect: which face-down tile (R4) lies on which square is dealt by chance
                  but seen by nobody. Everything else is public
Observation       tensor: the observation vector of :mod:`quadropolis.envs.encoding` for the
                  player (2409 floats, named views = its ``LAYOUT``); string: the compact
                  one-line text (``observation_text``)
Information state tensor: the same vector (the public position is a sufficient statistic of the
                  history: every action is public, and face-down tiles never matter); string:
                  the player and the public history (moves in the engine's notation, dealt
                  tiles by kind, ``##`` for a face-down tile), so it has perfect recall
Serialization     the action history (OpenSpiel's default), replayed on deserialization
================  ==============================================================================

``resample_from_infostate`` deals the face-down tiles of the rounds played so far to their
squares in a random order (with the sampler's numbers) and replays the history: a state with
the same information state for every player. Face-up tiles of the same kind are
interchangeable, so their ids are kept.

:func:`engine_state` gives the engine's :class:`~quadropolis.GameState` (seed hidden, its
``config.seed`` is 0) of an OpenSpiel state; :func:`chance_actions_for_seed` the chance outcomes
that deal a round as the engine lays it out from a seed, so the engine's games can be replayed
here exactly. ``apply_action`` trusts its action, as OpenSpiel's games do
(``apply_action_with_legality_check`` checks it against ``legal_actions()``).

Search with OpenSpiel's Python bots (``open_spiel.python.algorithms.mcts.MCTSBot``,
``ismcts.ISMCTSBot``), or with its C++ ``pyspiel.MCTSBot`` through :func:`mcts_action`
(``bot.mcts_search(state)``), never its ``step``: in open-spiel 2.0.2 the binding of
``MCTSBot.step`` (and ``ISMCTSBot.step``) releases the GIL for the search, and the search
clones the python state with ``PyState::Clone``, which calls Python (``import copy``, a
``deepcopy`` of the state's attributes) without taking the GIL back: a segmentation fault in
``PyImport_Import`` on every python game, OpenSpiel's own ``python_tic_tac_toe`` included.
``mcts_search`` is bound without releasing the GIL, runs the same search, and ``step``'s
choice is its root's ``best_child()``. ``pyspiel.ISMCTSBot`` cannot play a python game at all:
besides ``step``'s crash, its search calls ``ResampleFromInfostate``, which OpenSpiel's C++
trampoline for python states does not forward to Python (``get_policy`` fails with
"ResampleFromInfostate() not implemented"); only a C++ game would serve it. The C++ MCTS
searches the true state it is given (face-down tiles included), as the Python ``MCTSBot``
does: a perfect-information search. OpenSpiel's docs warn that python games are slow for
search: our own bots call the engine directly.

Bounds (from the rules, not from samples): ``max_game_length()`` is rounds x 4 turns x
players x 2 actions (a take, then its build or discard); ``max_chance_nodes_in_history()`` is
rounds x 25 deals; ``max_history_length()`` and ``max_move_number()`` are their sum (Classic
2 players: 64 + 100 = 164; Expert 2 players: 80 + 125 = 205).

**Speed.** ``state.observation_tensor()`` returns a new list at every call, through
OpenSpiel's C++ layer; for a learner in Python, ``make_observation(game)`` (from
``open_spiel.python.observation``) with ``observation.set_from(state, player)`` fills one numpy
array in place through :class:`QuadropolisObserver` (the same vector) and is about 26 times
faster (2.3 against 60 microseconds a call, measured 2026-11-25). OpenSpiel's PyTorch
algorithms (``open_spiel.python.pytorch``) need ``dm-tree``, in the ``rl`` extra.

Version history: v1: true ``max_history_length``/``max_move_number`` (the deals counted:
they were understated, 128 and 160 for 2-player Classic and Expert). v0, first release.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from ..config import GameConfig
from ..deal import deal_tile, seeded_deal, start_deal, undealt
from ..errors import ConfigError
from ..moves import MOVES
from ..phases import OVER
from ..render import tile_label
from ..rules import apply_unchecked, new_game
from ..state import GameState
from ..tiles import ROUNDS, TILES, Mode
from .encoding import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    REWARDS,
    Encoder,
    action_to_move,
    legal_actions,
    observation_text,
    reward_bounds,
    views,
)
from .episode import end_rewards

SHORT_NAME: Final = "python_quadropolis"
#: The seed of the engine's state: layouts come from chance, so the seed is never used (and
#: it is the one ``quadropolis.bots.observe`` shows).
_SEED: Final = 0
DEFAULTS: Final[dict[str, Any]] = {
    "mode": "classic",
    "players": 2,
    "reward": "win_share",
    "urbanist_blocks": "lines",
    "all_parks_absorb": False,
}
_Type = pyspiel.GameType
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_LABEL: Final = tuple(tile_label(t.id) for t in TILES)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_NOTATION: Final = tuple(str(m) for m in MOVES)  # of each action


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Quadropolis",
        dynamics=_Type.Dynamics.SEQUENTIAL,
        chance_mode=_Type.ChanceMode.EXPLICIT_STOCHASTIC,
        information=_Type.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=_Type.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


_REGISTERED_TYPE: Final = _game_type(_Type.Utility.GENERAL_SUM)


class QuadropolisGame(pyspiel.Game):  # type: ignore[misc]
    """The game (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        mode = Mode.parse(p["mode"])
        self.config = GameConfig(
            mode=mode,
            players=int(p["players"]),
            seed=_SEED,
            urbanist_blocks=str(p["urbanist_blocks"]),
            all_parks_absorb=bool(p["all_parks_absorb"]),
        )
        if p["reward"] not in REWARDS:
            raise ConfigError(f"reward must be one of {', '.join(REWARDS)}, got {p['reward']!r}")
        self.reward_scheme: str = p["reward"]
        n = self.config.players
        low, high = reward_bounds(mode, self.reward_scheme)
        if self.reward_scheme == "win_share":
            utility, total = _Type.Utility.CONSTANT_SUM, 1.0
        elif n == 2:
            utility, total = _Type.Utility.ZERO_SUM, 0.0
        else:
            utility, total = _Type.Utility.GENERAL_SUM, None
        rounds = ROUNDS[mode]
        #: Chance nodes in any history: every round deals its 25 squares one by one.
        self.max_chance_nodes = rounds * 25
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(TILES),
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            # players' actions only: a round has 4 turns, each seat acting once in each (a take
            # and its build or discard); the deals are chance nodes (max_chance_nodes_in_history)
            max_game_length=rounds * 4 * n * 2,
        )
        super().__init__(_game_type(utility), info, p)

    def max_chance_nodes_in_history(self) -> int:
        """Every round's 25 deals (:attr:`max_chance_nodes`). GameInfo cannot declare it, and
        OpenSpiel's default for a python game (``max_game_length``) understates it: it is what
        ``max_history_length()`` and ``max_move_number()`` add to ``max_game_length``."""
        return self.max_chance_nodes

    def new_initial_state(self) -> QuadropolisState:
        return QuadropolisState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> QuadropolisObserver:
        return QuadropolisObserver(iig_obs_type, params)


class _Position:
    """What a state holds besides OpenSpiel's history: the engine's state (seed hidden), the
    deal under way, the public history, the player to act and the cached returns. ``clone()``
    deep-copies a state's attributes: this copies itself with the engine's cheap ``copy()``
    (performance)."""

    __slots__ = ("player", "public", "returns", "state", "undealt")

    def __init__(
        self, state: GameState, undealt: list[int], public: list[str], returns: list[float] | None
    ) -> None:
        self.state = state
        self.undealt = undealt  # the round's tiles still to deal, ascending (empty: no deal under way)
        self.public = public  # the public history, for the information-state string
        self.returns = returns
        # OpenSpiel asks for the player to act several times per action: computed once, after
        # each change of the position (see update_player).
        self.player = _CHANCE
        self.update_player()

    def update_player(self) -> None:
        """Recompute :attr:`player`: the chance player while a deal is under way, the
        terminal id once the game is over, else the engine's player to move."""
        state = self.state
        if self.undealt:
            self.player = _CHANCE
        elif state.phase == OVER:
            self.player = _TERMINAL
        else:
            self.player = state.current_player

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(self.state.copy(), self.undealt[:], self.public[:], self.returns)


class QuadropolisState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine's state (seed hidden) plus the deal under way, if any."""

    def __init__(self, game: QuadropolisGame) -> None:
        super().__init__(game)
        # Plain attributes only: clone() deep-copies them (the game object would lose its own).
        self._scheme: str = game.reward_scheme
        state = new_game(game.config)
        start_deal(state)  # round 1 is dealt by chance, not from the seed
        self._p = _Position(state, undealt(state), [], None)

    # --- OpenSpiel hooks -------------------------------------------------------------------

    def current_player(self) -> int:
        return self._p.player

    def _legal_actions(self, player: int) -> list[int]:
        return legal_actions(self._p.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        tiles = self._p.undealt
        return list(zip(tiles, repeat(1.0 / len(tiles))))

    def _apply_action(self, action: int) -> None:
        p = self._p
        state = p.state
        if p.undealt:
            tile = int(action)
            q = deal_tile(state, tile)  # validated (before any change): a tile of this round not dealt yet
            p.undealt.remove(tile)
            p.public.append("##" if state.face_down >> q & 1 else _LABEL[tile])
            if not p.undealt:  # the deal is over (until then, chance acts)
                p.update_player()
            return
        move = action_to_move(action)  # validated, before any change
        rnd = state.round
        try:
            apply_unchecked(state, move)
            p.public.append(_NOTATION[int(action)])
            if state.round != rnd:  # the engine laid the next round out from its (hidden) seed:
                start_deal(state)  # chance deals it instead
                p.undealt = undealt(state)
        finally:  # whatever happened to the position
            p.update_player()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {TILES[action].code} (tile {action})"
        return str(action_to_move(action))

    def is_terminal(self) -> bool:
        return self._p.state.phase == OVER

    def returns(self) -> list[float]:
        p = self._p
        if p.state.phase != OVER:
            return [0.0] * p.state.config.players
        if p.returns is None:
            p.returns = end_rewards(p.state, self._scheme)[1]
        return list(p.returns)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> QuadropolisState:
        """A state with the same information state: the face-down tiles dealt so far in a
        random order (drawn with ``probability_sampler()``, uniform in [0, 1)), the rest of the
        history unchanged, replayed from the start."""
        n = self._p.state.config.players
        actions: list[int] = []
        hidden: dict[int, list[int]] = {}  # round -> positions of its face-down deals
        for k, step in enumerate(self.full_history()):
            a = step.action
            actions.append(a)
            if step.player == _CHANCE and TILES[a].min_players > n:
                hidden.setdefault(TILES[a].round, []).append(k)
        for positions in hidden.values():
            tiles = [actions[k] for k in positions]
            for i in range(len(tiles) - 1, 0, -1):  # Fisher-Yates with the sampler's numbers
                j = min(int(probability_sampler() * (i + 1)), i)
                tiles[i], tiles[j] = tiles[j], tiles[i]
            for k, t in zip(positions, tiles, strict=True):
                actions[k] = t
        new: QuadropolisState = self.get_game().new_initial_state()
        for a in actions:
            new.apply_action(a)
        return new

    def __str__(self) -> str:
        state = self._p.state
        text = str(state)
        if self._p.undealt:
            text += f"\n\ndealing round {state.round}: {25 - len(self._p.undealt)}/25 tiles dealt"
        return text

    # --- extras ----------------------------------------------------------------------------

    @property
    def game_state(self) -> GameState:
        """The engine's state (do not mutate: use ``apply_action``)."""
        return self._p.state

    @property
    def dealing(self) -> bool:
        """True while a round's layout is being dealt (a chance node)."""
        return bool(self._p.undealt)

    @property
    def public_history(self) -> list[str]:
        """The public history (see the information-state string)."""
        return self._p.public


class QuadropolisObserver:
    """Observation and information-state tensors and strings (PyObserver interface)."""

    def __init__(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported, got {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor: npt.NDArray[np.float32] = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = views(self.tensor)
        self._encoder = Encoder()

    def set_from(self, state: QuadropolisState, player: int) -> None:
        self._encoder.encode(state.game_state, player, out=self.tensor)

    def string_from(self, state: QuadropolisState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player} " + " ".join(state.public_history)
        return f"p{player} " + observation_text(state.game_state, player)


pyspiel.register_game(_REGISTERED_TYPE, QuadropolisGame)


def load(params: dict[str, Any] | None = None) -> Any:
    """``pyspiel.load_game("python_quadropolis", params)``."""
    return pyspiel.load_game(SHORT_NAME, params or {})


def engine_state(state: Any) -> GameState:
    """A copy of the engine's state of an OpenSpiel state (the seed hidden)."""
    return state.game_state.copy()  # type: ignore[no-any-return]


def mcts_action(bot: Any, state: Any) -> int:
    """The action OpenSpiel's C++ ``pyspiel.MCTSBot`` chooses in ``state``: its search
    (``bot.mcts_search``) and its root's most visited child, as ``MCTSBot.step`` would choose,
    which crashes on python games (see the module docstring)."""
    return int(bot.mcts_search(state).best_child().action)


def chance_actions_for_seed(config: GameConfig, rnd: int) -> list[int]:
    """The 25 chance outcomes that deal round ``rnd`` as the engine lays it out from
    ``config.seed`` (use them to replay an engine game here)."""
    return seeded_deal(config, rnd)


__all__ = [
    "DEFAULTS",
    "SHORT_NAME",
    "QuadropolisGame",
    "QuadropolisObserver",
    "QuadropolisState",
    "chance_actions_for_seed",
    "engine_state",
    "load",
    "mcts_action",
]
