"""The end of a round: the kitty shown and scored, levels and the next landlord,
the match over or ``next_round`` to deal again.

The attackers' points are their trick points plus the kitty bonus (when they
win the last trick), less failed-throw penalties; the level table says which
side goes up and by how much (``rules/tractor/scoring.py``).
"""

from __future__ import annotations

from dataclasses import replace

from engine.errors import IllegalAction
from engine.events import Event
from engine.game import Action
from rules.tractor.options import BonusLevelPolicy, KittyMultiplier
from rules.tractor.order import rank_name
from rules.tractor.phases.base import PhaseRules, Step, TractorMove
from rules.tractor.phases.common import spell
from rules.tractor.phases.draw import new_round, round_events
from rules.tractor.scoring import (
    LevelChange,
    advance,
    kitty_multiplier,
    level_change,
    level_table,
    penalised,
    points,
)
from rules.tractor.sides import match_result, sides_for
from rules.tractor.state import Phase, RoundResult, TractorState
from rules.tractor.structure import Structure, get_structure


def end_round(state: TractorState, last_winner: int, last_lead: Structure | None,
              events: list[Event]) -> Step:
    """Score the round whose last trick ``last_winner`` won on ``last_lead``."""
    assert state.landlord is not None and state.trump is not None
    config = state.config
    sides = sides_for(config)
    # The sides as they stand now: in Finding Friends every call has been
    # played (or lies in the kitty and stays unanswered).
    landlords = state.landlord_side
    attackers = frozenset(range(state.seats)) - landlords
    bonus = 0
    multiplier = 0
    if last_winner in attackers and last_lead is not None:
        multiplier = kitty_multiplier(last_lead, config.kitty_multiplier)
        bonus = points(state.kitty) * multiplier
    failed_attack, failed_land = sides.failed_throws(state, attackers, landlords)
    p = penalised(state.points + bonus, failed_attack, failed_land,
                  config.throw_failure_penalty)
    # Version-1 tables scored every total at or below zero as 0.
    change = level_change(max(p, 0) if config.version == 1 else p, config.decks,
                          level_table(config))
    if (not change.attackers_win and config.bonus_level is BonusLevelPolicy.SMALLER_LANDLORD_TEAM
            and config.finding_friends and len(landlords) < config.friend_calls + 1):
        # A wasted or unanswered call left the landlords short-handed.
        change = LevelChange(False, change.levels + 1, bonus=True)
    winners = tuple(sorted(attackers if change.attackers_win else landlords))
    levels = list(state.levels)
    passed: list[int] = []
    for s in winners:
        levels[s], over = advance(levels[s], change.levels, config.max_rank_index,
                                  config.defended_ranks, defending=not change.attackers_win,
                                  round_rank=state.trump.rank)
        if over:
            passed.append(s)
    nxt = sides.next_landlord(state, landlords, change.attackers_win)
    result = RoundResult(
        landlord=state.landlord,
        rank=state.trump.rank,
        trump_suit=state.trump.suit,
        attacker_points=p,
        kitty_bonus=bonus,
        attackers_win=change.attackers_win,
        levels=change.levels,
        next_landlord=nxt,
        winners=winners,
    )
    rounds_played = state.rounds_played + 1
    events.append(Event("round_end", {
        "round": rounds_played,
        "kitty": spell(state.kitty),
        "kitty_points": points(state.kitty),
        "kitty_multiplier": multiplier,
        "kitty_bonus": bonus,
        "trick_points": state.points,
        "failed_throws": list(state.failed_throws),
        "attacker_points": p,
        "attackers_win": change.attackers_win,
        "levels_up": change.levels,
        # Version-1 events had no bonus level (their stored form stays as it was).
        **({"bonus_level": change.bonus} if config.version > 1 else {}),
        **sides.went_up(state, winners, change.attackers_win),
        "levels": [rank_name(v) for v in levels],
        "next_landlord": nxt,
    }))
    limit = config.rounds and rounds_played >= config.rounds
    after = replace(state, levels=tuple(levels), results=(*state.results, result),
                    rounds_played=rounds_played, phase=Phase.ROUND_OVER)
    if not passed and not limit:
        return after, events
    final = sides.finish(after, passed, change.attackers_win)
    res = match_result(final)
    assert res is not None
    events.append(Event("game_over", res.to_json()))
    return final, events


