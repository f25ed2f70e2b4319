/* Zero-window alpha-beta double-dummy search (see solver.h and docs/dds.md). */
#include "solver.h"

#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "masks.h"
#include "order.h"

struct Solver {
    TT tt;
    WRT wr;
    Position pos;  /* the position being searched, changed in place */
    int tl;        /* tricks left, the current one included */
    uint64_t dist; /* lengths(&pos), kept up to date by the moves */
    /* The deal the table's keys are relative to: cards held per suit and
     * seat at the root, and the seat holding each card (4 = nobody). */
    uint16_t root_hold[4][4];
    uint8_t holder[4][13];
    int root_trump;
    int exact; /* bounds in the exact 8-byte table instead of the winning-ranks one */
    /* Canonical relative-rank representative of each suit mask, 0xFFFF when
     * not yet computed (filled lazily, valid for root_hold). */
    uint16_t canon[4][8192];
    /* The bounds live in the winning-ranks table `wr`. The 8-byte Robin Hood
     * table `tt` keeps, per exact (relative-rank) position on lead, the best
     * lead found (suit << 4 | cards of the suit above the lead, so that
     * equivalent positions share it), for move ordering. */
    /* Bit compaction by halves, for the holders of the cards in play:
     * comp_lo[live & 127][v & 127] and comp_hi[live >> 7][v >> 7] pack the
     * bits of v that are in live; spread7 moves 7 bits to even positions. */
    uint8_t comp_lo[128][128], comp_hi[64][64];
    uint16_t spread7[128];
    SearchStats st;
    TTStats tt_view; /* both tables' counters, for solver_tt_stats */
};

Solver *solver_new(size_t tt_bytes, int use_bloom, int exact) {
    Solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    /* The bytes go to the table that holds the bounds; the exact table is
     * not allocated when unused, the winning-ranks one kept at its smallest. */
    size_t exact_bytes = exact ? tt_bytes : 0, ranks_bytes = exact ? 4096 : tt_bytes;
    if (tt_init(&s->tt, exact_bytes, use_bloom) != 0) {
        free(s);
        return NULL;
    }
    if (wr_init(&s->wr, ranks_bytes) != 0) {
        tt_free(&s->tt);
        free(s);
        return NULL;
    }
    s->exact = exact;
    s->root_trump = -1;
    for (unsigned m = 0; m < 128; m++)
        for (unsigned v = 0; v < 128; v++) {
            unsigned c = 0;
            int j = 0;
            for (int b = 0; b < 7; b++)
                if (m >> b & 1) c |= (v >> b & 1) << j++;
            s->comp_lo[m][v] = (uint8_t)c;
            if (m < 64 && v < 64) s->comp_hi[m][v] = (uint8_t)c;
        }
    for (unsigned v = 0; v < 128; v++) {
        unsigned x = 0;
        for (int b = 0; b < 7; b++) x |= (v >> b & 1) << (2 * b);
        s->spread7[v] = (uint16_t)x;
    }
    return s;
}

void solver_free(Solver *s) {
    if (!s) return;
    tt_free(&s->tt);
    wr_free(&s->wr);
    free(s);
}

void solver_reset(Solver *s) {
    tt_clear(&s->tt);
    wr_clear(&s->wr);
    s->root_trump = -1;
    memset(s->root_hold, 0, sizeof s->root_hold);
}

const TTStats *solver_tt_stats(const Solver *s) {
    /* The counters of both tables: the exact one and the winning-ranks one. */
    Solver *m = (Solver *)s;
    m->tt_view = s->tt.stats;
    m->tt_view.probes += s->wr.stats.probes;
    m->tt_view.hits += s->wr.stats.hits;
    m->tt_view.cutoffs += s->wr.stats.cutoffs;
    m->tt_view.stores += s->wr.stats.stores;
    m->tt_view.updates += s->wr.stats.updates;
    m->tt_view.evictions += s->wr.stats.evictions;
    m->tt_view.drops += s->wr.stats.resets;
    return &m->tt_view;
}
const SearchStats *solver_stats(const Solver *s) { return &s->st; }
size_t solver_tt_bytes(const Solver *s) { return tt_bytes(&s->tt) + wr_bytes(&s->wr); }

