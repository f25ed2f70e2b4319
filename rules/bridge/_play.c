/* The hot step of bridge's card play in C: which cards the seat on turn may play
 * (follow suit), whether a card is one of them, and a card played (out of its
 * hand, onto the trick, the trick's winner when it is the fourth card; checked
 * on request, so that act() needs one call).
 *
 * rules/bridge/play.py is the reference and the fallback: each function here is
 * a pure function of its arguments and answers what the Python one answers (the
 * tests compare both on many random positions).  Faces are 0..51, suit = face
 * / 13, rank = face % 13; hands and tricks are tuples of ints.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define MAX_HAND 13

/* Read a tuple of faces (at most `cap`) into `out`; -1 with an exception set. */
static Py_ssize_t faces(PyObject *tuple, long *out, Py_ssize_t cap) {
    if (!PyTuple_Check(tuple)) {
        PyErr_SetString(PyExc_TypeError, "expected a tuple of faces");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    if (n > cap) {
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long f = PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (f == -1 && PyErr_Occurred()) return -1;
        if (f < 0 || f >= 52) {
            PyErr_SetString(PyExc_ValueError, "not a face of a bridge deck");
            return -1;
        }
        out[i] = f;
    }
    return n;
}

/* The arguments, checked: METH_FASTCALL (no argument tuple, no format string to
 * parse) since these run at every card of every self-played board. */
static int want_args(Py_ssize_t nargs, Py_ssize_t n, const char *name) {
    if (nargs == n) return 1;
    PyErr_Format(PyExc_TypeError, "%s takes %zd arguments (%zd given)", name, n, nargs);
    return 0;
}

static int want_tuple(PyObject *o, const char *name) {
    if (PyTuple_Check(o)) return 1;
    PyErr_Format(PyExc_TypeError, "%s: expected a tuple", name);
    return 0;
}

static int want_long(PyObject *o, long *out) {
    *out = PyLong_AsLong(o);
    return !(*out == -1 && PyErr_Occurred());
}

/* Whether `held` has a card of `suit`. */
static int holds_suit(const long *held, Py_ssize_t n, long suit) {
    for (Py_ssize_t i = 0; i < n; i++)
        if (held[i] / 13 == suit) return 1;
    return 0;
}

/* legal(held, trick, plays, claims): the actions the seat on turn may take, a new
 * list: plays[face] for each card of `held` it may play (in the hand's order),
 * then the tuple claims[len(held)] unless the last trick is under way. */
static PyObject *legal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!want_args(nargs, 4, "legal")) return NULL;
    PyObject *held_t = args[0], *trick_t = args[1], *plays = args[2], *claims = args[3];
    if (!want_tuple(held_t, "legal") || !want_tuple(trick_t, "legal") ||
        !want_tuple(plays, "legal") || !want_tuple(claims, "legal"))
        return NULL;
    long held[MAX_HAND];
    Py_ssize_t n = faces(held_t, held, MAX_HAND);
    if (n < 0) return NULL;
    if (PyTuple_GET_SIZE(plays) != 52 || PyTuple_GET_SIZE(claims) <= n) {
        PyErr_SetString(PyExc_ValueError, "legal: 52 plays and a claims tuple per hand size");
        return NULL;
    }
    Py_ssize_t in_trick = PyTuple_GET_SIZE(trick_t);
    long led = -1;
    if (in_trick > 0) {
        long first = PyLong_AsLong(PyTuple_GET_ITEM(trick_t, 0));
        if (first == -1 && PyErr_Occurred()) return NULL;
        led = first / 13;
        if (!holds_suit(held, n, led)) led = -1; /* void: any card */
    }
    PyObject *tail = NULL;
    Py_ssize_t extra = 0;
    if (n > 1 || in_trick == 0) { /* claim_allowed */
        tail = PyTuple_GET_ITEM(claims, n);
        if (!PyTuple_Check(tail)) {
            PyErr_SetString(PyExc_TypeError, "legal: claims[k] is a tuple");
            return NULL;
        }
        extra = PyTuple_GET_SIZE(tail);
    }
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (led < 0 || held[i] / 13 == led) count++;
    PyObject *out = PyList_New(count + extra);
    if (out == NULL) return NULL;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (led >= 0 && held[i] / 13 != led) continue;
        PyObject *a = PyTuple_GET_ITEM(plays, held[i]);
        Py_INCREF(a);
        PyList_SET_ITEM(out, k++, a);
    }
    for (Py_ssize_t i = 0; i < extra; i++) {
        PyObject *a = PyTuple_GET_ITEM(tail, i);
        Py_INCREF(a);
        PyList_SET_ITEM(out, k++, a);
    }
    return out;
}

