"""The rules of account names and passwords (the account service's module doc says why
each): a username is 3–20 ASCII letters, digits, ``_`` or ``-`` after NFKC, never a reserved
name or its look-alike; a password has 8–256 characters, does not contain the username and
is not too easy to guess. Pure: no database, no HTTP."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from ...bots import LEVELS
from ..errors import BadAccount
from .names import skeleton

USERNAME_MIN: Final = 3
USERNAME_MAX: Final = 20
PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 256
_USERNAME: Final = re.compile(r"[A-Za-z0-9_-]+")
#: Names no one may register (compared case-insensitively, with ``_`` and ``-`` ignored): the
#: server's own roles, the bots' levels and names, and the name of deleted accounts' seats.
RESERVED: Final = frozenset(
    {"admin", "administrator", "root", "system", "server", "moderator", "mod", "support", "staff"}
    | {"quadropolis", "bot", "bots", "guest", "anonymous", "player", "me", "null", "none"}
    | {"formerplayer", "deleted", "nobody"}
    | {level.casefold() for level in LEVELS}
)


def check_username(raw: str) -> str:
    """The username as stored (NFKC form), or :class:`BadAccount` saying what is wrong."""
    for ch in raw:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            raise BadAccount(f"a username may not hold control or invisible characters (U+{ord(ch):04X})")
    name = unicodedata.normalize("NFKC", raw)
    if not name.isascii():
        raise BadAccount("a username may hold only the letters A-Z, digits, '_' and '-'")
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise BadAccount(f"a username has {USERNAME_MIN} to {USERNAME_MAX} characters")
    if not _USERNAME.fullmatch(name):
        raise BadAccount("a username may hold only the letters A-Z, digits, '_' and '-'")
    shape = skeleton(name.replace("_", "").replace("-", ""))
    if shape in _RESERVED_SHAPES or shape.startswith(_BOT_SHAPE):
        raise BadAccount(f"the username {name!r} is reserved")
    return name


#: The skeletons of :data:`RESERVED` (``adrnin`` looks like ``admin``) and of ``bot``.
_RESERVED_SHAPES: Final = frozenset(skeleton(name) for name in RESERVED)
_BOT_SHAPE: Final = skeleton("bot")


def check_password(password: str, username: str) -> str:
    """``password`` if its length is allowed and it does not contain ``username`` (ignoring
    case); :class:`BadAccount` saying which rule it breaks otherwise, never echoing it. How
    easy it is to guess is judged apart (:func:`too_easy`)."""
    if len(password) < PASSWORD_MIN:
        raise BadAccount(f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise BadAccount(f"a password has at most {PASSWORD_MAX} characters")
    if username.casefold() in password.casefold():
        raise BadAccount("a password may not contain the username")
    return password


def too_easy(why: str | None) -> None:
    """:class:`BadAccount` for a password :func:`.passwords.weakness` found ``why`` weak."""
    if why is not None:
        raise BadAccount(f"this password is too easy to guess ({why[0].lower()}{why[1:]})")
