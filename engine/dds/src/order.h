/* Move ordering of the search (order.c). */
#ifndef CT_DDS_ORDER_H
#define CT_DDS_ORDER_H

#include "solver.h"

typedef struct {
    int8_t s, r;
    int16_t score;
} Move;

/* The legal cards of seat p (the player to move in P, tl tricks left), one
 * per run of equivalent cards, best first; returns how many. */
int gen_moves(const Position *P, int tl, int p, Move *mv);

#endif
