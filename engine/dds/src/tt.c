/* Robin Hood hash table of packed positions; see tt.h for the entry layout. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#define MIN_BITS 14        /* 128 KiB to start: small problems stay small */
#define MAX_PROBE 48       /* a carried entry displaced further is dropped */
#define VICTIM_WINDOW 8    /* slots examined for a cheaper entry when full */
#define LOAD_NUM 7         /* grow or replace above 7/8 load */
#define LOAD_DEN 8

static const uint64_t MUL_HOME = UINT64_C(0x9E3779B97F4A7C15);
static const uint64_t MUL_BLOOM = UINT64_C(0xC2B2AE3D27D4EB4F);

static inline size_t home(const TT *t, uint64_t key) {
    return (size_t)((key * MUL_HOME) >> (64 - t->bits));
}

static inline int live(const TT *t, uint64_t e) { return (unsigned)(e >> 62) == t->gen; }

static inline size_t dist(const TT *t, uint64_t e, size_t i) {
    return (i - home(t, e & TT_KEY_MASK)) & (t->size - 1);
}

static inline int work(uint64_t e) { return __builtin_popcountll(e & TT_CARD_MASK); }

static inline uint64_t pack(const TT *t, uint64_t key, int lo, int hi) {
    return key | ((uint64_t)lo << 54) | ((uint64_t)hi << 58) | ((uint64_t)t->gen << 62);
}

/* Double hashing: three bit positions taken from the top bits of h1 + k*h2. */
static inline size_t bloom_bit(const TT *t, uint64_t key, int k) {
    uint64_t h1 = key * MUL_BLOOM;
    uint64_t h2 = ((key ^ (key >> 29)) * MUL_HOME) | 1;
    return (size_t)((h1 + (uint64_t)k * h2) >> (64 - t->bloom_bits));
}

static void bloom_add(TT *t, uint64_t key) {
    for (int k = 0; k < 3; k++) {
        size_t b = bloom_bit(t, key, k);
        t->bloom[b >> 6] |= UINT64_C(1) << (b & 63);
    }
}

static int bloom_maybe(const TT *t, uint64_t key) {
    for (int k = 0; k < 3; k++) {
        size_t b = bloom_bit(t, key, k);
        if (!(t->bloom[b >> 6] & (UINT64_C(1) << (b & 63)))) return 0;
    }
    return 1;
}

static int alloc_arrays(TT *t, int bits) {
    size_t size = (size_t)1 << bits;
    uint64_t *slots = calloc(size, sizeof(uint64_t));
    if (!slots) return -1;
    uint64_t *bloom = NULL;
    if (t->use_bloom) {
        /* 8 Bloom bits per slot: about 2% false positives at full load. */
        bloom = calloc(size / 8 + 1, sizeof(uint64_t));
        if (!bloom) {
            free(slots);
            return -1;
        }
    }
    free(t->slots);
    free(t->bloom);
    t->slots = slots;
    t->bloom = bloom;
    if (bloom) t->bloom_bits = bits + 3;
    t->size = size;
    t->bits = bits;
    t->count = 0;
    return 0;
}

int tt_init(TT *t, size_t cap_bytes, int use_bloom) {
    memset(t, 0, sizeof *t);
    t->gen = 1;
    if (cap_bytes == 0) return 0; /* an unused table: nothing allocated */
    size_t max_size = (size_t)1 << MIN_BITS;
    while (max_size * 2 * sizeof(uint64_t) <= cap_bytes) max_size *= 2;
    t->max_size = max_size;
    t->gen = 1;
    t->use_bloom = use_bloom;
    int bits = MIN_BITS;
    while (((size_t)1 << bits) > max_size) bits--;
    return alloc_arrays(t, bits);
}

void tt_free(TT *t) {
    free(t->slots);
    free(t->bloom);
    t->slots = NULL;
    t->bloom = NULL;
}

