"""Dealing a bridge board: the hands of board ``index`` of a session (from the
table's fixed deal or the seed), sorted for display, and the deal as PBN."""

from __future__ import annotations

from engine.cards import RANKS, deck
from engine.dds.deal import parse_pbn
from engine.rng import Rng
from rules.bridge.boards import SEATS, Vulnerability, dealer, vulnerability
from rules.bridge.options import BridgeConfig
from rules.bridge.state import BoardResult, BridgeState, Hands, Phase


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
        cards = Rng(seed).fork(index).shuffled(deck())
        hands = (
            _sorted(cards[0:13]),
            _sorted(cards[13:26]),
            _sorted(cards[26:39]),
            _sorted(cards[39:52]),
        )
    return BridgeState(
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
        results=results,
    )


def deal_pbn(state: BridgeState) -> str:
    """The board's deal as dealt, as a PBN deal string from North (what
    ``make_deal(state.dealt).to_pbn()`` gives: the dealt hands are a deck's
    cards, so they need no check, and each board's result is written so)."""
    parts = []
    for hand in state.dealt:
        suits = ["", "", "", ""]
        for f in sorted(hand, reverse=True):  # spades to clubs, high to low
            suits[f // 13] += RANKS[f % 13]
        parts.append(f"{suits[3]}.{suits[2]}.{suits[1]}.{suits[0]}")
    return "N:" + " ".join(parts)
