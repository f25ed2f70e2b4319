/* The compiled best-arrangement search (_arrange.c) and its candidate moves
 * (_arrange_moves.c): the types they share. */
#ifndef RUMMY_ARRANGE_H
#define RUMMY_ARRANGE_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef __SIZEOF_INT128__
#error "the rummy search core needs a compiler with unsigned __int128 (GCC, Clang)"
#endif
typedef unsigned __int128 u128;

#define RANKS 13
#define SUITED 52
#define ROW 26 /* bits per suit row of the state */
#define MAXST 256 /* statuses (the Python side sends larger spaces to its own search) */

typedef struct {
    u128 delta; /* the other naturals, as count fields (a run's: of its suit's row) */
    int16_t k; /* jokers it needs */
    int16_t map; /* which status map it applies */
} Move;

typedef struct {
    uint64_t lo, hi; /* hi holds the state's top 40 bits and the joker balance */
    uint32_t stamp, off;
    int32_t len;
} Slot;

typedef struct {
    uint16_t st;
    int32_t v;
} Entry;

typedef struct {
    /* the status space */
    int n, top, nmaps;
    uint8_t runs[MAXST], pure[MAXST], left[MAXST], jok[MAXST];
    uint16_t *maps; /* nmaps x n: stay, after_left, after_pure_run, after_run[room], after_set[room] */
    uint64_t *dom; /* n x words: the statuses at least as good as each */
    int words;
    /* the rules */
    int run_cap, run_min, ace, set_cap, set_min, set_max, single_k, single_room;
    int nlines;
    int8_t line[RANKS][RANKS]; /* per line, the ranks in place order */
    int8_t place[RANKS][RANKS]; /* per line, each rank's place (its index in ``line``) */
    /* candidate moves, kept across calls */
    Move *moves;
    size_t nmoves, capmoves;
    uint32_t *run_key, *run_off; /* open addressing: rank << 13 | ranks ahead, + 1 */
    uint16_t *run_len;
    size_t run_cap_slots, run_used;
    int32_t set_off[SUITED * 16];
    uint16_t set_len[SUITED * 16];
    /* the memo of one search */
    Slot *memo;
    size_t memo_slots, memo_used;
    uint32_t stamp;
    Entry *tables;
    size_t ntables, captables;
    /* one call's inputs */
    int points[SUITED];
    PyObject *points_obj; /* the tuple ``points`` was read from (held, so its id stays its own) */
    u128 wild_ones, wild_twos;
} Space;

static inline int popc(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static inline int ctz128(u128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static inline int grow(void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 256;
    while (c < need) c *= 2;
    void *p = realloc(*buf, c * size);
    if (!p) return 1;
    *buf = p;
    *cap = c;
    return 0;
}

static inline int min_int(int a, int b) { return a < b ? a : b; }
static inline int max_int(int a, int b) { return a > b ? a : b; }

/* Candidate moves (_arrange_moves.c): the offset of a state's run or set moves in
 * t->moves and their count in *len, -1 on failure; and starting the lists afresh. */
long arrange_run_moves(Space *t, int rank, uint32_t row, int *len);
long arrange_set_moves(Space *t, int face, u128 rest, int *len);
void arrange_clear_candidates(Space *t);

#endif