void tt_clear(TT *t) {
    /* Two bits of generation let three clears in a row cost nothing; every
     * third one wipes the memory for real. */
    if (t->gen == 3) {
        if (t->slots) memset(t->slots, 0, t->size * sizeof(uint64_t));
        t->gen = 1;
    } else {
        t->gen++;
    }
    if (t->bloom) memset(t->bloom, 0, (t->size / 8 + 1) * sizeof(uint64_t));
    t->count = 0;
}

size_t tt_bytes(const TT *t) {
    return t->size * sizeof(uint64_t) + (t->bloom ? (t->size / 8 + 1) * sizeof(uint64_t) : 0);
}

/* Plain Robin Hood insertion of an entry known to be absent. */
static void insert(TT *t, uint64_t e) {
    size_t mask = t->size - 1;
    size_t i = home(t, e & TT_KEY_MASK);
    size_t d = 0;
    for (;;) {
        uint64_t cur = t->slots[i];
        if (!live(t, cur)) {
            t->slots[i] = e;
            t->count++;
            return;
        }
        size_t cd = dist(t, cur, i);
        if (cd < d) {
            t->slots[i] = e;
            e = cur;
            d = cd;
        }
        i = (i + 1) & mask;
        if (++d > MAX_PROBE) {
            /* The carried entry is the one furthest from home; losing it keeps
             * every probe short. */
            t->stats.drops++;
            return;
        }
    }
}

static void grow(TT *t) {
    uint64_t *old = t->slots;
    size_t old_size = t->size;
    unsigned gen = t->gen;
    t->slots = NULL;
    uint64_t *old_bloom = t->bloom;
    t->bloom = NULL;
    if (alloc_arrays(t, t->bits + 1) != 0) {
        /* Out of memory: keep the old table and stop growing. */
        t->slots = old;
        t->bloom = old_bloom;
        if (old_bloom) t->bloom_bits = t->bits + 3;
        t->max_size = old_size;
        return;
    }
    free(old_bloom);
    t->stats.grows++;
    for (size_t i = 0; i < old_size; i++) {
        uint64_t e = old[i];
        if ((unsigned)(e >> 62) == gen) {
            insert(t, e);
            if (t->bloom) bloom_add(t, e & TT_KEY_MASK);
        }
    }
    free(old);
}

/* Backward-shift deletion keeps the Robin Hood invariant without tombstones. */
static void delete_at(TT *t, size_t j) {
    size_t mask = t->size - 1;
    for (;;) {
        size_t n = (j + 1) & mask;
        uint64_t cur = t->slots[n];
        if (!live(t, cur) || dist(t, cur, n) == 0) {
            t->slots[j] = 0;
            break;
        }
        t->slots[j] = cur;
        j = n;
    }
    t->count--;
}

static long find(const TT *t, uint64_t key) {
    size_t mask = t->size - 1;
    size_t i = home(t, key);
    for (size_t d = 0;; d++) {
        uint64_t e = t->slots[i];
        if (!live(t, e)) return -1;
        if ((e & TT_KEY_MASK) == key) return (long)i;
        if (dist(t, e, i) < d) return -1;
        i = (i + 1) & mask;
    }
}

int tt_probe(TT *t, uint64_t key, int *lo, int *hi) {
    t->stats.probes++;
    if (t->bloom && !bloom_maybe(t, key)) {
        t->stats.bloom_skips++;
        return 0;
    }
    long i = find(t, key);
    if (i < 0) return 0;
    uint64_t e = t->slots[i];
    *lo = (int)((e >> 54) & 15);
    *hi = (int)((e >> 58) & 15);
    t->stats.hits++;
    return 1;
}

