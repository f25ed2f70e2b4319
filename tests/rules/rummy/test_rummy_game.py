"""The rummy Game's rules, case by case, citing docs/rummy.md ("The rules") and
the house rules it documents ("The Game")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.cards import card_id, face_of, format_card, parse_face
from engine.errors import IllegalAction
from engine.events import SPECTATOR
from rules.rummy.game import RummyGame, rules_of, wild_rank_of
from rules.rummy.scoring import gin_totals
from rules.rummy.state import Phase, RummyState

GAME = RummyGame()


def ids(text: str, copy: int = 0) -> tuple[int, ...]:
    """Card ids of spelled cards; ``2:`` before a card means the second deck's copy."""
    out = []
    for t in text.split():
        c = copy
        if t.startswith("2:"):
            c, t = 1, t[2:]
        out.append(card_id(parse_face(t), c))
    return tuple(sorted(out))


def table(options: dict[str, Any], **fields: Any) -> RummyState:
    """A fresh table with some fields set by hand (hands, stock, pile, turn...)."""
    state = GAME.new(GAME.parse_config(options), 1)
    return replace(state, **fields)


def play(state: RummyState, seat: int, **action: Any) -> RummyState:
    return GAME.act(state, seat, action)[0]


def rejected(state: RummyState, seat: int, code: str, **action: Any) -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.act(state, seat, action)
    assert err.value.code == code


# A 13-card indian hand with a pure run, a second run and a set (declarable with any 14th).
READY = "2H 3H 4H 5S 6S 7S 8S 9C 9D 9H KC KD KS"
JUNK = "2C 4D 6H 8S TC QD AH 3S 5C 7D 9S JH KS"  # no melds: 76 points under indian values
INDIAN_WILD = card_id(parse_face("JC"), 0)  # the cut card: jacks are wild
STOCK = ids("2C 3C 4C 5C 6C 7C", 1)


def indian(players: int = 2, **fields: Any) -> RummyState:
    base: dict[str, Any] = {"wild_card": INDIAN_WILD, "stock": STOCK, "pile": ids("TD", 1)}
    base.update(fields)
    return table({"variant": "indian", "players": players, "pool": 0}, **base)


def gin(**fields: Any) -> RummyState:
    return table({"variant": "gin", "target": 0}, **fields)


# --- turn order -----------------------------------------------------------------


def test_a_turn_is_draw_then_discard_and_passes_left() -> None:
    """'draw from stock or discard pile, discard': draw first, then one discard."""
    s = indian(hands=(ids(JUNK), ids(READY, 1)), turn=0)
    rejected(s, 0, "bad_action", type="discard", card="2C")  # must draw first
    rejected(s, 1, "not_your_turn", type="draw", **{"from": "stock"})
    s = play(s, 0, type="draw", **{"from": "stock"})
    assert s.phase is Phase.DISCARD and len(s.hands[0]) == 14
    rejected(s, 0, "bad_action", type="draw", **{"from": "stock"})  # one draw a turn
    rejected(s, 0, "not_in_hand", type="discard", card="AS")
    s = play(s, 0, type="discard", card="KS")
    assert (s.phase, s.turn, len(s.hands[0])) == (Phase.DRAW, 1, 13)
    assert format_card(s.pile[-1]) == "KS"


def test_taking_the_discard_shows_the_card_to_everyone() -> None:
    """'the discard pile top is public': who takes it is public too."""
    s = indian(hands=(ids(JUNK), ids(READY, 1)), turn=0)
    s, events = GAME.act(s, 0, {"type": "draw", "from": "discard"})
    assert ids("TD", 1)[0] in s.hands[0] and s.pile == ()
    assert events[0].visibility.shows(1) and events[0].data["card"] == "TD"
    assert GAME.view(s, 1)["known"][0] == ["TD"]
    assert parse_face("TD") not in GAME.secrets(s, 1)


