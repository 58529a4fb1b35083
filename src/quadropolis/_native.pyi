"""The compiled engine (native/binding/module.cpp); docs/native.md describes the field tuple
("Data layout") and the city score tuple. Every function raises ``TypeError`` for an argument
of the wrong type and ``ValueError`` (with a message) for a value out of range or an
impossible state."""

import numpy as np
import numpy.typing as npt

from quadropolis.city import Building
from quadropolis.moves import Move
from quadropolis.scoring import CityScore, Placement

#: The version of the state field tuple layout (bumped on any change).
ABI: int

#: (total, breakdown in scoring.CATEGORIES order, inhabitants_placed, empty_squares,
#: activated, customers as (shop square, customers), absorbing_parks, removed,
#: unused_inhabitants, unused_energy): scoring.CityScore and its Placement.
ScoreTuple = tuple[
    int,
    tuple[int, ...],
    int,
    int,
    tuple[int, ...],
    tuple[tuple[int, int], ...],
    tuple[int, ...],
    tuple[int, ...],
    int,
    int,
]

class State:
    """A game state (one flat C++ struct)."""

    def __init__(self, fields: tuple[int, ...]) -> None:
        """Build a state from its 376 fields, validated completely (ValueError names the
        field and the rule broken)."""
    def fields(self) -> tuple[int, ...]:
        """The 376 fields (the inverse of the constructor)."""
    def copy(self) -> State:
        """An independent copy."""
    def legal_moves(self) -> list[int]:
        """Legal move numbers, in rules.legal_moves' order; empty once the game is over."""
    def apply(self, move: int) -> None:
        """Play move number ``move`` in place; ValueError if it is not legal here."""
    def is_over(self) -> bool: ...
    def current_player(self) -> int:
        """The seat whose action it is (meaningless once the game is over)."""
    def score(self, player: int, all_parks_absorb: bool) -> ScoreTuple:
        """The optimal final score of ``player``'s city as it stands."""
    def random_playout(self, mt: tuple[int, ...]) -> tuple[list[int], tuple[int, ...]]:
        """Play to the end choosing ``legal[int(random() * len(legal))]`` with the MT19937
        state ``mt`` (``random.Random().getstate()[1]``: 624 words and the index); returns
        the move numbers played and the generator's state after them."""
    def random_playout_seeded(self, seed: int | str) -> list[int]:
        """``random_playout`` with ``random.Random(seed)``: an int in the signed 64-bit range
        or a str of at most 256 UTF-8 bytes (ValueError otherwise); returns the move numbers
        played. The generator stays inside."""
    def random_game(self, seed: int | str) -> tuple[list[Move], tuple[CityScore, ...]]:
        """``random_playout_seeded`` then the optimal score of every seat's city (with this
        state's ``all_parks_absorb``), as the Python engine's objects: the moves played and
        the scores. Needs ``use_types`` (RuntimeError before it)."""
    def greedy_values(self) -> list[tuple[tuple[int, ...], int]]:
        """``[(value, move number)]`` of GreedyBot.values, in legal-move order."""
    def search(
        self,
        seed: int,
        iterations: int | None,
        seconds: float | None,
        c: float,
        pw_c: float,
        pw_alpha: float,
        horizon: int | None,
        credit: float,
        bias: float,
        fed: float,
        greed: float,
    ) -> tuple[list[tuple[int, int, float, float, float]], int]:
        """One tree of bots.mcts.search from this state (its seed is replaced by each
        iteration's determinisation), seeded with ``seed`` (0 to 2**63 - 1), for
        ``iterations`` (>= 1) and/or ``seconds`` (>= 0); ``horizon`` None: the mode's
        default; ``fed`` and ``greed`` 0 to 1. The GIL is released while it runs. Returns
        ([(move, visits, summed win share, summed value, summed margin)] of the root's children
        in expansion order, simulations run); the margin is the root player's value less the
        best other player's.
        ValueError for a finished game, no budget or an option out of range."""

def new_state(
    mode: int,
    players: int,
    seed: int,
    first_player: int,
    square_variant: bool,
    all_parks_absorb: bool = False,
) -> State:
    """The state at the start of round 1 (mode 0 Classic, 1 Expert), laid out from ``seed``."""

def score_city(
    mode: int, cells: tuple[int, ...], inhabitants: int, energy: int, all_parks_absorb: bool
) -> ScoreTuple:
    """The optimal score of a city: ``cells`` holds (type or -1, floors, vp, tree) per square
    of the mode's 16 or 20 squares."""

# The RL encoding and the batched env (native/binding/vector_env.cpp). Arrays: C-contiguous
# NumPy arrays of exactly the dtype named (no conversion), written in place; a wrong shape or
# dtype raises TypeError or ValueError.
class Encoding:
    """The observation layout of quadropolis.envs.layout, handed over once: ``parts`` (the
    23 offsets and sizes of observation.hpp's Part enum), the static blocks (24 configurations
    x the static size, bytes), the round blocks (2 modes x 3 player counts x 5 rounds), the
    kind of each tile id (bytes) and the normalisation factors (float32, one a value)."""

    def __init__(
        self,
        parts: tuple[int, ...],
        static_blocks: bytes,
        round_blocks: bytes,
        kind_of_tile: bytes,
        scale: npt.NDArray[np.float32],
    ) -> None: ...
    @property
    def size(self) -> int:
        """The observation's size."""

def encode(
    encoding: Encoding, state: State, observer: int, normalize: bool, out: npt.NDArray[np.float32]
) -> None:
    """Write the observation of ``state`` by seat ``observer`` into ``out`` (float32, size)."""

def action_mask(state: State, out: npt.NDArray[np.int8]) -> None:
    """Write the legal moves of ``state`` as a 0/1 mask into ``out`` (int8, 121)."""

