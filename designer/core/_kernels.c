/*
 * Compiled kernels over slide tables: the sliding rule, breadth-first reachability, the fast
 * classifier, the exhaustive search (with its exact layout filter over 64-bit cell sets), the
 * best pair of one terrain, and the two annealing chains (whole layouts: designer/anneal.py;
 * compressed open grids: designer/opengrid.py). Arrays come in and go out through the buffer
 * protocol (numpy arrays); nothing here allocates Python objects per cell.
 *
 * Terrain codes: 0 ice, 1 rock, 2 snow. Directions: 0 u, 1 d, 2 l, 3 r.
 *
 * designer/kernels.py is the one caller: it checks every index, length and value before calling
 * in. The bindings below still refuse what would take them outside a buffer (a start, goal,
 * cell or count out of range), so a direct call with bad arguments raises ValueError too.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

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
static int passage_table(const uint8_t *terrain, int h, int w, const int32_t *floors, int nfloors,
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
static int64_t bfs_from(int32_t *dist, int64_t n, int64_t source, int32_t *queue)
{
    for (int64_t i = 0; i < n; i++) dist[i] = -1;
    dist[source] = 0;
    queue[0] = (int32_t)source;
    return 1;
}

/* Stops from start to every cell (-1 unreachable); `order` gets the cells in BFS order.
 * The goal ends the game: no move leaves it. Returns how many cells were reached. */
static int64_t reach(const int32_t *dest, int64_t n, int64_t start, int64_t goal, int32_t *stops, int32_t *order)
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

/* ---- Exhaustive search over small layout spaces ------------------------------------------ */

/* Moves from every cell to `goal` (-1 where the goal cannot be reached), by a backward search
 * that walks predecessors straight off the grid: the cells that slide onto v in direction d are
 * the open cells behind v, when v stops a slide in d (the cell beyond is rock or outside, v is
 * snow, or v is the goal); the walk ends at rock, or at the goal, which captures any slide
 * through it. No slide table is needed. `queue` holds n ints; it ends with the cells that reach
 * the goal in breadth-first order (the goal first), and their count is returned. */
static int64_t distances_to_goal(const uint8_t *terrain, int h, int w, int64_t goal, int32_t *to_goal, int32_t *queue)
{
    const int64_t n = (int64_t)h * w;
    int64_t head = 0, tail = bfs_from(to_goal, n, goal, queue);
    while (head < tail) {
        const int32_t v = queue[head++];
        const int vr = v / w, vc = v % w;
        for (int d = 0; d < 4; d++) {
            const int br = vr + DR[d], bc = vc + DC[d];
            const int stops_here = v == goal || terrain[v] == SNOW || br < 0 || br >= h || bc < 0 || bc >= w ||
                                   terrain[(int64_t)br * w + bc] == ROCK;
            if (!stops_here) continue;
            int r = vr - DR[d], c = vc - DC[d];
            while (r >= 0 && r < h && c >= 0 && c < w) {
                const int64_t u = (int64_t)r * w + c;
                if (terrain[u] == ROCK || u == goal) break;
                if (to_goal[u] < 0) { to_goal[u] = to_goal[v] + 1; queue[tail++] = (int32_t)u; }
                if (terrain[u] == SNOW) break; /* a slide from further back would stop on this snow */
                r -= DR[d];
                c -= DC[d];
            }
        }
    }
    return tail;
}

/* The choices along the printed solution of a level (fewest moves, then least distance, then at
 * each stop the first of u, d, l, r that stays optimal, as designer.analysis.solver walks it):
 * the moves open at its stops besides the solution's (*options), its rail stops (at most one
 * such move), and its fewest-moves solutions, counted up to 2 (*solutions: 0, 1, or 2 for "more
 * than one"). *options is -1 when the goal cannot be reached. `scratch` holds CHOICE_INTS(n). */
#define CHOICE_INTS(n) (12 * (n))
static void choice_figures(const uint8_t *terrain, int h, int w, int64_t start, int64_t goal, int32_t *scratch,
                           int32_t *options, int32_t *rails, int32_t *solutions)
{
    const int64_t n = (int64_t)h * w;
    int32_t *dest = scratch, *length = scratch + 4 * n, *to_goal = scratch + 8 * n, *queue = scratch + 9 * n;
    int32_t *spread = scratch + 10 * n, *ways = scratch + 11 * n; /* least distance; paths (capped) */
    *options = -1;
    *rails = 0;
    *solutions = 0;
    slide_table(terrain, h, w, goal, dest, length);
    const int64_t count = distances_to_goal(terrain, h, w, goal, to_goal, queue);
    if (to_goal[start] < 0) return;
    spread[goal] = 0;
    ways[goal] = 1;
    for (int64_t k = 1; k < count; k++) { /* by moves to the goal: every cell one move closer is done */
        const int32_t v = queue[k];
        int32_t least = INT32_MAX, paths = 0;
        for (int d = 0; d < 4; d++) {
            const int32_t u = dest[d * n + v];
            if (u < 0 || to_goal[u] != to_goal[v] - 1) continue;
            if (length[d * n + v] + spread[u] < least) least = length[d * n + v] + spread[u];
            paths = paths + ways[u] > 2 ? 2 : paths + ways[u];
        }
        spread[v] = least;
        ways[v] = paths;
    }
    *solutions = ways[start];
    int32_t open_sum = 0, rail = 0;
    for (int64_t cell = start, steps = 0; cell != goal && steps <= n; steps++) {
        int open = 0;
        int64_t next = -1;
        for (int d = 0; d < 4; d++) {
            const int32_t u = dest[d * n + cell];
            if (u < 0) continue;
            open++;
            if (next < 0 && to_goal[u] == to_goal[cell] - 1 && spread[cell] == length[d * n + cell] + spread[u])
                next = u;
        }
        open_sum += open - 1;
        rail += open - 1 <= 1;
        if (next < 0) return; /* cannot happen: the costs are exact */
        cell = next;
    }
    *options = open_sum;
    *rails = rail;
}

