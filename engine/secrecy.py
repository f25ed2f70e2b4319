"""What a viewer may be shown: the card names a JSON value spells, and the
logged action as a given viewer may see it.

Both rest on each game's ``secrets(state, viewer)``: the faces a viewer must not
know.  The leak scanner of the tests and the server's replay redaction use the
same scan, so what the tests check is what the server enforces.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from engine.cards import CardParseError, format_face, parse_face

_TOKEN = re.compile(r"[0-9A-Za-z]{2,3}")
# A card as people read it: rank and suit symbol (``A♠``, ``10♥``).
_PRETTY = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([♣♦♥♠])")


def _strings(value: Any, skip: frozenset[str]) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            if k not in skip:
                yield from _strings(v, skip)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v, skip)


def faces_named(value: Any, skip: frozenset[str] = frozenset()) -> set[int]:
    """Faces spelled canonically anywhere in a JSON value (strings and free text),
    except under the keys in ``skip``."""
    text = json.dumps(list(_strings(value, skip)), ensure_ascii=False)
    found = set()
    for token in _TOKEN.findall(text):
        try:
            f = parse_face(token)
        except CardParseError:
            continue
        if format_face(f) == token:
            found.add(f)
    return found


def faces_shown(value: Any, skip: frozenset[str] = frozenset()) -> set[int]:
    """Faces a JSON value names in any spelling: canonical (``AS``) and as people
    read them (``A♠``, ``10♥``), for text written for people (narration, labels)."""
    text = " ".join(_strings(value, skip))
    return faces_named(value, skip) | {parse_face(r + s) for r, s in _PRETTY.findall(text)}


def redact(action: Mapping[str, Any], hidden: set[int]) -> dict[str, Any]:
    """``action`` with every card in ``hidden`` withheld: only its type remains,
    marked ``hidden`` so a client can say "a card was buried" without the card."""
    if not hidden:
        return dict(action)
    return {"type": action.get("type"), "hidden": True}
