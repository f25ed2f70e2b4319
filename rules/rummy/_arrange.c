/* The best-arrangement search of rules/rummy/search.py, compiled.
 *
 * The same memoised search over the remaining face counts (two bits a face, 104
 * bits: an unsigned __int128) and the joker balance, with the same tables per
 * state (per status, the least leftover points, in the order the Python dicts
 * keep), the same candidate moves in the same order, the same dominance pruning
 * and the same read-back of the winning moves, so both give the same arrangement
 * (the tests compare them).  Python builds the status space (rules/rummy/moves.py)
 * once per rule set, joker cap and shape; the core builds the run and set
 * candidates itself, from the definitions in moves.py, and keeps them across calls.
 */
#include "_arrange.h"

static const char *CAPSULE = "rules.rummy._arrange.Space";

/* ---- the memo: (remaining counts, joker balance) -> a table in t->tables ---- */

static inline uint64_t slot_hash(uint64_t lo, uint64_t hi) {
    uint64_t h = lo * 0x9E3779B97F4A7C15ULL ^ (hi + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    return h ^ (h >> 31);
}

static inline void slot_key(u128 rem, int net, uint64_t *lo, uint64_t *hi) {
    *lo = (uint64_t)rem;
    *hi = (uint64_t)(rem >> 64) | (uint64_t)(uint8_t)(int8_t)net << 56; /* rem uses 104 bits */
}

/* The table of (rem, net): its length and *off, or -1 when not solved yet. */
static int lookup(const Space *t, u128 rem, int net, uint32_t *off) {
    uint64_t lo, hi;
    slot_key(rem, net, &lo, &hi);
    size_t mask = t->memo_slots - 1, i = slot_hash(lo, hi) & mask;
    for (const Slot *s = &t->memo[i]; s->stamp == t->stamp; s = &t->memo[i = (i + 1) & mask])
        if (s->lo == lo && s->hi == hi) {
            *off = s->off;
            return s->len;
        }
    return -1;
}

static void place_slot(Slot *memo, size_t slots, uint32_t stamp, const Slot *from) {
    size_t mask = slots - 1, i = slot_hash(from->lo, from->hi) & mask;
    while (memo[i].stamp == stamp) i = (i + 1) & mask;
    memo[i] = *from;
}

static int store(Space *t, u128 rem, int net, const uint16_t *st, const int32_t *v, int n,
                 uint32_t *off) {
    if (grow((void **)&t->tables, &t->captables, t->ntables + (size_t)n, sizeof(Entry))) return 1;
    *off = (uint32_t)t->ntables;
    for (int i = 0; i < n; i++) t->tables[t->ntables + i] = (Entry){st[i], v[i]};
    t->ntables += (size_t)n;
    if (++t->memo_used * 2 > t->memo_slots) {
        size_t slots = t->memo_slots * 2;
        Slot *memo = calloc(slots, sizeof(Slot));
        if (!memo) return 1;
        for (size_t i = 0; i < t->memo_slots; i++)
            if (t->memo[i].stamp == t->stamp) place_slot(memo, slots, t->stamp, &t->memo[i]);
        free(t->memo);
        t->memo = memo;
        t->memo_slots = slots;
    }
    Slot s = {.stamp = t->stamp, .off = *off, .len = n};
    slot_key(rem, net, &s.lo, &s.hi);
    place_slot(t->memo, t->memo_slots, t->stamp, &s);
    return 0;
}

/* ---- the search (search.py: solve) ---- */

static int solve(Space *t, u128 rem, int net, uint32_t *off);

static inline int table_of(Space *t, u128 rem, int net, uint32_t *off) {
    int len = lookup(t, rem, net, off);
    return len >= 0 ? len : solve(t, rem, net, off);
}

/* The state's first decision: a wild card (acting as a joker first) or the lowest
 * plain card (left over first); sets *f, *rest and *avail, the jokers within reach. */
static int first_card(const Space *t, u128 rem, int net, int *f, u128 *rest, int *avail) {
    u128 w = rem & (t->wild_ones | t->wild_twos);
    *f = ctz128(w ? w : rem) >> 1;
    *rest = rem - ((u128)1 << (2 * *f));
    if (!w) {
        *avail = net;
        return 0;
    }
    w = *rest & (t->wild_ones | t->wild_twos);
    *avail = net + popc(w & t->wild_ones) + 2 * popc(w & t->wild_twos);
    return 1;
}

static inline void merge(uint16_t *st, int32_t *v, int *n, int s, int32_t d) {
    for (int i = 0; i < *n; i++)
        if (st[i] == s) {
            if (d < v[i]) v[i] = d;
            return;
        }
    st[*n] = (uint16_t)s;
    v[(*n)++] = d;
}

/* Merge the moves t->moves[first .. first + len) (jokers within ``avail``) into the table. */
static int take_moves(Space *t, long first, int len, u128 rest, int shift, int net, int avail,
                      uint16_t *st, int32_t *v, int *n) {
    for (int i = 0; i < len; i++) {
        Move m = t->moves[first + i]; /* copied: solving below may move the array */
        if (m.k > avail) break; /* sorted by jokers */
        uint32_t off;
        int sl = table_of(t, rest - (m.delta << shift), net - m.k, &off);
        if (sl < 0) return 1;
        const uint16_t *map = t->maps + (size_t)m.map * t->n;
        for (int j = 0; j < sl; j++) merge(st, v, n, map[t->tables[off + j].st], t->tables[off + j].v);
    }
    return 0;
}

/* Drop an entry when a status at least as good has no more points; the entries
 * kept, in order.  Apart from solve so its copies are not in every frame of the
 * recursion. */
static __attribute__((noinline)) int prune(const Space *t, uint16_t *st, int32_t *v, int n) {
    uint16_t ost[MAXST];
    int32_t ov[MAXST];
    memcpy(ost, st, (size_t)n * sizeof *st);
    memcpy(ov, v, (size_t)n * sizeof *v);
    int kept = 0;
    for (int a = 0; a < n; a++) {
        const uint64_t *dom = t->dom + (size_t)ost[a] * t->words;
        int drop = 0;
        for (int b = 0; b < n && !drop; b++)
            drop = ov[b] <= ov[a] && (dom[ost[b] >> 6] >> (ost[b] & 63) & 1);
        if (!drop) st[kept] = ost[a], v[kept++] = ov[a];
    }
    return kept;
}

static int solve(Space *t, u128 rem, int net, uint32_t *off) {
    uint16_t st[MAXST];
    int32_t v[MAXST];
    int n = 0, f, avail, len;
    u128 w = rem & (t->wild_ones | t->wild_twos), rest;
    if (net < 0 && net + popc(w & t->wild_ones) + 2 * popc(w & t->wild_twos) < 0)
        return store(t, rem, net, NULL, NULL, 0, off) ? -1 : 0; /* the debt cannot be paid back */
    if (rem == 0) { /* unused jokers are left over (priced at the top) */
        st[0] = (uint16_t)min_int(net, t->top); /* the status (0, 0, 0, jokers) */
        v[0] = 0;
        return store(t, rem, net, st, v, 1, off) ? -1 : 1;
    }
    uint32_t so;
    if (first_card(t, rem, net, &f, &rest, &avail)) { /* a wild card acts as a joker */
        int sl = table_of(t, rest, net + 1, &so);
        if (sl < 0) return -1;
        for (int j = 0; j < sl; j++) st[j] = t->tables[so + j].st, v[j] = t->tables[so + j].v;
        n = sl;
    } else { /* a plain card is left over */
        int sl = table_of(t, rest, net, &so), pts = t->points[f];
        if (sl < 0) return -1;
        const uint16_t *map = t->maps + t->n;
        for (int j = 0; j < sl; j++) merge(st, v, &n, map[t->tables[so + j].st], t->tables[so + j].v + pts);
    }
    int shift = ROW * (f / RANKS), rank = f % RANKS;
    long first = arrange_run_moves(t, rank, (uint32_t)(rest >> shift) & ((1u << ROW) - 1), &len);
    if (first < 0 || take_moves(t, first, len, rest, shift, net, avail, st, v, &n)) return -1;
    first = arrange_set_moves(t, f, rest, &len);
    if (first < 0 || take_moves(t, first, len, rest, 0, net, avail, st, v, &n)) return -1;
    if (n > 1) n = prune(t, st, v, n);
    return store(t, rem, net, st, v, n, off) ? -1 : n;
}

/* ---- reading the winner back (search.py: trace) ---- */

/* Whether the move to (nxt, nnet) through ``map`` reaches ``value`` in status ``st``;
 * the entry it comes from in *hit.  -1 on failure. */
static int reaches(Space *t, u128 nxt, int nnet, int map, int pts, int st, int value, int *hit) {
    uint32_t off;
    int sl = table_of(t, nxt, nnet, &off);
    if (sl < 0) return -1;
    const uint16_t *m = t->maps + (size_t)map * t->n;
    for (int j = 0; j < sl; j++) {
        Entry e = t->tables[off + j];
        if (m[e.st] == st && e.v + pts == value) {
            *hit = e.st;
            return 1;
        }
    }
    return 0;
}

/* (kind, natural faces in order, jokers) */
static PyObject *meld_step(int kind, int f, u128 faces, int k) {
    PyObject *tup = PyTuple_New(1 + popc(faces));
    if (!tup) return NULL;
    Py_ssize_t i = 0;
    int placed = 0;
    for (int g = 0; g < SUITED; g++) {
        if (!placed && g > f) PyTuple_SET_ITEM(tup, i++, PyLong_FromLong(f)), placed = 1;
        if (faces >> (2 * g) & 3) PyTuple_SET_ITEM(tup, i++, PyLong_FromLong(g));
    }
    if (!placed) PyTuple_SET_ITEM(tup, i++, PyLong_FromLong(f));
    for (Py_ssize_t j = 0; j < i; j++)
        if (!PyTuple_GET_ITEM(tup, j)) {
            Py_DECREF(tup);
            return NULL;
        }
    return Py_BuildValue("(iNi)", kind, tup, k);
}

/* A decision read back: a leftover card (kind -1) or a meld. */
typedef struct {
    int kind, f, k;
    u128 faces; /* a meld's other naturals, as count fields */
} Step;

#define MAX_STEPS (3 * SUITED) /* each decision takes a natural card, of at most 3 a face */

/* The decisions that reach ``value`` in status ``st``: at each state the first move,
 * in solve's order, whose table gives it, into ``steps``; their count, -1 on failure.
 * No Python object is made here: a collection could run Python code that searches
 * the same space (another thread, a finalizer) while this one still reads it. */
static int trace(Space *t, u128 rem, int net, int st, int value, Step *steps) {
    int n = 0;
    while (rem) {
        int f, avail, hit = 0, len, r;
        u128 rest;
        int wild = first_card(t, rem, net, &f, &rest, &avail);
        int pts = wild ? 0 : t->points[f];
        r = reaches(t, rest, wild ? net + 1 : net, wild ? 0 : 1, pts, st, value, &hit);
        if (r < 0) return -1;
        if (r) {
            if (!wild) steps[n++] = (Step){-1, f, 0, 0};
            rem = rest, net = wild ? net + 1 : net, st = hit, value -= pts;
            continue;
        }
        for (int kind = 0; kind < 2 && !r; kind++) {
            int shift = kind ? 0 : ROW * (f / RANKS);
            long first = kind ? arrange_set_moves(t, f, rest, &len)
                              : arrange_run_moves(t, f % RANKS, (uint32_t)(rest >> shift) & ((1u << ROW) - 1), &len);
            if (first < 0) return -1;
            for (int i = 0; i < len && !r; i++) {
                Move m = t->moves[first + i];
                if (m.k > avail) break;
                u128 nxt = rest - (m.delta << shift);
                r = reaches(t, nxt, net - m.k, m.map, 0, st, value, &hit);
                if (r < 0) return -1;
                if (r) {
                    steps[n++] = (Step){kind, f, m.k + t->jok[hit] - t->jok[st], m.delta << shift};
                    rem = nxt, net -= m.k, st = hit;
                }
            }
        }
        if (!r) return -2; /* no move reaches the value */
    }
    return n;
}

/* The decisions as search.py's trace gives them: leftover faces, melds (kind, faces, jokers). */
static PyObject *steps_list(const Step *steps, int n) {
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        const Step *s = &steps[i];
        PyObject *step = s->kind < 0 ? PyLong_FromLong(s->f) : meld_step(s->kind, s->f, s->faces, s->k);
        if (!step) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, step);
    }
    return out;
}

