"""Every tunable of the searches, in one place, with what it means.

Time shares are fractions of the time *left* when the stage starts (``Budget.share``): the
policies in ``designer.search.design`` read top-down with them. Values were set by measurement;
the README's benchmarks are the figures they were set against.
"""

# --- sampling ------------------------------------------------------------------------------------
#: Random layouts classified per compiled batch.
SAMPLE_BATCH = 4096
#: Rock densities of successive batches (free cells that are rock).
DENSITIES = (0.2, 0.25, 0.15, 0.3)
#: Batches drawn before climbing (more while none is strong and reversible, up to half the time).
SAMPLE_BATCHES = 1
#: The best sampled layouts kept for the climb to start from.
POOL_SIZE = 8

# --- the policies' shares of the time left ------------------------------------------------------
#: Meeting K: the climb's share; CP-SAT or the exhaustive search gets the rest.
CLIMB_SHARE = 0.5
#: When a complete exhaustive search is in reach, the climb only gets this, the proof the rest.
CLIMB_SHARE_BEFORE_PROOF = 0.1
#: Maximizing, before the annealing: one short climb hands the chains a good start.
CLIMB_SHARE_BEFORE_ANNEAL = 0.05
#: Maximizing with no proof in reach (annealing, open grids, climbs with restarts): this share,
#: the model the rest.
SEARCH_SHARE_WITHOUT_PROOF = 0.9
#: Meeting K the climb missed: the annealing's share, the model the rest.
ANNEAL_SHARE_BEFORE_MODEL = 0.5
#: Search exhaustively when a complete search is forecast within this many times the time left.
EXHAUSTIVE_REACH = 10
#: In ``auto``'s portfolio, the seconds the climb runs alone before the model starts beside it
#: on a grid of ``MODEL_HEAD_START_CELLS`` cells or more (in proportion on smaller ones): a level
#: the climb meets at once never waits on loading OR-Tools and building the model (about 0.3 s
#: and more of the interpreter's lock on 12x12). Measured: 12x12 K=35, seeds 1-5, median 0.46 s
#: with 0.3 s (0.50 s before the portfolio), 0.57 s with 0.1 s.
MODEL_HEAD_START = 0.3
MODEL_HEAD_START_CELLS = 144

#: ``auto`` poses its proofs to the counterexample loop (``designer.search.engines.refute``) in
#: place of the CP-SAT model on grids of up to this many cells (docs/model.md, "Proofs by
#: refutation").
REFUTE_CELLS = 64

#: Maximizing, the model runs beside the other stages only on grids of at most this many cells,
#: where its proofs come within minutes (7x7: 13 stops proven optimal in 12 s, where the stages
#: one after another proved nothing in 60 s). On larger grids it would cost the annealing a chain
#: for nothing (12x12, 20 s, seeds 1-2: 51 / 53 stops against 53 / 55), so the model gets the end.
MAXIMIZE_BESIDE_MODEL_CELLS = 100
#: Choices: the climb to the stops band gets ``CLIMB_SHARE`` (it returns as soon as it is in the
#: band); when a floor on options comes with a min-stops objective (``--maximize`` or
#: ``--unique`` with ``--min-choices``), the chains climbing to the floor get this share first.
CHOICES_FLOOR_SHARE = 0.5

# --- the climb -----------------------------------------------------------------------------------
#: The climb hands over after this long without a gain: a share of the time limit, within bounds.
STALL_SHARE, STALL_MIN_SECONDS, STALL_MAX_SECONDS = 0.1, 2.0, 30.0
#: Sideways moves before a kick, and the random toggles of a kick.
PLATEAU_STEPS = 40
KICK_TOGGLES = 4
#: Exact neighbourhoods (tiny spaces): their stall share (each round is slower), and the rocks
#: released per round.
NEIGHBOURHOOD_STALL_SHARE = 0.3
#: A room's climb for choices starts again from fresh samples after this share of the time limit
#: without a better room (``designer.search.policies.room_choices``).
ROOM_CHOICES_STALL_SHARE = 0.25
#: ... and its annealing chains get this share of the time left in each round, the next round
#: starting from fresh samples, so that one chain stuck far from the best does not take it all.
ROOM_CHOICES_ROUND_SHARE = 0.5
NEIGHBOURHOOD_RELEASE = (3, 4)

# --- the annealing chains (designer.search.engines.anneal) ----------------------------------------
#: Heat (in stops) at the start and the end of an epoch, and the first heat of later epochs.
HOT, COLD, REHEAT = 2.0, 0.2, 0.5
#: An epoch's length: a chain cools over this many seconds (or the time left), then reheats from
#: its best.
EPOCH_SECONDS = 20.0
#: Steps per compiled call: the schedule, the stop flag and the clock are looked at in between.
SLICE_STEPS = 4096

