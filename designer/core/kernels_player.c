/*
 * The player family played out (designer/analysis/player_runs.py; docs/spec.md "Difficulty"):
 * many runs of one member on one level, each run from the start to the exit. The caller has put
 * everything that does not depend on a run's memory into tables:
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
 *   value[(f*n + s)*5 + l]  (optional) guesses f = 0, 1 at the moves left once the
 *                      player has arrived on stop s by move l (4: on the start, a new attempt);
 *                      the exit's is 0
 *
 * A run's memory is the set of stops seen this attempt, kept as the attempt's number in `seen`
 * (a new attempt forgets at once), and the moves made from each stop, as the attempt's number in
 * `tried`. What the memory changes at a stop is only which of its moves end on a stop seen (and,
 * kept, made) this attempt: a code of at most 3^4 values. So before the runs, every (stop, last
 * move, code) gets its row (fill_rows): the chance of each move, the lapses counted in, and what
 * each guess is expected to be after the move. A step then reads one row and draws one number.
 *
 * With guesses, each run also sums its controls, one a guess: over its steps, the guess where the
 * step ended less the guess it was expected to end on, given all the run held before the step
 * (its memory too). Each term has mean 0, whatever the guess, so each control does; the closer a
 * guess to the true moves left, the more of the run's luck its control carries, and the moves
 * less the fitted controls vary far less than the moves (designer/analysis/player_controls.py).
 * With `counts`, each rest adds 1 to its (stop, last move) row's count of what followed: move 0
 * to 3, a restart the player asked for, or the exit taken on sight (the chain the runs walked).
 * The random stream is splitmix64 from the call's seed.
 */
#include "kernels.h"

enum { EXIT = -1, TRAP = -2, NONE = -3 };
enum { QUIT = 4, SIGHTED = 5, OUTCOMES = 6 };

static inline uint64_t split_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline double uniform(uint64_t *state) { return (double)(split_next(state) >> 11) * 0x1.0p-53; }

/* A stop's moves onto stops (the ones memory tells apart), its rows' first index and base. */
typedef struct {
    int8_t onto[4]; /* the moves that end on a stop, in order; `count` of them */
    int count;
    int64_t first;  /* the stop's first row: rows first .. first + 5 * base^count - 1 */
    int span;       /* base^count: the codes of one last move */
    int32_t end[4]; /* where each move ends, a stop (0 for a move that does not end on one) */
    int weigh[4];   /* each move's digit's weight in the code (0 for a move that does not) */
} Memo;

/* The guess f where move a from stop s ends: on a stop, on the start (a trap), or the exit. */
static inline double guess_at(const PlayerJob *job, int f, int32_t to, int a)
{
    const double *g = job->value + (size_t)f * job->n * 5;
    if (to >= 0) return g[(size_t)to * 5 + a];
    return to == TRAP ? g[(size_t)job->start * 5 + 4] : 0.0;
}

/* Each (stop, last move, code) row: the three cumulative chances of moves 0..2 (2 from the last
 * move with a chance on, so that a draw never passes it), then each guess's expected value after
 * the move. The code gives each move onto a stop a digit: 0 not seen, 1 seen (and, with `tried`
 * kept, not made from here), 2 seen and made. */