#ifndef MOVES_KEPT /* (small values only to test the clearing) */
#define MOVES_KEPT (1 << 18) /* candidate moves kept across calls before starting afresh */
#endif
#ifndef FIRST_SLOTS
#define FIRST_SLOTS 1024 /* hash slots to start with (they grow) */
#endif

/* ---- the module ---- */

static void free_space(PyObject *capsule) {
    Space *t = PyCapsule_GetPointer(capsule, CAPSULE);
    if (!t) return;
    Py_XDECREF(t->points_obj);
    free(t->maps), free(t->dom), free(t->moves), free(t->run_key), free(t->run_off);
    free(t->run_len), free(t->memo), free(t->tables), free(t);
}

static int read_ints(PyObject *seq, int n, long *out) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (!fast) return 1;
    int bad = PySequence_Fast_GET_SIZE(fast) != n;
    for (int i = 0; i < n && !bad; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        bad = out[i] == -1 && PyErr_Occurred();
    }
    Py_DECREF(fast);
    if (bad && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "wrong length");
    return bad;
}

/* new_space(statuses, after_left, after_pure_run, after_run, after_set, dominated_by,
 *           (run_cap, run_min, ace, set_cap, set_min, set_max, single_k, single_room))
 * -> capsule.  ``dominated_by``: per status, the statuses at least as good. */
