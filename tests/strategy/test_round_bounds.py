"""The sampled LBR bounds shipped for the heads-up rounds without an exact figure (issue 7):
which rounds they are, that every one is shipped and consistent, and that the builder
measures and merges."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavern_dice.measure.round_bounds import load_bounds, main, round_name, uncovered_rounds
from tavern_dice.measure.round_gain import PositionScore
from tavern_dice.strategy.liars_dice.solver.play.tables import metadata

SEVEN_TO_TEN = {(a, b) for a in range(1, 6) for b in range(1, 6) if a + b >= 7}


def test_the_uncovered_rounds_are_the_ones_no_table_covers() -> None:
    # Tables ship for every round up to 6 dice in play under both rules (the data within
    # 20 MB): the blueprints play the standard 7-10-dice rounds and the search the seed's.
    six = {(a, b) for a in range(1, 6) for b in range(1, 6) if a + b <= 6}
    for key in ("tavern-standard", "tavern"):
        own = {tuple(info["dice"]) for info in metadata(key)["rounds"]}
        assert own == six
        assert set(uncovered_rounds(key)) == SEVEN_TO_TEN
    assert uncovered_rounds("tavern")[0] == (5, 5)  # the biggest first


def test_a_stand_in_plays_only_the_small_rounds() -> None:
    from tavern_dice.strategy.liars_dice.solver.play import tables

    assert tables._covering_table("tavern-standard", 3, 3) is not None
    assert tables._covering_table("tavern-standard", 3, 5) is None
    assert tables._covering_table("tavern", 3, 4) is None
    assert tables.STAND_IN_MAX_IN_PLAY < 7


def test_a_round_the_table_lacks_is_uncovered_and_played_by_the_stand_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tavern_dice.strategy.liars_dice.solver.play import tables

    real = tables.metadata

    def without_1v5(key: str) -> dict[str, object]:
        meta = dict(real(key))
        if key == "tavern":
            meta["rounds"] = [r for r in meta["rounds"] if r["dice"] != [1, 5]]
        return meta

    monkeypatch.setattr(tables, "metadata", without_1v5)
    assert tables.stand_in_rounds("tavern") == [(1, 5)]
    assert set(uncovered_rounds("tavern")) == SEVEN_TO_TEN | {(1, 5)}


def test_every_uncovered_round_ships_a_consistent_bound() -> None:
    bounds = load_bounds()
    for key in ("tavern", "tavern-standard"):
        for dice in uncovered_rounds(key):
            record = bounds[key][round_name(dice)]
            assert record["dice"] == list(dice) and record["target"] == "strong"
            # 500 rounds a figure; 40-100 (hands summed out, each worth 5-10 played) where
            # strong searches, since there every one of lbr's decisions asks its copy for
            # dozens of searches.
            assert record["exploiter"] == "lbr" and record["rounds"] >= 40
            first, second = record["first"], record["second"]
            assert first["rounds"] + second["rounds"] == record["rounds"]
            if record.get("integrated"):
                # Since 2026-12-06 the searched rounds' figures sum both hands out
                # (round_gain_integrated): mean scores and their variances.
                means = [first["mean"], second["mean"]]
                assert 0 <= first["variance"] < 1 and 0 <= second["variance"] < 1
            else:
                means = [PositionScore(side["rounds"], side["wins"]).mean
                         for side in (first, second)]
            assert record["gain"] == pytest.approx(sum(means) / 2)
            assert record["low"] < record["gain"] < record["high"]


def test_the_builder_measures_the_rounds_asked_and_keeps_the_others(tmp_path: Path) -> None:
    out = tmp_path / "bounds.json"
    out.write_text(json.dumps({"bounds": {"tavern-standard": {"9 v 9": {"kept": True}}}}))
    main(["--rules", "tavern-standard", "--rounds", "2", "--only", "5x4", "--workers", "1",
          "--out", str(out)])
    bounds = load_bounds(out)["tavern-standard"]
    assert bounds["9 v 9"] == {"kept": True}
    record = bounds["5 v 4"]  # a blueprint round
    assert record["rounds"] == 2 and record["dice"] == [5, 4] and record["seconds"] >= 0
    assert record["integrated"] is True  # the hands summed out unless --played
    assert set(bounds) == {"9 v 9", "5 v 4"}
