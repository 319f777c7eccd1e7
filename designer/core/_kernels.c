/*
 * The Python bindings of the compiled kernels, one file a concern beside them (kernels.h):
 * kernels_tables.c (the sliding rule, portals and floors, breadth-first reachability, the fast
 * classifier), kernels_search.c (the choice figures, the exhaustive search with its exact layout
 * filter over 64-bit cell sets, the best pair of one terrain), kernels_anneal.c (the two
 * annealing chains: whole layouts, compressed open grids) and kernels_explain.c (the
 * refutations of the counterexample loop). Arrays come in and go out through the buffer
 * protocol (numpy arrays); nothing here allocates Python objects per cell. The two long calls
 * take one job each (designer/core/kernel_jobs.py), read field by field into a struct.
 *
 * Terrain codes: 0 ice, 1 rock, 2 snow. Directions: 0 u, 1 d, 2 l, 3 r.
 *
 * designer/core/kernels.py is the one caller: it checks every index, length and value before calling
 * in. The bindings below still refuse what would take them outside a buffer (a start, goal,
 * cell or count out of range), so a direct call with bad arguments raises ValueError too.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>

#include "kernels.h"

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

static void release_buffers(Py_buffer *v, int count)
{
    for (int j = 0; j < count; j++) PyBuffer_Release(&v[j]);
}

/* The buffers of objs[0..count-1], C-contiguous and writable where writable[k] (NULL: none is),
 * all or none: on a failure the ones taken are released and -1 is returned (the error is set). */
