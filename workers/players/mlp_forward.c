/* The score network's forward pass (NeuralNetScore.forward, workers/players/scores.py) in C.

   Compiled with mypyc, the Python forward pass called math.tanh through Python ten times a
   state (mypyc has no primitive for it) and boxed every value; here it is one call. It does
   the same double operations in the same order (each unit's products added one by one from
   0.0, then the bias, then tanh) and calls the same libm tanh as math.tanh, so it gives the
   same bits. native_build.py compiles it with -ffp-contract=off: a multiply and add fused
   into one instruction would round once where Python rounds twice.

   forward(sizes, params, features) -> float
     sizes: the layer sizes, a tuple of ints (15, 5, 4, 1);
     params: bytes of doubles, per layer per output unit its input weights then its bias;
     features: a tuple of ints, sizes[0] of them.
   Every layer is at most MAX_UNITS wide (NeuralNetScore uses Python otherwise).

   score(sizes, params, features, memo) -> float
     the beam search's score of a state that is not over, float(int(forward(...) * 1e6)) as
     NeuralNetScore computes it, kept in `memo` (from new_memo(n_features)) by its features:
     sibling states often share them. The memo is a table in C keyed by the features as native
     integers (a Python dict hashed a tuple of 15 ints per lookup); it only saves work, every
     value is the one the network gives. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define MAX_UNITS 64

/* The network on the features' values: its output in *result, or -1 with an exception set. */
static int run(PyObject *sizes, PyObject *params, PyObject *features, double *result) {
    Py_ssize_t n_layers = PyTuple_GET_SIZE(sizes) - 1;
    const double *param = (const double *)PyBytes_AS_STRING(params);
    const double *param_end = param + PyBytes_GET_SIZE(params) / (Py_ssize_t)sizeof(double);
    double values[MAX_UNITS], out[MAX_UNITS];
    Py_ssize_t n_in = n_layers >= 1 ? PyLong_AsSsize_t(PyTuple_GET_ITEM(sizes, 0)) : -1;
    if (n_in < 1 || n_in > MAX_UNITS || PyTuple_GET_SIZE(features) != n_in) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "forward: features do not fit the first layer");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n_in; i++) {
        values[i] = PyLong_AsDouble(PyTuple_GET_ITEM(features, i));  /* float(x) */
        if (values[i] == -1.0 && PyErr_Occurred())
            return -1;
    }
    for (Py_ssize_t layer = 1; layer <= n_layers; layer++) {
        Py_ssize_t n_out = PyLong_AsSsize_t(PyTuple_GET_ITEM(sizes, layer));
        if (n_out < 1 || n_out > MAX_UNITS || param + n_out * (n_in + 1) > param_end) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "forward: sizes and params do not fit");
            return -1;
        }
        for (Py_ssize_t j = 0; j < n_out; j++) {
            double acc = 0.0;
            for (Py_ssize_t i = 0; i < n_in; i++)
                acc += param[i] * values[i];
            out[j] = tanh(acc + param[n_in]);
            param += n_in + 1;
        }
        for (Py_ssize_t j = 0; j < n_out; j++)
            values[j] = out[j];
        n_in = n_out;
    }
    *result = values[0];
    return 0;
}

static PyObject *forward(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 3 || !PyTuple_Check(args[0]) || !PyBytes_Check(args[1]) || !PyTuple_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "forward(sizes: tuple, params: bytes, features: tuple)");
        return NULL;
    }
    double result;
    if (run(args[0], args[1], args[2], &result) < 0)
        return NULL;
    return PyFloat_FromDouble(result);
}

/* The memo: an open-addressing table of slots, each [hash | 1 when used, value's bits, the
   features...], grown up to MEMO_SLOTS_MAX and emptied when MEMO_ENTRIES are kept (as
   NeuralNetScore's dict memo is cleared at MEMO_SIZE). */
#define MEMO_ENTRIES (1 << 16)
#define MEMO_SLOTS_MIN 1024
#define MEMO_SLOTS_MAX (1 << 17)
#define MEMO_CAPSULE "mlp_forward.memo"

typedef struct {
    Py_ssize_t n_features, slots, used;
    uint64_t *table;  /* slots * (n_features + 2) */
} Memo;

static void memo_free(PyObject *capsule) {
    Memo *memo = (Memo *)PyCapsule_GetPointer(capsule, MEMO_CAPSULE);
    if (memo != NULL) {
        PyMem_Free(memo->table);
        PyMem_Free(memo);
    }
}

static PyObject *new_memo(PyObject *module, PyObject *arg) {
    (void)module;
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 1 || n > MAX_UNITS) {
        PyErr_SetString(PyExc_ValueError, "new_memo: 1 to 64 features");
        return NULL;
    }
    Memo *memo = PyMem_Calloc(1, sizeof(Memo));
    uint64_t *table = PyMem_Calloc((size_t)MEMO_SLOTS_MIN * (size_t)(n + 2), sizeof(uint64_t));
    if (memo == NULL || table == NULL) {
        PyMem_Free(memo);
        PyMem_Free(table);
        return PyErr_NoMemory();
    }
    memo->n_features = n;
    memo->slots = MEMO_SLOTS_MIN;
    memo->table = table;
    PyObject *capsule = PyCapsule_New(memo, MEMO_CAPSULE, memo_free);
    if (capsule == NULL) {
        PyMem_Free(table);
        PyMem_Free(memo);
    }
    return capsule;
}

