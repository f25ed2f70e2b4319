/* Zero-window alpha-beta double-dummy search (see solver.h and docs/dds.md). */
#include "solver.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int8_t s, r;
    int16_t score;
} Move;

struct Solver {
    TT tt;
    WRT wr;
    Position pos;  /* the position being searched, changed in place */
    int tl;        /* tricks left, the current one included */
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

static inline int hibit(unsigned m) { return 31 - __builtin_clz(m); }
/* Bit count of a 16-bit mask without a library call (builds without
 * -mpopcnt turn __builtin_popcount into one). */
static inline int popc(unsigned m) {
    m = m - ((m >> 1) & 0x5555u);
    m = (m & 0x3333u) + ((m >> 2) & 0x3333u);
    m = (m + (m >> 4)) & 0x0F0Fu;
    return (int)((m + (m >> 8)) & 0x1Fu);
}

Solver *solver_new(size_t tt_bytes, int use_bloom, int exact) {
    Solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    /* The bytes go to the table that holds the bounds; the other one is
     * kept at its smallest (it is not probed). */
    size_t exact_bytes = exact ? tt_bytes : 1024, ranks_bytes = exact ? 4096 : tt_bytes;
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

/* ---- the root context --------------------------------------------------- */

/* Keys are relative to the cards held at the root; a new deal or strain
 * starts a fresh table, the same deal and strain (another leader, a later
 * position of the same play) keeps it. */
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
        tt_clear(&S->tt);
        wr_clear(&S->wr);
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
    S->tl = popc(p->hand[(p->leader + p->ply) & 3][0]) + popc(p->hand[(p->leader + p->ply) & 3][1]) +
            popc(p->hand[(p->leader + p->ply) & 3][2]) + popc(p->hand[(p->leader + p->ply) & 3][3]);
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
        unsigned m = P->hand[0][s] | P->hand[1][s] | P->hand[2][s] | P->hand[3][s];
        uint16_t c = S->canon[s][m];
        if (c == 0xFFFF) c = S->canon[s][m] = canon_compute(S, s, m);
        key |= (uint64_t)c << (13 * s);
    }
    return key;
}

/* ---- trick mechanics ---------------------------------------------------- */

/* Index (0..n-1, play order) of the card winning the cards on the table. */
static inline int trick_winner(const Position *P, int n) {
    int best = 0;
    for (int i = 1; i < n; i++) {
        int s = P->tsuit[i], bs = P->tsuit[best];
        if (s == bs) {
            if (P->trank[i] > P->trank[best]) best = i;
        } else if (s == P->trump) {
            best = i;
        }
    }
    return best;
}

/* With one card each left: does North-South win the last trick? `win`
 * gets the winning card's rank when it beat another card of its suit. */
static int last_trick_ns(const Position *P, uint16_t win[4]) {
    int ws = -1, wr = -1, wseat = P->leader;
    int cnt[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        int seat = (P->leader + i) & 3;
        int s = 0;
        while (!P->hand[seat][s]) s++;
        int r = hibit(P->hand[seat][s]);
        cnt[s]++;
        if (i == 0 || (s == ws && r > wr) || (s != ws && s == P->trump)) {
            ws = s;
            wr = r;
            wseat = seat;
        }
    }
    win[0] = win[1] = win[2] = win[3] = 0;
    if (cnt[ws] > 1) win[ws] = (uint16_t)(1u << wr);
    return !(wseat & 1);
}

/* The k highest cards of mask m. */
static inline unsigned top_cards(unsigned m, int k) {
    unsigned res = 0;
    while (k-- > 0 && m) {
        int r = hibit(m);
        res |= 1u << r;
        m &= ~(1u << r);
    }
    return res;
}

/* The k-th highest card of mask m (k from 1), or -1. */
static inline int kth_card(unsigned m, int k) {
    while (--k > 0 && m) m &= ~(1u << hibit(m));
    return m ? hibit(m) : -1;
}

/* Consecutive top cards of suit s held by seat p. */
static inline int top_run(const Position *P, int p, int s) {
    unsigned mine = P->hand[p][s];
    unsigned all = mine | P->hand[0][s] | P->hand[1][s] | P->hand[2][s] | P->hand[3][s];
    int k = 0;
    while (all) {
        int t = hibit(all);
        if (!(mine >> t & 1)) break;
        k++;
        all &= ~(1u << t);
    }
    return k;
}

/* Rounds of suit s that seat h cashes from the top while keeping the lead,
 * and in *w the cards that must stay where they are for it. Its top cards
 * win; once nobody else has a card left, so do its small ones. An opponent
 * with a trump ruffs when out of the suit: in a side suit, no more rounds
 * than a trump-holding opponent can follow to. */
static int cash_rounds(const Position *P, int h, int s, unsigned live, int drawn, uint16_t *w) {
    int k = top_run(P, h, s);
    *w = 0;
    if (!k) return 0;
    int tr = P->trump, lho = (h + 1) & 3, rho = (h + 3) & 3, part = (h + 2) & 3;
    int len_l = popc(P->hand[lho][s]), len_r = popc(P->hand[rho][s]);
    if (!drawn && tr != DDS_NT && s != tr && (P->hand[lho][tr] || P->hand[rho][tr])) {
        if (P->hand[lho][tr] && len_l < k) k = len_l;
        if (P->hand[rho][tr] && len_r < k) k = len_r;
        *w = (uint16_t)top_cards(live, k);
        return k;
    }
    *w = (uint16_t)top_cards(live, k);
    int len_p = popc(P->hand[part][s]);
    if (len_l <= k && len_r <= k && len_p <= k) return popc(P->hand[h][s]);
    return k;
}

/* Rounds of suit s that seat h and partner cash when h holds the top card
 * and partner the next one, both with a second card (Ax opposite Kx): two,
 * ending in either hand; all of the longer hand's cards when the opponents
 * have at most two and one of the side's hands at most two (so the long
 * hand keeps the lead). Limits against ruffs as in cash_rounds. */
static int cross_rounds(const Position *P, int h, int s, unsigned live, int drawn, uint16_t *w) {
    int part = (h + 2) & 3, lho = (h + 1) & 3, rho = (h + 3) & 3, tr = P->trump;
    int lh = popc(P->hand[h][s]), lq = popc(P->hand[part][s]);
    *w = 0;
    if (lh < 2 || lq < 2 || !(P->hand[h][s] >> hibit(live) & 1)) return 0;
    if (!(P->hand[part][s] >> kth_card(live, 2) & 1)) return 0;
    int k = 2;
    int len_l = popc(P->hand[lho][s]), len_r = popc(P->hand[rho][s]);
    if (!drawn && tr != DDS_NT && s != tr && (P->hand[lho][tr] || P->hand[rho][tr])) {
        if (P->hand[lho][tr] && len_l < k) k = len_l;
        if (P->hand[rho][tr] && len_r < k) k = len_r;
    } else if (len_l <= 2 && len_r <= 2 && (lh <= 2 || lq <= 2)) {
        k = lh > lq ? lh : lq;
    }
    *w = (uint16_t)top_cards(live, k < 2 ? k : 2);
    return k;
}

