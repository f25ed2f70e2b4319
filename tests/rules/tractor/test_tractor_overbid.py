"""Bidding in the kitty exchange window (``kitty_theft``) and who leads the first
trick (``first_leader``), table-driven from docs/tractor.md ("Overbidding the
kitty", "Who leads"), after rbtying/shengji's kitty theft."""

from __future__ import annotations

from typing import Any

import pytest

from bots.tractor.heuristic import TractorHeuristicBot
from engine.cards import FACES_PER_DECK, parse_face
from engine.errors import IllegalAction
from engine.events import SPECTATOR, Event
from engine.replay import LoggedAction, replay, state_hash
from engine.rng import Rng
from rules.tractor.state import Phase, TractorState
from tests.conformance import check_game, scan_step
from tests.rules.tractor.test_tractor_bids import GAME, act, drawing

# Seat 0 can declare a single 2H, seat 1 a pair of spades, seat 3 a small-joker pair.
HANDS = ["2H 4C", "2S 2S", "3C 5C", "SJ SJ"]


def faces(cards: Any) -> list[int]:
    return sorted(parse_face(c) for c in cards)


def to_burial(hands: list[str], first: tuple[int, str], **options: Any) -> TractorState:
    """A two-deck first round in which ``first`` = (seat, cards) is the only
    declaration: every other chance to declare is passed, the stock drawn."""
    s = drawing(hands, **{"deck_count": 2, **options})
    s, _ = act(s, first[0], "declare", first[1])
    while s.phase is Phase.DRAW:
        seat = GAME.to_act(s)[0]
        kinds = {a["type"] for a in GAME.legal(s, seat)}
        s, _ = act(s, seat, "draw" if "draw" in kinds else "pass")
    return s


def bury_lowest(state: TractorState) -> tuple[TractorState, list[Event]]:
    """The kitty's holder buries the cards ``legal`` lists first."""
    seat = GAME.to_act(state)[0]
    return GAME.act(state, seat, GAME.legal(state, seat)[0])


def test_without_the_option_the_burial_goes_straight_to_play() -> None:
    """``kitty_theft`` off (the default, as on shengji): nobody may bid after the burial."""
    s = to_burial(HANDS, (0, "2H"))
    assert s.phase is Phase.BURY and GAME.to_act(s) == (0,)
    s, _ = bury_lowest(s)
    assert s.phase is Phase.PLAY and s.leader == 0


def test_an_overbid_takes_the_kitty_and_fixes_the_new_trump() -> None:
    """After the burial every seat may override the standing declaration; the seat
    whose declaration then stands picks up the buried kitty, its declaration
    fixes trump (the landlord's rank stays), and it buries in turn.  The landlord
    stays the landlord."""
    s = to_burial(HANDS, (0, "2H"), kitty_theft=True)
    s, _ = bury_lowest(s)
    buried, held = s.kitty, len(s.hands[1])
    assert s.phase is Phase.OVERBID
    # Who could declare is each seat's secret; seat 0 (its single stands) cannot.
    assert set(GAME.to_act(s)) == {1, 3}
    assert GAME.to_act_visible(s, 1) == (1,) and GAME.to_act_visible(s, 2) == ()
    s, _ = act(s, 1, "declare", "2S 2S")
    assert s.phase is Phase.OVERBID  # seat 3 may still override the pair
    s, events = act(s, 3, "pass")
    assert s.phase is Phase.BURY and GAME.to_act(s) == (1,)
    assert s.landlord == 0 and s.kitty_holder == 1
    assert s.trump is not None and s.trump.suit == 3 and s.trump.rank == 0  # spades, 2s
    assert set(buried) <= set(s.hands[1]) and len(s.hands[1]) == held + len(buried)
    kinds = [e.kind for e in events]
    assert kinds[-3:] == ["kitty_taken", "trump", "kitty"]
    private = events[-1]
    assert private.visibility.seats == frozenset({1})
    # The window opens again after the new burial: seat 3's jokers still override.
    s, _ = bury_lowest(s)
    assert s.phase is Phase.OVERBID and GAME.to_act(s) == (3,)
    s, _ = act(s, 3, "declare", "SJ SJ")
    assert s.phase is Phase.BURY and s.kitty_holder == 3
    assert s.trump is not None and s.trump.suit is None  # no trump
    s, _ = bury_lowest(s)
    # Nobody can override the joker pair: the round goes on, the landlord leads.
    assert s.phase is Phase.PLAY and s.leader == 0 and s.landlord == 0