void tt_store(TT *t, uint64_t key, int lo, int hi) {
    long i = find(t, key);
    if (i >= 0) {
        uint64_t e = t->slots[i];
        int olo = (int)((e >> 54) & 15), ohi = (int)((e >> 58) & 15);
        if (olo > lo) lo = olo;
        if (ohi < hi) hi = ohi;
        t->slots[i] = pack(t, key, lo, hi);
        t->stats.updates++;
        return;
    }
    if (t->count * LOAD_DEN >= t->size * LOAD_NUM) {
        if (t->size < t->max_size) {
            grow(t);
        } else {
            /* Full: the new entry may only take the place of the cheapest
             * entry near its home, and only if it saves more work. */
            size_t mask = t->size - 1;
            size_t j = home(t, key), victim = 0;
            int best = 99, w = __builtin_popcountll(key & TT_CARD_MASK);
            for (int k = 0; k < VICTIM_WINDOW; k++, j = (j + 1) & mask) {
                uint64_t e = t->slots[j];
                if (!live(t, e)) {
                    best = -1;
                    break;
                }
                int ew = work(e);
                if (ew < best) {
                    best = ew;
                    victim = j;
                }
            }
            if (best >= w) {
                t->stats.drops++;
                return;
            }
            if (best >= 0) {
                delete_at(t, victim);
                t->stats.evictions++;
            }
        }
    }
    insert(t, pack(t, key, lo, hi));
    if (t->bloom) bloom_add(t, key);
    t->stats.stores++;
}

/* ---- winning-ranks table ------------------------------------------------ */

static const uint64_t MUL_WR = UINT64_C(0xD6E8FEB86659FD93);

static inline uint64_t wr_hash(uint64_t dist, int leader) {
    uint64_t h = (dist ^ ((uint64_t)leader << 62) ^ (dist >> 31)) * MUL_WR;
    return h ^ (h >> 29);
}

/* Holders are kept top-aligned: the top card's holder in bits 24..25, the
 * next one in 22..23, and so on; KMASK[k] keeps the top k. */
static const uint32_t KMASK[16] = {
    0,         0x3000000, 0x3C00000, 0x3F00000, 0x3FC0000, 0x3FF0000, 0x3FFC000, 0x3FFF000,
    0x3FFFC00, 0x3FFFF00, 0x3FFFFC0, 0x3FFFFF0, 0x3FFFFFC, 0x3FFFFFF, 0x3FFFFFF, 0x3FFFFFF};

int wr_init(WRT *t, size_t cap_bytes) {
    memset(t, 0, sizeof *t);
    /* Three eighths of the bytes (rounded down to a power of two) for the
     * list index, the rest for the entries: the bots' lists hold about six
     * entries each, and with a quarter the index filled first, shedding
     * while the pool was still only 77-90% full. */
    size_t nl = 64;
    while (nl * 2 * sizeof(WRList) <= cap_bytes * 3 / 8) nl *= 2;
    size_t index_bytes = nl * sizeof(WRList);
    size_t ne = cap_bytes > index_bytes ? (cap_bytes - index_bytes) / sizeof(WREntry) : 0;
    if (ne < 256) ne = 256; /* the smallest table: a little over tiny caps */
    t->lists = calloc(nl, sizeof(WRList));
    t->pool = malloc(ne * sizeof(WREntry));
    if (!t->lists || !t->pool) {
        wr_free(t);
        return -1;
    }
    t->nlists = nl;
    t->nentries = ne;
    t->gen = 1;
    t->max_tl = 13;
    return 0;
}

void wr_free(WRT *t) {
    free(t->lists);
    free(t->pool);
    t->lists = NULL;
    t->pool = NULL;
}

void wr_clear(WRT *t) {
    if (t->gen == 255) {
        memset(t->lists, 0, t->nlists * sizeof(WRList));
        t->gen = 1;
    } else {
        t->gen++;
    }
    t->used_lists = 0;
    t->used_entries = 0;
}

size_t wr_bytes(const WRT *t) {
    return t->nlists * sizeof(WRList) + t->used_entries * sizeof(WREntry);
}

static inline size_t wr_slot(const WRT *t, uint64_t dist, int leader, unsigned sub) {
    return (size_t)(wr_hash(dist ^ (uint64_t)sub * UINT64_C(0x9E3779B97F4A7C15), leader) >> 20) &
           (t->nlists - 1);
}