/* One trick for the leader's side by a ruff in partner's hand: the leader
 * leads a side suit partner is out of, and partner's ruff stands (an
 * opponent who is out of the suit too has only lower trumps). `win` gets
 * partner's top trump when it has to beat such an opponent. */
static int partner_ruffs(const Position *P, int p, uint16_t win[4]) {
    int tr = P->trump, part = (p + 2) & 3, lho = (p + 1) & 3, rho = (p + 3) & 3;
    if (tr == DDS_NT || !P->hand[part][tr]) return 0;
    int top = hibit(P->hand[part][tr]);
    for (int s = 0; s < 4; s++) {
        if (s == tr || !P->hand[p][s] || P->hand[part][s]) continue;
        unsigned over = 0; /* trumps of opponents who can ruff too */
        if (!P->hand[lho][s]) over |= P->hand[lho][tr];
        if (!P->hand[rho][s]) over |= P->hand[rho][tr];
        if (over && hibit(over) > top) continue;
        win[0] = win[1] = win[2] = win[3] = 0;
        if (over) win[tr] = (uint16_t)(1u << top);
        return 1;
    }
    return 0;
}

/* Picks items (item i: n[i] tricks in suit i % 4 depending on the cards
 * w[i]), those already in `taken` first, then those fixing the fewest cards,
 * until they reach `goal`, so that the answer holds for the widest class.
 * Returns the count taken; `win` gets the cards. */
static int pick_items(const int *n, const uint16_t *w, int items, unsigned taken, int goal,
                      uint16_t win[4]) {
    int got = 0;
    win[0] = win[1] = win[2] = win[3] = 0;
    for (int i = 0; i < items; i++)
        if (taken >> i & 1) {
            got += n[i];
            win[i & 3] |= w[i];
        }
    while (got < goal) {
        int b = -1;
        for (int i = 0; i < items; i++) {
            if ((taken >> i & 1) || !n[i]) continue;
            if (b < 0 || popc(w[i]) < popc(w[b]) || (popc(w[i]) == popc(w[b]) && n[i] > n[b]))
                b = i;
        }
        if (b < 0) break;
        taken |= 1u << b;
        /* The last item may need only its top few cards. */
        int r = goal - got;
        if (r < n[b] && r <= popc(w[b])) {
            got += r;
            win[b & 3] |= (uint16_t)top_cards(w[b], r);
        } else {
            got += n[b];
            win[b & 3] |= w[b];
        }
    }
    return got;
}

static int pick_suits(const int n[4], const uint16_t w[4], int goal, uint16_t win[4]) {
    return pick_items(n, w, 4, 0, goal, win);
}

/* The leader's and partner's cashes (see quick_tricks) up to `goal`;
 * `drawn`: the opponents' trumps are gone first, by the leader's top trumps
 * (an item then always taken). */
static int count_cashes(const Position *P, int p, int goal, int drawn, uint16_t win[4]) {
    int tr = P->trump, part = (p + 2) & 3;
    unsigned forced = drawn ? 1u << tr : 0;
    /* Items 0-3: the leader's suits; 4-7: partner's. */
    uint16_t w[8];
    int n[8], own = 0, other = 0;
    for (int s = 0; s < 4; s++) {
        unsigned live = P->hand[0][s] | P->hand[1][s] | P->hand[2][s] | P->hand[3][s];
        n[s] = cash_rounds(P, p, s, live, drawn, &w[s]);
        uint16_t wx;
        int x = cross_rounds(P, p, s, live, drawn, &wx);
        if (x > n[s]) {
            n[s] = x;
            w[s] = wx;
        }
        n[4 + s] = cash_rounds(P, part, s, live, drawn, &w[4 + s]);
        /* A suit only one hand holds: its lengths say who holds what. */
        if (live == P->hand[p][s]) w[s] = 0;
        if (live == P->hand[part][s]) w[4 + s] = 0;
        own += n[s];
        other += n[4 + s];
    }
    if (own >= goal) return pick_items(n, w, 4, forced, goal, win);
    if (own + other >= goal) {
        /* Through the entry (partner's top card in a suit the leader holds)
         * that fixes the fewest cards in all. */
        int best = 0, cost = 99;
        uint16_t tw[4];
        for (int t = 0; t < 4; t++) {
            if (!n[4 + t] || !P->hand[p][t]) continue;
            int got = pick_items(n, w, 8, forced | 1u << (4 + t), goal, tw);
            int c = popc(tw[0]) + popc(tw[1]) + popc(tw[2]) + popc(tw[3]);
            if (c < cost) {
                cost = c;
                best = got;
                memcpy(win, tw, sizeof tw);
            }
        }
        if (best) return best;
    }
    return 0;
}

/* Tricks the leader's side can take at once: a lower bound on its tricks.
 * The leader cashes its own winners, then, if it can reach partner's top
 * card in a suit it holds, partner cashes its winners (partner has room to
 * keep them and the entry: it discards the other cards first). With the
 * opponents out of trumps, the longer trump holding of the side scores every
 * trump, plus a ruff in the short hand. When the leader's top trumps draw
 * the opponents' trumps, its side suits count as if nobody could ruff.
 * Counting stops at `goal` (the tricks that settle the question). */
static int quick_tricks(const Position *P, int p, int goal, uint16_t win[4]) {
    int tr = P->trump, part = (p + 2) & 3;
    win[0] = win[1] = win[2] = win[3] = 0;
    if (tr != DDS_NT && !P->hand[(p + 1) & 3][tr] && !P->hand[(p + 3) & 3][tr]) {
        int a = popc(P->hand[p][tr]), b = popc(P->hand[part][tr]);
        int ruff = a > b ? a : b;
        if (a >= b && b > 0)
            for (int s = 0; s < 4; s++)
                if (s != tr && P->hand[p][s] && !P->hand[part][s]) {
                    ruff++;
                    break;
                }
        if (ruff >= goal) return ruff;
    }
    int q = count_cashes(P, p, goal, 0, win);
    if (q >= goal) return q;
    /* The leader's top trumps draw the opponents' first: then no ruffs. */
    int lho = (p + 1) & 3, rho = (p + 3) & 3;
    if (tr != DDS_NT && (P->hand[lho][tr] || P->hand[rho][tr])) {
        int ll = popc(P->hand[lho][tr]), lr = popc(P->hand[rho][tr]);
        if (top_run(P, p, tr) >= (ll > lr ? ll : lr)) {
            q = count_cashes(P, p, goal, 1, win);
            if (q >= goal) return q;
        }
    }
    return goal <= 1 ? partner_ruffs(P, p, win) : 0;
}

