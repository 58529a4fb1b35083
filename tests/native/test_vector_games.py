"""quadropolis._native.VectorGames, the batched env's games, at the binding: arrays of the
wrong shape, dtype or layout are refused before anything is written, seeds and options are
range-checked, and many games of every mode and player count against both native bots step
to their ends and restart (run under ASan/UBSan by scripts/sanitize.sh). What the games are
(the single env's, step for step) is tests/envs/test_vector.py's subject."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from quadropolis import _native as nat
from quadropolis import native
from quadropolis.envs.native_obs import native_encoding

N = 6
#: reset's first seats: -1 everywhere (the configured seat, or drawn from each game's stream)
DRAWN = np.full(N, -1, np.int32)


def _games(
    mode: int = 0, players: int = 2, opponents: tuple[int, ...] = (0,), seat: int = 0
) -> nat.VectorGames:
    return nat.VectorGames(
        native_encoding(native), mode, players, False, False, seat, opponents, 0, 0.5, -9.0, False, N
    )


def _outputs(size: int) -> list[npt.NDArray[Any]]:
    return [
        np.zeros((N, size), np.float32),
        np.zeros((N, 121), np.int8),
        np.zeros(N, np.float64),
        np.zeros(N, np.bool_),
        np.zeros(N, np.bool_),
        np.zeros(N, np.int32),
    ]


@pytest.mark.parametrize("mode", [0, 1])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_step_through_episodes(mode: int, players: int) -> None:
    games = _games(mode, players, tuple(k % 2 for k in range(players - 1)), seat=-1)
    out = _outputs(native_encoding(native).size)
    obs, masks, rewards, terminated, illegal, seats = out
    games.reset(np.arange(N, dtype=np.int64), DRAWN, *out)
    rng = np.random.default_rng(players)
    ended = 0
    for step in range(200):
        actions = (rng.random((N, 121)) * masks).argmax(1).astype(np.int64)
        if step % 50 == 49:
            actions[step % N] = 121  # out of range: ends that game's episode
        games.step(actions, *out)
        ended += int(terminated.sum())
        assert ((seats >= 0) & (seats < players)).all()
        assert (masks[terminated] == 1).all() and (masks[~terminated].sum(1) > 0).all()
        assert (rewards[illegal] == -9.0).all()
    assert ended >= N and obs.any()


def test_bad_arrays_are_refused() -> None:
    games = _games()
    size = native_encoding(native).size
    seeds = np.zeros(N, np.int64)
    for k, wrong in [
        (0, np.zeros((N, size - 1), np.float32)),
        (0, np.zeros((N + 1, size), np.float32)),
        (1, np.zeros(N * 121, np.int8)),
        (2, np.zeros(N - 1, np.float64)),
        (5, np.zeros((N, 1), np.int32)),
    ]:
        out = _outputs(size)
        out[k] = wrong
        with pytest.raises(ValueError, match="shape"):
            games.reset(seeds, DRAWN, *out)
    for k, wrong in [
        (0, np.zeros((N, size), np.float64)),
        (3, np.zeros(N, np.int8)),
        (5, np.zeros(N, np.int64)),
    ]:
        out = _outputs(size)
        out[k] = wrong
        with pytest.raises(TypeError):
            games.reset(seeds, DRAWN, *out)
    out = _outputs(size)
    with pytest.raises(ValueError, match="non-negative"):
        games.reset(np.full(N, -1, np.int64), DRAWN, *out)
    with pytest.raises(ValueError, match="seeds must have shape"):
        games.reset(np.zeros(N + 1, np.int64), DRAWN, *out)
    games.reset(seeds, DRAWN, *out)
    with pytest.raises(ValueError, match="actions must have shape"):
        games.step(np.zeros(N - 1, np.int64), *out)
    with pytest.raises(TypeError):
        games.step(np.zeros(N, np.int32), *out)
    extreme = np.array([-(2**63), 2**63 - 1, -1, 121, 100, 120], np.int64)  # no build nor discard yet
    assert games.first_illegal(extreme) == 0
    games.step(extreme, *out)
    assert out[4].all()  # every action illegal: every episode ended
    for i in (-1, N):
        with pytest.raises(ValueError, match="game must be"):
            games.state(i)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ({"mode": 2}, "mode"),
        ({"players": 5}, "players"),
        ({"seat": 2}, "seat"),
        ({"seat": -2}, "seat"),
        ({"opponents": (0, 0)}, "opponents"),
        ({"opponents": (3,)}, "opponent"),
        ({"opponents": (-1,)}, "opponent"),
    ],
)
def test_bad_options_are_refused(args: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        _games(**args)
    with pytest.raises(ValueError, match="count"):
        nat.VectorGames(native_encoding(native), 0, 2, False, False, 0, (0,), 0, 0.0, 0.0, False, 0)


def test_caller_decided_opponents_wait_and_refuse_bad_moves() -> None:
    """Seat 1 decided by the caller: every game waits at its turn; resume refuses a game out of
    order, a game not waiting and an illegal move before playing anything."""
    games = _games(opponents=(2,), seat=1)  # the opponent, in seat 0, moves first
    out = _outputs(native_encoding(native).size)
    games.reset(np.arange(N, dtype=np.int64), DRAWN, *out)
    waiting, which = np.zeros(N, np.int32), np.full(N, -1, np.int32)
    assert games.waiting(waiting, which) == N and list(waiting) == list(range(N)) and not which.any()
    masks = np.zeros((N, 121), np.int8)
    games.opponent_observe(waiting, np.zeros((N, out[0].shape[1]), np.float32), masks)
    legal = masks.argmax(1).astype(np.int64)
    before = [games.state(i).fields() for i in range(N)]
    assert games.resume(waiting[::-1].copy(), legal[::-1].copy(), *out) == 1  # out of order
    illegal = legal.copy()
    illegal[3] = 120
    assert games.resume(waiting, illegal, *out) == 3
    assert [games.state(i).fields() for i in range(N)] == before  # nothing played
    assert games.resume(waiting, legal, *out) == -1
    while (k := games.waiting(waiting, which)) > 0:  # its build follows its take
        games.opponent_observe(waiting[:k].copy(), np.zeros((k, out[0].shape[1]), np.float32), masks[:k])
        assert games.resume(waiting[:k].copy(), masks[:k].argmax(1).astype(np.int64), *out) == -1
    assert (out[5] == 1).all() and all(games.state(i).fields() != before[i] for i in range(N))
    assert games.resume(np.zeros(1, np.int32), legal[:1], *out) == 0  # not waiting
    with pytest.raises(ValueError, match="not waiting"):
        games.opponent_inputs(
            np.zeros(1, np.int32),
            np.zeros(1, np.int32),
            np.zeros((1, nat.NEURAL_CONTEXT), np.int32),
            np.zeros((nat.MAX_LEGAL, nat.NEURAL_MOVE), np.int32),
            np.zeros(1, np.int32),
        )
    with pytest.raises(ValueError, match="out of range"):
        games.resume(np.array([N], np.int32), legal[:1], *out)


def test_first_seats_and_restart() -> None:
    """reset seats each game's first episode where asked (and refuses a seat out of range);
    restart starts the next episode of finished games only, listed in ascending order, and
    refuses anything else before starting any."""
    games = _games(players=3, opponents=(0, 1), seat=-1)
    out = _outputs(native_encoding(native).size)
    seats = out[5]
    first = np.array([2, 0, 1, -1, 2, 0], np.int32)
    games.reset(np.arange(N, dtype=np.int64), first, *out)
    assert [int(seats[i]) for i in (0, 1, 2, 4, 5)] == [2, 0, 1, 2, 0]
    for bad in (np.full(N, 3, np.int32), np.full(N, -2, np.int32)):
        with pytest.raises(ValueError, match="first seat"):
            games.reset(np.arange(N, dtype=np.int64), bad, *out)
    with pytest.raises(ValueError, match="seats must have shape"):
        games.reset(np.arange(N, dtype=np.int64), np.full(N + 1, -1, np.int32), *out)
    assert games.restart(np.array([0], np.int32), *out) == 0  # still playing
    actions = np.full(N, 121, np.int64)  # out of range: every episode ends
    games.step(actions, *out)
    assert out[3].all()
    before = [games.episode_seed(i) for i in range(N)]
    assert games.restart(np.array([3, 1], np.int32), *out) == 1  # out of order
    assert games.restart(np.array([1, 1], np.int32), *out) == 1  # twice
    assert [games.episode_seed(i) for i in range(N)] == before  # nothing started
    assert games.restart(np.array([1, 3], np.int32), *out) == -1
    after = [games.episode_seed(i) for i in range(N)]
    assert after[1] != before[1] and after[3] != before[3] and after[0] == before[0]
    assert not out[3][1] and not out[3][3] and out[3][0]  # restarted games are playing
    assert 0 < out[1][1].sum() < 121 and (out[1][0] == 1).all()
