/* Cutoff rules of the search: quick tricks (at a trick start and in
 * mid-trick), later tricks and the last trick. Each returns, with its
 * answer, the winning ranks it depends on (see docs/dds.md). */
#include "bounds.h"

#include <string.h>

#include "masks.h"

/* See bounds.h. */
int last_trick_ns(const Position *P, uint16_t win[4]) {
    int ws = -1, wr = -1, wseat = P->leader;
    int cnt[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        int seat = (P->leader + i) & 3;
        int s = 0;
        while (!P->hand[seat][s]) s++;
        int r = hibit(P->hand[seat][s]);
        cnt[s]++;
        if (i == 0 || (s == ws && r > wr) || (s != ws && s == P->trump)) {
            ws = s;
            wr = r;
            wseat = seat;
        }
    }
    win[0] = win[1] = win[2] = win[3] = 0;
    if (cnt[ws] > 1) win[ws] = (uint16_t)(1u << wr);
    return !(wseat & 1);
}

/* Seat holding the card of suit s with rank r (which someone holds). */
static inline int holder_of(const Position *P, int s, int r) {
    int h = 0;
    while (!(P->hand[h][s] >> r & 1)) h++;
    return h;
}

/* Rounds of suit s that seat h cashes from the top while keeping the lead,
 * and in *w the cards that must stay where they are for it. Its top cards
 * win; once nobody else has a card left, so do its small ones. An opponent
 * with a trump ruffs when out of the suit: in a side suit, no more rounds
 * than a trump-holding opponent can follow to. */
static int cash_rounds(const Position *P, int h, int s, unsigned live, int drawn, uint16_t *w) {
    int k = top_run(P, h, s);
    *w = 0;
    if (!k) return 0;
    int tr = P->trump, lho = (h + 1) & 3, rho = (h + 3) & 3, part = (h + 2) & 3;
    int len_l = popc(P->hand[lho][s]), len_r = popc(P->hand[rho][s]);
    if (!drawn && tr != DDS_NT && s != tr && (P->hand[lho][tr] || P->hand[rho][tr])) {
        if (P->hand[lho][tr] && len_l < k) k = len_l;
        if (P->hand[rho][tr] && len_r < k) k = len_r;
        *w = (uint16_t)top_cards(live, k);
        return k;
    }
    *w = (uint16_t)top_cards(live, k);
    int len_p = popc(P->hand[part][s]);
    if (len_l <= k && len_r <= k && len_p <= k) return popc(P->hand[h][s]);
    return k;
}

/* Rounds of suit s that seat h and partner cash when h holds the top card
 * and partner the next one, both with a second card (Ax opposite Kx): two,
 * ending in either hand; all of the longer hand's cards when the opponents
 * have at most two and one of the side's hands at most two (so the long
 * hand keeps the lead). Limits against ruffs as in cash_rounds. */
static int cross_rounds(const Position *P, int h, int s, unsigned live, int drawn, uint16_t *w) {
    int part = (h + 2) & 3, lho = (h + 1) & 3, rho = (h + 3) & 3, tr = P->trump;
    int lh = popc(P->hand[h][s]), lq = popc(P->hand[part][s]);
    *w = 0;
    if (lh < 2 || lq < 2 || !(P->hand[h][s] >> hibit(live) & 1)) return 0;
    if (!(P->hand[part][s] >> kth_card(live, 2) & 1)) return 0;
    int k = 2;
    int len_l = popc(P->hand[lho][s]), len_r = popc(P->hand[rho][s]);
    if (!drawn && tr != DDS_NT && s != tr && (P->hand[lho][tr] || P->hand[rho][tr])) {
        if (P->hand[lho][tr] && len_l < k) k = len_l;
        if (P->hand[rho][tr] && len_r < k) k = len_r;
    } else if (len_l <= 2 && len_r <= 2 && (lh <= 2 || lq <= 2)) {
        k = lh > lq ? lh : lq;
    }
    *w = (uint16_t)top_cards(live, k < 2 ? k : 2);
    return k;
}

/* One trick for the leader's side by a ruff in partner's hand: the leader
 * leads a side suit partner is out of, and partner's ruff stands (an
 * opponent who is out of the suit too has only lower trumps). `win` gets
 * partner's top trump when it has to beat such an opponent. */
