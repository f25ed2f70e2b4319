"""No-limit Texas hold'em as a :class:`engine.game.Game`: a cash-table session's
rules (``PokerTable``; ``rules/poker/game.py`` adds the files it reads and writes and
the statistics it keeps, which replay hands through these rules).

Actions (JSON objects; ``validate`` returns the canonical form):

- betting, by the player to act: ``{"type": "fold"}`` (only when facing a bet),
  ``{"type": "check"}``, ``{"type": "call"}``, ``{"type": "bet", "to": N}`` /
  ``{"type": "raise", "to": N}`` (N = the player's total bet this round; either word
  is accepted and canonicalised by whether a bet is already out),
  ``{"type": "all_in"}`` (canonicalised to the raise, call or check it amounts to),
  ``{"type": "sit_out"}`` (folds this hand and sits out from the next one);
- between hands, by a seat that is sitting out or busted: ``{"type": "sit_in"}``,
  ``{"type": "rebuy", "chips": N}`` (buys N chips, up to the table maximum, and sits
  in), ``{"type": "sit_out"}`` (stays out for the next hand).

``legal`` lists fold/check/call, bets/raises to the minimum, half the pot, the pot
and all-in (those that are legal and distinct), and sit_out; ``validate`` accepts
every whole amount from the minimum to all-in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.cards import deck, face_of, format_card
from engine.errors import IllegalAction
from engine.events import JSON, OMNISCIENT, SPECTATOR, Event
from engine.game import Action, Game, Move, Result
from engine.presentation import plural
from engine.rng import Rng
from rules.poker.amounts import from_chips
from rules.poker.betting import Options, act, deal_hand, hand_pots, options
from rules.poker.evaluator import describe as describe_rank
from rules.poker.evaluator import evaluate
from rules.poker.options import HAND_FIELDS, LATER_FIELDS, PokerConfig, spell_cards
from rules.poker.presentation import PokerPresentation
from rules.poker.scoring import net_results
from rules.poker.state import STREET_NAMES, HandState, Phase, PokerState

_BETTING_TYPES = ("fold", "check", "call", "bet", "raise", "all_in", "sit_out")
_BETWEEN_TYPES = ("sit_in", "sit_out", "rebuy")
# A stand-in's move (the first of these that is legal): what a poker room's
# time-out does, never a bet, a rebuy, or a seat given up.
_STAND_IN_ORDER = ("check", "fold", "sit_in", "sit_out")


def _deal_cards(
    config: PokerConfig, seed: int, number: int, players: tuple[int, ...]
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Hole cards per chair and the stub, from this hand's own shuffle: one card at a
    time from the first seat left of the button, twice round.  A fixed deal (the
    ``holes`` and ``board`` options) is kept; the cards it does not name come from
    the shuffle."""
    seats = config.seats
    if config.holes is not None or config.board is not None:
        return _fixed_deal(config, Rng(seed).fork(number), players)
    cards = Rng(seed).fork(number).shuffled(deck())
    n = len(players)
    holes: list[tuple[int, ...]] = [() for _ in range(seats)]
    for i, s in enumerate(players):
        holes[s] = (cards[i], cards[n + i])
    return holes, cards[2 * n :]


def _fixed_deal(
    config: PokerConfig, rng: Rng, players: tuple[int, ...]
) -> tuple[list[tuple[int, ...]], list[int]]:
    fixed = config.holes or ("",) * config.seats
    holes = [tuple(spell_cards(h)) if s in players else () for s, h in enumerate(fixed)]
    board = spell_cards(config.board or "")
    used = {c for h in holes for c in h} | set(board) | set(spell_cards(config.board2 or ""))
    spare = rng.shuffled([c for c in deck() if c not in used])
    board += [spare.pop() for _ in range(5 - len(board))]
    # The stub is read as burn, flop, burn, turn, burn, river (betting._deal_street),
    # then a second run's cards without burns (betting._second_run).
    second = spell_cards(config.board2 or "")
    stub = [spare.pop(), *board[:3], spare.pop(), board[3], spare.pop(), board[4], *second]
    stub += spare
    return holes, stub


def _known(stacks: Sequence[int], config: PokerConfig) -> list[int | None]:
    """Stacks as shown: ``None`` for a chair whose stack the history does not know
    (``unknown_stacks``: the number the table counts with only covers its bets)."""
    unknown = set(config.unknown_stacks or ())
    return [None if s in unknown else v for s, v in enumerate(stacks)]


def _next_active(state: PokerState, after: int) -> int:
    seats = state.config.seats
    for k in range(1, seats + 1):
        s = (after + k) % seats
        if state.stacks[s] > 0 and not state.sitting_out[s]:
            return s
    raise AssertionError("no active seat")


