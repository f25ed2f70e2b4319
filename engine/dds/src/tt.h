/* Transposition table of 8-byte entries with Robin Hood hashing.
 *
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
 * slots may take; the table starts small and doubles up to that. */
int tt_init(TT *t, size_t cap_bytes, int use_bloom);
void tt_free(TT *t);
/* Forget every entry (new deal or new strain). */
void tt_clear(TT *t);
/* Finds key; on a hit sets *lo and *hi and returns 1. */
int tt_probe(TT *t, uint64_t key, int *lo, int *hi);
/* Records bounds for key, tightening an existing entry. */
void tt_store(TT *t, uint64_t key, int lo, int hi);
size_t tt_bytes(const TT *t);

#endif
