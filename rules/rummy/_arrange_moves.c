/* The candidate moves of the compiled search (_arrange.c), built as
 * rules/rummy/moves.py builds them (_reach, _least_spans, _run_candidates,
 * _set_candidates) and in the same order, kept across calls: runs per (rank, the
 * ranks ahead within reach), sets per (face, the suits above it ahead). */
#include "_arrange.h"

#define NONE 14 /* no span yet (more than any run's) */

static int reach(const Space *t, int rank, int higher) {
    int keep = 0;
    for (int l = 0; l < t->nlines; l++) {
        int at = t->place[l][rank];
        for (int step = 1; step >= -1; step -= 2) {
            int gaps = 0;
            for (int i = at + step; i >= 0 && i < RANKS; i += step) {
                int r = t->line[l][i];
                if (higher >> r & 1) keep |= 1 << r;
                else if (++gaps > t->run_cap) break;
            }
        }
    }
    return higher & keep;
}

typedef struct {
    int n, base, cap;
    int place[RANKS], bit[RANKS];
    uint8_t *spans;
} Walk;

static void walk(const Walk *w, int i, int first, int n, int mask, int has_base) {
    int end = has_base ? w->n : w->base + 1;
    for (int j = i; j < end; j++) {
        int place = w->place[j];
        int lo = n == 0 ? place : first;
        if (place - lo + 1 - (n + 1) > w->cap) break;
        int sub = mask | w->bit[j];
        int with_base = has_base || j == w->base;
        if (with_base && w->spans[sub] > place - lo + 1) w->spans[sub] = (uint8_t)(place - lo + 1);
        walk(w, j + 1, lo, n + 1, sub, with_base);
    }
}

static int add_move(Space *t, u128 delta, int k, int map) {
    if (grow((void **)&t->moves, &t->capmoves, t->nmoves + 1, sizeof(Move))) return 1;
    Move *m = &t->moves[t->nmoves++];
    m->delta = delta;
    m->k = (int16_t)k;
    m->map = (int16_t)map;
    return 0;
}

/* map numbers: 0 stay, 1 after_left, 2 after_pure_run, 3 + room after_run, 4 + top + room after_set */
static int build_runs(Space *t, int rank, int higher) {
    int others[RANKS], no = 0;
    for (int r = 0; r < RANKS; r++)
        if (higher >> r & 1) others[no++] = r;
    uint8_t spans[1 << 12];
    memset(spans, NONE, (size_t)1 << no);
    Walk w = {.cap = t->run_cap, .spans = spans};
    for (int l = 0; l < t->nlines; l++) {
        w.n = 0;
        for (int i = 0; i < RANKS; i++) { /* rank and others, in place order */
            int r = t->line[l][i];
            if (r == rank) {
                w.base = w.n;
                w.bit[w.n] = 0;
            } else if (higher >> r & 1) {
                int b = 0;
                while (others[b] != r) b++;
                w.bit[w.n] = 1 << b;
            } else {
                continue;
            }
            w.place[w.n++] = t->place[l][r];
        }
        walk(&w, 0, 0, 0, 0, 0);
    }
    for (int k = 0; k <= RANKS; k++) /* sorted by jokers, then by mask */
        for (int mask = 0; mask < 1 << no; mask++) {
            if (spans[mask] == NONE) continue;
            int n = 1 + __builtin_popcount((unsigned)mask), span = spans[mask];
            int need = max_int(0, max_int(t->run_min - n, span - n));
            int room = min_int(t->run_cap, RANKS - n) - need;
            if (need != k || room < 0) continue;
            u128 delta = 0;
            for (int b = 0; b < no; b++)
                if (mask >> b & 1) delta |= (u128)1 << (2 * others[b]);
            int fail;
            if (k == 0) {
                fail = add_move(t, delta, 0, 2);
                if (!fail && room && t->top) fail = add_move(t, delta, 0, 3 + min_int(room, t->top));
            } else {
                fail = add_move(t, delta, k, 3 + min_int(room, t->top));
            }
            if (fail) return 1;
        }
    return 0;
}

