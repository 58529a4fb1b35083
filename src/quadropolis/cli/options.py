"""Command-line options shared by several commands (score, simulate, arena, play)."""

from __future__ import annotations

import argparse

from ..site import URBANIST_BLOCKS


def add_variant_options(p: argparse.ArgumentParser, *, urbanist: bool = True, defaults: bool = True) -> None:
    """The variants of RULES.md §6. With ``defaults=False`` an option left out is ``None``, so a
    command can tell it apart from one given explicitly (``play --load`` does)."""
    if urbanist:
        p.add_argument(
            "--urbanist-blocks",
            choices=list(URBANIST_BLOCKS),
            default="lines" if defaults else None,
            help="variant: the urbanist blocks its lines (rule R5, default) or only its square",
        )
    p.add_argument(
        "--all-parks-absorb",
        action="store_true",
        default=False if defaults else None,
        help="variant: every park absorbs one energy",
    )