/* ---- position checks ---------------------------------------------------- */

const char *position_check(const Position *p) {
    if (p->trump < 0 || p->trump > DDS_NT) return "strain out of range";
    if (p->leader < 0 || p->leader > 3) return "leader out of range";
    if (p->ply < 0 || p->ply > 3) return "the current trick holds 0 to 3 cards";
    uint16_t seen[4] = {0, 0, 0, 0};
    for (int h = 0; h < 4; h++)
        for (int s = 0; s < 4; s++) {
            if (p->hand[h][s] & ~0x1FFF) return "rank bits above the ace";
            if (seen[s] & p->hand[h][s]) return "a card is in two hands";
            seen[s] |= p->hand[h][s];
        }
    for (int i = 0; i < p->ply; i++) {
        int s = p->tsuit[i], r = p->trank[i];
        if (s < 0 || s > 3 || r < 0 || r > 12) return "trick card out of range";
        if (seen[s] & (1u << r)) return "a trick card is also in a hand or twice in the trick";
        seen[s] |= (uint16_t)(1u << r);
    }
    int counts[4];
    for (int h = 0; h < 4; h++)
        counts[h] = popc(p->hand[h][0]) + popc(p->hand[h][1]) + popc(p->hand[h][2]) +
                    popc(p->hand[h][3]);
    int n = counts[(p->leader + p->ply) & 3];
    for (int i = 0; i < 4; i++) {
        int seat = (p->leader + i) & 3;
        int want = i < p->ply ? n - 1 : n;
        if (counts[seat] != want) return "hands do not hold matching numbers of cards";
    }
    if (n > 13 || (p->ply > 0 && n < 1)) return "too many cards";
    for (int i = 1; i < p->ply; i++) {
        int seat = (p->leader + i) & 3;
        if (p->tsuit[i] != p->tsuit[0] && p->hand[seat][p->tsuit[0]])
            return "a trick card does not follow suit though its player can";
    }
    return NULL;
}

/* Lengths of every suit in every hand, 4 bits each at seat * 16 + suit * 4:
 * with the holders below, what the winning-ranks table matches. */
static inline uint64_t lengths(const Position *P) {
    uint64_t d = 0;
    for (int s = 0; s < 4; s++)
        d |= (uint64_t)popc(P->hand[0][s]) << (s * 4) | (uint64_t)popc(P->hand[1][s]) << (16 + s * 4) |
             (uint64_t)popc(P->hand[2][s]) << (32 + s * 4) | (uint64_t)popc(P->hand[3][s]) << (48 + s * 4);
    return d;
}

/* ---- the root context --------------------------------------------------- */

/* Exact keys are relative to the cards held at the root: a new deal or
 * strain starts a fresh exact table, the same deal and strain (another
 * leader, a later position of the same play) keeps it. The winning-ranks
 * table is kept until the strain changes. */
static void set_root(Solver *S, const Position *p) {
    uint16_t hold[4][4];
    for (int s = 0; s < 4; s++)
        for (int h = 0; h < 4; h++) hold[s][h] = p->hand[h][s];
    for (int i = 0; i < p->ply; i++)
        hold[p->tsuit[i]][(p->leader + i) & 3] |= (uint16_t)(1u << p->trank[i]);
    int same = S->root_trump == p->trump;
    /* A later position of the same deal holds a subset of the root cards,
     * each with the same holder; the old keys stay meaningful then. */
    for (int s = 0; s < 4 && same; s++)
        for (int h = 0; h < 4; h++) {
            if (hold[s][h] & ~S->root_hold[s][h]) same = 0;
        }
    if (!same) {
        /* Winning-ranks classes name only lengths and relative holders, never
         * the deal, so that table stays valid for any deal in the same strain
         * (the bots' sampled deals share most of their play); exact keys are
         * relative to the root deal and go. */
        if (S->exact || S->root_trump != p->trump) wr_clear(&S->wr);
        tt_clear(&S->tt);
        memcpy(S->root_hold, hold, sizeof hold);
        S->root_trump = p->trump;
        memset(S->canon, 0xFF, sizeof S->canon);
        S->canon[0][0] = S->canon[1][0] = S->canon[2][0] = S->canon[3][0] = 0;
        for (int s = 0; s < 4; s++)
            for (int r = 0; r < 13; r++) {
                S->holder[s][r] = 4;
                for (int h = 0; h < 4; h++)
                    if (hold[s][h] >> r & 1) S->holder[s][r] = (uint8_t)h;
            }
    }
    S->pos = *p;
    for (int s = 0; s < 4; s++)
        S->pos.held[s] = S->pos.live[s] = p->hand[0][s] | p->hand[1][s] | p->hand[2][s] | p->hand[3][s];
    for (int i = 0; i < p->ply; i++) S->pos.live[p->tsuit[i]] |= (uint16_t)(1u << p->trank[i]);
    S->dist = lengths(&S->pos);
    S->tl = popc(p->hand[(p->leader + p->ply) & 3][0]) + popc(p->hand[(p->leader + p->ply) & 3][1]) +
            popc(p->hand[(p->leader + p->ply) & 3][2]) + popc(p->hand[(p->leader + p->ply) & 3][3]);
    /* No search from here reaches a position with more tricks left: a shed
     * of the table may drop those. */
    S->wr.max_tl = S->tl;
}