static void fill_rows(const PlayerJob *job, const Memo *memo, int keep_tried, double *rows, int width)
{
    const int base = keep_tried ? 3 : 2;
    for (int s = 0; s < job->n; s++) {
        const int32_t *to = job->next + (size_t)s * 4;
        int open = 0;
        for (int a = 0; a < 4; a++) open += to[a] != NONE;
        for (int l = 0; l < 5; l++) {
            const double *w = job->weight + ((size_t)s * 5 + l) * 4;
            for (int code = 0; code < memo[s].span; code++) {
                int digit[4] = {0, 0, 0, 0};
                for (int j = 0, rest = code; j < memo[s].count; j++, rest /= base) digit[memo[s].onto[j]] = rest % base;
                double each[4], total = 0.0;
                for (int a = 0; a < 4; a++) {
                    double x = to[a] == NONE ? 0.0 : w[a];
                    if (to[a] >= 0 ? digit[a] == 0 : to[a] == TRAP) x *= job->novelty;
                    if (keep_tried && digit[a] != 2) x *= job->variety; /* a trap's move: a new attempt */
                    each[a] = x;
                    total += x;
                }
                if (!(total > 0)) /* factors of 0 on every open move: they weigh alike */
                    for (int a = 0; a < 4; a++) total += each[a] = to[a] != NONE;
                double *row = rows + (size_t)(memo[s].first + (int64_t)l * memo[s].span + code) * width;
                double sum = 0.0;
                int top = 0;
                for (int a = 0; a < 4; a++) {
                    const double p = to[a] == NONE ? 0.0 : (1.0 - job->lapse) * each[a] / total + job->lapse / open;
                    each[a] = p;
                    if (p > 0) top = a;
                }
                for (int a = 0; a < 3; a++) { /* past the last move with a chance: never reached */
                    sum += each[a];
                    row[a] = a < top ? sum : 2.0;
                }
                for (int f = 0; f < job->guesses; f++) {
                    double expected = 0.0;
                    for (int a = 0; a < 4; a++)
                        if (each[a] > 0) expected += each[a] * guess_at(job, f, to[a], a);
                    row[3 + f] = expected;
                }
            }
        }
    }
}

/* `job->runs` runs; each run's moves and restarts into moves[] and restarts[], every rest (a stop
 * the player chose a move on) added to visits[]; with guesses, each run's controls into
 * control[run * guesses + f]; with counts (non-NULL), what followed each rest added to it. A run
 * still going after `cap` moves stops there. Returns 0, or -1 when scratch memory could not be
 * had. */
