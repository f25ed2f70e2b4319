"""Who plays with whom: the one place the classic game and Finding Friends differ.

The classic game has fixed partnerships (seats 0&2 v 1&3) and counts attacker
points and failed throws per team.  Finding Friends keeps sides dynamic: the
landlord calls friend cards after the burial, a play of a called copy reveals
a friend, and failed throws and trick points are counted per seat because a
seat's side is only known at the end of the round.  :func:`sides_for` picks
the policy once from the config; the phases ask it, never the config flag.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar, Protocol

from engine.cards import format_card
from engine.events import JSON, Event
from engine.game import Result
from engine.presentation import plural
from rules.tractor.friends import calls_json, reveal
from rules.tractor.options import MultipleJoin, TractorConfig
from rules.tractor.order import rank_name
from rules.tractor.scoring import next_landlord, next_landlord_friends
from rules.tractor.state import Phase, TractorState, team

TEAM_NAMES = ("seats 0 and 2", "seats 1 and 3")


def after_rounds(rounds: int) -> str:
    """When a match ended: ``after 2 rounds`` (only a match its players end by
    agreement stops ``before the first round ended``)."""
    if rounds == 0:
        return "before the first round ended"
    return f"after {plural(rounds, 'round')}"


class Sides(Protocol):
    """The side rules a tractor round follows."""

    after_burial: ClassVar[Phase]
    """The phase after the landlord buries (Finding Friends calls first)."""

    def counters(self, seats: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A fresh round's (failed throws, seat points)."""
        ...

    def throw_slot(self, seat: int) -> int:
        """Where ``seat``'s failed throw is counted in ``failed_throws``."""
        ...

    def played(self, before: TractorState, after: TractorState, seat: int,
               cards: Sequence[int]) -> tuple[TractorState, list[Event]]:
        """``after`` (``seat`` just played ``cards`` to ``before``'s trick) with the
        friends it revealed and the attacker points as they stand now."""
        ...

    def trick_won(self, before: TractorState, after: TractorState, winner: int,
                  won: int) -> tuple[TractorState, int]:
        """``after`` with ``won`` trick points credited to ``winner``, and the
        attacker points after the trick."""
        ...

    def failed_throws(self, state: TractorState, attackers: frozenset[int],
                      landlords: frozenset[int]) -> tuple[int, int]:
        """Failed throws of the round by (attackers, landlords)."""
        ...

    def next_landlord(self, state: TractorState, landlords: frozenset[int],
                      attackers_win: bool) -> int:
        """Who leads the next round as landlord."""
        ...

    def went_up(self, state: TractorState, winners: tuple[int, ...],
                attackers_win: bool) -> JSON:
        """The ``round_end`` event's field naming who went up."""
        ...

    def finish(self, state: TractorState, passed: Sequence[int],
               attackers_win: bool) -> TractorState:
        """The match over: whoever passed the maximum rank (or led at the round
        limit) wins."""
        ...

    def public_view(self, state: TractorState) -> JSON:
        """View fields this side rule adds once trump is fixed."""
        ...

    def result(self, state: TractorState) -> Result:
        """The result of a finished match."""
        ...


