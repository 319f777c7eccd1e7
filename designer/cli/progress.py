"""Progress display for long work: a rich bar on a terminal, nothing when output is piped."""

from __future__ import annotations

from contextlib import contextmanager

from designer.search.design import Progress


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
def _rich_bar(total: int, description: str):
    """A rich progress bar on standard error: yields (bar, task)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, SpinnerColumn, TextColumn
    from rich.progress import TimeElapsedColumn

    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with RichProgress(*columns, console=Console(stderr=True), transient=True) as bar:
        yield bar, bar.add_task(description, total=total)


@contextmanager
def reporter(total: int, enabled: bool):
    """Yield an object with ``for_level(k)`` (a design.Progress to pass to design) and ``advance()``."""
    if not enabled:
        yield _Quiet()
        return
    with _rich_bar(total, "designing") as (bar, task):
        yield _Bar(bar, task)


class _RecordsBar:
    def __init__(self, bar=None, task=None):
        self.bar, self.task = bar, task

    def phase(self, rocks: int, name: str) -> None:
        """Show the rock count in progress and its stage."""
        if self.bar is not None:
            self.bar.update(self.task, description=f"{rocks} rocks: {name}")

    def advance(self, *_) -> None:
        if self.bar is not None:
            self.bar.advance(self.task)


@contextmanager
def records_reporter(total: int, enabled: bool):
    """Yield an object with ``phase(rocks, stage)`` and ``advance()`` for ``designer records``."""
    if not enabled:
        yield _RecordsBar()
        return
    with _rich_bar(total, "records") as (bar, task):
        yield _RecordsBar(bar, task)