/* Cards of a suit held by the same seats in the same order are the same
 * position whatever their ranks: map the mask to the highest-ranked set of
 * root cards with that holder sequence (greedy matching from the ace down). */
static uint16_t canon_compute(Solver *S, int s, unsigned m) {
    unsigned res = 0;
    int prev = 13;
    while (m) {
        int r = hibit(m);
        m &= ~(1u << r);
        unsigned avail = S->root_hold[s][S->holder[s][r]] & ((1u << prev) - 1);
        int r2 = hibit(avail);
        res |= 1u << r2;
        prev = r2;
    }
    return (uint16_t)res;
}

static inline uint64_t make_key(Solver *S) {
    const Position *P = &S->pos;
    uint64_t key = (uint64_t)P->leader << 52;
    for (int s = 0; s < 4; s++) {
        unsigned m = held(P, s);
        uint16_t c = S->canon[s][m];
        if (c == 0xFFFF) c = S->canon[s][m] = canon_compute(S, s, m);
        key |= (uint64_t)c << (13 * s);
    }
    return key;
}

/* ---- the search --------------------------------------------------------- */

static int ab(Solver *S, int need, uint16_t win[4]);

/* Card (s, r) of `seat` goes to the table as the trick's next card, and
 * back: the hand, the held cards and the lengths word change together. */
static inline void lay_card(Solver *S, int seat, int s, int r) {
    Position *P = &S->pos;
    P->hand[seat][s] &= (uint16_t)~(1u << r);
    P->held[s] &= (uint16_t)~(1u << r);
    S->dist -= UINT64_C(1) << (seat * 16 + s * 4);
    P->tsuit[P->ply] = s;
    P->trank[P->ply] = r;
}

static inline void take_back(Solver *S, int seat, int s, int r) {
    Position *P = &S->pos;
    P->hand[seat][s] |= (uint16_t)(1u << r);
    P->held[s] |= (uint16_t)(1u << r);
    S->dist += UINT64_C(1) << (seat * 16 + s * 4);
}

/* What a completed trick's search changes. The next tricks reuse the trick
 * slots: this trick's cards are kept for the siblings still to be tried. */
typedef struct {
    int leader, ts[4], tr[4];
    uint16_t live[4];
} TrickSave;

/* The trick's fourth card is down: its winner leads the next trick. Returns
 * the index of the winning card in the trick. */
static inline int close_trick(Solver *S, TrickSave *k) {
    Position *P = &S->pos;
    int w = trick_winner(P, 4);
    k->leader = P->leader;
    memcpy(k->ts, P->tsuit, sizeof k->ts);
    memcpy(k->tr, P->trank, sizeof k->tr);
    memcpy(k->live, P->live, sizeof k->live);
    memcpy(P->live, P->held, sizeof k->live);
    P->leader = (P->leader + w) & 3;
    P->ply = 0;
    S->tl--;
    return w;
}

/* Undoes close_trick: the trick stands with its first three cards. */
static inline void reopen_trick(Solver *S, const TrickSave *k) {
    Position *P = &S->pos;
    S->tl++;
    P->leader = k->leader;
    P->ply = 3;
    memcpy(P->live, k->live, sizeof k->live);
    for (int i = 0; i < 3; i++) {
        P->tsuit[i] = k->ts[i];
        P->trank[i] = k->tr[i];
    }
}