def decided(state: TractorState) -> bool:
    """Whether the round's result can no longer change (option ``early_end``,
    rbtying/shengji's "end game early"): between tricks, every call answered,
    and the level change the same whether the attackers take every point still
    in the hands and the kitty at its largest multiplier, or nothing more,
    whatever failed-throw penalties the tricks left could bring."""
    config = state.config
    if (state.phase is not Phase.PLAY or state.trick or state.takeback is not None
            or None in state.called_by or state.landlord is None):
        return False
    landlords = state.landlord_side
    attackers = frozenset(range(state.seats)) - landlords
    failed_attack, failed_land = sides_for(config).failed_throws(state, attackers, landlords)
    p = penalised(state.points, failed_attack, failed_land, config.throw_failure_penalty)
    left = max(len(h) for h in state.hands)
    # Each failed throw still plays a card, and a last card is never a throw.
    swing = config.throw_failure_penalty * max(left - 1, 0)
    kitty = points(state.kitty) * max(2 * left, 2**left if config.kitty_multiplier
                                      is KittyMultiplier.POWER_UNIT else 0)
    low = p - swing
    high = p + points(c for h in state.hands for c in h) + kitty + swing
    table = level_table(config)
    return level_change(low, config.decks, table) == level_change(high, config.decks, table)


def end_early(state: TractorState) -> Step:
    """End the round now (its result is decided): scored as it stands, no kitty bonus."""
    assert state.landlord is not None and state.trump is not None
    events = [Event("round_ended_early", {"attacker_points": state.points})]
    lead = get_structure(state.last_trick[0].cards, state.trump) if state.last_trick else None
    return end_round(state, state.landlord, lead, events)


def end_by_agreement(state: TractorState) -> Step:
    """The players agreed to end the match now: the standings are the levels as
    they stand (the round in progress is not scored), the higher level wins and
    equal levels draw, as at the ``rounds`` limit."""
    under_way = bool(state.stock or state.trick or any(state.hands))
    final = sides_for(state.config).finish(
        replace(state, takeback=None, ended_under_way=under_way), (), False)
    res = match_result(final)
    assert res is not None
    return final, [Event("match_ended", {"reason": "agreement",
                                         "rounds": state.rounds_played}),
                   Event("game_over", res.to_json())]


class RoundOver(PhaseRules):
    """``ROUND_OVER``: the next landlord deals the next round."""

    def to_act(self, state: TractorState) -> tuple[int, ...]:
        return (state.results[-1].next_landlord,)

    def legal(self, state: TractorState, seat: int) -> list[Action]:
        return [{"type": "next_round"}]

    def check(self, state: TractorState, seat: int, action: Action) -> TractorMove:
        if action.get("type") != "next_round":
            raise IllegalAction("bad_action", 'the round is over: {"type": "next_round"}')
        return TractorMove({"type": "next_round"}, seat, state)

    def apply(self, state: TractorState, seat: int, move: TractorMove) -> Step:
        landlord = state.results[-1].next_landlord
        nxt = new_round(state.config, state.seed, state.round_no + 1, levels=state.levels,
                        landlord=landlord, starter=landlord,
                        rounds_played=state.rounds_played, results=state.results)
        return nxt, round_events(nxt)


class Over(PhaseRules):
    """``OVER``: the match is over; nobody acts."""

    def to_act(self, state: TractorState) -> tuple[int, ...]:
        return ()

    def legal(self, state: TractorState, seat: int) -> list[Action]:
        return []

    def check(self, state: TractorState, seat: int, action: Action) -> TractorMove:
        raise IllegalAction("game_over", "the match is over")

    def apply(self, state: TractorState, seat: int, move: TractorMove) -> Step:
        # check refuses everything, so no move of this phase exists.
        raise AssertionError("no move is applied once the match is over")
