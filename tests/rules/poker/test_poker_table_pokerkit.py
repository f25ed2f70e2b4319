"""Differential test of the hold'em table against pokerkit (test-only dependency).

Random hands for 2-9 players, random stacks (many short, so all-ins and side pots are
common), blinds and antes: at every decision both engines agree on who acts, the
amount to call and the bet/raise range; a random legal action (any amount in the
range for bets and raises, not only the representative ones ``legal`` lists) is
played in both; at the end both give the same pots (amounts and eligible players),
the same winners of each pot and the same final stacks.  Both engines get the same
cards.  pokerkit gives an uneven split's remainder to the first winner left of the
button, so the table runs with ``odd_chip = first_winner`` here (the default rule is
checked in test_poker_table_rules.py).  Every hand still in shows at the showdown
(``muck_losers`` off, and shown in pokerkit too): pokerkit merges pots whose players
become the same once losers muck, which moves odd chips; muck decisions never change
who wins what in our table (a hand mucks only when it cannot win).  Antes are full for
everybody, the case where pokerkit's dead-money antes and our contribution antes agree.
"""

from __future__ import annotations

import warnings

import pytest

from engine.cards import deck, format_card
from engine.rng import Rng
from rules.poker.betting import act, deal_hand, hand_pots, options
from rules.poker.options import OddChip, PokerConfig

pokerkit = pytest.importorskip("pokerkit")
A = pokerkit.Automation
AUTOMATIONS = (
    A.ANTE_POSTING,
    A.BET_COLLECTION,
    A.BLIND_OR_STRADDLE_POSTING,
    A.CARD_BURNING,
    A.CHIPS_PULLING,
)
HANDS = 2_000


def _cards(ids: list[int]) -> str:
    return "".join(format_card(c)[0] + format_card(c)[1].lower() for c in ids)


def random_table(rng: Rng) -> tuple[PokerConfig, list[int]]:
    n = 2 + rng.below(8)
    sb = 1 + rng.below(5)
    bb = sb * (1 + rng.below(3))
    ante = rng.choice([0, 0, 1, sb])
    stacks = []
    for _ in range(n):
        # Short stacks (a few big blinds) and deep ones, so all-ins happen a lot.
        stacks.append(ante + 1 + (rng.below(6 * bb) if rng.below(2) else rng.below(120 * bb)))
    config = PokerConfig(
        seats=n,
        small_blind=sb,
        big_blind=bb,
        ante=ante,
        starting_stack=max(stacks),
        hands=1,
        odd_chip=OddChip.FIRST_WINNER,
        muck_losers=False,
    )
    return config, stacks


def play_both(seed: int) -> tuple[int, int]:
    rng = Rng(seed)
    config, stacks = random_table(rng)
    n = config.seats
    cards = rng.shuffled(deck())
    holes = [(cards[i], cards[n + i]) for i in range(n)]
    stub = cards[2 * n :]
    players = tuple(range(n))  # seat i is pokerkit's player i; the button is seat n - 1
    hand, ours, _ = deal_hand(config, stacks, players, 1, holes, stub)

    pk = pokerkit.NoLimitTexasHoldem.create_state(
        AUTOMATIONS,
        False,
        config.ante,
        (config.small_blind, config.big_blind),
        config.big_blind,
        tuple(stacks),
        n,
    )
    for i in range(n):
        pk.deal_hole(_cards(list(holes[i])))
    dealt = 0
    actions = 0
    while True:
        while pk.can_deal_board():
            assert len(hand.board) > dealt, "pokerkit deals a street our table did not"
            pk.deal_board(_cards(list(hand.board[dealt : dealt + (3 if dealt == 0 else 1)])))
            dealt += 3 if dealt == 0 else 1
        opts = options(hand, ours, config)
        if opts is None:
            assert pk.actor_index is None, f"pokerkit expects seat {pk.actor_index} to act"
            break
        assert pk.actor_index == opts.seat
        assert pk.checking_or_calling_amount == opts.to_call
        assert pk.min_completion_betting_or_raising_to_amount == opts.min_to
        assert pk.max_completion_betting_or_raising_to_amount == opts.max_to
        choices = (
            ["call"]
            + (["fold"] if opts.can_fold else [])
            + (["raise", "raise", "all_in"] if opts.min_to is not None else [])
        )
        kind = rng.choice(choices)
        if kind == "fold":
            pk.fold()
            hand, ours, _ = act(hand, ours, config, "fold")
        elif kind == "call":
            pk.check_or_call()
            hand, ours, _ = act(hand, ours, config, "call" if opts.to_call else "check")
        else:
            assert opts.min_to is not None and opts.max_to is not None
            to = (
                opts.max_to
                if kind == "all_in"
                else opts.min_to
                + rng.below(min(opts.max_to - opts.min_to, 4 * config.big_blind) + 1)
            )
            pk.complete_bet_or_raise_to(to)
            hand, ours, _ = act(hand, ours, config, "raise", to)
        actions += 1
    while True:  # pokerkit shows all-in hands before it runs the board out
        if pk.can_show_or_muck_hole_cards():
            pk.show_or_muck_hole_cards(True)
        elif pk.can_deal_board():
            pk.deal_board(_cards(list(hand.board[dealt : dealt + (3 if dealt == 0 else 1)])))
            dealt += 3 if dealt == 0 else 1
        else:
            break
    assert hand.done
    assert dealt == len(hand.board) or len(hand.live) == 1
    showdown = len(hand.live) > 1
    if showdown:
        # The pots before pokerkit kills the losing hands (which it then drops from
        # the pots' players); the winners are the same either way.
        expected = [(p.amount, tuple(p.player_indices)) for p in pk.pots]
        got = [(p.amount, p.eligible) for p in hand_pots(hand)]
        assert got == expected, (got, expected)
    while pk.can_kill_hand():
        pk.kill_hand()
    won = [0] * n  # chips pushed to each player (pokerkit pushes merged pots at once)
    while pk.can_push_chips():
        op = pk.push_chips()
        won = [w + x for w, x in zip(won, op.amounts, strict=True)]
    while pk.can_pull_chips():
        pk.pull_chips()
    if showdown:
        ours_won = [0] * n
        for a in hand.awards:
            for seat, chips in a.shares:
                ours_won[seat] += chips
        assert ours_won == won
    assert list(pk.stacks) == list(ours), (list(pk.stacks), list(ours))
    assert sum(ours) == sum(stacks)
    return actions, len(hand.awards) if showdown else 0


def test_random_hands_agree_with_pokerkit():
    """Same pots, same winners, same final stacks as pokerkit on 2,000 random hands."""
    warnings.simplefilter("ignore")
    actions = side_pots = 0
    for seed in range(HANDS):
        a, pots = play_both(seed)
        actions += a
        side_pots += pots > 1
    # The sample exercises what it claims to: plenty of actions and side pots.
    assert actions > 5 * HANDS
    assert side_pots > HANDS // 20
