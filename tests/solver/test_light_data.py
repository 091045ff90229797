"""The shipped data stays light: within 20 MB, no file over 5 MB, one file per round; a
table is read as stored and decoded one history at a time, as a bot asks."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from tavern_dice.strategy.liars_dice.solver.play.table_store import round_files
from tavern_dice.strategy.liars_dice.solver.play.tables import (
    SHIPPED_ROUNDS,
    TABLE_RULES,
    data_path,
    forget_loaded,
    load_round,
)

DATA = Path(str(resources.files("tavern_dice").joinpath("data")))
MB = 1_000_000


def test_the_package_data_is_at_most_20_mb_and_no_file_over_5_mb() -> None:
    files = [p for p in DATA.rglob("*") if p.is_file()]
    sizes = {p.relative_to(DATA).as_posix(): p.stat().st_size for p in files}
    assert sum(sizes.values()) <= 20 * MB, sorted(sizes.items(), key=lambda kv: -kv[1])[:5]
    assert max(sizes.values()) <= 5 * MB, max(sizes.items(), key=lambda kv: kv[1])


@pytest.mark.parametrize("key", list(TABLE_RULES))
def test_each_shipped_round_has_a_file_of_its_own(key: str) -> None:
    found = [dice for dice, _ in round_files(data_path(key))]
    assert found == sorted(SHIPPED_ROUNDS[key])


def test_a_table_is_decoded_one_history_at_a_time_as_stored() -> None:
    forget_loaded()
    try:
        table = load_round("tavern", 2, 2)
        assert table.floats is None and table.stored is not None
        histories = list(table.index)[:: max(1, len(table.index) // 200)]
        for history in histories:
            actor = len(history) % 2
            node = table.node_of(history)
            assert node == table.index[history]
            _, probs = table.policy(history, range(table.stored[actor].shape[1]))
            assert probs.sum(axis=1) == pytest.approx(1.0)
        assert table.floats is None  # nothing widened to floats for the whole round
        # The same numbers as the whole round decoded at once (what builders read).
        decoded = [table.node_probs(table.index[h], len(h) % 2) for h in histories]
        for history, rows in zip(histories, decoded, strict=True):
            lo, hi = table.slot_start[table.index[history]], table.slot_start[
                table.index[history] + 1]
            whole = table.strategy[len(history) % 2][table.rows[lo:hi]]
            assert np.allclose(rows, whole, atol=1e-12)
        assert table.node_of((999,)) is None and table.node_of((-1,)) is None
    finally:
        forget_loaded()