# --- decisions by default (designer.search.decisions) ------------------------------------------
#: Once a level meets its request, this many chains that count decisions run this many steps
#: each (a budget of work: the same seed gives the same level; about a second on a framed 12x12
#: of 25 stops), within the time left, and each stops at this score: options a stop less the
#: share of rail stops, in thousandths (1700: say 1.80 options a stop with a tenth of the stops
#: rails).
DECISIONS_CHAINS = 2
DECISIONS_STEPS = 120_000
DECISIONS_ENOUGH = 1700
#: ... or when its best has not risen for this many steps (a level whose decisions the grid
#: holds at their best already, as small grids most often do, ends early).
DECISIONS_STALL = 40_000

# --- open grids (designer.search.engines.opengrid) ------------------------------------------------
#: Heat at the start and the end of an epoch; later epochs start at half of ``OPEN_HOT``.
OPEN_HOT, OPEN_COLD = 3.0, 0.1
OPEN_EPOCH_SECONDS = 15.0
#: Move mix: a rock along its row or column; a rock anywhere; otherwise a blank row or column
#: inserted or removed.
ALONG_LINE, ANYWHERE = 0.4, 0.4
#: Random goal cells a move is scored with, besides the current goal.
GOAL_SAMPLES = 8
#: A chain's first grid: this many rows and columns more than rocks (within the request's).
START_MARGIN = (4, 5)
#: Steps per compiled call of the open-grid chain.
OPEN_SLICE_STEPS = 256

# --- the exhaustive search (designer.search.engines.exhaustive) -----------------------------------
#: Measured rate of the compiled search on a 6x7 grid, per core (layouts per second), with the bar
#: near the optimum as in a proof (240k-340k for 6 and 7 rocks on 6x7; 7x7 scaled by cells
#: squared: 220k): what its time forecast, and so the policies' choice of a proof, rests on.
RATE_42_CELLS = 200_000
#: Levels classified per batch when every start and goal is tried on one terrain.
ENDPOINT_BATCH = 4096

# --- where shards run (designer.search.executor) --------------------------------------------------
#: Tasks per cluster worker for one run: few enough to keep scheduling cheap.
BATCHES_PER_WORKER = 8

# --- the model ------------------------------------------------------------------------------------
#: Start and goal pairs tried for the model's starting point (the empty room).
EMPTY_ROOM_PAIRS = 4096

# --- records (designer.studies.records) -----------------------------------------------------------
#: The lower bound's share of the proof's forecast time (and at most of the time limit), and its
#: least.
BOUND_SHARE = 0.1
MIN_BOUND_SECONDS = 1.0
#: Seconds between checkpoint writes while shards finish.
SAVE_EVERY = 2.0

# --- difficulty presets (designer.search.difficulty) ----------------------------------------------
#: ``expert``: the share of the time limit spent finding the longest level.
EXPERT_LENGTH_SHARE = 0.4
#: The expert preset's share of the time for the most choices at its longest length; the rest
#: goes to levels of real decisions (``EXPERT_RAIL_SHARE``) when the longest is a railroad.
EXPERT_CHOICES_SHARE = 0.2
#: The most rail stops an expert level keeps, as a share of its stops (a long level with a quarter
#: or fewer of its stops on rails), and the most of the time limit each shorter length's design
#: takes while the longest such length is searched for.
EXPERT_RAIL_SHARE, EXPERT_TRY_SHARE = 0.25, 0.1
#: The expert preset keeps its longest level, railroad or not, when it is shorter than this: a
#: small grid's long ways are all rails (6x6 framed: 9 stops, the most there is, every stop a
#: rail), and a level of fewer stops has little to decide.
EXPERT_RAILS_FROM = 25
#: The side of the square frame the expert preset designs on when no size is asked: a long level
#: needs room for its decisions (measured, seed 0: on 12x12 a level of 45 stops had 29 rail
#: stops, of 29 stops 8; on 16x16 a level of 51 stops had 9, of 61 stops 24).
EXPERT_SIDE = 16

# --- items (designer.search.engines.items.design_with_items) --------------------------------------
#: The share of the time limit the plain level may take before the items are placed and annealed
#: (12x12, 3 items, --maximize --time-limit 60, seeds 1-5: 104, 96, 106, 88, 94 stops at 0.15;
#: seeds 1-3 at 0.3: 88, 130, 96).
ITEMS_PLAIN_SHARE = 0.15
#: Meeting K with N items, the plain level is asked for K - ITEMS_PLAIN_STOPS * N stops: the items
#: lengthen it (on 12x12, 3 items took a 21-stop level to 26-27 within a second).
ITEMS_PLAIN_STOPS = 2

#: What one layout's figures with items cost (``designer.search.engines.item_scores``), in nominal
#: seconds, as the project's machine measures them (150-240 us for levels of 8x8 to 16x16, most of
#: it fixed): what they report to the work clock (``designer.core.budget.add_work``).
EVALUATE_SECONDS, EVALUATE_STATE_SECONDS = 150e-6, 300e-9
