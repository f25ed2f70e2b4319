"""Hands to and from PHH (the Poker Hand History format), checked with pokerkit
(test-only dependency): a hand we export replays in pokerkit to the same final
stacks, and so does our import; a PHH file written by pokerkit replays in our engine
to pokerkit's final stacks."""

from __future__ import annotations

import tomllib
import warnings

import pytest

from engine.cards import CardParseError, deck, format_card, parse_face
from engine.events import OMNISCIENT, SPECTATOR
from engine.rng import Rng
from rules.poker.game import PokerGame
from rules.poker.phh import PhhError, from_phh, to_phh

pokerkit = pytest.importorskip("pokerkit")
GAME = PokerGame()


def random_hand(seed: int) -> tuple[object, object]:
    """A finished one-hand game from random play (no sitting out) and its config."""
    rng = Rng(seed)
    config = GAME.parse_config(
        {
            "seats": 2 + rng.below(8),
            "hands": 1,
            "ante": rng.choice([0, 1]),
            "starting_stack": 20 + rng.below(200),
        }
    )
    state = GAME.new(config, seed)
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        legal = [a for a in GAME.legal(state, seat) if a["type"] != "sit_out"]
        state, _ = GAME.act(state, seat, rng.choice(legal))
    return state, config


def pokerkit_final_stacks(text: str) -> list[int]:
    history = pokerkit.HandHistory.loads(text)
    state = list(history)[-1]  # iterating a history replays it state by state
    assert not state.status
    return list(state.stacks)


def test_exported_hands_replay_in_pokerkit_and_back_to_the_same_stacks():
    warnings.simplefilter("ignore")
    showdowns = 0
    for seed in range(300):
        state, config = random_hand(seed)
        hand = state.hand
        text = to_phh(hand, config)
        ours = [state.stacks[s] for s in hand.players]
        assert pokerkit_final_stacks(text) == ours, text
        back = from_phh(text)
        assert list(back.final_stacks) == ours
        showdowns += len(hand.shown) > 1
    assert showdowns > 30


def named(text: str) -> set[int]:
    """Every card a PHH text spells (cards run together, as in ``AcKs``)."""
    found = set()
    for action in tomllib.loads(text)["actions"]:
        for word in action.split():
            pairs = [word[i : i + 2] for i in range(0, len(word), 2)]
            try:
                found.update(parse_face(p) for p in pairs)
            except CardParseError:
                continue
    return found


def test_export_never_names_cards_that_were_not_shown():
    """Mucked and folded cards are never revealed, in hand histories either."""
    hidden_somewhere = 0
    for seed in range(100):
        state, config = random_hand(seed)
        hand = state.hand
        hidden = {c for s in hand.players if s not in hand.shown for c in hand.holes[s]}
        shown = {c for s in hand.shown for c in hand.holes[s]}
        for viewer in (SPECTATOR, OMNISCIENT):
            text = to_phh(hand, config, viewer)
            assert not named(text) & hidden
            assert shown | set(hand.board) == named(text)
        mine = hand.players[0]
        assert set(hand.holes[mine]) <= named(to_phh(hand, config, mine))
        hidden_somewhere += bool(hidden)
    assert hidden_somewhere > 50


def _pk(cards: list[int]) -> str:
    return "".join(format_card(c)[0] + format_card(c)[1].lower() for c in cards)


def test_pokerkit_written_hands_replay_to_the_same_stacks():
    """A PHH file written by pokerkit (HandHistory.from_game_state(...).dumps())."""
    warnings.simplefilter("ignore")
    a = pokerkit.Automation
    automations = (
        a.ANTE_POSTING,
        a.BET_COLLECTION,
        a.BLIND_OR_STRADDLE_POSTING,
        a.CARD_BURNING,
        a.HOLE_CARDS_SHOWING_OR_MUCKING,
        a.HAND_KILLING,
        a.CHIPS_PUSHING,
        a.CHIPS_PULLING,
    )
    for seed in range(200):
        rng = Rng(seed)
        n = 2 + rng.below(8)
        stacks = tuple(10 + rng.below(300) for _ in range(n))
        game = pokerkit.NoLimitTexasHoldem(automations, False, 0, (1, 2), 2)
        state = game(stacks, n)
        cards = rng.shuffled(deck())
        for i in range(n):
            state.deal_hole(_pk(cards[2 * i : 2 * i + 2]))
        board = cards[2 * n : 2 * n + 5]
        dealt = 0
        while state.status:
            if state.can_deal_board():
                k = 3 if dealt == 0 else 1
                state.deal_board(_pk(board[dealt : dealt + k]))
                dealt += k
            elif state.actor_index is not None:
                choice = rng.below(4)
                if choice == 0 and state.can_fold() and state.checking_or_calling_amount:
                    state.fold()
                elif choice == 1 and state.can_complete_bet_or_raise_to():
                    lo = state.min_completion_betting_or_raising_to_amount
                    hi = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(lo + rng.below(hi - lo + 1))
                else:
                    state.check_or_call()
            else:
                break
        text = pokerkit.HandHistory.from_game_state(game, state).dumps()
        assert list(from_phh(text).final_stacks) == list(state.stacks), text


def test_bad_histories_are_refused():
    good = (
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\n"
        "actions = ['d dh p1 AcKs', 'd dh p2 2h3d', 'p2 f']\n"
    )
    assert list(from_phh(good).final_stacks) == [101, 99]
    for bad in (
        good.replace("'NT'", "'FT'"),
        good.replace("'p2 f'", "'p1 f'"),  # out of turn
        good.replace("'p2 f'", "'p2 cbr 3'"),  # below the minimum raise
        good.replace(", 'p2 f'", ""),  # stops before the end
        good.replace("2h3d", "AcKs"),  # a card twice
    ):
        with pytest.raises(PhhError):
            from_phh(bad)


def test_a_new_players_post_is_live_and_does_not_move_the_first_to_act():
    # A negative blinds_or_straddles entry (pokerkit's notation): p4 posts 4 as a
    # player just sat down; p3, left of the big blind, still acts first and must
    # call the 4, and p4 may check its post (pokerkit: the same stacks).
    text = (
        "variant = 'NT'\nantes = 0\nblinds_or_straddles = [1, 2, 0, -4]\nmin_bet = 2\n"
        "starting_stacks = [100, 100, 100, 100]\n"
        "actions = ['p3 f', 'p4 cc', 'p1 f', 'p2 f']\n"
    )
    hand = from_phh(text)
    assert hand.final_stacks == (99, 98, 100, 103)
    history = pokerkit.HandHistory.loads(text)
    assert list(list(history)[-1].stacks) == list(hand.final_stacks)