static int build_sets(Space *t, int face, int higher) {
    int suit = face / RANKS, rank = face % RANKS, others[4], no = 0;
    for (int s = suit + 1; s < 4; s++)
        if (higher >> s & 1) others[no++] = s;
    for (int k = 0; k <= 4; k++) /* sorted by jokers, stable */
        for (int mask = 0; mask < 1 << no; mask++) {
            int n = 1 + __builtin_popcount((unsigned)mask);
            int need = max_int(0, t->set_min - n);
            int room = min_int(t->set_cap, t->set_max - n) - need;
            if (need != k || room < 0) continue;
            if (n == 1 && need == t->single_k && room <= t->single_room) continue;
            u128 delta = 0;
            for (int b = 0; b < no; b++)
                if (mask >> b & 1) delta |= (u128)1 << (2 * (others[b] * RANKS + rank));
            if (add_move(t, delta, k, 4 + t->top + min_int(room, t->top))) return 1;
        }
    return 0;
}

static inline uint32_t mix32(uint32_t x) {
    x *= 0x9E3779B1u;
    return x ^ (x >> 15);
}

/* The run moves of the lowest card (``rank``) with ``row`` (its suit's counts still
 * ahead): the offset of the list in t->moves, its length in *len; -1 on failure. */
long arrange_run_moves(Space *t, int rank, uint32_t row, int *len) {
    int higher = 0;
    for (int r = 0; r < RANKS; r++)
        if (row >> (2 * r) & 3) higher |= 1 << r;
    higher = reach(t, rank, higher & ~(1 << rank));
    uint32_t key = ((uint32_t)rank << RANKS | (uint32_t)higher) + 1;
    size_t mask = t->run_cap_slots - 1, i = mix32(key) & mask;
    while (t->run_key[i]) {
        if (t->run_key[i] == key) {
            *len = t->run_len[i];
            return t->run_off[i];
        }
        i = (i + 1) & mask;
    }
    size_t start = t->nmoves;
    if (build_runs(t, rank, higher)) return -1;
    t->run_key[i] = key;
    t->run_off[i] = (uint32_t)start;
    t->run_len[i] = (uint16_t)(t->nmoves - start);
    *len = t->run_len[i];
    if (++t->run_used * 2 > t->run_cap_slots) { /* rehash into twice the slots */
        size_t n = t->run_cap_slots * 2;
        uint32_t *k2 = calloc(n, 4), *o2 = malloc(n * 4);
        uint16_t *l2 = malloc(n * 2);
        if (!k2 || !o2 || !l2) {
            free(k2), free(o2), free(l2);
            return -1;
        }
        for (size_t j = 0; j < t->run_cap_slots; j++) {
            if (!t->run_key[j]) continue;
            size_t p = mix32(t->run_key[j]) & (n - 1);
            while (k2[p]) p = (p + 1) & (n - 1);
            k2[p] = t->run_key[j], o2[p] = t->run_off[j], l2[p] = t->run_len[j];
        }
        free(t->run_key), free(t->run_off), free(t->run_len);
        t->run_key = k2, t->run_off = o2, t->run_len = l2, t->run_cap_slots = n;
    }
    return (long)start;
}

long arrange_set_moves(Space *t, int face, u128 rest, int *len) {
    int suit = face / RANKS, rank = face % RANKS, higher = 0;
    for (int s = suit + 1; s < 4; s++)
        if ((rest >> (ROW * s + 2 * rank)) & 3) higher |= 1 << s;
    int key = face << 4 | higher;
    if (t->set_off[key] < 0) {
        size_t start = t->nmoves;
        if (build_sets(t, face, higher)) return -1;
        t->set_off[key] = (int32_t)start;
        t->set_len[key] = (uint16_t)(t->nmoves - start);
    }
    *len = t->set_len[key];
    return t->set_off[key];
}

void arrange_clear_candidates(Space *t) {
    t->nmoves = 0;
    memset(t->run_key, 0, t->run_cap_slots * 4);
    t->run_used = 0;
    for (int i = 0; i < SUITED * 16; i++) t->set_off[i] = -1;
}