#: The most legal moves of a position; the raw inputs of bots.neural (columns per position
#: and per move).
MAX_LEGAL: int
NEURAL_CONTEXT: int
NEURAL_MOVE: int

class VectorGames:
    """``count`` games stepped together (native/include/quadropolis/vector_env.hpp): mode 0/1,
    ``seat`` -1 (drawn each episode) or a seat, ``opponents`` one per other seat (0 random,
    1 greedy, 2 decided by the caller: a game waits at such an opponent's turn, its outputs
    unwritten, until ``resume`` plays its move), ``scheme`` 0 win_share / 1 margin."""

    def __init__(
        self,
        encoding: Encoding,
        mode: int,
        players: int,
        square_variant: bool,
        all_parks_absorb: bool,
        seat: int,
        opponents: tuple[int, ...],
        scheme: int,
        dense: float,
        illegal_reward: float,
        normalize: bool,
        count: int,
    ) -> None: ...
    @property
    def count(self) -> int: ...
    def reset(
        self,
        seeds: npt.NDArray[np.int64],
        first_seats: npt.NDArray[np.int32],
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        rewards: npt.NDArray[np.float64],
        terminated: npt.NDArray[np.bool_],
        illegal: npt.NDArray[np.bool_],
        seats: npt.NDArray[np.int32],
    ) -> None:
        """Start an episode in every game, game i with seed ``seeds[i]`` (>= 0) and the agent
        in seat ``first_seats[i]`` (-1: the configured seat, or drawn from the game's stream)."""
    def results(
        self,
        scores: npt.NDArray[np.int32],
        winners: npt.NDArray[np.bool_],
        margins: npt.NDArray[np.int32],
        over: npt.NDArray[np.bool_],
    ) -> None:
        """Each game's result where its episode ended by the end of the game and has not
        restarted: ``over[i]``, ``scores[i]`` (each seat's VP), ``winners[i]`` (R13),
        ``margins[i]`` (the agent's VP minus the best other); other rows zeroed."""
    def restart(
        self,
        games: npt.NDArray[np.int32],
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        rewards: npt.NDArray[np.float64],
        terminated: npt.NDArray[np.bool_],
        illegal: npt.NDArray[np.bool_],
        seats: npt.NDArray[np.int32],
    ) -> int:
        """Start now the next episode of each listed game (ascending) whose episode is over,
        as its next step would, writing its outputs; returns the first listed index out of
        order or not over, or -1 (only then does anything start)."""
    def first_illegal(self, actions: npt.NDArray[np.int64]) -> int:
        """The first game (episode not over) whose action is not legal, or -1."""
    def step(
        self,
        actions: npt.NDArray[np.int64],
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        rewards: npt.NDArray[np.float64],
        terminated: npt.NDArray[np.bool_],
        illegal: npt.NDArray[np.bool_],
        seats: npt.NDArray[np.int32],
    ) -> None:
        """One step of every game (a finished game starts its next episode instead)."""
    def waiting(self, games: npt.NDArray[np.int32], opponents: npt.NDArray[np.int32]) -> int:
        """Write the games waiting for a caller-decided opponent (ascending) and that
        opponent's index among the other seats into the first entries of ``games`` and
        ``opponents`` (each ``(count,)``); returns how many."""
    def opponent_inputs(
        self,
        games: npt.NDArray[np.int32],
        seats: npt.NDArray[np.int32],
        context: npt.NDArray[np.int32],
        rows: npt.NDArray[np.int32],
        counts: npt.NDArray[np.int32],
    ) -> None:
        """For the ``k`` listed waiting games: the seat to move, bots.neural's raw context
        ``(k, NEURAL_CONTEXT)`` and move rows (``(k * MAX_LEGAL, NEURAL_MOVE)``, filled one
        game after another, ``counts[i]`` rows for game i)."""
    def opponent_observe(
        self, games: npt.NDArray[np.int32], observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]
    ) -> None:
        """For the ``k`` listed waiting games: the observation from the seat to move and its mask."""
    def resume(
        self,
        games: npt.NDArray[np.int32],
        moves: npt.NDArray[np.int64],
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        rewards: npt.NDArray[np.float64],
        terminated: npt.NDArray[np.bool_],
        illegal: npt.NDArray[np.bool_],
        seats: npt.NDArray[np.int32],
    ) -> int:
        """Play ``moves[k]`` in the k-th listed waiting game (ascending) and carry it on to the
        agent's turn (outputs written), the episode's end or the next such opponent. Returns
        the first k out of order, not waiting or with an illegal move (nothing played), or -1."""
    def state(self, game: int) -> State:
        """A copy of game ``game``'s state."""
    def episode_seed(self, game: int) -> int: ...
    def agent_seat(self, game: int) -> int: ...

def use_types(
    moves: tuple[Move, ...],
    building: type[Building],
    score: type[CityScore],
    placement: type[Placement],
    categories: tuple[str, ...],
) -> None:
    """Hand over the Python engine's types once (quadropolis.native does at import): the
    121 moves by number, the Building class read by ``score_buildings``, the CityScore and
    Placement classes built by ``score_buildings`` and ``State.random_game``, and the 10
    score categories in order. Each class must be defined in Python with the slots named in
    docs/native.md (TypeError otherwise); nothing is kept unless all are valid."""

def score_buildings(
    mode: int,
    buildings: list[Building | None] | tuple[Building | None, ...],
    inhabitants: int,
    energy: int,
    all_parks_absorb: bool,
) -> CityScore:
    """``score_city`` for a list or tuple of the mode's 16 or 20 squares, each a
    ``Building`` (exactly: not a subclass) or None, read in place; the CityScore built
    directly. ValueError for a square holding anything else or a city the validation
    refuses; RuntimeError before ``use_types``."""
