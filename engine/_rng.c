/* The shuffle of engine/rng.py in C: the same xoshiro256** steps, the same
 * rejection for bounded integers and the same Fisher-Yates order, so a seed
 * deals the same cards with or without it (the tests compare both over many
 * seeds and lengths).  Dealing a board is about a tenth of a random-legal
 * bridge game in Python, most of it the 51 bounded draws on 64-bit integers.
 *
 * shuffle(state, items): `state` is Rng's list of four 64-bit words, read and
 * written back advanced; `items` is a list, shuffled in place.
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

static PyObject *shuffle(PyObject *self, PyObject *args) {
    PyObject *state, *items;
    if (!PyArg_ParseTuple(args, "O!O!:shuffle", &PyList_Type, &state, &PyList_Type, &items))
        return NULL;
    if (PyList_GET_SIZE(state) != 4) {
        PyErr_SetString(PyExc_ValueError, "shuffle: the state is four 64-bit words");
        return NULL;
    }
    uint64_t s[4];
    for (int i = 0; i < 4; i++) {
        s[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(state, i));
        if (PyErr_Occurred()) return NULL;
    }
    /* No Python code runs below, so the list cannot change size under us; the
     * swaps move references without touching their counts. */
    PyObject **cells = ((PyListObject *)items)->ob_item;
    for (Py_ssize_t i = PyList_GET_SIZE(items) - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)below(s, (uint64_t)i + 1);
        PyObject *tmp = cells[i];
        cells[i] = cells[j];
        cells[j] = tmp;
    }
    for (int i = 0; i < 4; i++) {
        PyObject *word = PyLong_FromUnsignedLongLong(s[i]);
        if (word == NULL) return NULL;
        PyList_SetItem(state, i, word); /* steals the new reference, drops the old */
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"shuffle", shuffle, METH_VARARGS,
     "shuffle(state, items): Rng.shuffle of the list items, advancing the state list."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_rng", "engine/rng.py's shuffle, compiled.", -1, methods,
};

PyMODINIT_FUNC PyInit__rng(void) { return PyModule_Create(&module); }
