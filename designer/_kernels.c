/*
 * Compiled kernels over slide tables: the sliding rule, breadth-first reachability and the
 * fast classifier. Arrays come in and go out through the buffer protocol (numpy arrays from
 * designer/rules.py and designer/fast.py); nothing here allocates Python objects per cell.
 *
 * Terrain codes: 0 ice, 1 rock, 2 snow. Directions: 0 u, 1 d, 2 l, 3 r.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ROCK 1
#define SNOW 2

enum { UNSOLVABLE = 0, WEAK = 1, STRONG = 2 };

static const int DR[4] = {-1, 1, 0, 0};
static const int DC[4] = {0, 0, -1, 1};

/* dest[d*n + i]: where a slide from i in direction d ends, -1 if it is not a move;
 * length[d*n + i]: cells travelled. The cell `capture` (the goal) stops a slide on it.
 * Each cell reuses its neighbour's answer, so the table costs O(cells). */
static void slide_table(const uint8_t *terrain, int h, int w, int64_t capture, int32_t *dest, int32_t *length)
{
    const int64_t n = (int64_t)h * w;
    for (int d = 0; d < 4; d++) {
        int32_t *dst = dest + d * n, *len = length + d * n;
        for (int a = 0; a < h; a++) {
            const int r = DR[d] <= 0 ? a : h - 1 - a;
            for (int b = 0; b < w; b++) {
                const int c = DC[d] <= 0 ? b : w - 1 - b;
                const int64_t i = (int64_t)r * w + c;
                dst[i] = -1;
                len[i] = 0;
                if (terrain[i] == ROCK) continue;
                const int nr = r + DR[d], nc = c + DC[d];
                if (nr < 0 || nr >= h || nc < 0 || nc >= w) continue;
                const int64_t j = (int64_t)nr * w + nc;
                if (terrain[j] == ROCK) continue; /* blocked at once: not a move */
                if (terrain[j] == SNOW || j == capture || dst[j] < 0) {
                    dst[i] = (int32_t)j;
                    len[i] = 1;
                } else {
                    dst[i] = dst[j];
                    len[i] = len[j] + 1;
                }
            }
        }
    }
}

/* Stops from start to every cell (-1 unreachable); `order` gets the cells in BFS order.
 * The goal ends the game: no move leaves it. Returns how many cells were reached. */
static int64_t reach(const int32_t *dest, int64_t n, int64_t start, int64_t goal, int32_t *stops, int32_t *order)
{
    for (int64_t i = 0; i < n; i++) stops[i] = -1;
    int64_t head = 0, tail = 0;
    stops[start] = 0;
    order[tail++] = (int32_t)start;
    while (head < tail) {
        const int32_t u = order[head++];
        if (u == goal) continue;
        for (int d = 0; d < 4; d++) {
            const int32_t v = dest[d * n + u];
            if (v >= 0 && stops[v] < 0) {
                stops[v] = stops[u] + 1;
                order[tail++] = v;
            }
        }
    }
    return tail;
}

/* 1 when every reached cell (order[0..count)) can reach the goal, by a backward search over
 * the reversed moves. `work` holds WORK_INTS(n) ints. */