/* The list of (dist, leader, sub), or where it would go, searched from its
 * slot i. */
static inline WRList *wr_list_from(WRT *t, size_t i, uint64_t dist, int leader, unsigned sub) {
    size_t mask = t->nlists - 1;
    for (;;) {
        WRList *l = &t->lists[i];
        if (l->gen != t->gen) return l;
        if (l->dist == dist && l->leader == leader && l->sub == sub) return l;
        i = (i + 1) & mask;
    }
}

static inline WRList *wr_list(WRT *t, uint64_t dist, int leader, unsigned sub) {
    return wr_list_from(t, wr_slot(t, dist, leader, sub), dist, leader, sub);
}

/* Entries of one (leader, lengths) are split by which suits have no relevant
 * card (4 bits, "wild") and the holder of the top card of the other suits
 * (2 bits each): a probe scans, for each such wild set present, only the list
 * of its own top holders. The list with sub = WR_HEADER keeps in `start` the
 * wild sets present. */
#define WR_HEADER 0xFFFFu

/* The top holders of all four suits, 2 bits each (suit s at bits 2s). */
static inline unsigned top_holders(const uint32_t order[4]) {
    return (order[0] >> 24 & 3) | (order[1] >> 22 & 12) | (order[2] >> 20 & 48) | (order[3] >> 18 & 192);
}

/* WILD2[w]: the 2-bit fields of the suits in the wild set w. */
static const uint8_t WILD2[16] = {0x00, 0x03, 0x0C, 0x0F, 0x30, 0x33, 0x3C, 0x3F,
                                  0xC0, 0xC3, 0xCC, 0xCF, 0xF0, 0xF3, 0xFC, 0xFF};

static inline unsigned sub_of(unsigned wild, unsigned tops) {
    return wild | (tops & ~(unsigned)WILD2[wild]) << 4;
}

static int scan(const WRT *t, const WRList *l, const uint32_t order[4], int need, uint8_t k[4],
                int *hit) {
    /* Newest first: later entries come from deeper searches of the class. */
    const WREntry *base = t->pool + l->start;
    for (long i = (long)l->n - 1; i >= 0; i--) {
        const WREntry *x = &base[i];
        if (((order[0] & KMASK[x->ok[0] >> 26]) ^ (x->ok[0] & 0x3FFFFFF)) |
            ((order[1] & KMASK[x->ok[1] >> 26]) ^ (x->ok[1] & 0x3FFFFFF)) |
            ((order[2] & KMASK[x->ok[2] >> 26]) ^ (x->ok[2] & 0x3FFFFFF)) |
            ((order[3] & KMASK[x->ok[3] >> 26]) ^ (x->ok[3] & 0x3FFFFFF)))
            continue;
        *hit = 1;
        if (x->lo >= need || x->hi < need) {
            for (int s = 0; s < 4; s++) k[s] = (uint8_t)(x->ok[s] >> 26);
            return x->lo >= need;
        }
    }
    return -1;
}

void wr_prefetch(const WRT *t, uint64_t dist, int leader) {
    __builtin_prefetch(&t->lists[wr_slot(t, dist, leader, WR_HEADER)]);
}

int wr_probe(WRT *t, uint64_t dist, int leader, const uint32_t order[4], int need, uint8_t k[4]) {
    t->stats.probes++;
    WRList *h = wr_list(t, dist, leader, WR_HEADER);
    if (h->gen != t->gen) return -1;
    int hit = 0;
    unsigned tops = top_holders(order);
    /* Every sub-list slot first, so that their cache misses overlap. */
    size_t slot[16];
    int n = 0;
    for (unsigned pres = h->start; pres; pres &= pres - 1) {
        slot[n] = wr_slot(t, dist, leader, sub_of((unsigned)__builtin_ctz(pres), tops));
        __builtin_prefetch(&t->lists[slot[n++]]);
    }
    n = 0;
    for (unsigned pres = h->start; pres; pres &= pres - 1) {
        unsigned wild = (unsigned)__builtin_ctz(pres);
        WRList *l = wr_list_from(t, slot[n++], dist, leader, sub_of(wild, tops));
        if (l->gen != t->gen) continue;
        int v = scan(t, l, order, need, k, &hit);
        if (v >= 0) {
            t->stats.hits++;
            t->stats.cutoffs++;
            return v;
        }
    }
    t->stats.hits += (uint64_t)hit;
    return -1;
}

