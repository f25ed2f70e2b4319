/* Small helpers on rank masks and the trick on the table, shared by the
 * search (solver.c), its cutoff rules (bounds.c) and its move ordering
 * (order.c). */
#ifndef CT_DDS_MASKS_H
#define CT_DDS_MASKS_H

#include "solver.h"

static inline int hibit(unsigned m) { return 31 - __builtin_clz(m); }
/* Bit count of a 16-bit mask: the popcnt instruction when the build may
 * use it (setup.py asks for it where the CPU has it), else without a library
 * call (builds without -mpopcnt turn __builtin_popcount into one). */
static inline int popc(unsigned m) {
#ifdef __POPCNT__
    return __builtin_popcount(m);
#else
    m = m - ((m >> 1) & 0x5555u);
    m = (m & 0x3333u) + ((m >> 2) & 0x3333u);
    m = (m + (m >> 4)) & 0x0F0Fu;
    return (int)((m + (m >> 8)) & 0x1Fu);
#endif
}

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

/* Cards of suit s still in a hand. */
static inline unsigned held(const Position *P, int s) {
    return P->hand[0][s] | P->hand[1][s] | P->hand[2][s] | P->hand[3][s];
}

/* Cards of each suit still in play: in a hand or on the table. */
static inline void in_play(const Position *P, unsigned live[4]) {
    for (int s = 0; s < 4; s++) live[s] = held(P, s);
    for (int i = 0; i < P->ply; i++) live[P->tsuit[i]] |= 1u << P->trank[i];
}

#endif
