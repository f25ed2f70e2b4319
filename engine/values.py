"""Copies of frozen dataclass values with some fields changed, and new ones, fast.

``dataclasses.replace`` reads every field and runs ``__init__`` again, setting each
field through ``object.__setattr__``: about 5 µs for a state of twenty fields, which
is a large share of one random-legal step of a trick-taking game.  ``evolve`` copies
the instance dict instead.  It skips ``__post_init__``, so it is only for plain
value classes (no ``__post_init__``, no ``cached_property``, no ``slots``).
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def evolve(value: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``value`` with ``changes`` applied."""
    fields = value.__dict__
    copied = fields | changes  # one C call; cheaper than updating an empty dict
    # An unknown field shows as a longer dict: checked after the copy, as cheaper
    # than comparing the key sets first (evolve runs at every step of a game).
    if len(copied) != len(fields):
        unknown = ", ".join(sorted(changes.keys() - fields.keys()))
        raise TypeError(f"{type(value).__name__} has no field {unknown}")
    new = object.__new__(type(value))
    object.__setattr__(new, "__dict__", copied)  # past the frozen __setattr__
    return new


def build(cls: type[T], **fields: Any) -> T:
    """An instance of the frozen dataclass ``cls`` from every one of its fields,
    without running ``__init__`` (about a third of its cost: a frozen ``__init__``
    sets each field through ``object.__setattr__``).  For the hot paths of the
    rules, on plain value classes only, as :func:`evolve`; the caller names every
    field (defaults are not filled in)."""
    new = object.__new__(cls)
    new.__dict__.update(fields)
    return new