def test_the_kitty_is_seen_by_its_holder_alone() -> None:
    """The buried cards are secret from everyone but the seat that buried them
    last; the landlord whose kitty was taken no longer sees it."""
    s = to_burial(HANDS, (0, "2H"), kitty_theft=True)
    s, _ = bury_lowest(s)
    assert "kitty" in GAME.view(s, 0) and "kitty" not in GAME.view(s, 1)
    s, _ = act(s, 1, "declare", "2S 2S")
    s, _ = act(s, 3, "pass")
    s, _ = bury_lowest(s)
    s, _ = act(s, 3, "pass")
    assert s.phase is Phase.PLAY
    assert faces(GAME.view(s, 1)["kitty"]) == sorted(c % FACES_PER_DECK for c in s.kitty)
    assert "kitty" not in GAME.view(s, 0)
    assert {c % FACES_PER_DECK for c in s.kitty} - {c % FACES_PER_DECK for c in s.hands[0]} \
        <= GAME.secrets(s, 0)


def test_passing_everyone_closes_the_window() -> None:
    """A window in which nobody declares lets the round go on: no kitty moves."""
    s = to_burial(HANDS, (0, "2H"), kitty_theft=True)
    s, _ = bury_lowest(s)
    buried = s.kitty
    s, _ = act(s, 1, "pass")
    s, _ = act(s, 3, "pass")
    assert s.phase is Phase.PLAY and s.kitty == buried and s.kitty_holder == 0


def test_no_window_when_the_kitty_fixed_trump() -> None:
    """No declaration fixed trump (the kitty was turned up): there is nothing to
    override, as on shengji, where an automatic bid allows no overbidding."""
    s = drawing(["4C", "5C", "3C", "6C"], deck_count=2, kitty_theft=True)
    while s.phase is Phase.DRAW:
        s, _ = act(s, GAME.to_act(s)[0], "draw")
    assert s.kitty_revealed
    s, _ = bury_lowest(s)
    assert s.phase is Phase.PLAY


def test_only_a_declaration_of_the_window_may_be_withdrawn() -> None:
    """With ``bid_takeback`` the standing declarer may withdraw its declaration in
    the window only if it made it there (the one that fixed trump before the
    burial stands)."""
    s = to_burial(["2H 2H", "2S 2S 2S", "3C", "SJ SJ SJ"], (0, "2H 2H"), kitty_theft=True,
                  bid_takeback=True, deck_count=3)
    s, _ = bury_lowest(s)
    assert s.phase is Phase.OVERBID
    # Seat 0's pair fixed trump before the burial: nothing of its own to do here.
    assert GAME.legal(s, 0) == []
    with pytest.raises(IllegalAction) as err:
        act(s, 0, "takeback_bid")
    assert err.value.code == "not_your_turn"
    s, _ = act(s, 1, "declare", "2S 2S 2S")
    assert s.phase is Phase.OVERBID  # seat 3's three small jokers still override
    assert {"type": "takeback_bid"} in GAME.legal(s, 1)
    s, _ = act(s, 1, "takeback_bid")
    assert s.current is not None and s.current.seat == 0 and s.phase is Phase.OVERBID


@pytest.mark.parametrize(("policy", "leader"), [("landlord", 0), ("exchanger", 3),
                                                 ("trump_declarer", 3)])