def test_a_stock_card_is_seen_by_the_drawer_only() -> None:
    """'cards drawn from the stock are seen only by the drawer'."""
    s = indian(hands=(ids(JUNK), ids(READY, 1)), turn=0)
    s, events = GAME.act(s, 0, {"type": "draw", "from": "stock"})
    mine = [e for e in events if e.visibility.shows(0) and not e.visibility.shows(1)]
    theirs = [e for e in events if e.visibility.shows(1)]
    assert mine[0].data["card"] == "7C"
    assert all("card" not in e.data for e in theirs)
    assert all(e.visibility.shows(SPECTATOR) == ("card" not in e.data) for e in events)
    assert "hand" not in GAME.view(s, SPECTATOR) and "hands" not in GAME.view(s, 1)


def test_gin_may_not_throw_back_the_card_just_taken() -> None:
    """Gin house rule: the card taken from the pile is not discarded the same turn."""
    s = gin(hands=(ids("2C 4D 6H 8S TC QD AH 3S 5C 7D"), ids("2H 3H 4H 5S 6S 7S 9C 9D 9H KC")),
            pile=ids("KS"), stock=ids("JS JD JC JH TS TD"), turn=0)
    s = play(s, 0, type="draw", **{"from": "discard"})
    rejected(s, 0, "just_taken", type="discard", card="KS")
    assert {"type": "discard", "card": "KS"} not in GAME.legal(s, 0)


# --- indian: declaration, drops, the cap -------------------------------------------


def test_a_valid_declaration_charges_the_others_their_best_count() -> None:
    """'declare when all 13 cards are grouped with >=2 runs of which >=1 pure; others
    score the points of their ungrouped cards'."""
    hand = (*ids(READY), ids("QS", 1)[0])
    # A pure run, a set, and J-Q-K of clubs with the wild jack: 2D 5D 8D 9H left over.
    other = ids("2S 3S 4S TC TH TS 2D 5D 8D JD QC KC 9H", 1)
    s = indian(hands=(hand, other), turn=0, phase=Phase.DISCARD)
    legal = [a for a in GAME.legal(s, 0) if a["type"] == "declare"]
    assert legal and legal[0]["card"] == "QS"
    s = play(s, 0, **legal[0])
    assert s.last is not None and s.last.how == "declare" and s.last.winner == 0
    assert s.last.points == (0, 2 + 5 + 8 + 9)
    assert s.over and GAME.result(s).scores == (0.0, -24.0)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "groups",
    [
        [["2H", "3H", "4H"], ["5S", "6S", "7S"], ["9C", "9D", "9H"], ["KC", "KD", "KS"]],  # 8S left
        [["2H", "3H", "4H", "5S"], ["6S", "7S", "8S"], ["9C", "9D", "9H"], ["KC", "KD", "KS"]],
    ],
    ids=["a card left over", "groups that are not melds"],
)
def test_a_wrong_declaration_costs_the_declarer_80(groups: list[list[str]]) -> None:
    """'wrong declaration = 80'; the others are charged nothing."""
    hand = (*ids(READY), ids("QS", 1)[0])
    s = indian(hands=(hand, ids(JUNK, 1)), turn=0, phase=Phase.DISCARD)
    s = play(s, 0, type="declare", card="QS", groups=groups)
    assert s.last is not None and s.last.how == "wrong_declaration"
    assert s.last.points == (80, 0)


def test_declaring_cards_one_does_not_hold_is_not_a_show() -> None:
    hand = (*ids(READY), ids("QS", 1)[0])
    s = indian(hands=(hand, ids(JUNK, 1)), turn=0, phase=Phase.DISCARD)
    rejected(s, 0, "not_in_hand", type="declare", card="QS", groups=[["AS", "AD", "AC"]])


def test_the_count_is_capped_at_80() -> None:
    """'others score the points of their ungrouped cards ... capped at 80'."""
    junk = ids("TC QC AC KD 9D 7D TH QH AH KS 9S 7S 5S", 1)  # 117 points, no melds
    hand = (*ids(READY), ids("4S")[0])
    s = indian(hands=(hand, junk), turn=0, phase=Phase.DISCARD)
    s = play(s, 0, **next(a for a in GAME.legal(s, 0) if a["type"] == "declare"))
    assert s.last is not None and s.last.points == (0, 80)


