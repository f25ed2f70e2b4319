"""The compiled solver against endplay (Bo Haglund's DDS), the trusted peer.

docs/dds.md, "Tests": endplay (DDS) is the trusted peer, and our answers must
equal its answers on every deal tried. Issue 6 §3: the full 5 x 4 table on random deals, and
random mid-play positions with the score of every legal card.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from engine.cards import format_face
from engine.dds import DealError, Solver, dd_table, make_deal, solve, solve_position
from engine.rng import Rng
from engine.tricks import winning_index

endplay = pytest.importorskip("endplay")
from endplay import _dds as ep_core  # noqa: E402
from endplay.dds import calc_dd_table, solve_board  # noqa: E402
from endplay.types import Card as EpCard  # noqa: E402
from endplay.types import Deal as EpDeal  # noqa: E402
from endplay.types import Denom, Player  # noqa: E402

ep_core.SetMaxThreads(1)
STRAINS = "CDHSN"
EP_DENOM = {0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades, 4: Denom.nt}
SUIT_OF_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def deal_of(rng: Rng, k: int = 13) -> Any:
    cards = rng.shuffled(list(range(52)))[: 4 * k]
    return make_deal([cards[i * k:(i + 1) * k] for i in range(4)])


def endplay_table(pbn: str, k: int) -> dict[str, dict[str, int]]:
    """endplay's table, as tricks out of k (DDS gives the tricks of a shorter
    ending as if declarer had won the tricks already played)."""
    rows = calc_dd_table(EpDeal.from_pbn(pbn)).to_list()
    return {st: {p: rows[i][j] - (13 - k) for j, p in enumerate("NESW")}
            for i, st in enumerate("SHDCN")}


def random_play(rng: Rng, hands: list[list[int]], strain: int, leader: int,
                n: int) -> list[int]:
    """n cards of random legal play from the start."""
    hs = [list(h) for h in hands]
    trick: list[int] = []
    played: list[int] = []
    lead = leader
    for _ in range(n):
        seat = (lead + len(trick)) % 4
        legal = [c for c in hs[seat] if trick and c // 13 == trick[0] // 13] or hs[seat]
        card = rng.choice(legal)
        hs[seat].remove(card)
        trick.append(card)
        played.append(card)
        if len(trick) == 4:
            lead = (lead + winning_index(trick, None if strain == 4 else strain)) % 4
            trick = []
    return played


def test_tables_of_endings_match_endplay() -> None:
    """The 5 x 4 table of 6- to 9-card endings equals DDS's."""
    rng = Rng(11)
    solver = Solver()
    for i in range(80):
        k = 6 + i % 4
        deal = deal_of(rng, k)
        assert dd_table(deal, solver=solver) == endplay_table(deal.to_pbn(), k), deal.to_pbn()


def test_mid_play_positions_match_endplay() -> None:
    """From 500 random points of random play (from trick 4 on, mid-trick too),
    every legal card scores what DDS's SolveBoard says."""
    rng = Rng(3)
    solver = Solver()
    mid_trick = 0
    for _ in range(500):
        deal = deal_of(rng)
        strain, leader = rng.below(5), rng.below(4)
        played = random_play(rng, [list(h) for h in deal.hands], strain, leader,
                             12 + rng.below(36))
        mid_trick += len(played) % 4 != 0
        ours = solve_position(deal, STRAINS[strain], "NESW"[leader],
                              [format_face(c) for c in played], solver=solver)
        ep = EpDeal.from_pbn(deal.to_pbn())
        ep.first = Player(leader)
        ep.trump = EP_DENOM[strain]
        for c in played:
            name = format_face(c)
            ep.play(EpCard(name[1] + name[0]))
        theirs = {}
        for card, tricks in solve_board(ep):
            text = str(card)
            theirs[text[1:] + SUIT_OF_SYMBOL[text[0]]] = tricks
        assert ours.scores == theirs, (deal.to_pbn(), strain, leader, played)
    assert mid_trick >= 300


