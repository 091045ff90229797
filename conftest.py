"""Test collection.

The interop modules' doctests need their optional extras: ``make test`` installs them (the
``dev`` extra); without them, pytest skips those modules' doctests here, and their test
files skip themselves (``pytest.importorskip``). The migrations' Alembic environment
(``env.py``) runs migrations when imported, so it is not collected.

No test touches the user's own data or cache directory: every test's rating store
(``tavern_dice.cli.rating_store``) is in a temporary directory of its own, and the session's
leaf-value cache in another.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

collect_ignore: list[str] = [
    # Only Alembic loads it (see above).
    "src/tavern_dice/web/migrations/env.py",
]
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("src/tavern_dice/interop/openspiel.py")
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("gymnasium") is None:
    collect_ignore.append("src/tavern_dice/interop/pettingzoo")


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data directory of the test's own (subprocesses inherit it through the
    environment)."""
    where = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("TAVERN_DICE_DATA_DIR", str(where))
    yield where


@pytest.fixture(autouse=True, scope="session")
def _own_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache folder of the session's own (:mod:`~tavern_dice.strategy.liars_dice.solver.
    play.leaf_cache`), shared by its tests as by a user's processes: nothing is written to
    the user's cache, and a round's leaf values are built once a session."""
    where = tmp_path_factory.mktemp("cache")
    before = os.environ.get("TAVERN_DICE_CACHE_DIR")
    os.environ["TAVERN_DICE_CACHE_DIR"] = str(where)
    yield where
    if before is None:
        os.environ.pop("TAVERN_DICE_CACHE_DIR", None)
    else:
        os.environ["TAVERN_DICE_CACHE_DIR"] = before