/* Plays card (s, r) for the mover, searches, and takes it back. `need` is the
 * count of North-South tricks wanted from the position before the card; `win`
 * gets the winning ranks of the answer. */
static int play_and_search(Solver *S, int s, int r, int need, uint16_t win[4]) {
    Position *P = &S->pos;
    int seat = (P->leader + P->ply) & 3;
    int ply = P->ply;
    int res;
    lay_card(S, seat, s, r);
    if (ply < 3) {
        P->ply = ply + 1;
        res = ab(S, need, win);
        P->ply = ply;
    } else {
        TrickSave k;
        int w = close_trick(S, &k);
        res = ab(S, need - !(P->leader & 1), win);
        reopen_trick(S, &k);
        /* The winner's rank matters when it beat another card of its suit. */
        for (int i = 0; i < 4; i++)
            if (i != w && k.ts[i] == k.ts[w]) {
                win[k.ts[w]] |= (uint16_t)(1u << k.tr[w]);
                break;
            }
    }
    take_back(S, seat, s, r);
    return res;
}

/* The bits of v (a subset of live) packed in live's order, lowest first. */
static inline unsigned compact(const Solver *S, unsigned v, unsigned live) {
    return S->comp_lo[live & 127][v & 127] |
           (unsigned)S->comp_hi[live >> 7][v >> 7] << popc(live & 127);
}

/* Each suit's holders (2 bits a card, top-aligned as tt.h says): with the
 * lengths, what the winning-ranks table matches. */
static inline void describe(const Solver *S, const unsigned live[4], uint32_t order[4]) {
    const Position *P = &S->pos;
    for (int s = 0; s < 4; s++) {
        unsigned h1 = P->hand[1][s], h2 = P->hand[2][s], h3 = P->hand[3][s];
        unsigned odd = compact(S, h1 | h3, live[s]), high = compact(S, h2 | h3, live[s]);
        uint32_t o = (uint32_t)(S->spread7[odd & 127] | S->spread7[odd >> 7] << 14) |
                     (uint32_t)(S->spread7[high & 127] | S->spread7[high >> 7] << 14) << 1;
        order[s] = o << (2 * (13 - popc(live[s])));
    }
}

/* Can North-South take at least `need` of the tricks left (current one
 * included)? `win` gets the winning ranks: the cards whose holders the answer
 * depends on (with the suit lengths of every hand); every position with the
 * same lengths and the same holders of the cards down to the lowest winning
 * rank of each suit has the same answer. */
