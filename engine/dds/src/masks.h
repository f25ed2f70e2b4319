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

/* The k highest cards of mask m: whichever end of m has fewer cards to
 * walk over (m &= m - 1 drops the lowest card in one step). */
static inline unsigned top_cards(unsigned m, int k) {
    int drop = popc(m) - k;
    if (drop <= 0) return m;
    if (drop <= k) {
        while (drop-- > 0) m &= m - 1;
        return m;
    }
    unsigned res = 0;
    while (k-- > 0) {
        unsigned b = 1u << hibit(m);
        res |= b;
        m ^= b;
    }
    return res;
}

/* The k-th highest card of mask m (k from 1), or -1. */
static inline int kth_card(unsigned m, int k) {
    while (--k > 0 && m) m &= ~(1u << hibit(m));
    return m ? hibit(m) : -1;
}

/* Cards of suit s still in a hand. */
static inline unsigned held(const Position *P, int s) { return P->held[s]; }

/* Consecutive top cards of mask `all` that are in `mine`: every card above
 * the highest card of another hand. */
static inline int top_run_of(unsigned mine, unsigned all) {
    unsigned others = all & ~mine;
    return others ? popc(all >> (hibit(others) + 1)) : popc(all);
}

/* Consecutive top cards of suit s held by seat p. */
static inline int top_run(const Position *P, int p, int s) {
    return top_run_of(P->hand[p][s], held(P, s));
}

/* A byte's bits in reverse order. */
#define REV2(n) n, n + 2 * 64, n + 1 * 64, n + 3 * 64
#define REV4(n) REV2(n), REV2(n + 2 * 16), REV2(n + 1 * 16), REV2(n + 3 * 16)
#define REV6(n) REV4(n), REV4(n + 2 * 4), REV4(n + 1 * 4), REV4(n + 3 * 4)
static const unsigned char REV8[256] = {REV6(0), REV6(2), REV6(1), REV6(3)};

static inline unsigned rev16(unsigned x) { return (unsigned)REV8[x & 255] << 8 | REV8[x >> 8]; }

/* Cards of `hm` that head a run of equivalent cards: the next higher card
 * in `live` (the cards still in play) is not in the same hand. Those are the
 * next live cards below each card of another hand and below the ace's place.
 * Carries run upwards, so in reversed bit order one addition carries each
 * such start through the gaps (cards gone) to that card: every run of the
 * suit at once, without a loop over the cards. */
static inline unsigned run_tops(unsigned hm, unsigned live) {
    if (!(hm & (hm - 1))) return hm; /* no card or one: often */
    unsigned gaps = rev16(~live & 0x1FFF), others = rev16((live & ~hm) | 1u << 13);
    unsigned land = (gaps + (others << 1)) & ~gaps;
    return rev16(land & 0xFFFF) & hm;
}

/* Cards of each suit still in play: in a hand or on the table. */
static inline void in_play(const Position *P, unsigned live[4]) {
    for (int s = 0; s < 4; s++) live[s] = P->live[s];
}

#endif
