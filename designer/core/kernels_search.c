/*
 * The searches over layouts: the choices along a level's solution (choice_figures), a room's one
 * score (room_score), the best start and goal of one terrain (best_pair_of) and the exhaustive
 * search over a shard of rock sets (search_layouts, one SearchJob). Declarations: kernels.h.
 */
#include "kernels.h"

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
void choice_figures(const uint8_t *terrain, int h, int w, int64_t start, int64_t goal, int32_t *scratch,
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


int32_t room_score(const uint8_t *terrain, int h, int w, const Routes *routes, int32_t *scratch)
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


/* The best strong, reversible (start, goal) pair of one terrain with at least `threshold` stops,
 * into found->best / start / goal (best -1: none): the same pair the exhaustive search reports
 * for a layout (the first in goal-then-start order among those with the most stops), found with
 * fewer checks. Per goal, the starts are taken from the most stops down, and the first strong,
 * reversible one ends that goal; a later goal must do strictly better. Ties are not counted.
 * `scratch` holds BEST_PAIR_SCRATCH(n) ints. */
void best_pair_of(const uint8_t *terrain, int h, int w, const uint8_t *start_ok, const uint8_t *goal_ok,
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
void search_layouts(const SearchJob *job, Search *found)
{
    const uint8_t *base = job->base, *start_ok = job->start_ok, *goal_ok = job->goal_ok;
    const int h = job->h, w = job->w, nfree = job->nfree, nsyms = job->nsyms;
    const int rocks = job->rocks, first = job->first, second = job->second;
    const int32_t *free_cells = job->free_cells, *syms = job->syms, threshold = job->threshold;
    volatile const int32_t *stop = job->stop;
    const Routes *routes = &job->routes;
    double (*seconds)(void) = job->cpu_clock ? thread_seconds : monotonic_seconds;
    const int64_t n = (int64_t)h * w;
    const double deadline = seconds() + job->budget;
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
