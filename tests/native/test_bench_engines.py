"""``quadropolis bench engines``: every ratio is followed by its goal and the verdict against
it (a smoke run of the quick workload; the figures themselves are not judged here)."""

from __future__ import annotations

from quadropolis.bench import engines
from quadropolis.bench.report import QUICK


def test_every_ratio_is_followed_by_its_goal_and_verdict() -> None:
    lines: list[tuple[str, float, str, str]] = []
    engines.run(lambda key, value, unit, label: lines.append((key, value, unit, label)), 1, QUICK)
    ratios = [i for i, (key, *_) in enumerate(lines) if key.endswith("_ratio")]
    assert len(ratios) >= 4 + len(engines.MCTS_CASES)  # the gym row needs the rl extra
    for i in ratios:
        key, ratio, _, _ = lines[i]
        goal_key, goal, unit, label = lines[i + 1]
        name = key.removeprefix("engines_").removesuffix("_ratio")
        assert goal_key == f"engines_{name}_goal" and goal == engines.GOALS[name] and unit == "x"
        assert label.strip() == ("goal ✓ reached" if ratio >= goal else "goal ✗ not reached")


def test_the_verdict_is_against_the_goal() -> None:
    got: list[str] = []
    for ratio in (19.99, 20.0, 31.0):
        engines.verdict(lambda _k, _v, _u, label: got.append(label.strip()), "greedy_move", ratio)
    assert got == ["goal ✗ not reached", "goal ✓ reached", "goal ✓ reached"]
