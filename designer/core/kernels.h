/*
 * The compiled kernels' shared declarations: the tile codes, the directions, the scratch sizes,
 * the structs the concerns pass between them, and each concern's entry points. One file a
 * concern: kernels_tables.c (slide and passage tables, reach, the classifier), kernels_search.c
 * (choice figures, the exhaustive search, the best pair of one terrain), kernels_anneal.c (the
 * two annealing chains), kernels_explain.c (the refutations of the counterexample loop),
 * kernels_player.c (the player family played out), and
 * _kernels.c (the Python bindings, which read each call's arguments into these structs).
 */
#ifndef DESIGNER_KERNELS_H
#define DESIGNER_KERNELS_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif
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

/* ---- scratch sizes, in ints (each documented where it is used) ---------------------------- */
#define WORK_INTS(n) (8 * (n) + 2)
#define SCRATCH_INTS(n) (10 * (n) + WORK_INTS(n))
#define CHOICE_INTS(n) (12 * (n))
typedef struct {
    int32_t best;       /* best min stops found (>= threshold), -1 if none */
    int64_t ties;       /* (layout, start, goal) triples reaching `best` */
    uint64_t mask;      /* an example: rock set (bits over the free cells), start, goal */
    int32_t start, goal;
    int64_t layouts;    /* canonical layouts evaluated */
    int complete;       /* 0 when the budget ran out or `stop` was set before the end */
    int out_of_memory;  /* 1 when scratch memory could not be had: nothing was searched */
} Search;

enum { ROOM_SUM = 0, ROOM_MIN = 1, ROOM_OPTIONS = 2, ROOM_PER_STOP = 3 };
typedef struct {
    const int32_t *table;    /* [door a, door b, floor, ceiling (-1: none)] per route */
    int count;               /* 0: a level, not a room */
    int mode;                /* ROOM_* */
} Routes;

#define EXHAUSTIVE_SCRATCH(n) (20 * (n))

/* One exhaustive search over layouts (designer/core/kernel_jobs.py's SearchJob, field for field):
 * every rock set of `rocks` free cells whose lowest is `first` (and next lowest `second`, unless
 * it is -1), one per symmetry class, each layout's best (start, goal) pair of at least
 * `threshold` stops; a room (`routes.count` > 0): its score. */
typedef struct {
    const uint8_t *base;        /* the fixed terrain, ice on the free cells */
    int h, w;
    const int32_t *free_cells;  /* flat cells a rock may take (at most 64), and how many */
    int nfree;
    const uint8_t *start_ok;    /* 1 where the start may go */
    const uint8_t *goal_ok;     /* 1 where the goal may go */
    const int32_t *syms;        /* nsyms maps of free-cell indices, nfree each */
    int nsyms;
    int rocks, first, second;   /* the shard */
    int32_t threshold;          /* the fewest min stops worth keeping */
    double budget;              /* seconds of its own */
    volatile const int32_t *stop; /* set by another thread: give up */
    Routes routes;
    int cpu_clock;              /* 1: the budget is the thread's processor time */
} SearchJob;
#define BEST_PAIR_SCRATCH(n) (22 * (n) + 1)
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

/* One annealing chain over whole layouts (designer/core/kernel_jobs.py's AnnealJob, field for
 * field): `terrain`, `ends` and `score` are the chain's state, in and out; `best_terrain` and
 * `best` the best layout it has met. */
typedef struct {
    uint8_t *terrain;
    int h, w;
    Space space;
    int32_t *ends;              /* [start, goal] */
    int32_t *score;
    uint64_t *rng;              /* the random stream's state */
    double heat_hi, heat_lo;
    int64_t steps;
    int32_t target;             /* -1: none; a chain that reaches it stops */
    volatile const int32_t *stop;
    uint8_t *best_terrain;
    int32_t *best;              /* [score, start, goal] */
} AnnealJob;
#define DECISIONS_MET 10000
#define DECISIONS_SHORT_COST 150
#define OPEN_GOAL_SAMPLES 8
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

/* Runs of one member of the player family (designer/core/kernel_jobs.py's PlayerJob, field for
 * field; kernels_player.c says what each table holds). */
typedef struct {
    int n;                      /* stops */
    const int32_t *next;        /* (n, 4) */
    const double *weight;       /* (n, 5, 4) */
    const uint8_t *sight;       /* (n) */
    const double *give_up;      /* (hazards) */
    int hazards;
    double novelty, variety, lapse, notice;
    int start;
    int64_t runs, cap;
    uint64_t seed;
    const double *value; /* (guesses, n, 5): the guesses at the moves left; NULL for none */
    int guesses;
} PlayerJob;


/* The entry points are the kernels' own: hidden from the dynamic linker (only PyInit__kernels is
 * exported), so that a call between them is a direct call the compiler may inline, never one
 * through the procedure linkage table that another library could interpose. */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* ---- entry points (each documented where it is defined) ----------------------------------- */
/* kernels_tables.c: slide and passage tables, reach, the classifier */
void slide_table(const uint8_t *terrain, int h, int w, int64_t capture, int32_t *dest, int32_t *length);
int passage_table(const uint8_t *terrain, int h, int w, const int32_t *floors, int nfloors,
                         const int32_t *portal_of, int64_t capture, int32_t *dest, int32_t *length);
int64_t bfs_from(int32_t *dist, int64_t n, int64_t source, int32_t *queue);
int64_t reach(const int32_t *dest, int64_t n, int64_t start, int64_t goal, int32_t *stops, int32_t *order);
int all_reach_goal(const int32_t *dest, int64_t n, const int32_t *order, int64_t count, int64_t goal,
                          int32_t *work);
void classify_one(const uint8_t *terrain, int h, int w, int64_t start, int64_t goal, int32_t *scratch,
                        int8_t *klass, uint8_t *reversible, int32_t *min_stops);

/* kernels_search.c: choice figures, the exhaustive search, the best pair */
void choice_figures(const uint8_t *terrain, int h, int w, int64_t start, int64_t goal, int32_t *scratch,
                           int32_t *options, int32_t *rails, int32_t *solutions);
int32_t room_score(const uint8_t *terrain, int h, int w, const Routes *routes, int32_t *scratch);
void best_pair_of(const uint8_t *terrain, int h, int w, const uint8_t *start_ok, const uint8_t *goal_ok,
                         int32_t threshold, int32_t *scratch, Search *found);
void search_layouts(const SearchJob *job, Search *found);

/* kernels_anneal.c: the annealing chains */
int64_t anneal_layout(const AnnealJob *job, uint8_t *board, int32_t *scratch);
int64_t anneal_open(uint8_t *t, int32_t *dims, int H, int W, int32_t *goal, int32_t *score, uint64_t *rng,
                           double heat_hi, double heat_lo, int64_t steps, int32_t target,
                           volatile const int32_t *stop, uint8_t *best_t, int32_t *best, uint8_t *moved,
                           uint8_t *start_ok, uint8_t *goal_ok, int32_t *scratch);

/* kernels_player.c: the player family played out */
int player_runs(const PlayerJob *job, int64_t *moves, int64_t *restarts, double *visits, double *control,
                double *counts, double *basis);

/* kernels_explain.c: the refutations */
int refute_explain(Explainer *x, const int32_t *routes, int nroutes, int32_t *out, int cap);
Explainer *explainer(void);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
