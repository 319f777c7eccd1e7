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
 * (a new attempt forgets at once) or, on a level of at most 64 stops, as the bits of one word, and
 * the moves made from each stop, as the attempt's number in `tried`. What the memory changes at a
 * stop is only which of its moves end on a stop seen (and, kept, made) this attempt: a code of at
 * most 3^4 values. So before the runs, every (stop, last move, code) gets its row (fill_rows):
 * the chance of each move, the lapses counted in, and what each guess is expected to be after the
 * move. A step then reads one row and draws one number; what it reads by stop (the exit in sight)
 * and by moves without a new stop (giving up) is in tables too.
 *
 * With guesses, each run also sums its controls, one a guess: over its steps, the guess where the
 * step ended less the guess it was expected to end on, given all the run held before the step
 * (its memory too). Each term has mean 0, whatever the guess, so each control does; the closer a
 * guess to the true moves left, the more of the run's luck its control carries, and the moves
 * less the fitted controls vary far less than the moves (designer/analysis/player_controls.py).
 * With `counts`, each rest adds 1 to its (stop, last move) row's count of what followed: move 0
 * to 3, a restart the player asked for, or the exit taken on sight (the chain the runs walked).
 *
 * With `basis` (no guesses, a level of at most 64 stops), each run sums the control of every guess
 * that is 1 on one (stop, last move) and 0 elsewhere: basis[run * 5n + s*5 + l]. A control is
 * linear in its guess, so any guess's control is the run's basis times the guess, and least
 * squares over the basis finds the guess whose control carries the most of the runs' luck.
 *
 * Two runs are played at once, a step of one and then a step of the other (two lanes): their steps
 * do not wait on each other, so the core works on both at the same time. A lane whose run ends
 * takes the call's next run. The numbers are splitmix64's from the call's seed: each step of the
 * pair draws one 64-bit number, its high 32 bits for the first lane and its low 32 for the other
 * (a step's number has 2^32 values); a lane left alone draws its own from its own stream. The
 * runs, which lane plays each and so every figure follow from the seed alone.
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

/* The step and what it calls are written into each case's loop, where the case's constants fold
 * away (walk). */
#if defined(__GNUC__) || defined(__clang__)
#define INLINED static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define INLINED static __forceinline
#else
#define INLINED static inline
#endif

/* A step's number in [0, 1) from 32 bits of a draw. */
static inline double uniform32(uint64_t bits) { return (double)(bits & 0xFFFFFFFFu) * 0x1.0p-32; }

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
 * the move, then (with `basis`) each move's chance. The code gives each move onto a stop a digit:
 * 0 not seen, 1 seen (and, with `tried` kept, not made from here), 2 seen and made. */
static void fill_rows(const PlayerJob *job, const Memo *memo, int keep_tried, int basis, double *rows, int width)
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
                for (int a = 0; basis && a < 4; a++) row[3 + job->guesses + a] = each[a];
            }
        }
    }
}

/* What every step reads, worked out once by player_runs, and where the runs' figures go. */
typedef struct {
    const PlayerJob *job;
    const Memo *memo;
    const double **row_of;                      /* (stop * 5 + last move): its first row (code 0) */
    const double *first, *second;               /* the guesses (at most two: MOST_GUESSES) */
    double fresh0, fresh1;                      /* each guess on the start of a new attempt */
    const double *quit_at, *stay_at;            /* by moves without a new stop, up to `stalest`: */
    /* the chance to give up (0 after a new stop) and 1 / (1 - it), which spreads a number past it */
    int64_t stalest; /* where the count of moves without a new stop holds on (give_up's last, or 1) */
    const double *noticed_at, *unnoticed_at;    /* by stop: the chance to take the exit in sight */
    /* (0 where there is none) and 1 / (1 - it) */
    int64_t *moves, *restarts;
    double *visits, *control, *counts, *basis;
    const int32_t *into; /* (stop * 4 + move): the basis's column where the move ends, 5n for none */
    int64_t next_run;    /* the next run a lane takes */
} Tables;

/* A lane: the run it plays and where that run stands. */
typedef struct {
    uint64_t rng;   /* its own stream, drawn from when it plays alone */
    int64_t run;    /* -1: none left to play */
    int state, last;
    int64_t stale;  /* moves without a new stop, held at t->stalest */
    int64_t made, again, attempt;
    double luck0, luck1; /* the controls */
    uint64_t mask;       /* the stops seen this attempt, on a level of at most 64 */
    int64_t *seen, *tried;
    double *tally; /* with `basis`: the run's basis so far, 5n columns and one for moves onto none */
} Lane;

