"""Actions that refuse changes, so that ``legal()`` can hand out shared ones.

A game's ``legal()`` is called at every step of every bot search and self-play
game; building a fresh dict per legal card is a large share of such a step.  A
game may instead build its actions once and return the same objects every time
(docs/decisions.md, the bullet on shared immutable actions).  Sharing is only safe if no
caller can change one: a bot that added a key to the ace of spades would change
every later ``legal()`` answer.  :class:`FrozenAction` is a ``dict`` (so
``json``, ``orjson``, equality with plain dicts, ``dict(a)`` copies and
``isinstance(a, dict)`` all behave as before) whose mutating methods raise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn


class FrozenAction(dict[str, Any]):
    """A JSON action that cannot be changed; copy it with ``dict(a)`` to edit.

    Its values must be plain (str, int, float, bool, None): a nested list or dict
    could still be changed in place, so it is refused."""

    __slots__ = ()

    def __init__(self, action: Mapping[str, Any] = {}, /, **fields: Any) -> None:
        super().__init__(action, **fields)
        if not all(isinstance(v, _PLAIN) for v in self.values()):
            raise ValueError("a FrozenAction holds only plain values (str, int, float, "
                             "bool, None)")

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a FrozenAction is shared and cannot be changed: copy it with dict()")

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse

    def __reduce__(self) -> tuple[type[FrozenAction], tuple[dict[str, Any]]]:
        # Pickle rebuilds a dict subclass item by item through __setitem__, which
        # refuses; rebuild it from a plain dict instead.
        return (FrozenAction, (dict(self),))

    def __copy__(self) -> FrozenAction:
        return self  # nothing in it can change, so a copy may be the same object

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenAction:
        return self

    def __repr__(self) -> str:
        return f"FrozenAction({dict.__repr__(self)})"


_PLAIN = (str, int, float, bool, type(None))


def _compiled_get() -> None:
    """Give FrozenAction its own compiled ``get`` (engine/_actions.c): dict's,
    reached through a subclass, misses CPython's fast call of C methods, and
    consumers call get("type") on every legal action.  Without the core,
    dict.get answers alike."""
    try:
        from engine._actions import get_for
    except ImportError:
        return
    type.__setattr__(FrozenAction, "get", get_for(FrozenAction))


_compiled_get()
