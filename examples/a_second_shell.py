"""A second shell over the operations (``designer.ops``): a pack whose difficulty rises, designed
with a rich progress bar and cancelled by a timer, as any front end would drive it.

Run: python examples/a_second_shell.py [FOLDER] [SECONDS]
     (writes the pack to FOLDER, default ./pack; cancels after SECONDS, default 20)

Nothing here prints from inside the work or parses a command line of the designer's: the
operation takes typed values, reports ``Update``s to one callback and stops on one token.
"""

import sys
import threading

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from designer.core.control import CancelToken, Cancelled, Update
from designer.ops import design

folder = sys.argv[1] if len(sys.argv) > 1 else "pack"
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0

# Seven 12x12 levels whose min stops rise evenly from 10 to 40, each designed within 30 s.
plan = design.plan({"curve": "10..40", "count": 7, "seed": 1, "time_limit": 30})
output = design.LevelOutput(folder=folder, force=True)

cancel = CancelToken()
timer = threading.Timer(seconds, cancel.cancel)  # a "Stop" button, a closed page: any thread may cancel
timer.start()
with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar:
    task = bar.add_task("designing", total=plan.count)

    def show(update: Update) -> None:
        bar.update(task, completed=update.done, **({"description": update.label} if update.label else {}))

    try:
        made = design.make(plan, output, on_progress=show, cancel=cancel)
    except Cancelled:
        made = None
    finally:
        timer.cancel()

if made is None:
    print(f"cancelled after {seconds:g} s: the levels finished before it are in {folder}/")
else:
    for found in made.designs:
        print(f"min stops {found.min_stops:2d}, {found.analysis.options} options, by {found.generator.stage}")
    print(f"wrote {plan.count} levels to {folder}/")
