/*
 * The two annealing chains: over whole layouts (anneal_layout, one AnnealJob:
 * designer/search/engines/anneal.py) and over compressed open grids (anneal_open:
 * designer/search/engines/opengrid.py). Declarations: kernels.h.
 */
#include "kernels.h"

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



/* The decisions score (OBJECTIVE_DECISIONS, designer.search.decisions): options a stop less the
 * share of rail stops, in thousandths, never below 0, plus DECISIONS_MET when the layout meets
 * the floor of min stops. A layout short of the floor is kept by the chain (it may pass through
 * such layouts on its way to a better one), scored DECISIONS_SHORT_COST less for each stop
 * short and below DECISIONS_MET, and never recorded as the best. */
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
int64_t anneal_layout(const AnnealJob *job, uint8_t *board, int32_t *scratch)
{
    uint8_t *terrain = job->terrain, *best_terrain = job->best_terrain;
    const int h = job->h, w = job->w;
    const Space *space = &job->space;
    int32_t *ends = job->ends, *score = job->score, *best = job->best;
    uint64_t *rng = job->rng;
    const double heat_hi = job->heat_hi, heat_lo = job->heat_lo;
    const int64_t steps = job->steps;
    const int32_t target = job->target;
    volatile const int32_t *stop = job->stop;
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
int64_t anneal_open(uint8_t *t, int32_t *dims, int H, int W, int32_t *goal, int32_t *score, uint64_t *rng,
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