#define WORK_INTS(n) (8 * (n) + 2)
static int all_reach_goal(const int32_t *dest, int64_t n, const int32_t *order, int64_t count, int64_t goal,
                          int32_t *work)
{
    int32_t *offsets = work;            /* n + 1: reverse adjacency in compressed rows */
    int32_t *fill = work + n + 1;       /* n + 1 */
    int32_t *sources = work + 2 * n + 2; /* at most 4 moves per reached cell: 4n */
    int32_t *queue = work + 6 * n + 2;  /* n */
    int32_t *seen = work + 7 * n + 2;   /* n */
    memset(offsets, 0, sizeof(int32_t) * (size_t)(n + 1));
    memset(seen, 0, sizeof(int32_t) * (size_t)n);
    for (int64_t k = 0; k < count; k++) {
        const int32_t u = order[k];
        if (u == goal) continue;
        for (int d = 0; d < 4; d++) {
            const int32_t v = dest[d * n + u];
            if (v >= 0) offsets[v + 1]++;
        }
    }
    for (int64_t i = 0; i < n; i++) offsets[i + 1] += offsets[i];
    memcpy(fill, offsets, sizeof(int32_t) * (size_t)(n + 1));
    for (int64_t k = 0; k < count; k++) {
        const int32_t u = order[k];
        if (u == goal) continue;
        for (int d = 0; d < 4; d++) {
            const int32_t v = dest[d * n + u];
            if (v >= 0) sources[fill[v]++] = u;
        }
    }
    int64_t head = 0, tail = 0;
    seen[goal] = 1;
    queue[tail++] = (int32_t)goal;
    while (head < tail) {
        const int32_t v = queue[head++];
        for (int32_t e = offsets[v]; e < offsets[v + 1]; e++) {
            const int32_t u = sources[e];
            if (!seen[u]) { seen[u] = 1; queue[tail++] = u; }
        }
    }
    return tail == count;
}

/* Class, reversibility and min stops of one level; `scratch` holds SCRATCH_INTS(n) ints
 * (a slide table, stops, order, and the backward-search work area). */
#define SCRATCH_INTS(n) (10 * (n) + WORK_INTS(n))
static void classify_one(const uint8_t *terrain, int h, int w, int64_t start, int64_t goal, int32_t *scratch,
                        int8_t *klass, uint8_t *reversible, int32_t *min_stops)
{
    const int64_t n = (int64_t)h * w;
    int32_t *dest = scratch, *length = scratch + 4 * n;
    int32_t *stops = scratch + 8 * n, *order = scratch + 9 * n, *work = scratch + 10 * n;
    slide_table(terrain, h, w, goal, dest, length);
    const int64_t count = reach(dest, n, start, goal, stops, order);
    if (stops[goal] < 0) {
        *klass = UNSOLVABLE; *reversible = 0; *min_stops = -1;
        return;
    }
    *min_stops = stops[goal];
    *klass = all_reach_goal(dest, n, order, count, goal, work) ? STRONG : WEAK;
    /* the reverse level: start and goal swapped, so the old start captures */
    slide_table(terrain, h, w, start, dest, length);
    reach(dest, n, goal, start, stops, order);
    *reversible = stops[start] >= 0;
}

/* ---- Python bindings ---------------------------------------------------------------------- */

