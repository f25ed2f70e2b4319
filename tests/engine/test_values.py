"""evolve(): a frozen dataclass copied with changes, equal to dataclasses.replace's."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field, replace

import pytest

from engine.values import evolve


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()
    note: str = field(default="", compare=False)


def test_evolve_equals_replace() -> None:
    p = Point(1, 2, ("a",), "n")
    for changes in ({}, {"x": 5}, {"y": 7, "tags": ("b", "c")}, {"note": "m"}):
        got, want = evolve(p, **changes), replace(p, **changes)
        assert got == want and hash(got) == hash(want) and got.note == want.note
        assert type(got) is Point and got is not p


def test_the_original_is_untouched_and_the_copy_frozen() -> None:
    p = Point(1)
    q = evolve(p, x=2)
    assert p.x == 1 and q.x == 2
    with pytest.raises(FrozenInstanceError):
        q.x = 3  # type: ignore[misc]


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(TypeError, match="no field z"):
        evolve(Point(1), z=3)
