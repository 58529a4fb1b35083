"""Illegal-move reasons as codes and values: every refusal the rules give has a
stable code of ILLEGAL_MESSAGES, its English sentence is made from its values, and the error
raised by either engine carries both."""

from __future__ import annotations

import random

import pytest

from quadropolis import (
    DISCARD,
    ILLEGAL_MESSAGES,
    Build,
    GameConfig,
    GameState,
    IllegalMoveError,
    Mode,
    Move,
    Refusal,
    Take,
    apply,
    apply_unchecked,
    explain_illegal,
    illegal_reason,
    legal_moves,
    new_game,
)
from quadropolis.state import TAKE

#: Every move a client could send, legal or not, in either mode (and a few out of range).
_CANDIDATES: tuple[Move, ...] = (
    *(Take(a, s) for a in range(1, 6) for s in range(20)),
    *(Build(r, c) for r in range(1, 5) for c in range(1, 6)),
    DISCARD,
)


def _refusals_over_games(config: GameConfig, rng: random.Random) -> dict[str, Refusal]:
    """One refusal per code met while trying every candidate move along a random game."""
    seen: dict[str, Refusal] = {}
    state: GameState = new_game(config)
    while True:
        for move in _CANDIDATES:
            refusal = illegal_reason(state, move)
            if refusal is not None:
                seen.setdefault(refusal.reason, refusal)
        moves = legal_moves(state)
        if not moves:
            break
        # Prefer builds to discards so that cities fill up and stacking is refused too.
        builds = [m for m in moves if isinstance(m, Build)]
        apply_unchecked(state, rng.choice(builds or moves))
    for move in _CANDIDATES[:3]:
        refusal = illegal_reason(state, move)
        assert refusal is not None
        seen.setdefault(refusal.reason, refusal)
    return seen


def test_every_refusal_met_in_play_has_a_code_and_its_sentence_is_made_of_its_values() -> None:
    rng = random.Random(22)
    seen: dict[str, Refusal] = {}
    configs = [
        GameConfig(mode=mode, players=players, seed=seed, urbanist_blocks=blocks)
        for mode in Mode
        for players in (2, 4)
        for blocks in ("lines", "square")
        for seed in range(3)
    ]
    for config in configs:
        for code, refusal in _refusals_over_games(config, rng).items():
            seen.setdefault(code, refusal)
    assert set(seen) <= set(ILLEGAL_MESSAGES)
    # Codes only a hand-built move (or a rare city) reaches are tested below; the others are met in play.
    assert set(ILLEGAL_MESSAGES) - set(seen) <= {"not_a_move_kind", "no_such_slot", "max_floors"}
    for refusal in seen.values():
        text = refusal.message
        assert "{" not in text and "_" not in text.replace("a_building", "")
        for value in refusal.params.values():
            if isinstance(value, int):
                assert str(value) in text


def test_hand_built_moves_are_refused_with_their_codes() -> None:
    classic = new_game(GameConfig(players=2, seed=5))
    assert illegal_reason(classic, Take(5, 3)) == Refusal(
        "architect_number", {"architect": "5", "slot": "T4", "mode": "classic", "count": 4}
    )
    off_site = Take(1, 3)
    object.__setattr__(off_site, "slot", 40)  # as a hand-built move could hold
    assert illegal_reason(classic, off_site) == Refusal("no_such_slot", {"move": repr(off_site)})
    assert illegal_reason(classic, DISCARD) == Refusal("must_take", {"player": classic.current_player})

    class Sneaky(Take):
        pass

    refusal = illegal_reason(classic, Sneaky(1, 0))
    assert refusal == Refusal("not_a_move_kind", {"kind": "Sneaky"})


def test_the_error_raised_carries_the_code_and_values_with_the_same_sentence() -> None:
    state = new_game(GameConfig(players=2, seed=7))
    state = apply(state, "1L1")
    if state.phase != TAKE:  # the take left something to place: discard it, then reuse the slot
        state = apply(state, "discard")
    with pytest.raises(IllegalMoveError) as e:
        apply(state, "2L1")
    assert e.value.reason == "slot_taken"
    assert e.value.params == {"architect": 2, "slot": "L1"}
    assert str(e.value) == explain_illegal(state, Move.parse("2L1"))
    assert str(e.value) == "architect #2 at L1: slot L1 already holds an architect this round (R1)"


def test_building_types_travel_as_keys_and_read_as_words() -> None:
    pieces: dict[str, str | int] = {"square": "r1c1", "below": "tower_block", "building": "shop"}
    refusal = Refusal("wrong_stack", {**pieces, "rule": "R8"})
    assert refusal.message == "r1c1 holds a tower block; a shop can only go on a shop (R8)"
    floors = Refusal("max_floors", {"square": "r2c2", "building": "office_tower", "floors": 3})
    assert floors.message == "r2c2: the office tower already has 3 floors, the most allowed"


def test_the_native_engine_raises_the_same_code_and_values() -> None:
    native = pytest.importorskip("quadropolis.native")
    state = new_game(GameConfig(players=2, seed=7))
    ns = native.to_native(state)
    native.apply_native(ns, Move.parse("1L1"))
    python = apply(state, "1L1")
    if python.phase != TAKE:
        native.apply_native(ns, DISCARD)
        python = apply(python, "discard")
    with pytest.raises(IllegalMoveError) as e:
        native.apply_native(ns, Move.parse("2L1"))
    refusal = illegal_reason(python, Move.parse("2L1"))
    assert refusal is not None
    assert (e.value.reason, e.value.params, str(e.value)) == (refusal.reason, refusal.params, refusal.message)
