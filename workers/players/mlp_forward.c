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
   Every layer is at most MAX_UNITS wide (NeuralNetScore uses Python otherwise). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

#define MAX_UNITS 64

static PyObject *forward(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 3 || !PyTuple_Check(args[0]) || !PyBytes_Check(args[1]) || !PyTuple_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "forward(sizes: tuple, params: bytes, features: tuple)");
        return NULL;
    }
    PyObject *sizes = args[0], *features = args[2];
    Py_ssize_t n_layers = PyTuple_GET_SIZE(sizes) - 1;
    const double *param = (const double *)PyBytes_AS_STRING(args[1]);
    const double *param_end = param + PyBytes_GET_SIZE(args[1]) / (Py_ssize_t)sizeof(double);
    double values[MAX_UNITS], out[MAX_UNITS];
    Py_ssize_t n_in = n_layers >= 1 ? PyLong_AsSsize_t(PyTuple_GET_ITEM(sizes, 0)) : -1;
    if (n_in < 1 || n_in > MAX_UNITS || PyTuple_GET_SIZE(features) != n_in) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "forward: features do not fit the first layer");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n_in; i++) {
        values[i] = PyLong_AsDouble(PyTuple_GET_ITEM(features, i));  /* float(x) */
        if (values[i] == -1.0 && PyErr_Occurred())
            return NULL;
    }
    for (Py_ssize_t layer = 1; layer <= n_layers; layer++) {
        Py_ssize_t n_out = PyLong_AsSsize_t(PyTuple_GET_ITEM(sizes, layer));
        if (n_out < 1 || n_out > MAX_UNITS || param + n_out * (n_in + 1) > param_end) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "forward: sizes and params do not fit");
            return NULL;
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
    return PyFloat_FromDouble(values[0]);
}

static PyMethodDef methods[] = {
    {"forward", (PyCFunction)(void (*)(void))forward, METH_FASTCALL,
     "forward(sizes, params, features) -> float: the score network's output (see mlp_forward.c)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "mlp_forward", "The score network's forward pass in C.", 0, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_mlp_forward(void) { return PyModule_Create(&module_def); }
