"""Pure-Python double-dummy reference: plain minimax over every legal card.

No pruning, no move ordering, no card equivalence: only a memo of positions
already valued (hands as 52-bit masks), so endings of up to five cards a hand
stay quick. Used only to cross-check the compiled solver."""

from __future__ import annotations

from functools import cache

SUIT_MASK = [0x1FFF << (13 * s) for s in range(4)]


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _winner(trick: tuple[int, ...], trump: int | None) -> int:
    """Index of the winning card: highest trump, else highest of the led suit."""
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if c // 13 == b // 13:
            if c > b:
                best = i
        elif c // 13 == trump:
            best = i
    return best


def _legal(hand: int, trick: tuple[int, ...]) -> list[int]:
    if trick:
        follow = hand & SUIT_MASK[trick[0] // 13]
        if follow:
            return _cards(follow)
    return _cards(hand)


def reference_scores(hands: tuple[int, ...], trump: int | None, leader: int,
                     trick: tuple[int, ...]) -> dict[int, int]:
    """For each legal card (face) of the player to move: the tricks its side
    takes from the remaining play, the trick on the table included.
    ``hands`` are 52-bit masks (bit = face) for N, E, S, W."""

    @cache
    def value(hs: tuple[int, ...], lead: int, tr: tuple[int, ...]) -> int:
        """Tricks of the side to move from here."""
        seat = (lead + len(tr)) % 4
        if not hs[seat]:
            return 0
        return max(after(hs, lead, tr, c) for c in _legal(hs[seat], tr))

    def after(hs: tuple[int, ...], lead: int, tr: tuple[int, ...], c: int) -> int:
        """Tricks of the mover's side once it has played ``c``."""
        seat = (lead + len(tr)) % 4
        new = list(hs)
        new[seat] &= ~(1 << c)
        nhs = (new[0], new[1], new[2], new[3])
        ntr = (*tr, c)
        if len(ntr) < 4:
            v = value(nhs, lead, ntr)
            left = bin(nhs[(seat + 1) % 4]).count("1")
            # The next player is an opponent: what it does not take, we take.
            return left - v
        w = (lead + _winner(ntr, trump)) % 4
        left = bin(nhs[w]).count("1")
        v = value(nhs, w, ())
        if w % 2 == seat % 2:
            return 1 + v
        return left - v

    seat = (leader + len(trick)) % 4
    return {c: after(hands, leader, trick, c) for c in _legal(hands[seat], trick)}