typedef struct {
    int32_t best;       /* best min stops found (>= threshold), -1 if none */
    int64_t ties;       /* (layout, start, goal) triples reaching `best` */
    uint64_t mask;      /* an example: rock set (bits over the free cells), start, goal */
    int32_t start, goal;
    int64_t layouts;    /* canonical layouts evaluated */
    int complete;       /* 0 when the budget ran out or `stop` was set before the end */
    int out_of_memory;  /* 1 when scratch memory could not be had: nothing was searched */
} Search;

static inline int lowest_bit(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int k = 0;
    while (!(x & 1)) { x >>= 1; k++; }
    return k;
#endif
}

static inline int bit_count(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The slides along one line of cells (first, first + step, ...: count of them) toward its far
 * end, as 64-bit cell sets: crossed[i] gains the cells the slide from i crosses (its end
 * included), ends[i] the cell it ends on. Walks from the far end back, carrying the slide that
 * enters the current cell from behind. */
static void slide_line(const uint8_t *terrain, int first, int step, int count, uint64_t *crossed, uint64_t *ends)
{
    uint64_t run = 0; /* the cells a slide from the current cell crosses (none: no move) */
    uint64_t end = 0;
    for (int k = count - 1; k >= 0; k--) {
        const int i = first + k * step;
        if (terrain[i] == ROCK) {
            run = 0;
            continue;
        }
        crossed[i] |= run;
        ends[i] |= end & (run ? ~0ULL : 0);
        /* the slide from the cell behind enters i: it stops on i when i is snow or cannot move on */
        if (terrain[i] == SNOW || run == 0) {
            run = end = 1ULL << i;
        } else {
            run |= 1ULL << i;
        }
    }
}

/* 1 when some allowed (start, goal) pair of this layout needs `need` stops or more, before
 * strong solvability and reversibility are asked; 0 when none does, so that the layout need not
 * be evaluated. Only for grids of at most 64 cells.
 *
 * Why it is exact: take the free moves, with no goal on the board. With the goal on g, a move
 * is the free one unless its slide crosses or ends on g, and then it ends on g. So a shortest
 * solution from s makes free moves up to its last one, which is the first to cross g: its length
 * is the depth at which a breadth-first search from s over the free moves first slides over g.
 * One such search per start runs over 64-bit cell sets (the cells a slide ends on, and the cells
 * it crosses); it stops as soon as a goal is first crossed at depth `need`. */
static int may_reach(const uint8_t *terrain, int h, int w, const uint8_t *start_ok, const uint8_t *goal_ok,
                     int32_t need)
{
    const int n = h * w;
    uint64_t ends[64] = {0}, crossed[64] = {0}; /* per cell: where its slides end; the cells they cross */
    uint64_t goals = 0, nodes = 0;                /* the cells allowed to hold the goal; every slide's end */
    for (int r = 0; r < h; r++) {
        slide_line(terrain, r * w, 1, w, crossed, ends);                /* right */
        slide_line(terrain, r * w + w - 1, -1, w, crossed, ends);       /* left */
    }
    for (int c = 0; c < w; c++) {
        slide_line(terrain, c, w, h, crossed, ends);                    /* down */
        slide_line(terrain, (h - 1) * w + c, -w, h, crossed, ends);     /* up */
    }
    for (int i = 0; i < n; i++) {
        nodes |= ends[i];
        if (goal_ok[i] && terrain[i] != ROCK) goals |= 1ULL << i;
    }
    for (int s = 0; s < n; s++) {
        if (!start_ok[s] || terrain[s] == ROCK) continue;
        /* the same bound two moves out, before any search: most starts end here */
        uint64_t two = 0;
        for (uint64_t f = ends[s]; f; f &= f - 1) two |= ends[lowest_bit(f)];
        if (3 + bit_count(nodes & ~(two | ends[s] | 1ULL << s)) < need) continue;
        uint64_t seen = 1ULL << s, frontier = seen, passed = seen | ~goals;
        for (int32_t depth = 1;; depth++) {
            uint64_t next = 0, pass = 0;
            for (uint64_t f = frontier; f; f &= f - 1) {
                const int u = lowest_bit(f);
                next |= ends[u];
                pass |= crossed[u];
            }
            if ((pass & ~passed) && depth >= need) return 1;
            passed |= pass;
            next &= ~seen;
            if (!next || !~passed) break;
            seen |= next;
            frontier = next;
            /* each deeper level reaches a cell no level before it did, so no goal is first
             * crossed deeper than depth + 1 + the slide ends not seen yet */
            if (depth + 1 + bit_count(nodes & ~seen) < need) break;
        }
    }
    return 0;
}

/* Whether start s of the level with goal g is strong and reversible, given `dest` (the slide table
 * with g capturing) and `to_goal` (moves to g from each cell): every cell reachable from s can
 * still reach g, and in the swapped level (s captures) g reaches s. `back`, `back_len`, `stops`
 * and `order` are scratch of 4n, 4n, n and n ints. */
/* A room's score (designer/search/rooms.py): the sum over routes of min(stops, floor); or, every
 * floor met, the shortest route's stops, the fewest options along any route, or the fewest
 * options a stop, in thousandths. Every route strong, reversible and under its ceiling, or -1. */
enum { ROOM_SUM = 0, ROOM_MIN = 1, ROOM_OPTIONS = 2, ROOM_PER_STOP = 3 };

typedef struct {
    const int32_t *table;    /* [door a, door b, floor, ceiling (-1: none)] per route */
    int count;               /* 0: a level, not a room */
    int mode;                /* ROOM_* */
} Routes;

static int32_t room_score(const uint8_t *terrain, int h, int w, const Routes *routes, int32_t *scratch)
{
    int32_t total = 0, least = INT32_MAX;
    for (int r = 0; r < routes->count; r++) {
        const int32_t *route = routes->table + 4 * r;
        int8_t klass;
        uint8_t reversible;
        int32_t stops;
        classify_one(terrain, h, w, route[0], route[1], scratch, &klass, &reversible, &stops);
        if (klass != STRONG || !reversible || (route[3] >= 0 && stops > route[3])) return -1;
        int32_t value = stops;
        if (routes->mode != ROOM_SUM && stops < route[2]) return -1; /* every floor met, but meeting them */
        if (routes->mode == ROOM_OPTIONS || routes->mode == ROOM_PER_STOP) {
            int32_t options, rails, solutions;
            choice_figures(terrain, h, w, route[0], route[1], scratch, &options, &rails, &solutions);
            value = routes->mode == ROOM_OPTIONS ? options
                                                     : (int32_t)(1000LL * options / (stops > 0 ? stops : 1));
        }
        total += stops < route[2] ? stops : route[2];
        if (value < least) least = value;
    }
    return routes->mode == ROOM_SUM ? total : least;
}


static int strong_and_reversible(const uint8_t *terrain, int h, int w, int64_t s, int64_t g, const int32_t *dest,
                                 const int32_t *to_goal, int32_t *back, int32_t *back_len, int32_t *stops,
                                 int32_t *order)
{
    const int64_t n = (int64_t)h * w;
    const int64_t count = reach(dest, n, s, g, stops, order);
    for (int64_t k = 0; k < count; k++)
        if (to_goal[order[k]] < 0) return 0;
    slide_table(terrain, h, w, s, back, back_len);
    reach(back, n, g, s, stops, order);
    return stops[s] >= 0;
}

/* Evaluate every (start, goal) pair of one layout; update `found` with strong, reversible pairs
 * of at least max(threshold, found->best) stops. A room (`routes`): its score instead, as one
 * pair (its first route's doors). */
static void evaluate_layout(const uint8_t *terrain, int h, int w, const uint8_t *start_ok, const uint8_t *goal_ok,
                            int32_t threshold, uint64_t mask, int32_t *scratch, Search *found, const Routes *routes)
{
    const int64_t n = (int64_t)h * w;
    if (routes->count > 0) { /* a room: its score over every route, its first route's doors as the ends */
        const int32_t score = room_score(terrain, h, w, routes, scratch);
        const int32_t need = found->best > threshold ? found->best : threshold;
        if (score < 0 || score < need) return;
        if (score > found->best) {
            found->best = score;
            found->ties = 0;
            found->mask = mask;
            found->start = routes->table[0];
            found->goal = routes->table[1];
        }
        found->ties++;
        return;
    }
    int32_t *dest = scratch, *length = scratch + 4 * n, *back = scratch + 8 * n, *back_len = scratch + 12 * n;
    int32_t *to_goal = scratch + 16 * n, *stops = scratch + 17 * n, *order = scratch + 18 * n;
    int32_t *queue = scratch + 19 * n;
    if (n <= 64 && !may_reach(terrain, h, w, start_ok, goal_ok, found->best > threshold ? found->best : threshold))
        return;
    for (int64_t g = 0; g < n; g++) {
        if (!goal_ok[g] || terrain[g] == ROCK) continue;
        distances_to_goal(terrain, h, w, g, to_goal, queue);
        int table_ready = 0;
        for (int64_t s = 0; s < n; s++) {
            if (s == g || !start_ok[s] || terrain[s] == ROCK) continue;
            const int32_t need = found->best > threshold ? found->best : threshold;
            if (to_goal[s] < need) continue;
            if (!table_ready) { slide_table(terrain, h, w, g, dest, length); table_ready = 1; }
            if (!strong_and_reversible(terrain, h, w, s, g, dest, to_goal, back, back_len, stops, order)) continue;
            if (to_goal[s] > found->best) {
                found->best = to_goal[s];
                found->ties = 0;
                found->mask = mask;
                found->start = (int32_t)s;
                found->goal = (int32_t)g;
            }
            found->ties++;
        }
    }
}

#define EXHAUSTIVE_SCRATCH(n) (20 * (n))

/* The best strong, reversible (start, goal) pair of one terrain with at least `threshold` stops,
 * into found->best / start / goal (best -1: none): the same pair the exhaustive search reports
 * for a layout (the first in goal-then-start order among those with the most stops), found with
 * fewer checks. Per goal, the starts are taken from the most stops down, and the first strong,
 * reversible one ends that goal; a later goal must do strictly better. Ties are not counted.
 * `scratch` holds BEST_PAIR_SCRATCH(n) ints. */
#define BEST_PAIR_SCRATCH(n) (22 * (n) + 1)
static void best_pair_of(const uint8_t *terrain, int h, int w, const uint8_t *start_ok, const uint8_t *goal_ok,
                         int32_t threshold, int32_t *scratch, Search *found)
{
    const int64_t n = (int64_t)h * w;
    int32_t *dest = scratch, *length = scratch + 4 * n, *back = scratch + 8 * n, *back_len = scratch + 12 * n;
    int32_t *to_goal = scratch + 16 * n, *stops = scratch + 17 * n, *order = scratch + 18 * n;
    int32_t *queue = scratch + 19 * n, *next = scratch + 20 * n, *head = scratch + 21 * n; /* head: n + 1 */
    if (n <= 64 && !may_reach(terrain, h, w, start_ok, goal_ok, threshold)) return;
    for (int64_t g = 0; g < n; g++) {
        if (!goal_ok[g] || terrain[g] == ROCK) continue;
        const int32_t need = found->best >= 0 && found->best + 1 > threshold ? found->best + 1 : threshold;
        distances_to_goal(terrain, h, w, g, to_goal, queue);
        /* the starts that could do it, in lists by stops (each list in start order) */
        int32_t most = -1;
        for (int64_t s = n - 1; s >= 0; s--) {
            if (s == g || !start_ok[s] || terrain[s] == ROCK || to_goal[s] < need) continue;
            if (to_goal[s] > most) {
                for (int32_t d = most + 1; d <= to_goal[s]; d++) head[d] = -1;
                most = to_goal[s];
            }
            next[s] = head[to_goal[s]];
            head[to_goal[s]] = (int32_t)s;
        }
        if (most < 0) continue;
        slide_table(terrain, h, w, g, dest, length);
        for (int32_t d = most; d >= need; d--) {
            for (int32_t s = head[d]; s >= 0; s = next[s]) {
                if (!strong_and_reversible(terrain, h, w, s, g, dest, to_goal, back, back_len, stops, order)) continue;
                found->best = d;
                found->start = s;
                found->goal = (int32_t)g;
                found->ties = 1;
                goto next_goal;
            }
        }
    next_goal:;
    }
}

static double monotonic_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + now.tv_nsec * 1e-9;
}

