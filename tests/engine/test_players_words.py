"""Every message a player can read from the engine uses the players' words: the
rulebook's building names, never an identifier such as ``tower_block``.

The illegal-move messages are collected by trying every move of the notation (all 100 takes,
every build square, discard) in every position of random games of both modes and all player
counts, and the descriptions of the legal moves with them."""

from __future__ import annotations

import random
import re

import pytest

from quadropolis import GameConfig, apply, describe_move, explain_illegal, legal_moves, new_game
from quadropolis.buildings import BUILDING_NAMES, BUILDING_PLURALS, KINDS, BuildingType
from quadropolis.moves import MOVES
from quadropolis.state import GameState
from quadropolis.tiles import Mode

#: An identifier in a text: two lowercase words joined by an underscore.
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")


def _states(mode: Mode, players: int, seed: int) -> list[GameState]:
    # Every other game under the variants (their messages differ: R5's replacement).
    odd = seed % 2 == 1
    config = GameConfig(
        mode=mode,
        players=players,
        seed=seed,
        urbanist_blocks="square" if odd else "lines",
        all_parks_absorb=odd,
    )
    state = new_game(config)
    rng = random.Random(seed)
    out = [state]
    while not state.is_over:
        state = apply(state, rng.choice(legal_moves(state)))
        out.append(state)
    return out


@pytest.fixture(scope="module")
def messages() -> set[str]:
    """Every distinct illegal-move message and legal-move description met."""
    found: set[str] = set()
    for i, (mode, players) in enumerate((m, n) for m in Mode for n in (2, 3, 4)):
        for seed in (10 * i, 10 * i + 1):
            for state in _states(mode, players, seed):
                for move in MOVES:
                    reason = explain_illegal(state, move)
                    found.add(reason if reason is not None else describe_move(state, move))
    return found


def test_no_identifier_in_any_engine_message(messages: set[str]) -> None:
    leaks = sorted(m for m in messages if IDENTIFIER.search(m))
    assert not leaks, f"{len(leaks)} messages show identifiers, e.g. {leaks[:3]}"


def test_the_building_messages_were_met_and_name_buildings_in_words(messages: set[str]) -> None:
    """The stacking refusals (R8, R16) were among the messages checked, with the names."""
    assert any("a tower block can only go on a tower block (R8)" in m for m in messages)
    assert any("an office tower can only go on an office tower (R16)" in m for m in messages)
    assert any(re.search(r"is occupied by an? [a-z ]+; an? [a-z ]+ cannot be stacked", m) for m in messages)
    assert any("takes T2 (tower block)" in m for m in messages)
    assert any("the urbanist blocks row" in m for m in messages)
    assert any("(variant: the urbanist blocks only its square)" in m for m in messages)


def test_one_name_table_in_the_rulebook_words() -> None:
    assert [BUILDING_NAMES[t] for t in BuildingType] == [
        "tower block",
        "shop",
        "public service",
        "park",
        "factory",
        "harbor",
        "office tower",
        "monument",
    ]
    assert BUILDING_PLURALS[BuildingType.FACTORY] == "factories"
    assert {k.words for k in KINDS.values() if k.type is BuildingType.PARK} == {"tree park", "playground"}
    assert not any(IDENTIFIER.search(k.words) for k in KINDS.values())
