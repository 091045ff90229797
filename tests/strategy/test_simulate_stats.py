"""``tavern simulate``'s machinery (issue 3): the intervals against hand-computed values,
seeds and seating, and results that do not depend on the number of workers."""

from __future__ import annotations

import math

import pytest

from tavern_dice.bots.registry import UnknownBotError
from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.play.simulate import (
    Z95,
    SimulationError,
    game_seed,
    labels,
    mean_interval,
    seating,
    simulate_liars_dice,
    wilson_interval,
)


def test_wilson_interval_against_hand_computed_values() -> None:
    # 10 wins in 50 games, z = 1.96 (to 1e-5): p = 0.2, z²/n = 0.0768292,
    # centre = (0.2 + 0.0384146) / 1.0768292 = 0.2214043,
    # half = 1.959964 * sqrt(0.0032 + 0.00038415) / 1.0768292 = 0.1089668.
    low, high = wilson_interval(10, 50)
    assert low == pytest.approx(0.2214043 - 0.1089668, abs=2e-7)
    assert high == pytest.approx(0.2214043 + 0.1089668, abs=2e-7)
    # No wins in 20: the interval starts at 0 and ends at (z²/n) / (1 + z²/n).
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1920729 / 1.1920729, abs=1e-7)
    # All wins mirror no wins.
    assert wilson_interval(20, 20) == pytest.approx((1 - high, 1.0))
    assert abs(Z95 - 1.959964) < 1e-6
    with pytest.raises(SimulationError):
        wilson_interval(3, 2)


def test_mean_interval_of_known_values() -> None:
    values = [1.0, -1.0, 1.5, -1.0, 1.0]
    mean, low, high = mean_interval(sum(values), sum(v * v for v in values), len(values))
    # deviations 0.7, -1.3, 1.2, -1.3, 0.7: squares sum to 5.8, s = sqrt(5.8 / 4) = 1.2041595
    sd = math.sqrt(sum((v - 0.3) ** 2 for v in values) / 4)
    assert mean == pytest.approx(0.3)
    assert high - mean == pytest.approx(mean - low)
    assert high - mean == pytest.approx(Z95 * sd / math.sqrt(5))
    assert high == pytest.approx(0.3 + 1.959964 * 1.2041595 / 2.2360680, abs=1e-6)
    with pytest.raises(SimulationError):
        mean_interval(1.0, 1.0, 1)


def test_seats_rotate_game_by_game_and_seeds_are_fixed() -> None:
    assert [seating(3, i) for i in range(4)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]]
    # Over n games every entry sits first exactly once.
    assert sorted(seating(4, i)[0] for i in range(4)) == [0, 1, 2, 3]
    assert game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1) != game_seed(2, 0)
    assert 0 <= game_seed(1, 5) < 2**64
    assert labels(["strong", "probabilistic", "probabilistic"]) == [
        "strong", "probabilistic 1", "probabilistic 2"]


def test_results_do_not_depend_on_the_worker_count() -> None:
    kinds = ["probabilistic", "random", "probabilistic"]
    one = simulate_liars_dice(kinds, games=24, seed=5, workers=1)
    two = simulate_liars_dice(kinds, games=24, seed=5, workers=2)
    assert one == two
    assert sum(b.wins for b in one.bots) == 24
    assert one.bots[1].win_rate < 0.25  # random rarely beats two probabilistic bots
    done: list[int] = []
    again = simulate_liars_dice(kinds, games=24, seed=5, workers=1, progress=done.append)
    assert again == one and sum(done) == 24
    other_seed = simulate_liars_dice(kinds, games=24, seed=6, workers=1)
    assert other_seed.rounds != one.rounds or other_seed.bots != one.bots


def test_bad_simulations_are_refused() -> None:
    with pytest.raises(SimulationError, match="2-10"):
        simulate_liars_dice(["strong"], games=5, seed=1, workers=1)
    with pytest.raises(SimulationError, match="games"):
        simulate_liars_dice(["strong", "random"], games=0, seed=1, workers=1)
    with pytest.raises(UnknownBotError):
        simulate_liars_dice(["strong", "sharp"], games=5, seed=1, workers=1)
    with pytest.raises(SimulationError, match="workers"):
        simulate_liars_dice(["strong", "random"], games=5, seed=1, workers=0)
    result = simulate_liars_dice(["random", "random"], games=3, seed=1, workers=1,
                                 rules=TAVERN.replace(dice_per_player=1))
    assert result.to_dict()["rules"]["dice_per_player"] == 1
