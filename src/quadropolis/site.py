"""The construction site: its 5x5 squares, the 20 architect slots around it (R1), which square
an architect designates from a slot, and what the urbanist blocks (R5 and its variant).

Site squares are indexed row-major 0-24. Slots are named by side and line: ``L4`` is the left
end of row 4, ``R4`` its right end, ``T2`` the top end of column 2, ``B2`` its bottom end."""

from __future__ import annotations

from typing import Final

SIZE: Final = 5
SQUARES: Final = SIZE * SIZE
SIDES: Final = "TBLR"
#: Slot names, by slot index (0-19): T1..T5, B1..B5, L1..L5, R1..R5.
SLOT_NAMES: Final[tuple[str, ...]] = tuple(f"{side}{line}" for side in SIDES for line in range(1, 6))
SLOT_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(SLOT_NAMES)}

#: Urbanist blocking variants (docs/rules.md §6): "lines" is the rule (R5), "square" the variant.
URBANIST_BLOCKS: Final = ("lines", "square")


def designate(slot: int, architect: int) -> int:
    """The site square architect #n designates from ``slot``: the n-th square counted from
    that slot's own side of the site (R1)."""
    side, line = divmod(slot, SIZE)
    n = architect - 1
    if side == 0:  # top end of column `line`: count downwards
        return n * SIZE + line
    if side == 1:  # bottom end: count upwards
        return (SIZE - 1 - n) * SIZE + line
    if side == 2:  # left end of row `line`: count rightwards
        return line * SIZE + n
    return line * SIZE + (SIZE - 1 - n)


#: DESIGNATED[slot][architect] -> site square (architect numbers 1-5; index 0 unused).
DESIGNATED: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(designate(s, a) if a else -1 for a in range(6)) for s in range(20)
)


def _line_slots(square: int) -> int:
    r, c = divmod(square, SIZE)
    return (1 << c) | (1 << (SIZE + c)) | (1 << (2 * SIZE + r)) | (1 << (3 * SIZE + r))


#: BLOCKED_SLOTS[square]: bitmask of the four slots at the ends of that square's row and
#: column, which the urbanist standing there blocks (R5).
BLOCKED_SLOTS: Final[tuple[int, ...]] = tuple(_line_slots(q) for q in range(SQUARES))


def square_name(square: int) -> str:
    r, c = divmod(square, SIZE)
    return f"r{r + 1}c{c + 1}"


def urbanist_block(
    slot: int, architect: int, urbanist: int, variant: str
) -> tuple[str, dict[str, str | int]] | None:
    """Why the urbanist forbids putting architect #n in ``slot`` (a reason code of
    :data:`quadropolis.rules.ILLEGAL_MESSAGES` and its values), or ``None`` if it does not.

    R5: the urbanist blocks its whole row and column, so neither end of either line may
    receive an architect (``urbanist_row`` / ``urbanist_column``, the ``line`` numbered from
    1). Variant ``urbanist_blocks="square"``: only its own square is blocked, so no architect
    may designate it (``urbanist_square``)."""
    if urbanist < 0:
        return None
    ur, uc = divmod(urbanist, SIZE)
    if variant == "lines":
        if BLOCKED_SLOTS[urbanist] >> slot & 1:
            side = slot // SIZE
            return ("urbanist_column", {"line": uc + 1}) if side < 2 else ("urbanist_row", {"line": ur + 1})
        return None
    if DESIGNATED[slot][architect] == urbanist:
        return "urbanist_square", {"square": square_name(urbanist)}
    return None