/* Seat holding the card of suit s with rank r (which someone holds). */
static inline int holder_of(const Position *P, int s, int r) {
    int h = 0;
    while (!(P->hand[h][s] >> r & 1)) h++;
    return h;
}

/* Later tricks (DDS's rules) at a trick start with tl tricks left: trick
 * counts one side is sure of, whoever wins the race for the lead. Returns
 * 1 or 0 when they decide "can North-South take `need`?", else -1; `win`
 * gets the ranks the answer depends on. */
static int later_tricks(const Position *P, int tl, int need, const unsigned live[4],
                        uint16_t win[4]) {
    int tr = P->trump;
    int lead = P->leader & 1, def = lead ^ 1;
    win[0] = win[1] = win[2] = win[3] = 0;
    if (tr == DDS_NT || !live[tr]) {
        /* Without trumps a side on lead that needs every trick must win each
         * in a suit it tops (the opponents' top card wins when its suit is
         * led), and a suit gives at most its longer hand's length of tricks
         * (every hand holding the suit follows). */
        int lead_needs = lead ? tl - need + 1 : need;
        if (lead_needs < tl) return -1;
        int sum = 0;
        for (int s = 0; s < 4; s++) {
            if (!live[s]) continue;
            int h = holder_of(P, s, hibit(live[s]));
            if ((h & 1) != lead) continue;
            int a = popc(P->hand[h][s]), b = popc(P->hand[h ^ 2][s]);
            sum += a > b ? a : b;
        }
        if (sum >= tl) return -1;
        /* The opponents' top cards stop it; their holders must stay, except
         * where the leading side's length would still leave it short. */
        int slack = tl - 1 - sum;
        for (int s = 0; s < 4; s++) {
            if (!live[s]) continue;
            int t = hibit(live[s]);
            int h = holder_of(P, s, t);
            if ((h & 1) != def || popc(live[s]) == popc(P->hand[h][s])) continue;
            int a = popc(P->hand[lead][s]), b = popc(P->hand[lead ^ 2][s]);
            int m = a > b ? a : b;
            if (m <= slack) slack -= m;
            else win[s] = (uint16_t)(1u << t);
        }
        return lead;
    }
    unsigned t = live[tr];
    int r1 = hibit(t), r2 = kth_card(t, 2), r3 = kth_card(t, 3);
    int h1 = holder_of(P, tr, r1), h2 = r2 >= 0 ? holder_of(P, tr, r2) : -1;
    int side = -1, k = 0, wr = -1;
    /* Tricks the side `side` is sure of, and the lowest trump that tells. */
    if ((h1 & 1) == def) {
        int lead_trumps = P->hand[lead][tr] | P->hand[lead ^ 2][tr];
        side = def;
        if (!lead_trumps) {
            /* Every trump of the defenders' longer trump hand wins a trick. */
            int a = popc(P->hand[def][tr]), b = popc(P->hand[def ^ 2][tr]);
            k = a > b ? a : b;
            wr = -1;
        } else {
            k = 1;
            wr = r1;
            /* The top two trumps win two tricks unless both are bare in
             * different hands (then they can fall together). */
            if (h2 >= 0 && (h2 & 1) == def &&
                (popc(P->hand[h2][tr]) > 1 || popc(P->hand[h2 ^ 2][tr]) > 1)) {
                int cut2 = def ? tl - 2 < need : need <= 2;
                int cut1 = def ? tl - 1 < need : need <= 1;
                if (cut2 && !cut1) {
                    k = 2;
                    wr = r2;
                }
            }
        }
    } else {
        /* The leader's side holds the top trump: a trick for it. */
        side = lead;
        k = 1;
        wr = r1;
        int cut1 = lead ? tl - 1 < need : need <= 1;
        if (!cut1 && h2 >= 0 && (h2 & 1) == lead &&
            (popc(P->hand[h2][tr]) > 1 || popc(P->hand[h2 ^ 2][tr]) > 1)) {
            /* Its top two trumps, as for the defenders above. */
            k = 2;
            wr = r2;
        } else if (!cut1 && h2 >= 0 && (h2 & 1) == def && popc(P->hand[h2][tr]) > 1) {
            /* A guarded second trump behind the top one, or with the third
             * trump on its side, wins a trick for the defenders. */
            if (h1 == ((h2 + 3) & 3)) {
                side = def;
                wr = r2;
            } else if (r3 >= 0 && (holder_of(P, tr, r3) & 1) == def) {
                side = def;
                wr = r3;
            }
        }
    }
    int cut = side ? tl - k < need : need <= k;
    if (!cut) return -1;
    if (wr >= 0) win[tr] = (uint16_t)(1u << wr);
    return !side;
}

/* Tricks seat w cashes from the top once it has won the current trick with
 * card (us, ur): its top runs in every suit and unopposed long cards; in a
 * side suit, with an opponent holding trumps, no more rounds than that
 * opponent can follow to (`follower`: an opponent still to play to the
 * trick). Counting stops at `goal`; `win` gets the cards counted. */
static int winner_cashes(const Position *P, int w, int us, int ur, int follower, int goal,
                         uint16_t win[4]) {
    int tr = P->trump, ls = P->tsuit[0];
    int o1 = (w + 1) & 3, o2 = (w + 3) & 3;
    int opp_tr = tr != DDS_NT && (P->hand[o1][tr] || P->hand[o2][tr]);
    int n[4] = {0, 0, 0, 0};
    uint16_t ws[4] = {0, 0, 0, 0}, got[4];
    for (int s = 0; s < 4; s++) {
        if (!P->hand[w][s]) continue;
        unsigned live = P->hand[0][s] | P->hand[1][s] | P->hand[2][s] | P->hand[3][s];
        unsigned mine = P->hand[w][s];
        if (s == us) {
            live &= ~(1u << ur);
            mine &= ~(1u << ur);
            if (!mine) continue;
        }
        int ruffable = opp_tr && s != tr;
        if (live == mine) {
            if (!ruffable) n[s] = popc(mine);
            continue;
        }
        int k = 0;
        for (unsigned all = live; all && (mine >> hibit(all) & 1); all &= ~(1u << hibit(all))) k++;
        for (int i = 0; i < 2 && ruffable; i++) {
            int o = i ? o2 : o1;
            if (!P->hand[o][tr]) continue;
            /* The follower plays one more card: of the led suit, or, when
             * out of it, of any suit. */
            int len = popc(P->hand[o][s]) - (o == follower && (s == ls || !P->hand[o][ls]));
            if (len < k) k = len;
        }
        if (k <= 0) continue;
        n[s] = k;
        ws[s] = (uint16_t)top_cards(live, k);
    }
    int q = pick_suits(n, ws, goal, got);
    for (int s = 0; s < 4; s++) win[s] |= got[s];
    return q;
}