static int partner_ruffs(const Position *P, int p, uint16_t win[4]) {
    int tr = P->trump, part = (p + 2) & 3, lho = (p + 1) & 3, rho = (p + 3) & 3;
    if (tr == DDS_NT || !P->hand[part][tr]) return 0;
    int top = hibit(P->hand[part][tr]);
    for (int s = 0; s < 4; s++) {
        if (s == tr || !P->hand[p][s] || P->hand[part][s]) continue;
        unsigned over = 0; /* trumps of opponents who can ruff too */
        if (!P->hand[lho][s]) over |= P->hand[lho][tr];
        if (!P->hand[rho][s]) over |= P->hand[rho][tr];
        if (over && hibit(over) > top) continue;
        win[0] = win[1] = win[2] = win[3] = 0;
        if (over) win[tr] = (uint16_t)(1u << top);
        return 1;
    }
    return 0;
}

/* Picks items (item i: n[i] tricks in suit i % 4 depending on the cards
 * w[i]), those already in `taken` first, then those fixing the fewest cards,
 * until they reach `goal`, so that the answer holds for the widest class.
 * Returns the count taken; `win` gets the cards. */
static int pick_items(const int *n, const uint16_t *w, int items, unsigned taken, int goal,
                      uint16_t win[4]) {
    int got = 0;
    win[0] = win[1] = win[2] = win[3] = 0;
    for (int i = 0; i < items; i++)
        if (taken >> i & 1) {
            got += n[i];
            win[i & 3] |= w[i];
        }
    while (got < goal) {
        int b = -1;
        for (int i = 0; i < items; i++) {
            if ((taken >> i & 1) || !n[i]) continue;
            if (b < 0 || popc(w[i]) < popc(w[b]) || (popc(w[i]) == popc(w[b]) && n[i] > n[b]))
                b = i;
        }
        if (b < 0) break;
        taken |= 1u << b;
        /* The last item may need only its top few cards. */
        int r = goal - got;
        if (r < n[b] && r <= popc(w[b])) {
            got += r;
            win[b & 3] |= (uint16_t)top_cards(w[b], r);
        } else {
            got += n[b];
            win[b & 3] |= w[b];
        }
    }
    return got;
}

static int pick_suits(const int n[4], const uint16_t w[4], int goal, uint16_t win[4]) {
    return pick_items(n, w, 4, 0, goal, win);
}

/* The leader's and partner's cashes (see quick_tricks) up to `goal`;
 * `drawn`: the opponents' trumps are gone first, by the leader's top trumps
 * (an item then always taken). */
static int count_cashes(const Position *P, int p, int goal, int drawn, uint16_t win[4]) {
    int tr = P->trump, part = (p + 2) & 3;
    unsigned forced = drawn ? 1u << tr : 0;
    /* Items 0-3: the leader's suits; 4-7: partner's. */
    uint16_t w[8];
    int n[8], own = 0, other = 0;
    for (int s = 0; s < 4; s++) {
        unsigned live = held(P, s);
        n[s] = n[4 + s] = 0;
        w[s] = w[4 + s] = 0;
        /* Only the hand holding the top card cashes the suit (partner
         * through the cross when the leader holds it). */
        if (!live) continue;
        unsigned top = 1u << hibit(live);
        if (P->hand[p][s] & top) {
            n[s] = cash_rounds(P, p, s, live, drawn, &w[s]);
            uint16_t wx;
            int x = cross_rounds(P, p, s, live, drawn, &wx);
            if (x > n[s]) {
                n[s] = x;
                w[s] = wx;
            }
            /* A suit only one hand holds: its lengths say who holds what. */
            if (live == P->hand[p][s]) w[s] = 0;
            own += n[s];
        } else if (P->hand[part][s] & top) {
            n[4 + s] = cash_rounds(P, part, s, live, drawn, &w[4 + s]);
            if (live == P->hand[part][s]) w[4 + s] = 0;
            other += n[4 + s];
        }
    }
    if (own >= goal) return pick_items(n, w, 4, forced, goal, win);
    if (own + other >= goal) {
        /* Through the entry (partner's top card in a suit the leader holds)
         * that fixes the fewest cards in all. */
        int best = 0, cost = 99;
        uint16_t tw[4];
        for (int t = 0; t < 4; t++) {
            if (!n[4 + t] || !P->hand[p][t]) continue;
            int got = pick_items(n, w, 8, forced | 1u << (4 + t), goal, tw);
            int c = popc(tw[0]) + popc(tw[1]) + popc(tw[2]) + popc(tw[3]);
            if (c < cost) {
                cost = c;
                best = got;
                memcpy(win, tw, sizeof tw);
            }
        }
        if (best) return best;
    }
    return 0;
}