static PyObject *new_space(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *sts, *left, *pure, *runs, *sets, *dom, *params;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &sts, &left, &pure, &runs, &sets, &dom, &params)) return NULL;
    Py_ssize_t n = PySequence_Size(sts), nr = PySequence_Size(runs);
    if (n < 1 || n > MAXST || nr < 1 || nr > MAXST || PySequence_Size(sets) != nr) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad status space");
        return NULL;
    }
    Space *t = calloc(1, sizeof(Space));
    if (!t) return PyErr_NoMemory();
    t->n = (int)n, t->top = (int)nr - 1, t->nmaps = 5 + 2 * t->top, t->words = (int)(n + 63) / 64;
    t->maps = malloc((size_t)t->nmaps * n * sizeof(uint16_t));
    t->dom = calloc((size_t)n * t->words, sizeof(uint64_t));
    t->run_cap_slots = FIRST_SLOTS, t->memo_slots = 4 * FIRST_SLOTS, t->stamp = 1;
    t->run_key = calloc(t->run_cap_slots, 4), t->run_off = malloc(t->run_cap_slots * 4);
    t->run_len = malloc(t->run_cap_slots * 2), t->memo = calloc(t->memo_slots, sizeof(Slot));
    PyObject *cap = NULL;
    long buf[MAXST], p[8];
    if (!t->maps || !t->dom || !t->run_key || !t->run_off || !t->run_len || !t->memo) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < n; i++) { /* a status: (runs, pure runs, cards left, jokers left) */
        PyObject *s = PySequence_GetItem(sts, i);
        int bad = !s || read_ints(s, 4, p);
        Py_XDECREF(s);
        if (bad) goto done;
        t->runs[i] = (uint8_t)p[0], t->pure[i] = (uint8_t)p[1], t->left[i] = (uint8_t)p[2];
        t->jok[i] = (uint8_t)p[3];
        t->maps[i] = (uint16_t)i;
    }
    for (int m = 1; m < t->nmaps; m++) {
        PyObject *src = m == 1 ? left : m == 2 ? pure : NULL;
        if (!src) src = PySequence_GetItem(m < 4 + t->top ? runs : sets, m < 4 + t->top ? m - 3 : m - 4 - t->top);
        else Py_INCREF(src);
        int bad = !src || read_ints(src, (int)n, buf);
        Py_XDECREF(src);
        if (bad) goto done;
        for (int i = 0; i < n; i++) {
            if (buf[i] < 0 || buf[i] >= n) goto bad_space;
            t->maps[(size_t)m * n + i] = (uint16_t)buf[i];
        }
    }
    for (int j = 0; j <= t->top; j++) /* a finished hand's status is (0, 0, 0, j) */
        if (j >= n || t->runs[j] || t->pure[j] || t->left[j] || t->jok[j] != j) goto bad_space;
    for (int i = 0; i < n; i++) {
        PyObject *d = PySequence_GetItem(dom, i);
        PyObject *fast = d ? PySequence_Fast(d, "dominated_by: sequences of statuses") : NULL;
        Py_XDECREF(d);
        if (!fast) goto done;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(fast); j++) {
            long o = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
            if (o < 0 || o >= n) {
                Py_DECREF(fast);
                goto bad_space;
            }
            t->dom[(size_t)i * t->words + (o >> 6)] |= 1ULL << (o & 63);
        }
        Py_DECREF(fast);
    }
    if (read_ints(params, 8, p)) goto done;
    t->run_cap = (int)p[0], t->run_min = (int)p[1], t->ace = (int)p[2], t->set_cap = (int)p[3];
    t->set_min = (int)p[4], t->set_max = (int)p[5], t->single_k = (int)p[6], t->single_room = (int)p[7];
    if (t->ace < 0 || t->ace > 2 || t->run_cap < 0 || t->run_cap > RANKS) goto bad_space;
    /* the lines a suit's ranks lie on (moves.py: _run_places): ace low; also high; every rotation */
    t->nlines = t->ace == 0 ? 1 : t->ace == 1 ? 2 : RANKS;
    for (int l = 0; l < t->nlines; l++)
        for (int r = 0; r < RANKS; r++) {
            int at = t->ace == 1 && l == 1 ? r : ((r + 1 - l) % RANKS + RANKS) % RANKS;
            t->place[l][r] = (int8_t)at, t->line[l][at] = (int8_t)r;
        }
    arrange_clear_candidates(t);
    cap = PyCapsule_New(t, CAPSULE, free_space);
    if (cap) return cap;
    goto done;
