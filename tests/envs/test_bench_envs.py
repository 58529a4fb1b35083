"""``quadropolis bench envs``: the section reports every adapter beside the raw engine, and the
batched env beside the single env against every rung of the ladder (a smoke
run with a tiny workload; the figures themselves are measured by the bench, never in tests)."""

from __future__ import annotations

import dataclasses

from quadropolis.bench import envs
from quadropolis.bench.report import PLAYOUT_CASES, QUICK

#: Every rung of the ladder, as the figures' keys name it: the batched env is measured
#: against each.
LADDER_KEYS = ("random", "greedy_epsilon0.6", "greedy_epsilon0.3", "greedy_epsilon0.1", "greedy", "neural")


def test_the_envs_section_reports_each_adapter_and_its_ratio_to_the_engine() -> None:
    figures: dict[str, tuple[float, str]] = {}

    def report(key: str, value: float, unit: str, label: str) -> None:
        assert label and key not in figures
        figures[key] = (value, unit)

    envs.run(report, 1, dataclasses.replace(QUICK, playout_seconds=0.01))
    adapters = ("gym", "pettingzoo", "pettingzoo_raw", "openspiel")
    for mode, players in PLAYOUT_CASES:
        case = f"{mode.value}_{players}p"
        engine, unit = figures[f"envs_engine_{case}"]
        assert unit == "moves/s" and engine > 0 and figures[f"envs_engine_noscore_{case}"][0] > 0
        for name in adapters:
            value, unit = figures[f"envs_{name}_{case}"]
            ratio, x = figures[f"envs_{name}_{case}_ratio"]
            assert unit == "moves/s" and value > 0 and x == "x" and ratio > 0
        assert figures[f"envs_pettingzoo_wrappers_{case}"][1] == "us"
        for opponents in LADDER_KEYS if players == 2 else ("random",):
            key = f"{case}_{opponents}"
            assert figures[f"envs_gym_steps_{key}"][1] == figures[f"envs_vector_steps_{key}"][1] == "steps/s"
            assert (
                figures[f"envs_vector_steps_{key}"][0] > 0
                and figures[f"envs_vector_steps_{key}_ratio"][0] > 0
            )
    rungs = len(LADDER_KEYS) - 1  # above random
    batched = 3 * (len(PLAYOUT_CASES) + rungs * sum(players == 2 for _, players in PLAYOUT_CASES))
    assert len(figures) == len(PLAYOUT_CASES) * (3 + 2 * len(adapters)) + batched


def test_the_ladder_section_reports_the_batched_envs_step_cost_per_opponent() -> None:
    from quadropolis.bench import ladder
    from quadropolis.tiles import Mode

    figures: dict[str, tuple[float, str]] = {}

    def report(key: str, value: float, unit: str, label: str) -> None:
        assert label and key not in figures
        figures[key] = (value, unit)

    ladder._batched_costs(report, Mode.CLASSIC, 1, 0.01)
    for opponent in LADDER_KEYS[1:]:
        steps, unit = figures[f"ladder_batched_{opponent}_classic"]
        cost, x = figures[f"ladder_batched_{opponent}_classic_cost"]
        assert unit == "steps/s" and steps > 0 and x == "x" and cost > 0
    assert len(figures) == 2 * (len(LADDER_KEYS) - 1)
