/* Poker hand classes in C: the loops of rules/poker/evaluator.py, not its tables.
 *
 * Python builds every table (rules/poker/tables) and hands them over once with
 * install(); this core only runs the two lookups the evaluator documents:
 * Cactus Kev with a perfect hash of the prime product for five cards, and the
 * direct method (one sum of per-card words, a perfect hash of its rank key, the
 * flush table when five cards share a suit) for six and seven.  Answers are the
 * Python path's by construction, and the tests compare them on every five-card
 * hand and on millions of seven-card hands.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FACES 52
#define DECK_IDS 54 /* engine card ids: copy * 54 + face; faces 52, 53 are jokers */
#define RANK_KEY_SHIFT 16
#define FLUSH_PROBE 0x3333
#define FLUSH_BITS 0x8888
#define CK_FLUSH_MASK 0xF000

typedef struct {
    uint64_t multiplier;
    int shift, bucket_bits;
    uint64_t bucket_mask;
    int32_t *displace;
    int16_t *table;
} Hash;

typedef struct {
    int ready;
    uint32_t ck_words[FACES];
    uint64_t primes[FACES];
    int16_t flush_or_unique[16384]; /* unique5, then flushes at +8192 */
    Hash prime;
    int64_t words[FACES];  /* direct words */
    int64_t suited[FACES]; /* one bit per rank in the suit's 16-bit lane */
    int16_t flush_best[8192];
    Hash h6, h7;
} Tables;

static Tables T;

static inline int16_t hash_lookup(const Hash *h, uint64_t key) {
    uint64_t t = (key * h->multiplier) >> h->shift;
    return h->table[(t >> h->bucket_bits) ^ (uint64_t)h->displace[t & h->bucket_mask]];
}

static inline int16_t five(const int64_t *f) {
    uint32_t a = T.ck_words[f[0]], b = T.ck_words[f[1]], c = T.ck_words[f[2]],
             d = T.ck_words[f[3]], e = T.ck_words[f[4]];
    uint32_t q = (a | b | c | d | e) >> 16;
    int16_t v = T.flush_or_unique[((a & b & c & d & e & CK_FLUSH_MASK) ? 8192 : 0) | q];
    if (v) return v;
    uint64_t p = T.primes[f[0]] * T.primes[f[1]] * T.primes[f[2]] * T.primes[f[3]] *
                 T.primes[f[4]];
    return hash_lookup(&T.prime, p);
}

static inline int16_t flush_part(int64_t s, int64_t bits) {
    int64_t flag = (s + FLUSH_PROBE) & FLUSH_BITS;
    int shift = 16 * ((flag > 0x8) + (flag > 0x80) + (flag > 0x800));
    return T.flush_best[(bits >> shift) & 0x1FFF];
}

static inline int16_t direct(const int64_t *f, int k, const Hash *h) {
    int64_t s = 0;
    for (int j = 0; j < k; j++) s += T.words[f[j]];
    int16_t v = hash_lookup(h, (uint64_t)(s >> RANK_KEY_SHIFT) & 0xFFFFFFFFu);
    if ((s + FLUSH_PROBE) & FLUSH_BITS) {
        int64_t bits = 0;
        for (int j = 0; j < k; j++) bits |= T.suited[f[j]];
        int16_t fl = flush_part(s, bits);
        if (fl < v) v = fl;
    }
    return v;
}

static inline int16_t seven(const int64_t *f) {
    int64_t s = T.words[f[0]] + T.words[f[1]] + T.words[f[2]] + T.words[f[3]] +
                T.words[f[4]] + T.words[f[5]] + T.words[f[6]];
    int16_t v = hash_lookup(&T.h7, (uint64_t)(s >> RANK_KEY_SHIFT) & 0xFFFFFFFFu);
    if ((s + FLUSH_PROBE) & FLUSH_BITS) {
        int64_t bits = T.suited[f[0]] | T.suited[f[1]] | T.suited[f[2]] | T.suited[f[3]] |
                       T.suited[f[4]] | T.suited[f[5]] | T.suited[f[6]];
        int16_t fl = flush_part(s, bits);
        if (fl < v) v = fl;
    }
    return v;
}

