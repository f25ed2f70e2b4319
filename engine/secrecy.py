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

from engine.cards import FACES_PER_DECK, format_face, parse_face

_TOKEN = re.compile(r"[0-9A-Za-z]{2,3}")
# A card as people read it: rank and suit symbol (``A♠``, ``10♥``), standing alone
# (a doubled bridge contract, ``2♦X``, names no card).
_PRETTY = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([♣♦♥♠])(?![0-9A-Za-z])")


# Only the canonical spelling counts as naming a card: ``as`` or ``10S`` in free
# text is a word, not a card the scan should see.
_CANONICAL = {format_face(f): f for f in range(FACES_PER_DECK)}


def _strings(value: Any, skip: frozenset[str]) -> list[str]:
    # Appending to one list, not nested generators: the leak scan runs this on
    # every view of every step of the conformance games, and replays redact with it.
    out: list[str] = []
    add = out.append

    def walk(items: Iterable[Any]) -> None:
        for x in items:
            t = type(x)
            if t is str:
                add(x)
            elif t is int or x is None or t is bool or t is float:
                continue  # numbers and nulls name no card
            elif t is list or t is tuple:
                walk(x)
            elif t is dict or isinstance(x, Mapping):
                walk([v for k, v in x.items() if k not in skip] if skip else x.values())
            # Exact types above (most values, and cheaper than isinstance); their
            # subclasses (a StrEnum, a named tuple) here.
            elif isinstance(x, list | tuple):
                walk(x)
            elif isinstance(x, str):
                add(x)

    walk((value,))
    return out


def faces_named(value: Any, skip: frozenset[str] = frozenset()) -> set[int]:
    """Faces spelled canonically anywhere in a JSON value (strings and free text),
    except under the keys in ``skip``."""
    text = json.dumps(_strings(value, skip), ensure_ascii=False)
    return {_CANONICAL[t] for t in _TOKEN.findall(text) if t in _CANONICAL}


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
