"""A game's configuration: mode, player count, seed, first player and the variants of
docs/rules.md §6 (explicit switches, default off)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .errors import ConfigError, quote, quote_keys
from .site import URBANIST_BLOCKS
from .tiles import Mode

#: Seeds are signed 64-bit integers: every round's layout is drawn from the seed's decimal
#: text, so an unbounded one would make a state that cannot start its next round.
SEED_MIN: Final = -(2**63)
SEED_MAX: Final = 2**63 - 1


@dataclass(frozen=True, slots=True)
class GameConfig:
    """``mode``, ``players`` (2-4), ``seed`` (an integer from :data:`SEED_MIN` = -2**63 to
    :data:`SEED_MAX` = 2**63-1; with the moves it fixes the whole game), ``first_player``
    (seat holding the mayor in round 1), and the variants ``urbanist_blocks`` (``"lines"``,
    the rule R5, or ``"square"``) and ``all_parks_absorb``.

    Raises :class:`ConfigError` naming the option; values are quoted safely (never the
    digits of a huge integer)."""

    mode: Mode = Mode.CLASSIC
    players: int = 2
    seed: int = 0
    first_player: int = 0
    urbanist_blocks: str = "lines"
    all_parks_absorb: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.mode, Mode):
            raise ConfigError(f"mode must be 'classic' or 'expert', got {quote(self.mode)}")
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise ConfigError(f"players must be an integer, got {quote(self.players)}")
        if not 2 <= self.players <= 4:
            raise ConfigError(f"players must be 2, 3 or 4, got {quote(self.players)}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ConfigError(f"seed must be an integer, got {quote(self.seed)}")
        if not SEED_MIN <= self.seed <= SEED_MAX:
            raise ConfigError(f"seed must be between -2**63 and 2**63-1, got {quote(self.seed)}")
        if (
            isinstance(self.first_player, bool)
            or not isinstance(self.first_player, int)
            or not (0 <= self.first_player < self.players)
        ):
            raise ConfigError(
                f"first_player must be a seat from 0 to {self.players - 1}, got {quote(self.first_player)}"
            )
        if not isinstance(self.urbanist_blocks, str) or self.urbanist_blocks not in URBANIST_BLOCKS:
            raise ConfigError(
                f"urbanist_blocks must be 'lines' or 'square', got {quote(self.urbanist_blocks)}"
            )
        if not isinstance(self.all_parks_absorb, bool):
            raise ConfigError(f"all_parks_absorb must be true or false, got {quote(self.all_parks_absorb)}")

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
            raise ConfigError(f"config: unknown option(s) {quote_keys(unknown)}")
        for key in ("mode", "players", "seed"):
            if key not in data:
                raise ConfigError(f"config: missing {key!r}")
        try:
            mode = Mode.parse(data["mode"])
        except ConfigError as e:
            raise ConfigError(f"config: {e}") from None
        variants = data.get("variants", {})
        if not isinstance(variants, Mapping):
            raise ConfigError("config: 'variants' must be an object")
        unknown = set(variants) - {"urbanist_blocks", "all_parks_absorb"}
        if unknown:
            raise ConfigError(f"config: unknown variant(s) {quote_keys(unknown)}")
        try:
            return cls(
                mode=mode,
                players=data["players"],
                seed=data["seed"],
                first_player=data.get("first_player", 0),
                urbanist_blocks=variants.get("urbanist_blocks", "lines"),
                all_parks_absorb=variants.get("all_parks_absorb", False),
            )
        except ConfigError as e:
            raise ConfigError(f"config: {e}") from None