static inline int16_t classify(const int64_t *f, int k) {
    if (k == 7) return seven(f);
    if (k == 5) return five(f);
    return direct(f, k, &T.h6);
}

/* ------------------------------------------------------------------ install */

static int copy_buffer(PyObject *obj, void *dst, Py_ssize_t itemsize, Py_ssize_t count,
                       const char *what) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (view.itemsize != itemsize || view.len != itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes", what, count,
                     itemsize);
        PyBuffer_Release(&view);
        return -1;
    }
    memcpy(dst, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    return 0;
}

/* A hash from (multiplier, shift, bucket_bits, displace int32[], table int16[]). */
static int read_hash(PyObject *spec, Hash *h) {
    PyObject *displace, *table;
    unsigned long long mult;
    if (!PyArg_ParseTuple(spec, "KiiOO", &mult, &h->shift, &h->bucket_bits, &displace, &table))
        return -1;
    h->multiplier = mult;
    h->bucket_mask = (1ULL << h->bucket_bits) - 1;
    Py_buffer d, t;
    if (PyObject_GetBuffer(displace, &d, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (PyObject_GetBuffer(table, &t, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&d);
        return -1;
    }
    int ok = d.itemsize == 4 && t.itemsize == 2 &&
             d.len == 4 * (Py_ssize_t)(1ULL << h->bucket_bits);
    if (ok) {
        free(h->displace);
        free(h->table);
        h->displace = malloc((size_t)d.len);
        h->table = malloc((size_t)t.len);
        if (h->displace && h->table) {
            memcpy(h->displace, d.buf, (size_t)d.len);
            memcpy(h->table, t.buf, (size_t)t.len);
        }
    }
    PyBuffer_Release(&d);
    PyBuffer_Release(&t);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "a hash needs int32 displacements and int16 values");
        return -1;
    }
    if (!h->displace || !h->table) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* install(ck_words u32[52], primes u64[52], flush_or_unique i16[16384], prime_hash,
 *         words i64[52], suited i64[52], flush_best i16[8192], hash6, hash7) */
static PyObject *install(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *ck, *primes, *fu, *ph, *words, *suited, *fb, *h6, *h7;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &ck, &primes, &fu, &ph, &words, &suited, &fb,
                          &h6, &h7))
        return NULL;
    /* The tables are the same on every build (rules/poker/tables), so a second
     * install has nothing to change; returning keeps a batch running on another
     * thread (the GIL released) from reading tables being rewritten. */
    if (T.ready) Py_RETURN_NONE;
    if (copy_buffer(ck, T.ck_words, 4, FACES, "ck_words") ||
        copy_buffer(primes, T.primes, 8, FACES, "primes") ||
        copy_buffer(fu, T.flush_or_unique, 2, 16384, "flush_or_unique") ||
        copy_buffer(words, T.words, 8, FACES, "words") ||
        copy_buffer(suited, T.suited, 8, FACES, "suited") ||
        copy_buffer(fb, T.flush_best, 2, 8192, "flush_best") || read_hash(ph, &T.prime) ||
        read_hash(h6, &T.h6) || read_hash(h7, &T.h7))
        return NULL;
    T.ready = 1;
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------------- one */

/* one(cards) -> class, or 0 when this path does not take the hand: not a list or
 * tuple of 5..7 plain ints, a negative id, a joker or a repeated card.  The caller
 * then takes the Python path, which parses spellings and raises the right error. */
static PyObject *one(PyObject *self, PyObject *cards) {
    (void)self;
    if (!T.ready || !(PyList_CheckExact(cards) || PyTuple_CheckExact(cards)))
        return PyLong_FromLong(0);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(cards);
    if (n < 5 || n > 7) return PyLong_FromLong(0);
    PyObject **items = PySequence_Fast_ITEMS(cards);
    int64_t f[7];
    uint64_t seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = items[i];
        if (!PyLong_CheckExact(x)) return PyLong_FromLong(0);
        long v = PyLong_AsLong(x);
        if (v < 0) {
            PyErr_Clear();
            return PyLong_FromLong(0);
        }
        long face = v % DECK_IDS;
        if (face >= FACES || seen >> face & 1) return PyLong_FromLong(0);
        seen |= 1ULL << face;
        f[i] = face;
    }
    return PyLong_FromLong(classify(f, (int)n));
}

