"""A stronger Tractor bot: determinized Monte Carlo over the unseen cards, with the
heuristic bot (:mod:`bots.tractor.heuristic`) as the rollout policy.

In the play phase of the classic game, for each candidate play (the game's legal
menu and the heuristic's own choice), the bot deals the cards it cannot see to the
other hands and the kitty at random (each hand at its current size), plays the
candidate in that deal, lets four heuristic bots play on for a few tricks, and
scores the attacker points won or saved (failed-throw penalties and, when the round
ends, the kitty bonus included) from its side's point of view.  The candidate with
the best total over the same deals is played; ties keep the heuristic's choice.
Everything else (the draw, burying the kitty, Finding Friends, takebacks) is the
heuristic's.  The simulation plays by the table's options as the view carries them,
through the Game contract, so a house rule is simulated as the table plays it.

Deterministic given the decision seed; bounded by ``samples`` deals, ``horizon``
tricks and a share of the time budget.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bots.tractor.heuristic import TractorHeuristicBot
from engine.cards import FACES_PER_DECK, RANKS, SUITS, card_id, parse_face
from engine.errors import IllegalAction
from engine.events import JSON
from engine.game import Action
from engine.rng import Rng, derive_seed
from rules.tractor.game import TractorGame
from rules.tractor.options import TractorConfig
from rules.tractor.order import TRUMP, Trump, tables
from rules.tractor.phases.common import sort_hand, spell
from rules.tractor.scoring import card_points
from rules.tractor.state import Phase, Play, TractorState, team
from rules.tractor.structure import a_legal_follow, check_follow, get_structure

GAME = TractorGame()


@dataclass(frozen=True)
class MonteCarloOptions:
    """``samples`` deals per decision, ``horizon`` tricks played on after the
    current one, at most ``candidates`` plays compared, ``budget_share`` of the
    decision's time budget spent at most (after one deal)."""

    samples: int = 6
    horizon: int = 1
    candidates: int = 6
    budget_share: float = 0.6
    # Points (per deal, on average) a play must gain over the heuristic's own
    # choice to replace it: a few deals are noisy.
    margin: float = 2.0


class _Ids:
    """Card ids handed out face by face, so no two spellings get the same card."""

    def __init__(self) -> None:
        self.used: Counter[int] = Counter()

    def take(self, spellings: Sequence[str]) -> tuple[int, ...]:
        out = []
        for text in spellings:
            f = parse_face(text)
            out.append(card_id(f, self.used[f]))
            self.used[f] += 1
        return tuple(out)


@dataclass(frozen=True)
class Position:
    """What the seat knows, as card ids: a state with its own hand, the table, and
    the unseen cards to deal to the other hands (and the kitty, unless it buried it)."""

    state: TractorState
    unseen: tuple[int, ...]
    hidden_sizes: tuple[tuple[int, int], ...]  # (seat, cards to deal it); seat -1: kitty