/* A new attempt of the lane's run: on the start, nothing seen but the start. */
INLINED void begin(const Tables *t, Lane *ln, const int small)
{
    ln->state = t->job->start;
    ln->last = 4;
    ln->stale = 0;
    ++ln->attempt;
    if (small) ln->mask = (uint64_t)1 << ln->state;
    else ln->seen[ln->state] = ln->attempt;
}

/* The lane takes the next run, if one is left (returns 1); otherwise its run is -1 (returns 0). */
INLINED int take(Tables *t, Lane *ln, const int small)
{
    ln->run = t->next_run < t->job->runs ? t->next_run++ : -1;
    ln->made = ln->again = 0;
    ln->luck0 = ln->luck1 = 0.0;
    begin(t, ln, small);
    return ln->run >= 0;
}

/* The lane's run has ended: its figures out, and the next run in. */
INLINED void finish(Tables *t, Lane *ln, const int small, const int guesses, const int basis)
{
    t->moves[ln->run] = ln->made;
    t->restarts[ln->run] = ln->again;
    if (guesses > 0) t->control[ln->run * guesses] = ln->luck0;
    if (guesses > 1) t->control[ln->run * guesses + 1] = ln->luck1;
    if (basis) {
        const int columns = 5 * t->job->n;
        double *out = t->basis + ln->run * columns;
        for (int k = 0; k < columns; k++) out[k] = ln->tally[k];
        for (int k = 0; k <= columns; k++) ln->tally[k] = 0.0;
    }
    take(t, ln, small);
}

/* One step of the lane's run from the number u in [0, 1): returns 1 when the run has ended (on the
 * exit, or at the cap). `small`, `keep_tried`, `guesses` and `basis` are constants where walk is
 * called, so each of its loops holds only what its case needs (counting is one test a step). */
INLINED int step(const Tables *t, Lane *ln, double u, const int small, const int keep_tried, const int guesses,
                 const int counting, const int basis)
{
    const PlayerJob *job = t->job;
    const int state = ln->state, last = ln->last;
    const int64_t attempt = ln->attempt, stale = ln->stale;
    t->visits[state] += 1.0;
    const Memo *m = t->memo + state;
    int d0, d1, d2, d3; /* each move's digit: its end seen (1), and made from here (2) */
    if (small) {
        d0 = (ln->mask >> m->end[0]) & 1;
        d1 = (ln->mask >> m->end[1]) & 1;
        d2 = (ln->mask >> m->end[2]) & 1;
        d3 = (ln->mask >> m->end[3]) & 1;
    } else {
        d0 = ln->seen[m->end[0]] == attempt;
        d1 = ln->seen[m->end[1]] == attempt;
        d2 = ln->seen[m->end[2]] == attempt;
        d3 = ln->seen[m->end[3]] == attempt;
    }
    if (keep_tried) {
        const int64_t *made_here = ln->tried + (size_t)state * 4;
        d0 += d0 & (made_here[0] == attempt);
        d1 += d1 & (made_here[1] == attempt);
        d2 += d2 & (made_here[2] == attempt);
        d3 += d3 & (made_here[3] == attempt);
    }
    const int code = m->weigh[0] * d0 + m->weigh[1] * d1 + m->weigh[2] * d2 + m->weigh[3] * d3;
    const double *row = t->row_of[state * 5 + last] + (size_t)code * (3 + guesses + 4 * basis);
    const double noticed = t->noticed_at[state], quit = t->quit_at[stale];
    /* each guess as expected after the step (on the exit: 0) */
    if (guesses > 0) ln->luck0 -= (1.0 - noticed) * (quit * t->fresh0 + (1.0 - quit) * row[3]);
    if (guesses > 1) ln->luck1 -= (1.0 - noticed) * (quit * t->fresh1 + (1.0 - quit) * row[4]);
    const int fresh_column = job->start * 5 + 4;
    if (basis) { /* the same, for the guess of each (stop, last move) alone */
        const double kept = (1.0 - noticed) * (1.0 - quit), *chance = row + 3 + guesses;
        const int32_t *into = t->into + (size_t)state * 4;
        ln->tally[fresh_column] -= (1.0 - noticed) * quit;
        ln->tally[into[0]] -= kept * chance[0];
        ln->tally[into[1]] -= kept * chance[1];
        ln->tally[into[2]] -= kept * chance[2];
        ln->tally[into[3]] -= kept * chance[3];
    }
    double *counted = counting ? t->counts + ((int64_t)state * 5 + last) * OUTCOMES : NULL;
    /* one number decides the step: the exit in sight, then giving up, then the move (each
     * rescaled past the one before; where there is no exit in sight or no giving up, u stays) */
    if (u < noticed) {
        ln->made++;
        if (counting) counted[SIGHTED] += 1.0;
        return 1;
    }
    u = (u - noticed) * t->unnoticed_at[state];
    if (u < quit) {
        if (counting) counted[QUIT] += 1.0;
        goto anew;
    }
    u = (u - quit) * t->stay_at[stale];
    const int pick = (u >= row[0]) + (u >= row[1]) + (u >= row[2]);
    ln->made++;
    if (counting) counted[pick] += 1.0;
    if (keep_tried) ln->tried[(size_t)state * 4 + pick] = attempt;
    const int32_t end = job->next[(size_t)state * 4 + pick];
    if (end == EXIT) return 1;
    if (end == TRAP) goto anew;
    if (guesses > 0) ln->luck0 += t->first[(size_t)end * 5 + pick];
    if (guesses > 1) ln->luck1 += t->second[(size_t)end * 5 + pick];
    if (basis) ln->tally[end * 5 + pick] += 1.0;
    int seen_before; /* no branch on it: which way it goes is a coin */
    if (small) {
        seen_before = (ln->mask >> end) & 1;
        ln->mask |= (uint64_t)1 << end;
    } else {
        seen_before = ln->seen[end] == attempt;
        ln->seen[end] = attempt;
    }
    ln->stale = seen_before ? stale + (stale < t->stalest) : 0;
    ln->state = end;
    ln->last = pick;
    return ln->made >= job->cap;
anew: /* given up, or a move into a trap: each guess is the start's again */
    ln->again++;
    ln->luck0 += t->fresh0;
    ln->luck1 += t->fresh1;
    if (basis) ln->tally[fresh_column] += 1.0;
    begin(t, ln, small);
    return ln->made >= job->cap;
}