static int get_buffer(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t itemsize, Py_ssize_t items,
                      const char *what)
{
    if (PyObject_GetBuffer(obj, view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len != itemsize * items) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd bytes, got %zd", what, itemsize * items, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *py_slide_table(PyObject *self, PyObject *args)
{
    PyObject *terrain_obj, *dest_obj, *length_obj;
    int h, w;
    long long capture;
    if (!PyArg_ParseTuple(args, "OiiLOO", &terrain_obj, &h, &w, &capture, &dest_obj, &length_obj)) return NULL;
    const Py_ssize_t n = (Py_ssize_t)h * w;
    Py_buffer t, d, l;
    if (get_buffer(terrain_obj, &t, 0, 1, n, "terrain") < 0) return NULL;
    if (get_buffer(dest_obj, &d, 1, 4, 4 * n, "dest") < 0) { PyBuffer_Release(&t); return NULL; }
    if (get_buffer(length_obj, &l, 1, 4, 4 * n, "length") < 0) { PyBuffer_Release(&t); PyBuffer_Release(&d); return NULL; }
    Py_BEGIN_ALLOW_THREADS
    slide_table((const uint8_t *)t.buf, h, w, capture, (int32_t *)d.buf, (int32_t *)l.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&t); PyBuffer_Release(&d); PyBuffer_Release(&l);
    Py_RETURN_NONE;
}

static PyObject *py_reach(PyObject *self, PyObject *args)
{
    PyObject *dest_obj, *stops_obj, *order_obj;
    long long n, start, goal;
    if (!PyArg_ParseTuple(args, "OLLLOO", &dest_obj, &n, &start, &goal, &stops_obj, &order_obj)) return NULL;
    Py_buffer d, s, o;
    if (get_buffer(dest_obj, &d, 0, 4, 4 * n, "dest") < 0) return NULL;
    if (get_buffer(stops_obj, &s, 1, 4, n, "stops") < 0) { PyBuffer_Release(&d); return NULL; }
    if (get_buffer(order_obj, &o, 1, 4, n, "order") < 0) { PyBuffer_Release(&d); PyBuffer_Release(&s); return NULL; }
    int64_t count;
    Py_BEGIN_ALLOW_THREADS
    count = reach((const int32_t *)d.buf, n, start, goal, (int32_t *)s.buf, (int32_t *)o.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&d); PyBuffer_Release(&s); PyBuffer_Release(&o);
    return PyLong_FromLongLong(count);
}

/* classify_batch(terrains, count, h, w, starts(int64), goals(int64), classes(int8), reversible(uint8),
 *                min_stops(int32)): the GIL is released, so threads can share a batch. */
static PyObject *py_classify_batch(PyObject *self, PyObject *args)
{
    PyObject *objs[6];
    long long count;
    int h, w;
    if (!PyArg_ParseTuple(args, "OLiiOOOOO", &objs[0], &count, &h, &w, &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5]))
        return NULL;
    const Py_ssize_t n = (Py_ssize_t)h * w;
    Py_buffer v[6];
    const Py_ssize_t sizes[6] = {1, 8, 8, 1, 1, 4};
    const Py_ssize_t items[6] = {count * n, count, count, count, count, count};
    const char *names[6] = {"terrains", "starts", "goals", "classes", "reversible", "min_stops"};
    for (int k = 0; k < 6; k++) {
        if (get_buffer(objs[k], &v[k], k >= 3, sizes[k], items[k], names[k]) < 0) {
            for (int j = 0; j < k; j++) PyBuffer_Release(&v[j]);
            return NULL;
        }
    }
    const int64_t *starts = (const int64_t *)v[1].buf, *goals = (const int64_t *)v[2].buf;
    for (long long k = 0; k < count; k++) {
        if (starts[k] < 0 || starts[k] >= n || goals[k] < 0 || goals[k] >= n) {
            for (int j = 0; j < 6; j++) PyBuffer_Release(&v[j]);
            return PyErr_Format(PyExc_ValueError, "level %lld: start or goal outside the grid", k);
        }
    }
    int32_t *scratch = (int32_t *)malloc(sizeof(int32_t) * (size_t)SCRATCH_INTS(n));
    int failed = scratch == NULL;
    Py_BEGIN_ALLOW_THREADS
    for (long long k = 0; k < count && !failed; k++) {
        classify_one((const uint8_t *)v[0].buf + k * n, h, w, starts[k], goals[k], scratch,
                     (int8_t *)v[3].buf + k, (uint8_t *)v[4].buf + k, (int32_t *)v[5].buf + k);
    }
    Py_END_ALLOW_THREADS
    free(scratch);
    for (int j = 0; j < 6; j++) PyBuffer_Release(&v[j]);
    if (failed) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"slide_table", py_slide_table, METH_VARARGS, "slide_table(terrain, h, w, capture, dest, length)"},
    {"reach", py_reach, METH_VARARGS, "reach(dest, n, start, goal, stops, order) -> reached count"},
    {"classify_batch", py_classify_batch, METH_VARARGS,
     "classify_batch(terrains, count, h, w, starts, goals, classes, reversible, min_stops)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "designer._kernels", "Compiled kernels.", -1, methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
