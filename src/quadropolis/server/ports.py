"""What the game server's core asks of the features handed to it, as protocols: the
websocket hub reads the session's account (:class:`.accounts.service.AccountService`) and
keeps the table chat (:class:`.social.storage.SocialStore`) without importing either
feature. The app's lifespan wires the real ones in."""

from __future__ import annotations

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