def test_who_leads_the_first_trick_after_a_theft(policy: str, leader: int) -> None:
    """Option ``first_leader``: the landlord (default, shengji), the seat that
    buried the kitty last, or the seat whose declaration fixed trump."""
    s = to_burial(HANDS, (0, "2H"), kitty_theft=True, first_leader=policy)
    s, _ = bury_lowest(s)
    s, _ = act(s, 1, "pass")
    s, _ = act(s, 3, "declare", "SJ SJ")
    s, _ = bury_lowest(s)  # nobody can override the joker pair: the window closes
    assert s.phase is Phase.PLAY and s.landlord == 0 and s.leader == leader
    assert GAME.to_act(s) == (leader,)


@pytest.mark.parametrize(("policy", "leader"), [("landlord", 0), ("exchanger", 0),
                                                 ("trump_declarer", 2)])
def test_who_leads_when_the_first_bidder_is_landlord(policy: str, leader: int) -> None:
    """``first_landlord = by_first_bid`` makes seat 0 landlord though seat 2's pair
    fixed trump: ``trump_declarer`` gives seat 2 the lead, the others the landlord
    (no theft: the landlord buried last)."""
    s = drawing(["2C", "3C", "2H 2H", "4C"], deck_count=2, first_landlord="by_first_bid",
                first_leader=policy)
    s, _ = act(s, 0, "declare", "2C")
    s, _ = act(s, 2, "declare", "2H 2H")
    while s.phase is Phase.DRAW:
        seat = GAME.to_act(s)[0]
        kinds = {a["type"] for a in GAME.legal(s, seat)}
        s, _ = act(s, seat, "draw" if "draw" in kinds else "pass")
    s, _ = bury_lowest(s)
    assert s.landlord == 0 and s.phase is Phase.PLAY and s.leader == leader


def test_version_2_tables_have_neither_option() -> None:
    """A table stored before these options existed replays as it was played and
    may not set them."""
    for name, value in (("kitty_theft", True), ("first_leader", "exchanger")):
        with pytest.raises(IllegalAction) as err:
            GAME.parse_config({"version": 2, name: value})
        assert err.value.code == "bad_option" and name in err.value.message
    assert "kitty_theft" not in GAME.config_json(GAME.parse_config({"version": 2}))


THEFT_TABLES: list[dict[str, Any]] = [
    {"kitty_theft": True},
    {"kitty_theft": True, "deck_count": 3, "first_leader": "exchanger"},
    {"kitty_theft": True, "finding_friends": True, "seats": 6, "first_leader": "trump_declarer"},
]


@pytest.mark.parametrize("options", THEFT_TABLES, ids=["classic", "three decks", "friends"])
def test_random_play_with_overbids_conforms(options: dict[str, Any]) -> None:
    """The Game contract under ``kitty_theft`` (tests/conformance.py, leaks scanned):
    random legal play ends, replays identically and shows no seat a card its
    ``secrets`` hide.  Random play seldom reaches a window, so a second run
    makes the weakest first declaration and overbids whenever it can (random
    otherwise): kitties change hands, every
    view and event is scanned, and the log replays to the same state."""
    config = GAME.parse_config({**options, "rounds": 1})
    assert check_game(GAME, config, range(4)) > 0
    viewers = [*range(config.seats), SPECTATOR]
    taken = 0
    for seed in range(4):
        state, rng = GAME.new(config, seed), Rng(seed)
        log: list[LoggedAction] = []
        while GAME.to_act(state):
            seat = rng.choice(GAME.to_act(state))
            legal = GAME.legal(state, seat)
            declares = [a for a in legal if a["type"] == "declare"]
            if state.phase is Phase.DRAW:
                # The weakest first declaration, so that stronger ones are left.
                fewest = min((len(a["cards"]) for a in declares), default=0)
                declares = [a for a in declares if state.current is None
                            and len(a["cards"]) == fewest]
            others = [a for a in legal if a["type"] != "declare"]
            action = rng.choice(declares or others or legal)
            before = state
            move = GAME.validate(state, seat, action)
            state, events = GAME.apply(state, seat, move)
            log.append(LoggedAction(len(log) + 1, seat, move.action))
            scan_step(GAME, state, viewers, events, before, seat=seat, action=move.action)
            taken += sum(e.kind == "kitty_taken" for e in events)
        assert state_hash(GAME, replay(GAME, config, seed, log)) == state_hash(GAME, state)
    assert taken > 0