def read_position(view: JSON, seat: int) -> Position | None:
    """The play-phase view as a state to determinize; None where the bot does not
    simulate (Finding Friends, an open takeback, anything it cannot read)."""
    options = view.get("options")
    if view.get("phase") != "play" or not isinstance(options, dict):
        return None
    config = TractorConfig.model_validate(options)
    if config.finding_friends or view.get("takeback") is not None:
        return None
    suit = view.get("trump_suit")
    trump = Trump(RANKS.index(view["rank"]), None if suit in (None, "NT") else SUITS.index(suit))
    ids = _Ids()
    hand = ids.take(view["hand"])
    played = ids.take(view["played"])
    trick = tuple(Play(int(p["seat"]), ids.take(p["cards"])) for p in view["trick"])
    kitty: tuple[int, ...] = ids.take(view["kitty"]) if view.get("kitty") else ()
    deck = [card_id(f, c) for c in range(config.decks) for f in range(FACES_PER_DECK)]
    seen = set(hand) | set(played) | {c for p in trick for c in p.cards} | set(kitty)
    unseen = tuple(c for c in deck if c not in seen)
    sizes = [int(n) for n in view["hand_sizes"]]
    hidden = [(s, sizes[s]) for s in range(len(sizes)) if s != seat]
    if not kitty:
        hidden.append((-1, int(view.get("kitty_size") or config.kitty_size)))
    if sum(n for _, n in hidden) != len(unseen):
        return None
    hands: list[tuple[int, ...]] = [() for _ in sizes]
    hands[seat] = sort_hand(hand, trump)
    state = TractorState(
        config=config,
        seed=0,
        round_no=0,
        rounds_played=len(view.get("results") or []),
        levels=tuple(RANKS.index(x) for x in view["levels"]),
        landlord=int(view["landlord"]),
        starter=int(view["landlord"]),
        phase=Phase.PLAY,
        hands=tuple(hands),
        trump=trump,
        kitty=kitty,
        leader=int(view["leader"]),
        trick=trick,
        winning=view.get("trick_winner"),
        played=played,
        points=int(view.get("points") or 0),
        failed_throws=tuple(int(x) for x in view.get("failed_throws") or (0, 0)),
        # Who holds the kitty (the landlord unless a seat took it by an overbid).
        exchanger=view.get("exchanger"),
    )
    return Position(state, unseen, tuple(hidden))


def determinize(pos: Position, rng: Rng) -> TractorState:
    """One deal of the unseen cards consistent with the hand sizes."""
    cards = rng.shuffled(list(pos.unseen))
    hands = list(pos.state.hands)
    kitty = pos.state.kitty
    at = 0
    for s, n in pos.hidden_sizes:
        part = tuple(cards[at:at + n])
        at += n
        if s < 0:
            kitty = part
        else:
            hands[s] = sort_hand(part, pos.state.trump or Trump(0, None))
    return replace(pos.state, hands=tuple(hands), kitty=kitty)


def _options(state: TractorState, seat: int, menu: Sequence[Action]) -> list[Action]:
    """Plays worth comparing, most distinct first.  Following: the follows built under
    the usual preferences (lowest without points, most points, highest, trumps low or
    high), checked by the rules.  Leading: from the game's menu, the lowest and the
    highest lead of each suit and size."""
    trump = state.trump
    assert trump is not None
    t = tables(trump)
    hand = state.hands[seat]

    def phi(c: int) -> int:
        return t.phi[c % FACES_PER_DECK]

    def trumped(c: int) -> bool:
        return t.suit[c % FACES_PER_DECK] == TRUMP

    out: list[tuple[int, ...]] = []
    if state.trick:
        lead = get_structure(state.trick[0].cards, trump)
        keys: list[Callable[[int], Any]] = [
            lambda c: (card_points(c) > 0, trumped(c), phi(c)),
            lambda c: (-card_points(c), trumped(c), phi(c)),
            lambda c: (-phi(c),),
            lambda c: (not trumped(c), phi(c)),
            lambda c: (not trumped(c), -phi(c)),
        ]
        for key in keys:
            play = tuple(sorted(a_legal_follow(lead, hand, trump, key=key)))
            try:
                check_follow(lead, hand, play, trump)
            except IllegalAction:
                continue
            out.append(play)
    else:
        groups: dict[tuple[int, int], list[tuple[int, ...]]] = {}
        for a in menu:
            ids = _Ids()
            cards = tuple(sorted(_in_hand(hand, ids.take(a["cards"]))))
            groups.setdefault((t.suit[cards[0] % FACES_PER_DECK], len(cards)), []).append(cards)
        for plays in groups.values():
            plays.sort(key=lambda p: sum(map(phi, p)))
            out += [plays[0], plays[-1]]
    unique = list(dict.fromkeys(out))
    return [{"type": "play", "cards": spell(p)} for p in unique]