static int ab(Solver *S, int need, uint16_t win[4]) {
    Position *P = &S->pos;
    if (need <= 0 || need > S->tl) {
        win[0] = win[1] = win[2] = win[3] = 0;
        return need <= 0;
    }
    S->st.nodes++;
    uint64_t key = 0, dist = 0;
    uint32_t order[4];
    unsigned live[4];
    if (P->ply == 0) {
        if (S->tl == 1) return last_trick_ns(P, win) >= need;
        for (int s = 0; s < 4; s++)
            live[s] = held(P, s);
        if (!S->exact) {
            /* The table's slot loads while the quick counts run. */
            dist = S->dist;
            wr_prefetch(&S->wr, dist, P->leader);
        }
        /* The quick counts first: cheaper than a table probe. */
        int ns_leads = !(P->leader & 1);
        int q = quick_tricks(P, P->leader, ns_leads ? need : S->tl - need + 1, win);
        if (ns_leads ? q >= need : S->tl - q < need) {
            S->st.quick_cuts++;
            return ns_leads;
        }
        int lt = later_tricks(P, S->tl, need, live, win);
        if (lt >= 0) {
            S->st.later_cuts++;
            return lt;
        }
        if (S->exact) {
            int lo, hi;
            key = make_key(S);
            if (tt_probe(&S->tt, key, &lo, &hi) && (lo >= need || hi < need)) {
                /* An exact entry says nothing about which cards mattered. */
                for (int s = 0; s < 4; s++) win[s] = (uint16_t)live[s];
                return lo >= need;
            }
        } else {
            describe(S, live, order);
            uint8_t k[4];
            int v = wr_probe(&S->wr, dist, P->leader, order, need, k);
            if (v >= 0) {
                for (int s = 0; s < 4; s++) win[s] = (uint16_t)top_cards(live[s], k[s]);
                return v;
            }
        }
    }
    if (P->ply == 1) {
        /* Second-hand quick tricks for the side to move (the third- and
         * fourth-hand rules cost more time than their cutoffs saved:
         * docs/performance.md, "Double-dummy solver"). */
        int ns_moves = !((P->leader + P->ply) & 1);
        int goal = ns_moves ? need : S->tl - need + 1;
        int q = second_hand_tricks(P, goal, win);
        if (q && (ns_moves ? q >= need : S->tl - q < need)) {
            S->st.quick_cuts++;
            return ns_moves;
        }
    }
    int seat = (P->leader + P->ply) & 3;
    int maxnode = !(seat & 1);
    Move mv[13];
    int n = gen_moves(&S->pos, S->tl, seat, mv);
    int res = !maxnode;
    uint16_t acc[4] = {0, 0, 0, 0}, cw[4];
    /* thr[s]: a card of suit s below it needs no search. A failed card c' of
     * the suit whose answer did not depend on any rank down to c' makes every
     * other card of the suit below the lowest winning rank equivalent to it
     * (DDS's rule): the children differ only in cards nobody's rank counts. */
    int thr[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        if (mv[i].r < thr[mv[i].s]) continue;
        int r = play_and_search(S, mv[i].s, mv[i].r, need, cw);
        if (r == maxnode) {
            res = r;
            if (i == 0) S->st.cut_first++;
            else S->st.cut_later++;
            memcpy(acc, cw, sizeof acc);
            break;
        }
        for (int s = 0; s < 4; s++) acc[s] |= cw[s];
        int low = cw[mv[i].s] ? __builtin_ctz(cw[mv[i].s]) : 13;
        if (mv[i].r < low && low > thr[mv[i].s]) thr[mv[i].s] = low;
    }
    if (res != maxnode) {
        S->st.all_moves++;
        /* Every move failed, but only the top card of each run of equivalent
         * cards was tried: where that card's holder is fixed by the winning
         * ranks, the run must stay one run in every position of the class,
         * so its bottom card becomes relevant too. A class keeps the holders
         * of every card down to the lowest winning rank, so only that rank
         * counts: the lowest run headed at or above it moves it to the run's
         * bottom card (a run lower down is not fixed, one higher up ends
         * above that bottom). */
        unsigned lv[4];
        in_play(P, lv);
        for (int s = 0; s < 4; s++) {
            unsigned hm = P->hand[seat][s];
            if (!hm || !acc[s]) continue;
            if (P->ply > 0 && s != P->tsuit[0] && P->hand[seat][P->tsuit[0]]) continue;
            unsigned heads = run_tops(hm, lv[s]) & ~((1u << __builtin_ctz(acc[s])) - 1);
            if (!heads) continue;
            int r = __builtin_ctz(heads);
            unsigned other = lv[s] & ~hm & ((1u << r) - 1);
            unsigned run = hm & ((2u << r) - 1) & ~(other ? (2u << hibit(other)) - 1 : 0);
            acc[s] |= (uint16_t)(run & -run);
        }
    }
    memcpy(win, acc, sizeof acc);
    S->st.by_ply[P->ply]++;
    if (P->ply == 0) {
        int lo = res ? need : 0, hi = res ? S->tl : need - 1;
        if (S->exact) {
            tt_store(&S->tt, key, lo, hi);
        } else {
            uint8_t k[4];
            for (int s = 0; s < 4; s++)
                k[s] = win[s] ? (uint8_t)popc(live[s] >> __builtin_ctz(win[s])) : 0;
            wr_store(&S->wr, dist, P->leader, order, k, lo, hi);
        }
    }
    return res;
}

/* North-South tricks from the current position, found by zero-window
 * searches walking from `guess`. */
