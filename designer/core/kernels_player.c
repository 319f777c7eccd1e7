/*
 * The player family played out (designer/analysis/player_runs.py; docs/spec.md "Difficulty"):
 * many runs of one member on one level, each run from the start to the exit. The caller has put
 * everything that does not depend on a run's memory into tables, so the loop draws numbers and
 * reads tables, and never calls exp():
 *
 *   next[s*4 + a]      the stop move a from stop s ends on; EXIT, TRAP (a restart) or NONE
 *   weight[(s*5 + l)*4 + a]  the move's weight exp(utility) after last move l (4: none yet);
 *                      a move that is not open is never picked, whatever its weight
 *   sight[s]           the move onto the exit from s, or 4 for none
 *   notice             the chance the player takes the move onto the exit in sight; if not, the
 *                      move is picked as anywhere else (the weights of such a stop are those of a
 *                      player who has not seen the exit)
 *   give_up[k]         the chance to restart after k moves without a new stop (k >= count: last)
 *   novelty            the factor of a move onto a stop not seen this attempt (exp(memory))
 *   variety            the factor of a move not yet made from its stop this attempt
 *                      (exp(variety)); 1: the moves made are not kept
 *   lapse              the chance that a move is one of the open moves at random
 *
 * A run's memory is the set of stops seen this attempt, kept as the attempt's number in `seen`
 * (a new attempt forgets at once), and the moves made from each stop, as the attempt's number in
 * `tried`. The random stream is splitmix64 from the call's seed.
 */
#include "kernels.h"

enum { EXIT = -1, TRAP = -2, NONE = -3 };

static inline uint64_t split_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline double uniform(uint64_t *state) { return (double)(split_next(state) >> 11) * 0x1.0p-53; }

/* `job->runs` runs; each run's moves and restarts into moves[] and restarts[], every rest (a stop
 * the player chose a move on) added to visits[]. A run still going after `cap` moves stops there.
 * Returns 0, or -1 when scratch memory could not be had. */
int player_runs(const PlayerJob *job, int64_t *moves, int64_t *restarts, double *visits)
{
    const int n = job->n;
    const int keep_tried = job->variety != 1.0;
    int64_t *seen = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    int64_t *tried = keep_tried ? (int64_t *)malloc(sizeof(int64_t) * 4 * (size_t)(n > 0 ? n : 1)) : NULL;
    if (!seen || (keep_tried && !tried)) {
        free(seen);
        free(tried);
        return -1;
    }
    for (int s = 0; s < n; s++) seen[s] = -1;
    for (int s = 0; keep_tried && s < 4 * n; s++) tried[s] = -1;
    uint64_t rng = job->seed;
    int64_t attempt = 0;
    for (int64_t run = 0; run < job->runs; run++) {
        int state = job->start, last = 4;
        int64_t stale = 0, made = 0, again = 0;
        seen[state] = ++attempt;
        while (made < job->cap) {
            visits[state] += 1.0;
            const int at_exit = job->sight[state];
            const int32_t *to = job->next + (size_t)state * 4;
            if (at_exit < 4 && (job->notice >= 1 || uniform(&rng) < job->notice)) { made++; break; }
            if (stale > 0) {
                const double quit = job->give_up[stale < job->hazards ? stale : job->hazards - 1];
                if (quit > 0 && uniform(&rng) < quit) {
                    again++;
                    state = job->start; last = 4; stale = 0;
                    seen[state] = ++attempt;
                    continue;
                }
            }
            int pick = -1;
            if (job->lapse > 0 && uniform(&rng) < job->lapse) {
                int open = 0;
                for (int a = 0; a < 4; a++) open += to[a] != NONE;
                int k = (int)(uniform(&rng) * open);
                for (int a = 0; a < 4 && pick < 0; a++)
                    if (to[a] != NONE && k-- == 0) pick = a;
            } else {
                const double *w = job->weight + ((size_t)state * 5 + last) * 4;
                double each[4], total = 0.0;
                for (int a = 0; a < 4; a++) {
                    double x = to[a] == NONE ? 0.0 : w[a]; /* a move that is not open: never */
                    if (to[a] >= 0 ? seen[to[a]] != attempt : to[a] == TRAP) x *= job->novelty;
                    if (keep_tried && tried[(size_t)state * 4 + a] != attempt) x *= job->variety;
                    each[a] = x;
                    total += x;
                }
                double u = uniform(&rng) * total;
                for (int a = 0; a < 4; a++) {
                    if (each[a] <= 0) continue;
                    pick = a;
                    if (u < each[a]) break;
                    u -= each[a];
                }
            }
            made++;
            if (keep_tried) tried[(size_t)state * 4 + pick] = attempt;
            const int32_t end = to[pick];
            if (end == EXIT) break;
            if (end == TRAP) {
                again++;
                state = job->start; last = 4; stale = 0;
                seen[state] = ++attempt;
                continue;
            }
            if (seen[end] == attempt) stale++;
            else { seen[end] = attempt; stale = 0; }
            state = end;
            last = pick;
        }
        moves[run] = made;
        restarts[run] = again;
    }
    free(seen);
    free(tried);
    return 0;
}
