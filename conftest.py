"""Test collection.

The interop modules' doctests need their optional extras: ``make test`` installs them (the
``dev`` extra); without them, pytest skips those modules' doctests here, and their test
files skip themselves (``pytest.importorskip``). The migrations' Alembic environment
(``env.py``) runs migrations when imported, so it is not collected.
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = [
    # Only Alembic loads it (see above).
    "src/tavern_dice/web/migrations/env.py",
]
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("src/tavern_dice/interop/openspiel.py")
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("gymnasium") is None:
    collect_ignore.append("src/tavern_dice/interop/pettingzoo")
