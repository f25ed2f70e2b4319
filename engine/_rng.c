/* The shuffle of engine/rng.py in C: the same xoshiro256** steps, the same
 * rejection for bounded integers and the same Fisher-Yates order, so a seed
 * deals the same cards with or without it (the tests compare both over many
 * seeds and lengths).  In Python a deal was about a tenth of a short
 * random-legal game (52 cards, some 60 actions), most of it the 51 bounded
 * draws on 64-bit integers.
 *
 * shuffle(state, items): `state` is Rng's list of four 64-bit words, read and
 * written back advanced; `items` is a list, shuffled in place.  seeded(seed) is
 * the state Rng(seed) starts from (splitmix64), next64(state) one draw: every
 * board's deal seeds a generator and forks it, in Python about as long as the
 * shuffle itself.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next64(uint64_t *s) {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Rng.below(n) for 1 <= n < 2**63: the top bit_length(n) bits, redrawn until < n. */
static inline uint64_t below(uint64_t *s, uint64_t n) {
    int bits = 64 - __builtin_clzll(n);
    for (;;) {
        uint64_t r = next64(s) >> (64 - bits);
        if (r < n) return r;
    }
}

/* Read Rng's state list into s; 0 with an exception set. */
static int read_state(PyObject *state, uint64_t *s) {
    if (!PyList_Check(state) || PyList_GET_SIZE(state) != 4) {
        PyErr_SetString(PyExc_ValueError, "the state is a list of four 64-bit words");
        return 0;
    }
    for (int i = 0; i < 4; i++) {
        s[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(state, i));
        if (PyErr_Occurred()) return 0;
    }
    return 1;
}

/* Write s back into Rng's state list; 0 with an exception set. */
static int write_state(PyObject *state, const uint64_t *s) {
    for (int i = 0; i < 4; i++) {
        PyObject *word = PyLong_FromUnsignedLongLong(s[i]);
        if (word == NULL) return 0;
        PyList_SetItem(state, i, word); /* steals the new reference, drops the old */
    }
    return 1;
}

static PyObject *seeded(PyObject *self, PyObject *arg) {
    uint64_t x = PyLong_AsUnsignedLongLong(arg);
    if (x == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    PyObject *out = PyList_New(4);
    if (out == NULL) return NULL;
    for (int i = 0; i < 4; i++) {
        x += 0x9E3779B97F4A7C15ULL;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        PyObject *word = PyLong_FromUnsignedLongLong(z ^ (z >> 31));
        if (word == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, word);
    }
    return out;
}

static PyObject *next64_(PyObject *self, PyObject *state) {
    uint64_t s[4];
    if (!read_state(state, s)) return NULL;
    uint64_t r = next64(s);
    if (!write_state(state, s)) return NULL;
    return PyLong_FromUnsignedLongLong(r);
}

static PyObject *shuffle(PyObject *self, PyObject *args) {
    PyObject *state, *items;
    if (!PyArg_ParseTuple(args, "O!O!:shuffle", &PyList_Type, &state, &PyList_Type, &items))
        return NULL;
    uint64_t s[4];
    if (!read_state(state, s)) return NULL;
    /* No Python code runs below, so the list cannot change size under us; the
     * swaps move references without touching their counts. */
    PyObject **cells = ((PyListObject *)items)->ob_item;
    for (Py_ssize_t i = PyList_GET_SIZE(items) - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)below(s, (uint64_t)i + 1);
        PyObject *tmp = cells[i];
        cells[i] = cells[j];
        cells[j] = tmp;
    }
    if (!write_state(state, s)) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"shuffle", shuffle, METH_VARARGS,
     "shuffle(state, items): Rng.shuffle of the list items, advancing the state list."},
    {"seeded", seeded, METH_O, "seeded(seed): the state of Rng(seed), seed < 2**64."},
    {"next64", next64_, METH_O, "next64(state): Rng.next64, advancing the state list."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_rng", "engine/rng.py's shuffle, compiled.", -1, methods,
};

PyMODINIT_FUNC PyInit__rng(void) { return PyModule_Create(&module); }
