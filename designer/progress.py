"""Progress display for long work: a rich bar on a terminal, nothing when output is piped."""

from __future__ import annotations

from contextlib import contextmanager

from designer.design import Progress


class _Quiet:
    def for_level(self, index: int) -> Progress:
        return Progress()

    def advance(self) -> None:
        pass


class _Bar:
    def __init__(self, bar, task):
        self.bar, self.task = bar, task

    def for_level(self, index: int) -> Progress:
        def show(state: Progress) -> None:
            best = f", best {state.best_stops} stops" if state.best_stops is not None else ""
            rejected = f", {state.rejected} rejected" if state.rejected else ""
            self.bar.update(self.task, description=f"level {index + 1}: {state.phase}{best}{rejected}")

        return Progress(listeners=[show])

    def advance(self) -> None:
        self.bar.advance(self.task)


@contextmanager
def reporter(total: int, enabled: bool):
    """Yield an object with ``for_level(k)`` (a design.Progress to pass to design) and ``advance()``."""
    if not enabled:
        yield _Quiet()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, SpinnerColumn, TextColumn
    from rich.progress import TimeElapsedColumn

    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with RichProgress(*columns, console=Console(stderr=True), transient=True) as bar:
        yield _Bar(bar, bar.add_task("designing", total=total))