/* The processor time of the calling thread: a budget of work (designer.core.budget's "cpu" clock),
 * the same however busy the machine is. */
static double thread_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (double)now.tv_sec + now.tv_nsec * 1e-9;
}

/* All rock sets of exactly `rocks` free cells whose lowest free index is `first` (and, when
 * `second` >= 0, whose next lowest is `second`: a finer shard), one per symmetry class (`syms` maps of free-cell indices; a set is kept when no image is smaller).
 * The search gives up after `budget` seconds of its own (of the thread's processor time when
 * `cpu_clock` is set), or as soon as another thread sets *stop; either way `complete` is 0.
 * Running out of memory is an error, never a proof. */
static void search_layouts(const uint8_t *base, int h, int w, const int32_t *free_cells, int nfree,
                           const uint8_t *start_ok, const uint8_t *goal_ok, const int32_t *syms, int nsyms,
                           int rocks, int first, int second, int32_t threshold, double budget,
                           volatile const int32_t *stop, Search *found, const Routes *routes, int cpu_clock)
{
    const int64_t n = (int64_t)h * w;
    double (*seconds)(void) = cpu_clock ? thread_seconds : monotonic_seconds;
    const double deadline = seconds() + budget;
    uint8_t *terrain = (uint8_t *)malloc((size_t)n);
    int32_t *scratch = (int32_t *)malloc(sizeof(int32_t) * (size_t)EXHAUSTIVE_SCRATCH(n));
    int idx[64];
    found->complete = 1;
    if (!terrain || !scratch) {
        found->out_of_memory = 1;
        found->complete = 0;
        goto done;
    }
    if (rocks > nfree || (rocks > 0 && first > nfree - rocks)) goto done;
    if (rocks == 0 && first != 0) goto done;
    const int fixed = second >= 0 ? 2 : 1; /* leading indices that stay put */
    if (second >= 0 && (rocks < 2 || second <= first || second > nfree - rocks + 1)) goto done;
    /* idx[0] = first (idx[1] = second); the rest run over combinations of the cells after them */
    idx[0] = first;
    if (second >= 0) idx[1] = second;
    for (int k = fixed; k < rocks; k++) idx[k] = idx[k - 1] + 1;
    for (;;) {
        uint64_t mask = 0;
        for (int k = 0; k < rocks; k++) mask |= 1ULL << idx[k];
        int canonical = 1;
        for (int y = 0; y < nsyms && canonical; y++) {
            uint64_t image = 0;
            for (int k = 0; k < rocks; k++) image |= 1ULL << syms[y * nfree + idx[k]];
            if (image < mask) canonical = 0;
        }
        if (canonical) {
            memcpy(terrain, base, (size_t)n);
            for (int k = 0; k < rocks; k++) terrain[free_cells[idx[k]]] = ROCK;
            evaluate_layout(terrain, h, w, start_ok, goal_ok, threshold, mask, scratch, found, routes);
            found->layouts++;
            if (*stop || ((found->layouts & 4095) == 1 && seconds() > deadline)) {
                found->complete = 0;
                break;
            }
        }
        /* next combination of idx[fixed..rocks-1] over the cells after the fixed ones */
        int k = rocks - 1;
        while (k >= fixed && idx[k] == nfree - rocks + k) k--;
        if (k < fixed) break;
        idx[k]++;
        for (int j = k + 1; j < rocks; j++) idx[j] = idx[j - 1] + 1;
    }
done:
    free(terrain);
    free(scratch);
}