def test_without_the_runs_every_card_counts() -> None:
    """'if a player lacks the required runs every card counts' (sets alone do not help)."""
    sets_only = ids("9C 9D 9S 5C 5D 5S 2C 2D 2S 7C 7D 7S AH", 1)  # 4 sets + AH, no run
    hand = (*ids(READY), ids("4H", 1)[0])
    s = indian(hands=(hand, sets_only), turn=0, phase=Phase.DISCARD)
    s = play(s, 0, **next(a for a in GAME.legal(s, 0) if a["type"] == "declare"))
    assert s.last is not None and s.last.points == (0, 27 + 15 + 6 + 21 + 10)


@pytest.mark.parametrize(
    ("draws_first", "penalty"), [(False, 20), (True, 40)], ids=["first drop", "middle drop"]
)
def test_drops_cost_20_first_and_40_later(draws_first: bool, penalty: int) -> None:
    """'first drop 20, middle drop 40'."""
    s = indian(players=3, hands=(ids(JUNK), ids(READY, 1), ids("AC AD AS 3C 3H 6C 6S")), turn=0)
    if draws_first:
        s = play(s, 0, type="draw", **{"from": "stock"})
        s = play(s, 0, type="discard", card="KS")
        s = play(s, 1, type="draw", **{"from": "stock"})
        s = play(s, 1, type="discard", card="8S")
        s = play(s, 2, type="draw", **{"from": "stock"})
        s = play(s, 2, type="discard", card="AC")
    s = play(s, 0, type="drop")
    assert s.charges == (penalty, 0, 0) and s.out[0]
    assert s.phase is Phase.DRAW and s.turn == 1  # three players: the deal goes on
    assert not any(a["type"] == "drop" for a in GAME.legal(s, 0))
    s = play(s, 1, type="drop")
    assert s.last is not None and s.last.how == "drops" and s.last.winner == 2
    assert s.last.points == (penalty, penalty, 0)  # seat 1 drew too when it had drawn


def test_a_201_pool_charges_25_and_50_for_drops() -> None:
    """Pool rummy 201: first drop 25, middle drop 50 (the card rooms' rule); a
    table that names its costs keeps them, so stored tables replay as played."""
    from rules.rummy.options import RummyConfig

    cfg = RummyConfig(pool=201)
    assert (cfg.first_drop, cfg.middle_drop) == (25, 50)
    assert (RummyConfig(pool=101).first_drop, RummyConfig(pool=0).middle_drop) == (20, 40)
    named = RummyConfig.model_validate(RummyConfig(pool=201, first_drop=20).model_dump())
    assert (named.first_drop, named.middle_drop) == (20, 50)
    assert RummyConfig.model_validate(cfg.model_dump()) == cfg


def test_drop_comes_before_the_draw_only() -> None:
    s = indian(hands=(ids(JUNK), ids(READY, 1)), turn=0)
    s = play(s, 0, type="draw", **{"from": "stock"})
    rejected(s, 0, "bad_action", type="drop")


def test_an_empty_stock_is_refilled_from_the_pile_but_its_top() -> None:
    """'reshuffle of the discard pile when the stock runs out' (all but the top)."""
    pile = ids("2C 3C 4C 5C TD", 1)
    s = indian(hands=(ids(JUNK), ids(READY, 1)), turn=0, stock=(), pile=pile)
    assert {"type": "draw", "from": "stock"} in GAME.legal(s, 0)
    s, events = GAME.act(s, 0, {"type": "draw", "from": "stock"})
    assert events[0].kind == "reshuffle" and events[0].data == {"cards": 4}
    assert s.pile == ids("TD", 1) and len(s.stock) == 3 and s.reshuffles == 1
    drawn = next(c for c in s.hands[0] if c not in ids(JUNK))
    assert sorted([drawn, *s.stock]) == list(ids("2C 3C 4C 5C", 1))


def test_a_printed_joker_cut_makes_aces_wild() -> None:
    assert wild_rank_of(card_id(parse_face("SJ"))) == 12
    assert wild_rank_of(card_id(parse_face("7H"), 1)) == 5
    s = indian(hands=(ids(JUNK), ids(READY, 1)))
    assert rules_of(s).wild_rank == 9 and rules_of(s).printed_jokers


# --- indian: pool -------------------------------------------------------------------


