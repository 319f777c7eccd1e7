/*
 * The tables every other kernel reads: where each slide ends (slide_table; with portals, floors
 * and wrap-around, passage_table), breadth-first reachability over them (reach, all_reach_goal)
 * and the fast classifier of one level (classify_one). Declarations: kernels.h.
 */
#include "kernels.h"

/* dest[d*n + i]: where a slide from i in direction d ends, -1 if it is not a move;
 * length[d*n + i]: cells travelled. The cell `capture` (the goal) stops a slide on it.
 * Each cell reuses its neighbour's answer, so the table costs O(cells). */
void slide_table(const uint8_t *terrain, int h, int w, int64_t capture, int32_t *dest, int32_t *length)
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

/* ---- portals, floors and wrap-around (docs/spec.md, "Portals and wrap-around") ----------- */

/* Whether a slide that enters `cell` ends there (or, for a portal, on its target). */
static int ends_at(int64_t cell, const uint8_t *terrain, const int32_t *portal_of, int64_t capture)
{
    return portal_of[cell] >= 0 || terrain[cell] == SNOW || cell == capture;
}

/* The slides along one line of cells, given in the order of travel: each cell's slide is its
 * neighbour's one cell longer, walked back from where slides stop. A wrapping line is a ring,
 * walked back from a cell before a stop; a ring with nothing to stop a slide has no move. */
static void walk_line(const int64_t *line, int count, int wraps, const uint8_t *terrain, const int32_t *portal_of,
                      int64_t capture, int32_t *dest, int32_t *length)
{
    int first = count - 1;
    if (wraps) {
        first = -1;
        for (int k = 0; k < count && first < 0; k++) {
            const int64_t after = line[(k + 1) % count];
            if (terrain[after] == ROCK || ends_at(after, terrain, portal_of, capture)) first = k;
        }
        if (first < 0) return;
    }
    for (int j = 0; j < count; j++) {
        const int k = wraps ? ((first - j) % count + count) % count : count - 1 - j;
        const int64_t cell = line[k];
        if (terrain[cell] == ROCK || (!wraps && k + 1 >= count)) continue;
        const int64_t after = line[(k + 1) % count];
        if (terrain[after] == ROCK) continue; /* blocked at once: not a move */
        if (portal_of[after] >= 0) {
            dest[cell] = portal_of[after];
            length[cell] = 1;
        } else if (ends_at(after, terrain, portal_of, capture) || dest[after] < 0) {
            dest[cell] = (int32_t)after;
            length[cell] = 1;
        } else {
            dest[cell] = dest[after];
            length[cell] = length[after] + 1;
        }
    }
}

/* The slide table of a level with portals, floors or wrap-around: `floors` holds per floor its
 * top row, height, width and wrap (bit 1: left-right, bit 2: top-bottom); `portal_of[i]` the
 * target of a portal at i, -1 elsewhere. Each line of each floor is walked once. -1: no memory. */
int passage_table(const uint8_t *terrain, int h, int w, const int32_t *floors, int nfloors,
                         const int32_t *portal_of, int64_t capture, int32_t *dest, int32_t *length)
{
    const int64_t n = (int64_t)h * w;
    for (int64_t i = 0; i < 4 * n; i++) {
        dest[i] = -1;
        length[i] = 0;
    }
    int64_t *line = malloc(sizeof(int64_t) * (size_t)(h > w ? h : w));
    if (line == NULL) return -1;
    for (int f = 0; f < nfloors; f++) {
        const int top = floors[4 * f], fh = floors[4 * f + 1], fw = floors[4 * f + 2], wrap = floors[4 * f + 3];
        for (int d = 0; d < 4; d++) {
            const int across = DC[d] != 0, forward = DR[d] > 0 || DC[d] > 0;
            const int lines = across ? fh : fw, count = across ? fw : fh;
            const int wraps = across ? (wrap & 1) : (wrap & 2);
            for (int k = 0; k < lines; k++) {
                for (int j = 0; j < count; j++) {
                    const int at = forward ? j : count - 1 - j;
                    line[j] = across ? (int64_t)(top + k) * w + at : (int64_t)(top + at) * w + k;
                }
                walk_line(line, count, wraps, terrain, portal_of, capture, dest + d * n, length + d * n);
            }
        }
    }
    free(line);
    return 0;
}

/* A breadth-first search's start: every distance -1 but the source's 0, the source queued.
 * Returns the queue's length (1). */
int64_t bfs_from(int32_t *dist, int64_t n, int64_t source, int32_t *queue)
{
    for (int64_t i = 0; i < n; i++) dist[i] = -1;
    dist[source] = 0;
    queue[0] = (int32_t)source;
    return 1;
}

/* Stops from start to every cell (-1 unreachable); `order` gets the cells in BFS order.
 * The goal ends the game: no move leaves it. Returns how many cells were reached. */
int64_t reach(const int32_t *dest, int64_t n, int64_t start, int64_t goal, int32_t *stops, int32_t *order)
{
    int64_t head = 0, tail = bfs_from(stops, n, start, order);
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
int all_reach_goal(const int32_t *dest, int64_t n, const int32_t *order, int64_t count, int64_t goal,
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
void classify_one(const uint8_t *terrain, int h, int w, int64_t start, int64_t goal, int32_t *scratch,
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