/* Quick tricks for the second hand's side (DDS's rule, ply 1): it wins the
 * trick when it can ruff and third hand cannot, or when its best card of the
 * led suit beats the led card and third hand's cards and third hand cannot
 * ruff. The trick's winner then cashes as in winner_cashes (a ruffer keeps
 * all but its lowest trump). Returns the tricks counted up to `goal`, the
 * current one included (0 when the trick is not sure), and in `win` the
 * cards they depend on. */
static int second_hand_tricks(const Position *P, int goal, uint16_t win[4]) {
    int tr = P->trump, ls = P->tsuit[0];
    int h = (P->leader + 1) & 3, third = (h + 1) & 3, part = (h + 2) & 3;
    win[0] = win[1] = win[2] = win[3] = 0;
    int third_ruffs = tr != DDS_NT && ls != tr && !P->hand[third][ls] && P->hand[third][tr];
    if (third_ruffs) return 0;
    unsigned ours = P->hand[h][ls] | P->hand[part][ls];
    /* The trick's winner w and the card it plays (us, ur): a ruff nobody
     * overruffs (with w's lowest trump; its rank does not matter), or the
     * side's best card of the suit. */
    int w, us = tr, ur;
    int ruff = tr != DDS_NT && ls != tr;
    if (ruff && !P->hand[h][ls] && P->hand[h][tr]) {
        w = h;
    } else if (ruff && !P->hand[part][ls] && P->hand[part][tr]) {
        w = part;
    } else {
        if (!ours || hibit(ours) < P->trank[0] ||
            (P->hand[third][ls] && hibit(ours) < hibit(P->hand[third][ls])))
            return 0;
        us = ls;
        ur = hibit(ours);
        win[ls] = (uint16_t)(1u << ur);
        w = P->hand[h][ls] >> ur & 1 ? h : part;
    }
    if (us == tr && ls != tr) ur = __builtin_ctz(P->hand[w][tr]);
    return 1 + winner_cashes(P, w, us, ur, third, goal - 1, win);
}

/* Quick tricks for the fourth hand's side (ply 3): partner's card wins the
 * trick when fourth hand can play under it, else fourth hand's cheapest
 * winning card does; the trick's winner then cashes as in winner_cashes
 * (fourth hand's other cards left in place: they only stop partner's runs).
 * Returns the tricks counted, the current one included, or 0. */
static int fourth_hand_tricks(const Position *P, int goal, uint16_t win[4]) {
    int tr = P->trump, ls = P->tsuit[0];
    int m = (P->leader + 3) & 3, part = (P->leader + 1) & 3;
    int wi = trick_winner(P, 3), ws = P->tsuit[wi], wr = P->trank[wi];
    unsigned follow = P->hand[m][ls];
    win[0] = win[1] = win[2] = win[3] = 0;
    /* The winning card's rank counts when it beat another card of its suit. */
    int beat = 0;
    for (int i = 0; i < 3; i++)
        if (i != wi && P->tsuit[i] == ws) beat = 1;
    if (wi == 1) {
        unsigned all_m = P->hand[m][0] | P->hand[m][1] | P->hand[m][2] | P->hand[m][3];
        int underruff = !follow && tr != DDS_NT && P->hand[m][tr] == all_m;
        int under = follow ? (ws != ls || __builtin_ctz(follow) < wr)
                           : !underruff || (ws == tr && __builtin_ctz(P->hand[m][tr]) < wr);
        if (under) {
            /* ... or beats fourth hand's card (followed suit, or underruffed). */
            if (beat || (follow && ws == ls) || underruff) win[ws] = (uint16_t)(1u << wr);
            return 1 + winner_cashes(P, part, -1, 0, -1, goal - 1, win);
        }
    }
    /* Fourth hand's cheapest card that wins. */
    int cs = -1, cr = -1;
    if (follow) {
        unsigned up = ws == ls ? follow & ~((2u << wr) - 1) : 0;
        if (up) {
            cs = ls;
            cr = __builtin_ctz(up);
        }
    } else if (tr != DDS_NT && P->hand[m][tr]) {
        unsigned up = ws == tr ? P->hand[m][tr] & ~((2u << wr) - 1) : P->hand[m][tr];
        if (up) {
            cs = tr;
            cr = __builtin_ctz(up);
        }
    }
    if (cs < 0) return 0;
    if (cs == ws) win[cs] = (uint16_t)(1u << cr);
    return 1 + winner_cashes(P, m, cs, cr, -1, goal - 1, win);
}

/* Quick tricks for the third hand's side (ply 2): the trick is sure when
 * fourth hand cannot ruff and either the leader's card stands (third hand
 * plays under it, fourth hand has nothing higher) or third hand's cheapest
 * card beating everything in the suit wins, or third hand ruffs above every
 * trump that can beat it. The winner then cashes as in winner_cashes.
 * Returns the tricks counted, the current one included, or 0. */
