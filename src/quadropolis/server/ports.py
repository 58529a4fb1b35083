"""What the game server's core asks of the features handed to it, as protocols: the
websocket hub reads the session's account (:class:`.accounts.service.AccountService`) and
hands lines to the table chat (:class:`.social.chat.TableChat`, which keeps them in a
:class:`ChatStore`: :class:`.social.storage.SocialStore`) without importing either
feature. The app's lifespan wires the real ones in."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from .data import AccountData, AccountProof, ChatLine


class SessionAccounts(Protocol):
    """The accounts of logged-in browsers."""

    async def account_of(self, session_id: str | None) -> AccountData:
        """The account of a live session; ``not_logged_in`` otherwise."""
        ...

    async def seats(self, account: AccountData, game_id: str) -> list[int]:
        """The seats of ``game_id`` the account holds now (``not_found`` if no such game)."""
        ...

    def proof(self, account: AccountData) -> AccountProof:
        """What the account acts with; the game service checks it against the seat."""
        ...


class ChatStore(Protocol):
    """Where the table chat is kept (synchronous: called from worker threads)."""

    def chat(self, game_id: str) -> list[ChatLine]:
        """The chat lines kept of ``game_id``, oldest first."""
        ...

    def add_chat(self, game_id: str, line: ChatLine) -> None:
        """Store a line (the oldest ones past what is kept are dropped)."""
        ...


class TableChat(Protocol):
    """The table chat (:class:`.social.chat.TableChat`): its limits and its keeping."""

    async def history(self, game_id: str) -> list[ChatLine]:
        """The lines kept of ``game_id``, oldest first (none if they cannot be read)."""
        ...

    async def say(
        self, game_id: str, held: Iterable[int], address: str, seat: int, name: str, text: str
    ) -> ChatLine:
        """Keep a line said at ``seat`` by a connection holding ``held`` from client key
        ``address`` (``rate_limited``, ``unavailable``): the line kept."""
        ...