def _start_hand(state: PokerState) -> tuple[PokerState, list[Event]]:
    """Deal the next hand, or end the session if fewer than two can play."""
    seats = state.config.seats
    active = [s for s in range(seats) if state.stacks[s] > 0 and not state.sitting_out[s]]
    if len(active) < 2 or state.hands_played >= state.config.hands:
        return replace(state, phase=Phase.OVER, pending=()), []
    if state.hand is None and state.config.button is not None:
        first = state.config.button
        button = first if first in active else _next_active(state, first)
    elif state.hand is None:
        first = Rng(state.seed).fork(0).below(seats)
        button = first if first in active else _next_active(state, first)
    else:
        button = _next_active(state, state.hand.button)
    start = (button + 1) % seats
    players = tuple(s for s in [*range(start, seats), *range(start)] if s in active)
    number = state.hands_played + 1
    holes, stub = _deal_cards(state.config, state.seed, number, players)
    hand, stacks, events = deal_hand(state.config, state.stacks, players, number, holes, stub)
    start_event = Event(
        "deal",
        {
            "hand": number,
            "button": hand.button,
            "small_blind": hand.small_blind_seat,
            "big_blind": hand.big_blind_seat,
            "players": list(players),
            "stacks": _known(state.stacks, state.config),
        },
    )
    after = replace(state, phase=Phase.BETTING, stacks=stacks, hand=hand, pending=())
    if hand.done:  # everyone all-in on the blinds: nothing to decide
        return _end_hand(after, [start_event, *events])
    return after, [start_event, *events]


def _end_hand(state: PokerState, events: list[Event]) -> tuple[PokerState, list[Event]]:
    """Book a finished hand, then ask the seats sitting out, or deal the next hand."""
    assert state.hand is not None and state.hand.done
    cfg = state.config
    stacks = _known(state.stacks, cfg)
    events = [*events, Event("hand_end", {"hand": state.hand.number, "stacks": stacks})]
    out = tuple(o or st == 0 for o, st in zip(state.sitting_out, state.stacks, strict=True))
    played = state.hands_played + 1
    state = replace(state, hands_played=played, sitting_out=out)
    if played >= cfg.hands:
        return replace(state, phase=Phase.OVER, pending=()), events
    pending = tuple(s for s in range(cfg.seats) if out[s] and (cfg.rebuys or state.stacks[s] > 0))
    if pending:
        return replace(state, phase=Phase.BETWEEN, pending=pending), events
    nxt, more = _start_hand(state)
    return nxt, events + more


