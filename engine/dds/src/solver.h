/* Double-dummy search: zero-window alpha-beta over a position of bridge play.
 *
 * Seats: 0 = North, 1 = East, 2 = South, 3 = West; North-South are side 0.
 * Suits: 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades; strain 4 = notrump.
 * Ranks: 0 = deuce .. 12 = ace; a hand is one 13-bit mask per suit.
 */
#ifndef CT_DDS_SOLVER_H
#define CT_DDS_SOLVER_H

#include <stdint.h>

#include "tt.h"

#define DDS_NT 4

typedef struct {
    uint16_t hand[4][4]; /* [seat][suit], cards not yet played */
    int trump;           /* 0..3, or DDS_NT */
    int leader;          /* seat that led (or will lead) the current trick */
    int ply;             /* cards already on the table in the current trick */
    int tsuit[4], trank[4];
    /* Cards of each suit still in a hand: kept by the search (set from hand
     * when a problem starts), so the many rules asking for it need one load. */
    uint16_t held[4];
    uint16_t live[4]; /* and those in a hand or on the table, likewise */
} Position;

typedef struct {
    uint64_t nodes;       /* positions visited */
    uint64_t quick_cuts;  /* trick-boundary nodes answered by quick tricks */
    uint64_t later_cuts;  /* trick-boundary nodes answered by later-tricks rules */
    uint64_t searches;    /* zero-window searches started */
    uint64_t cut_first;   /* nodes cut off by their first move (ordering quality) */
    uint64_t cut_later;   /* nodes cut off by a later move */
    uint64_t all_moves;   /* nodes where every move had to be searched */
    uint64_t by_ply[4];   /* nodes by cards already on the table */
} SearchStats;

typedef struct Solver Solver;

/* `exact`: keep the bounds in the exact-position 8-byte table (the seed's
 * design) instead of the winning-ranks table (the default, faster). */
Solver *solver_new(size_t tt_bytes, int use_bloom, int exact);
void solver_free(Solver *s);
/* Starts a new problem: drops the table and relearns the deal. */
void solver_reset(Solver *s);
const TTStats *solver_tt_stats(const Solver *s);
const SearchStats *solver_stats(const Solver *s);
size_t solver_tt_bytes(const Solver *s);

/* Validates a position: returns NULL when playable, else a message. */
const char *position_check(const Position *p);

/* Tricks the side of the player to move takes from here on (the current
 * trick included), with best play by both sides. */
int solver_solve(Solver *s, const Position *p);

/* Like solver_solve, and one card that keeps that result (face
 * suit * 13 + rank) in *card. */
int solver_best(Solver *S, const Position *p, int *card);

/* Like solver_solve, and also the score of every legal card: out_cards get
 * suit * 13 + rank, out_scores the tricks for the mover's side after it.
 * Returns the number of legal cards. */
int solver_scores(Solver *s, const Position *p, int *best, int out_cards[13], int out_scores[13]);

/* The 5 x 4 table: out[strain * 4 + leader] = tricks the leader's side takes
 * when `leader` leads to the first trick in `strain` (only p->hand is read). */
void solver_table(Solver *s, const Position *p, int out[20]);

#endif
