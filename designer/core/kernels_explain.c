/*
 * Why a layout of the counterexample loop fails, as the clause to learn (refute_explain), with
 * its own grid walker over partial layouts. Declarations: kernels.h.
 */
#include "kernels.h"

/* ---- refutations: why a layout fails, as the literals that force the failure -------------- */
/*
 * The counterexample loop (designer/models/refute.py) proposes a layout of rocks on the free
 * cells; this plays each of its routes and, when one fails, returns a clause to learn: the
 * negation of literals that hold in the layout and force the failure in every layout that
 * keeps them. A literal is +v (free cell v is rock) or -v (ice). Three kinds:
 *
 *  0 short: a way of k < K moves; each slide of it is fixed by its literals (the cells it
 *    enters are ice, the rock that stops it is rock), so every such layout has that way.
 *  1 trap: a way to a cell t (fixed the same way) plus literals that keep the goal out of t's
 *    may-reach set, where a cell nothing fixes is taken as rock and as ice at once: from t the
 *    goal cannot be reached in any such layout (weak, or unsolvable when t is the start).
 *  2 back: literals that keep the start out of the goal's may-reach set in the swapped level.
 *
 * Tiles: 0 ice, 1 rock, 2 snow; snow is never a free cell's. The same rules as slide_table.
 */



static Explainer EX;

/* The one explainer (its tables are large: kept out of the stack). */
Explainer *explainer(void) { return &EX; }

/* The next cell from (r, c) in d, -1 off the grid. */
static inline int ex_next(const Explainer *x, int cell, int d)
{
    const int r = cell / x->w + DR[d], c = cell % x->w + DC[d];
    return (r < 0 || r >= x->h || c < 0 || c >= x->w) ? -1 : r * x->w + c;
}

/* The slide from u in d on the whole layout (capturing at cap): where it ends (-1: not a move),
 * and, when lits is given, the literals that fix it. */
static int ex_slide(const Explainer *x, int u, int d, int cap, int32_t *lits, int *nl)
{
    int cell = u, count = 0;
    for (;;) {
        const int j = ex_next(x, cell, d);
        if (j < 0) break;
        const int v = x->var[j];
        if (x->tile[j] == ROCK) {
            if (v) { if (lits) lits[count] = v; count++; }
            break;
        }
        if (v) { if (lits) lits[count] = -v; count++; }
        cell = j;
        if (x->tile[j] == SNOW || j == cap) break;
    }
    if (nl) *nl = count;
    return cell == u ? -1 : cell;
}

static void ex_table(Explainer *x, int cap)
{
    for (int u = 0; u < x->n; u++)
        for (int d = 0; d < 4; d++) {
            int nl = 0;
            x->dest[u][d] = x->tile[u] == ROCK ? -1 : ex_slide(x, u, d, cap, NULL, &nl);
            x->nlit[u][d] = nl;
        }
}

/* Breadth-first distances from origin over the table (cap has no move out); queue gets the order. */
static void ex_bfs(const Explainer *x, int origin, int cap, int32_t *dist, int32_t *queue)
{
    int head = 0, tail = 0;
    for (int i = 0; i < x->n; i++) dist[i] = -1;
    dist[origin] = 0;
    queue[tail++] = origin;
    while (head < tail) {
        const int u = queue[head++];
        if (u == cap) continue;
        for (int d = 0; d < 4; d++) {
            const int v = x->dest[u][d];
            if (v >= 0 && dist[v] < 0) { dist[v] = dist[u] + 1; queue[tail++] = v; }
        }
    }
}

/* Literal sets, by variable: mark[v] is 0, 1 (rock) or -1 (ice). */
static void ex_mark_slide(const Explainer *x, int u, int d, int cap, int8_t *mark)
{
    int32_t lits[2 * 40 + 2];
    int nl = 0;
    ex_slide(x, u, d, cap, lits, &nl);
    for (int k = 0; k < nl; k++) mark[abs(lits[k])] = lits[k] > 0 ? 1 : -1;
}

static int ex_count(const Explainer *x, const int8_t *mark)
{
    int count = 0;
    for (int v = 1; v <= x->nv; v++) count += mark[v] != 0;
    return count;
}

