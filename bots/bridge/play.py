"""GIB-style card play: sample the hidden hands from what this seat has seen (its own
hand, the dummy, the cards played, voids, the auction's constraints), solve every
sample double dummy from the current position, and play the card that takes the
most tricks on average.

The cards played so far come from ``view["played"]`` (the board's cards in play
order, public to every seat): they give the voids shown and, with the auction's
constraints, what each hidden hand can still hold.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bots.bridge.bidding import calls_by_seat, infer
from bots.bridge.sampling import (
    Samples,
    SampleSpec,
    every_deal,
    replay_play,
    sample_deals,
    splits,
)
from engine.cards import format_face, parse_face, rank_of, suit_of
from engine.dds import Solver, SolverPool
from engine.dds.deal import parse_strain, rank_masks
from engine.events import JSON
from engine.rng import Rng
from rules.bridge.auction import parse_call
from rules.bridge.system.hand import Constraints

# (hands, strain, trick leader, trick cards) -> {card text: tricks for the side to move}
Scorer = Callable[[tuple[tuple[int, ...], ...], str, int, tuple[int, ...]], dict[str, int]]

# The solver's default size: the bots' warm table sheds less often than at 16 MiB
# (docs/performance.md, "Double-dummy solver": 6% fewer nodes on their workload).
SOLVER_BYTES = 64 * 1024 * 1024

# One Solver per thread (a Solver serves one thread at a time). Its table stays
# warm across the sampled deals of a decision and the decisions of a board: the
# bounds it keeps describe positions, not deals, and hold until the strain changes.
_LOCAL = threading.local()


def _score(solver: Solver, hands: tuple[tuple[int, ...], ...], strain: str, leader: int,
           trick: tuple[int, ...]) -> dict[str, int]:
    # Straight to the core: the hands are already those after the trick's cards,
    # so the Deal object, the replay and its checks of solve_position are skipped
    # (they cost a few per cent of the bots' scoring on small end positions).
    if not hands[(leader + len(trick)) % 4]:
        return {}
    _, pairs = solver.scores(rank_masks(hands), parse_strain(strain), leader, trick)
    return {format_face(f): t for f, t in sorted(pairs, key=lambda p: -p[0])}


def solver_scorer(solver: Solver) -> Scorer:
    """A Scorer on ``solver`` (for one thread), e.g. a fresh one for a measurement."""

    def score(hands: tuple[tuple[int, ...], ...], strain: str, leader: int,
              trick: tuple[int, ...]) -> dict[str, int]:
        return _score(solver, hands, strain, leader, trick)

    return score


class DDSScorer:
    """The :mod:`engine.dds` Scorer: one warm Solver per calling thread, and
    :meth:`many` to score several deals at once on a pool of threads."""

    def __init__(self) -> None:
        self._pools: dict[int, SolverPool] = {}
        self._lock = threading.Lock()

    def __call__(self, hands: tuple[tuple[int, ...], ...], strain: str, leader: int,
                 trick: tuple[int, ...]) -> dict[str, int]:
        solver = getattr(_LOCAL, "solver", None)
        if solver is None:
            solver = _LOCAL.solver = Solver(tt_bytes=SOLVER_BYTES)
        return _score(solver, hands, strain, leader, trick)

    def many(self, deals: Sequence[tuple[tuple[int, ...], ...]], strain: str, leader: int,
             trick: tuple[int, ...], threads: int) -> list[dict[str, int]]:
        """Scores of each deal, in order, on ``threads`` threads (one process-wide
        pool per width; its Solvers stay warm between decisions)."""
        if threads <= 1 or len(deals) <= 1:
            return [self(h, strain, leader, trick) for h in deals]
        with self._lock:
            pool = self._pools.get(threads)
            if pool is None:
                pool = self._pools[threads] = SolverPool(threads, SOLVER_BYTES)
        return pool.map(lambda solver, h: _score(solver, h, strain, leader, trick), deals)


dds_scorer = DDSScorer()


def score_deals(scorer: Scorer, deals: Sequence[tuple[tuple[int, ...], ...]], strain: str,
                leader: int, trick: tuple[int, ...], threads: int = 1) -> list[dict[str, int]]:
    """``scorer`` on each deal, on ``threads`` threads when it can (a DDSScorer)."""
    if isinstance(scorer, DDSScorer):
        return scorer.many(deals, strain, leader, trick, threads)
    return [scorer(h, strain, leader, trick) for h in deals]


@dataclass(frozen=True)
class PlayOptions:
    """``samples`` deals per decision (``max_samples`` where the choice is close);
    ``budget_share`` of the decision's time budget may be spent (sampling stops when
    it is used up, after one solved batch); ``threads`` deals are scored at once on a
    pool of threads (the GIL is released while they search)."""

    samples: int = 20
    budget_share: float = 0.8
    max_attempts: int = 4000
    threads: int = 1  # deals scored at once (engine.dds scorer), between budget checks
    # Where the best two cards are within ``close`` tricks on average after
    # ``samples`` deals, more deals are solved, up to ``max_samples``: more
    # samples where the choice matters.
    max_samples: int = 48
    close: float = 0.35
    # Where at most this many layouts of the hidden cards are possible, every one
    # is scored (in random order, with the same stopping rules) instead of a
    # sample drawn with repeats; the cap on deals is then their number.
    exhaustive: int = 256
    # The declaring side assumes sound defence: a sampled deal in which a
    # defender's card already in this trick gives a trick away double dummy
    # counts this much (1.0: every deal counts the same).  Not 0: people do.
    # Measured on 600 bench boards: docs/bridge_bidding.md.
    unsound_weight: float = 0.2


@dataclass(frozen=True)
class Position:
    """A play-phase view read into cards: who moves and what is known."""

    strain: str
    declarer: int
    mover: int  # the seat whose card it is (the dummy when declarer plays from it)
    known: tuple[tuple[int, ...] | None, ...]
    sizes: tuple[int, ...]
    pool: tuple[int, ...]
    trick: tuple[int, ...]
    trick_leader: int
    spec: SampleSpec


def _cards(texts: Sequence[str]) -> tuple[int, ...]:
    return tuple(parse_face(t) for t in texts)


def read_position(view: JSON, seat: int) -> Position:
    """What ``seat`` knows in the play phase, ready for sampling."""
    strain = str(view["contract"])[1]  # "3NT", "4SX": the letter after the level
    declarer = int(view["declarer"])
    dummy = (declarer + 2) % 4
    mover = int(view["next_player"])
    known: list[tuple[int, ...] | None] = [None, None, None, None]
    known[seat] = _cards(view.get("hand", []))
    if view.get("dummy_hand") is not None and seat != dummy:
        known[dummy] = _cards(view["dummy_hand"])
    claim = view.get("claim")
    if claim and claim.get("hand") is not None and claim["seat"] != seat:
        known[int(claim["seat"])] = _cards(claim["hand"])  # faced by the claimer
    sizes = tuple(int(n) for n in view["hand_sizes"])
    calls = [(int(c["seat"]), parse_call(c["call"])) for c in view.get("auction", [])]
    inferred = infer(calls)
    played = _cards(view["played"])
    hist = replay_play(played, (declarer + 1) % 4, strain)
    voids, played_by = hist.voids, hist.played_by
    trick, leader = hist.trick, hist.trick_leader
    constraints: tuple[Constraints, ...] = inferred
    gone = set(played)
    seen = gone | {f for h in known if h is not None for f in h}
    pool = tuple(f for f in range(52) if f not in seen)
    spec = SampleSpec(tuple(known), sizes, pool, voids, played_by, constraints,
                      calls_by_seat(calls))
    return Position(strain, declarer, mover, tuple(known), sizes, pool, trick, leader, spec)


def _fits(spec: SampleSpec) -> bool:
    return sum(spec.sizes[s] for s in spec.hidden) <= len(spec.pool)


@dataclass(frozen=True)
class CardChoice:
    card: str
    averages: dict[str, float]
    samples: int
    relaxation: list[int]


def choose_card(
    view: JSON,
    legal_cards: Sequence[str],
    seat: int,
    seed: int,
    budget: float,
    options: PlayOptions = PlayOptions(),
    scorer: Scorer = dds_scorer,
) -> CardChoice:
    """The legal card with the best double-dummy average over sampled deals (for the
    declaring side a deal counts less where a defender's card in this trick gave a
    trick away: :func:`_soundness`); among cards within a hair of it, the one that
    is best in the most deals, then the lowest (see :func:`_pick`)."""
    start = time.monotonic()
    if len(legal_cards) == 1:
        return CardChoice(legal_cards[0], {legal_cards[0]: 0.0}, 0, [])
    pos = read_position(view, seat)
    spec = pos.spec
    wanted = max(options.samples, options.max_samples)
    rng = Rng(seed)
    if not _fits(spec):
        samples = Samples([], [], 0)
    else:
        samples = every_deal(spec, options.exhaustive, rng) or sample_deals(
            spec, wanted, rng, options.max_attempts
        )
    totals = {c: 0.0 for c in legal_cards}
    wins = {c: 0.0 for c in legal_cards}
    solved, weight = 0, 0.0
    width = max(1, options.threads)
    for k in range(0, len(samples.deals), width):
        if solved and time.monotonic() - start > budget * options.budget_share:
            break
        if solved >= options.samples and not _close(totals, weight, options.close):
            break
        batch = samples.deals[k:k + width]
        for hands, scores in zip(batch, score_deals(scorer, batch, pos.strain,
                                                    pos.trick_leader, pos.trick, width),
                                 strict=True):
            w = _soundness(pos, hands, scorer, options.unsound_weight)
            top = max((scores.get(c, 0) for c in legal_cards), default=0)
            for c in legal_cards:
                totals[c] += w * scores.get(c, 0)
                wins[c] += w * (scores.get(c, 0) == top)
            solved += 1
            weight += w
    averages = {c: (t / weight if weight else 0.0) for c, t in totals.items()}
    best = _pick(legal_cards, averages, wins)
    return CardChoice(best, averages, solved, samples.relaxation[:solved])


def _soundness(pos: Position, hands: tuple[tuple[int, ...], ...], scorer: Scorer,
               unsound: float) -> float:
    """How much a sampled deal counts for the declaring side: ``unsound`` when a
    defender's card already in this trick gives a trick away double dummy in it
    (defenders who see their own cards rarely do), else 1."""
    if unsound == 1.0 or pos.mover % 2 != pos.declarer % 2:
        return 1.0
    for i, card in enumerate(pos.trick):
        seat = (pos.trick_leader + i) % 4
        if seat % 2 == pos.declarer % 2:
            continue
        # The deal as it was when the defender chose: the trick's later cards back
        # in their players' hands.
        before = [list(h) for h in hands]
        for j in range(i, len(pos.trick)):
            before[(pos.trick_leader + j) % 4].append(pos.trick[j])
        scores = scorer(tuple(tuple(sorted(h)) for h in before), pos.strain,
                        pos.trick_leader, pos.trick[:i])
        if scores and scores.get(format_face(card), 0) < max(scores.values()):
            return unsound
    return 1.0


def _side_tricks(
    pos: Position, hands: tuple[tuple[int, ...], ...], seat: int, scorer: Scorer
) -> int:
    """Double-dummy tricks ``seat``'s side takes from here in one full layout."""
    scores = scorer(hands, pos.strain, pos.trick_leader, pos.trick)
    best = max(scores.values(), default=0)
    remaining = len(hands[pos.trick_leader]) + (1 if pos.trick else 0)
    return best if pos.mover % 2 == seat % 2 else remaining - best


