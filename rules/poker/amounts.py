"""Exact money amounts of hand-history files as whole chips.

A file's amounts (``0.25``, ``$1.50``, ``12,500``) are read as ``Decimal`` and
turned into integer chips in the file's own unit: 10**-d of its currency, where d
is the most decimal places any amount of the hand is written with
(docs/poker.md, "Amounts").  The table then counts whole chips as always, and a
writer turns chips back into the same decimals; nothing goes through a float.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

MAX_DECIMALS = 8
MAX_CHIPS = 10**18  # beyond any real stake, and keeps arithmetic cheap


class AmountError(ValueError):
    """An amount that is not a finite, non-negative number a table can count."""


def parse_amount(text: str) -> Decimal:
    """``"1,234.50"`` -> ``Decimal("1234.50")``; raises :class:`AmountError`."""
    try:
        value = Decimal(text.replace(",", ""))
    except InvalidOperation:
        raise AmountError(f"not an amount: {shown(text)}") from None
    return check_amount(value)


def check_amount(value: object) -> Decimal:
    """An int or Decimal read from a file, as a finite non-negative Decimal."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise AmountError(f"not an amount: {shown(value)}")
    number = Decimal(value)
    if not number.is_finite() or number < 0:
        raise AmountError(f"not a finite non-negative amount: {shown(value)}")
    return number


def shown(value: object) -> str:
    """A value of a file as a message shows it to people: ``1.5``, ``inf``, ``"x"``,
    ``true``, never a Python repr (``Decimal('1.5')``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal) and not value.is_finite():
        return "nan" if value.is_nan() else "inf" if value > 0 else "-inf"
    if isinstance(value, int | Decimal | float):
        return f"{value:f}" if isinstance(value, Decimal) else str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"  # what else TOML holds


def places(value: Decimal) -> int:
    """Decimal places ``value`` is written with (``1.50`` -> 2, ``3`` -> 0)."""
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)  # finite, checked on reading
    return max(0, -exponent)


def unit_of(values: Iterable[Decimal]) -> int:
    """The decimals of a hand's chip unit: the most places among its amounts."""
    decimals = max((places(v) for v in values), default=0)
    if decimals > MAX_DECIMALS:
        raise AmountError(f"amounts with more than {MAX_DECIMALS} decimal places")
    return decimals


def to_chips(value: Decimal, decimals: int) -> int:
    """Whole chips of ``value`` in units of 10**-decimals (exact, or AmountError)."""
    scaled = value.scaleb(decimals)
    if scaled != scaled.to_integral_value() or scaled >= MAX_CHIPS:
        raise AmountError(f"{shown(value)} is not a whole number of {_unit(decimals)}")
    return int(scaled)


def from_chips(chips: int, decimals: int) -> str:
    """Chips written back in the file's unit, with exactly ``decimals`` places."""
    if not decimals:
        return str(chips)
    return f"{Decimal(chips).scaleb(-decimals):.{decimals}f}"


def _unit(decimals: int) -> str:
    return "chips" if not decimals else f"units of {from_chips(1, decimals)}"