/* -------------------------------------------------------------------- batch */

enum { BAD_NEGATIVE = 1, BAD_JOKER = 2, BAD_REPEAT = 4, BAD_NOT_FACE = 8 };

/* batch(hands int64 (N, k) C-contiguous, out int16[N], check) -> 0, or with
 * a mask of what was wrong (with ``check``: 1 negative id, 2 joker, 4 repeated card;
 * without: 8, an id that is not a face 0..51), in which case ``out`` is not filled. */
static PyObject *batch(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *hands_obj, *out_obj;
    int check;
    if (!PyArg_ParseTuple(args, "OOp", &hands_obj, &out_obj, &check)) return NULL;
    if (!T.ready) {
        PyErr_SetString(PyExc_RuntimeError, "tables not installed");
        return NULL;
    }
    Py_buffer h, o;
    if (PyObject_GetBuffer(hands_obj, &h, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0) return NULL;
    if (PyObject_GetBuffer(out_obj, &o, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&h);
        return NULL;
    }
    int k = h.ndim == 2 ? (int)h.shape[1] : 0;
    Py_ssize_t n = h.ndim == 2 ? h.shape[0] : 0;
    if (h.itemsize != 8 || k < 5 || k > 7 || o.itemsize != 2 || o.len != 2 * n) {
        PyBuffer_Release(&h);
        PyBuffer_Release(&o);
        PyErr_SetString(PyExc_ValueError, "batch takes int64 (N, 5..7) hands and int16[N]");
        return NULL;
    }
    const int64_t *rows = h.buf;
    int16_t *out = o.buf;
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    if (check) {
        int64_t f[7];
        for (Py_ssize_t i = 0; i < n && !bad; i++) {
            const int64_t *r = rows + i * k;
            uint64_t seen = 0;
            for (int j = 0; j < k; j++) {
                if (r[j] < 0) { bad |= BAD_NEGATIVE; break; }
                int64_t face = r[j] % DECK_IDS;
                if (face >= FACES) { bad |= BAD_JOKER; break; }
                if (seen >> face & 1) { bad |= BAD_REPEAT; break; }
                seen |= 1ULL << face;
                f[j] = face;
            }
            if (!bad) out[i] = classify(f, k);
        }
        if (bad) {
            /* Report every kind present, as the numpy path's whole-array checks do. */
            for (Py_ssize_t i = 0; i < n * k; i++) {
                if (rows[i] < 0) bad |= BAD_NEGATIVE;
                else if (rows[i] % DECK_IDS >= FACES) bad |= BAD_JOKER;
            }
        }
    } else {
        /* Unchecked ids must be faces; one cheap pass keeps a wrong one from reading
         * outside the tables. */
        uint64_t over = 0;
        for (Py_ssize_t i = 0; i < n * k; i++) over |= (uint64_t)rows[i] >= FACES;
        if (over) {
            bad = BAD_NOT_FACE;
        } else if (k == 7) {
            for (Py_ssize_t i = 0; i < n; i++) out[i] = seven(rows + 7 * i);
        } else if (k == 5) {
            for (Py_ssize_t i = 0; i < n; i++) out[i] = five(rows + 5 * i);
        } else {
            for (Py_ssize_t i = 0; i < n; i++) out[i] = direct(rows + 6 * i, 6, &T.h6);
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&h);
    PyBuffer_Release(&o);
    return PyLong_FromLong(bad);
}

static PyMethodDef methods[] = {
    {"install", install, METH_VARARGS, "Hand the evaluator's tables to the core."},
    {"one", one, METH_O, "The class of one hand of plain card ids, or 0 (not taken)."},
    {"batch", batch, METH_VARARGS, "Classes of an int64 (N, k) array into int16[N]."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_eval", "The poker evaluator's lookups in C.", -1, methods,
};

PyMODINIT_FUNC PyInit__eval(void) { return PyModule_Create(&module); }
