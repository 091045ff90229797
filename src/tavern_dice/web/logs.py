"""Structured logs for ``tavern serve``: the standard library's logging, one JSON object a
line (``--log-format json``) or plain text for a DM's terminal.

Fields beyond the message go in ``extra=`` (``table``, ``node``, ``game``...) and come out
as keys of their own, so a log search can ask for one table.

>>> import logging
>>> record = logging.LogRecord("tavern_dice.web", logging.INFO, "f", 1, "table %s: loaded",
...                            ("t1",), None)
>>> record.table = "t1"
>>> line = JsonFormatter().format(record)
>>> import json; data = json.loads(line)
>>> data["message"], data["level"], data["table"]
('table t1: loaded', 'info', 't1')
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message", "asctime", "color_message"}
"""Attributes every record has (and Uvicorn's coloured copy of the message); anything
else was passed in ``extra``."""


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, extras, exception."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                data[key] = value if isinstance(value, str | int | float | bool) else str(value)
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def configure(level: str = "warning", fmt: str = "text") -> None:
    """Send every logger's records (the server's, Uvicorn's, Alembic's) to stderr in
    ``fmt`` (``"text"`` or ``"json"``) from ``level`` up."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "alembic"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    # Each request forwarded to another process would log twice at info.
    logging.getLogger("httpx").setLevel(max(root.level, logging.WARNING))