bad_space:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad status space");
done:
    free(t->maps), free(t->dom), free(t->run_key), free(t->run_off), free(t->run_len);
    free(t->memo), free(t);
    return NULL;
}


/* search(space, counts, supply, wild_rank, points, declaration, runs_required,
 *        pure_runs_required, spare_ok, joker_points) -> the winning decisions:
 * leftover faces and melds (kind, faces, jokers), as search.py's trace gives them.
 * ``counts``: the hand's 54 face counts; ``supply``: the printed jokers acting as jokers. */
static PyObject *search(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "search takes 10 arguments");
        return NULL;
    }
    Space *t = PyCapsule_GetPointer(args[0], CAPSULE);
    if (!t) return NULL;
    long a[10], counts[SUITED + 2];
    for (int i = 2; i < 10; i++) {
        if (i == 4) continue;
        a[i] = PyLong_AsLong(args[i]);
        if (a[i] == -1 && PyErr_Occurred()) return NULL;
    }
    if (read_ints(args[1], SUITED + 2, counts)) return NULL;
    if (args[4] != t->points_obj) {
        long pts[SUITED + 2];
        if (read_ints(args[4], SUITED + 2, pts)) return NULL;
        for (int f = 0; f < SUITED; f++) t->points[f] = (int)pts[f];
        Py_INCREF(args[4]); /* held, so the identity check above stays sound */
        Py_XSETREF(t->points_obj, args[4]);
    }
    u128 rem = 0;
    long total = (counts[SUITED] + counts[SUITED + 1]) * a[9]; /* the whole hand's points */
    for (int f = 0; f < SUITED; f++) {
        if (counts[f] < 0 || counts[f] > 3) {
            PyErr_SetString(PyExc_ValueError, "a face count must be 0 to 3");
            return NULL;
        }
        rem |= (u128)counts[f] << (2 * f);
        total += t->points[f] * counts[f];
    }
    int wild = (int)a[3];
    t->wild_ones = 0;
    for (int s = 0; s < 4 && wild >= 0; s++) t->wild_ones |= (u128)1 << (2 * (s * RANKS + wild));
    t->wild_twos = t->wild_ones << 1;
    if (t->nmoves > MOVES_KEPT) arrange_clear_candidates(t);
    if (++t->stamp == 0) {
        for (size_t i = 0; i < t->memo_slots; i++) t->memo[i].stamp = 0;
        t->stamp = 1;
    }
    t->memo_used = 0, t->ntables = 0;
    uint32_t off;
    int len = solve(t, rem, (int)a[2], &off);
    if (len < 0) return PyErr_NoMemory();
    if (len == 0) {
        PyErr_SetString(PyExc_AssertionError, "no arrangement found");
        return NULL;
    }
    long key[3] = {0, 0, 0}, best[3] = {0, 0, 0};
    int best_st = 0, best_value = 0;
    for (int i = 0; i < len; i++) { /* the least key, first found on ties (search.py) */
        Entry e = t->tables[off + i];
        long dead = e.v + t->jok[e.st] * a[9];
        if (a[5]) {
            int ok = t->runs[e.st] >= a[6] && t->pure[e.st] >= a[7];
            key[0] = ok && t->left[e.st] + t->jok[e.st] <= a[8] ? 0 : 1;
            key[1] = ok ? dead : total;
            key[2] = dead;
        } else {
            key[0] = dead;
        }
        if (i == 0 || key[0] < best[0] ||
            (key[0] == best[0] && (key[1] < best[1] || (key[1] == best[1] && key[2] < best[2])))) {
            memcpy(best, key, sizeof key);
            best_st = e.st, best_value = e.v;
        }
    }
    Step steps[MAX_STEPS];
    int n = trace(t, rem, (int)a[2], best_st, best_value, steps);
    if (n == -2) PyErr_SetString(PyExc_AssertionError, "no move reaches the value");
    return n < 0 ? (n == -1 ? PyErr_NoMemory() : NULL) : steps_list(steps, n);
}

static PyMethodDef methods[] = {
    {"new_space", new_space, METH_VARARGS, "A search space from a status space and rule numbers."},
    {"search", (PyCFunction)(void (*)(void))search, METH_FASTCALL,
     "The winning decisions of the best arrangement of a hand."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_arrange", "The best-arrangement search of rules.rummy, compiled.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__arrange(void) { return PyModule_Create(&module); }