/* Every run of the job, two lanes at a time, then the one left alone to its end. */
INLINED void walk(Tables *t, int64_t *seen, int64_t *tried, double *tally, const int small, const int keep_tried,
                  const int guesses, const int counting, const int basis)
{
    const int n = t->job->n;
    for (int s = 0; !small && s < 2 * n; s++) seen[s] = -1;
    for (int s = 0; keep_tried && s < 2 * 4 * n; s++) tried[s] = -1;
    uint64_t streams = t->job->seed;
    Lane a, b; /* two locals, not an array: the compiler keeps what it can of each in registers */
    a.rng = split_next(&streams);
    b.rng = split_next(&streams);
    a.attempt = b.attempt = 0;
    a.seen = small ? NULL : seen;
    b.seen = small ? NULL : seen + n;
    a.tried = keep_tried ? tried : NULL;
    b.tried = keep_tried ? tried + 4 * (size_t)n : NULL;
    a.tally = basis ? tally : NULL;
    b.tally = basis ? tally + 5 * (size_t)n + 1 : NULL;
    for (int k = 0; basis && k < 2 * (5 * n + 1); k++) tally[k] = 0.0;
    take(t, &a, small);
    take(t, &b, small);
    while (a.run >= 0 && b.run >= 0) {
        const uint64_t bits = split_next(&a.rng);
        if (step(t, &a, uniform32(bits >> 32), small, keep_tried, guesses, counting, basis))
            finish(t, &a, small, guesses, basis);
        if (step(t, &b, uniform32(bits), small, keep_tried, guesses, counting, basis))
            finish(t, &b, small, guesses, basis);
    }
    Lane *alone = a.run >= 0 ? &a : &b;
    while (alone->run >= 0)
        if (step(t, alone, uniform32(split_next(&alone->rng) >> 32), small, keep_tried, guesses, counting, basis))
            finish(t, alone, small, guesses, basis);
}

/* `job->runs` runs; each run's moves and restarts into moves[] and restarts[], every rest (a stop
 * the player chose a move on) added to visits[]; with guesses, each run's controls into
 * control[run * guesses + f]; with counts (non-NULL), what followed each rest added to it; with
 * basis (non-NULL; no guesses, at most 64 stops), each run's basis into basis[run * 5n ...]. A
 * run still going after `cap` moves stops there. Returns 0, -1 when scratch memory could not be
 * had, or -2 for a basis asked beside guesses or past 64 stops. */