static int third_hand_tricks(const Position *P, int goal, uint16_t win[4]) {
    int tr = P->trump, ls = P->tsuit[0];
    int lead = P->leader, t = (lead + 2) & 3, o4 = (lead + 3) & 3;
    int wi = trick_winner(P, 2), ws = P->tsuit[wi], wr = P->trank[wi];
    unsigned follow = P->hand[t][ls], four = P->hand[o4][ls];
    win[0] = win[1] = win[2] = win[3] = 0;
    int side_suit = tr != DDS_NT && ls != tr;
    if (side_suit && !four && P->hand[o4][tr]) {
        /* Fourth hand ruffs unless third hand ruffs higher. */
        if (follow || !P->hand[t][tr]) return 0;
        int need_r = hibit(P->hand[o4][tr]);
        if (ws == tr && wr > need_r) need_r = wr;
        unsigned up = P->hand[t][tr] & ~((2u << need_r) - 1);
        if (!up) return 0;
        int cr = __builtin_ctz(up);
        win[tr] = (uint16_t)(1u << cr);
        return 1 + winner_cashes(P, t, tr, cr, o4, goal - 1, win);
    }
    int top4 = four ? hibit(four) : -1;
    if (wi == 0 && wr > top4) {
        /* The leader's card stands if third hand can play under it. */
        unsigned all_t = P->hand[t][0] | P->hand[t][1] | P->hand[t][2] | P->hand[t][3];
        int under = follow ? __builtin_ctz(follow) < wr
                           : tr == DDS_NT || ls == tr || P->hand[t][tr] != all_t;
        if (under) {
            /* Its rank counts when it beats a card of its suit. */
            if (P->tsuit[1] == ls || follow || four) win[ls] = (uint16_t)(1u << wr);
            return 1 + winner_cashes(P, lead, -1, 0, o4, goal - 1, win);
        }
    }
    int cs = -1, cr = -1;
    if (follow) {
        if (ws == ls) {
            int bar = wr > top4 ? wr : top4;
            unsigned up = follow & ~((2u << bar) - 1);
            if (up) {
                cs = ls;
                cr = __builtin_ctz(up);
            }
        }
    } else if (side_suit && P->hand[t][tr]) {
        unsigned up = ws == tr ? P->hand[t][tr] & ~((2u << wr) - 1) : P->hand[t][tr];
        if (up) {
            cs = tr;
            cr = __builtin_ctz(up);
        }
    }
    if (cs < 0) return 0;
    if (cs == ls || ws == tr) win[cs] = (uint16_t)(1u << cr);
    return 1 + winner_cashes(P, t, cs, cr, o4, goal - 1, win);
}

/* ---- move generation and ordering -------------------------------------- */

/* Cards of `hm` that head a run of equivalent cards: the next higher card
 * still in play (hands plus the current trick) is not in the same hand. */
static inline unsigned representatives(unsigned hm, unsigned live) {
    unsigned reps = 0;
    unsigned m = hm;
    while (m) {
        int r = hibit(m);
        m &= ~(1u << r);
        unsigned above = live & ~((2u << r) - 1);
        if (!above || !(hm >> __builtin_ctz(above) & 1)) reps |= 1u << r;
    }
    return reps;
}

static inline void add(Move *mv, int *n, int s, int r, int score) {
    mv[*n].s = (int8_t)s;
    mv[*n].r = (int8_t)r;
    mv[*n].score = (int16_t)score;
    (*n)++;
}

/* Seat holding the k-th highest card (k = 0, 1, 2) still in a hand of suit
 * s, or -1. */
static inline int nth_holder(const Position *P, unsigned live, int s, int k) {
    while (k-- > 0 && live) live &= ~(1u << hibit(live));
    if (!live) return -1;
    int r = hibit(live);
    for (int h = 0; h < 4; h++)
        if (P->hand[h][s] >> r & 1) return h;
    return -1;
}

/* Does card r of hm have an equivalent card below it in the same hand? */
static inline int has_run_below(unsigned hm, unsigned live, int r) {
    unsigned below = live & ((1u << r) - 1);
    return below && (hm >> hibit(below) & 1);
}

/* Score of leading card r of suit s by seat p (tl tricks left). The weights
 * follow DDS's tuned ones: first whether the lead wins the trick for our
 * side, then who holds the next top cards, and lower cards first among equal
 * leads (depth). */
static int lead_score(const Position *P, int p, int s, int r, const unsigned live[4], int tl) {
    int tr = P->trump;
    int lho = (p + 1) & 3, part = (p + 2) & 3, rho = (p + 3) & 3;
    unsigned hm = P->hand[p][s];
    int nl = popc(P->hand[lho][s]), nr = popc(P->hand[rho][s]), np = popc(P->hand[part][s]);
    int w1 = nth_holder(P, live[s], s, 0), w2 = nth_holder(P, live[s], s, 1);
    int top = hibit(live[s]);
    int depth = 1 + popc(live[s] >> (r + 1)); /* 1 for the top card */
    int seq = has_run_below(hm, live[s], r);
    int second = live[s] & ~(1u << top) ? hibit(live[s] & ~(1u << top)) : -1;
    /* Opponents with many cards to choose from make a bigger tree; a void
     * opponent may play anything. */
    int cl = nl ? nl : tl + 1, cr = nr ? nr : tl + 1;
    int trumps = tr != DDS_NT && live[tr];
    int d, sc;
    unsigned pt = trumps ? P->hand[part][tr] : 0;
    unsigned lt = trumps ? P->hand[lho][tr] : 0, rt = trumps ? P->hand[rho][tr] : 0;
    int lruff = trumps && s != tr && !nl && lt, rruff = trumps && s != tr && !nr && rt;
    int pruff = trumps && s != tr && !np && pt;
    int stiff_top = (nl == 1 && w1 == lho) || (nr == 1 && w1 == rho);
    if (trumps) {
        d = -(cl + cr) * 128 / 13;
        if (lruff || rruff) d -= 12;
        if (pruff && nr) d += 17;
        if (w1 == rho || w2 == rho) {
            if (nr != 1) d -= 12;
        } else if (w1 == lho && w2 == part && np != 1) {
            d += 27;
        }
        /* Trump leads cut less often than side-suit leads (measured). */
        if (s == tr) d -= 15;
        /* A singleton to partner's top card, ruffing the return. */
        if (s != tr && popc(hm) == 1 && P->hand[p][tr] && np > 1 && w1 == part) d += 19;
    } else {
        d = -(cl + cr) * 128 / 19 - (np ? 0 : 9);
    }
    /* Does this lead win the trick for the leader's side? */
    int win;
    if (r == top || P->hand[part][s] > (P->hand[lho][s] | P->hand[rho][s]))
        win = !lruff && !rruff;
    else if (pruff)
        win = (!lruff || pt > lt) && (!rruff || pt > rt);
    else
        win = 0;
    if (win && !trumps) {
        if (w2 == rho) {
            if (nr != 1) d -= 1;
        } else if (w2 == lho) {
            d += nl != 1 ? 22 : 16;
        }
        int safe = (w2 != lho || nl == 1) && (w2 != rho || nr == 1);
        return d + (safe ? 45 : 18) + depth;
    }
    if (win) {
        if (stiff_top) sc = 35 + depth;
        else if (w1 == p) sc = w2 == part ? 48 + depth : r == top ? 31 : -3 + depth;
        else if (w1 == part) sc = w2 == p ? 42 + depth : 28 + depth;
        else if (seq && r == second) sc = 40;
        else if (seq) sc = 22 + depth;
        else sc = 11 + depth;
        return d + sc;
    }
    if (!trumps) {
        if (w1 == rho || w2 == rho) {
            if (nr != 1) d -= 10;
        } else if (w1 == lho && w2 == part && np != 1) {
            d += 31;
        }
    }
    /* The side holding the second and third cards sets up the next round. */
    int w3 = nth_holder(P, live[s], s, 2);
    if (w2 == part && w3 == part) d += trumps ? 20 : 35;
    else if (np > 1 && ((w2 == p && w3 == part) || (w2 == part && w3 == p))) d += trumps ? 13 : 25;
    if (trumps) {
        if (stiff_top) sc = depth + 2;
        else if (w1 == p) sc = w2 == part ? 33 + depth : r == top ? 38 : -14 + depth;
        else if (w1 == part) sc = 34 + depth;
        else if (seq && r == second) sc = 35;
        else sc = 15 - r;
    } else {
        if (stiff_top) sc = 28 + depth;
        else if (w1 == p) sc = -17 + depth;
        else if (!seq) sc = 12 + depth;
        else if (r == second) sc = 48;
        else sc = 29 - depth;
    }
    return d + sc;
}

