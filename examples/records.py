"""Records from Python: the longest strong, reversible level for each rock budget on a small open
grid, proven optimal by the sharded exhaustive search, with a checkpoint to resume from.

Run: python examples/records.py   (about 5 s on a 2-core machine)
"""

import tempfile
from pathlib import Path

from designer.core.budget import Budget
from designer.search.engines import exhaustive
from designer.search.executor import InProcess
from designer.studies.records import markdown_table, record_request, records

with tempfile.TemporaryDirectory() as folder:
    checkpoint = Path(folder) / "records.ckpt"
    # 5x5, no frame (the grid edge is the wall), 1 to 3 rocks, at most 10 s per rock count.
    found = records(5, 5, False, [1, 2, 3], time_limit=10, checkpoint_path=checkpoint)
    print(markdown_table(5, 5, False, found))
    best = found[-1]
    print(f"{best.rocks} rocks: {best.min_stops} stops, proven optimal: {best.proven_optimal}")
    print(best.level)
    # Run again with the same checkpoint: every count is read back, nothing is searched again.
    again = records(5, 5, False, [1, 2, 3], time_limit=10, checkpoint_path=checkpoint)
    print("read back from the checkpoint:", [r.min_stops for r in again] == [r.min_stops for r in found])

# The proof on its own: every layout of at most 3 rocks, in shards on an executor (threads here;
# designer.search.executor.Dask("local") runs the same shards on a dask LocalCluster).
request = record_request(5, 5, False, 3)
result = exhaustive.search(request, 12, Budget(60), executor=InProcess(2))
print(f"levels of 12 stops or more with 3 rocks: {'none' if result.best < 0 else result.best}; "
      f"complete: {result.complete}; {result.layouts:,} layouts searched up to symmetry")