def layouts(pos: Position, limit: int) -> list[tuple[tuple[int, ...], ...]] | None:
    """Every layout of the unseen cards the play so far allows (voids respected),
    or None when there are more than ``limit`` to try or more than two hidden hands."""
    spec = pos.spec
    hidden = spec.hidden
    if not hidden:
        return [tuple(h or () for h in spec.known)]
    if len(hidden) == 1:
        (a,) = hidden
        if spec.sizes[a] != len(spec.pool):
            return None
        return [tuple(spec.pool if s == a else spec.known[s] or () for s in range(4))]
    return splits(spec, limit)


def certain_claim(view: JSON, seat: int, scorer: Scorer = dds_scorer,
                  limit: int = 70) -> int | None:
    """The tricks ``seat``'s side takes from here when every layout of the unseen
    cards gives the same double-dummy count (then a claim of them cannot fail and
    concedes nothing); None when the count is not certain or too costly to know."""
    pos = read_position(view, seat)
    found = layouts(pos, limit)
    if not found:
        return None
    counts = {_side_tricks(pos, hands, seat, scorer) for hands in found}
    return counts.pop() if len(counts) == 1 else None


def _close(totals: dict[str, float], weight: float, margin: float) -> bool:
    """Whether the best two cards' averages are within ``margin`` tricks."""
    top = sorted(totals.values(), reverse=True)[:2]
    return len(top) == 2 and (top[0] - top[1]) / weight < margin


