"""The least deadwood of a hand, fast: gin's knock checks and scoring ask it every turn.

A one-deck hand under joker-free rules (gin) goes to the compiled core
``rules.rummy._deadwood`` (built from ``rules/rummy/_deadwood.c`` with the rest of
the project): this module lists every meld the rules allow as a 52-bit mask of
faces, and the core searches.  Anything else (two decks, jokers, or no compiled
core) takes the general search, ``best``, so the answer never depends on the build;
the tests compare both paths and OpenSpiel's ``min_deadwood``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from .combos import best
from .grid import RANKS, SUITED, geometry
from .melds import deadwood
from .options import AceRule, MeldRules, Objective

_SUITS = SUITED // RANKS


def _load_core() -> Any:
    try:
        return importlib.import_module("rules.rummy._deadwood")
    except ImportError:
        # Not built: the general search answers (docs/rummy.md, "Least deadwood").
        return None


_CORE = _load_core()


def meld_masks(rules: MeldRules) -> tuple[int, ...]:
    """Every natural meld of one deck under ``rules``, as masks of faces (bit = face)."""
    return _meld_masks(rules.run_min, rules.set_min, rules.set_max, rules.ace)


@lru_cache(maxsize=16)
def _meld_masks(run_min: int, set_min: int, set_max: int, ace: AceRule) -> tuple[int, ...]:
    geom = geometry(ace, run_min, set_min, set_max)
    out: set[int] = set()
    for length in range(run_min, RANKS + 1):
        for window in geom.windows(length):
            for suit in range(_SUITS):
                out.add(sum(1 << (suit * RANKS + r) for r in window))
    for rank in range(RANKS):
        for size in range(set_min, set_max + 1):
            for suits in combinations(range(_SUITS), size):
                out.add(sum(1 << (s * RANKS + rank) for s in suits))
    return tuple(sorted(out))


# The table of each rules object seen, by identity: hashing a pydantic model costs
# about a microsecond, a third of a whole call.  The entry keeps its rules alive, so
# an id is never reused while it is in here.
_TABLES: dict[int, tuple[MeldRules, Any]] = {}


def _table(rules: MeldRules) -> Any:
    """The core's search table for ``rules`` (None: these rules need the general search)."""
    entry = _TABLES.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    if len(_TABLES) >= 64:
        _TABLES.clear()
    table = _table_for(rules)
    _TABLES[id(rules)] = (rules, table)
    return table


@lru_cache(maxsize=64)
def _table_for(rules: MeldRules) -> Any:
    if _CORE is None or rules.uses_jokers:
        return None
    return _CORE.new_table(meld_masks(rules), rules.face_points[:SUITED])


def min_deadwood(cards: Sequence[int], rules: MeldRules) -> int:
    """The least deadwood (points left out of melds) of card ids ``cards``."""
    table = _table(rules)
    if table is not None:
        # None: a hand the core does not take (a face twice, a joker)
        found = _CORE.deadwood(table, cards)
        if found is not None:
            return int(found)
    rules = _deadwood_rules(rules)
    return deadwood(best(list(cards), rules).leftover, rules)


def deadwood_after_discards(cards: Sequence[int], rules: MeldRules) -> dict[int, int] | None:
    """{face: least deadwood of the hand without that card} for each card, in one call
    to the core; None where the core does not apply (the caller searches instead)."""
    table = _table(rules)
    found = None if table is None else _CORE.discards(table, cards)
    return None if found is None else dict(found)


@lru_cache(maxsize=16)
def _deadwood_rules(rules: MeldRules) -> MeldRules:
    """``rules`` with the least-deadwood objective (what ``best`` must minimise here)."""
    if rules.objective is Objective.DEADWOOD:
        return rules
    return rules.replace(objective=Objective.DEADWOOD.value)