static inline int top_or(unsigned m, int none) { return m ? hibit(m) : none; }
static inline int low_or(unsigned m, int none) { return m ? __builtin_ctz(m) : none; }

/* Score of second hand p following with card r: low when partner, fourth,
 * wins anyway, else the cheapest card beating the lead and third hand. */
static int second_score(const Position *P, int p, int r, const unsigned live[4]) {
    int ls = P->tsuit[0], lr = P->trank[0], tr = P->trump;
    int third = (p + 1) & 3, part = (p + 2) & 3;
    int trumps = tr != DDS_NT && live[tr];
    unsigned th = P->hand[third][ls], ph = P->hand[part][ls];
    int max3 = top_or(th, -1), maxp = top_or(ph, -1);
    int min3 = low_or(th, -1), minp = low_or(ph, -1);
    int depth = 1 + popc(live[ls] >> (r + 1));
    int R = r + 2;
    int seq = has_run_below(P->hand[p][ls], live[ls], r);
    if (!trumps) {
        /* Partner beats the lead and third hand anyway: play low. */
        if (maxp > lr && maxp > max3) return -R;
        if (r > lr && r > max3) return 81 - R;
        if (min3 > r || minp > r) return -3 + depth;
        if (r < lr) return -11 + depth;
        return seq ? 10 + depth : 13 - R;
    }
    unsigned t3 = P->hand[third][tr], tp = P->hand[part][tr];
    int win;
    if (ls == tr) {
        win = (maxp > lr && maxp > max3) || (r > lr && r > max3);
    } else if (r > lr && r > max3) {
        win = th || !t3 || (!ph && tp > t3);
    } else if (maxp > lr && maxp > max3) {
        win = th || !t3;
    } else if (lr > maxp && lr > max3 && lr > r) {
        win = !ph && tp && (th || !t3 || tp > t3);
    } else {
        win = !ph && tp;
    }
    if (win) {
        if (min3 > r) return 40 + depth;
        if (maxp > lr && P->hand[P->leader][ls] > ph) return 41 + depth;
        if (r > lr) {
            if (r < maxp) return 78 - R;
            if (r > max3) return 73 - R;
            return seq ? 62 - R : 49 - R;
        }
        return maxp >= 0 ? 47 - R : 40 - R;
    }
    if (r < min3 || r < minp) return -9 + depth;
    if (r < lr) return -16 + depth;
    return seq ? 22 - R : 10 - R;
}

/* Third hand's cheapest card that drives out fourth hand's top card: it beats
 * fourth hand's next card not equivalent to its top (or, with second hand
 * winning, at least beats second hand). -1 for none. */
static int force_card(unsigned mine, unsigned c4, unsigned live, int r1, int second_wins) {
    int t4 = hibit(c4);
    int sec = -1;
    for (unsigned m = c4 & ~(1u << t4); m; m &= ~(1u << hibit(m))) {
        int r = hibit(m);
        /* equivalent to the top when no live card of another hand lies between */
        if (live & ~c4 & ((1u << t4) - 1) & ~((2u << r) - 1)) {
            sec = r;
            break;
        }
    }
    if (sec < 0) return -1;
    int floor = sec > r1 ? sec : r1;
    if (sec <= r1 && !second_wins) return -1;
    unsigned above = mine & ~((2u << floor) - 1);
    return above ? __builtin_ctz(above) : -1;
}

/* Score of third hand p following with card r; w is the index of the card
 * winning so far. */
static int third_score(const Position *P, int p, int r, const unsigned live[4], int w) {
    int ls = P->tsuit[0], tr = P->trump;
    int ws = P->tsuit[w], wr = P->trank[w];
    int q = (p + 1) & 3;
    unsigned c4 = P->hand[q][ls];
    int qmax = top_or(c4, -1);
    int qruff = tr != DDS_NT && ls != tr && !c4 && P->hand[q][tr];
    int beats = ws == ls && r > wr;
    if (w == 0) {
        /* Partner's lead wins unless fourth hand beats or ruffs it. */
        int safe = !qruff && (ws == ls ? wr > qmax : !(ws == tr && !c4));
        if (safe) {
            /* Notrump, partner's last card of the suit: overtake with our
             * cheapest card above it when our top cards then run the suit. */
            if (!(tr != DDS_NT && live[tr]) && !P->hand[P->leader][ls] && r > wr) {
                unsigned mine = P->hand[p][ls];
                unsigned above = mine & ~((2u << wr) - 1);
                int run = top_run(P, p, ls) - 1;
                int opp = popc(c4) - 1, n2 = popc(P->hand[(P->leader + 1) & 3][ls]);
                if (n2 > opp) opp = n2;
                if (run >= 0 && opp <= run && r == __builtin_ctz(above)) return 60;
            }
            return 50 - r;
        }
    }
    if (beats && r > qmax && !qruff) return 100 - r;
    if (!beats) return 30 - r;
    /* Fourth hand can beat us: cheapest first, but the cheapest card that
     * drives out its top card (beats its next one) before the rest. */
    int r1 = P->tsuit[1] == ls ? P->trank[1] : -1;
    int force = qmax > r && r == force_card(P->hand[p][ls], c4, live[ls], r1, w == 1);
    return 60 - r + (force ? 30 : 0);
}

/* Score of seat p, out of the suit led, playing card r of suit s: discards
 * come small from long suits, keeping a guarded second-best card (Kx) and a
 * bare top card; ruffs go in when they win and partner is not already
 * winning. w is the index of the card winning so far. */
