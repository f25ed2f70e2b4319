/* Least deadwood of a one-deck, joker-free rummy hand (gin).
 *
 * The Python side (rules/rummy/fastwood.py) lists every meld the rules allow as a
 * mask of faces and the points of each face; this core only searches.  The search
 * decides the lowest card of the hand first: it is either deadwood, or it sits in
 * one of the melds whose lowest face it is (any meld holding it that fits in what
 * is left must start with it, since every lower card is decided).  Without memo
 * tables a 10- or 11-card hand takes a few hundred steps.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FACES 52
#define DECK_IDS 54 /* engine card ids: copy * 54 + face; faces 52, 53 are jokers */
#define MAX_MELDS 4096

typedef struct {
    int points[FACES];
    int first[FACES + 1]; /* melds whose lowest face is f: melds[first[f] .. first[f+1]) */
    int count;
    uint64_t melds[MAX_MELDS];
} Table;

static const char *CAPSULE = "rules.rummy._deadwood.Table";

static void free_table(PyObject *capsule) {
    free(PyCapsule_GetPointer(capsule, CAPSULE));
}

static int lowest(uint64_t m) { return __builtin_ctzll(m); }

static int cmp_low(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    int lx = lowest(x), ly = lowest(y);
    if (lx != ly) return lx - ly;
    return (x > y) - (x < y);
}

/* new_table(melds: sequence of int masks, points: sequence of 52 ints) -> capsule */
static PyObject *new_table(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *melds, *points;
    if (!PyArg_ParseTuple(args, "OO", &melds, &points)) return NULL;
    PyObject *ms = PySequence_Fast(melds, "melds must be a sequence of masks");
    if (!ms) return NULL;
    PyObject *ps = PySequence_Fast(points, "points must be a sequence of 52 ints");
    if (!ps) { Py_DECREF(ms); return NULL; }
    Table *t = calloc(1, sizeof(Table));
    if (!t) { Py_DECREF(ms); Py_DECREF(ps); return PyErr_NoMemory(); }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ms);
    if (n > MAX_MELDS || PySequence_Fast_GET_SIZE(ps) < FACES) {
        PyErr_SetString(PyExc_ValueError, "too many melds or too few points");
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long m = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(ms, i));
        if (PyErr_Occurred()) goto fail;
        if (m == 0 || m >> FACES) {
            PyErr_SetString(PyExc_ValueError, "a meld mask must be a non-empty 52-bit mask");
            goto fail;
        }
        t->melds[i] = m;
    }
    for (int f = 0; f < FACES; f++) {
        long p = PyLong_AsLong(PySequence_Fast_GET_ITEM(ps, f));
        if (PyErr_Occurred()) goto fail;
        t->points[f] = (int)p;
    }
    t->count = (int)n;
    qsort(t->melds, (size_t)n, sizeof(uint64_t), cmp_low);
    for (int f = 0, i = 0; f <= FACES; f++) {
        while (i < n && lowest(t->melds[i]) < f) i++;
        t->first[f] = i;
    }
    Py_DECREF(ms);
    Py_DECREF(ps);
    PyObject *cap = PyCapsule_New(t, CAPSULE, free_table);
    if (!cap) free(t);
    return cap;
fail:
    free(t);
    Py_DECREF(ms);
    Py_DECREF(ps);
    return NULL;
}

/* The least deadwood of ``mask`` (a hand with no deadwood ends the meld loop). */
static int solve(const Table *t, uint64_t mask) {
    if (!mask) return 0;
    int c = lowest(mask);
    uint64_t rest = mask & (mask - 1);
    int best = t->points[c] + solve(t, rest);
    for (int i = t->first[c]; i < t->first[c + 1] && best > 0; i++) {
        uint64_t m = t->melds[i];
        if ((m & mask) == m) {
            int v = solve(t, mask ^ m);
            if (v < best) best = v;
        }
    }
    return best;
}

static Table *get_table(PyObject *cap) {
    return (Table *)PyCapsule_GetPointer(cap, CAPSULE);
}

/* The face mask of a list or tuple of card ids (engine ids: copy * 54 + face):
 * 1 when this core does not take the hand (not plain non-negative ints, a joker,
 * a face twice), 0 with the mask in ``out``. */
static int cards_mask(PyObject *cards, uint64_t *out) {
    if (!(PyList_CheckExact(cards) || PyTuple_CheckExact(cards))) return 1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(cards);
    PyObject **items = PySequence_Fast_ITEMS(cards);
    uint64_t mask = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_CheckExact(items[i])) return 1;
        long v = PyLong_AsLong(items[i]);
        if (v < 0) {
            PyErr_Clear();
            return 1;
        }
        long face = v % DECK_IDS;
        if (face >= FACES || mask >> face & 1) return 1;
        mask |= 1ULL << face;
    }
    *out = mask;
    return 0;
}

/* deadwood(table, cards) -> the least deadwood, or None (not taken) */
static PyObject *deadwood(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "deadwood(table, cards)");
        return NULL;
    }
    Table *t = get_table(args[0]);
    uint64_t mask;
    if (!t) return NULL;
    if (cards_mask(args[1], &mask)) Py_RETURN_NONE;
    return PyLong_FromLong(solve(t, mask));
}

/* discards(table, cards) -> tuple of (face, least deadwood without that card), one
 * per card: what a knock needs, in one call; or None (not taken). */
static PyObject *discards(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "discards(table, cards)");
        return NULL;
    }
    Table *t = get_table(args[0]);
    uint64_t mask;
    if (!t) return NULL;
    if (cards_mask(args[1], &mask)) Py_RETURN_NONE;
    PyObject *out = PyTuple_New(__builtin_popcountll(mask));
    if (!out) return NULL;
    Py_ssize_t k = 0;
    for (uint64_t left = mask; left; left &= left - 1) {
        int f = lowest(left);
        PyObject *pair = Py_BuildValue("(ii)", f, solve(t, mask & ~(1ULL << f)));
        if (!pair) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k++, pair);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"new_table", new_table, METH_VARARGS, "A search table from meld masks and face points."},
    {"deadwood", (PyCFunction)(void (*)(void))deadwood, METH_FASTCALL,
     "The least deadwood of a hand of card ids, or None."},
    {"discards", (PyCFunction)(void (*)(void))discards, METH_FASTCALL,
     "(face, least deadwood without it) for each card of a hand, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_deadwood", "Least deadwood of one-deck joker-free hands.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__deadwood(void) { return PyModule_Create(&module); }
