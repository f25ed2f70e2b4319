"""Turning one inbound websocket frame into a JSON object, or a refusal.

Everything a hostile frame could do to the decoder is refused here with a
stable error code before any handler sees the data: binary frames, invalid
JSON, nesting deep enough to exhaust the stack, strings that cannot be encoded
(lone surrogates), and a ``type`` that is not a string.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from protocol.messages import ErrorCode

MAX_DEPTH = 32  # no message of the protocol nests deeper than a few levels


@dataclass(frozen=True)
class FrameError(Exception):
    """A frame refused before dispatch; becomes an ``error`` reply (echoing the
    request id when the frame was an object with a usable one)."""

    code: ErrorCode
    message: str
    request_id: str | int | None = None


MAX_ID_CHARS = 128  # a string id's most characters
_ID_RANGE = (-(2**63), 2**63 - 1)  # an integer id is a signed 64-bit number


def request_id(data: dict[str, Any]) -> str | int | None:
    """The ``id`` a reply echoes: a string or an integer, else none."""
    rid = data.get("id")
    return rid if _usable_id(rid) else None


def _usable_id(rid: Any) -> bool:
    if isinstance(rid, bool) or not isinstance(rid, str | int):
        return False
    if isinstance(rid, str):
        return len(rid) <= MAX_ID_CHARS and _valid_text(rid)
    return _ID_RANGE[0] <= rid <= _ID_RANGE[1]


def parse_frame(raw: str | bytes) -> dict[str, Any]:
    """The message object of a text frame; raises :class:`FrameError`."""
    if not isinstance(raw, str):
        raise FrameError(ErrorCode.BAD_JSON, "frames must be JSON text; binary frames are refused")
    try:
        data = json.loads(raw)
    except RecursionError:
        raise FrameError(ErrorCode.BAD_MESSAGE, f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:
        raise FrameError(ErrorCode.BAD_JSON, "frames must be JSON text") from None
    if not isinstance(data, dict):
        raise FrameError(ErrorCode.BAD_MESSAGE, "a message is a JSON object with a type")
    rid = request_id(data)
    if _may_be_hostile(raw):
        try:
            _check_shape(data)
        except FrameError as exc:
            raise FrameError(exc.code, exc.message, rid) from None
    if not isinstance(data.get("type"), str):
        raise FrameError(ErrorCode.BAD_MESSAGE, "a message's type is a string", rid)
    if data.get("id") is not None and rid is None:
        # Refused, not ignored: the reply could not echo it, and a client matching
        # replies by id would wait for ever.
        raise FrameError(ErrorCode.BAD_MESSAGE, f"an id is a string of at most {MAX_ID_CHARS} "
                         "characters or a whole number from -2^63 to 2^63 - 1")
    return data


def _may_be_hostile(raw: str) -> bool:
    """Whether the walk of :func:`_check_shape` is needed: a frame with fewer
    brackets than the depth limit cannot nest too deep, and a lone surrogate can
    only come from a ``\\u`` escape (websockets refuses invalid UTF-8).  Most
    frames (an ``act`` has two braces and no escape) skip the walk."""
    return raw.count("{") + raw.count("[") > MAX_DEPTH or "\\u" in raw


def _check_shape(data: Any) -> None:
    """Refuse deep nesting and strings that are not valid Unicode (iteratively:
    the check itself must not recurse on hostile input)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise FrameError(ErrorCode.BAD_MESSAGE, f"nested deeper than {MAX_DEPTH} levels")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str):
                    _check_text(key)
                stack.append((item, depth + 1))


def _check_text(text: str) -> None:
    if not _valid_text(text):
        raise FrameError(
            ErrorCode.BAD_MESSAGE, "strings must be valid Unicode (no lone surrogates)"
        )


def _valid_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
