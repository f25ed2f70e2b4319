"""Bridge card play's hot step: the cards the seat on turn may play, whether a
card is one of them, and a card played (the trick resolved at its fourth card).

Random-legal self-play and bot searches run these at every card, so the
compiled core ``_play`` (``_play.c``) answers them when it is built; the Python
functions here are its reference and fallback, and the tests compare both on
many random positions.  Pure functions of faces (``suit * 13 + rank``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.game import Action
from engine.tricks import winning_index

Hand = tuple[int, ...]
Hands4 = tuple[Hand, Hand, Hand, Hand]


def legal_py(held: Hand, trick: Hand, plays: tuple[Action, ...],
             claims: tuple[tuple[Action, ...], ...]) -> list[Action]:
    """What the seat on turn holding ``held`` may do: ``plays[face]`` for each card
    it may play (following suit), then ``claims[len(held)]``: whoever is on turn
    may claim or concede too, except once the last trick is under way (a claim
    must concern a later trick, rules/bridge/claims.py, claim_allowed)."""
    cards = held
    if trick:
        led = trick[0] // 13
        cards = tuple(c for c in held if c // 13 == led) or held
    out = [plays[c] for c in cards]
    if len(held) > 1 or not trick:
        out += claims[len(held)]
    return out


def may_play_py(held: Hand, trick: Hand, face: int) -> bool:
    """Whether ``face`` is in ``held`` and follows suit if it can."""
    if face not in held:
        return False
    if trick:
        led = trick[0] // 13
        return face // 13 == led or all(c // 13 != led for c in held)
    return True


def play_py(hands: Hands4, player: int, trick: Hand, played: Hand, face: int, trump: int,
            check: bool) -> tuple[Hands4, Hand, Hand, int] | None:
    """``face`` played from ``hands[player]`` to ``trick`` and to ``played`` (the
    board's cards in order): the hands, the trick and ``played`` after, and the
    index in the trick of the card that wins it once it has four cards (-1
    before).  ``trump``: a suit, or -1 for notrump.  A card not in the hand
    raises ValueError; with ``check``, None instead, and None for a revoke too
    (``may_play``), so that act() checks and plays in one call."""
    held = hands[player]
    if check and not may_play_py(held, trick, face):
        return None
    at = held.index(face)
    after: Hands4 = (*hands[:player], held[:at] + held[at + 1:],  # type: ignore[assignment]
                     *hands[player + 1:])
    trick = (*trick, face)
    played = (*played, face)
    if len(trick) < 4:
        return after, trick, played, -1
    return after, trick, played, winning_index(trick, None if trump < 0 else trump)


def _load_core() -> ModuleType | None:
    try:
        return importlib.import_module("rules.bridge._play")
    except ImportError:
        return None  # not built: the functions above answer alike


_CORE = _load_core()
legal = legal_py if _CORE is None else _CORE.legal
may_play = may_play_py if _CORE is None else _CORE.may_play
play = play_py if _CORE is None else _CORE.play