/* The rests the player may reach from u along ray d, in some layout that keeps `known`; new ones
 * go on the stack (entries cell * 5 + 4: every direction). 1 when target is among them. */
static int ex_ray(const Explainer *x, int u, int d, int cap, int target, uint8_t *seen, int32_t *stack, int *sp)
{
    int prev = u;
    for (;;) {
        const int j = ex_next(x, prev, d);
        const int k = j < 0 ? ROCK : x->known[j];
        if (k == ROCK) break;
        if (k < 0 && prev != u && !seen[prev]) { /* j may be rock: prev may be a rest */
            if (prev == target) return 1;
            seen[prev] = 1;
            stack[(*sp)++] = prev * 5 + 4;
        }
        prev = j;
        if (k == SNOW || j == cap) break;
    }
    if (prev != u && !seen[prev]) {
        if (prev == target) return 1;
        seen[prev] = 1;
        stack[(*sp)++] = prev * 5 + 4;
    }
    return 0;
}

static int ex_expand(const Explainer *x, int cap, int target, uint8_t *seen, int32_t *stack, int sp)
{
    while (sp) {
        const int e = stack[--sp], u = e / 5, only = e % 5;
        if (u == cap) continue;
        for (int d = 0; d < 4; d++)
            if ((only == 4 || only == d) && ex_ray(x, u, d, cap, target, seen, stack, &sp)) return 1;
    }
    return 0;
}

/* Drop literals of `mark` (in variable order, never those of keep) while target stays out of
 * origin's may-reach set. The set only grows as literals go, so it is kept, and dropping cell c
 * re-walks only the rays through c: those of the rests in c's row and column, toward c. */
static void ex_minimize(Explainer *x, int8_t *mark, const int8_t *keep, int origin, int cap, int target)
{
    static uint8_t seen[EX_MAXN], saved[EX_MAXN];
    static int32_t stack[5 * EX_MAXN + 8];
    for (int i = 0; i < x->n; i++) x->known[i] = x->var[i] ? -1 : (int8_t)x->base[i];
    for (int v = 1; v <= x->nv; v++)
        if (mark[v]) x->known[x->cell_of[v]] = mark[v] > 0 ? ROCK : 0;
    memset(seen, 0, x->n);
    seen[origin] = 1;
    stack[0] = origin * 5 + 4;
    ex_expand(x, cap, target, seen, stack, 1); /* the whole set keeps target out */
    for (int v = 1; v <= x->nv; v++) {
        if (!mark[v] || (keep && keep[v])) continue;
        const int c = x->cell_of[v], rc = c / x->w, cc = c % x->w;
        x->known[c] = -1;
        memcpy(saved, seen, x->n);
        int sp = 0;
        for (int k = 0; k < x->w; k++) {
            const int u = rc * x->w + k;
            if (seen[u] && u != c) stack[sp++] = u * 5 + (k < cc ? 3 : 2);
        }
        for (int k = 0; k < x->h; k++) {
            const int u = k * x->w + cc;
            if (seen[u] && u != c) stack[sp++] = u * 5 + (k < rc ? 1 : 0);
        }
        if (ex_expand(x, cap, target, seen, stack, sp)) { /* needed: keep it */
            x->known[c] = mark[v] > 0 ? ROCK : 0;
            memcpy(seen, saved, x->n);
        } else {
            mark[v] = 0;
        }
    }
}

/* Fewest-literal ways from origin to every cell (Dijkstra on a binary heap; cap has no move
 * out): via[cell] = the move (u * 4 + d) that reaches it, -1 for none. */
