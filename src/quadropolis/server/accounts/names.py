"""Look-alike usernames: the confusable skeleton two names share when a reader could take one
for the other. Standard library only (the migration that fills the column imports it too).

A username is ASCII letters, digits, ``_`` and ``-`` (:func:`.rules.check_username`), and
it is one account whatever its case. So the skeleton is taken of the case-folded name, and
maps each character through :data:`LOOK_ALIKES`:

- the lines of Unicode's ``confusables.txt`` (UTS #39, version 17.0.0) whose source and
  prototype are both made of the characters a username may hold, case-folded:
  ``1 → l``, ``I → l`` (so ``i → l``: ``I`` is ``i`` in another case), ``0 → O`` (``o``),
  ``m → rn``; the file maps no other such character;
- and one pair the file lacks but the players' fonts show: ``w → vv``.

Case folding and ``I → l`` together put ``i``, ``l`` and ``1`` in one class: ``aiice``
collides with ``alice`` although the dot tells them apart, because ``aIice``, the same
account as ``aiice``, cannot be told from ``alice`` in most fonts. Every prototype maps to
itself, so a skeleton's skeleton is itself and "same skeleton" is an equivalence."""

from __future__ import annotations

from typing import Final

#: Each character of a case-folded username that looks like another sequence (module doc).
LOOK_ALIKES: Final = {"1": "l", "i": "l", "0": "o", "m": "rn", "w": "vv"}
#: The longest skeleton of a valid username (every character doubled: ``mmm…`` → ``rnrnrn…``).
SKELETON_MAX: Final = 40


def skeleton(username: str) -> str:
    """The confusable skeleton of an (ASCII) username: equal for names a reader could take
    for one another (module doc)."""
    return "".join(LOOK_ALIKES.get(ch, ch) for ch in username.casefold())