@pytest.mark.parametrize("options", THEFT_TABLES, ids=["classic", "three decks", "friends"])
def test_heuristic_bots_finish_rounds_under_kitty_theft(options: dict[str, Any]) -> None:
    """Four (or more) heuristic bots play whole rounds with the window open after
    every burial: every card is accounted for at the end (the bot declares at most
    once a round after the burial, so the windows end)."""
    config = GAME.parse_config({**options, "rounds": 1})
    bot = TractorHeuristicBot()
    for seed in range(4):
        state = GAME.new(config, seed)
        for _ in range(5000):
            if not GAME.to_act(state):
                break
            seat = GAME.to_act(state)[0]
            action = bot.decide(GAME.view(state, seat), GAME.legal(state, seat), seat, seed, 1.0)
            assert action is not None
            state, _ = GAME.act(state, seat, action)
        assert state.phase is Phase.OVER
        cards = [*state.played, *state.kitty, *(c for h in state.hands for c in h)]
        assert sorted(cards) == list(range(config.decks * FACES_PER_DECK))


def test_the_window_and_the_theft_read_as_words() -> None:
    """Labels and narration (docs/architecture.md, "Presentation"): an overbid
    says it takes the kitty, and everyone is told who took it and the trump."""
    words = GAME.presentation
    names = list(GAME.seat_names(GAME.parse_config({})))
    s = to_burial(HANDS, (0, "2H"), kitty_theft=True)
    s, _ = bury_lowest(s)
    labels = [words.action_label(GAME.view(s, 1), a) for a in GAME.legal(s, 1)]
    assert labels == ["Declare ♠ with 2♠ 2♠ (take the kitty)", "Pass (do not declare)"]
    s, _ = act(s, 1, "declare", "2S 2S")
    before = GAME.view(s, 2)
    s, events = act(s, 3, "pass")
    taken = next(e for e in events if e.kind == "kitty_taken")
    line = words.narrate(before, taken.to_json(), 2, names)
    assert line == f"{names[1]} overbids and takes the kitty from {names[0]}: trump ♠", line
    mine = words.narrate(GAME.view(s, 1), taken.to_json(), 1, names)
    assert mine is not None and mine.startswith("You overbid and take the kitty")


def test_the_heuristic_bot_overbids_for_a_suit_it_holds_and_not_twice() -> None:
    """The heuristic overbids when its suit gives its hand more trumps than the
    trump standing (docs/tractor.md, "Bots"): seat 1's spades against seat 0's
    hearts.  Once it has declared this round it passes, though it could still
    reinforce (which would only take back the kitty it buried)."""
    s = to_burial(["2H 3C", "2S 2S 2S 3S 4S 5S 6S 7S", "3D", "4D"], (0, "2H"),
                  kitty_theft=True, deck_count=3)
    s, _ = bury_lowest(s)
    assert s.phase is Phase.OVERBID and GAME.to_act(s) == (1,)
    bot = TractorHeuristicBot()
    action = bot.decide(GAME.view(s, 1), GAME.legal(s, 1), 1, 0, 1.0)
    assert action == {"type": "declare", "cards": ["2S", "2S"]}
    s, _ = GAME.act(s, 1, action)
    for _ in range(2):  # in this window, then in the one after its burial
        assert s.phase is Phase.OVERBID and GAME.to_act(s) == (1,)  # it may reinforce
        assert bot.decide(GAME.view(s, 1), GAME.legal(s, 1), 1, 0, 1.0) == {"type": "pass"}
        s, _ = act(s, 1, "pass")
        if s.phase is Phase.BURY:
            assert s.kitty_holder == 1
            s, _ = bury_lowest(s)
    assert s.phase is Phase.PLAY and s.kitty_holder == 1