static void ex_cheapest(const Explainer *x, int origin, int cap, int32_t *via)
{
    static int32_t cost[EX_MAXN], heap[8 * EX_MAXN + 8];
    int size = 0;
    for (int i = 0; i < x->n; i++) { cost[i] = INT32_MAX; via[i] = -1; }
    cost[origin] = 0;
    heap[size++] = origin; /* entries: cost * EX_MAXN + cell */
    while (size) {
        const int top = heap[0];
        heap[0] = heap[--size];
        for (int k = 0;;) { /* sift down */
            int m = k, a = 2 * k + 1, b = a + 1;
            if (a < size && heap[a] < heap[m]) m = a;
            if (b < size && heap[b] < heap[m]) m = b;
            if (m == k) break;
            const int t = heap[k]; heap[k] = heap[m]; heap[m] = t; k = m;
        }
        const int u = top % EX_MAXN, cu = top / EX_MAXN;
        if (cu > cost[u] || u == cap) continue;
        for (int d = 0; d < 4; d++) {
            const int v = x->dest[u][d];
            if (v < 0 || cu + x->nlit[u][d] >= cost[v]) continue;
            cost[v] = cu + x->nlit[u][d];
            via[v] = u * 4 + d;
            int k = size++;
            heap[k] = cost[v] * EX_MAXN + v;
            while (k && heap[(k - 1) / 2] > heap[k]) { /* sift up */
                const int p = (k - 1) / 2, t = heap[p]; heap[p] = heap[k]; heap[k] = t; k = p;
            }
        }
    }
}

static int ex_emit(const Explainer *x, const int8_t *mark, int kind, int route, int detail, int32_t *out, int cap)
{
    int count = ex_count(x, mark);
    if (4 + count > cap) return -2;
    out[0] = kind; out[1] = route; out[2] = detail; out[3] = count;
    int k = 4;
    for (int v = 1; v <= x->nv; v++)
        if (mark[v]) out[k++] = mark[v] > 0 ? v : -v;
    return k;
}

/* A way of fewer than K moves to the goal, the one with the fewest literals (over each length). */
static int ex_short(Explainer *x, int start, int goal, int K, int route, int32_t *out, int cap)
{
    const int n = x->n;
    int32_t *cost = malloc(sizeof(int32_t) * (size_t)K * n), *from = malloc(sizeof(int32_t) * (size_t)K * n);
    static int8_t mark[EX_MAXN + 1];
    if (!cost || !from) { free(cost); free(from); return -3; }
    for (int i = 0; i < K * n; i++) cost[i] = -1;
    cost[start] = 0;
    int best = -1;
    for (int k = 1; k < K; k++) {
        for (int u = 0; u < n; u++) {
            const int cu = cost[(k - 1) * n + u];
            if (cu < 0 || u == goal) continue;
            for (int d = 0; d < 4; d++) {
                const int v = x->dest[u][d];
                if (v < 0) continue;
                int32_t *cv = &cost[k * n + v];
                if (*cv < 0 || cu + x->nlit[u][d] < *cv) { *cv = cu + x->nlit[u][d]; from[k * n + v] = u * 4 + d; }
            }
        }
        const int cg = cost[k * n + goal];
        if (cg >= 0 && (best < 0 || cg < cost[best * n + goal])) best = k;
    }
    memset(mark, 0, x->nv + 1);
    for (int k = best, v = goal; k > 0; k--) {
        const int move = from[k * n + v];
        ex_mark_slide(x, move / 4, move % 4, goal, mark);
        v = move / 4;
    }
    free(cost); free(from);
    return ex_emit(x, mark, 0, route, best, out, cap);
}

/* The trapped cells' explanations (up to EX_CANDIDATES, the smallest closures first), each
 * minimized; the one with the fewest literals. bad[i]: reached, and the goal is not reachable. */