class PokerTable(Game[PokerState, PokerConfig]):
    name: ClassVar[str] = "poker"
    title: ClassVar[str] = "No-limit hold'em"
    action_fields: ClassVar[Mapping[str, frozenset[str]]] = {
        "fold": frozenset(),
        "check": frozenset(),
        "call": frozenset(),
        "all_in": frozenset(),
        "bet": frozenset({"to"}),
        "raise": frozenset({"to"}),
        "sit_out": frozenset(),
        "sit_in": frozenset(),
        "rebuy": frozenset({"chips"}),
    }
    config_model = PokerConfig
    presentation = PokerPresentation()
    revealing_kinds = frozenset({"show", "street"})
    dealing_options = frozenset({"holes", "board", "board2"})
    secret_after_end = True  # folded and mucked hands are never shown, replays included

    def seat_count(self, config: PokerConfig) -> int:
        return config.seats

    def config_json(self, config: PokerConfig) -> JSON:
        # The options of imported hands are left out while unset, so a table made
        # without them keeps the JSON (and state hash) it always had.
        out = config.model_dump(mode="json")
        defaults = PokerConfig()
        for name in (*HAND_FIELDS, *LATER_FIELDS):
            if getattr(config, name) == getattr(defaults, name):
                del out[name]
        return out

    def _open(self, config: PokerConfig, seed: int) -> tuple[PokerState, list[Event]]:
        seats = config.seats
        stacks = config.stacks or (config.starting_stack,) * seats
        state = PokerState(
            config=config,
            seed=seed,
            phase=Phase.BETTING,
            stacks=stacks,
            bought_in=stacks,
            sitting_out=(False,) * seats,
            pending=(),
            hands_played=0,
            hand=None,
        )
        return _start_hand(state)

    def new(self, config: PokerConfig, seed: int) -> PokerState:
        return self._open(config, seed)[0]

    def initial_events(self, state: PokerState) -> list[Event]:
        return self._open(state.config, state.seed)[1]

    # ------------------------------------------------------------------ turns

    def to_act(self, state: PokerState) -> tuple[int, ...]:
        if state.phase is Phase.BETWEEN:
            return state.pending
        if state.phase is Phase.BETTING and state.hand is not None:
            actor = state.hand.actor
            return () if actor is None else (actor,)
        return ()

    def options(self, state: PokerState) -> Options | None:
        """Betting options of the player to act (None outside betting)."""
        if state.phase is not Phase.BETTING or state.hand is None:
            return None
        return options(state.hand, state.stacks, state.config)

    def legal(self, state: PokerState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase is Phase.BETWEEN:
            out: list[Action] = []
            if state.stacks[seat] > 0:
                out.append({"type": "sit_in"})
            room = state.config.buy_in_cap - state.stacks[seat]
            if state.config.rebuys and room > 0:
                for chips in sorted({room, min(room, state.config.starting_stack)}):
                    out.append({"type": "rebuy", "chips": chips})
            out.append({"type": "sit_out"})
            return out
        opts = self.options(state)
        assert opts is not None and state.hand is not None
        out = []
        if opts.can_fold:
            out.append({"type": "fold"})
        out.append({"type": "call"} if opts.to_call else {"type": "check"})
        if opts.min_to is not None and opts.max_to is not None:
            word = "raise" if opts.current else "bet"
            pot = sum(state.hand.contributed) + opts.to_call
            sizes = {opts.min_to, opts.max_to}
            for fraction in (2, 1):  # half pot, pot
                sizes.add(opts.current + pot // fraction)
            for to in sorted(t for t in sizes if opts.min_to <= t <= opts.max_to):
                out.append({"type": word, "to": to})
        out.append({"type": "sit_out"})
        return out

    def stand_in(self, legal: Sequence[Action], rng: Rng) -> Action:
        """A late or absent player checks, or folds when checking is not free, and
        between hands sits in (or stays out when out of chips): a stand-in never
        bets, raises, rebuys or sits the player out on their behalf."""
        for kind in _STAND_IN_ORDER:
            for action in legal:
                if action.get("type") == kind:
                    return dict(action)
        return dict(rng.choice(list(legal)))

    def validate(self, state: PokerState, seat: int, action: Action) -> Move:
        # The canonical action says all a move needs (its kind and amount).
        return Move(self._canonical(state, seat, action), seat, state)

    def _canonical(self, state: PokerState, seat: int, action: Action) -> Action:
        if state.phase is Phase.OVER:
            raise IllegalAction("game_over", "the session is over")
        kind = action.get("type")
        if state.phase is Phase.BETWEEN:
            return self._validate_between(state, seat, kind, action)
        hand = state.hand
        assert hand is not None
        if seat != hand.actor:
            raise IllegalAction("not_your_turn", f"seat {hand.actor} is to act")
        if kind not in _BETTING_TYPES:
            raise IllegalAction("bad_action", f"expected one of {', '.join(_BETTING_TYPES)}")
        opts = self.options(state)
        assert opts is not None
        if kind == "sit_out":
            return {"type": "sit_out"}
        if kind == "all_in":
            if opts.max_to is not None:
                return {"type": "raise" if opts.current else "bet", "to": opts.max_to}
            return {"type": "call"} if opts.to_call else {"type": "check"}
        if kind == "fold":
            if not opts.can_fold:
                raise IllegalAction("cannot_fold", "nothing to call: check instead")
            return {"type": "fold"}
        if kind == "check":
            if opts.to_call:
                raise IllegalAction("cannot_check", f"{opts.to_call} to call")
            return {"type": "check"}
        if kind == "call":
            if not opts.to_call:
                raise IllegalAction("nothing_to_call", "nothing to call: check instead")
            return {"type": "call"}
        to = action.get("to")
        if not isinstance(to, int) or isinstance(to, bool):
            raise IllegalAction("bad_amount", '"to" must be a whole number of chips')
        if opts.min_to is None or opts.max_to is None:
            raise IllegalAction("cannot_raise", "raising is not allowed now")
        if to < opts.min_to:
            raise IllegalAction("raise_too_small", f"the minimum is to {opts.min_to}")
        if to > opts.max_to:
            raise IllegalAction("raise_too_large", f"the maximum (all-in) is to {opts.max_to}")
        return {"type": "raise" if opts.current else "bet", "to": to}

    def _validate_between(self, state: PokerState, seat: int, kind: Any, action: Action) -> Action:
        if seat not in state.pending:
            raise IllegalAction("not_your_turn", "only seats sitting out decide between hands")
        if kind == "sit_out":
            return {"type": "sit_out"}
        if kind == "sit_in":
            if state.stacks[seat] <= 0:
                raise IllegalAction("no_chips", "buy chips with a rebuy to sit in")
            return {"type": "sit_in"}
        if kind == "rebuy":
            chips = action.get("chips")
            if not isinstance(chips, int) or isinstance(chips, bool) or chips <= 0:
                raise IllegalAction("bad_amount", '"chips" must be a positive whole number')
            if not state.config.rebuys:
                raise IllegalAction("no_rebuys", "this table does not allow rebuys")
            cap = state.config.buy_in_cap
            if state.stacks[seat] + chips > cap:
                raise IllegalAction("over_max_buy_in", f"a stack may not exceed {cap}")
            return {"type": "rebuy", "chips": chips}
        raise IllegalAction("bad_action", f"expected one of {', '.join(_BETWEEN_TYPES)}")

    def perform(self, state: PokerState, seat: int, move: Move) -> tuple[PokerState, list[Event]]:
        canon = move.action
        kind = canon["type"]
        if state.phase is Phase.BETWEEN:
            return self._apply_between(state, seat, canon)
        hand = state.hand
        assert hand is not None
        events: list[Event] = []
        if kind == "sit_out":
            out = list(state.sitting_out)
            out[seat] = True
            state = replace(state, sitting_out=tuple(out))
            events.append(Event("sit_out", {"seat": seat}))
            kind = "fold"
        new_hand, stacks, more = act(hand, state.stacks, state.config, kind, canon.get("to", 0))
        state = replace(state, hand=new_hand, stacks=stacks)
        events += more
        if new_hand.done:
            return _end_hand(state, events)
        return state, events

    def _apply_between(
        self, state: PokerState, seat: int, canon: Action
    ) -> tuple[PokerState, list[Event]]:
        kind = canon["type"]
        stacks, bought, out = list(state.stacks), list(state.bought_in), list(state.sitting_out)
        if kind == "rebuy":
            stacks[seat] += canon["chips"]
            bought[seat] += canon["chips"]
            out[seat] = False
            event = Event("rebuy", {"seat": seat, "chips": canon["chips"], "stack": stacks[seat]})
        elif kind == "sit_in":
            out[seat] = False
            event = Event("sit_in", {"seat": seat})
        else:
            event = Event("sit_out", {"seat": seat})
        pending = tuple(s for s in state.pending if s != seat)
        state = replace(
            state,
            stacks=tuple(stacks),
            bought_in=tuple(bought),
            sitting_out=tuple(out),
            pending=pending,
        )
        if pending:
            return state, [event]
        nxt, more = _start_hand(state)
        return nxt, [event, *more]

    # ------------------------------------------------------------------ views

    def view(self, state: PokerState, viewer: int) -> JSON:
        cfg = state.config
        hand = state.hand
        out: JSON = {
            "game": self.name,
            "phase": state.phase.value,
            "hands": cfg.hands,
            "hands_played": state.hands_played,
            "blinds": {"small": cfg.small_blind, "big": cfg.big_blind, "ante": cfg.ante},
            "stacks": _known(state.stacks, cfg),
            "bought_in": _known(state.bought_in, cfg),
            "sitting_out": list(state.sitting_out),
            "to_act": list(self.to_act(state)),
            "over": state.phase is Phase.OVER,
        }
        if cfg.decimals:  # an imported hand counts a currency's smallest unit
            out["decimals"] = cfg.decimals
        if cfg.unknown_stacks:  # a history that does not know these stacks
            out["unknown_stacks"] = list(cfg.unknown_stacks)
        if hand is not None:
            out.update(self._hand_view(hand, viewer))
        opts = self.options(state)
        if opts is not None and viewer == opts.seat:
            out["options"] = {
                "to_call": opts.to_call,
                "can_fold": opts.can_fold,
                "min_to": opts.min_to,
                "max_to": opts.max_to,
            }
        res = self.result(state)
        if res is not None:
            out["result"] = res.to_json()
        return out

    def _hand_view(self, hand: HandState, viewer: int) -> JSON:
        """The current (or last) hand's public fields, and the viewer's own cards as
        ``hand`` (the key every cardtable client shows as "your hand")."""
        pots = hand_pots(hand)
        shown = {
            str(s): {
                "cards": [format_card(c) for c in hand.holes[s]],
                "hand": describe_rank(self._rank(hand, s)),
            }
            for s in hand.shown
        }
        view: JSON = {
            "hand_number": hand.number,
            "button": hand.button,
            "small_blind_seat": hand.small_blind_seat,
            "big_blind_seat": hand.big_blind_seat,
            "players": list(hand.players),
            "street": STREET_NAMES[hand.street],
            "board": [format_card(c) for c in hand.board],
            "bets": list(hand.bets),
            "contributed": list(hand.contributed),
            "pot": sum(hand.contributed),
            "pots": [{"chips": p.amount, "eligible": list(p.eligible)} for p in pots],
            "folded": [hand.folded[s] for s in range(len(hand.folded))],
            "actor": hand.actor,
            "history": [
                {"street": STREET_NAMES[st], "seat": s, "type": k, "chips": c}
                for st, s, k, c in hand.history
            ],
            "hand_over": hand.done,
            "shown": shown,
            "mucked": list(hand.mucked),
            "awards": [
                {
                    "pot": a.pot,
                    "chips": a.amount,
                    "winners": list(a.winners),
                    "shares": [list(x) for x in a.shares],
                    **({"run": a.run} if hand.board2 else {}),
                }
                for a in hand.awards
            ],
        }
        if hand.board2:  # the board run twice: the second run's board
            view["board2"] = [format_card(c) for c in hand.board2]
        if hand.raked:
            view["rake"] = hand.raked
        # Hole cards: a seat sees its own; nobody (spectators, and the omniscient
        # replay too) sees any other until it is shown, and mucked or folded cards
        # never, so replays cannot reveal them.
        if viewer not in (SPECTATOR, OMNISCIENT) and hand.holes[viewer]:
            view["hand"] = [format_card(c) for c in hand.holes[viewer]]
        return view

    @staticmethod
    def _rank(hand: HandState, seat: int) -> int:
        return evaluate([*hand.holes[seat], *hand.board])

    def result(self, state: PokerState) -> Result | None:
        if state.phase is not Phase.OVER:
            return None
        net = net_results(state.stacks, state.bought_in)
        best = max(net)
        # Seats are numbered from 1 for people, as the table screens show them.
        leaders = [str(s + 1) for s, v in enumerate(net) if v == best]
        # An imported hand's chips are its currency's smallest unit: say its money.
        places = state.config.decimals
        amount = from_chips(best, places) if places else f"{best} chips"
        summary = (
            f"Seat {leaders[0]} wins {amount} over {plural(state.hands_played, 'hand')}"
            if len(leaders) == 1
            else f"Seats {', '.join(leaders)} lead with {amount}"
        )
        return Result(scores=tuple(float(v) for v in net), summary=summary)

    def encode(self, state: PokerState) -> JSON:
        hand = state.hand
        return {
            "config": self.config_json(state.config),
            "seed": state.seed,
            "phase": state.phase.value,
            "stacks": list(state.stacks),
            "bought_in": list(state.bought_in),
            "sitting_out": list(state.sitting_out),
            "pending": list(state.pending),
            "hands_played": state.hands_played,
            "hand": None if hand is None else _encode_hand(hand),
        }

    def secrets(self, state: PokerState, viewer: int) -> frozenset[int]:
        hand = state.hand
        if hand is None:
            return frozenset()
        hidden = {face_of(c) for c in hand.stub}
        for s in hand.players:
            if s != viewer and s not in hand.shown:
                hidden.update(face_of(c) for c in hand.holes[s])
        return frozenset(hidden)


def _encode_hand(hand: HandState) -> JSON:
    return {
        "starting": list(hand.starting),
        "number": hand.number,
        "button": hand.button,
        "small_blind_seat": hand.small_blind_seat,
        "big_blind_seat": hand.big_blind_seat,
        "players": list(hand.players),
        "holes": [list(h) for h in hand.holes],
        "stub": list(hand.stub),
        "board": list(hand.board),
        "street": int(hand.street),
        "bets": list(hand.bets),
        "contributed": list(hand.contributed),
        "folded": list(hand.folded),
        "queue": list(hand.queue),
        "acted": sorted(hand.acted),
        "raise_size": hand.raise_size,
        "short_all_ins": list(hand.short_all_ins),
        "aggressor": hand.aggressor,
        "done": hand.done,
        "shown": list(hand.shown),
        "mucked": list(hand.mucked),
        # What later options added is written only when present, so a hand without
        # them hashes as it always did.
        "awards": [
            [a.pot, a.amount, list(a.winners), [list(x) for x in a.shares]]
            + ([a.run] if a.run != 1 else [])
            for a in hand.awards
        ],
        "refunds": [list(r) for r in hand.refunds],
        "history": [list(h) for h in hand.history],
        **({"dead": list(hand.dead)} if hand.dead else {}),
        **({"board2": list(hand.board2)} if hand.board2 else {}),
        **({"raked": hand.raked} if hand.raked else {}),
        **({"aside": list(hand.aside)} if any(hand.aside) else {}),
    }