/* ---- Simulated annealing over whole layouts ---------------------------------------------- */

/* splitmix64: the chain's random stream (its state comes from the caller's seeded generator) */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int random_below(uint64_t *state, int64_t bound) { return (int)(next_random(state) % (uint64_t)bound); }

static double random_unit(uint64_t *state) { return (double)(next_random(state) >> 11) * (1.0 / 9007199254740992.0); }

typedef struct {
    const uint8_t *free;     /* cells whose tile the chain chooses (rock or ice) */
    const int32_t *starts;   /* cells the start may take, and how many */
    int nstarts;
    const int32_t *goals;
    int ngoals;
    int max_rocks;           /* on free cells; -1: no limit */
    int max_stops;           /* -1: no upper bound */
    int min_stops;           /* -1: no floor */
    int min_options;         /* options along the printed solution; -1: no floor */
    int unique;              /* 1: exactly one fewest-moves solution */
    int objective;           /* what the score is: OBJECTIVE_STOPS or OBJECTIVE_OPTIONS */
    Routes routes;           /* a room's routes (count 0: a level, scored by its start and goal) */
} Space;

enum { OBJECTIVE_STOPS = 0, OBJECTIVE_OPTIONS = 1, OBJECTIVE_DECISIONS = 2 };

/* The decisions score (OBJECTIVE_DECISIONS, designer.search.decisions): options a stop less the
 * share of rail stops, in thousandths, never below 0, plus DECISIONS_MET when the layout meets
 * the floor of min stops. A layout short of the floor is kept by the chain (it may pass through
 * such layouts on its way to a better one), scored DECISIONS_SHORT_COST less for each stop
 * short and below DECISIONS_MET, and never recorded as the best. */
