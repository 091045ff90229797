"""The sampled LBR bounds shipped for the heads-up rounds without an exact figure (issue 7):
which rounds they are, that every one is shipped and consistent, and that the builder
measures and merges."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavern_dice.play.round_bounds import load_bounds, main, round_name, uncovered_rounds
from tavern_dice.play.round_gain import PositionScore
from tavern_dice.strategy.liars_dice.solver.tables import metadata

SEVEN_TO_TEN = {(a, b) for a in range(1, 6) for b in range(1, 6) if a + b >= 7}


def test_the_uncovered_rounds_are_the_blueprints_and_the_stand_ins() -> None:
    assert set(uncovered_rounds("tavern-standard")) == SEVEN_TO_TEN
    # The seed's table lacks 1 v 5 and 5 v 1, which the tavern-standard table plays.
    own = {tuple(info["dice"]) for info in metadata("tavern")["rounds"]}
    assert (1, 5) not in own and (5, 1) not in own
    assert set(uncovered_rounds("tavern")) == SEVEN_TO_TEN | {(1, 5), (5, 1)}
    assert uncovered_rounds("tavern")[0] == (5, 5)  # the biggest first


def test_every_uncovered_round_ships_a_consistent_bound() -> None:
    bounds = load_bounds()
    for key in ("tavern", "tavern-standard"):
        for dice in uncovered_rounds(key):
            record = bounds[key][round_name(dice)]
            assert record["dice"] == list(dice) and record["target"] == "strong"
            # 500 rounds a figure; 60 where strong searches (the seed's 7-10-dice rounds),
            # since there every one of lbr's decisions asks its copy for dozens of searches.
            assert record["exploiter"] == "lbr" and record["rounds"] >= 60
            first = PositionScore(record["first"]["rounds"], record["first"]["wins"])
            second = PositionScore(record["second"]["rounds"], record["second"]["wins"])
            assert first.rounds + second.rounds == record["rounds"]
            assert record["gain"] == pytest.approx((first.mean + second.mean) / 2)
            assert record["low"] < record["gain"] < record["high"]


def test_the_builder_measures_the_rounds_asked_and_keeps_the_others(tmp_path: Path) -> None:
    out = tmp_path / "bounds.json"
    out.write_text(json.dumps({"bounds": {"tavern-standard": {"9 v 9": {"kept": True}}}}))
    main(["--rules", "tavern-standard", "--rounds", "2", "--only", "5x2", "--workers", "1",
          "--out", str(out)])
    bounds = load_bounds(out)["tavern-standard"]
    assert bounds["9 v 9"] == {"kept": True}
    record = bounds["5 v 2"]
    assert record["rounds"] == 2 and record["dice"] == [5, 2] and record["seconds"] >= 0
    assert set(bounds) == {"9 v 9", "5 v 2"}