/* Cards each hand holds at a trick start: the tricks left, which measure the
 * work an entry of that group saves. */
static inline int tricks_left(uint64_t dist) {
    return (int)((dist & 15) + (dist >> 4 & 15) + (dist >> 8 & 15) + (dist >> 12 & 15));
}

/* Sorts lists by where their runs start in the pool (a radix sort: a shed
 * sorts a few hundred thousand lists, and qsort's calls cost more than the
 * search's work between sheds). Returns 0 when memory is short. */
static int sort_by_start(WRList *a, size_t n) {
    uint64_t *base = malloc(2 * n * sizeof *base);
    WRList *out = malloc(n * sizeof *out);
    if (!base || !out) {
        free(base);
        free(out);
        return 0;
    }
    uint64_t *key = base, *tmp = base + n;
    for (size_t i = 0; i < n; i++) key[i] = (uint64_t)a[i].start << 32 | i;
    for (int shift = 32; shift < 64; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++) count[(key[i] >> shift & 255) + 1]++;
        for (int d = 0; d < 256; d++) count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++) tmp[count[key[i] >> shift & 255]++] = key[i];
        uint64_t *t = key;
        key = tmp;
        tmp = t;
    }
    /* Four passes: the sorted keys are back in the first half. */
    for (size_t i = 0; i < n; i++) out[i] = a[key[i] & 0xFFFFFFFFu];
    memcpy(a, out, n * sizeof *out);
    free(base);
    free(out);
    return 1;
}

/* The pool or the index is full: keep the lists most recently placed in the
 * pool (a list moves to the pool's end when it grows) in at most half of
 * the pool and a quarter of the index, drop the rest and the groups no
 * search from the current root can reach, and pack the kept lists at the
 * front of the pool. Recent rather than the most tricks left: a warm
 * table's old groups belong to earlier deals and tricks of the play, which
 * the searches no longer reach, while the current decision's sampled deals
 * share many of the newest. Falls back to forgetting everything when no
 * memory is left for the bookkeeping. */
/* A live list of entries that a search from the current root can reach
 * (headers are rebuilt from the kept lists). */
static inline int wr_reachable(const WRT *t, const WRList *l) {
    return l->gen == t->gen && l->sub != WR_HEADER && tricks_left(l->dist) <= t->max_tl;
}