#define DECISIONS_MET 10000
#define DECISIONS_SHORT_COST 150
static int32_t decisions_milli(int32_t options, int32_t rails, int32_t stops, int32_t short_by)
{
    int64_t value = (1000LL * options - 1000LL * rails) / (stops > 0 ? stops : 1);
    if (value < 0) value = 0;
    if (short_by <= 0) return (int32_t)(DECISIONS_MET + value);
    value += DECISIONS_MET - (int64_t)DECISIONS_SHORT_COST * short_by;
    return (int32_t)(value < 0 ? 0 : value >= DECISIONS_MET ? DECISIONS_MET - 1 : value);
}

/* A layout's score: its min stops (or, with OBJECTIVE_OPTIONS, the options along its printed
 * solution; with OBJECTIVE_DECISIONS, decisions_milli of its figures) when it is strong and reversible and meets the space's band and floors, else -1.
 * The start and goal cells are opened (a frame gap) in `board`, a copy of `terrain`. */
static int32_t layout_score(const uint8_t *terrain, uint8_t *board, int h, int w, int64_t start, int64_t goal,
                            const Space *space, int32_t *scratch)
{
    const int64_t n = (int64_t)h * w;
    int8_t klass;
    uint8_t reversible;
    int32_t stops;
    if (space->routes.count > 0) return room_score(terrain, h, w, &space->routes, scratch); /* doors: drawn ice */
    memcpy(board, terrain, (size_t)n);
    board[start] = board[goal] = 0;
    classify_one(board, h, w, start, goal, scratch, &klass, &reversible, &stops);
    const int32_t short_by = space->min_stops >= 0 ? space->min_stops - stops : 0;
    if (klass != STRONG || !reversible || (space->max_stops >= 0 && stops > space->max_stops) ||
        (short_by > 0 && space->objective != OBJECTIVE_DECISIONS))
        return -1;
    if (!space->unique && space->min_options < 0 && space->objective == OBJECTIVE_STOPS) return stops;
    int32_t options, rails, solutions;
    choice_figures(board, h, w, start, goal, scratch, &options, &rails, &solutions);
    if ((space->unique && solutions != 1) || options < space->min_options) return -1;
    if (space->objective == OBJECTIVE_DECISIONS) return decisions_milli(options, rails, stops, short_by);
    return space->objective == OBJECTIVE_OPTIONS ? options : stops;
}

/* `steps` annealing steps from (terrain, ends[0] start, ends[1] goal, *score), all updated in
 * place; the heat falls geometrically from heat_hi to heat_lo over the steps. A move toggles a
 * free cell, moves a rock to another free cell, or moves the start or the goal to another allowed
 * cell; only strong, reversible layouts are kept (a move to any other is refused). The best
 * layout seen goes to best_terrain / best[0..2] (stops, start, goal) when it beats best[0].
 * Stops early at `target` stops (-1: none) or when *stop is set. Returns the steps taken. */
static int64_t anneal_layout(uint8_t *terrain, int h, int w, const Space *space, int32_t *ends, int32_t *score,
                             uint64_t *rng, double heat_hi, double heat_lo, int64_t steps, int32_t target,
                             volatile const int32_t *stop, uint8_t *best_terrain, int32_t *best, uint8_t *board,
                             int32_t *scratch)
{
    const int64_t n = (int64_t)h * w;
    int rocks = 0, nfree = 0;
    for (int64_t i = 0; i < n; i++) {
        if (space->free[i]) { nfree++; rocks += terrain[i] == ROCK; }
    }
    if (*score < 0) *score = layout_score(terrain, board, h, w, ends[0], ends[1], space, scratch);
    const double cooling = steps > 1 ? pow(heat_lo / heat_hi, 1.0 / (double)(steps - 1)) : 1.0;
    double heat = heat_hi;
    int64_t k = 0;
    for (; k < steps; k++, heat *= cooling) {
        if ((k & 1023) == 0 && *stop) break;
        const double u = random_unit(rng);
        int64_t changed[2] = {-1, -1};
        int32_t start = ends[0], goal = ends[1];
        if (u < 0.8) {
            if (nfree == 0) continue;
            int64_t a = -1, b = -1; /* a: a cell that turns to ice, b: one that turns to rock */
            int64_t cell = -1;
            for (int tries = 0; tries < 64 && cell < 0; tries++) {
                const int64_t c = random_below(rng, n);
                if (space->free[c]) cell = c;
            }
            if (cell < 0 || cell == start || cell == goal) continue;
            if (u < 0.5) { /* toggle */
                if (terrain[cell] == ROCK) a = cell;
                else if (space->max_rocks < 0 || rocks < space->max_rocks) b = cell;
                else continue;
            } else { /* move a rock: pick one, and an ice cell for it */
                if (terrain[cell] != ROCK) continue;
                int64_t to = -1;
                for (int tries = 0; tries < 64 && to < 0; tries++) {
                    const int64_t c = random_below(rng, n);
                    if (space->free[c] && terrain[c] != ROCK && c != start && c != goal) to = c;
                }
                if (to < 0) continue;
                a = cell;
                b = to;
            }
            if (a >= 0) terrain[a] = 0;
            if (b >= 0) terrain[b] = ROCK;
            changed[0] = a;
            changed[1] = b;
        } else if (u < 0.9) {
            if (space->nstarts < 2) continue;
            start = space->starts[random_below(rng, space->nstarts)];
            if (start == goal || (space->free[start] && terrain[start] == ROCK)) continue;
        } else {
            if (space->ngoals < 2) continue;
            goal = space->goals[random_below(rng, space->ngoals)];
            if (goal == start || (space->free[goal] && terrain[goal] == ROCK)) continue;
        }
        const int32_t next = layout_score(terrain, board, h, w, start, goal, space, scratch);
        const int keep = next >= 0 && (next >= *score || random_unit(rng) < exp((double)(next - *score) / heat));
        if (!keep) { /* undo */
            if (changed[0] >= 0) terrain[changed[0]] = ROCK;
            if (changed[1] >= 0) terrain[changed[1]] = 0;
            continue;
        }
        rocks += (changed[1] >= 0) - (changed[0] >= 0);
        ends[0] = start;
        ends[1] = goal;
        *score = next;
        if (next > best[0] && (space->objective != OBJECTIVE_DECISIONS || next >= DECISIONS_MET)) {
            memcpy(best_terrain, terrain, (size_t)n);
            best[0] = next;
            best[1] = start;
            best[2] = goal;
            if (target >= 0 && next >= target) { k++; break; }
        }
    }
    return k;
}

