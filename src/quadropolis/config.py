"""A game's configuration: mode, player count, seed, first player and the variants of
RULES.md §6 (explicit switches, default off)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ConfigError
from .site import URBANIST_BLOCKS
from .tiles import Mode


@dataclass(frozen=True, slots=True)
class GameConfig:
    """``mode``, ``players`` (2-4), ``seed`` (any integer; with the moves it fixes the whole
    game), ``first_player`` (seat holding the mayor in round 1), and the variants
    ``urbanist_blocks`` (``"lines"``, the rule R5, or ``"square"``) and ``all_parks_absorb``."""

    mode: Mode = Mode.CLASSIC
    players: int = 2
    seed: int = 0
    first_player: int = 0
    urbanist_blocks: str = "lines"
    all_parks_absorb: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.mode, Mode):
            raise ConfigError(f"mode must be 'classic' or 'expert', got {self.mode!r}")
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise ConfigError(f"players must be an integer, got {self.players!r}")
        if not 2 <= self.players <= 4:
            raise ConfigError(f"players must be 2, 3 or 4, got {self.players}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ConfigError(f"seed must be an integer, got {self.seed!r}")
        if (
            isinstance(self.first_player, bool)
            or not isinstance(self.first_player, int)
            or not (0 <= self.first_player < self.players)
        ):
            raise ConfigError(
                f"first_player must be a seat from 0 to {self.players - 1}, got {self.first_player!r}"
            )
        if self.urbanist_blocks not in URBANIST_BLOCKS:
            raise ConfigError(f"urbanist_blocks must be 'lines' or 'square', got {self.urbanist_blocks!r}")
        if not isinstance(self.all_parks_absorb, bool):
            raise ConfigError(f"all_parks_absorb must be true or false, got {self.all_parks_absorb!r}")

    @property
    def variants(self) -> dict[str, Any]:
        return {"urbanist_blocks": self.urbanist_blocks, "all_parks_absorb": self.all_parks_absorb}

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode.value,
            "players": self.players,
            "seed": self.seed,
            "first_player": self.first_player,
            "variants": self.variants,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameConfig:
        """Parse a configuration object; unknown keys and variants are errors."""
        if not isinstance(data, Mapping):
            raise ConfigError("config: expected a JSON object")
        unknown = set(data) - {"mode", "players", "seed", "first_player", "variants"}
        if unknown:
            raise ConfigError(f"config: unknown option(s) {', '.join(sorted(unknown))}")
        for key in ("mode", "players", "seed"):
            if key not in data:
                raise ConfigError(f"config: missing {key!r}")
        try:
            mode = Mode(data["mode"])
        except ValueError:
            raise ConfigError(f"config: mode must be 'classic' or 'expert', got {data['mode']!r}") from None
        variants = data.get("variants", {})
        if not isinstance(variants, Mapping):
            raise ConfigError("config: 'variants' must be an object")
        unknown = set(variants) - {"urbanist_blocks", "all_parks_absorb"}
        if unknown:
            raise ConfigError(f"config: unknown variant(s) {', '.join(sorted(unknown))}")
        return cls(
            mode=mode,
            players=data["players"],
            seed=data["seed"],
            first_player=data.get("first_player", 0),
            urbanist_blocks=variants.get("urbanist_blocks", "lines"),
            all_parks_absorb=variants.get("all_parks_absorb", False),
        )
