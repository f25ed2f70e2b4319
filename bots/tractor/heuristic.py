"""A Tractor bot playing the common heuristics, from its seat's view alone.

* Draw: declares a suit when the hand holds enough of what would be trump,
  never overrides its partner, and reinforces its own declaration.
* Overbid window (``kitty_theft``): overrides (never its partner), taking the
  kitty, when its suit would give its hand more trumps than the trump standing
  (a card more) and at least 30% of the hand, unless it declared already this
  round; otherwise passes.
* Kitty: buries low side-suit singles (shortest suits first, to make voids),
  keeping pairs, tractors, trumps, points and aces.
* Lead: a throw only when no unseen card can beat any of its units (the cards
  already played, its own hand and its buried kitty are known), else a sure
  tractor, a sure pair, a sure single, else a low card of a short side suit.
* Follow: feeds points to a partner who is winning the trick (when the
  partner's play holds), wins a trick as cheaply as it can, trumps in only
  when the trick is worth it (points in it), otherwise plays its lowest.
* Finding Friends: calls the first copy of the highest side-suit cards it
  does not hold (aces first); its "partners" are the seats known to be on its
  side (the landlord's side as revealed, and the landlord's side for a seat
  that holds a called card not yet played; the other seats once every call
  is answered); unrevealed seats are unknown, never fed.
* Takebacks: never takes a play back (it keeps every play).

Legal follows are built with ``a_legal_follow`` under different preference
orders and checked with ``check_follow``, both of the table's trick rules
(``PlayRules``, named in the view: tuples and the draw policy); ``legal`` is
the fallback.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.cards import (
    FACES_PER_DECK,
    SMALL_JOKER,
    SUITS,
    card_ids,
    format_card,
    parse_face,
)
from engine.errors import IllegalAction
from engine.events import JSON
from engine.game import Action
from rules.tractor.friends import callable_faces
from rules.tractor.options import FriendSelection
from rules.tractor.order import NT_LEVEL, TRUMP, Trump, rank_index, tables
from rules.tractor.play_rules import PlayRules
from rules.tractor.scoring import card_points
from rules.tractor.structure import Structure, Unit


def to_ids(spellings: Iterable[str]) -> list[int]:
    """Card ids for card spellings; a repeated face gets the next copy's id."""
    return card_ids(spellings)


def _spell(cards: Iterable[int]) -> list[str]:
    return [format_card(c) for c in cards]


def _trump(view: JSON) -> Trump:
    rank = rank_index(view["rank"])
    suit = view.get("trump_suit")
    return Trump(rank, None if suit in (None, "NT") or rank == NT_LEVEL else SUITS.index(suit))