static int void_score(const Position *P, int p, int s, int r, const unsigned live[4], int w) {
    int ls = P->tsuit[0], lr = P->trank[0], tr = P->trump, ply = P->ply;
    int trumps = tr != DDS_NT && live[tr];
    int next = (p + 1) & 3, part = (p + 2) & 3;
    unsigned m = P->hand[p][s];
    int len = popc(m), R = r + 2;
    int depth = 1 + popc(live[s] >> (r + 1));
    int kx = len == 2 && nth_holder(P, live[s], s, 1) == p;
    int bare_top = len == 1 && nth_holder(P, live[s], s, 0) == p;
    int ws = P->tsuit[w], wr = P->trank[w];
    if (!trumps) {
        int add;
        if (ply == 1 && P->hand[part][ls] > (P->hand[next][ls] | 1u << lr))
            add = len * 64 / 23 - (kx ? 2 : bare_top ? 3 : 0); /* partner wins */
        else if (ply == 1)
            add = len * 64 / 33 - (kx ? 6 : bare_top ? 8 : 0);
        else if (ply == 2)
            add = len * 64 / 24 - (kx || bare_top ? 4 : 0);
        else
            add = len * 64 / 27 - (kx ? 6 : bare_top ? 8 : 0);
        return add - R;
    }
    unsigned nt = P->hand[next][tr], pt = P->hand[part][tr];
    if (ply == 1) {
        /* Partner, fourth, can win the trick: in the suit or by ruffing. */
        int follows = P->hand[next][ls] || !nt || ls == tr; /* third cannot ruff */
        int pwins = (follows && P->hand[part][ls] > (P->hand[next][ls] | 1u << lr)) ||
                    (!P->hand[part][ls] && pt && (P->hand[next][ls] || pt > nt));
        if (ls == tr) return -R + (pwins ? len * 64 / 44 : len * 64 / 36 - (kx ? 4 : 0));
        if (s != tr) {
            if (pwins) return 60 + len * 64 / 44 - R;
            return -2 + len * 64 / 36 - (kx ? 4 : 0) - R;
        }
        if (P->hand[next][ls] || (!P->hand[part][ls] && pt > nt) || (1u << r) > nt)
            return 24 - R + len * 64 / 44;
        return 15 - R + len * 64 / 36 - (kx ? 4 : 0); /* overruffed: make it cost */
    }
    if (ply == 2) {
        unsigned c4 = P->hand[next][ls];
        if (ls == tr || s != tr) return -R + len * 64 / 40;
        if (w == 0 && lr > top_or(c4, -1) && (c4 || !nt)) return -R - 50; /* partner wins */
        if (P->tsuit[1] == tr && r < P->trank[1]) return -32 + depth + len * 64 / 40;
        int over4 = (1u << r) > nt;
        if (w == 0) {
            if (c4) return (nth_holder(P, live[ls], ls, 1) == P->leader ? 36 : 48) - R + len * 64 / 50;
            return (over4 ? 48 : -12) - R + len * 64 / 50;
        }
        if (c4) return 72 - R + len * 64 / 50;
        return (over4 ? 48 : 36) - R + len * 64 / 50;
    }
    int val = len * 64 / 24 - (kx ? 2 : 0);
    if (ls == tr) return -R + val;
    if (w == 1) return (s == tr ? 2 : 25) - R + val; /* partner wins */
    if (ws == tr) {
        if (s == tr) return r > wr ? 33 + depth : -13 + depth;
        return 14 - R + val;
    }
    return s == tr ? 33 + depth : 14 - R + val;
}

static int gen_moves(Solver *S, int p, Move *mv) {
    const Position *P = &S->pos;
    int n = 0, ply = P->ply;
    unsigned live[4];
    for (int s = 0; s < 4; s++)
        live[s] = P->hand[0][s] | P->hand[1][s] | P->hand[2][s] | P->hand[3][s];
    for (int i = 0; i < ply; i++) live[P->tsuit[i]] |= 1u << P->trank[i];

    if (ply == 0) {
        for (int s = 0; s < 4; s++) {
            unsigned reps = representatives(P->hand[p][s], live[s]);
            while (reps) {
                int r = hibit(reps);
                reps &= ~(1u << r);
                add(mv, &n, s, r, lead_score(P, p, s, r, live, S->tl));
            }
        }
    } else {
        int ls = P->tsuit[0];
        int w = trick_winner(P, ply);
        int ws = P->tsuit[w], wr = P->trank[w];
        int wseat = (P->leader + w) & 3;
        int partner_wins = (wseat & 1) == (p & 1);
        unsigned hm = P->hand[p][ls];
        if (hm) {
            unsigned reps = representatives(hm, live[ls]);
            while (reps) {
                int r = hibit(reps);
                reps &= ~(1u << r);
                int sc;
                if (ply == 1) sc = second_score(P, p, r, live);
                else if (ply == 2) sc = third_score(P, p, r, live, w);
                /* Fourth hand: low under partner, else the cheapest winner. */
                else sc = partner_wins ? 50 - r : ws == ls && r > wr ? 100 - r : 30 - r;
                add(mv, &n, ls, r, sc);
            }
        } else {
            for (int s = 0; s < 4; s++) {
                unsigned reps = representatives(P->hand[p][s], live[s]);
                while (reps) {
                    int r = hibit(reps);
                    reps &= ~(1u << r);
                    add(mv, &n, s, r, void_score(P, p, s, r, live, w));
                }
            }
        }
    }
    for (int i = 1; i < n; i++) {
        Move m = mv[i];
        int j = i;
        while (j > 0 && mv[j - 1].score < m.score) {
            mv[j] = mv[j - 1];
            j--;
        }
        mv[j] = m;
    }
    return n;
}

/* ---- the search --------------------------------------------------------- */

static int ab(Solver *S, int need, uint16_t win[4]);

/* Plays card (s, r) for the mover, searches, and takes it back. `need` is the
 * count of North-South tricks wanted from the position before the card; `win`
 * gets the winning ranks of the answer. */
static int play_and_search(Solver *S, int s, int r, int need, uint16_t win[4]) {
    Position *P = &S->pos;
    int seat = (P->leader + P->ply) & 3;
    int ply = P->ply;
    int res;
    P->hand[seat][s] &= (uint16_t)~(1u << r);
    P->tsuit[ply] = s;
    P->trank[ply] = r;
    if (ply < 3) {
        P->ply = ply + 1;
        res = ab(S, need, win);
        P->ply = ply;
    } else {
        int w = trick_winner(P, 4);
        int wseat = (P->leader + w) & 3;
        int leader = P->leader;
        /* The next tricks reuse the trick slots: keep this trick's cards for
         * the siblings still to be tried. */
        int ts[4] = {P->tsuit[0], P->tsuit[1], P->tsuit[2], P->tsuit[3]};
        int tr[4] = {P->trank[0], P->trank[1], P->trank[2], P->trank[3]};
        P->leader = wseat;
        P->ply = 0;
        S->tl--;
        res = ab(S, need - !(wseat & 1), win);
        S->tl++;
        P->leader = leader;
        P->ply = 3;
        for (int i = 0; i < 3; i++) {
            P->tsuit[i] = ts[i];
            P->trank[i] = tr[i];
        }
        /* The winner's rank matters when it beat another card of its suit. */
        for (int i = 0; i < 4; i++)
            if (i != w && ts[i] == ts[w]) {
                win[ts[w]] |= (uint16_t)(1u << tr[w]);
                break;
            }
    }
    P->hand[seat][s] |= (uint16_t)(1u << r);
    return res;
}