static int ex_trap(Explainer *x, int start, int goal, const uint8_t *bad, int route, int32_t *out, int cap)
{
    static int32_t dist[EX_MAXN], queue[EX_MAXN], via[EX_MAXN], size[EX_MAXN], cand[EX_MAXN];
    static int8_t mark[EX_MAXN + 1], keep[EX_MAXN + 1], best[EX_MAXN + 1];
    int count = 0, best_count = -1, best_t = -1;
    for (int t = 0; t < x->n; t++) {
        if (!bad[t]) continue;
        ex_bfs(x, t, goal, dist, queue);
        memset(mark, 0, x->nv + 1);
        for (int i = 0; i < x->n; i++)
            if (dist[i] >= 0)
                for (int d = 0; d < 4; d++) ex_mark_slide(x, i, d, goal, mark);
        size[t] = ex_count(x, mark);
        cand[count++] = t;
    }
    for (int a = 1; a < count; a++) { /* by closure literals, then cell: insertion sort */
        const int t = cand[a];
        int b = a;
        while (b && (size[cand[b - 1]] > size[t] || (size[cand[b - 1]] == size[t] && cand[b - 1] > t))) {
            cand[b] = cand[b - 1]; b--;
        }
        cand[b] = t;
    }
    ex_cheapest(x, start, goal, via);
    for (int k = 0; k < count && k < EX_CANDIDATES; k++) {
        const int t = cand[k];
        ex_bfs(x, t, goal, dist, queue);
        memset(mark, 0, x->nv + 1);
        memset(keep, 0, x->nv + 1);
        for (int v = t; v != start;) { /* the way to t: its literals are kept */
            const int move = via[v];
            ex_mark_slide(x, move / 4, move % 4, goal, keep);
            v = move / 4;
        }
        if (best_count >= 0 && ex_count(x, keep) >= best_count) continue; /* it cannot do better */
        for (int i = 0; i < x->n; i++)
            if (dist[i] >= 0)
                for (int d = 0; d < 4; d++) ex_mark_slide(x, i, d, goal, mark);
        for (int v = 1; v <= x->nv; v++) if (keep[v]) mark[v] = keep[v];
        ex_minimize(x, mark, keep, t, goal, goal);
        const int c = ex_count(x, mark);
        if (best_count < 0 || c < best_count) { best_count = c; best_t = t; memcpy(best, mark, x->nv + 1); }
    }
    return ex_emit(x, best, 1, route, best_t, out, cap);
}

/* Play each route of the layout; the first that fails is explained into out (see above).
 * Returns -1 when every route passes, else the number of entries written (-2: out too small,
 * -3: no memory). routes: start, goal, K per route. */
int refute_explain(Explainer *x, const int32_t *routes, int nroutes, int32_t *out, int cap)
{
    static int32_t dist[EX_MAXN], queue[EX_MAXN], good[EX_MAXN];
    static uint8_t bad[EX_MAXN];
    static int8_t mark[EX_MAXN + 1];
    for (int v = 0; v <= x->nv; v++) x->cell_of[v] = -1;
    for (int i = 0; i < x->n; i++) if (x->var[i]) x->cell_of[x->var[i]] = i;
    for (int r = 0; r < nroutes; r++) {
        const int start = routes[3 * r], goal = routes[3 * r + 1], K = routes[3 * r + 2];
        ex_table(x, goal);
        ex_bfs(x, start, goal, dist, queue);
        if (dist[goal] >= 0 && dist[goal] < K) return ex_short(x, start, goal, K, r, out, cap);
        /* the cells that reach the goal: backward over the reached cells' moves, to a fixpoint */
        int reached = 0;
        for (int i = 0; i < x->n; i++) { good[i] = i == goal && dist[i] >= 0; reached += dist[i] >= 0; }
        for (int changed = 1; changed;) {
            changed = 0;
            for (int q = reached - 1; q >= 0; q--) {
                const int u = queue[q];
                if (good[u] || u == goal) continue;
                for (int d = 0; d < 4; d++) {
                    const int v = x->dest[u][d];
                    if (v >= 0 && good[v]) { good[u] = 1; changed = 1; break; }
                }
            }
        }
        int weak = 0;
        for (int i = 0; i < x->n; i++) { bad[i] = dist[i] >= 0 && !good[i]; weak |= bad[i]; }
        if (weak) return ex_trap(x, start, goal, bad, r, out, cap);
        ex_table(x, start); /* the swapped level: the start captures */
        ex_bfs(x, goal, start, dist, queue);
        if (dist[start] >= 0) continue;
        memset(mark, 0, x->nv + 1);
        for (int i = 0; i < x->n; i++)
            if (dist[i] >= 0)
                for (int d = 0; d < 4; d++) ex_mark_slide(x, i, d, start, mark);
        ex_minimize(x, mark, NULL, goal, start, start);
        return ex_emit(x, mark, 2, r, goal, out, cap);
    }
    return -1;
}

/* refute_explain(base, var, h, w, nv, routes, nroutes, model, out) -> -1 | entries written:
 * model is a solver's model (a sequence of literals, variable v at index v - 1; ice past its end). */