def test_pool_a_seat_at_the_limit_is_out_and_the_last_one_standing_wins() -> None:
    """'pool rummy to 101': at or over the limit a player is out; last one standing wins."""
    state = GAME.new(GAME.parse_config({"variant": "indian", "players": 3, "pool": 101}), 3)
    s = replace(state, points=(90, 10, 70))
    s = play(s, 0, type="drop")  # first drop: 90 + 20 = 110
    s = play(s, 1, type="drop")  # 10 + 20; seat 2 wins the deal
    assert s.phase is Phase.DEAL_OVER and s.points == (110, 30, 70)
    assert s.eliminated == (True, False, False) and not s.over
    s = play(s, GAME.to_act(s)[0], type="next_deal")
    assert s.hands[0] == () and s.out[0] and all(len(h) == 13 for h in s.hands[1:])
    assert (s.dealer, s.turn) == (1, 2)  # the deal and the turn skip the eliminated seat
    s = replace(s, points=(110, 95, 70))
    s = play(s, 2, type="draw", **{"from": "stock"})
    s = play(s, 2, type="discard", card=format_card(s.hands[2][0]))
    assert s.turn == 1
    s = play(s, 1, type="drop")  # 95 + 20 = 115: out, and seat 2 is the last one standing
    assert s.over and s.eliminated == (True, True, False)
    res = GAME.result(s)
    assert res is not None and res.ranks[2] == 1 and "Seat 3 wins the pool" in res.summary


# --- gin ----------------------------------------------------------------------------

GIN_KNOCKER = "2H 3H 4H 5S 6S 7S 9C 9D 9H 4C"  # 4 deadwood after the discard
GIN_STOCK = "JS JC QH QS TS 8C 7H"


def gin_discard_phase(knocker: str, defender: str, drawn: str = "KS") -> RummyState:
    return gin(hands=(ids(f"{knocker} {drawn}"), ids(defender)), pile=ids("AC"),
               stock=ids(GIN_STOCK), turn=0, phase=Phase.DISCARD)


def test_gin_knock_needs_deadwood_of_ten_or_less() -> None:
    """'knock when deadwood <= 10': offered and accepted at 10, refused at 11."""
    s = gin_discard_phase("2H 3H 4H 5H 5S 6S 7S 8S AC 9D", "AS 2S 3S KD KH 8D 8H 5D 6H 6C", "TC")
    assert [a["card"] for a in GAME.legal(s, 0) if a["type"] == "knock"] == ["TC"]
    rejected(s, 0, "knock_too_high", type="knock", card="9D")  # AC TC left: 11
    s = play(s, 0, type="knock", card="TC")  # AC 9D left: 10
    assert s.phase is Phase.LAYOFF and s.knocker_deadwood == 10 and s.turn == 1


def test_gin_knock_groups_must_be_melds() -> None:
    s = gin_discard_phase(GIN_KNOCKER, "AS 2S 3S KD KH 8D 8H 5D 5H 6C")
    rejected(s, 0, "not_a_meld", type="knock", card="KS",
             groups=[["2H", "3H", "4C"], ["5S", "6S", "7S"], ["9C", "9D", "9H"]])


@pytest.mark.parametrize(
    ("defender", "undercut_on_equal", "how", "winner", "points"),
    [
        ("AS 2S 3S 4S KD KH QC 8D 8H 5H", True, "knock", 0, 51 - 4),
        ("AS 2S 3S 4S TD JD QD KD 2C 6C", True, "knock", 0, 8 - 4),
        ("AS 2S 3S 4S TD JD QD KD AD 2C", True, "undercut", 1, 4 - 3 + 25),
        ("AS 2S 3S 4S TD JD QD KD AD 3C", True, "undercut", 1, 4 - 4 + 25),
        ("AS 2S 3S 4S TD JD QD KD AD 3C", False, "knock", 0, 0),
    ],
    ids=["knock wins the difference", "knock with a close count", "undercut",
         "an equal count undercuts", "option: an equal count does not"],
)
def test_gin_knock_and_undercut(
    defender: str, undercut_on_equal: bool, how: str, winner: int, points: int
) -> None:
    """'undercut +25 (option: whether an equal count is an undercut)'."""
    s = table({"variant": "gin", "target": 0, "undercut_on_equal": undercut_on_equal},
              hands=(ids(f"{GIN_KNOCKER} KS"), ids(defender)), pile=ids("AC"),
              stock=ids(GIN_STOCK), turn=0, phase=Phase.DISCARD)
    s = play(s, 0, type="knock", card="KS")
    s = play(s, 1, type="done")
    assert s.last is not None and (s.last.how, s.last.winner) == (how, winner)
    assert max(s.last.points) == points
    # A knock that stood wins the deal, 0 points or not: the box goes with it.
    assert s.boxes == tuple(int(seat == winner) for seat in range(2))