# Cards whose averages differ by less than this are equal: sampling noise.
_EQUAL = 0.05


def _pick(cards: Sequence[str], averages: dict[str, float], wins: dict[str, float]) -> str:
    """The best average; among the cards level with it, the one best in the most
    deals (it wins where the others need a lucky lie), then the lowest card (the
    high ones are kept for later: they keep more options)."""
    top = max(averages.values())
    level = [c for c in cards if averages[c] >= top - _EQUAL]
    return max(level, key=lambda c: (wins[c], averages[c], -rank_of(parse_face(c)),
                                     -suit_of(parse_face(c))))


def claim_answer(
    view: JSON,
    seat: int,
    seed: int,
    budget: float,
    options: PlayOptions = PlayOptions(),
    scorer: Scorer = dds_scorer,
) -> bool:
    """Answer a claim.  The claimer's cards are faced, so the answering seat usually
    knows every hand and the answer is exact: an opponent accepts when the claimer's
    side takes at least the tricks claimed against best play, a partner (of a
    defender conceding tricks) when the side takes no more than claimed.  Otherwise
    the same test must hold in every sampled deal."""
    start = time.monotonic()
    pos = read_position(view, seat)
    claim = view.get("claim") or {}
    claimed = int(claim.get("tricks", 0))
    claimer = int(claim.get("seat", pos.declarer))
    partner = seat % 2 == claimer % 2
    deals = layouts(pos, 1)
    if deals is None:
        deals = sample_deals(pos.spec, max(4, options.samples // 2), Rng(seed),
                             options.max_attempts).deals
    for i, hands in enumerate(deals):
        if i and time.monotonic() - start > budget * options.budget_share:
            break
        tricks = _side_tricks(pos, hands, claimer, scorer)
        if (tricks > claimed) if partner else (tricks < claimed):
            return False
    return bool(deals)
