/* FrozenAction.get (engine/actions.py) as a method of FrozenAction itself.
 *
 * FrozenAction subclasses dict, so `a.get(k)` found dict.get, and CPython 3.11
 * only takes its fast call of a C method when the object's type is exactly the
 * method's class: on a subclass every get() went the general way, about a third
 * slower.  Consumers filter legal lists with get("type") at every step of
 * self-play and bot search.  get_for(cls) makes a `get` method whose class is
 * `cls`; it answers what dict.get answers (a missing key gives the default or
 * None, an unhashable key raises TypeError, no keyword arguments).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *get(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 1 || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "get expected at most 2 arguments, got %zd", nargs);
        return NULL;
    }
    PyObject *value = PyDict_GetItemWithError(self, args[0]);  /* borrowed */
    if (value == NULL) {
        if (PyErr_Occurred()) return NULL;
        value = nargs == 2 ? args[1] : Py_None;
    }
    Py_INCREF(value);
    return value;
}

static PyMethodDef get_def = {
    "get", (PyCFunction)(void (*)(void))get, METH_FASTCALL,
    "Return the value for key if key is in the dictionary, else default.",
};

/* get_for(cls): the get method of `cls`, a subclass of dict. */
static PyObject *get_for(PyObject *module, PyObject *cls) {
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyDict_Type)) {
        PyErr_SetString(PyExc_TypeError, "get_for: expected a subclass of dict");
        return NULL;
    }
    return PyDescr_NewMethod((PyTypeObject *)cls, &get_def);
}

static PyMethodDef methods[] = {
    {"get_for", get_for, METH_O, "get_for(cls): dict.get as a method of the dict subclass cls."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_actions", "engine/actions.py's FrozenAction.get, compiled.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__actions(void) { return PyModule_Create(&module); }