class TractorHeuristicBot:
    rules: PlayRules = PlayRules()

    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action | None:
        try:
            phase = view.get("phase")
            kinds = {a.get("type") for a in legal}
            if "confirm" in kinds:
                return {"type": "confirm"}  # keep the play just made
            if phase in ("draw", "overbid"):
                return self._draw(view, legal, seat)
            if phase == "bury":
                return self._bury(view, legal)
            if phase == "call":
                return self._call(view, legal)
            if phase == "play":
                return self._play(view, legal, seat)
            if phase == "round_over":
                return {"type": "next_round"}  # the only move there is
        except (IllegalAction, ValueError, KeyError):
            pass
        return None  # cannot decide: the game's stand-in moves for the seat

    # draw

    def _draw(self, view: JSON, legal: Sequence[Action], seat: int) -> Action:
        declares = [a for a in legal if a.get("type") == "declare"]
        # Never the optional takeback of its own bid while anything else is legal.
        fallback = next((a for a in legal if a.get("type") in ("draw", "pass")),
                        next((a for a in legal if a.get("type") != "takeback_bid"), legal[0]))
        if not declares:
            return fallback
        declarer = view.get("declarer")
        partnered = len(view.get("hand_sizes", ())) == 4  # fixed partnerships
        if (partnered and declarer is not None and declarer % 2 == seat % 2
                and declarer != seat):
            return fallback  # never override the partner
        overbid = view.get("phase") == "overbid"
        if overbid and any(d.get("seat") == seat for d in view.get("declarations", ())):
            # One declaration a round after the burial at most: reinforcing would
            # only take back a kitty it buried, and re-declaring against a seat
            # that overrides it could go on for ever (reinforce_while_equivalent).
            return fallback
        if declarer == seat:
            return declares[0]  # only a reinforcement can be offered to the declarer
        hand = to_ids(view["hand"])
        rank = rank_index(view["rank"])
        n = len(hand)
        late = not overbid and view.get("stock_left", 0) <= 12

        def support(action: Action) -> float:
            f = parse_face(action["cards"][0])
            suit = None if f >= SMALL_JOKER else f // 13
            t = tables(Trump(rank, suit))
            trumps = sum(t.suit[c % FACES_PER_DECK] == TRUMP for c in hand)
            if suit is None:
                return trumps / max(n, 1) + 0.05  # no trump: jokers and rank cards only
            return trumps / max(n, 1)

        best = max(declares, key=support)
        if overbid:
            # Taking the kitty makes its suit trump: worth it when that gives the
            # hand more trumps than the trump standing (a card more) and a fair share.
            standing = tables(_trump(view))
            held = sum(standing.suit[c % FACES_PER_DECK] == TRUMP for c in hand)
            mine = support(best) * max(n, 1)
            return best if mine >= max(0.3 * n, held + 1) else fallback
        # About a third of all cards are trump; declare with clearly more than that,
        # or late in the draw with at least a fair share.
        if (n >= 6 and support(best) >= 0.42) or (late and support(best) >= 0.3):
            return best
        return fallback

    # kitty

    def _bury(self, view: JSON, legal: Sequence[Action]) -> Action:
        hand = to_ids(view["hand"])
        trump = _trump(view)
        t = tables(trump)
        faces = Counter(c % FACES_PER_DECK for c in hand)
        lengths = Counter(t.suit[c % FACES_PER_DECK] for c in hand)

        def key(c: int) -> tuple[Any, ...]:
            f = c % FACES_PER_DECK
            is_trump = t.suit[f] == TRUMP
            high = not is_trump and f < SMALL_JOKER and f % 13 >= 11  # K, A
            return (is_trump, faces[f] > 1, card_points(c) > 0, high, lengths[t.suit[f]],
                    t.phi[f])

        size = next(len(a["cards"]) for a in legal if a.get("type") == "bury")
        buried = sorted(hand, key=key)[:size]
        return {"type": "bury", "cards": _spell(buried)}

    # Finding Friends

    def _call(self, view: JSON, legal: Sequence[Action]) -> Action:
        """The first copy of the highest side-suit cards the hand lacks (aces
        first): their holders are strong, and the landlord cannot waste the
        call by playing one.  Only if too few are missing, a held face, calling
        the copy after the ones held."""
        count = len(next(a["calls"] for a in legal if a.get("type") == "call"))
        decks = _decks(view)
        trump = _trump(view)
        t = tables(trump)
        held = Counter(c % FACES_PER_DECK for c in to_ids(view["hand"]))
        policy = FriendSelection((view.get("rules") or {}).get("friend_selection",
                                                               FriendSelection.UNRESTRICTED))
        allowed = set(callable_faces(trump, policy))
        faces = [f for f in range(SMALL_JOKER) if t.suit[f] != TRUMP and held[f] < decks
                 and f in allowed]
        faces.sort(key=lambda f: (held[f] > 0, -t.phi[f], f))
        calls = [{"card": format_card(f), "nth": held[f] + 1} for f in faces[:count]]
        return {"type": "call", "calls": calls}

    # play

    def _play(self, view: JSON, legal: Sequence[Action], seat: int) -> Action:
        trump = _trump(view)
        self.rules = PlayRules.from_json(view.get("rules"))
        hand = to_ids(view["hand"])
        seen = Counter(parse_face(c) for c in view.get("played", []))
        for p in view.get("trick", []):
            seen.update(parse_face(c) for c in p["cards"])
        seen.update(c % FACES_PER_DECK for c in hand)
        seen.update(parse_face(c) for c in view.get("kitty", []))
        decks = _decks(view)
        unseen = [f + FACES_PER_DECK * i for f in range(FACES_PER_DECK)
                  for i in range(decks - min(seen[f], decks))]
        if not view["trick"]:
            return self._lead(hand, unseen, trump, legal)
        return self._follow(view, hand, trump, legal, seat)

    def _lead(
        self, hand: list[int], unseen: list[int], trump: Trump, legal: Sequence[Action]
    ) -> Action:
        action = self._choose_lead(hand, unseen, trump)
        self.rules.check_lead(to_ids(action["cards"]), trump)
        return action

    def _choose_lead(self, hand: list[int], unseen: list[int], trump: Trump) -> Action:
        t = tables(trump)
        by_suit: dict[int, list[int]] = {}
        for c in hand:
            by_suit.setdefault(t.suit[c % FACES_PER_DECK], []).append(c)

        def sure(u: Unit, suit: int) -> bool:
            return not self.rules.can_beat(u, unseen, trump, suit)

        # A throw of every sure unit of a side suit, when there are several.
        best: tuple[int, ...] | None = None
        for suit, cards in by_suit.items():
            if suit == TRUMP:
                continue
            units = [u for u in self.rules.structure(cards, trump).units if sure(u, suit)]
            if len(units) >= 2:
                throw = tuple(c for u in units for c in u.cards)
                if best is None or len(throw) > len(best):
                    best = throw
        if best is not None:
            return _action(best, trump)
        # Sure tractors, then sure pairs, then sure singles (side suits first).
        for want in ("tractor", "pair", "single"):
            options = []
            for suit, cards in by_suit.items():
                for u in self.rules.structure(cards, trump).units:
                    kind = _kind(u)
                    if kind == want and sure(u, suit):
                        options.append((suit == TRUMP, -u.size, u.cards))
            if options:
                return _action(min(options)[2], trump)
        # Any side-suit tractor (it draws the others' pairs), highest first.
        tractors = [u.cards for suit, cards in by_suit.items() if suit != TRUMP
                    for u in self.rules.structure(cards, trump).units if _kind(u) == "tractor"]
        if tractors:
            return _action(max(tractors, key=lambda u: (len(u), t.phi[u[-1] % FACES_PER_DECK])),
                           trump)
        # A low card of the shortest side suit, pairs kept, no points if possible.
        side = [(len(cs), s) for s, cs in by_suit.items() if s != TRUMP]
        pool = by_suit[min(side)[1]] if side else hand
        counts = Counter(c % FACES_PER_DECK for c in pool)
        low = min(pool, key=lambda c: (counts[c % FACES_PER_DECK] > 1, card_points(c) > 0,
                                       t.phi[c % FACES_PER_DECK]))
        return _action((low,), trump)

    def _follow(
        self, view: JSON, hand: list[int], trump: Trump, legal: Sequence[Action], seat: int
    ) -> Action:
        t = tables(trump)
        plays = [to_ids(p["cards"]) for p in view["trick"]]
        seats = [p["seat"] for p in view["trick"]]
        lead = self.rules.structure(plays[0], trump)
        allies = _allies(view, seat, hand)
        winner = view.get("trick_winner")
        last = len(plays) == len(view["hand_sizes"]) - 1

        def phi(c: int) -> int:
            return t.phi[c % FACES_PER_DECK]

        def is_trump(c: int) -> bool:
            return t.suit[c % FACES_PER_DECK] == TRUMP

        held = Counter(c % FACES_PER_DECK for c in hand)

        def paired(c: int) -> bool:
            return held[c % FACES_PER_DECK] > 1

        keys: list[Callable[[int], Any]] = [
            lambda c: (card_points(c) > 0, is_trump(c), paired(c), phi(c)),  # low, no points
            lambda c: (-card_points(c), is_trump(c), phi(c)),  # feed points
            lambda c: (-phi(c),),  # high
            lambda c: (not is_trump(c), phi(c)),  # low trumps first
            lambda c: (not is_trump(c), -phi(c)),  # high trumps first
        ]
        candidates: list[tuple[int, ...]] = []
        for k in keys:
            candidates.append(self.rules.a_legal_follow(lead, hand, trump, key=k))
        candidates += [tuple(to_ids(a["cards"])) for a in legal if a.get("type") == "play"]
        valid = []
        for c in dict.fromkeys(tuple(sorted(p)) for p in candidates):
            try:
                self.rules.check_follow(lead, hand, c, trump)
            except IllegalAction:
                continue
            valid.append(c)
        if not valid:
            raise ValueError("no candidate follow passes the rules")
        def pts(p: Sequence[int]) -> int:
            return sum(card_points(c) for c in p)

        def trumps(p: Sequence[int]) -> int:
            return sum(map(is_trump, p)) if lead.suit != TRUMP else 0

        def weight(p: Sequence[int]) -> int:
            return sum(map(phi, p))

        def broken(p: Sequence[int]) -> int:
            """Pairs of the hand the play splits (one copy played, one kept)."""
            taken = Counter(c % FACES_PER_DECK for c in p)
            return sum(1 for f, n in taken.items() if n == 1 and held[f] == 2)

        trick_points = sum(card_points(c) for p in plays for c in p)
        if winner in allies and (last or self._holds(plays[seats.index(winner)], lead,
                                                      trump, hand, view)):
            # Feed points, without spending trumps or high cards for it.
            return _action(min(valid, key=lambda p: (-pts(p), trumps(p), broken(p), weight(p))),
                           trump)
        winners = [c for c in valid if self._wins(lead, plays, c, trump)]
        if winners:
            # Cheapest win: fewest trumps, then (last to play) most points, then lowest.
            cheapest = min(winners, key=lambda p: (trumps(p), -pts(p) if last else 0,
                                                   weight(p)))
            worth = trick_points + pts(cheapest) >= 10
            if not trumps(cheapest) or worth:
                return _action(cheapest, trump)
        # Lose cheaply: no points, no trumps, pairs kept, lowest cards.
        return _action(min(valid, key=lambda p: (pts(p), trumps(p), broken(p), weight(p))),
                       trump)

    def _wins(self, lead: Structure, plays: list[list[int]], mine: Sequence[int],
              trump: Trump) -> bool:
        all_plays = [*plays, list(mine)]
        return self.rules.winner(lead, all_plays, trump) == len(plays)

    def _holds(self, partner_play: list[int], lead: Structure, trump: Trump,
               hand: list[int], view: JSON) -> bool:
        """Whether the partner's winning play looks safe: a trump play, or the
        top of the led suit among the cards nobody has shown yet."""
        t = tables(trump)
        if all(t.suit[c % FACES_PER_DECK] == TRUMP for c in partner_play):
            return lead.suit != TRUMP
        top = max(t.phi[c % FACES_PER_DECK] for c in partner_play)
        seen = Counter(parse_face(c) for c in view.get("played", []))
        for p in view.get("trick", []):
            seen.update(parse_face(c) for c in p["cards"])
        seen.update(c % FACES_PER_DECK for c in hand)
        decks = _decks(view)
        higher = [f for f in range(FACES_PER_DECK)
                  if t.suit[f] == lead.suit and t.phi[f] > top and seen[f] < decks]
        return not higher


