"""Every call of an auction explained by the natural system: the rule that reads it,
the points and suit lengths it shows, whether partner may pass it, and whether it
is alerted (artificial).  A pure function of the public auction, so every viewer
gets the same explanations (docs/bridge_bidding.md, "Every call explained")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.bridge.auction import CallError, parse_call
from rules.bridge.system.hand import (
    ANY_LENGTH,
    CLUBS,
    DIAMONDS,
    HEARTS,
    NOTHING,
    SPADES,
    Constraints,
)
from rules.bridge.system.natural import RULES
from rules.bridge.system.rulebook import Calls, Known, Reading, read_call

_SUIT_WORDS = {SPADES: "spades", HEARTS: "hearts", DIAMONDS: "diamonds", CLUBS: "clubs"}
_BALANCED_LENGTH = (2, 5)
NO_MEANING = "no agreed meaning"


def _range(lo: int, hi: int, top: int) -> str:
    if lo == hi:
        return f"exactly {lo}"
    if hi >= top:
        return f"{lo}+"
    return f"{lo}–{hi}"


def shows_text(c: Constraints) -> str:
    """``15–17 HCP, balanced``; ``12–21 HCP, 5+ spades``; ``""`` when it shows nothing."""
    parts = []
    if c.hcp != (0, 37):
        parts.append(f"{_range(c.hcp[0], c.hcp[1], 37)} HCP")
    for suit in (SPADES, HEARTS, DIAMONDS, CLUBS):
        lo, hi = c.lengths[suit]
        if (lo, hi) == ANY_LENGTH or (c.balanced and (lo, hi) == _BALANCED_LENGTH):
            continue
        parts.append(f"{_range(lo, hi, 13)} {_SUIT_WORDS[suit]}")
    if c.balanced:
        parts.append("balanced")
    return ", ".join(parts)


@dataclass(frozen=True)
class Explanation:
    """One call's meaning: ``rule`` is the system's name for it (None when the
    system has none), ``shows`` the constraints in words."""

    rule: str | None
    shows: str
    forcing: bool
    alert: bool

    @property
    def meaning(self) -> str:
        """``1NT opening: 15–17 HCP, balanced``; ``Stayman: 8+ HCP, …; forcing``."""
        if self.rule is None:
            return NO_MEANING
        text = f"{self.rule}: {self.shows}" if self.shows else self.rule
        return text + ("; forcing" if self.forcing else "")

    def json(self) -> dict[str, Any]:
        return {"meaning": self.meaning, "forcing": self.forcing, "alert": self.alert}


def _explanation(r: Reading) -> Explanation:
    return Explanation(r.rule.name if r.rule else None, shows_text(r.shows), r.forcing, r.alert)


Prefix = tuple[tuple[int, str], ...]


@lru_cache(maxsize=4096)
def _read(calls: Prefix) -> tuple[Known, tuple[Explanation, ...]]:
    """The auction read call by call; each prefix is cached, so a frame reads only
    the calls made since the last one."""
    if not calls:
        return (NOTHING, NOTHING, NOTHING, NOTHING), ()
    known, done = _read(calls[:-1])
    parsed = [(seat, parse_call(text)) for seat, text in calls]
    seat, call = parsed[-1]
    known, r = read_call(parsed[:-1], known, seat, call, RULES)
    return known, (*done, _explanation(r))


def _prefix(auction: Iterable[Mapping[str, Any]]) -> Prefix | None:
    try:
        calls = tuple((int(c["seat"]), str(parse_call(str(c["call"])))) for c in auction)
    except (CallError, KeyError, TypeError, ValueError):
        return None
    return calls


def explain_calls(calls: Calls) -> list[Explanation]:
    """Each call of ``calls`` ((seat, call) in order) as the system reads it."""
    return list(_read(tuple((seat, str(call)) for seat, call in calls))[1])


def explain_auction(auction: Iterable[Mapping[str, Any]]) -> list[Explanation] | None:
    """A view's ``auction`` (``{"seat", "call"}`` objects) explained; None when it does
    not read as an auction."""
    calls = _prefix(auction)
    return None if calls is None else list(_read(calls)[1])


def explanation_of(
    auction: Sequence[Mapping[str, Any]], seat: int, call: str
) -> Explanation | None:
    """What ``call`` by ``seat`` would mean after ``auction`` (a view's calls)."""
    explained = explain_auction([*auction, {"seat": seat, "call": call}])
    return explained[-1] if explained else None
