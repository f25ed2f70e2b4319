"""The checked-in JSON Schema is exactly what the message models generate."""

import json
from pathlib import Path

from protocol.messages import ErrorCode
from protocol.schema import json_schema
from server.cli import SCHEMA_PATH, main

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_checked_in_schema_matches_the_models():
    assert json.loads(SCHEMA_PATH.read_text()) == json_schema()
    assert main(["schema", "--check"]) == 0


def test_every_error_code_and_message_type_is_documented():
    doc = DOC.read_text()
    for code in ErrorCode:
        assert f"`{code.value}`" in doc, code
    schema = json_schema()
    for direction in ("client_to_server", "server_to_client"):
        for name, model in schema[direction]["$defs"].items():
            kind = model.get("properties", {}).get("type", {}).get("const")
            if kind:
                assert f'"type": "{kind}"' in doc, (direction, name)