static int exact(Solver *S, int guess) {
    int lo = 0, hi = S->tl;
    while (lo < hi) {
        int t = guess;
        if (t <= lo) t = lo + 1;
        if (t > hi) t = hi;
        S->st.searches++;
        uint16_t w[4];
        if (ab(S, t, w)) {
            lo = t;
            guess = t + 1;
        } else {
            hi = t - 1;
            guess = t - 1;
        }
    }
    return lo;
}

/* A first guess of North-South's tricks from high cards and trump length. */
static int estimate(const Position *P, int tl) {
    static const int hcp[13] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4};
    int pts[2] = {1, 1};
    for (int h = 0; h < 4; h++)
        for (int s = 0; s < 4; s++) {
            unsigned m = P->hand[h][s];
            while (m) {
                int r = hibit(m);
                m &= ~(1u << r);
                pts[h & 1] += 2 * hcp[r] + (s == P->trump ? 3 : 0);
            }
        }
    return (tl * pts[0] + (pts[0] + pts[1]) / 2) / (pts[0] + pts[1]);
}

int solver_solve(Solver *S, const Position *p) {
    set_root(S, p);
    int mover = (p->leader + p->ply) & 3;
    int ns = exact(S, estimate(p, S->tl));
    return (mover & 1) ? S->tl - ns : ns;
}

int solver_best(Solver *S, const Position *p, int *card) {
    set_root(S, p);
    Position *P = &S->pos;
    int mover = (p->leader + p->ply) & 3;
    int ns = exact(S, estimate(p, S->tl));
    /* The first card, in search order, that keeps North-South at ns (at
     * least ns for them, at most ns for East-West): with the table just
     * filled the first move tried almost always proves it. */
    int maxnode = !(mover & 1);
    Move mv[13];
    int n = gen_moves(P, S->tl, mover, mv);
    *card = mv[0].s * 13 + mv[0].r;
    for (int i = 0; i < n; i++) {
        uint16_t w[4];
        if (play_and_search(S, mv[i].s, mv[i].r, maxnode ? ns : ns + 1, w) == maxnode) {
            *card = mv[i].s * 13 + mv[i].r;
            break;
        }
    }
    return (mover & 1) ? S->tl - ns : ns;
}

int solver_scores(Solver *S, const Position *p, int *best, int out_cards[13],
                  int out_scores[13]) {
    set_root(S, p);
    Position *P = &S->pos;
    int mover = (p->leader + p->ply) & 3;
    int ply = P->ply;
    unsigned live[4];
    in_play(P, live);
    Move mv[13];
    int n = gen_moves(&S->pos, S->tl, mover, mv);
    int count = 0, bestv = -1;
    int guess = estimate(p, S->tl);
    for (int i = 0; i < n; i++) {
        int s = mv[i].s, r = mv[i].r;
        /* The child's value, as North-South tricks from the parent. */
        lay_card(S, mover, s, r);
        int ns;
        if (ply < 3) {
            P->ply = ply + 1;
            ns = exact(S, guess);
            P->ply = ply;
        } else {
            TrickSave k;
            close_trick(S, &k);
            int won = !(P->leader & 1);
            ns = won + exact(S, guess - won);
            reopen_trick(S, &k);
        }
        take_back(S, mover, s, r);
        guess = ns;
        int v = (mover & 1) ? S->tl - ns : ns;
        if (v > bestv) bestv = v;
        /* Every card equivalent to the representative scores the same. */
        unsigned hm = P->hand[mover][s];
        int c = r;
        for (;;) {
            out_cards[count] = s * 13 + c;
            out_scores[count] = v;
            count++;
            unsigned below = live[s] & ((1u << c) - 1);
            if (!below) break;
            int nxt = hibit(below);
            if (!(hm >> nxt & 1)) break;
            c = nxt;
        }
    }
    *best = bestv;
    return count;
}

void solver_table(Solver *S, const Position *p, int out[20]) {
    Position q = *p;
    q.ply = 0;
    for (int strain = 0; strain < 5; strain++) {
        q.trump = strain;
        int guess = -1;
        for (int leader = 0; leader < 4; leader++) {
            q.leader = leader;
            set_root(S, &q);
            int ns = exact(S, guess < 0 ? estimate(&q, S->tl) : guess);
            guess = ns;
            out[strain * 4 + leader] = (leader & 1) ? S->tl - ns : ns;
        }
    }
}