static int get_buffers(PyObject **objs, Py_buffer *v, const int *writable, int count)
{
    for (int k = 0; k < count; k++) {
        if (PyObject_GetBuffer(objs[k], &v[k], (writable && writable[k] ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS) < 0) {
            release_buffers(v, k);
            return -1;
        }
    }
    return 0;
}

/* ---- a job's fields, read by name (designer/core/kernel_jobs.py) --------------------------- */

/* The integer field `name` of `job` into *out (TypeError or OverflowError, -1, otherwise). */
static int field_long(PyObject *job, const char *name, long long *out)
{
    PyObject *value = PyObject_GetAttrString(job, name);
    if (!value) return -1;
    const long long x = PyLong_AsLongLong(value);
    Py_DECREF(value);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}

static int field_int(PyObject *job, const char *name, int *out)
{
    long long x;
    if (field_long(job, name, &x) < 0) return -1;
    if (x < INT_MIN || x > INT_MAX) {
        PyErr_Format(PyExc_OverflowError, "%s: %lld is out of range", name, x);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int field_double(PyObject *job, const char *name, double *out)
{
    PyObject *value = PyObject_GetAttrString(job, name);
    if (!value) return -1;
    *out = PyFloat_AsDouble(value);
    Py_DECREF(value);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* The buffers of the fields `names[0..count-1]`, as get_buffers takes them. */
static int field_buffers(PyObject *job, const char *const *names, Py_buffer *v, const int *writable, int count)
{
    PyObject *objs[16];
    int taken = 0, failed = 0;
    for (; taken < count; taken++) {
        objs[taken] = PyObject_GetAttrString(job, names[taken]);
        if (!objs[taken]) { failed = 1; break; }
    }
    if (!failed) failed = get_buffers(objs, v, writable, count) < 0;
    for (int k = 0; k < taken; k++) Py_DECREF(objs[k]);
    return failed ? -1 : 0;
}


static PyObject *py_slide_table(PyObject *self, PyObject *args)
{
    PyObject *terrain_obj, *dest_obj, *length_obj;
    int h, w;
    long long capture;
    if (!PyArg_ParseTuple(args, "OiiLOO", &terrain_obj, &h, &w, &capture, &dest_obj, &length_obj)) return NULL;
    const Py_ssize_t n = (Py_ssize_t)h * w;
    if (h < 1 || w < 1 || capture < -1 || capture >= n)
        return PyErr_Format(PyExc_ValueError, "slide_table: bad size %dx%d or capture %lld", h, w, capture);
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

static PyObject *py_passage_table(PyObject *self, PyObject *args)
{
    PyObject *objs[5];
    int h, w, nfloors;
    long long capture;
    if (!PyArg_ParseTuple(args, "OiiOiOLOO", &objs[0], &h, &w, &objs[1], &nfloors, &objs[2], &capture, &objs[3],
                          &objs[4]))
        return NULL;
    const Py_ssize_t n = (Py_ssize_t)h * w;
    if (h < 1 || w < 1 || nfloors < 1 || capture < -1 || capture >= n)
        return PyErr_Format(PyExc_ValueError, "passage_table: bad size %dx%d, %d floors or capture %lld", h, w,
                            nfloors, capture);
    Py_buffer v[5];
    const int writable[5] = {0, 0, 0, 1, 1};
    if (get_buffers(objs, v, writable, 5) < 0) return NULL;
    const Py_ssize_t sizes[5] = {n, 16 * (Py_ssize_t)nfloors, 4 * n, 16 * n, 16 * n};
    for (int k = 0; k < 5; k++) {
        if (v[k].len != sizes[k]) {
            release_buffers(v, 5);
            return PyErr_Format(PyExc_ValueError, "passage_table: buffer %d holds %zd bytes, not %zd", k, v[k].len,
                                sizes[k]);
        }
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = passage_table((const uint8_t *)v[0].buf, h, w, (const int32_t *)v[1].buf, nfloors,
                           (const int32_t *)v[2].buf, capture, (int32_t *)v[3].buf, (int32_t *)v[4].buf);
    Py_END_ALLOW_THREADS
    release_buffers(v, 5);
    if (failed) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *py_reach(PyObject *self, PyObject *args)
{
    PyObject *dest_obj, *stops_obj, *order_obj;
    long long n, start, goal;
    if (!PyArg_ParseTuple(args, "OLLLOO", &dest_obj, &n, &start, &goal, &stops_obj, &order_obj)) return NULL;
    if (n < 1 || n > INT32_MAX || start < 0 || start >= n || goal < -1 || goal >= n)
        return PyErr_Format(PyExc_ValueError, "reach: start %lld or goal %lld outside 0..%lld", start, goal, n - 1);
    Py_buffer d, s, o;
    if (get_buffer(dest_obj, &d, 0, 4, 4 * n, "dest") < 0) return NULL;
    if (get_buffer(stops_obj, &s, 1, 4, n, "stops") < 0) { PyBuffer_Release(&d); return NULL; }
    if (get_buffer(order_obj, &o, 1, 4, n, "order") < 0) { PyBuffer_Release(&d); PyBuffer_Release(&s); return NULL; }
    const int32_t *table = (const int32_t *)d.buf;
    for (long long k = 0; k < 4 * n; k++) {
        if (table[k] < -1 || table[k] >= n) {
            PyBuffer_Release(&d); PyBuffer_Release(&s); PyBuffer_Release(&o);
            return PyErr_Format(PyExc_ValueError, "reach: dest holds a cell outside 0..%lld", n - 1);
        }
    }
    int64_t count;
    Py_BEGIN_ALLOW_THREADS
    count = reach((const int32_t *)d.buf, n, start, goal, (int32_t *)s.buf, (int32_t *)o.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&d); PyBuffer_Release(&s); PyBuffer_Release(&o);
    return PyLong_FromLongLong(count);
}

/* all_reach_goal(dest, n, order, count, goal): 1 when the goal can be reached from every one of the
 * `count` states in `order` (a move table of n states, such as a level with items has). */
static PyObject *py_all_reach_goal(PyObject *self, PyObject *args)
{
    PyObject *dest_obj, *order_obj;
    long long n, count, goal;
    if (!PyArg_ParseTuple(args, "OLOLL", &dest_obj, &n, &order_obj, &count, &goal)) return NULL;
    if (n < 1 || n > INT32_MAX / 8 || count < 0 || count > n || goal < 0 || goal >= n)
        return PyErr_Format(PyExc_ValueError, "all_reach_goal: count %lld or goal %lld outside 0..%lld", count, goal, n - 1);
    Py_buffer d, o;
    if (get_buffer(dest_obj, &d, 0, 4, 4 * n, "dest") < 0) return NULL;
    if (get_buffer(order_obj, &o, 0, 4, count, "order") < 0) { PyBuffer_Release(&d); return NULL; }
    const int32_t *table = (const int32_t *)d.buf, *order = (const int32_t *)o.buf;
    for (long long k = 0; k < 4 * n; k++) {
        if (table[k] < -1 || table[k] >= n) {
            PyBuffer_Release(&d); PyBuffer_Release(&o);
            return PyErr_Format(PyExc_ValueError, "all_reach_goal: dest holds a state outside 0..%lld", n - 1);
        }
    }
    for (long long k = 0; k < count; k++) {
        if (order[k] < 0 || order[k] >= n) {
            PyBuffer_Release(&d); PyBuffer_Release(&o);
            return PyErr_Format(PyExc_ValueError, "all_reach_goal: order holds a state outside 0..%lld", n - 1);
        }
    }
    int32_t *work = (int32_t *)malloc(sizeof(int32_t) * (size_t)WORK_INTS(n));
    if (work == NULL) { PyBuffer_Release(&d); PyBuffer_Release(&o); return PyErr_NoMemory(); }
    int all;
    Py_BEGIN_ALLOW_THREADS
    all = all_reach_goal(table, n, order, count, goal, work);
    Py_END_ALLOW_THREADS
    free(work);
    PyBuffer_Release(&d); PyBuffer_Release(&o);
    return PyBool_FromLong(all);
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
            release_buffers(v, k);
            return NULL;
        }
    }
    const int64_t *starts = (const int64_t *)v[1].buf, *goals = (const int64_t *)v[2].buf;
    for (long long k = 0; k < count; k++) {
        if (starts[k] < 0 || starts[k] >= n || goals[k] < 0 || goals[k] >= n) {
            release_buffers(v, 6);
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
    release_buffers(v, 6);
    if (failed) return PyErr_NoMemory();
    Py_RETURN_NONE;
}


/* exhaustive(job: a SearchJob) -> (best, ties, mask, start, goal, layouts, complete). The job's
 * buffers: base, free_cells (int32), start_ok, goal_ok (uint8), syms (int32, nsyms x nfree), stop
 * (int32[1]), routes (int32[4 x routes]: a room's, empty for a level). */
static PyObject *py_exhaustive(PyObject *self, PyObject *job)
{
    static const char *const names[7] = {"base", "free_cells", "start_ok", "goal_ok", "syms", "stop", "routes"};
    int h, w, nsyms, rocks, first, second, threshold, room_mode, cpu_clock;
    double budget;
    if (field_int(job, "h", &h) < 0 || field_int(job, "w", &w) < 0 || field_int(job, "nsyms", &nsyms) < 0 ||
        field_int(job, "rocks", &rocks) < 0 || field_int(job, "first", &first) < 0 ||
        field_int(job, "second", &second) < 0 || field_int(job, "threshold", &threshold) < 0 ||
        field_double(job, "budget", &budget) < 0 || field_int(job, "room_mode", &room_mode) < 0 ||
        field_int(job, "cpu_clock", &cpu_clock) < 0)
        return NULL;
    if (h < 1 || w < 1 || nsyms < 0 || !(budget >= 0))
        return PyErr_Format(PyExc_ValueError, "exhaustive: bad size, symmetry count or budget");
    if (room_mode != ROOM_SUM && room_mode != ROOM_MIN)
        return PyErr_Format(PyExc_ValueError, "exhaustive: a room's score is its sum or its shortest route");
    Py_buffer v[7];
    if (field_buffers(job, names, v, NULL, 7) < 0) return NULL;
    const Py_ssize_t n = (Py_ssize_t)h * w;
    const int nfree = (int)(v[1].len / 4);
    const Py_ssize_t nroutes = v[6].len / 16;
    const char *bad = NULL;
    if (v[0].len != n || v[2].len != n || v[3].len != n || v[1].len % 4 || nfree > 64 || v[5].len != 4 ||
        v[4].len != (Py_ssize_t)4 * nsyms * nfree || v[6].len % 16)
        bad = "inconsistent buffers (or more than 64 free cells)";
    else if (rocks < 0 || rocks > nfree || (rocks == 0 && first != 0) || (rocks > 0 && (first < 0 || first > nfree - rocks)))
        bad = "rocks or first out of range";
    else if (second < -1 || (second >= 0 && (rocks < 2 || second <= first || second > nfree - rocks + 1)))
        bad = "second out of range";
    else {
        const int32_t *cells = (const int32_t *)v[1].buf, *perm = (const int32_t *)v[4].buf;
        for (int k = 0; k < nfree && !bad; k++) if (cells[k] < 0 || cells[k] >= n) bad = "a free cell outside the grid";
        for (Py_ssize_t k = 0; k < (Py_ssize_t)nsyms * nfree && !bad; k++)
            if (perm[k] < 0 || perm[k] >= nfree) bad = "a symmetry maps outside the free cells";
        const int32_t *table = (const int32_t *)v[6].buf;
        for (Py_ssize_t k = 0; k < nroutes && !bad; k++) {
            const int32_t *route = table + 4 * k;
            if (route[0] < 0 || route[0] >= n || route[1] < 0 || route[1] >= n || route[0] == route[1] || route[2] < 0)
                bad = "a route's doors outside the grid, the same cell, or a negative floor";
        }
    }
    if (bad) {
        release_buffers(v, 7);
        return PyErr_Format(PyExc_ValueError, "exhaustive: %s", bad);
    }
    Search found = {-1, 0, 0, -1, -1, 0, 1, 0};
    const SearchJob search = {(const uint8_t *)v[0].buf, h, w, (const int32_t *)v[1].buf, nfree,
                              (const uint8_t *)v[2].buf, (const uint8_t *)v[3].buf, (const int32_t *)v[4].buf,
                              nsyms, rocks, first, second, threshold, budget, (volatile const int32_t *)v[5].buf,
                              {(const int32_t *)v[6].buf, (int)nroutes, room_mode}, cpu_clock};
    Py_BEGIN_ALLOW_THREADS
    search_layouts(&search, &found);
    Py_END_ALLOW_THREADS
    release_buffers(v, 7);
    if (found.out_of_memory) return PyErr_NoMemory();
    return Py_BuildValue("iLKiiLi", found.best, (long long)found.ties, (unsigned long long)found.mask, found.start,
                         found.goal, (long long)found.layouts, found.complete);
}

/* choice_figures(terrain(uint8 n), h, w, start, goal) -> (options, rail stops, solutions up to 2) */
static PyObject *py_choice_figures(PyObject *self, PyObject *args)
{
    PyObject *obj;
    int h, w;
    long long start, goal;
    if (!PyArg_ParseTuple(args, "OiiLL", &obj, &h, &w, &start, &goal)) return NULL;
    if (h < 1 || w < 1 || (long long)h * w > INT32_MAX / 32)
        return PyErr_Format(PyExc_ValueError, "choice_figures: bad size %dx%d", h, w);
    const Py_ssize_t n = (Py_ssize_t)h * w;
    if (start < 0 || start >= n || goal < 0 || goal >= n || start == goal)
        return PyErr_Format(PyExc_ValueError, "choice_figures: start or goal outside the grid, or the same cell");
    Py_buffer view;
    if (get_buffer(obj, &view, 0, 1, n, "terrain") < 0) return NULL;
    int32_t *scratch = (int32_t *)malloc(sizeof(int32_t) * (size_t)CHOICE_INTS(n));
    int32_t options = -1, rails = 0, solutions = 0;
    if (scratch) {
        Py_BEGIN_ALLOW_THREADS
        choice_figures((const uint8_t *)view.buf, h, w, start, goal, scratch, &options, &rails, &solutions);
        Py_END_ALLOW_THREADS
    }
    const int failed = scratch == NULL;
    free(scratch);
    release_buffers(&view, 1);
    if (failed) return PyErr_NoMemory();
    return Py_BuildValue("iii", options, rails, solutions);
}

/* best_pair(terrain(uint8 n), h, w, start_ok(uint8 n), goal_ok(uint8 n), threshold) -> (best, start, goal) */
static PyObject *py_best_pair(PyObject *self, PyObject *args)
{
    PyObject *objs[3];
    int h, w, threshold;
    if (!PyArg_ParseTuple(args, "OiiOOi", &objs[0], &h, &w, &objs[1], &objs[2], &threshold)) return NULL;
    if (h < 1 || w < 1 || (long long)h * w > INT32_MAX / 32)
        return PyErr_Format(PyExc_ValueError, "best_pair: bad size %dx%d", h, w);
    const Py_ssize_t n = (Py_ssize_t)h * w;
    Py_buffer v[3];
    const char *names[3] = {"terrain", "start_ok", "goal_ok"};
    for (int k = 0; k < 3; k++) {
        if (get_buffer(objs[k], &v[k], 0, 1, n, names[k]) < 0) {
            release_buffers(v, k);
            return NULL;
        }
    }
    int32_t *scratch = (int32_t *)malloc(sizeof(int32_t) * (size_t)BEST_PAIR_SCRATCH(n));
    Search found = {-1, 0, 0, -1, -1, 0, 1, 0};
    if (scratch) {
        Py_BEGIN_ALLOW_THREADS
        best_pair_of((const uint8_t *)v[0].buf, h, w, (const uint8_t *)v[1].buf, (const uint8_t *)v[2].buf, threshold,
                     scratch, &found);
        Py_END_ALLOW_THREADS
    }
    const int failed = scratch == NULL;
    free(scratch);
    release_buffers(v, 3);
    if (failed) return PyErr_NoMemory();
    return Py_BuildValue("iii", found.best, found.start, found.goal);
}

/* anneal_layout(job: an AnnealJob) -> steps taken. The job's buffers: terrain (uint8 n, in/out),
 * free (uint8 n), starts, goals (int32), ends (int32[2], in/out), score (int32[1], in/out), rng
 * (uint64[1], in/out), stop (int32[1]), best_terrain (uint8 n, out), best (int32[3], in/out),
 * routes (int32[4 x routes]: a room's, empty for a level). */
static PyObject *py_anneal_layout(PyObject *self, PyObject *job)
{
    static const char *const names[11] = {"terrain", "free", "starts", "goals", "ends", "score", "rng", "stop",
                                          "best_terrain", "best", "routes"};
    int h, w, max_rocks, max_stops, target, min_stops, min_options, unique, objective, room_mode;
    double heat_hi, heat_lo;
    long long steps;
    if (field_int(job, "h", &h) < 0 || field_int(job, "w", &w) < 0 || field_int(job, "max_rocks", &max_rocks) < 0 ||
        field_int(job, "max_stops", &max_stops) < 0 || field_double(job, "heat_hi", &heat_hi) < 0 ||
        field_double(job, "heat_lo", &heat_lo) < 0 || field_long(job, "steps", &steps) < 0 ||
        field_int(job, "target", &target) < 0 || field_int(job, "min_stops", &min_stops) < 0 ||
        field_int(job, "min_options", &min_options) < 0 || field_int(job, "unique", &unique) < 0 ||
        field_int(job, "objective", &objective) < 0 || field_int(job, "room_mode", &room_mode) < 0)
        return NULL;
    if (h < 1 || w < 1 || (long long)h * w > INT32_MAX / 32 || !(heat_hi > 0) || !(heat_lo > 0) || steps < 0)
        return PyErr_Format(PyExc_ValueError, "anneal_layout: bad size, heat or steps");
    if (objective < OBJECTIVE_STOPS || objective > OBJECTIVE_DECISIONS)
        return PyErr_Format(PyExc_ValueError, "anneal_layout: unknown objective %d", objective);
    if (room_mode < ROOM_SUM || room_mode > ROOM_PER_STOP)
        return PyErr_Format(PyExc_ValueError, "anneal_layout: unknown room score %d", room_mode);
    const Py_ssize_t n = (Py_ssize_t)h * w;
    const int writable[11] = {1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0};
    Py_buffer v[11];
    if (field_buffers(job, names, v, writable, 11) < 0) return NULL;
    const char *bad = NULL;
    const Py_ssize_t nstarts = v[2].len / 4, ngoals = v[3].len / 4, nroutes = v[10].len / 16;
    if (v[0].len != n || v[1].len != n || v[8].len != n || v[2].len % 4 || v[3].len % 4 || v[4].len != 8 ||
        v[5].len != 4 || v[6].len != 8 || v[7].len != 4 || v[9].len != 12 || v[10].len % 16)
        bad = "inconsistent buffers";
    else if (nstarts < 1 || ngoals < 1)
        bad = "no start or no goal cell";
    else {
        const int32_t *starts = (const int32_t *)v[2].buf, *goals = (const int32_t *)v[3].buf;
        const int32_t *ends = (const int32_t *)v[4].buf;
        for (Py_ssize_t k = 0; k < nstarts && !bad; k++) if (starts[k] < 0 || starts[k] >= n) bad = "a start cell outside the grid";
        for (Py_ssize_t k = 0; k < ngoals && !bad; k++) if (goals[k] < 0 || goals[k] >= n) bad = "a goal cell outside the grid";
        if (!bad && (ends[0] < 0 || ends[0] >= n || ends[1] < 0 || ends[1] >= n || ends[0] == ends[1]))
            bad = "start or goal outside the grid, or the same cell";
        const int32_t *routes = (const int32_t *)v[10].buf;
        for (Py_ssize_t k = 0; k < nroutes && !bad; k++) {
            const int32_t *route = routes + 4 * k;
            if (route[0] < 0 || route[0] >= n || route[1] < 0 || route[1] >= n || route[0] == route[1] || route[2] < 0)
                bad = "a route's doors outside the grid, the same cell, or a negative floor";
        }
    }
    if (bad) {
        release_buffers(v, 11);
        return PyErr_Format(PyExc_ValueError, "anneal_layout: %s", bad);
    }
    uint8_t *board = (uint8_t *)malloc((size_t)n);
    int32_t *scratch = (int32_t *)malloc(sizeof(int32_t) * (size_t)SCRATCH_INTS(n));
    int64_t taken = 0;
    if (board && scratch) {
        const AnnealJob chain = {
            (uint8_t *)v[0].buf, h, w,
            {(const uint8_t *)v[1].buf, (const int32_t *)v[2].buf, (int)nstarts, (const int32_t *)v[3].buf,
             (int)ngoals, max_rocks, max_stops, min_stops, min_options, unique != 0, objective,
             {(const int32_t *)v[10].buf, (int)nroutes, room_mode}},
            (int32_t *)v[4].buf, (int32_t *)v[5].buf, (uint64_t *)v[6].buf, heat_hi, heat_lo, steps, target,
            (volatile const int32_t *)v[7].buf, (uint8_t *)v[8].buf, (int32_t *)v[9].buf};
        Py_BEGIN_ALLOW_THREADS
        taken = anneal_layout(&chain, board, scratch);
        Py_END_ALLOW_THREADS
    }
    const int failed = !board || !scratch;
    free(board);
    free(scratch);
    release_buffers(v, 11);
    if (failed) return PyErr_NoMemory();
    return PyLong_FromLongLong((long long)taken);
}

/* anneal_open(terrain(uint8, H*W, in/out), dims(int32[2], in/out), H, W, goal(int32[2], in/out),
 *             score(int32[1], in/out), rng(uint64[1], in/out), heat_hi, heat_lo, steps, target,
 *             stop(int32[1]), best_terrain(uint8, H*W), best(int32[5], in/out)) -> steps taken */
static PyObject *py_anneal_open(PyObject *self, PyObject *args)
{
    PyObject *objs[8];
    int H, W, target;
    double heat_hi, heat_lo;
    long long steps;
    if (!PyArg_ParseTuple(args, "OOiiOOOddLiOOO", &objs[0], &objs[1], &H, &W, &objs[2], &objs[3], &objs[4], &heat_hi,
                          &heat_lo, &steps, &target, &objs[5], &objs[6], &objs[7]))
        return NULL;
    if (H < 1 || W < 1 || (long long)H * W > INT32_MAX / 32 || !(heat_hi > 0) || !(heat_lo > 0) || steps < 0)
        return PyErr_Format(PyExc_ValueError, "anneal_open: bad size, heat or steps");
    const Py_ssize_t cap = (Py_ssize_t)H * W;
    const int writable[8] = {1, 1, 1, 1, 1, 0, 1, 1};
    Py_buffer v[8];
    if (get_buffers(objs, v, writable, 8) < 0) return NULL;
    const char *bad = NULL;
    if (v[0].len != cap || v[1].len != 8 || v[2].len != 8 || v[3].len != 4 || v[4].len != 8 || v[5].len != 4 ||
        v[6].len != cap || v[7].len != 20)
        bad = "inconsistent buffers";
    else {
        const int32_t *dims = (const int32_t *)v[1].buf, *goal = (const int32_t *)v[2].buf;
        const int32_t *best = (const int32_t *)v[7].buf;
        if (dims[0] < 1 || dims[0] > H || dims[1] < 1 || dims[1] > W)
            bad = "terrain size outside 1..H x 1..W";
        else if (!(goal[0] == -1 || (goal[0] >= 0 && goal[0] < dims[0] && goal[1] >= 0 && goal[1] < dims[1])))
            bad = "goal outside the terrain";
        else if (best[0] >= 0 && (best[1] < 1 || best[1] > H || best[2] < 1 || best[2] > W))
            bad = "best size outside 1..H x 1..W";
    }
    if (bad) {
        release_buffers(v, 8);
        return PyErr_Format(PyExc_ValueError, "anneal_open: %s", bad);
    }
    /* scratch for the biggest terrain a move can make: one line more than H x W on neither axis */
    uint8_t *moved = (uint8_t *)malloc((size_t)cap + (size_t)(H > W ? H : W));
    uint8_t *start_ok = (uint8_t *)malloc((size_t)cap), *goal_ok = (uint8_t *)malloc((size_t)cap);
    int32_t *scratch = (int32_t *)malloc(sizeof(int32_t) * (size_t)BEST_PAIR_SCRATCH(cap));
    int64_t taken = 0;
    const int failed = !moved || !start_ok || !goal_ok || !scratch;
    if (!failed) {
        Py_BEGIN_ALLOW_THREADS
        taken = anneal_open((uint8_t *)v[0].buf, (int32_t *)v[1].buf, H, W, (int32_t *)v[2].buf, (int32_t *)v[3].buf,
                            (uint64_t *)v[4].buf, heat_hi, heat_lo, steps, target, (volatile const int32_t *)v[5].buf,
                            (uint8_t *)v[6].buf, (int32_t *)v[7].buf, moved, start_ok, goal_ok, scratch);
        Py_END_ALLOW_THREADS
    }
    free(moved);
    free(start_ok);
    free(goal_ok);
    free(scratch);
    release_buffers(v, 8);
    if (failed) return PyErr_NoMemory();
    return PyLong_FromLongLong((long long)taken);
}

static PyObject *py_refute_explain(PyObject *self, PyObject *args)
{
    PyObject *base_obj, *var_obj, *routes_obj, *model_obj, *out_obj;
    int h, w, nv, nroutes;
    if (!PyArg_ParseTuple(args, "OOiiiOiOO", &base_obj, &var_obj, &h, &w, &nv, &routes_obj, &nroutes, &model_obj,
                          &out_obj)) return NULL;
    const Py_ssize_t n = (Py_ssize_t)h * w;
    if (h < 1 || w < 1 || h > 40 || w > 40 || nv < 0 || nv > n || nroutes < 1 || nroutes > 64)
        return PyErr_Format(PyExc_ValueError, "refute_explain: bad size %dx%d, %d variables or %d routes", h, w, nv,
                            nroutes);
    PyObject *model = PySequence_Fast(model_obj, "refute_explain: the model must be a sequence");
    if (!model) return NULL;
    const Py_ssize_t given = PySequence_Fast_GET_SIZE(model); /* a variable past its end is ice */
    Py_buffer v[4];
    PyObject *objs[4] = {base_obj, var_obj, routes_obj, out_obj};
    const int writable[4] = {0, 0, 0, 1};
    if (get_buffers(objs, v, writable, 4) < 0) { Py_DECREF(model); return NULL; }
    const char *bad = NULL;
    if (v[0].len != n) bad = "base";
    else if (v[1].len != 4 * n) bad = "var";
    else if (v[2].len != 12 * (Py_ssize_t)nroutes) bad = "routes";
    else if (v[3].len < 16 || v[3].len % 4) bad = "out";
    Explainer *x = explainer();
    x->h = h; x->w = w; x->n = (int)n; x->nv = nv;
    x->base = (const uint8_t *)v[0].buf;
    x->var = (const int32_t *)v[1].buf;
    const int32_t *routes = (const int32_t *)v[2].buf;
    for (Py_ssize_t i = 0; !bad && i < n; i++) {
        const int32_t var = x->var[i];
        if (var < 0 || var > nv) { bad = "var"; break; }
        if (var > given) {
            x->tile[i] = 0;
        } else if (var) {
            const long lit = PyLong_AsLong(PySequence_Fast_GET_ITEM(model, var - 1));
            if (lit == -1 && PyErr_Occurred()) { bad = "model"; break; }
            x->tile[i] = lit > 0 ? ROCK : 0;
        } else {
            if (x->base[i] > SNOW) { bad = "base"; break; }
            x->tile[i] = x->base[i];
        }
    }
    for (int r = 0; !bad && r < nroutes; r++) {
        const int32_t s = routes[3 * r], g = routes[3 * r + 1], K = routes[3 * r + 2];
        if (s < 0 || s >= n || g < 0 || g >= n || s == g || K < 0 || K > 4 * n || x->var[s] || x->var[g]
            || x->tile[s] != 0 || x->tile[g] != 0) bad = "routes";
    }
    Py_DECREF(model);
    if (bad) {
        release_buffers(v, 4);
        PyErr_Clear();
        return PyErr_Format(PyExc_ValueError, "refute_explain: bad %s", bad);
    }
    const int written = refute_explain(x, routes, nroutes, (int32_t *)v[3].buf, (int)(v[3].len / 4));
    release_buffers(v, 4);
    if (written == -3) return PyErr_NoMemory();
    if (written == -2) return PyErr_Format(PyExc_ValueError, "refute_explain: out is too small");
    return PyLong_FromLong(written);
}

/* player_runs(job: PlayerJob): the runs' moves, restarts, rests, controls, counts and basis into the
 * job's out buffers (value, control, counts and basis may be empty: no guesses, no counts, no basis) */
static PyObject *py_player_runs(PyObject *self, PyObject *job)
{
    static const char *const names[11] = {"next",     "weight", "sight", "give_up", "moves", "restarts",
                                          "visits", "value",  "control", "counts", "basis"};
    static const int writable[11] = {0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1};
    int n, start;
    long long runs, cap, seed;
    double novelty, variety, lapse, notice;
    if (field_int(job, "n", &n) < 0 || field_int(job, "start", &start) < 0 ||
        field_long(job, "runs", &runs) < 0 || field_long(job, "cap", &cap) < 0 ||
        field_long(job, "seed", &seed) < 0 || field_double(job, "novelty", &novelty) < 0 ||
        field_double(job, "variety", &variety) < 0 || field_double(job, "lapse", &lapse) < 0 ||
        field_double(job, "notice", &notice) < 0)
        return NULL;
    if (n < 1 || start < 0 || start >= n || runs < 0 || cap < 1 || !(novelty >= 0) || !(novelty < HUGE_VAL) ||
        !(variety >= 0) || !(variety < HUGE_VAL) || !(lapse >= 0 && lapse <= 1) || !(notice >= 0 && notice <= 1))
        return PyErr_Format(PyExc_ValueError,
                            "player_runs: bad stops, start, runs, cap, novelty, variety, lapse or notice");
    Py_buffer v[11];
    if (field_buffers(job, names, v, writable, 11) < 0) return NULL;
    const char *bad = NULL;
    const int guesses = (int)(v[7].len / ((Py_ssize_t)40 * n));
    if (v[0].len != (Py_ssize_t)16 * n || v[1].len != (Py_ssize_t)160 * n || v[2].len != n || v[3].len < 8 ||
        v[3].len % 8 || v[4].len != 8 * runs || v[5].len != 8 * runs || v[6].len != (Py_ssize_t)8 * n ||
        v[7].len % ((Py_ssize_t)40 * n) || guesses > 2 || v[8].len != 8 * runs * guesses ||
        (v[9].len && v[9].len != (Py_ssize_t)240 * n))
        bad = "inconsistent buffers";
    if (!bad && v[10].len && (v[10].len != (Py_ssize_t)40 * n * runs || guesses || n > 64))
        bad = "a basis of the wrong size, or beside guesses, or past 64 stops";
    for (Py_ssize_t k = 0; k < v[7].len / 8 && !bad; k++) {
        const double x = ((const double *)v[7].buf)[k];
        if (!(x > -HUGE_VAL && x < HUGE_VAL)) bad = "a guess that is not a finite number";
    }
    const int32_t *next = (const int32_t *)v[0].buf;
    const double *weight = (const double *)v[1].buf, *give_up = (const double *)v[3].buf;
    const uint8_t *sight = (const uint8_t *)v[2].buf;
    for (int s = 0; s < n && !bad; s++) {
        int open = 0;
        for (int a = 0; a < 4; a++) {
            const int32_t to = next[4 * s + a];
            if (to < -3 || to >= n) bad = "a move to a stop out of range";
            open += to != -3;
            for (int l = 0; l < 5; l++) {
                const double x = weight[(5 * s + l) * 4 + a];
                if (!(x >= 0 && x < HUGE_VAL)) bad = "a weight that is not a finite number of at least 0";
            }
        }
        if (!open) bad = "a stop with no move";
        for (int l = 0; l < 5 && !bad; l++) {
            double total = 0.0;
            for (int a = 0; a < 4; a++)
                if (next[4 * s + a] != -3) total += weight[(5 * s + l) * 4 + a];
            if (!(total > 0)) bad = "a stop whose open moves all weigh 0";
        }
        if (sight[s] > 4 || (sight[s] < 4 && next[4 * s + sight[s]] != -1)) bad = "a sight that is no move onto the exit";
    }
    for (Py_ssize_t k = 0; k < v[3].len / 8 && !bad; k++)
        if (!(give_up[k] >= 0 && give_up[k] <= 1)) bad = "a chance to give up outside 0..1";
    if (bad) {
        release_buffers(v, 11);
        return PyErr_Format(PyExc_ValueError, "player_runs: %s", bad);
    }
    const PlayerJob play = {n, next, weight, sight, give_up, (int)(v[3].len / 8), novelty, variety, lapse, notice,
                            start, (int64_t)runs, (int64_t)cap, (uint64_t)seed,
                            guesses ? (const double *)v[7].buf : NULL, guesses};
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = player_runs(&play, (int64_t *)v[4].buf, (int64_t *)v[5].buf, (double *)v[6].buf, (double *)v[8].buf,
                         v[9].len ? (double *)v[9].buf : NULL, v[10].len ? (double *)v[10].buf : NULL);
    Py_END_ALLOW_THREADS
    release_buffers(v, 11);
    if (failed) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"slide_table", py_slide_table, METH_VARARGS, "slide_table(terrain, h, w, capture, dest, length)"},
    {"passage_table", py_passage_table, METH_VARARGS,
     "passage_table(terrain, h, w, floors, nfloors, portal_of, capture, dest, length)"},
    {"reach", py_reach, METH_VARARGS, "reach(dest, n, start, goal, stops, order) -> reached count"},
    {"all_reach_goal", py_all_reach_goal, METH_VARARGS,
     "all_reach_goal(dest, n, order, count, goal) -> whether every state of order reaches the goal"},
    {"classify_batch", py_classify_batch, METH_VARARGS,
     "classify_batch(terrains, count, h, w, starts, goals, classes, reversible, min_stops)"},
    {"exhaustive", py_exhaustive, METH_O, "exhaustive(job: SearchJob) -> (best, ties, mask, start, goal, layouts, complete)"},
    {"best_pair", py_best_pair, METH_VARARGS, "best_pair(terrain, h, w, start_ok, goal_ok, threshold) -> (best, start, goal)"},
    {"anneal_open", py_anneal_open, METH_VARARGS,
     "anneal_open(terrain, dims, H, W, goal, score, rng, heat_hi, heat_lo, steps, target, stop, best_terrain, best) "
     "-> steps taken"},
    {"anneal_layout", py_anneal_layout, METH_O, "anneal_layout(job: AnnealJob) -> steps taken"},
    {"choice_figures", py_choice_figures, METH_VARARGS,
     "choice_figures(terrain, h, w, start, goal) -> (options, rail stops, solutions up to 2)"},
    {"refute_explain", py_refute_explain, METH_VARARGS,
     "refute_explain(base, var, h, w, nv, routes, nroutes, model, out) -> -1 (every route passes) or entries written"},
    {"player_runs", py_player_runs, METH_O, "player_runs(job: PlayerJob): runs of one member of the player family"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "designer.core._kernels", "Compiled kernels.", -1, methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