/* The bits of v (a subset of live) packed in live's order, lowest first. */
static inline unsigned compact(const Solver *S, unsigned v, unsigned live) {
    return S->comp_lo[live & 127][v & 127] |
           (unsigned)S->comp_hi[live >> 7][v >> 7] << popc(live & 127);
}

/* Lengths of every suit in every hand, and each suit's holders (2 bits a
 * card, top-aligned as tt.h says): what the winning-ranks table matches. */
static inline uint64_t describe(const Solver *S, const unsigned live[4], uint32_t order[4]) {
    const Position *P = &S->pos;
    uint64_t d = 0;
    for (int s = 0; s < 4; s++) {
        unsigned h0 = P->hand[0][s], h1 = P->hand[1][s], h2 = P->hand[2][s], h3 = P->hand[3][s];
        d |= (uint64_t)popc(h0) << (s * 4) | (uint64_t)popc(h1) << (16 + s * 4) |
             (uint64_t)popc(h2) << (32 + s * 4) | (uint64_t)popc(h3) << (48 + s * 4);
        unsigned odd = compact(S, h1 | h3, live[s]), high = compact(S, h2 | h3, live[s]);
        uint32_t o = (uint32_t)(S->spread7[odd & 127] | S->spread7[odd >> 7] << 14) |
                     (uint32_t)(S->spread7[high & 127] | S->spread7[high >> 7] << 14) << 1;
        order[s] = o << (2 * (13 - popc(live[s])));
    }
    return d;
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
            live[s] = P->hand[0][s] | P->hand[1][s] | P->hand[2][s] | P->hand[3][s];
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
            dist = describe(S, live, order);
            uint8_t k[4];
            int v = wr_probe(&S->wr, dist, P->leader, order, need, k);
            if (v >= 0) {
                for (int s = 0; s < 4; s++) win[s] = (uint16_t)top_cards(live[s], k[s]);
                return v;
            }
        }
    }
    if (P->ply == 1) {
        int ns_second = P->leader & 1;
        int q = second_hand_tricks(P, ns_second ? need : S->tl - need + 1, win);
        if (q && (ns_second ? q >= need : S->tl - q < need)) {
            S->st.quick_cuts++;
            return ns_second;
        }
    }
    if (P->ply == 2) {
        int ns_third = !(P->leader & 1);
        int q = third_hand_tricks(P, ns_third ? need : S->tl - need + 1, win);
        if (q && (ns_third ? q >= need : S->tl - q < need)) {
            S->st.quick_cuts++;
            return ns_third;
        }
    }
    if (P->ply == 3) {
        int ns_fourth = P->leader & 1;
        int q = fourth_hand_tricks(P, ns_fourth ? need : S->tl - need + 1, win);
        if (q && (ns_fourth ? q >= need : S->tl - q < need)) {
            S->st.quick_cuts++;
            return ns_fourth;
        }
    }
    int seat = (P->leader + P->ply) & 3;
    int maxnode = !(seat & 1);
    Move mv[13];
    int n = gen_moves(S, seat, mv);
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
         * so its bottom card becomes relevant too. Moves are tried from the
         * generated list; walk each suit's runs from the top. */
        unsigned lv[4];
        for (int s = 0; s < 4; s++)
            lv[s] = P->hand[0][s] | P->hand[1][s] | P->hand[2][s] | P->hand[3][s];
        for (int i = 0; i < P->ply; i++) lv[P->tsuit[i]] |= 1u << P->trank[i];
        for (int s = 0; s < 4; s++) {
            unsigned hm = P->hand[seat][s];
            if (!hm) continue;
            if (P->ply > 0 && s != P->tsuit[0] && P->hand[seat][P->tsuit[0]]) continue;
            unsigned m = hm;
            while (m) {
                int r = hibit(m);
                /* The run headed by r: cards of hm with only gone cards between. */
                int b = r;
                m &= ~(1u << r);
                for (;;) {
                    unsigned below = lv[s] & ((1u << b) - 1);
                    if (!below || !(hm >> hibit(below) & 1)) break;
                    b = hibit(below);
                    m &= ~(1u << b);
                }
                if (b != r && acc[s] && __builtin_ctz(acc[s]) <= r) acc[s] |= (uint16_t)(1u << b);
            }
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

int solver_scores(Solver *S, const Position *p, int *best, int out_cards[13],
                  int out_scores[13]) {
    set_root(S, p);
    Position *P = &S->pos;
    int mover = (p->leader + p->ply) & 3;
    int ply = P->ply;
    unsigned live[4];
    for (int s = 0; s < 4; s++)
        live[s] = P->hand[0][s] | P->hand[1][s] | P->hand[2][s] | P->hand[3][s];
    for (int i = 0; i < ply; i++) live[P->tsuit[i]] |= 1u << P->trank[i];
    Move mv[13];
    int n = gen_moves(S, mover, mv);
    int count = 0, bestv = -1;
    int guess = estimate(p, S->tl);
    for (int i = 0; i < n; i++) {
        int s = mv[i].s, r = mv[i].r;
        /* The child's value, as North-South tricks from the parent. */
        P->hand[mover][s] &= (uint16_t)~(1u << r);
        P->tsuit[ply] = s;
        P->trank[ply] = r;
        int ns;
        if (ply < 3) {
            P->ply = ply + 1;
            ns = exact(S, guess);
            P->ply = ply;
        } else {
            int wseat = (P->leader + trick_winner(P, 4)) & 3;
            int leader = P->leader;
            int ts[3] = {P->tsuit[0], P->tsuit[1], P->tsuit[2]};
            int tr[3] = {P->trank[0], P->trank[1], P->trank[2]};
            P->leader = wseat;
            P->ply = 0;
            S->tl--;
            int won = !(wseat & 1);
            ns = won + exact(S, guess - won);
            S->tl++;
            P->leader = leader;
            P->ply = 3;
            for (int j = 0; j < 3; j++) {
                P->tsuit[j] = ts[j];
                P->trank[j] = tr[j];
            }
        }
        P->hand[mover][s] |= (uint16_t)(1u << r);
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
