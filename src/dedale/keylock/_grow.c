/* The key-lock generator's step 2 (`generator.py`, `grow_picks`) in C: the same weighted picks, on the same
 * Fenwick trees of doubles, from the same SplitMix64 stream, in the same order of operations, so that every
 * seed gives the diagram the pure-Python loop gives, bit for bit (a test compares them over many seeds).
 *
 * grow(is_key, set_of, required, member_start, members, sets, spread, state, out_picks, out_weights, out_totals)
 *   is_key: bytes, one a node (Start first); set_of, required: int32 a node;
 *   member_start, members: int32, the node ids of set s are members[member_start[s]:member_start[s + 1]];
 *   out_picks (int32), out_weights and out_totals (double): two a step, the object then the node it goes behind.
 * Returns the SplitMix64 state after the last draw. No floating-point contraction (built with
 * -ffp-contract=off): each sum and product is rounded as Python rounds it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    Py_ssize_t size, top;
    double *tree;    /* cells 1..size; cells past size hold infinity, which find never steps onto */
    double *weights;
} Fenwick;

static int fenwick_init(Fenwick *f, Py_ssize_t size) {
    Py_ssize_t top = 1;
    while (top * 2 <= size) top *= 2;
    f->size = size;
    f->top = top;
    f->tree = malloc(sizeof(double) * (size_t)(2 * top + 1));
    f->weights = calloc((size_t)(size ? size : 1), sizeof(double));
    if (!f->tree || !f->weights) return -1;
    for (Py_ssize_t i = 0; i < 2 * top + 1; i++) f->tree[i] = i <= size ? 0.0 : INFINITY;
    return 0;
}

static void fenwick_free(Fenwick *f) {
    free(f->tree);
    free(f->weights);
}

static double fenwick_total(const Fenwick *f) {
    double total = 0.0;
    for (Py_ssize_t cell = f->size; cell > 0; cell &= cell - 1) total += f->tree[cell];
    return total;
}

static void fenwick_set(Fenwick *f, Py_ssize_t index, double weight) {
    double delta = weight - f->weights[index];
    f->weights[index] = weight;
    for (Py_ssize_t i = index + 1; i <= f->size; i += i & -i) f->tree[i] += delta;
}

static Py_ssize_t fenwick_find(const Fenwick *f, double point) {
    Py_ssize_t position = 0;
    for (Py_ssize_t step = f->top; step; step >>= 1) {
        Py_ssize_t next = position + step;
        if (f->tree[next] <= point) {
            position = next;
            point -= f->tree[next];
        }
    }
    if (position > f->size - 1) position = f->size - 1;
    if (f->weights[position] <= 0.0) { /* a rounding residue: the next index with a weight, else the last */
        for (Py_ssize_t i = position + 1; i < f->size; i++)
            if (f->weights[i] > 0.0) return i;
        for (Py_ssize_t i = position; i >= 0; i--)
            if (f->weights[i] > 0.0) return i;
    }
    return position;
}

static double fraction(uint64_t *state) {
    uint64_t z = *state += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z & ((1ULL << 53) - 1)) / 9007199254740992.0;
}

