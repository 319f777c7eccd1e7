"""Progress of long work on a terminal: a rich bar on standard error that an operation's updates
(``designer.core.control.Update``) move; nothing when standard error is piped."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from designer.core.control import Update, no_progress


@contextmanager
def progress_bar(enabled: bool):
    """Yield an ``on_progress`` callback: a transient rich bar when ``enabled``, else one that
    shows nothing. The bar appears with the operation's first update (its total and label)."""
    if not enabled:
        yield no_progress
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = [
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ]
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = None

        def show(update: Update) -> None:
            nonlocal task
            if task is None:
                task = bar.add_task(update.label or "", total=update.total)
            label: dict[str, Any] = (
                {"description": update.label} if update.label is not None else {}
            )
            bar.update(task, completed=update.done, total=update.total, **label)

        yield show
