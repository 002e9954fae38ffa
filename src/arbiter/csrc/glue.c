/* Python glue the kernels and the search share: a state from bytes, and move codes
   as a list. */
#include "core.h"

#include <string.h>

int state_arg(const GameVT *vt, PyObject *bytes, void *out) {
    char *buf;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(bytes, &buf, &len) < 0) return 0;
    if (len != vt->state_size) {
        PyErr_Format(PyExc_ValueError, "a %s state is %zd bytes, not %zd", vt->name,
                     vt->state_size, len);
        return 0;
    }
    memcpy(out, buf, (size_t)len);
    return 1;
}

PyObject *codes_list(const move_t *moves, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromUnsignedLongLong(moves[i]));
    return list;
}
