"""``python -m quadropolis.server``: run the game server (the same as ``quadropolis serve``)."""

from __future__ import annotations

import sys

from .command import main

if __name__ == "__main__":
    sys.exit(main())
