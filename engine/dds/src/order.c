/* Move ordering: the legal cards of the player to move, one per run of
 * equivalent cards, best first (weights after DDS's; see docs/dds.md). */
#include "order.h"

#include "masks.h"

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
    if (!(P->held[s] >> r & 1)) return -1;
    /* The seat's two bits: East or West, South or West. */
    return (int)(((P->hand[1][s] | P->hand[3][s]) >> r & 1) | ((P->hand[2][s] | P->hand[3][s]) >> r & 1) << 1);
}

/* Does card r of hm have an equivalent card below it in the same hand? */
static inline int has_run_below(unsigned hm, unsigned live, int r) {
    unsigned below = live & ((1u << r) - 1);
    return below && (hm >> hibit(below) & 1);
}

/* What the lead scores of one suit share, computed once per suit: lengths,
 * the holders of the top cards, ruffs, and the suit's part of the score. */
typedef struct {
    unsigned hm;
    int nl, nr, np, w1, w2, top, second, trumps, stiff_top;
    int d_win, d_lose;       /* the suit's part of the score, lead winning or not */
    int win_top, win_lower;  /* does leading the top card / a lower card win? */
} LeadSuit;

/* The per-suit part of lead_score for seat p leading suit s (tl tricks left). */
static void lead_suit(const Position *P, int p, int s, const unsigned live[4], int tl,
                      LeadSuit *L) {
    int tr = P->trump;
    int lho = (p + 1) & 3, part = (p + 2) & 3, rho = (p + 3) & 3;
    unsigned hm = P->hand[p][s];
    int nl = popc(P->hand[lho][s]), nr = popc(P->hand[rho][s]), np = popc(P->hand[part][s]);
    int w1 = nth_holder(P, live[s], s, 0), w2 = nth_holder(P, live[s], s, 1);
    int top = hibit(live[s]);
    /* Opponents with many cards to choose from make a bigger tree; a void
     * opponent may play anything. */
    int cl = nl ? nl : tl + 1, cr = nr ? nr : tl + 1;
    int trumps = tr != DDS_NT && live[tr];
    int d;
    unsigned pt = trumps ? P->hand[part][tr] : 0;
    unsigned lt = trumps ? P->hand[lho][tr] : 0, rt = trumps ? P->hand[rho][tr] : 0;
    int lruff = trumps && s != tr && !nl && lt, rruff = trumps && s != tr && !nr && rt;
    int pruff = trumps && s != tr && !np && pt;
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
    L->hm = hm;
    L->nl = nl;
    L->nr = nr;
    L->np = np;
    L->w1 = w1;
    L->w2 = w2;
    L->top = top;
    L->second = live[s] & ~(1u << top) ? hibit(live[s] & ~(1u << top)) : -1;
    L->trumps = trumps;
    L->stiff_top = (nl == 1 && w1 == lho) || (nr == 1 && w1 == rho);
    /* Does the lead win the trick for the leader's side? */
    L->win_top = !lruff && !rruff;
    if (P->hand[part][s] > (P->hand[lho][s] | P->hand[rho][s]))
        L->win_lower = !lruff && !rruff;
    else if (pruff)
        L->win_lower = (!lruff || pt > lt) && (!rruff || pt > rt);
    else
        L->win_lower = 0;
    L->d_win = d;
    if (!trumps) {
        if (w2 == rho) {
            if (nr != 1) L->d_win -= 1;
        } else if (w2 == lho) {
            L->d_win += nl != 1 ? 22 : 16;
        }
        int safe = (w2 != lho || nl == 1) && (w2 != rho || nr == 1);
        L->d_win += safe ? 45 : 18;
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
    L->d_lose = d;
}

/* Score of leading card r of suit s by seat p, given lead_suit's L. The
 * weights follow DDS's tuned ones: first whether the lead wins the trick for
 * our side, then who holds the next top cards, and lower cards first among
 * equal leads (depth). */
static int lead_score(const LeadSuit *L, int p, int r, unsigned live) {
    int part = (p + 2) & 3;
    int w1 = L->w1, w2 = L->w2, top = L->top;
    int depth = 1 + popc(live >> (r + 1)); /* 1 for the top card */
    int seq = has_run_below(L->hm, live, r);
    int sc;
    if (r == top ? L->win_top : L->win_lower) {
        if (!L->trumps) return L->d_win + depth;
        if (L->stiff_top) sc = 35 + depth;
        else if (w1 == p) sc = w2 == part ? 48 + depth : r == top ? 31 : -3 + depth;
        else if (w1 == part) sc = w2 == p ? 42 + depth : 28 + depth;
        else if (seq && r == L->second) sc = 40;
        else if (seq) sc = 22 + depth;
        else sc = 11 + depth;
        return L->d_win + sc;
    }
    if (L->trumps) {
        if (L->stiff_top) sc = depth + 2;
        else if (w1 == p) sc = w2 == part ? 33 + depth : r == top ? 38 : -14 + depth;
        else if (w1 == part) sc = 34 + depth;
        else if (seq && r == L->second) sc = 35;
        else sc = 15 - r;
    } else {
        if (L->stiff_top) sc = 28 + depth;
        else if (w1 == p) sc = -17 + depth;
        else if (!seq) sc = 12 + depth;
        else if (r == L->second) sc = 48;
        else sc = 29 - depth;
    }
    return L->d_lose + sc;
}

static inline int top_or(unsigned m, int none) { return m ? hibit(m) : none; }
static inline int low_or(unsigned m, int none) { return m ? __builtin_ctz(m) : none; }

/* What second hand's scores share, computed once per node: the led card,
 * third hand's and partner's cards of the suit, their trumps. */
typedef struct {
    int ls, lr, trumps, max3, maxp, min3, minp;
    unsigned th, ph, t3, tp, lead_hm;
} Second;

static void second_node(const Position *P, int p, const unsigned live[4], Second *S2) {
    int ls = P->tsuit[0], tr = P->trump;
    int third = (p + 1) & 3, part = (p + 2) & 3;
    S2->ls = ls;
    S2->lr = P->trank[0];
    S2->trumps = tr != DDS_NT && live[tr];
    S2->th = P->hand[third][ls];
    S2->ph = P->hand[part][ls];
    S2->max3 = top_or(S2->th, -1);
    S2->maxp = top_or(S2->ph, -1);
    S2->min3 = low_or(S2->th, -1);
    S2->minp = low_or(S2->ph, -1);
    S2->t3 = S2->trumps ? P->hand[third][tr] : 0;
    S2->tp = S2->trumps ? P->hand[part][tr] : 0;
    S2->lead_hm = P->hand[P->leader][ls];
    if (S2->trumps && ls == tr) S2->trumps = 2;
}

/* Score of second hand following with card r of hm (live: the suit's cards
 * in play): low when partner, fourth, wins anyway, else the cheapest card
 * beating the lead and third hand. */
static int second_score(const Second *S2, unsigned hm, unsigned live, int r) {
    int lr = S2->lr, max3 = S2->max3, maxp = S2->maxp, min3 = S2->min3, minp = S2->minp;
    unsigned th = S2->th, ph = S2->ph, t3 = S2->t3, tp = S2->tp;
    int depth = 1 + popc(live >> (r + 1));
    int R = r + 2;
    int seq = has_run_below(hm, live, r);
    if (!S2->trumps) {
        /* Partner beats the lead and third hand anyway: play low. */
        if (maxp > lr && maxp > max3) return -R;
        if (r > lr && r > max3) return 81 - R;
        if (min3 > r || minp > r) return -3 + depth;
        if (r < lr) return -11 + depth;
        return seq ? 10 + depth : 13 - R;
    }
    int win;
    if (S2->trumps == 2) { /* trumps led */
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
        if (maxp > lr && S2->lead_hm > ph) return 41 + depth;
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

/* Discards by seat p, out of the suit led, from side suit s (any suit in
 * notrump): every card of the suit scores this minus (rank + 2), so it is
 * computed once per suit. Discards come small from long suits, keeping a
 * guarded second-best card (Kx) and a bare top card. w is the index of the
 * card winning so far. */
static int discard_base(const Position *P, int p, int s, const unsigned live[4], int w) {
    int ls = P->tsuit[0], lr = P->trank[0], tr = P->trump, ply = P->ply;
    int trumps = tr != DDS_NT && live[tr];
    int next = (p + 1) & 3, part = (p + 2) & 3;
    int len = popc(P->hand[p][s]);
    int kx = len == 2 && nth_holder(P, live[s], s, 1) == p;
    if (!trumps) {
        int bare_top = len == 1 && nth_holder(P, live[s], s, 0) == p;
        if (ply == 1 && P->hand[part][ls] > (P->hand[next][ls] | 1u << lr))
            return len * 64 / 23 - (kx ? 2 : bare_top ? 3 : 0); /* partner wins */
        if (ply == 1) return len * 64 / 33 - (kx ? 6 : bare_top ? 8 : 0);
        if (ply == 2) return len * 64 / 24 - (kx || bare_top ? 4 : 0);
        return len * 64 / 27 - (kx ? 6 : bare_top ? 8 : 0);
    }
    if (ply == 1) {
        /* Partner, fourth, can win the trick: in the suit or by ruffing. */
        unsigned nt = P->hand[next][tr], pt = P->hand[part][tr];
        int follows = P->hand[next][ls] || !nt || ls == tr; /* third cannot ruff */
        int pwins = (follows && P->hand[part][ls] > (P->hand[next][ls] | 1u << lr)) ||
                    (!P->hand[part][ls] && pt && (P->hand[next][ls] || pt > nt));
        if (ls == tr) return pwins ? len * 64 / 44 : len * 64 / 36 - (kx ? 4 : 0);
        if (pwins) return 60 + len * 64 / 44;
        return -2 + len * 64 / 36 - (kx ? 4 : 0);
    }
    if (ply == 2) return len * 64 / 40;
    int val = len * 64 / 24 - (kx ? 2 : 0);
    if (ls == tr) return val;
    if (w == 1) return 25 + val; /* partner wins */
    return 14 + val;
}

/* Score of seat p, out of the side suit led, ruffing with trump r: ruffs go
 * in when they win and partner is not already winning. w is the index of
 * the card winning so far. */
static int ruff_score(const Position *P, int p, int r, const unsigned live[4], int w) {
    int ls = P->tsuit[0], lr = P->trank[0], tr = P->trump, ply = P->ply;
    int next = (p + 1) & 3, part = (p + 2) & 3;
    int len = popc(P->hand[p][tr]), R = r + 2;
    int depth = 1 + popc(live[tr] >> (r + 1));
    int kx = len == 2 && nth_holder(P, live[tr], tr, 1) == p;
    int ws = P->tsuit[w], wr = P->trank[w];
    unsigned nt = P->hand[next][tr], pt = P->hand[part][tr];
    if (ply == 1) {
        if (P->hand[next][ls] || (!P->hand[part][ls] && pt > nt) || (1u << r) > nt)
            return 24 - R + len * 64 / 44;
        return 15 - R + len * 64 / 36 - (kx ? 4 : 0); /* overruffed: make it cost */
    }
    if (ply == 2) {
        unsigned c4 = P->hand[next][ls];
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
    if (w == 1) return 2 - R + len * 64 / 24 - (kx ? 2 : 0); /* partner wins */
    if (ws == tr) return r > wr ? 33 + depth : -13 + depth;
    return 33 + depth;
}

int gen_moves(const Position *P, int tl, int p, Move *mv) {
    int n = 0, ply = P->ply;
    unsigned live[4];
    in_play(P, live);

    if (ply == 0) {
        for (int s = 0; s < 4; s++) {
            unsigned reps = run_tops(P->hand[p][s], live[s]);
            if (!reps) continue;
            LeadSuit L;
            lead_suit(P, p, s, live, tl, &L);
            while (reps) {
                int r = hibit(reps);
                reps &= ~(1u << r);
                add(mv, &n, s, r, lead_score(&L, p, r, live[s]));
            }
        }
    } else {
        int ls = P->tsuit[0];
        int w = trick_winner(P, ply);
        int ws = P->tsuit[w], wr = P->trank[w];
        int wseat = (P->leader + w) & 3;
        int partner_wins = (wseat & 1) == (p & 1);
        unsigned hm = P->hand[p][ls];
        if (hm && ply == 3) {
            /* Fourth hand following: the cheapest winner first, then low,
             * lowest first. The cards come out in that order: no sort. */
            unsigned reps = run_tops(hm, live[ls]);
            unsigned wins = !partner_wins && ws == ls ? reps & ~((2u << wr) - 1) : 0;
            for (unsigned m = wins; m; m &= m - 1) add(mv, &n, ls, __builtin_ctz(m), 0);
            for (unsigned m = reps & ~wins; m; m &= m - 1) add(mv, &n, ls, __builtin_ctz(m), 0);
            return n;
        }
        if (hm) {
            unsigned reps = run_tops(hm, live[ls]);
            Second S2;
            if (ply == 1) second_node(P, p, live, &S2);
            while (reps) {
                int r = hibit(reps);
                reps &= ~(1u << r);
                int sc;
                if (ply == 1) sc = second_score(&S2, hm, live[ls], r);
                else sc = third_score(P, p, r, live, w);
                add(mv, &n, ls, r, sc);
            }
        } else {
            int tr = P->trump;
            int trumps = tr != DDS_NT && live[tr];
            for (int s = 0; s < 4; s++) {
                unsigned reps = run_tops(P->hand[p][s], live[s]);
                if (!reps) continue;
                if (trumps && s == tr) {
                    while (reps) {
                        int r = hibit(reps);
                        reps &= ~(1u << r);
                        add(mv, &n, s, r, ruff_score(P, p, r, live, w));
                    }
                    continue;
                }
                int base = discard_base(P, p, s, live, w);
                while (reps) {
                    int r = hibit(reps);
                    reps &= ~(1u << r);
                    add(mv, &n, s, r, base - (r + 2));
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
