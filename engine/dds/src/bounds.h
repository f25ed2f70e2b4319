/* Cutoff rules of the search (bounds.c). */
#ifndef CT_DDS_BOUNDS_H
#define CT_DDS_BOUNDS_H

#include "solver.h"

/* With one card each left: does North-South win the last trick? `win`
 * gets the winning card's rank when it beat another card of its suit. */
int last_trick_ns(const Position *P, uint16_t win[4]);

/* Tricks the leader's side can take at once: a lower bound on its tricks.
 * The leader cashes its own winners, then, if it can reach partner's top
 * card in a suit it holds, partner cashes its winners (partner has room to
 * keep them and the entry: it discards the other cards first). With the
 * opponents out of trumps, the longer trump holding of the side scores every
 * trump, plus a ruff in the short hand. When the leader's top trumps draw
 * the opponents' trumps, its side suits count as if nobody could ruff.
 * Counting stops at `goal` (the tricks that settle the question). */
int quick_tricks(const Position *P, int p, int goal, uint16_t win[4]);

/* Later tricks (DDS's rules) at a trick start with tl tricks left: trick
 * counts one side is sure of, whoever wins the race for the lead. Returns
 * 1 or 0 when they decide "can North-South take `need`?", else -1; `win`
 * gets the ranks the answer depends on. */
int later_tricks(const Position *P, int tl, int need, const unsigned live[4], uint16_t win[4]);

/* Quick tricks for the second hand's side (DDS's rule, ply 1): it wins the
 * trick when it can ruff and third hand cannot, or when its best card of the
 * led suit beats the led card and third hand's cards and third hand cannot
 * ruff. The trick's winner then cashes as in winner_cashes (a ruffer keeps
 * all but its lowest trump). Returns the tricks counted up to `goal`, the
 * current one included (0 when the trick is not sure), and in `win` the
 * cards they depend on. */
int second_hand_tricks(const Position *P, int goal, uint16_t win[4]);

#endif