def _decks(view: JSON) -> int:
    """Decks in play (Finding Friends views and the trick rules name them)."""
    return int(view.get("decks") or (view.get("rules") or {}).get("decks", 2))


def _kind(u: Unit) -> str:
    """``tractor`` (several adjacent faces), ``pair`` (a tuple of 2 or more) or ``single``."""
    faces = {c % FACES_PER_DECK for c in u.cards}
    return "tractor" if len(faces) >= 2 else "pair" if len(u.cards) >= 2 else "single"


def _allies(view: JSON, seat: int, hand: Sequence[int]) -> set[int]:
    """Seats this bot knows to be on its side.

    Classic: the partner.  Finding Friends: on the landlord's side (landlord
    or revealed friend), the rest of that side; holding a called copy not yet
    played (it will probably join), the landlord's side; otherwise nobody
    until every call is answered, when the other attackers are known.
    """
    if "calls" not in view:
        return {(seat + 2) % 4}
    side = set(view.get("landlord_side", ()))
    if seat in side:
        return side - {seat}
    open_calls = [c for c in view["calls"] if c.get("seat") is None]
    held = {c % FACES_PER_DECK for c in hand}
    if any(parse_face(c["card"]) in held for c in open_calls):
        return side
    if not open_calls:
        return set(range(len(view["hand_sizes"]))) - side - {seat}
    return set()


def _action(cards: Sequence[int], trump: Trump) -> Action:
    """A play action; a lead is checked for shape here (the game checks the rest)."""
    return {"type": "play", "cards": _spell(cards)}
