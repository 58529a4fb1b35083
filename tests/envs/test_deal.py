"""Dealing a round from given outcomes (quadropolis.deal): the hook the OpenSpiel game uses
to model the layout as explicit chance."""

from __future__ import annotations

import random

import pytest
from helpers import game

from quadropolis import GameConfig, Mode, QuadropolisError, apply_unchecked, legal_moves, new_game
from quadropolis.deal import (
    DealError,
    at_round_start,
    deal_complete,
    deal_tile,
    lay_out_from,
    round_tile_ids,
    seeded_deal,
    start_deal,
    undealt,
)
from quadropolis.state import lay_out
from quadropolis.tiles import TILES


@pytest.mark.parametrize(("mode", "players"), [(Mode.CLASSIC, 2), (Mode.EXPERT, 3), (Mode.EXPERT, 4)])
def test_dealing_the_seeded_order_tile_by_tile_gives_the_engines_game(mode: Mode, players: int) -> None:
    config = GameConfig(mode=mode, players=players, seed=77)
    engine = new_game(config)
    dealt = new_game(config)
    start_deal(dealt)
    assert dealt.site == [-1] * 25 and dealt.face_down == 0 and not deal_complete(dealt)
    for k, t in enumerate(seeded_deal(config, 1)):
        assert undealt(dealt) == sorted(undealt(dealt)) and t in undealt(dealt)
        assert deal_tile(dealt, t) == k  # row-major, one square at a time
    assert deal_complete(dealt) and undealt(dealt) == []
    assert dealt == engine  # the same tiles, face down exactly where R4 puts them


def test_lay_out_from_sets_face_down_tiles_by_player_count() -> None:
    s = game(Mode.CLASSIC, 2)
    order = list(reversed(round_tile_ids(Mode.CLASSIC, 1)))
    lay_out_from(s, order)
    assert s.site == order
    for q, t in enumerate(order):
        assert bool(s.face_down >> q & 1) == (TILES[t].min_players > 2)
    assert bin(s.face_down).count("1") == 9  # 25 tiles, 16 face up with 2 players


def test_a_deal_is_refused_once_the_round_has_begun() -> None:
    s = game(Mode.CLASSIC, 2, seed=3)
    assert at_round_start(s)
    apply_unchecked(s, legal_moves(s)[0])
    assert not at_round_start(s)
    before = s.copy()
    with pytest.raises(DealError, match="has begun"):
        start_deal(s)
    with pytest.raises(DealError, match="has begun"):
        lay_out_from(s, round_tile_ids(Mode.CLASSIC, 1))
    assert s == before


def test_bad_deals_are_refused_naming_the_problem() -> None:
    s = game(Mode.CLASSIC, 2)
    start_deal(s)
    round2 = round_tile_ids(Mode.CLASSIC, 2)[0]
    with pytest.raises(DealError, match="not a classic round-1 tile"):
        deal_tile(s, round2)
    first = round_tile_ids(Mode.CLASSIC, 1)[0]
    deal_tile(s, first)
    with pytest.raises(DealError, match="already on the site at r1c1"):
        deal_tile(s, first)
    with pytest.raises(DealError, match="an order of its 25 tiles"):
        lay_out_from(s, round_tile_ids(Mode.CLASSIC, 1)[:24])
    lay_out_from(s, round_tile_ids(Mode.CLASSIC, 1))
    with pytest.raises(DealError, match="site is full"):
        deal_tile(s, first)
    with pytest.raises(DealError, match="rounds 1-4"):
        round_tile_ids(Mode.CLASSIC, 5)
    assert issubclass(DealError, QuadropolisError)


def test_seeded_deal_is_the_engines_layout_of_every_round() -> None:
    config = GameConfig(mode=Mode.EXPERT, players=2, seed=5)
    for rnd in range(1, 6):
        assert seeded_deal(config, rnd) == lay_out(config, rnd)[0]
        assert sorted(seeded_deal(config, rnd)) == list(round_tile_ids(Mode.EXPERT, rnd))


def test_a_dealt_round_plays_on_like_a_seeded_one() -> None:
    # Deal round 2 at the round boundary from the seed's order: the rest of the game matches.
    config = GameConfig(mode=Mode.CLASSIC, players=3, seed=11)
    engine = new_game(config)
    rng = random.Random(1)
    while engine.round == 1:
        apply_unchecked(engine, rng.choice(legal_moves(engine)))
    dealt = engine.copy()
    start_deal(dealt)
    for t in seeded_deal(config, 2):
        deal_tile(dealt, t)
    assert dealt == engine