static void wr_shed(WRT *t) {
    size_t na = 0;
    for (size_t i = 0; i < t->nlists; i++) na += wr_reachable(t, &t->lists[i]);
    WRList *kept = na ? malloc(na * sizeof *kept) : NULL;
    size_t nk = 0, first = 0;
    if (kept) {
        for (size_t i = 0; i < t->nlists; i++)
            if (wr_reachable(t, &t->lists[i])) kept[nk++] = t->lists[i];
        if (sort_by_start(kept, nk)) {
            /* The newest lists, from the end; packing them in pool order
             * never overwrites a run not yet moved. */
            size_t mem = 0;
            first = nk;
            while (first > 0 && mem + kept[first - 1].n <= t->nentries / 2 &&
                   nk - first < t->nlists / 4)
                mem += kept[--first].n;
        } else {
            nk = 0;
        }
    }
    size_t used = 0;
    for (size_t i = first; i < nk; i++) {
        WRList *l = &kept[i];
        memmove(t->pool + used, t->pool + l->start, l->n * sizeof(WREntry));
        l->start = (uint32_t)used;
        l->cap = l->n;
        used += l->n;
    }
    size_t dropped = t->used_entries - used;
    wr_clear(t);
    size_t nl = 0;
    for (size_t i = first; i < nk; i++) {
        WRList *l = wr_list(t, kept[i].dist, kept[i].leader, kept[i].sub);
        *l = kept[i];
        l->gen = t->gen;
        nl++;
        WRList *h = wr_list(t, kept[i].dist, kept[i].leader, WR_HEADER);
        if (h->gen != t->gen) {
            h->gen = t->gen;
            h->dist = kept[i].dist;
            h->leader = kept[i].leader;
            h->sub = WR_HEADER;
            h->start = h->n = h->cap = 0;
            nl++;
        }
        h->start |= 1u << (kept[i].sub & 15);
    }
    free(kept);
    t->used_lists = nl;
    t->used_entries = used;
    if (nl) t->stats.evictions += dropped;
    else t->stats.resets++;
}

/* Finds or makes the list (dist, leader, sub); NULL when the table had to
 * shed entries (the caller starts again). */
static WRList *wr_make(WRT *t, uint64_t dist, int leader, unsigned sub) {
    WRList *l = wr_list(t, dist, leader, sub);
    if (l->gen == t->gen) return l;
    if ((t->used_lists + 1) * 4 > t->nlists * 3) {
        wr_shed(t);
        return NULL;
    }
    l->gen = t->gen;
    l->dist = dist;
    l->leader = (uint8_t)leader;
    l->sub = (uint16_t)sub;
    l->start = l->n = l->cap = 0;
    t->used_lists++;
    return l;
}

void wr_store(WRT *t, uint64_t dist, int leader, const uint32_t order[4], const uint8_t k[4],
              int lo, int hi) {
    uint32_t ok[4];
    unsigned wild = 0;
    for (int s = 0; s < 4; s++) {
        ok[s] = (order[s] & KMASK[k[s]]) | (uint32_t)k[s] << 26;
        if (!k[s]) wild |= 1u << s;
    }
    unsigned sub = sub_of(wild, top_holders(order));
    WRList *h, *l;
    for (;;) {
        h = wr_make(t, dist, leader, WR_HEADER);
        if (!h) continue;
        l = wr_make(t, dist, leader, sub);
        if (l) break;
    }
    h->start |= 1u << wild;
    WREntry *base = t->pool + l->start;
    for (uint32_t i = 0; i < l->n; i++) {
        WREntry *x = &base[i];
        if (x->ok[0] != ok[0] || x->ok[1] != ok[1] || x->ok[2] != ok[2] || x->ok[3] != ok[3])
            continue;
        if (x->lo < lo) x->lo = (uint8_t)lo;
        if (x->hi > hi) x->hi = (uint8_t)hi;
        t->stats.updates++;
        return;
    }
    if (l->n == l->cap) {
        /* Move the list to a run twice as long at the end of the pool: one
         * list stays contiguous, so a probe reads it in order. */
        uint32_t cap = l->cap ? 2 * l->cap : 4;
        if (cap > t->nentries / 4) {
            /* One list this long would not fit even after shedding. */
            t->stats.evictions++;
            return;
        }
        if (t->used_entries + cap > t->nentries) {
            /* Pool full: shed the cheaper groups and store again. */
            wr_shed(t);
            wr_store(t, dist, leader, order, k, lo, hi);
            return;
        }
        memcpy(t->pool + t->used_entries, base, l->n * sizeof(WREntry));
        l->start = (uint32_t)t->used_entries;
        l->cap = cap;
        t->used_entries += cap;
    }
    WREntry *x = &t->pool[l->start + l->n++];
    memcpy(x->ok, ok, sizeof ok);
    x->lo = (uint8_t)lo;
    x->hi = (uint8_t)hi;
    t->stats.stores++;
}
