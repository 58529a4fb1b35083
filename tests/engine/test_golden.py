"""Golden transcripts: seeded games stored as records (tests/engine/golden/) and replayed.

Each record was produced once by ``quadropolis simulate --records``. The test replays it
move by move (every move must still be legal), compares the recorded result, re-checks each
final city against the independent brute-force scorer, and re-runs the seeded random
playout to check it still chooses exactly the same moves (determinism of the layout, of the
order of legal moves and of the playout RNG)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from brute_force import brute_force

from quadropolis import GameRecord, outcome, replay
from quadropolis.moves import Move
from quadropolis.playout import random_playout

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_golden_set_covers_each_mode_with_2_and_4_players() -> None:
    names = {p.name.split("_seed")[0] for p in GOLDEN}
    assert {"classic_2p", "classic_4p", "expert_2p", "expert_4p"} <= names


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_record_replays_to_its_result(path: Path) -> None:
    record = GameRecord.from_json(json.loads(path.read_text()))
    final = replay(record)  # raises on an illegal move or a result mismatch
    assert final.is_over
    out = outcome(final)
    assert record.result is not None
    assert list(out.totals) == record.result["scores"]
    assert list(out.winners) == record.result["winners"]
    for p in range(record.config.players):
        expected = brute_force(final.city(p), all_parks_absorb=record.config.all_parks_absorb)
        got = out.scores[p]
        assert (got.total, got.inhabitants_placed, got.empty_squares) == expected


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_playout_is_reproduced_bit_for_bit(path: Path) -> None:
    data = json.loads(path.read_text())
    record = GameRecord.from_json(data)
    played: list[Move] = []
    final = random_playout(record.config, random.Random(f"playout/{record.config.seed}"), played)
    assert [str(m) for m in played] == list(record.moves)
    assert GameRecord.of_game(record.config, played, final).to_json() == data
