"""Background asyncio tasks: stopping the ones a table or the table manager keeps."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any


async def cancel_all(tasks: Iterable[asyncio.Task[Any]]) -> None:
    """Cancel every task of ``tasks`` and wait until each has finished, whatever it
    raised (its owner is closing; a task that failed has said so already)."""
    pending = list(tasks)
    for task in pending:
        task.cancel()
    for task in pending:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