static PyObject *grow(PyObject *self, PyObject *args) {
    Py_buffer is_key_buf, set_buf, required_buf, start_buf, members_buf, picks_buf, weights_buf, totals_buf;
    Py_ssize_t sets;
    double spread;
    unsigned long long seed_state;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*ndKw*w*w*", &is_key_buf, &set_buf, &required_buf, &start_buf,
                          &members_buf, &sets, &spread, &seed_state, &picks_buf, &weights_buf, &totals_buf))
        return NULL;
    const char *is_key = is_key_buf.buf;
    const int32_t *set_of = set_buf.buf, *required = required_buf.buf;
    const int32_t *member_start = start_buf.buf, *members = members_buf.buf;
    int32_t *picks = picks_buf.buf;
    double *weights = weights_buf.buf, *totals = totals_buf.buf;
    Py_ssize_t count = is_key_buf.len - 1;
    uint64_t state = seed_state;
    PyObject *result = NULL;
    Fenwick to_place = {0}, accessible = {0};
    int32_t *parent_of = malloc(sizeof(int32_t) * (size_t)(count + 1));
    int32_t *behind = calloc((size_t)(count + 1), sizeof(int32_t));
    double *node_weight = malloc(sizeof(double) * (size_t)(count + 1));
    char *is_open = calloc((size_t)(count + 1), 1);
    int32_t *keys_in_tree = calloc((size_t)(sets + 1), sizeof(int32_t));
    char *placed = calloc((size_t)(2 * (sets + 1)), 1); /* set s: a key placed at 2s, a lock at 2s + 1 */
    if (set_buf.len != 4 * (count + 1) || required_buf.len != 4 * (count + 1) || start_buf.len != 4 * (sets + 2)
        || members_buf.len != 4 * count
        || picks_buf.len < 4 * 2 * count || weights_buf.len < 8 * 2 * count || totals_buf.len < 8 * 2 * count) {
        PyErr_SetString(PyExc_ValueError, "grow: buffers of the wrong sizes");
        goto done;
    }
    if (!parent_of || !behind || !node_weight || !is_open || !keys_in_tree || !placed
        || fenwick_init(&to_place, count) || fenwick_init(&accessible, count + 1)) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i <= count; i++) /* what the Python side gives, checked: no index out of its array */
        if (set_of[i] < 0 || set_of[i] > sets) {
            PyErr_SetString(PyExc_ValueError, "grow: a node's set out of range");
            goto done;
        }
    for (Py_ssize_t s = 0; s <= sets; s++)
        if (member_start[s] < 0 || member_start[s] > member_start[s + 1] || member_start[s + 1] > count) {
            PyErr_SetString(PyExc_ValueError, "grow: the sets' members out of range");
            goto done;
        }
    for (Py_ssize_t i = 0; i < count; i++)
        if (members[i] < 1 || members[i] > count) {
            PyErr_SetString(PyExc_ValueError, "grow: a member out of range");
            goto done;
        }
    double weight = (double)sets, boosted = weight / spread;
    for (Py_ssize_t i = 0; i <= count; i++) {
        parent_of[i] = -1;
        node_weight[i] = 1.0;
    }
    is_open[0] = 1;
    for (Py_ssize_t i = 0; i < count; i++) fenwick_set(&to_place, i, weight);
    fenwick_set(&accessible, 0, 1.0);
    for (Py_ssize_t step = 1; step <= count; step++) {
        Py_ssize_t at = 2 * (step - 1);
        double total = fenwick_total(&to_place);
        Py_ssize_t node = fenwick_find(&to_place, fraction(&state) * total) + 1;
        picks[at] = (int32_t)node;
        weights[at] = to_place.weights[node - 1];
        totals[at] = total;
        total = fenwick_total(&accessible);
        Py_ssize_t parent = fenwick_find(&accessible, fraction(&state) * total);
        picks[at + 1] = (int32_t)parent;
        weights[at + 1] = node_weight[parent];
        totals[at + 1] = total;
        parent_of[node] = (int32_t)parent;
        fenwick_set(&to_place, node - 1, 0.0);
        int32_t below = ++behind[parent];
        node_weight[parent] = 1.0 / (double)(below + 1) + spread * (double)below;
        fenwick_set(&accessible, parent, node_weight[parent]);
        int32_t s = set_of[node];
        int key = is_key[node] != 0;
        const int32_t *member = members + member_start[s], *end = members + member_start[s + 1];
        if (!placed[2 * s + !key]) { /* the first key of its set boosts the set's locks; the first lock, its keys */
            placed[2 * s + !key] = 1;
            for (const int32_t *other = member; other < end; other++)
                if (parent_of[*other] < 0 && (is_key[*other] != 0) != key) fenwick_set(&to_place, *other - 1, boosted);
        }
        if (key) {
            keys_in_tree[s]++;
            for (const int32_t *lock = member; lock < end; lock++)
                if (!is_key[*lock] && parent_of[*lock] >= 0 && !is_open[*lock] && required[*lock] <= keys_in_tree[s]) {
                    is_open[*lock] = 1;
                    fenwick_set(&accessible, *lock, node_weight[*lock]);
                }
        } else if (required[node] <= keys_in_tree[s]) {
            is_open[node] = 1;
            fenwick_set(&accessible, node, node_weight[node]);
        }
    }
    result = PyLong_FromUnsignedLongLong(state);
done:
    fenwick_free(&to_place);
    fenwick_free(&accessible);
    free(parent_of);
    free(behind);
    free(node_weight);
    free(is_open);
    free(keys_in_tree);
    free(placed);
    PyBuffer_Release(&is_key_buf);
    PyBuffer_Release(&set_buf);
    PyBuffer_Release(&required_buf);
    PyBuffer_Release(&start_buf);
    PyBuffer_Release(&members_buf);
    PyBuffer_Release(&picks_buf);
    PyBuffer_Release(&weights_buf);
    PyBuffer_Release(&totals_buf);
    return result;
}

static PyMethodDef methods[] = {
    {"grow", grow, METH_VARARGS, "The key-lock generator's weighted picks (see generator.grow_picks)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_grow", NULL, -1, methods};

PyMODINIT_FUNC PyInit__grow(void) { return PyModule_Create(&module); }
