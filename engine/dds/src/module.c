/* CPython binding of the double-dummy solver: the Solver type.
 *
 * Hands cross the boundary as 16 ints, hands[seat * 4 + suit] = 13-bit rank
 * mask; cards as faces suit * 13 + rank (engine.cards encoding). Each Solver
 * owns its table; searches run without the GIL, and one Solver refuses to be
 * used by two threads at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "solver.h"

typedef struct {
    PyObject_HEAD
    Solver *solver;
    int busy;
} SolverObject;

static int parse_position(PyObject *hands, int trump, int leader, PyObject *trick, Position *p) {
    memset(p, 0, sizeof *p);
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence of 16 ints");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 16) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "hands must hold 16 masks (seat * 4 + suit)");
        return -1;
    }
    for (int i = 0; i < 16; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0 || v > 0x1FFF) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a suit mask must lie in 0..8191");
            return -1;
        }
        p->hand[i / 4][i % 4] = (uint16_t)v;
    }
    Py_DECREF(seq);
    p->trump = trump;
    p->leader = leader;
    if (trick && trick != Py_None) {
        seq = PySequence_Fast(trick, "trick must be a sequence of card faces");
        if (!seq) return -1;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        if (n > 3) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "the current trick holds at most 3 cards");
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            long f = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (f == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return -1;
            }
            if (f < 0 || f > 51) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "a trick card must be a face 0..51");
                return -1;
            }
            p->tsuit[i] = (int)(f / 13);
            p->trank[i] = (int)(f % 13);
        }
        p->ply = (int)n;
        Py_DECREF(seq);
    }
    const char *err = position_check(p);
    if (err) {
        PyErr_SetString(PyExc_ValueError, err);
        return -1;
    }
    return 0;
}

static int acquire(SolverObject *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Solver is already searching in another thread");
        return -1;
    }
    self->busy = 1;
    return 0;
}

static int Solver_init(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"tt_bytes", "bloom", "exact", NULL};
    Py_ssize_t tt_bytes = 64 * 1024 * 1024;
    int bloom = 0, exact = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|npp", kwlist, &tt_bytes, &bloom, &exact))
        return -1;
    if (tt_bytes < 1024) {
        PyErr_SetString(PyExc_ValueError, "tt_bytes must be at least 1024");
        return -1;
    }
    if (self->solver) solver_free(self->solver);
    self->solver = solver_new((size_t)tt_bytes, bloom, exact);
    if (!self->solver) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Solver_dealloc(SolverObject *self) {
    solver_free(self->solver);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Solver_solve(SolverObject *self, PyObject *args) {
    PyObject *hands, *trick = NULL;
    int trump, leader;
    if (!PyArg_ParseTuple(args, "Oii|O", &hands, &trump, &leader, &trick)) return NULL;
    Position p;
    if (parse_position(hands, trump, leader, trick, &p) < 0 || acquire(self) < 0) return NULL;
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = solver_solve(self->solver, &p);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    return PyLong_FromLong(v);
}

static PyObject *Solver_best(SolverObject *self, PyObject *args) {
    PyObject *hands, *trick = NULL;
    int trump, leader;
    if (!PyArg_ParseTuple(args, "Oii|O", &hands, &trump, &leader, &trick)) return NULL;
    Position p;
    if (parse_position(hands, trump, leader, trick, &p) < 0 || acquire(self) < 0) return NULL;
    int v, card = 0;
    Py_BEGIN_ALLOW_THREADS
    v = solver_best(self->solver, &p, &card);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    return Py_BuildValue("(ii)", card, v);
}

static PyObject *Solver_scores(SolverObject *self, PyObject *args) {
    PyObject *hands, *trick = NULL;
    int trump, leader;
    if (!PyArg_ParseTuple(args, "Oii|O", &hands, &trump, &leader, &trick)) return NULL;
    Position p;
    if (parse_position(hands, trump, leader, trick, &p) < 0 || acquire(self) < 0) return NULL;
    int cards[13], scores[13], best = 0, n;
    Py_BEGIN_ALLOW_THREADS
    n = solver_scores(self->solver, &p, &best, cards, scores);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, Py_BuildValue("(ii)", cards[i], scores[i]));
    return Py_BuildValue("(iN)", best, list);
}

static PyObject *Solver_table(SolverObject *self, PyObject *args) {
    PyObject *hands;
    if (!PyArg_ParseTuple(args, "O", &hands)) return NULL;
    Position p;
    if (parse_position(hands, 0, 0, NULL, &p) < 0 || acquire(self) < 0) return NULL;
    int out[20];
    Py_BEGIN_ALLOW_THREADS
    solver_table(self->solver, &p, out);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    PyObject *list = PyList_New(20);
    if (!list) return NULL;
    for (int i = 0; i < 20; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(out[i]));
    return list;
}

static PyObject *Solver_reset(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    if (acquire(self) < 0) return NULL;
    solver_reset(self->solver);
    self->busy = 0;
    Py_RETURN_NONE;
}

static PyObject *Solver_stats(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    const TTStats *t = solver_tt_stats(self->solver);
    const SearchStats *s = solver_stats(self->solver);
    return Py_BuildValue(
        "{s:K,s:K,s:K,s:(KKKK),s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:n}",
        "cut_first", (unsigned long long)s->cut_first, "cut_later",
        (unsigned long long)s->cut_later, "all_moves", (unsigned long long)s->all_moves,
        "nodes_by_ply", (unsigned long long)s->by_ply[0], (unsigned long long)s->by_ply[1],
        (unsigned long long)s->by_ply[2], (unsigned long long)s->by_ply[3], "nodes",
        (unsigned long long)s->nodes, "quick_cuts", (unsigned long long)s->quick_cuts, "later_cuts",
        (unsigned long long)s->later_cuts, "searches",
        (unsigned long long)s->searches, "tt_probes", (unsigned long long)t->probes, "tt_hits",
        (unsigned long long)t->hits, "tt_cutoffs", (unsigned long long)t->cutoffs,
        "tt_bloom_skips", (unsigned long long)t->bloom_skips, "tt_stores",
        (unsigned long long)t->stores, "tt_updates", (unsigned long long)t->updates,
        "tt_evictions", (unsigned long long)t->evictions, "tt_drops",
        (unsigned long long)t->drops, "tt_grows", (unsigned long long)t->grows, "tt_bytes",
        (Py_ssize_t)solver_tt_bytes(self->solver));
}

static PyMethodDef Solver_methods[] = {
    {"solve", (PyCFunction)Solver_solve, METH_VARARGS,
     "solve(hands, trump, leader, trick=()) -> tricks for the side to move"},
    {"best", (PyCFunction)Solver_best, METH_VARARGS,
     "best(hands, trump, leader, trick=()) -> (face, tricks for the side to move)"},
    {"scores", (PyCFunction)Solver_scores, METH_VARARGS,
     "scores(hands, trump, leader, trick=()) -> (best, [(face, tricks), ...])"},
    {"table", (PyCFunction)Solver_table, METH_VARARGS,
     "table(hands) -> 20 ints, [strain * 4 + leader] = tricks of the leader's side"},
    {"reset", (PyCFunction)Solver_reset, METH_NOARGS, "forget the transposition table"},
    {"stats", (PyCFunction)Solver_stats, METH_NOARGS, "search and table counters"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine.dds._dds.Solver",
    .tp_basicsize = sizeof(SolverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Solver(tt_bytes=64 MiB, bloom=False, exact=False): a double-dummy solver with its own tables",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_dds", "Compiled double-dummy solver core.", -1, NULL,
};

PyMODINIT_FUNC PyInit__dds(void) {
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
