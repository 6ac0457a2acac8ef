/* The analysis's walk (`walk.py`) in C: the same visits, steps and lines walked again as the Python walk,
 * which stays the reference (a test compares them over many seeds).
 *
 * Where the Python walk keeps, at every visited node, a heap of its children's nearest objects, this keeps the
 * candidates (the objects the walker may visit next) in a segment tree over the tree's depth-first order, where
 * a subtree is a range: a candidate c is keyed depth(c) * size + rank(c), so that the least key of a visited
 * node v's range, less depth(v) * size, is the distance from v to its nearest candidate (times size) plus
 * that candidate's rank: the Python walk's `nearest[v]`, the same number.
 *
 * walk(parent, is_key, set_of, required, by_rank, sets, visits, order, steps_at, climbed)
 *   parent, set_of, required: int32 a node (Start first, its parent -1); is_key: bytes;
 *   by_rank: the node ids by placement order, then id (a node's rank is its place there);
 *   visits: the objects to visit (all but the locks that can never open);
 *   out: order (int32, visits + 1: Start first), steps_at (int64, the steps walked when each was reached),
 *   climbed (bytes a node: the line above it was climbed, so walked again).
 * Returns (the objects visited, the steps walked): fewer visited than asked means the diagram is unsolvable. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    Py_ssize_t leaves;
    int64_t *cells; /* cells[leaves + i]: the key of the node i-th in depth-first order, else NONE */
} MinTree;

static const int64_t NONE = INT64_MAX;

static void tree_set(MinTree *t, Py_ssize_t at, int64_t key) {
    Py_ssize_t i = at + t->leaves;
    t->cells[i] = key;
    for (i >>= 1; i; i >>= 1) {
        int64_t left = t->cells[2 * i], right = t->cells[2 * i + 1];
        t->cells[i] = left < right ? left : right;
    }
}

static int64_t tree_least(const MinTree *t, Py_ssize_t low, Py_ssize_t high) { /* over [low, high) */
    int64_t least = NONE;
    for (low += t->leaves, high += t->leaves; low < high; low >>= 1, high >>= 1) {
        if (low & 1 && t->cells[low] < least) least = t->cells[low];
        if (low & 1) low++;
        if (high & 1 && t->cells[high - 1] < least) least = t->cells[high - 1];
    }
    return least;
}

/* The Python walk's nearest[v] for a visited node v: its subtree's least key, less its own depth. */
static int64_t nearest(const MinTree *t, int32_t first, int32_t last, int64_t depth_key, int64_t far) {
    int64_t least = tree_least(t, first, last);
    return least == NONE ? far : least - depth_key;
}

static PyObject *walk(PyObject *self, PyObject *args) {
    Py_buffer parent_buf, key_buf, set_buf, required_buf, by_rank_buf, order_buf, steps_buf, climbed_buf;
    Py_ssize_t sets, visits;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*nnw*w*w*", &parent_buf, &key_buf, &set_buf, &required_buf, &by_rank_buf,
                          &sets, &visits, &order_buf, &steps_buf, &climbed_buf))
        return NULL;
    const int32_t *parent = parent_buf.buf, *set_of = set_buf.buf, *required = required_buf.buf;
    const int32_t *by_rank = by_rank_buf.buf;
    const char *is_key = key_buf.buf;
    int32_t *order = order_buf.buf;
    int64_t *steps_at = steps_buf.buf;
    char *climbed = climbed_buf.buf;
    Py_ssize_t size = key_buf.len, visited = 0;
    int64_t steps = 0, far = (int64_t)(size + 1) * size * 2; /* more than any distance * size + rank */
    PyObject *result = NULL;
    MinTree candidates = {1, NULL};
    while (candidates.leaves < size) candidates.leaves *= 2;
    int32_t *kid_start = calloc((size_t)size + 1, sizeof(int32_t)), *kids = malloc(sizeof(int32_t) * (size_t)size);
    int32_t *first = malloc(sizeof(int32_t) * (size_t)size), *last = malloc(sizeof(int32_t) * (size_t)size);
    int32_t *depth = malloc(sizeof(int32_t) * (size_t)size), *stack = malloc(sizeof(int32_t) * (size_t)size);
    int32_t *preorder = malloc(sizeof(int32_t) * (size_t)size);
    int32_t *held = calloc((size_t)sets + 1, sizeof(int32_t)), *waiting = malloc(sizeof(int32_t) * ((size_t)sets + 1));
    int32_t *next_waiting = malloc(sizeof(int32_t) * (size_t)size), *rank = malloc(sizeof(int32_t) * (size_t)size);
    candidates.cells = malloc(sizeof(int64_t) * 2 * (size_t)candidates.leaves);
    if (parent_buf.len != 4 * size || set_buf.len != 4 * size || required_buf.len != 4 * size
        || by_rank_buf.len != 4 * size || order_buf.len < 4 * (visits + 1)
        || steps_buf.len < 8 * (visits + 1) || climbed_buf.len < size || visits >= size) {
        PyErr_SetString(PyExc_ValueError, "walk: buffers of the wrong sizes");
        goto done;
    }
    if (!kid_start || !kids || !first || !last || !depth || !stack || !preorder || !held || !waiting || !next_waiting
        || !rank
        || !candidates.cells) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < size; i++) rank[i] = -1;
    for (Py_ssize_t i = 0; i < size; i++) { /* what the Python side gives, checked: no index out of its array */
        if ((i == 0) != (parent[i] < 0) || parent[i] >= size || set_of[i] < 0 || set_of[i] > sets || by_rank[i] < 0
            || by_rank[i] >= size || rank[by_rank[i]] >= 0) {
            PyErr_SetString(PyExc_ValueError, "walk: a node's parent, set or rank out of range");
            goto done;
        }
        rank[by_rank[i]] = (int32_t)i;
    }
    for (Py_ssize_t i = 0; i < 2 * candidates.leaves; i++) candidates.cells[i] = NONE;
    for (Py_ssize_t s = 0; s <= sets; s++) waiting[s] = -1;
    /* Children lists, then the depth-first order (a subtree is the range [first, last)) and depths. */
    for (Py_ssize_t i = 1; i < size; i++) kid_start[parent[i] + 1]++;
    for (Py_ssize_t i = 1; i <= size; i++) kid_start[i] += kid_start[i - 1];
    for (Py_ssize_t i = 1; i < size; i++) kids[kid_start[parent[i]]++] = (int32_t)i; /* each start moves to its end */
    for (Py_ssize_t i = size; i > 0; i--) kid_start[i] = kid_start[i - 1];
    kid_start[0] = 0;
    Py_ssize_t top = 0, placed = 0;
    stack[top++] = 0;
    depth[0] = 0;
    while (top) {
        int32_t node = stack[--top];
        preorder[placed] = node;
        first[node] = (int32_t)placed++;
        for (int32_t k = kid_start[node]; k < kid_start[node + 1]; k++) {
            depth[kids[k]] = depth[node] + 1;
            stack[top++] = kids[k];
        }
    }
    if (placed != size) { /* some node does not hang from Start */
        PyErr_SetString(PyExc_ValueError, "walk: not a tree rooted at Start");
        goto done;
    }
    for (Py_ssize_t i = 0; i < size; i++) last[i] = first[i] + 1;
    for (Py_ssize_t i = size - 1; i > 0; i--) { /* a subtree ends where its last descendant's does */
        int32_t node = preorder[i];
        if (last[node] > last[parent[node]]) last[parent[node]] = last[node];
    }
