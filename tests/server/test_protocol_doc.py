"""docs/protocol.md agrees with the code: every websocket message type has an example that
the server's own decoder (inbound) or model (outbound) accepts, every error code is listed
with its HTTP status, and the HTTP examples are valid bodies."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from quadropolis.server.errors import ERRORS
from quadropolis.server.protocol import INBOUND, OUTBOUND, Created, CreateGame, decode

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def example(kind: str, direction: str = "### Client to server") -> str:
    """The JSON block that follows the heading of message type ``kind`` in the section of
    ``direction`` (``chat`` is a message type both ways)."""
    section = DOC[DOC.index(direction) :]
    found = re.search(rf"^### `{kind}`\n(.*?)```json\n(.*?)```", section, re.S | re.M)
    assert found, f"docs/protocol.md has no example for {kind!r}"
    return found.group(2)


@pytest.mark.parametrize("kind", list(INBOUND))
def test_every_client_message_has_an_example_the_decoder_accepts(kind: str) -> None:
    message = decode(example(kind))
    assert type(message) is INBOUND[kind]


@pytest.mark.parametrize("kind", list(OUTBOUND))
def test_every_server_message_has_an_example_its_model_accepts(kind: str) -> None:
    data = json.loads(example(kind, "### Server to client"))
    assert data["type"] == kind
    OUTBOUND[kind].model_validate(data)


def test_every_error_code_is_listed_with_its_status() -> None:
    rows = dict(re.findall(r"^\| `(\w+)` \| (\d{3}) \|", DOC, re.M))
    assert rows == {code: str(cls.status) for code, cls in ERRORS.items()}


def test_the_http_examples_are_valid_bodies() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DOC, re.S)
    CreateGame.model_validate(json.loads(blocks[0]))
    Created.model_validate(json.loads(blocks[1]))
    assert "/openapi.json" in DOC