def _in_hand(hand: Sequence[int], wanted: Sequence[int]) -> list[int]:
    """The hand's own card ids for ``wanted`` (matched by face)."""
    left = list(hand)
    out = []
    for w in wanted:
        c = next(c for c in left if c % FACES_PER_DECK == w % FACES_PER_DECK)
        left.remove(c)
        out.append(c)
    return out


def _attacker_value(before: TractorState, after: TractorState) -> int:
    """Attacker points won between two states, penalties (and at the round's end
    the kitty bonus) included."""
    if after.phase is not Phase.PLAY and after.results:
        return after.results[-1].attacker_points - before.points
    landlords = team(before.landlord or 0)
    penalty = before.config.throw_failure_penalty
    by_landlords = after.failed_throws[landlords] - before.failed_throws[landlords]
    by_attackers = (after.failed_throws[1 - landlords] - before.failed_throws[1 - landlords])
    return after.points - before.points + penalty * (by_landlords - by_attackers)


class TractorMonteCarloBot:
    def __init__(self, options: MonteCarloOptions | None = None) -> None:
        self.options = options or MonteCarloOptions()
        self.policy = TractorHeuristicBot()

    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action | None:
        own = self.policy.decide(view, legal, seat, seed, budget)
        plays = [a for a in legal if a.get("type") == "play"]
        if own is None or own.get("type") != "play" or len(plays) < 1:
            return own
        try:
            pos = read_position(view, seat)
        except (KeyError, TypeError, ValueError, IllegalAction):
            pos = None
        if pos is None:
            return own
        rng = Rng(seed)
        assert pos.state.trump is not None
        options = _options(pos.state, seat, plays)
        own_cards = sorted(own["cards"])
        others = [a for a in options if sorted(a["cards"]) != own_cards]
        candidates = [own, *others[: self.options.candidates - 1]]
        if len(candidates) == 1:
            return own
        return self._search(pos, seat, candidates, rng, budget)

    def _search(
        self, pos: Position, seat: int, candidates: list[Action], rng: Rng, budget: float
    ) -> Action:
        start = time.monotonic()
        totals = [0.0] * len(candidates)
        counted = [0] * len(candidates)
        sign = 1 if team(seat) != team(pos.state.landlord or 0) else -1
        for k in range(self.options.samples):
            if k and time.monotonic() - start > budget * self.options.budget_share:
                break
            deal = determinize(pos, rng)
            for i, action in enumerate(candidates):
                value = self._rollout(deal, seat, action, derive_seed(k, i, seat))
                if value is not None:
                    totals[i] += sign * value
                    counted[i] += 1
        means = [t / n if n else float("-inf") for t, n in zip(totals, counted, strict=True)]
        best = max(range(len(candidates)), key=lambda i: (means[i], -i))
        # The heuristic's choice (candidate 0) stands unless another is clearly better.
        return candidates[best] if means[best] >= means[0] + self.options.margin else candidates[0]

    def _rollout(self, state: TractorState, seat: int, action: Action, seed: int) -> int | None:
        """Attacker points from ``action`` on, over the rest of this trick and
        ``horizon`` more, the heuristic playing every seat; None when the action
        does not stand in this deal."""
        try:
            after, _ = GAME.act(state, seat, action)
        except IllegalAction:
            return None
        # The trick in progress ends when ``played`` grows; then ``horizon`` more.
        ends = 0 if len(after.played) == len(state.played) else 1
        steps = 0
        while after.phase is Phase.PLAY and ends <= self.options.horizon:
            mover = GAME.to_act(after)[0]
            legal = GAME.legal(after, mover)
            pick = self.policy.decide(GAME.view(after, mover), legal, mover, seed + steps, 1.0)
            if pick is None:
                pick = GAME.stand_in(legal, Rng(seed + steps))
            known = len(after.played)
            after, _ = GAME.act(after, mover, pick)
            ends += len(after.played) != known
            steps += 1
        return _attacker_value(state, after)