/* See bounds.h. */
int quick_tricks(const Position *P, int p, int goal, uint16_t win[4]) {
    int tr = P->trump, part = (p + 2) & 3;
    win[0] = win[1] = win[2] = win[3] = 0;
    if (tr != DDS_NT && !P->hand[(p + 1) & 3][tr] && !P->hand[(p + 3) & 3][tr]) {
        int a = popc(P->hand[p][tr]), b = popc(P->hand[part][tr]);
        int ruff = a > b ? a : b;
        if (a >= b && b > 0)
            for (int s = 0; s < 4; s++)
                if (s != tr && P->hand[p][s] && !P->hand[part][s]) {
                    ruff++;
                    break;
                }
        if (ruff >= goal) return ruff;
    }
    int q = count_cashes(P, p, goal, 0, win);
    if (q >= goal) return q;
    /* The leader's top trumps draw the opponents' first: then no ruffs. */
    int lho = (p + 1) & 3, rho = (p + 3) & 3;
    if (tr != DDS_NT && (P->hand[lho][tr] || P->hand[rho][tr])) {
        int ll = popc(P->hand[lho][tr]), lr = popc(P->hand[rho][tr]);
        if (top_run(P, p, tr) >= (ll > lr ? ll : lr)) {
            q = count_cashes(P, p, goal, 1, win);
            if (q >= goal) return q;
        }
    }
    return goal <= 1 ? partner_ruffs(P, p, win) : 0;
}

/* See bounds.h. */
int later_tricks(const Position *P, int tl, int need, const unsigned live[4], uint16_t win[4]) {
    int tr = P->trump;
    int lead = P->leader & 1, def = lead ^ 1;
    win[0] = win[1] = win[2] = win[3] = 0;
    if (tr == DDS_NT || !live[tr]) {
        /* Without trumps a side on lead that needs every trick must win each
         * in a suit it tops (the opponents' top card wins when its suit is
         * led), and a suit gives at most its longer hand's length of tricks
         * (every hand holding the suit follows). */
        int lead_needs = lead ? tl - need + 1 : need;
        if (lead_needs < tl) return -1;
        int sum = 0;
        for (int s = 0; s < 4; s++) {
            if (!live[s]) continue;
            int h = holder_of(P, s, hibit(live[s]));
            if ((h & 1) != lead) continue;
            int a = popc(P->hand[h][s]), b = popc(P->hand[h ^ 2][s]);
            sum += a > b ? a : b;
        }
        if (sum >= tl) return -1;
        /* The opponents' top cards stop it; their holders must stay, except
         * where the leading side's length would still leave it short. */
        int slack = tl - 1 - sum;
        for (int s = 0; s < 4; s++) {
            if (!live[s]) continue;
            int t = hibit(live[s]);
            int h = holder_of(P, s, t);
            if ((h & 1) != def || popc(live[s]) == popc(P->hand[h][s])) continue;
            int a = popc(P->hand[lead][s]), b = popc(P->hand[lead ^ 2][s]);
            int m = a > b ? a : b;
            if (m <= slack) slack -= m;
            else win[s] = (uint16_t)(1u << t);
        }
        return lead;
    }
    unsigned t = live[tr];
    int r1 = hibit(t), r2 = kth_card(t, 2), r3 = kth_card(t, 3);
    int h1 = holder_of(P, tr, r1), h2 = r2 >= 0 ? holder_of(P, tr, r2) : -1;
    int side = -1, k = 0, wr = -1;
    /* Tricks the side `side` is sure of, and the lowest trump that tells. */
    if ((h1 & 1) == def) {
        int lead_trumps = P->hand[lead][tr] | P->hand[lead ^ 2][tr];
        side = def;
        if (!lead_trumps) {
            /* Every trump of the defenders' longer trump hand wins a trick. */
            int a = popc(P->hand[def][tr]), b = popc(P->hand[def ^ 2][tr]);
            k = a > b ? a : b;
            wr = -1;
        } else {
            k = 1;
            wr = r1;
            /* The top two trumps win two tricks unless both are bare in
             * different hands (then they can fall together). */
            if (h2 >= 0 && (h2 & 1) == def &&
                (popc(P->hand[h2][tr]) > 1 || popc(P->hand[h2 ^ 2][tr]) > 1)) {
                int cut2 = def ? tl - 2 < need : need <= 2;
                int cut1 = def ? tl - 1 < need : need <= 1;
                if (cut2 && !cut1) {
                    k = 2;
                    wr = r2;
                }
            }
        }
    } else {
        /* The leader's side holds the top trump: a trick for it. */
        side = lead;
        k = 1;
        wr = r1;
        int cut1 = lead ? tl - 1 < need : need <= 1;
        if (!cut1 && h2 >= 0 && (h2 & 1) == lead &&
            (popc(P->hand[h2][tr]) > 1 || popc(P->hand[h2 ^ 2][tr]) > 1)) {
            /* Its top two trumps, as for the defenders above. */
            k = 2;
            wr = r2;
        } else if (!cut1 && h2 >= 0 && (h2 & 1) == def && popc(P->hand[h2][tr]) > 1) {
            /* A guarded second trump behind the top one, or with the third
             * trump on its side, wins a trick for the defenders. */
            if (h1 == ((h2 + 3) & 3)) {
                side = def;
                wr = r2;
            } else if (r3 >= 0 && (holder_of(P, tr, r3) & 1) == def) {
                side = def;
                wr = r3;
            }
        }
    }
    int cut = side ? tl - k < need : need <= k;
    if (!cut) return -1;
    if (wr >= 0) win[tr] = (uint16_t)(1u << wr);
    return !side;
}