class FixedTeams:
    """The classic game: seats 0&2 v 1&3, points and failed throws per team."""

    after_burial: ClassVar[Phase] = Phase.PLAY

    def counters(self, seats: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (0, 0), ()

    def throw_slot(self, seat: int) -> int:
        return team(seat)

    def played(self, before: TractorState, after: TractorState, seat: int,
               cards: Sequence[int]) -> tuple[TractorState, list[Event]]:
        return after, []

    def trick_won(self, before: TractorState, after: TractorState, winner: int,
                  won: int) -> tuple[TractorState, int]:
        assert before.landlord is not None
        attackers = team(winner) != team(before.landlord)
        return after, before.points + (won if attackers else 0)

    def failed_throws(self, state: TractorState, attackers: frozenset[int],
                      landlords: frozenset[int]) -> tuple[int, int]:
        assert state.landlord is not None
        landlord_team = team(state.landlord)
        return state.failed_throws[1 - landlord_team], state.failed_throws[landlord_team]

    def next_landlord(self, state: TractorState, landlords: frozenset[int],
                      attackers_win: bool) -> int:
        assert state.landlord is not None
        return next_landlord(state.landlord, attackers_win)

    def _side(self, state: TractorState, attackers_win: bool) -> int:
        assert state.landlord is not None
        landlord_team = team(state.landlord)
        return 1 - landlord_team if attackers_win else landlord_team

    def went_up(self, state: TractorState, winners: tuple[int, ...],
                attackers_win: bool) -> JSON:
        return {"team_up": self._side(state, attackers_win)}

    def finish(self, state: TractorState, passed: Sequence[int],
               attackers_win: bool) -> TractorState:
        if passed:
            winner: int | None = self._side(state, attackers_win)
        else:
            a, b = state.levels[0], state.levels[1]
            winner = None if a == b else (0 if a > b else 1)
        return replace(state, phase=Phase.OVER, winner=winner)

    def public_view(self, state: TractorState) -> JSON:
        return {}

    def result(self, state: TractorState) -> Result:
        # A seat's score is the levels its side gained over the match (uncapped,
        # so the side that passed the maximum rank scores more than one that
        # only reached it); with ``rounds=1`` that is the level gain of a round.
        gained = [0, 0]
        for r in state.results:
            side = (1 - team(r.landlord)) if r.attackers_win else team(r.landlord)
            gained[side] += r.levels
        scores = tuple(float(gained[team(s)]) for s in range(state.seats))
        levels = ", ".join(f"{TEAM_NAMES[t]} at {rank_name(state.levels[t])}" for t in (0, 1))
        after = after_rounds(state.rounds_played)
        if state.winner is None:
            summary = f"drawn {after}: {levels}"
        else:
            summary = f"{TEAM_NAMES[state.winner]} win {after}: {levels}"
        return Result(scores=scores, summary=summary)


def _attacker_points(state: TractorState) -> int:
    """Trick points won by the seats not (yet) known to be on the landlord's
    side.  A friend's points count for the landlords even if won before the
    reveal (the sides are settled at the end of the round)."""
    side = state.landlord_side
    return sum(p for s, p in enumerate(state.seat_points) if s not in side)


class FindingFriends:
    """Finding Friends: called friends, points and failed throws per seat."""

    after_burial: ClassVar[Phase] = Phase.CALL

    def counters(self, seats: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (0,) * seats, (0,) * seats

    def throw_slot(self, seat: int) -> int:
        return seat

    def played(self, before: TractorState, after: TractorState, seat: int,
               cards: Sequence[int]) -> tuple[TractorState, list[Event]]:
        events: list[Event] = []
        seen = (*before.played, *(c for p in before.trick for c in p.cards))
        side = (before.landlord_side
                if before.config.multiple_join is MultipleJoin.NO_DOUBLE_JOIN else None)
        called_by = reveal(before.calls, before.called_by, seen, seat, cards, side)
        for i, (was, now) in enumerate(zip(before.called_by, called_by, strict=True)):
            if was is None and now is not None:
                events.append(Event("friend", {
                    "seat": now, "call": i, "card": format_card(before.calls[i].face),
                    "nth": before.calls[i].nth, "wasted": now == before.landlord}))
        after = replace(after, called_by=called_by)
        return replace(after, points=_attacker_points(after)), events

    def trick_won(self, before: TractorState, after: TractorState, winner: int,
                  won: int) -> tuple[TractorState, int]:
        seat_points = list(after.seat_points)
        seat_points[winner] += won
        after = replace(after, seat_points=tuple(seat_points))
        return after, _attacker_points(after)

    def failed_throws(self, state: TractorState, attackers: frozenset[int],
                      landlords: frozenset[int]) -> tuple[int, int]:
        return (sum(state.failed_throws[s] for s in attackers),
                sum(state.failed_throws[s] for s in landlords))

    def next_landlord(self, state: TractorState, landlords: frozenset[int],
                      attackers_win: bool) -> int:
        assert state.landlord is not None
        return next_landlord_friends(state.landlord, landlords, attackers_win, state.seats)

    def went_up(self, state: TractorState, winners: tuple[int, ...],
                attackers_win: bool) -> JSON:
        return {"seats_up": list(winners)}

    def finish(self, state: TractorState, passed: Sequence[int],
               attackers_win: bool) -> TractorState:
        # Whoever passed the maximum rank wins; at the round limit the highest
        # level does (everyone level: a draw).
        levels = state.levels
        top = max(levels)
        champions = tuple(passed) if passed else (
            () if min(levels) == top
            else tuple(s for s in range(state.seats) if levels[s] == top))
        return replace(state, phase=Phase.OVER, champions=champions)

    def public_view(self, state: TractorState) -> JSON:
        return {
            "decks": state.config.decks,
            "friend_calls": state.config.friend_calls,
            "calls": [{**c, "seat": by} for c, by in
                      zip(calls_json(state.calls), state.called_by, strict=True)],
            "landlord_side": sorted(state.landlord_side),
            "seat_points": list(state.seat_points),
        }

    def result(self, state: TractorState) -> Result:
        # Sides change every round, so each seat scores the levels it gained
        # itself (uncapped, like the classic score).
        gained = [0] * state.seats
        for r in state.results:
            for s in r.winners:
                gained[s] += r.levels
        # Seats numbered from 1, as the table screens name them.
        levels = ", ".join(f"seat {s + 1} at {rank_name(v)}" for s, v in enumerate(state.levels))
        after = after_rounds(state.rounds_played)
        if not state.champions:
            summary = f"drawn {after}: {levels}"
        else:
            who = ", ".join(str(s + 1) for s in state.champions)
            several = len(state.champions) > 1
            head = f"seats {who} win" if several else f"seat {who} wins"
            summary = f"{head} {after}: {levels}"
        return Result(scores=tuple(float(g) for g in gained), summary=summary)


FIXED_TEAMS = FixedTeams()
FINDING_FRIENDS = FindingFriends()


def sides_for(config: TractorConfig) -> Sides:
    """The side rules of a table."""
    return FINDING_FRIENDS if config.finding_friends else FIXED_TEAMS


def match_result(state: TractorState) -> Result | None:
    """None until the match is over; then its result."""
    if state.phase is not Phase.OVER:
        return None
    return sides_for(state.config).result(state)