int player_runs(const PlayerJob *job, int64_t *moves, int64_t *restarts, double *visits, double *control,
                double *counts)
{
    const int n = job->n, guesses = job->guesses, width = 3 + job->guesses;
    const int keep_tried = job->variety != 1.0, base = keep_tried ? 3 : 2;
    Memo *memo = (Memo *)malloc(sizeof(Memo) * (size_t)n);
    int64_t *seen = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
    int64_t *tried = keep_tried ? (int64_t *)malloc(sizeof(int64_t) * 4 * (size_t)n) : NULL;
    double *stay = (double *)malloc(sizeof(double) * (size_t)job->hazards); /* 1 / (1 - give_up) */
    int64_t rows_in_all = 0;
    for (int s = 0; memo && s < n; s++) {
        memo[s].count = 0;
        for (int a = 0; a < 4; a++)
            if (job->next[(size_t)s * 4 + a] >= 0) memo[s].onto[memo[s].count++] = (int8_t)a;
        memo[s].span = 1;
        for (int a = 0; a < 4; a++) memo[s].end[a] = memo[s].weigh[a] = 0;
        for (int j = 0; j < memo[s].count; j++) {
            const int a = memo[s].onto[j];
            memo[s].end[a] = job->next[(size_t)s * 4 + a];
            memo[s].weigh[a] = memo[s].span;
            memo[s].span *= base;
        }
        memo[s].first = rows_in_all;
        rows_in_all += 5 * (int64_t)memo[s].span;
    }
    double *rows = memo ? (double *)malloc(sizeof(double) * (size_t)rows_in_all * width) : NULL;
    if (!memo || !seen || (keep_tried && !tried) || !stay || !rows) {
        free(memo);
        free(seen);
        free(tried);
        free(stay);
        free(rows);
        return -1;
    }
    fill_rows(job, memo, keep_tried, rows, width);
    for (int k = 0; k < job->hazards; k++) stay[k] = job->give_up[k] < 1.0 ? 1.0 / (1.0 - job->give_up[k]) : 0.0;
    const double unnoticed = job->notice < 1.0 ? 1.0 / (1.0 - job->notice) : 0.0;
    /* the guesses (at most two: MOST_GUESSES in kernels.py), each on the start of a new attempt */
    const double *first = guesses > 0 ? job->value : NULL, *second = guesses > 1 ? job->value + (size_t)n * 5 : NULL;
    const double fresh0 = first ? guess_at(job, 0, TRAP, 0) : 0.0, fresh1 = second ? guess_at(job, 1, TRAP, 0) : 0.0;
    for (int s = 0; s < n; s++) seen[s] = -1;
    for (int s = 0; keep_tried && s < 4 * n; s++) tried[s] = -1;
    uint64_t rng = job->seed;
    int64_t attempt = 0;
    for (int64_t run = 0; run < job->runs; run++) {
        int state = job->start, last = 4;
        int64_t stale = 0, made = 0, again = 0;
        double luck0 = 0.0, luck1 = 0.0; /* the controls */
        seen[state] = ++attempt;
        while (made < job->cap) {
            visits[state] += 1.0;
            const int32_t *to = job->next + (size_t)state * 4;
            const Memo *m = memo + state;
            int code = 0; /* each move's digit: its end seen (1), and made from here (2) */
            for (int a = 0; a < 4; a++) {
                int digit = seen[m->end[a]] == attempt;
                if (keep_tried) digit += digit & (tried[(size_t)state * 4 + a] == attempt);
                code += m->weigh[a] * digit;
            }
            const double *row = rows + (size_t)(m->first + (int64_t)last * m->span + code) * width;
            const int64_t at = ((int64_t)state * 5 + last) * OUTCOMES;
            /* one number decides the step: the exit in sight, then giving up, then the move */
            double u = uniform(&rng), noticed = 0.0, quit = 0.0;
            const int sighted = job->sight[state] < 4;
            const int hazard = stale < job->hazards ? (int)stale : job->hazards - 1;
            if (sighted) noticed = job->notice;
            if (stale > 0) quit = job->give_up[hazard];
            if (first) { /* each guess as expected after the step (on the exit: 0) */
                luck0 -= (1.0 - noticed) * (quit * fresh0 + (1.0 - quit) * row[3]);
                if (second) luck1 -= (1.0 - noticed) * (quit * fresh1 + (1.0 - quit) * row[4]);
            }
            if (sighted && u < noticed) {
                made++;
                if (counts) counts[at + SIGHTED] += 1.0;
                break;
            }
            if (sighted) u = (u - noticed) * unnoticed;
            int anew = u < quit; /* a new attempt: given up, or a move into a trap */
            if (anew) {
                if (counts) counts[at + QUIT] += 1.0;
            } else {
                if (stale > 0) u = (u - quit) * stay[hazard];
                const int pick = (u >= row[0]) + (u >= row[1]) + (u >= row[2]);
                made++;
                if (counts) counts[at + pick] += 1.0;
                if (keep_tried) tried[(size_t)state * 4 + pick] = attempt;
                const int32_t end = to[pick];
                if (end == EXIT) break;
                anew = end == TRAP;
                if (!anew) {
                    if (first) {
                        luck0 += first[(size_t)end * 5 + pick];
                        if (second) luck1 += second[(size_t)end * 5 + pick];
                    }
                    if (seen[end] == attempt) stale++;
                    else {
                        seen[end] = attempt;
                        stale = 0;
                    }
                    state = end;
                    last = pick;
                }
            }
            if (anew) {
                again++;
                luck0 += fresh0;
                luck1 += fresh1;
                state = job->start;
                last = 4;
                stale = 0;
                seen[state] = ++attempt;
            }
        }
        moves[run] = made;
        restarts[run] = again;
        if (first) control[run * guesses] = luck0;
        if (second) control[run * guesses + 1] = luck1;
    }
    free(memo);
    free(seen);
    free(tried);
    free(stay);
    free(rows);
    return 0;
}