/* ---- Annealing on compressed open grids (designer/opengrid.py) ---------------------------- */

#define OPEN_GOAL_SAMPLES 8

static int line_is_free(const uint8_t *t, int h, int w, int axis, int k)
{
    if (axis == 0) {
        for (int c = 0; c < w; c++) if (t[k * w + c] == ROCK) return 0;
    } else {
        for (int r = 0; r < h; r++) if (t[r * w + k] == ROCK) return 0;
    }
    return 1;
}

/* Whether an h x w terrain can grow to H x W without changing its puzzle: on each axis it is
 * full size already, or has two neighbouring rock-free lines to insert between. */
static int open_expandable(const uint8_t *t, int h, int w, int H, int W)
{
    if (h > H || w > W) return 0;
    for (int axis = 0; axis < 2; axis++) {
        const int size = axis == 0 ? h : w;
        if (size == (axis == 0 ? H : W)) continue;
        int ok = 0;
        for (int k = 1; k < size && !ok; k++) ok = line_is_free(t, h, w, axis, k - 1) && line_is_free(t, h, w, axis, k);
        if (!ok) return 0;
    }
    return 1;
}

/* One random move of the open-grid chain from (t, h, w) into (out, *oh, *ow): a rock along its
 * row or column (0.4), a rock anywhere (0.4), or a blank line inserted or a rock-free one removed
 * (0.2); `change` gets (axis, index, +1/-1) for a line move, axis -1 otherwise. 0: no move. */
static int open_neighbour(const uint8_t *t, int h, int w, int H, int W, uint64_t *rng, uint8_t *out, int *oh,
                          int *ow, int *change)
{
    const int n = h * w;
    const double u = random_unit(rng);
    change[0] = -1;
    if (u < 0.8) {
        int rocks = 0;
        for (int i = 0; i < n; i++) rocks += t[i] == ROCK;
        if (!rocks) return 0;
        int pick = random_below(rng, rocks), k = 0;
        for (; k < n; k++) if (t[k] == ROCK && pick-- == 0) break;
        int target;
        if (u < 0.4) {
            int r = k / w, c = k % w;
            if (random_unit(rng) < 0.5) r = random_below(rng, h);
            else c = random_below(rng, w);
            target = r * w + c;
        } else {
            target = random_below(rng, n);
        }
        if (t[target] != 0) return 0;
        memcpy(out, t, (size_t)n);
        out[k] = 0;
        out[target] = ROCK;
        *oh = h;
        *ow = w;
        return 1;
    }
    const int axis = random_below(rng, 2);
    const int size = axis == 0 ? h : w, limit = axis == 0 ? H : W;
    if (random_unit(rng) < 0.5 && size < limit) {
        const int at = random_below(rng, size + 1);
        if (axis == 0) {
            memcpy(out, t, (size_t)at * w);
            memset(out + at * w, 0, (size_t)w);
            memcpy(out + (at + 1) * w, t + at * w, (size_t)(h - at) * w);
            *oh = h + 1;
            *ow = w;
        } else {
            for (int r = 0; r < h; r++) {
                memcpy(out + r * (w + 1), t + r * w, (size_t)at);
                out[r * (w + 1) + at] = 0;
                memcpy(out + r * (w + 1) + at + 1, t + r * w + at, (size_t)(w - at));
            }
            *oh = h;
            *ow = w + 1;
        }
        change[0] = axis; change[1] = at; change[2] = 1;
        return 1;
    }
    if (size <= 2) return 0;
    int blanks = 0;
    for (int k = 0; k < size; k++) blanks += line_is_free(t, h, w, axis, k);
    if (!blanks) return 0;
    int pick = random_below(rng, blanks), at = 0;
    for (; at < size; at++) if (line_is_free(t, h, w, axis, at) && pick-- == 0) break;
    if (axis == 0) {
        memcpy(out, t, (size_t)at * w);
        memcpy(out + at * w, t + (at + 1) * w, (size_t)(h - at - 1) * w);
        *oh = h - 1;
        *ow = w;
    } else {
        for (int r = 0; r < h; r++) {
            memcpy(out + r * (w - 1), t + r * w, (size_t)at);
            memcpy(out + r * (w - 1) + at, t + r * w + at + 1, (size_t)(w - at - 1));
        }
        *oh = h;
        *ow = w - 1;
    }
    change[0] = axis; change[1] = at; change[2] = -1;
    return 1;
}