def endplay_scores(deal: Any, strain: int, leader: int, played: list[int]) -> dict[str, int]:
    ep = EpDeal.from_pbn(deal.to_pbn())
    ep.first = Player(leader)
    ep.trump = EP_DENOM[strain]
    for c in played:
        name = format_face(c)
        ep.play(EpCard(name[1] + name[0]))
    out = {}
    for card, tricks in solve_board(ep):
        text = str(card)
        out[text[1:] + SUIT_OF_SYMBOL[text[0]]] = tricks
    return out


def test_a_warm_solver_across_sampled_deals_matches_endplay() -> None:
    """Issue 17 item 2: one Solver keeps its table across the deals of a bot's
    decision (same strain: the cards a seat cannot see dealt again between the
    two hands it cannot see) and across the same deal after each card; every
    card's score still equals DDS's."""
    rng = Rng(17)
    solver = Solver(tt_bytes=1 << 22)
    strain = rng.below(5)
    checked = 0
    for _ in range(12):
        deal = deal_of(rng)
        leader = rng.below(4)
        played = random_play(rng, [list(h) for h in deal.hands], strain, leader,
                             4 + rng.below(30))
        for _ in range(8):
            # North sees its hand and South's: East and West swap unseen cards.
            hands = [list(h) for h in deal.hands]
            unseen = [c for c in hands[1] + hands[3] if c not in played]
            fixed = [[c for c in hands[s] if c in played] for s in (1, 3)]
            shuffled = rng.shuffled(unseen)
            k = len(hands[1]) - len(fixed[0])
            hands[1] = fixed[0] + shuffled[:k]
            hands[3] = fixed[1] + shuffled[k:]
            sample = make_deal(hands)
            try:
                ours = solve_position(sample, STRAINS[strain], "NESW"[leader],
                                      [format_face(c) for c in played], solver=solver)
            except DealError:  # the new hand held a suit its player showed out of
                continue
            checked += 1
            assert ours.scores == endplay_scores(sample, strain, leader, played), \
                (sample.to_pbn(), strain, leader, played)
    assert checked >= 40
    assert solver.stats()["tt_hits"] > 0


# The 200 full deals (about 0.3 s a table here, docs/dds.md "Speed");
# CARDTABLE_DDS_FULL_DEALS raises or lowers the count, and `bench/dds.py
# --verify N` checks a bench set the same way.
FULL_DEALS = int(os.environ.get("CARDTABLE_DDS_FULL_DEALS", "200"))


def test_full_deal_tables_match_endplay() -> None:
    """Issue 6 §3: the full 5 x 4 table of random deals equals DDS's, and a single
    solve agrees with the table."""
    rng = Rng(2026)
    deals: list[Any] = []
    picks: list[tuple[int, int]] = []  # (leader, strain) of each deal's single solve
    for _ in range(FULL_DEALS):
        deals.append(deal_of(rng))
        picks.append((rng.below(4), rng.below(5)))
    solver = Solver()

    def ours() -> list[tuple[Any, int]]:
        return [(dd_table(deal, solver=solver),
                 solve(deal, STRAINS[strain], "NESW"[leader], solver=solver))
                for deal, (leader, strain) in zip(deals, picks, strict=True)]

    # Our core releases the GIL, so our side runs on a thread beside DDS's (which
    # stays on this one: endplay's calls are not safe from two threads at once).
    with ThreadPoolExecutor(1) as pool:
        mine = pool.submit(ours)
        theirs = [endplay_table(deal.to_pbn(), 13) for deal in deals]
        answers = mine.result()
    for deal, (leader, strain), (table, tricks), want in zip(
            deals, picks, answers, theirs, strict=True):
        assert table == want, deal.to_pbn()
        decl = "NESW"[(leader + 3) % 4]
        assert tricks == 13 - table["CDHSN"[strain]][decl], deal.to_pbn()


def test_a_full_table_sheds_cheap_groups_and_stays_right() -> None:
    """Issue 6 §2: with too little memory the table keeps the entries that save the
    most work (groups with more tricks left) instead of forgetting everything, and
    the answers do not change."""
    rng = Rng(77)
    solver = Solver(tt_bytes=1 << 20)
    for _ in range(3):
        deal = deal_of(rng)
        assert dd_table(deal, solver=solver) == endplay_table(deal.to_pbn(), 13), deal.to_pbn()
    stats = solver.stats()
    assert stats["tt_evictions"] > 0
    assert stats["tt_drops"] == 0
