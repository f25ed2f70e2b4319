/* Two tables.
 *
 * 1. Exact table: 8-byte entries with Robin Hood hashing (the bounds when a
 *    Solver is made with exact=1; see solver.h).
 * Entry layout (one uint64_t, given the deal at the root of the search):
 *   bits  0..51  the remaining cards, 13 bits per suit (clubs at bit 0),
 *                 already reduced to the canonical relative-rank representative
 *   bits 52..53  the player on lead
 *   bits 54..57  lower bound on the North-South tricks still to come
 *   bits 58..61  upper bound on the North-South tricks still to come
 *   bits 62..63  generation (1..3); 0 means the slot is empty
 * The work an entry saves grows with the number of cards left (popcount of
 * bits 0..51), so the replacement rule needs no extra field.
 */
#ifndef CT_DDS_TT_H
#define CT_DDS_TT_H

#include <stddef.h>
#include <stdint.h>

#define TT_KEY_BITS 54
#define TT_KEY_MASK ((UINT64_C(1) << TT_KEY_BITS) - 1)
#define TT_CARD_MASK ((UINT64_C(1) << 52) - 1)

typedef struct {
    uint64_t probes;      /* lookups made */
    uint64_t hits;        /* lookups that found the position */
    uint64_t cutoffs;     /* hits whose bounds answered the question */
    uint64_t bloom_skips; /* lookups the Bloom filter answered "absent" */
    uint64_t stores;      /* new entries written */
    uint64_t updates;     /* bounds tightened on an existing entry */
    uint64_t evictions;   /* cheaper entries removed to make room */
    uint64_t drops;       /* entries not kept because the table was full */
    uint64_t grows;       /* times the table doubled */
} TTStats;

typedef struct {
    uint64_t *slots;
    size_t size;      /* slots in use now (power of two) */
    size_t max_size;  /* largest size the byte capacity allows */
    size_t count;     /* live entries */
    int bits;         /* log2(size) */
    unsigned gen;     /* current generation, 1..3 */
    int use_bloom;    /* screen lookups with the Bloom filter */
    uint64_t *bloom;  /* NULL when the Bloom filter is off */
    int bloom_bits;   /* log2 of the number of Bloom bits */
    TTStats stats;
} TT;

/* Returns 0 on success, -1 when memory is short. cap_bytes is the most the
 * slots may take (but never less than 128 KiB); the table starts small and
 * doubles up to that. cap_bytes 0 makes an unused table: nothing allocated,
 * never to be probed or stored into. */
int tt_init(TT *t, size_t cap_bytes, int use_bloom);
void tt_free(TT *t);
/* Forget every entry (new deal or new strain). */
void tt_clear(TT *t);
/* Finds key; on a hit sets *lo and *hi and returns 1. */
int tt_probe(TT *t, uint64_t key, int *lo, int *hi);
/* Records bounds for key, tightening an existing entry. */
void tt_store(TT *t, uint64_t key, int lo, int hi);
size_t tt_bytes(const TT *t);


/* 2. Winning-ranks table (the bounds the search uses): one entry holds for a whole class of trick-boundary
 * positions, those with the same player on lead, the same number of cards in
 * every suit in every hand, and, in each suit, the same holders of the top
 * k[suit] cards (counted among the cards still in play; k is the number of
 * cards down to the lowest "winning rank" the search found relevant).
 *
 * Entries of one (leader, lengths) are split into lists (see tt.c); a list
 * is one run of entries in a pool, oldest first, moved to a run twice as long
 * when it fills. The lists are found by open addressing. When the pool or
 * the list index is full, the lists least recently grown are dropped
 * (wr_shed in tt.c).
 */
typedef struct {
    uint32_t ok[4]; /* per suit: holders of the top k cards (2 bits each from
                       the top) in bits 0..25, k in bits 26..29 */
    uint8_t lo, hi;
} WREntry;

typedef struct {
    uint64_t dist;  /* lengths: 4 bits per (seat, suit), seat * 16 + suit * 4 */
    uint32_t start; /* first entry in the pool (a header list: the wild sets) */
    uint32_t n, cap;
    uint16_t sub;   /* which part of the (leader, lengths) entries, see tt.c */
    uint8_t leader, gen;
} WRList;

typedef struct {
    uint64_t probes, hits, cutoffs, stores, updates, evictions, resets;
} WRStats;

typedef struct {
    WRList *lists;
    size_t nlists; /* power of two */
    size_t used_lists;
    WREntry *pool;
    size_t nentries, used_entries;
    uint8_t gen;   /* current generation 1..255; a list of another is empty */
    int max_tl;    /* no search from the current root reaches a group with more tricks left */
    WRStats stats;
} WRT;

int wr_init(WRT *t, size_t cap_bytes);
void wr_free(WRT *t);
void wr_clear(WRT *t);
size_t wr_bytes(const WRT *t);
/* Looks for an entry matching the position (lengths `dist`, holders `order`
 * of each suit's cards, 2 bits a card, top-aligned: the top card's holder in
 * bits 24..25, the next in 22..23, ...) whose bounds decide "North-South take at
 * least `need`": returns 1 (yes) or 0 (no) and sets k[] to the entry's
 * relevant top cards; -1 when no entry decides. */
/* Starts loading the memory a probe of (dist, leader) reads first, so that
 * work done before the probe hides the cache miss. */
void wr_prefetch(const WRT *t, uint64_t dist, int leader);
int wr_probe(WRT *t, uint64_t dist, int leader, const uint32_t order[4], int need, uint8_t k[4]);
void wr_store(WRT *t, uint64_t dist, int leader, const uint32_t order[4], const uint8_t k[4],
              int lo, int hi);

#endif