def test_gin_scores_the_bonus_and_allows_no_layoff() -> None:
    """'gin at 0 (+25)': no lay-off against gin."""
    s = gin_discard_phase("2H 3H 4H 5H 5S 6S 7S 9C 9D 9H", "AS 2S 3S TD JD QD KD 2C 4D 7C")
    s = play(s, 0, type="knock", card="KS")
    assert s.last is not None and s.last.how == "gin" and s.last.points == (2 + 4 + 7 + 25, 0)
    assert s.phase is Phase.OVER


def test_the_defender_lays_off_onto_the_knockers_melds() -> None:
    """'defender lays off': a card that extends a knocker's meld leaves the deadwood."""
    s = gin_discard_phase(GIN_KNOCKER, "AS 2S 3S 5H 8S 9S KD QC 8D 8H")
    s = play(s, 0, type="knock", card="KS")
    hearts = next(i for i, m in enumerate(s.table) if ids("2H")[0] in m)
    spades = next(i for i, m in enumerate(s.table) if ids("5S")[0] in m)
    legal = GAME.legal(s, 1)
    assert {"type": "layoff", "card": "5H", "meld": hearts} in legal  # 2H 3H 4H + 5H
    assert {"type": "layoff", "card": "8S", "meld": spades} in legal  # 5S 6S 7S + 8S
    assert {"type": "layoff", "card": "9S", "meld": spades} not in legal  # not yet
    rejected(s, 1, "does_not_fit", type="layoff", card="KD", meld=hearts)
    rejected(s, 1, "does_not_fit", type="layoff", card="9S", meld=spades)
    s = play(s, 1, type="layoff", card="8S", meld=spades)
    s = play(s, 1, type="layoff", card="9S", meld=spades)  # the meld grew: 9S fits now
    s = play(s, 1, type="layoff", card="5H", meld=hearts)
    assert s.table[spades] == ids("5S 6S 7S 8S 9S")
    s = play(s, 1, type="done")
    # Left: KD QC 8D 8H = 36 against the knocker's 4.
    assert s.last is not None and s.last.points == (32, 0)


def test_the_knockers_hand_is_public_during_the_layoff() -> None:
    s = gin_discard_phase(GIN_KNOCKER, "AS 2S 3S 5H 8S 9S KD QC 8D 8H")
    s = play(s, 0, type="knock", card="KS")
    assert GAME.view(s, 1)["knocker_hand"] == [format_card(c) for c in s.hands[0]]
    assert not {face_of(c) for c in s.hands[0]} & GAME.secrets(s, 1)


def test_gin_deal_is_void_when_two_stock_cards_are_left() -> None:
    s = gin(hands=(ids(GIN_KNOCKER), ids("AS 2S 3S 5H 8S 9S KD QC 8D 8H")),
            pile=ids("AC"), stock=ids("JS JD JC"), turn=0)
    s = play(s, 0, type="draw", **{"from": "stock"})
    s = play(s, 0, type="discard", card="JS")  # the stock's top was JS
    assert s.last is not None and s.last.how == "void" and s.over
    assert GAME.result(s).scores == (0.0, 0.0)  # type: ignore[union-attr]


