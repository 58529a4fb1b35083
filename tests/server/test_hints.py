"""The hint ("what would hard play here?", reproducible):
computed in a bot worker by the native search, with the ``hard`` level's fixed iteration
budget and no time cap, so the same position gets the same hint on a loaded machine, equal
to the in-process search of the same budget (and to the Python search, draw for draw)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

from helpers import played

from quadropolis import Mode
from quadropolis.bots import MCTSBot, analyse, analysis_seed, make_bot, observe
from quadropolis.phases import PLACE
from quadropolis.server.bot_pool import BotPool


def _hard(spec: str = "hard") -> MCTSBot:
    bot = make_bot(spec, workers=1)
    assert isinstance(bot, MCTSBot)
    return bot


def _hint(state: Any, seed: int) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        pool = BotPool(1)
        try:
            return await pool.analyse(state, seed)
        finally:
            pool.close()

    return asyncio.run(go())


def test_hints_use_the_native_search_with_a_fixed_budget_even_under_load() -> None:
    state = played(Mode.CLASSIC, 2, 31, 6)
    seed = analysis_seed(6, "hint-test")
    quiet = _hint(state, seed)
    # Two busy processes keep both cores loaded while the same hint is asked again.
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        loaded = _hint(state, seed)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert quiet == loaded
    assert quiet["engine"] == "native" and quiet["bot"] == "hard"
    hard = _hard()
    assert hard.iterations is not None
    budget = round(hard.iterations * (hard.place_fraction if state.phase == PLACE else 1.0))
    assert quiet["iterations"] == budget  # the level's fixed budget, not what a time cap left
    assert sum(c["visits"] for c in quiet["candidates"]) <= quiet["iterations"]
    in_process = analyse(observe(state), hard, seed).to_json()
    assert {k: v for k, v in quiet.items() if k != "engine"} == in_process
    python = analyse(observe(state), _hard("hard:engine=python"), seed).to_json()
    assert python["candidates"] == in_process["candidates"]  # the same search, draw for draw