int player_runs(const PlayerJob *job, int64_t *moves, int64_t *restarts, double *visits, double *control,
                double *counts, double *basis)
{
    const int n = job->n, guesses = job->guesses, hazards = job->hazards, small = n <= 64;
    if (basis && (guesses || !small)) return -2;
    const int width = 3 + job->guesses + (basis ? 4 : 0);
    const int keep_tried = job->variety != 1.0, base = keep_tried ? 3 : 2;
    Memo *memo = (Memo *)malloc(sizeof(Memo) * (size_t)n);
    /* a lane's each, where the stops seen are not kept in a word */
    int64_t *seen = small ? NULL : (int64_t *)malloc(sizeof(int64_t) * 2 * (size_t)n);
    int64_t *tried = keep_tried ? (int64_t *)malloc(sizeof(int64_t) * 2 * 4 * (size_t)n) : NULL;
    const double **row_of = (const double **)malloc(sizeof(double *) * 5 * (size_t)n);
    const int stalest = hazards > 1 ? hazards - 1 : 1; /* give_up[0] holds on from 1 move */
    double *by_stale = (double *)malloc(sizeof(double) * 2 * (size_t)(stalest + 1));
    double *by_stop = (double *)malloc(sizeof(double) * 2 * (size_t)n);
    int32_t *into = basis ? (int32_t *)malloc(sizeof(int32_t) * 4 * (size_t)n) : NULL;
    double *tally = basis ? (double *)malloc(sizeof(double) * 2 * (5 * (size_t)n + 1)) : NULL;
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
    int failed = !memo || (!small && !seen) || (keep_tried && !tried) || !row_of || !by_stale || !by_stop || !rows ||
                 (basis && (!into || !tally));
    if (!failed) {
        fill_rows(job, memo, keep_tried, basis != NULL, rows, width);
        Tables t = {job, memo, row_of, NULL, NULL, 0.0, 0.0, by_stale, by_stale + stalest + 1, stalest, by_stop,
                    by_stop + n, moves, restarts, visits, control, counts, basis, into, 0};
        for (int k = 0; basis && k < 4 * n; k++) { /* where each move ends, as the basis's column */
            const int32_t end = job->next[k];
            into[k] = end >= 0 ? end * 5 + k % 4 : end == TRAP ? job->start * 5 + 4 : 5 * n;
        }
        t.first = guesses > 0 ? job->value : NULL;
        t.second = guesses > 1 ? job->value + (size_t)n * 5 : NULL;
        t.fresh0 = t.first ? guess_at(job, 0, TRAP, 0) : 0.0;
        t.fresh1 = t.second ? guess_at(job, 1, TRAP, 0) : 0.0;
        for (int s = 0; s < n; s++) {
            for (int l = 0; l < 5; l++) row_of[s * 5 + l] = rows + (memo[s].first + (int64_t)l * memo[s].span) * width;
            const double noticed = job->sight[s] < 4 ? job->notice : 0.0;
            by_stop[s] = noticed;
            by_stop[n + s] = noticed < 1.0 ? 1.0 / (1.0 - noticed) : 0.0;
        }
        for (int k = 0; k <= stalest; k++) {
            const double quit = k > 0 ? job->give_up[k < hazards ? k : hazards - 1] : 0.0;
            by_stale[k] = quit;
            by_stale[stalest + 1 + k] = quit < 1.0 ? 1.0 / (1.0 - quit) : 0.0;
        }
        /* one loop for each case (its constants fold away): with or without the word of stops
         * seen, the moves made kept or not, 0 to 2 guesses or the basis; counting is one test a
         * step */
#define WALK(small_, keep_)                                                                                            \
    do {                                                                                                               \
        if (guesses == 0) walk(&t, seen, tried, tally, small_, keep_, 0, counts != NULL, 0);                           \
        else if (guesses == 1) walk(&t, seen, tried, tally, small_, keep_, 1, counts != NULL, 0);                      \
        else walk(&t, seen, tried, tally, small_, keep_, 2, counts != NULL, 0);                                        \
    } while (0)
        if (basis && keep_tried) walk(&t, seen, tried, tally, 1, 1, 0, counts != NULL, 1);
        else if (basis) walk(&t, seen, tried, tally, 1, 0, 0, counts != NULL, 1);
        else if (small && keep_tried) WALK(1, 1);
        else if (small) WALK(1, 0);
        else if (keep_tried) WALK(0, 1);
        else WALK(0, 0);
#undef WALK
    }
    free(memo);
    free(seen);
    free(tried);
    free(row_of);
    free(by_stale);
    free(by_stop);
    free(into);
    free(tally);
    free(rows);
    return failed ? -1 : 0;
}