def test_gin_match_box_and_game_bonuses() -> None:
    """'a match to 100 points with the usual box and game bonuses': 25 a deal won,
    100 for reaching the target."""
    cfg = GAME.parse_config({"variant": "gin"})
    assert gin_totals([104, 60], [4, 3], cfg) == [104 + 100 + 100, 60 + 75]
    s = replace(GAME.new(cfg, 5), points=(90, 20), boxes=(3, 1))
    s = replace(s, hands=(ids(f"{GIN_KNOCKER} KS"), ids("AS 2S 3S TD JD QD KD 2C 4D 7C")),
                pile=ids("AC"), stock=ids(GIN_STOCK), turn=0, phase=Phase.DISCARD)
    s = play(s, 0, type="knock", card="KS")
    s = play(s, 1, type="done")  # 4 vs 13: the knocker wins 9 -> 99, not yet 100
    assert s.phase is Phase.DEAL_OVER and s.points == (99, 20) and s.boxes == (4, 1)
    s = play(s, GAME.to_act(s)[0], type="next_deal")
    assert s.deal_no == 1 and s.dealer == 0 and s.turn == 1
    s = replace(s, hands=(ids(f"{GIN_KNOCKER} KS"), ids("AS 2S 3S TD JD QD KD 2C 4D 7C")),
                pile=ids("AC"), stock=ids(GIN_STOCK), turn=0, phase=Phase.DISCARD)
    s = play(s, 0, type="knock", card="KS")
    s = play(s, 1, type="done")
    assert s.over and s.points == (108, 20) and s.boxes == (5, 1)
    res = GAME.result(s)
    assert res is not None and res.scores == (108 + 125 + 100, 20 + 25)


def test_a_gin_match_result_names_the_seat_its_totals_put_first() -> None:
    """The totals settle the match (the game winner is paid the difference): where
    the other seat's boxes outweigh the game bonus, the summary says so rather
    than naming the seat that reached 100 while ranking it second."""
    cfg = GAME.parse_config({"variant": "gin"})
    s = replace(GAME.new(cfg, 5), points=(104, 90), boxes=(0, 10), over=True)
    res = GAME.result(s)
    assert res is not None and res.scores == (204.0, 340.0) and res.ranks == (2, 1)
    assert res.summary == "Seat 2 ahead 340-204 on its boxes (seat 1 reached 100)"


def test_gin_is_for_two_players() -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.parse_config({"variant": "gin", "players": 3})
    assert err.value.code == "bad_option"


def test_a_seat_s_view_groups_its_own_hand_at_its_best() -> None:
    """Clients show the rules' grouping (the view's ``arrangement``), not their own."""
    s = indian(hands=(ids(READY), ids(JUNK)))
    mine = GAME.view(s, 0)["arrangement"]
    assert sorted(m["kind"] for m in mine["melds"]) == ["run", "run", "set", "set"]
    assert all(m["jokers"] == 0 and m["wild"] == [] for m in mine["melds"])
    assert mine["leftover"] == [] and mine["deadwood"] == 0 and mine["counted"] == 0
    assert mine["valid"] is True
    theirs = GAME.view(s, 1)["arrangement"]
    # Jacks are wild: J♥ makes 8♠ 9♠ a run, but one impure run is not a declaration,
    # so every card counts (67 left over + 8 + 9; the 80 cap is applied when charged).
    assert theirs["melds"] == [{"kind": "run", "cards": ["8S", "9S", "JH"], "jokers": 1,
                                "wild": ["JH"]}]
    assert theirs["deadwood"] == 67 and theirs["counted"] == 84 and theirs["valid"] is False
    # Nobody sees another seat's arrangement while the deal is on.
    assert "arrangements" not in GAME.view(s, 1) and "arrangement" not in GAME.view(s, SPECTATOR)


def test_a_wild_card_used_as_a_joker_is_named_in_its_meld() -> None:
    # Jacks are wild: J♦ completes 5♥ 6♥ _ as a run.
    s = indian(hands=(ids("5H 6H JD 2S 3S 4S 9C 9D 9H KC KD KS 7C"), ids(JUNK)))
    melds = GAME.view(s, 0)["arrangement"]["melds"]
    impure = [m for m in melds if m["jokers"]]
    assert len(impure) == 1 and impure[0]["wild"] == ["JD"]
    assert sorted(impure[0]["cards"]) == ["5H", "6H", "JD"]


def test_a_stand_in_draws_from_the_stock_and_never_drops() -> None:
    """A player whose clock ran out (or whose bot failed) is not dropped out of the
    deal for 20 points: the stand-in draws from the stock."""
    from engine.rng import Rng

    s = GAME.new(GAME.parse_config({"players": 3}), 5)
    seat = GAME.to_act(s)[0]
    legal = GAME.legal(s, seat)
    assert {"type": "drop"} in legal
    chosen = {str(GAME.stand_in(legal, Rng(n))) for n in range(40)}
    assert chosen == {str({"type": "draw", "from": "stock"})}
