"""Contract bridge as a :class:`engine.game.Game`: auction, play, claims, scoring.

Seats 0..3 are North, East, South, West.  The declarer plays the dummy's cards:
when it is the dummy's turn, the declarer's seat acts, and the dummy's seat never
acts.  A session is one board or a series of boards with a running score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from engine.actions import FrozenAction
from engine.cards import CardParseError, format_face, parse_face
from engine.errors import IllegalAction
from engine.events import JSON, PUBLIC, Event, only
from engine.formats import FileFormat, GameRecord
from engine.game import Action, Game, Move, Result
from engine.rng import Rng
from engine.values import build, evolve
from rules.bridge import lin, pbn, play, step
from rules.bridge.analysis_hook import BridgeAnalysis
from rules.bridge.auction import (
    DOUBLE,
    PASS,
    Bid,
    Call,
    CallError,
    Contract,
    call_options,
    check_call,
    final_contract,
    format_call,
    is_over,
    parse_call,
)
from rules.bridge.claims import (
    answerers,
    claim_allowed,
    claim_holds,
    opponents,
    remaining_tricks,
)
from rules.bridge.dealing import deal_board, deal_pbn
from rules.bridge.encoding import encode_state
from rules.bridge.options import BridgeConfig, ClaimPolicy
from rules.bridge.presentation import BridgePresentation
from rules.bridge.scoring import contract_score
from rules.bridge.shared import (
    ANSWERS,
    CALLED,
    CALLS,
    CLAIMS,
    FACE_OF,
    MENUS,
    NO_CLAIMS,
    PARSED,
    PLAYED,
    PLAYS,
    SPELLING,
    TRUMP,
)
from rules.bridge.solve import SOLVE
from rules.bridge.state import BoardResult, BridgeState, Claim, Hands, Phase
from rules.bridge.views import board_view, hidden_cards, next_player, session_result

MAX_ALERT = 200  # characters of an alert's explanation
# The phases the hot paths test, read once: an enum member read through its class is
# a descriptor call in Python 3.11, several per card of a random-legal board.
_PLAYING, _BIDDING = Phase.PLAY, Phase.AUCTION
_ALONE = ((0,), (1,), (2,), (3,))  # to_act of one seat, without a new tuple each time


# The file formats replay records through the rules, which list the formats: the
# game is handed to them when they run (docs/formats.md).
def _read_pbn(text: str) -> list[GameRecord]:
    return pbn.read(text, BridgeGame())


def _write_pbn(records: Sequence[GameRecord]) -> str:
    return pbn.write(records, BridgeGame())


def _read_lin(text: str) -> list[GameRecord]:
    return lin.read(text, BridgeGame())


def _write_lin(records: Sequence[GameRecord]) -> str:
    return lin.write(records, BridgeGame())


PBN = FileFormat("pbn", "Portable Bridge Notation 2.1", (".pbn",), _read_pbn, _write_pbn)
LIN = FileFormat("lin", "Bridge Base Online LIN", (".lin",), _read_lin, _write_lin)


def _claims_barred(state: BridgeState) -> bool:
    """Whether a claim was just rejected and no card played since (version 2:
    claims cannot then hold the play up; version 1 let the seat on turn claim)."""
    return state.rejected_at == len(state.played) and state.config.version >= 2


def _claims(state: BridgeState) -> list[Action]:
    """Every claim of the remaining tricks (the one in progress included)."""
    return list(CLAIMS[remaining_tricks(state)])


@dataclass(frozen=True)
class BridgeMove(Move):
    """A checked action and what it parsed to: the call, the card played (from the
    seat's own hand or dummy's) or the tricks claimed; none for a claim answer."""

    call: Call | None = None
    card: int | None = None
    tricks: int | None = None


class BridgeGame(Game[BridgeState, BridgeConfig]):
    name: ClassVar[str] = "bridge"
    action_fields: ClassVar[Mapping[str, frozenset[str]]] = {
        "call": frozenset({"call", "alert"}),
        "play": frozenset({"card"}),
        "claim": frozenset({"tricks"}),
        "accept_claim": frozenset(),
        "reject_claim": frozenset(),
    }
    title: ClassVar[str] = "Contract bridge"
    config_model = BridgeConfig
    move_type = BridgeMove
    non_card_keys = frozenset(
        {"call", "contract", "summary", "auction", "results", "explanations"}
    )
    # A claimer faces their remaining cards (rules/bridge/claims.py).
    revealing_kinds = frozenset({"play", "claim"})
    dealing_options = frozenset({"deal"})
    analysis = BridgeAnalysis()
    presentation = BridgePresentation()
    formats = (PBN, LIN)
    tools = (SOLVE,)

    def seat_count(self, config: BridgeConfig) -> int:
        return 4

    def new(self, config: BridgeConfig, seed: int) -> BridgeState:
        return deal_board(config, seed, 0, ())

    def initial_events(self, state: BridgeState) -> list[Event]:
        return self._board_events(state)

    def _board_events(self, state: BridgeState) -> list[Event]:
        events = [
            Event(
                "deal",
                {
                    "board": state.board,
                    "dealer": state.dealer,
                    "vulnerability": state.vulnerability.value,
                },
            )
        ]
        for seat, hand in enumerate(state.hands):
            events.append(
                Event("hand", {"seat": seat, "cards": [format_face(c) for c in hand]}, only(seat))
            )
        return events

    # whose turn

    def to_act(self, state: BridgeState) -> tuple[int, ...]:
        phase = state.phase
        if phase is _PLAYING:  # the common case first, without the properties
            player = (state.leader + len(state.trick)) % 4
            contract = state.contract
            assert contract is not None
            declarer = contract.declarer
            return _ALONE[declarer if player == (declarer + 2) % 4 else player]
        if phase is _BIDDING:
            return _ALONE[(state.dealer + len(state.calls)) % 4]
        if phase is Phase.OVER:
            return ()
        claim = state.claim
        assert claim is not None
        return tuple(sorted(claim.needed - claim.accepted))

    def may_act(self, state: BridgeState) -> tuple[int, ...]:
        """In the play the declarer and both defenders may claim or concede at any
        time, on turn or not, mid-trick too (Law 68A/B: "declarer or a defender";
        the dummy never claims); otherwise only the seats on turn."""
        if state.phase is not Phase.PLAY or not claim_allowed(state):
            return self.to_act(state)
        if state.rejected_at == len(state.played):
            # Where a claim was just rejected, nobody claims again out of turn until a
            # card is played: a table without a Director cannot be held up by claims.
            return self.to_act(state)
        dummy = state.dummy
        return tuple(s for s in range(4) if s != dummy)

    # legality

    def legal(self, state: BridgeState, seat: int) -> list[Action]:
        if state.phase is _PLAYING:  # the common case first, as in to_act
            player = (state.leader + len(state.trick)) % 4
            contract = state.contract
            assert contract is not None
            declarer = contract.declarer
            if seat == (declarer if player == (declarer + 2) % 4 else player):
                claims = NO_CLAIMS if _claims_barred(state) else CLAIMS
                return play.legal(state.hands[player], state.trick, PLAYS, claims)
        elif state.phase is _BIDDING and seat == (state.dealer + len(calls := state.calls)) % 4:
            # _call_actions and _calls inline: a call's legal() is a sixth of a board.
            auction: Sequence[tuple[int, Call]] = state.auction
            if len(auction) != len(calls):
                auction = self._calls(state)
            return list(MENUS[call_options(auction, seat)])
        if seat not in self.to_act(state):
            if seat in self.may_act(state):  # out of turn: only a claim
                return _claims(state)
            return []
        # The claim phase: the seats on turn in the auction and the play returned above.
        return list(ANSWERS)

    def stand_in(self, legal: Sequence[Action], rng: Rng) -> Action:
        """A late bot passes in the auction, rejects a claim (play goes on) and plays
        a random card; it never bids, doubles or claims on its seat's behalf."""
        calm = [a for a in legal if a.get("type") in ("play", "reject_claim")
                or a == {"type": "call", "call": "P"}]
        return dict(rng.choice(calm or list(legal)))

    def _calls(self, state: BridgeState) -> Sequence[tuple[int, Call]]:
        """The auction parsed: carried by the state, or parsed afresh if stale."""
        if len(state.auction) == len(state.calls):
            return state.auction
        return tuple((s, parse_call(c)) for s, c in state.calls)

    # Validate, then apply: the commonest actions directly, with no move built
    # (what validate and apply would do, as the pins check); rules/bridge/step.py.
    act = step.act
    _validate_then_apply = Game.act  # act()'s general path: validate, then perform

    def validate(self, state: BridgeState, seat: int, action: Action) -> BridgeMove:
        if state.phase is _PLAYING and action.get("type") == "play":
            # The common case, a legal card, checked without the general path's
            # steps; anything it does not accept goes that way for its error.
            f = self._legal_card(state, seat, action)
            if f is not None:
                return build(BridgeMove, action=PLAYS[f], seat=seat, state=state, call=None,
                             card=f, tricks=None)
        elif state.phase is _BIDDING and action.get("type") == "call":
            call = self._legal_call(state, seat, action)
            if call is not None:
                return build(BridgeMove, action=CALLS[action["call"]], seat=seat, state=state,
                             call=call, card=None, tricks=None)
        return self._validate(state, seat, action)

    def _legal_call(self, state: BridgeState, seat: int, action: Action) -> Call | None:
        """The call of ``action`` when it is canonically spelt, without an alert, and
        legal for the seat on turn in the auction, else None (the general path
        then parses it, or says what is wrong)."""
        text = action.get("call")
        call = PARSED.get(text) if type(text) is str else None
        if call is None or seat != (state.dealer + len(state.calls)) % 4 or "alert" in action:
            return None
        if call == PASS:
            return call
        double, redouble, first = call_options(self._calls(state), seat)
        if isinstance(call, Bid):
            return call if call.rank >= first else None
        return call if (double if call == DOUBLE else redouble) else None

    def _card_on_turn(self, state: BridgeState, seat: int, action: Action) -> int | None:
        """The face of ``action``'s card, canonically spelt, when ``seat`` is on turn
        in the play phase, else None (the general path then says what is wrong)."""
        player = (state.leader + len(state.trick)) % 4
        contract = state.contract
        assert contract is not None
        declarer = contract.declarer
        if seat != (declarer if player == (declarer + 2) % 4 else player):
            return None
        text = action.get("card")
        return FACE_OF.get(text) if type(text) is str else None

    def _legal_card(self, state: BridgeState, seat: int, action: Action) -> int | None:
        """The face of ``action``'s card when it is a legal play of the seat on turn
        in the play phase, else None (the general path then says what is wrong)."""
        f = self._card_on_turn(state, seat, action)
        if f is None or not play.may_play(state.hands[(state.leader + len(state.trick)) % 4],
                                          state.trick, f):
            return None
        return f

    def _validate(self, state: BridgeState, seat: int, action: Action) -> BridgeMove:
        if state.phase is Phase.OVER:
            raise IllegalAction("game_over", "the session is over")
        kind = action.get("type")
        if seat not in self.to_act(state) and not (
            kind == "claim" and seat in self.may_act(state)
        ):
            raise IllegalAction("not_your_turn", "it is not your turn")
        if state.phase is Phase.AUCTION:
            if kind != "call" or not isinstance(action.get("call"), str):
                raise IllegalAction("bad_action", 'expected {"type": "call", "call": "<call>"}')
            try:
                call = parse_call(action["call"])
                check_call(self._calls(state), seat, call)
            except CallError as exc:
                raise IllegalAction(exc.code, str(exc)) from None
            canonical: Action = CALLS[format_call(call)]
            alert = action.get("alert")
            if alert is not None:
                # An alert, with the explanation the partnership gives (may be empty).
                if not isinstance(alert, str) or len(alert) > MAX_ALERT:
                    raise IllegalAction("bad_alert", f"an alert is a text of at most "
                                                     f"{MAX_ALERT} characters")
                # One line, as the files that keep it (a PBN note) hold it.
                canonical = FrozenAction(canonical, alert=" ".join(alert.split()))
            return BridgeMove(canonical, seat, state, call=call)
        if state.phase is Phase.CLAIM:
            if kind not in ("accept_claim", "reject_claim"):
                raise IllegalAction("bad_action", "answer the claim: accept_claim or reject_claim")
            return BridgeMove(ANSWERS[kind == "reject_claim"], seat, state)
        assert state.contract is not None
        if kind == "claim":
            n = action.get("tricks")
            remaining = remaining_tricks(state)
            if not claim_allowed(state):
                raise IllegalAction("bad_claim", "the last trick is under way: play it out")
            if _claims_barred(state):
                raise IllegalAction("bad_claim", "a claim was just rejected: play a card "
                                                 "before anyone claims again")
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= remaining:
                raise IllegalAction("bad_claim", f"claim between 0 and {remaining} tricks")
            return BridgeMove(CLAIMS[13][n], seat, state, tricks=n)
        text = action.get("card")
        if kind != "play" or not isinstance(text, str):
            raise IllegalAction("bad_action", 'expected {"type": "play", "card": "<card>"}')
        f = FACE_OF.get(text)
        if f is None:
            try:
                f = parse_face(text)
            except CardParseError as exc:
                raise IllegalAction("bad_card", str(exc)) from None
        player = next_player(state)
        hand = state.hands[player]
        if f not in hand:
            whose = "dummy's hand" if player != seat else "your hand"
            raise IllegalAction("not_in_hand", f"that card is not in {whose}")
        if state.trick:
            led = state.trick[0] // 13  # faces 0..51: suit = face // 13
            if f // 13 != led and any(c // 13 == led for c in hand):
                raise IllegalAction("must_follow_suit", "you must follow the suit led")
        return BridgeMove(PLAYS[f], seat, state, card=f)

    # transitions

    def perform(
        self, state: BridgeState, seat: int, move: BridgeMove
    ) -> tuple[BridgeState, list[Event]]:
        if move.card is not None:  # the common case first: a card (never a call)
            return self._play(state, move.card)
        kind = move.action["type"]
        if kind == "call":
            assert move.call is not None
            return self._call(
                state, seat, move.action["call"], move.call, move.action.get("alert")
            )
        if move.tricks is not None:
            return self._claim(state, seat, move.tricks)
        return self._answer(state, seat, kind == "accept_claim")

    def _call(
        self,
        state: BridgeState,
        seat: int,
        call: str,
        parsed_call: Call,
        alert: str | None = None,
    ) -> tuple[BridgeState, list[Event]]:
        calls = (*state.calls, (seat, call))
        auction = (*self._calls(state), (seat, parsed_call))
        if alert is None:
            events = [CALLED[seat][call]]
        else:
            events = [Event("call", {"seat": seat, "call": call, "alert": alert})]
            state = evolve(state, alerts=(*state.alerts, (len(state.calls), alert)))
        if call != PASS or not is_over(auction):  # only a pass can end the auction
            return evolve(state, calls=calls, auction=auction), events
        contract = final_contract(auction)
        if contract is None:
            events.append(Event("passed_out", {"board": state.board}))
            done = evolve(state, calls=calls, auction=auction)
            return self._end_board(done, None, None, events)
        events.append(
            Event(
                "contract",
                {
                    "contract": str(contract),
                    "declarer": contract.declarer,
                    "leader": (contract.declarer + 1) % 4,
                },
            )
        )
        after = evolve(
            state,
            calls=calls,
            auction=auction,
            contract=contract,
            phase=Phase.PLAY,
            leader=(contract.declarer + 1) % 4,
        )
        return after, events

    def _play(self, state: BridgeState, f: int) -> tuple[BridgeState, list[Event]]:
        assert state.contract is not None
        stepped = play.play(state.hands, (state.leader + len(state.trick)) % 4, state.trick,
                            state.played, f, TRUMP[state.contract.strain], False)
        assert stepped is not None
        return self._played(state, f, stepped)

    def _played(self, state: BridgeState, f: int,
                stepped: tuple[Hands, tuple[int, ...], tuple[int, ...], int]
                ) -> tuple[BridgeState, list[Event]]:
        """The state and events after card ``f``, given what play.play worked out."""
        assert state.contract is not None
        player = (state.leader + len(state.trick)) % 4
        new_hands, trick, played, won = stepped
        events = [PLAYED[player][f]]
        if len(played) == 1:
            dummy = state.dummy
            assert dummy is not None
            events.append(
                Event("dummy", {"seat": dummy, "cards": [SPELLING[c] for c in new_hands[dummy]]})
            )
        if len(trick) < 4:
            return evolve(state, hands=new_hands, trick=trick, played=played), events
        winner = (state.leader + won) % 4
        ns, ew = state.tricks
        if winner % 2:
            ew += 1
        else:
            ns += 1
        events.append(build(Event, kind="trick", data={"winner": winner, "tricks": [ns, ew]},
                            visibility=PUBLIC))
        after = evolve(
            state,
            hands=new_hands,
            trick=(),
            played=played,
            leader=winner,
            tricks=(ns, ew),
            last_trick=trick,
            last_leader=state.leader,
        )
        if any(new_hands):
            return after, events
        declarer_side = state.contract.declarer % 2
        return self._end_board(after, state.contract, after.tricks[declarer_side], events)

    def _claim(self, state: BridgeState, seat: int, n: int) -> tuple[BridgeState, list[Event]]:
        assert state.contract is not None
        declarer = state.contract.declarer
        remaining = remaining_tricks(state)
        hand = state.hands[seat]
        needed = answerers(seat, declarer, n, remaining)
        events = [Event("claim", {"seat": seat, "tricks": n, "remaining": remaining,
                                  "hand": [format_face(c) for c in hand],
                                  "answer": sorted(needed)})]
        if state.config.claims is ClaimPolicy.DOUBLE_DUMMY and claim_holds(state, seat, n):
            # The solver speaks for the opponents; a partner's say stays (Law 68B2).
            needed -= opponents(seat, declarer)
            if not needed:
                events.append(Event("claim_accepted", {"by": "double_dummy"}))
                return self._settle_claim(state, seat, n, events)
        claim = Claim(seat, n, frozenset(), needed)
        return replace(state, phase=Phase.CLAIM, claim=claim), events

    def _answer(
        self, state: BridgeState, seat: int, accept: bool
    ) -> tuple[BridgeState, list[Event]]:
        claim = state.claim
        assert claim is not None
        if not accept:
            events = [Event("claim_rejected", {"seat": seat})]
            return replace(state, phase=Phase.PLAY, claim=None,
                           rejected_at=len(state.played)), events
        accepted = claim.accepted | {seat}
        events = [Event("claim_answer", {"seat": seat, "accept": True})]
        if not claim.needed <= accepted:
            return replace(state, claim=replace(claim, accepted=accepted)), events
        events.append(Event("claim_accepted", {"by": "players"}))
        return self._settle_claim(
            replace(state, phase=Phase.PLAY, claim=None), claim.seat, claim.tricks, events
        )

    def _settle_claim(
        self, state: BridgeState, claimer: int, n: int, events: list[Event]
    ) -> tuple[BridgeState, list[Event]]:
        assert state.contract is not None
        remaining = remaining_tricks(state)
        side = claimer % 2
        tricks = list(state.tricks)
        tricks[side] += n
        tricks[1 - side] += remaining - n
        done = replace(state, tricks=(tricks[0], tricks[1]), claim=None, phase=Phase.PLAY)
        declarer_side = state.contract.declarer % 2
        return self._end_board(done, state.contract, tricks[declarer_side], events,
                               claimed=True)

    def _end_board(
        self,
        state: BridgeState,
        contract: Contract | None,
        tricks: int | None,
        events: list[Event],
        claimed: bool = False,
    ) -> tuple[BridgeState, list[Event]]:
        if contract is None or tricks is None:
            score_ns = 0
        else:
            vul = state.vulnerability.is_vulnerable(contract.declarer)
            score = contract_score(contract, vul, tricks)
            score_ns = score if contract.declarer % 2 == 0 else -score
        result = build(  # BoardResult's every field, in order, without its __init__
            BoardResult,
            board=state.board,
            dealer=state.dealer,
            vulnerability=state.vulnerability,
            deal=deal_pbn(state),
            calls=state.calls,
            played=state.played,
            contract=str(contract) if contract else None,
            declarer=contract.declarer if contract else None,
            tricks=tricks,
            score_ns=score_ns,
            claimed=claimed,
        )
        results = (*state.results, result)
        total = sum(r.score_ns for r in results)
        events.append(
            Event(
                "board_end",
                {
                    "board": state.board,
                    "contract": result.contract,
                    "declarer": result.declarer,
                    "tricks": tricks,
                    "score_ns": score_ns,
                    "total_ns": total,
                    "deal": result.deal,
                    # What par needs besides the deal (analysis of the ended board).
                    "dealer": state.dealer,
                    "vulnerability": state.vulnerability.value,
                },
            )
        )
        if state.index + 1 >= state.config.boards:
            final = evolve(state, phase=Phase.OVER, results=results)
            res = self.result(final)
            assert res is not None
            events.append(Event("game_over", res.to_json()))
            return final, events
        nxt = deal_board(state.config, state.seed, state.index + 1, results)
        return nxt, events + self._board_events(nxt)

    # views (rules/bridge/views.py)

    def view(self, state: BridgeState, viewer: int) -> JSON:
        return board_view(state, viewer, self.to_act(state))

    def secrets(self, state: BridgeState, viewer: int) -> frozenset[int]:
        return hidden_cards(state, viewer)

    def result(self, state: BridgeState) -> Result | None:
        return session_result(state)

    def encode(self, state: BridgeState) -> JSON:
        return encode_state(state, self.config_json(state.config))
