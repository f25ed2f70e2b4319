"""JSON text as the server writes it, to clients and to SQLite alike: compact,
non-ASCII unescaped, by orjson where it can."""

from __future__ import annotations

import json
from typing import Any

import orjson

# The standard library's encoder, for the rare value orjson refuses (an integer
# wider than 64 bits): one instance, as ``json.dumps`` with options builds one a call.
_FALLBACK = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(value: Any) -> bytes:
    """The UTF-8 JSON text of ``value``."""
    try:
        # Without OPT_NON_STR_KEYS first: the option makes every frame half again
        # as dear, and only the odd value has a key that is not a string.
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        pass
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except orjson.JSONEncodeError:
        return _FALLBACK.encode(value).encode()


def dumps(value: Any) -> str:
    """The JSON text of ``value`` as a string (a JSON column's serializer)."""
    return encode(value).decode()