/* The slot of `key` (its hash word `tag`): the one that holds it, or the empty one where it goes. */
static uint64_t *memo_slot(const Memo *memo, const uint64_t *key, uint64_t tag) {
    Py_ssize_t stride = memo->n_features + 2, mask = memo->slots - 1;
    for (Py_ssize_t i = (Py_ssize_t)(tag >> 1) & mask;; i = (i + 1) & mask) {
        uint64_t *slot = memo->table + i * stride;
        if (slot[0] == 0 || (slot[0] == tag && memcmp(slot + 2, key, (size_t)memo->n_features * 8) == 0))
            return slot;
    }
}

/* Room for one more entry: the table doubled while under MEMO_SLOTS_MAX, emptied once full. */
static int memo_make_room(Memo *memo) {
    if (memo->used >= MEMO_ENTRIES) {
        memset(memo->table, 0, (size_t)memo->slots * (size_t)(memo->n_features + 2) * 8);
        memo->used = 0;
        return 0;
    }
    if (2 * (memo->used + 1) <= memo->slots || memo->slots >= MEMO_SLOTS_MAX)
        return 0;
    Memo bigger = *memo;
    bigger.slots = memo->slots * 2;
    Py_ssize_t stride = memo->n_features + 2;
    bigger.table = PyMem_Calloc((size_t)bigger.slots * (size_t)stride, sizeof(uint64_t));
    if (bigger.table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < memo->slots; i++) {
        uint64_t *slot = memo->table + i * stride;
        if (slot[0] != 0)
            memcpy(memo_slot(&bigger, slot + 2, slot[0]), slot, (size_t)stride * 8);
    }
    PyMem_Free(memo->table);
    *memo = bigger;
    return 0;
}

/* A feature as a native integer (*overflow set beyond 64 bits): a small int read in place, as
   most are, without the call through the C API. */
static long long feature_value(PyObject *x, int *overflow) {
#if PY_VERSION_HEX >= 0x030C0000
    if (PyLong_CheckExact(x) && PyUnstable_Long_IsCompact((PyLongObject *)x)) {
        *overflow = 0;
        return (long long)PyUnstable_Long_CompactValue((PyLongObject *)x);
    }
#else
    if (PyLong_CheckExact(x)) {
        Py_ssize_t size = Py_SIZE(x);
        if (size == 0 || size == 1 || size == -1) {  /* one 30-bit digit, its sign the size's */
            *overflow = 0;
            return size == 0 ? 0 : size * (long long)((PyLongObject *)x)->ob_digit[0];
        }
    }
#endif
    return PyLong_AsLongLongAndOverflow(x, overflow);
}

static PyObject *score(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 4 || !PyTuple_Check(args[0]) || !PyBytes_Check(args[1]) || !PyTuple_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "score(sizes: tuple, params: bytes, features: tuple, memo)");
        return NULL;
    }
    Memo *memo = (Memo *)PyCapsule_GetPointer(args[3], MEMO_CAPSULE);
    if (memo == NULL)
        return NULL;
    PyObject *features = args[2];
    Py_ssize_t n = memo->n_features;
    uint64_t key[MAX_UNITS], tag = 0x243F6A8885A308D3u;
    int keyed = PyTuple_GET_SIZE(features) == n;  /* else run() raises */
    for (Py_ssize_t i = 0; keyed && i < n; i++) {
        int overflow;
        long long value = feature_value(PyTuple_GET_ITEM(features, i), &overflow);
        if (value == -1 && PyErr_Occurred())
            return NULL;
        keyed = !overflow;  /* a feature beyond 64 bits: scored without the memo */
        key[i] = (uint64_t)value;
        tag = (tag ^ key[i]) * 0x9E3779B97F4A7C15u;
        tag ^= tag >> 29;
    }
    tag |= 1;  /* 0 marks an empty slot */
    uint64_t *slot = keyed ? memo_slot(memo, key, tag) : NULL;
    double value;
    if (slot != NULL && slot[0] != 0) {
        memcpy(&value, slot + 1, sizeof value);
        return PyFloat_FromDouble(value);
    }
    if (run(args[0], args[1], features, &value) < 0)
        return NULL;
    value *= 1e6;  /* SabberStone's int cast: float(int(x * 1e6)) */
    if (isnan(value)) {
        PyErr_SetString(PyExc_ValueError, "cannot convert float NaN to integer");
        return NULL;
    }
    if (isinf(value)) {
        PyErr_SetString(PyExc_OverflowError, "cannot convert float infinity to integer");
        return NULL;
    }
    value = trunc(value);
    if (value == 0.0)
        value = 0.0;  /* float(int(-0.5)) is 0.0, not trunc's -0.0 */
    if (slot != NULL) {
        if (memo_make_room(memo) < 0)
            return NULL;
        slot = memo_slot(memo, key, tag);  /* the table may have changed */
        slot[0] = tag;
        memcpy(slot + 1, &value, sizeof value);
        memcpy(slot + 2, key, (size_t)n * 8);
        memo->used++;
    }
    return PyFloat_FromDouble(value);
}

static PyMethodDef methods[] = {
    {"forward", (PyCFunction)(void (*)(void))forward, METH_FASTCALL,
     "forward(sizes, params, features) -> float: the score network's output (see mlp_forward.c)"},
    {"new_memo", (PyCFunction)new_memo, METH_O, "new_memo(n_features): an empty memo for score"},
    {"score", (PyCFunction)(void (*)(void))score, METH_FASTCALL,
     "score(sizes, params, features, memo) -> float: the state's score, memoized (see mlp_forward.c)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "mlp_forward", "The score network's forward pass in C.", 0, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_mlp_forward(void) { return PyModule_Create(&module_def); }