/* Tricks seat w cashes from the top once it has won the current trick with
 * card (us, ur): its top runs in every suit and unopposed long cards; in a
 * side suit, with an opponent holding trumps, no more rounds than that
 * opponent can follow to (`follower`: an opponent still to play to the
 * trick). Counting stops at `goal`; `win` gets the cards counted. */
static int winner_cashes(const Position *P, int w, int us, int ur, int follower, int goal,
                         uint16_t win[4]) {
    int tr = P->trump, ls = P->tsuit[0];
    int o1 = (w + 1) & 3, o2 = (w + 3) & 3;
    int opp_tr = tr != DDS_NT && (P->hand[o1][tr] || P->hand[o2][tr]);
    int n[4] = {0, 0, 0, 0};
    uint16_t ws[4] = {0, 0, 0, 0}, got[4];
    for (int s = 0; s < 4; s++) {
        if (!P->hand[w][s]) continue;
        unsigned live = held(P, s);
        unsigned mine = P->hand[w][s];
        if (s == us) {
            live &= ~(1u << ur);
            mine &= ~(1u << ur);
            if (!mine) continue;
        }
        int ruffable = opp_tr && s != tr;
        if (live == mine) {
            if (!ruffable) n[s] = popc(mine);
            continue;
        }
        int k = top_run_of(mine, live);
        for (int i = 0; i < 2 && ruffable; i++) {
            int o = i ? o2 : o1;
            if (!P->hand[o][tr]) continue;
            /* The follower plays one more card: of the led suit, or, when
             * out of it, of any suit. */
            int len = popc(P->hand[o][s]) - (o == follower && (s == ls || !P->hand[o][ls]));
            if (len < k) k = len;
        }
        if (k <= 0) continue;
        n[s] = k;
        ws[s] = (uint16_t)top_cards(live, k);
    }
    int q = pick_suits(n, ws, goal, got);
    for (int s = 0; s < 4; s++) win[s] |= got[s];
    return q;
}

/* See bounds.h. */
int second_hand_tricks(const Position *P, int goal, uint16_t win[4]) {
    int tr = P->trump, ls = P->tsuit[0];
    int h = (P->leader + 1) & 3, third = (h + 1) & 3, part = (h + 2) & 3;
    win[0] = win[1] = win[2] = win[3] = 0;
    int third_ruffs = tr != DDS_NT && ls != tr && !P->hand[third][ls] && P->hand[third][tr];
    if (third_ruffs) return 0;
    unsigned ours = P->hand[h][ls] | P->hand[part][ls];
    /* The trick's winner w and the card it plays (us, ur): a ruff nobody
     * overruffs (with w's lowest trump; its rank does not matter), or the
     * side's best card of the suit. */
    int w, us = tr, ur;
    int ruff = tr != DDS_NT && ls != tr;
    if (ruff && !P->hand[h][ls] && P->hand[h][tr]) {
        w = h;
    } else if (ruff && !P->hand[part][ls] && P->hand[part][tr]) {
        w = part;
    } else {
        if (!ours || hibit(ours) < P->trank[0] ||
            (P->hand[third][ls] && hibit(ours) < hibit(P->hand[third][ls])))
            return 0;
        us = ls;
        ur = hibit(ours);
        win[ls] = (uint16_t)(1u << ur);
        w = P->hand[h][ls] >> ur & 1 ? h : part;
    }
    if (us == tr && ls != tr) ur = __builtin_ctz(P->hand[w][tr]);
    return 1 + winner_cashes(P, w, us, ur, third, goal - 1, win);
}