#define NEAREST(v) nearest(&candidates, first[v], last[v], (int64_t)depth[v] * size, far)
#define CANDIDATE(c) tree_set(&candidates, first[c], (int64_t)depth[c] * size + rank[c])
    int32_t position = 0;
    order[0] = 0;
    steps_at[0] = 0;
    for (Py_ssize_t step = 0;; step++) {
        /* Arrive at `position`: it is no candidate now; its children become candidates or wait for keys. */
        tree_set(&candidates, first[position], NONE);
        for (int32_t k = kid_start[position]; k < kid_start[position + 1]; k++) {
            int32_t kid = kids[k];
            if (is_key[kid] || held[set_of[kid]] >= required[kid]) {
                CANDIDATE(kid);
            } else {
                next_waiting[kid] = waiting[set_of[kid]];
                waiting[set_of[kid]] = kid;
            }
        }
        if (is_key[position]) {
            int32_t s = set_of[position], count = ++held[s], *link = &waiting[s];
            while (*link >= 0) {
                int32_t lock = *link;
                if (required[lock] <= count) {
                    *link = next_waiting[lock];
                    CANDIDATE(lock);
                } else {
                    link = &next_waiting[lock];
                }
            }
        }
        if (step == visits) break;
        /* The nearest candidate: through the lowest ancestor whose subtree holds it. */
        int64_t found = NEAREST(position), distance = 1;
        int32_t meeting = position, ancestor = position;
        while (ancestor && (distance + 1) * size <= found) {
            ancestor = parent[ancestor];
            int64_t through = distance * size + NEAREST(ancestor);
            if (through < found) {
                found = through;
                meeting = ancestor;
            }
            distance++;
        }
        if (found >= far) break;
        while (position != meeting) {
            climbed[position] = 1;
            position = parent[position];
        }
        position = by_rank[found % size];
        steps += found / size;
        order[++visited] = position;
        steps_at[visited] = steps;
    }
    result = Py_BuildValue("nL", visited, (long long)steps);
done:
    free(kid_start);
    free(kids);
    free(first);
    free(last);
    free(depth);
    free(stack);
    free(preorder);
    free(held);
    free(waiting);
    free(next_waiting);
    free(rank);
    free(candidates.cells);
    PyBuffer_Release(&parent_buf);
    PyBuffer_Release(&key_buf);
    PyBuffer_Release(&set_buf);
    PyBuffer_Release(&required_buf);
    PyBuffer_Release(&by_rank_buf);
    PyBuffer_Release(&order_buf);
    PyBuffer_Release(&steps_buf);
    PyBuffer_Release(&climbed_buf);
    return result;
}

static PyMethodDef methods[] = {
    {"walk", walk, METH_VARARGS, "The analysis's walk (see walk.walk)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_walk", NULL, -1, methods};

PyMODINIT_FUNC PyInit__walk(void) { return PyModule_Create(&module); }