/* The best strong, reversible (start, goal) of an open terrain with the start on any ice cell
 * and the goal on an ice cell marked in goal_ok, at `threshold` stops or more (best -1: none). */
static Search open_best_pair(const uint8_t *t, int h, int w, const uint8_t *goal_ok, uint8_t *start_ok,
                             int32_t threshold, int32_t *scratch)
{
    Search found = {-1, 0, 0, -1, -1, 0, 1, 0};
    for (int i = 0; i < h * w; i++) start_ok[i] = t[i] == 0;
    best_pair_of(t, h, w, start_ok, goal_ok, threshold, scratch, &found);
    return found;
}

/* `steps` steps of one open-grid chain (the algorithm of designer/opengrid.py's `anneal`, whose
 * docstring it follows): state (t, dims = h, w; goal = r, c or -1; score) and best (best_t;
 * best = stops, h, w, start, goal) are updated in place. Returns the steps taken. */
static int64_t anneal_open(uint8_t *t, int32_t *dims, int H, int W, int32_t *goal, int32_t *score, uint64_t *rng,
                           double heat_hi, double heat_lo, int64_t steps, int32_t target,
                           volatile const int32_t *stop, uint8_t *best_t, int32_t *best, uint8_t *moved,
                           uint8_t *start_ok, uint8_t *goal_ok, int32_t *scratch)
{
    const double cooling = steps > 1 ? pow(heat_lo / heat_hi, 1.0 / (double)(steps - 1)) : 1.0;
    double heat = heat_hi;
    int64_t k = 0;
    for (; k < steps; k++, heat *= cooling) {
        if ((k & 255) == 0 && *stop) break;
        const int h = dims[0], w = dims[1];
        int mh, mw, change[3];
        if (!open_neighbour(t, h, w, H, W, rng, moved, &mh, &mw, change)) continue;
        Search found = {-1, 0, 0, -1, -1, 0, 1, 0};
        if (open_expandable(moved, mh, mw, H, W)) {
            /* the goal where the move left it (gone with a removed line) */
            int gr = goal[0], gc = goal[1];
            if (gr >= 0 && change[0] >= 0) {
                int *coord = change[0] == 0 ? &gr : &gc;
                if (change[2] < 0 && *coord == change[1]) gr = -1;
                else if (*coord >= change[1] + (change[2] < 0)) *coord += change[2];
            }
            const int mn = mh * mw;
            memset(goal_ok, 0, (size_t)mn);
            for (int j = 0; j < OPEN_GOAL_SAMPLES; j++) goal_ok[random_below(rng, mn)] = 1;
            if (gr >= 0) goal_ok[gr * mw + gc] = 1;
            const int32_t bar = *score - (int32_t)(6 * heat) - 1;
            found = open_best_pair(moved, mh, mw, goal_ok, start_ok, bar > 1 ? bar : 1, scratch);
            if (found.best > best[0]) { /* a new best for the chain: exact, over every goal */
                memset(goal_ok, 1, (size_t)mn);
                found = open_best_pair(moved, mh, mw, goal_ok, start_ok, found.best, scratch);
            }
        }
        const int32_t next = found.best;
        if (next < *score && random_unit(rng) >= exp((double)(next - *score) / heat)) continue;
        memcpy(t, moved, (size_t)mh * mw);
        dims[0] = mh;
        dims[1] = mw;
        *score = next;
        goal[0] = next >= 0 ? found.goal / mw : -1;
        goal[1] = next >= 0 ? found.goal % mw : -1;
        if (next > best[0]) {
            memcpy(best_t, moved, (size_t)mh * mw);
            best[0] = next;
            best[1] = mh;
            best[2] = mw;
            best[3] = found.start;
            best[4] = found.goal;
            if (target >= 0 && next >= target) { k++; break; }
        }
    }
    return k;
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


/* exhaustive(base, h, w, free_cells(int32), start_ok(uint8), goal_ok(uint8), syms(int32, nsyms x nfree),
 *            nsyms, rocks, first, second (-1: any), threshold, budget_seconds, stop(int32[1]),
 *            routes(int32[4 x routes]: a room's, empty for a level), room_mode, cpu_clock (optional, 0))
 *   -> (best, ties, mask, start, goal, layouts, complete) */
static PyObject *py_exhaustive(PyObject *self, PyObject *args)
{
    PyObject *objs[7];
    int h, w, nsyms, rocks, first, second, threshold, room_mode, cpu_clock = 0;
    double budget;
    if (!PyArg_ParseTuple(args, "OiiOOOOiiiiidOOi|i", &objs[0], &h, &w, &objs[1], &objs[2], &objs[3], &objs[4], &nsyms,
                          &rocks, &first, &second, &threshold, &budget, &objs[5], &objs[6], &room_mode, &cpu_clock))
        return NULL;
    if (h < 1 || w < 1 || nsyms < 0 || !(budget >= 0))
        return PyErr_Format(PyExc_ValueError, "exhaustive: bad size, symmetry count or budget");
    if (room_mode != ROOM_SUM && room_mode != ROOM_MIN)
        return PyErr_Format(PyExc_ValueError, "exhaustive: a room's score is its sum or its shortest route");
    Py_buffer v[7];
    if (get_buffers(objs, v, NULL, 7) < 0) return NULL;
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
    const Routes routes = {(const int32_t *)v[6].buf, (int)nroutes, room_mode};
    Py_BEGIN_ALLOW_THREADS
    search_layouts((const uint8_t *)v[0].buf, h, w, (const int32_t *)v[1].buf, nfree, (const uint8_t *)v[2].buf,
                   (const uint8_t *)v[3].buf, (const int32_t *)v[4].buf, nsyms, rocks, first, second, threshold, budget,
                   (volatile const int32_t *)v[5].buf, &found, &routes, cpu_clock);
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

/* anneal_layout(terrain(uint8 n, in/out), h, w, free(uint8 n), starts(int32), goals(int32), max_rocks,
 *               max_stops, ends(int32[2], in/out), score(int32[1], in/out), rng(uint64[1], in/out),
 *               heat_hi, heat_lo, steps, target, stop(int32[1]), best_terrain(uint8 n, out),
 *               best(int32[3], in/out), min_stops, min_options, unique, objective,
 *               routes(int32[4 x routes]: a room's, empty for a level), room_mode) -> steps taken */
static PyObject *py_anneal_layout(PyObject *self, PyObject *args)
{
    PyObject *objs[11];
    int h, w, max_rocks, max_stops, target, min_stops, min_options, unique, objective, room_mode;
    double heat_hi, heat_lo;
    long long steps;
    if (!PyArg_ParseTuple(args, "OiiOOOiiOOOddLiOOOiiiiOi", &objs[0], &h, &w, &objs[1], &objs[2], &objs[3], &max_rocks,
                          &max_stops, &objs[4], &objs[5], &objs[6], &heat_hi, &heat_lo, &steps, &target, &objs[7],
                          &objs[8], &objs[9], &min_stops, &min_options, &unique, &objective, &objs[10], &room_mode))
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
    if (get_buffers(objs, v, writable, 11) < 0) return NULL;
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
        const Space space = {(const uint8_t *)v[1].buf, (const int32_t *)v[2].buf, (int)nstarts,
                             (const int32_t *)v[3].buf, (int)ngoals, max_rocks, max_stops, min_stops, min_options,
                             unique != 0, objective, {(const int32_t *)v[10].buf, (int)nroutes, room_mode}};
        Py_BEGIN_ALLOW_THREADS
        taken = anneal_layout((uint8_t *)v[0].buf, h, w, &space, (int32_t *)v[4].buf, (int32_t *)v[5].buf,
                              (uint64_t *)v[6].buf, heat_hi, heat_lo, steps, target, (volatile const int32_t *)v[7].buf,
                              (uint8_t *)v[8].buf, (int32_t *)v[9].buf, board, scratch);
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

#define EX_MAXN 1600
#define EX_CANDIDATES 16

typedef struct {
    int h, w, n, nv;
    const uint8_t *base;  /* fixed tiles (a free cell's entry is not read) */
    const int32_t *var;   /* SAT variable of a free cell, 0 for a fixed one */
    uint8_t tile[EX_MAXN];
    int8_t known[EX_MAXN]; /* a partial layout: -1 where nothing is fixed */
    int32_t dest[EX_MAXN][4], nlit[EX_MAXN][4];
    int32_t cell_of[EX_MAXN + 1];
} Explainer;

static Explainer EX;

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
static int refute_explain(Explainer *x, const int32_t *routes, int nroutes, int32_t *out, int cap)
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
    Explainer *x = &EX;
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

static PyMethodDef methods[] = {
    {"slide_table", py_slide_table, METH_VARARGS, "slide_table(terrain, h, w, capture, dest, length)"},
    {"passage_table", py_passage_table, METH_VARARGS,
     "passage_table(terrain, h, w, floors, nfloors, portal_of, capture, dest, length)"},
    {"reach", py_reach, METH_VARARGS, "reach(dest, n, start, goal, stops, order) -> reached count"},
    {"all_reach_goal", py_all_reach_goal, METH_VARARGS,
     "all_reach_goal(dest, n, order, count, goal) -> whether every state of order reaches the goal"},
    {"classify_batch", py_classify_batch, METH_VARARGS,
     "classify_batch(terrains, count, h, w, starts, goals, classes, reversible, min_stops)"},
    {"exhaustive", py_exhaustive, METH_VARARGS,
     "exhaustive(base, h, w, free_cells, start_ok, goal_ok, syms, nsyms, rocks, first, second, threshold, budget, stop, "
     "routes, room_mode[, cpu_clock])"},
    {"best_pair", py_best_pair, METH_VARARGS, "best_pair(terrain, h, w, start_ok, goal_ok, threshold) -> (best, start, goal)"},
    {"anneal_open", py_anneal_open, METH_VARARGS,
     "anneal_open(terrain, dims, H, W, goal, score, rng, heat_hi, heat_lo, steps, target, stop, best_terrain, best) "
     "-> steps taken"},
    {"anneal_layout", py_anneal_layout, METH_VARARGS,
     "anneal_layout(terrain, h, w, free, starts, goals, max_rocks, max_stops, ends, score, rng, heat_hi, heat_lo, "
     "steps, target, stop, best_terrain, best, min_stops, min_options, unique, objective, routes, room_mode) "
     "-> steps taken"},
    {"choice_figures", py_choice_figures, METH_VARARGS,
     "choice_figures(terrain, h, w, start, goal) -> (options, rail stops, solutions up to 2)"},
    {"refute_explain", py_refute_explain, METH_VARARGS,
     "refute_explain(base, var, h, w, nv, routes, nroutes, model, out) -> -1 (every route passes) or entries written"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "designer.core._kernels", "Compiled kernels.", -1, methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
