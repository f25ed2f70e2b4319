"""Dealing a bridge board: the hands of board ``index`` of a session (from the
table's fixed deal or the seed), sorted for display, and the deal as PBN."""

from __future__ import annotations

from engine.cards import RANKS, deck
from engine.dds.deal import parse_pbn
from engine.rng import Rng
from engine.values import build
from rules.bridge.boards import SEATS, Vulnerability, dealer, vulnerability
from rules.bridge.options import BridgeConfig
from rules.bridge.state import BoardResult, BridgeState, Hands, Phase

_DECK = tuple(deck())  # in its fixed order, shuffled into a new list for each board


def _sorted(cards: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    # Spades, hearts, diamonds, clubs; high to low within a suit: faces are
    # suit * 13 + rank, so that is simply descending (no key function per card).
    return tuple(sorted(cards, reverse=True))


def deal_board(
    config: BridgeConfig, seed: int, index: int, results: tuple[BoardResult, ...]
) -> BridgeState:
    """Board ``index`` of the session dealt, in its auction, after ``results``."""
    board = config.first_board + index
    if config.deal is not None:
        dealt = parse_pbn(config.deal).hands
        hands: Hands = (
            _sorted(dealt[0]),
            _sorted(dealt[1]),
            _sorted(dealt[2]),
            _sorted(dealt[3]),
        )
    else:
        cards = Rng(seed).fork(index).shuffled(_DECK)
        hands = (
            _sorted(cards[0:13]),
            _sorted(cards[13:26]),
            _sorted(cards[26:39]),
            _sorted(cards[39:52]),
        )
    # Every field named, in order, without the frozen __init__ (a third of a
    # board's deal): engine.values.build.
    return build(
        BridgeState,
        config=config,
        seed=seed,
        index=index,
        board=board,
        dealer=SEATS.index(config.dealer) if config.dealer else dealer(board),
        vulnerability=Vulnerability(config.vulnerable)
        if config.vulnerable
        else vulnerability(board),
        dealt=hands,
        hands=hands,
        calls=(),
        phase=Phase.AUCTION,
        alerts=(),
        contract=None,
        leader=0,
        trick=(),
        played=(),
        tricks=(0, 0),
        last_trick=(),
        last_leader=-1,
        claim=None,
        rejected_at=-1,
        results=results,
        auction=(),
    )


# A deal's PBN from bit masks: a hand as one 52-bit mask (bit = face), each suit's
# 13 bits looked up as its ranks spelt high to low ("" for a void).  Every board's
# result carries its deal, and spelling it card by card was a tenth of a board's
# end in random-legal self-play.
_BIT = tuple(1 << f for f in range(52))
_HOLDING = [""]
for _mask in range(1, 1 << 13):  # the top rank, then the holding without it
    _top = _mask.bit_length() - 1
    _HOLDING.append(RANKS[_top] + _HOLDING[_mask ^ 1 << _top])


def deal_pbn(state: BridgeState) -> str:
    """The board's deal as dealt, as a PBN deal string from North (what
    ``make_deal(state.dealt).to_pbn()`` gives; the dealt hands are a deck's
    cards, so they need no check)."""
    parts = []
    for hand in state.dealt:
        m = sum(map(_BIT.__getitem__, hand))
        parts.append(f"{_HOLDING[m >> 39]}.{_HOLDING[m >> 26 & 8191]}."
                     f"{_HOLDING[m >> 13 & 8191]}.{_HOLDING[m & 8191]}")
    return "N:" + " ".join(parts)
