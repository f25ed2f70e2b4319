"""The JSON Schema of the wire protocol, both directions (``cardtable schema``
writes it to docs/protocol.schema.json; a test keeps that file equal to it)."""

from __future__ import annotations

from typing import Any

from protocol.messages import PROTOCOL_VERSION, server_adapter
from protocol.requests import client_adapter


def json_schema() -> dict[str, Any]:
    """The JSON Schema of both directions (what ``cardtable schema`` writes)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"cardtable protocol v{PROTOCOL_VERSION}",
        "client_to_server": client_adapter.json_schema(),
        "server_to_client": server_adapter.json_schema(),
    }
