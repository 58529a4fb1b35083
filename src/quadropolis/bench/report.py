"""What every benchmark section shares: the settings measured and the way a figure is reported."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeAlias

from ..tiles import Mode

#: The (mode, players) settings measured by the playout and bot figures.
PLAYOUT_CASES: Final = ((Mode.CLASSIC, 2), (Mode.CLASSIC, 4), (Mode.EXPERT, 2), (Mode.EXPERT, 4))

#: ``report(key, value, unit, label)`` records one figure (the median of the runs).
Report: TypeAlias = Callable[[str, float, str, str], None]