/* may_play(held, trick, face): whether the seat on turn may play `face`. */
static PyObject *may_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!want_args(nargs, 3, "may_play")) return NULL;
    PyObject *held_t = args[0], *trick_t = args[1];
    long f;
    if (!want_tuple(held_t, "may_play") || !want_tuple(trick_t, "may_play") ||
        !want_long(args[2], &f))
        return NULL;
    long held[MAX_HAND];
    Py_ssize_t n = faces(held_t, held, MAX_HAND);
    if (n < 0) return NULL;
    int found = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (held[i] == f) found = 1;
    if (!found) Py_RETURN_FALSE;
    if (PyTuple_GET_SIZE(trick_t) > 0) {
        long first = PyLong_AsLong(PyTuple_GET_ITEM(trick_t, 0));
        if (first == -1 && PyErr_Occurred()) return NULL;
        long led = first / 13;
        if (f / 13 != led && holds_suit(held, n, led)) Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

/* engine.tricks.winning_index for faces: the highest trump, else the highest
 * card of the suit led (trump < 0: notrump). */
static int winning_index(const long *cards, int n, long trump) {
    long led = cards[0] / 13;
    int best = 0;
    for (int i = 1; i < n; i++) {
        long c = cards[i], b = cards[best];
        long cs = c / 13, bs = b / 13;
        if (cs == bs) {
            if (c % 13 > b % 13) best = i;
        } else if (cs == trump || (bs != trump && cs == led && bs != led)) {
            best = i;
        }
    }
    return best;
}

/* A new tuple of `tuple`'s items and `item` after them. */
static PyObject *appended(PyObject *tuple, PyObject *item) {
    Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    PyObject *out = PyTuple_New(n + 1);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = PyTuple_GET_ITEM(tuple, i);
        Py_INCREF(c);
        PyTuple_SET_ITEM(out, i, c);
    }
    Py_INCREF(item);
    PyTuple_SET_ITEM(out, n, item);
    return out;
}

/* play(hands, player, trick, played, face, trump, check): `face` played from
 * hands[player] to `trick` and to `played` (the board's cards in order): (the
 * four hands after, the trick after, played after, the index in the trick of its
 * winner once it has four cards, else -1).  A card not in the hand raises
 * ValueError; with `check`, None instead, and None for a revoke too. */
static PyObject *play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!want_args(nargs, 7, "play")) return NULL;
    PyObject *hands = args[0], *trick_t = args[2], *played = args[3];
    long player, f, trump;
    if (!want_tuple(hands, "play") || !want_long(args[1], &player) ||
        !want_tuple(trick_t, "play") || !want_tuple(played, "play") ||
        !want_long(args[4], &f) || !want_long(args[5], &trump))
        return NULL;
    int check = PyObject_IsTrue(args[6]);
    if (check < 0) return NULL;
    if (PyTuple_GET_SIZE(hands) != 4 || player < 0 || player > 3) {
        PyErr_SetString(PyExc_ValueError, "play: four hands and a player 0..3");
        return NULL;
    }
    long held[MAX_HAND], trick[4];
    PyObject *old = PyTuple_GET_ITEM(hands, player);
    Py_ssize_t n = faces(old, held, MAX_HAND);
    if (n < 0) return NULL;
    Py_ssize_t t = faces(trick_t, trick, 3);
    if (t < 0) return NULL;
    Py_ssize_t at = -1;
    for (Py_ssize_t i = 0; i < n; i++)
        if (held[i] == f) at = i;
    if (at < 0) {
        if (check) Py_RETURN_NONE;
        PyErr_SetString(PyExc_ValueError, "play: the card is not in the hand");
        return NULL;
    }
    if (check && t > 0 && f / 13 != trick[0] / 13 && holds_suit(held, n, trick[0] / 13))
        Py_RETURN_NONE;
    PyObject *rest = PyTuple_New(n - 1);
    if (rest == NULL) return NULL;
    for (Py_ssize_t i = 0, k = 0; i < n; i++) {
        if (i == at) continue;
        PyObject *c = PyTuple_GET_ITEM(old, i); /* the hand's own int objects */
        Py_INCREF(c);
        PyTuple_SET_ITEM(rest, k++, c);
    }
    PyObject *new_hands = PyTuple_New(4);
    if (new_hands == NULL) {
        Py_DECREF(rest);
        return NULL;
    }
    for (int s = 0; s < 4; s++) {
        PyObject *h = s == player ? rest : PyTuple_GET_ITEM(hands, s);
        if (s != player) Py_INCREF(h);
        PyTuple_SET_ITEM(new_hands, s, h);
    }
    PyObject *card = PyTuple_GET_ITEM(old, at);
    PyObject *new_trick = appended(trick_t, card);
    if (new_trick == NULL) {
        Py_DECREF(new_hands);
        return NULL;
    }
    PyObject *new_played = appended(played, card);
    if (new_played == NULL) {
        Py_DECREF(new_hands);
        Py_DECREF(new_trick);
        return NULL;
    }
    trick[t] = f;
    int winner = t == 3 ? winning_index(trick, 4, trump) : -1;
    return Py_BuildValue("(NNNi)", new_hands, new_trick, new_played, winner);
}

static PyMethodDef methods[] = {
    {"legal", (PyCFunction)(void (*)(void))legal, METH_FASTCALL, "legal(held, trick, plays, claims) -> list of actions"},
    {"may_play", (PyCFunction)(void (*)(void))may_play, METH_FASTCALL, "may_play(held, trick, face) -> bool"},
    {"play", (PyCFunction)(void (*)(void))play, METH_FASTCALL,
     "play(hands, player, trick, played, face, trump, check) -> (hands, trick, played, "
     "winner index or -1), or None (check: a card that may not be played)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_play", "Bridge card play's hot step, compiled.", -1, methods,
};

PyMODINIT_FUNC PyInit__play(void) { return PyModule_Create(&module); }
