"""Progress display for long work: a rich bar on a terminal, nothing when output is piped."""

from __future__ import annotations

from contextlib import contextmanager

from designer.search.stages import Progress


class _Bar:
    """One bar for ``make`` (a level at a time) and ``records`` (a rock count at a time); every
    call is a no-op when the bar is off."""

    def __init__(self, bar=None, task=None):
        self.bar, self.task = bar, task

    def for_level(self, index: int) -> Progress:
        """A ``Progress`` for level ``index`` of a pack (pass it to ``design``)."""
        if self.bar is None:
            return Progress()

        def show(state: Progress) -> None:
            best = f", best {state.best_stops} stops" if state.best_stops is not None else ""
            rejected = f", {state.rejected} rejected" if state.rejected else ""
            self.bar.update(self.task, description=f"level {index + 1}: {state.phase}{best}{rejected}")

        return Progress(listeners=[show])

    def phase(self, rocks: int, name: str) -> None:
        """Show the rock count in progress and its stage (``records``)."""
        if self.bar is not None:
            self.bar.update(self.task, description=f"{rocks} rocks: {name}")

    def advance(self, *_) -> None:
        if self.bar is not None:
            self.bar.advance(self.task)


@contextmanager
def reporter(total: int, enabled: bool, description: str = "designing"):
    """Yield a ``_Bar`` of ``total`` steps: a rich progress bar on standard error when
    ``enabled``, else one that shows nothing."""
    if not enabled:
        yield _Bar()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, SpinnerColumn, TextColumn
    from rich.progress import TimeElapsedColumn

    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with RichProgress(*columns, console=Console(stderr=True), transient=True) as bar:
        yield _Bar(bar, bar.add_task(description, total=total))


def records_reporter(total: int, enabled: bool):
    """``reporter`` for ``designer records``: ``phase(rocks, stage)`` and ``advance()``."""
    return reporter(total, enabled, "records")
