"""``strong`` answers within a CPU budget at every heads-up round size, the first decision
of the round included (its data loaded and its caches built then).

The budget is generous, so that a busy machine does not fail the test: it catches a
method that costs minutes, not a slower millisecond. The figures themselves (median, 99th
percentile and maximum, cold and warm, and peak memory) are printed by
``benchmarks/strong_cost.py``.
"""

from __future__ import annotations

import time

import pytest

from tavern_dice.bots.liars_strong import StrongLiarsDiceBot
from tavern_dice.liars_dice import TAVERN, RaiseRule
from tavern_dice.measure.round_gain import deal_round

BUDGET_S = 5.0
"""CPU seconds one decision may take here: five times the most one may take (a search's
first decision at 5 v 5, its leaf values built then, takes about 0.6 s on this project's
2-core machine)."""

STANDARD = TAVERN.replace(raise_rule=RaiseRule.STANDARD)


@pytest.mark.parametrize(
    ("rules", "dice"),
    [(TAVERN, (5, 5)), (TAVERN, (4, 3)), (TAVERN, (3, 3)), (TAVERN, (5, 1)),
     (TAVERN, (1, 1)), (STANDARD, (5, 5)), (STANDARD, (4, 4)), (STANDARD, (3, 4)),
     (TAVERN.replace(wild_face=1, spot_on=False), (5, 5))],
    ids=["seed-5v5", "seed-4v3", "seed-3v3", "seed-5v1", "seed-1v1", "standard-5v5",
         "standard-4v4", "standard-3v4", "ones-wild-5v5"],
)
def test_a_heads_up_decision_stays_within_the_cpu_budget(
    rules: object, dice: tuple[int, int],
) -> None:
    game = deal_round(rules, 21, dice)  # type: ignore[arg-type]
    seat = game.turn
    assert seat is not None
    bot = StrongLiarsDiceBot("s", seed=3)
    start = time.process_time()
    action = bot.choose_action(game.view(seat))
    spent = time.process_time() - start
    assert action in game.legal_actions(seat)
    assert spent < BUDGET_S, f"{spent:.1f} s of CPU for one decision"


def test_a_decision_runs_on_one_blas_thread_and_gives_the_setting_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """BLAS threads spin on a busy machine (50 times the CPU for the search's small
    products, ``tavern_dice.strategy.blas``): the search sees one, the caller its own."""
    from threadpoolctl import threadpool_info, threadpool_limits

    from tavern_dice.strategy.liars_dice.solver.play import search

    seen: list[int] = []
    real = search.search_policy

    def spy(*args: object) -> object:
        seen.extend(int(lib["num_threads"]) for lib in threadpool_info()
                    if lib["user_api"] == "blas")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "search_policy", spy)
    game = deal_round(TAVERN, 21, (4, 3))
    seat = game.turn
    assert seat is not None
    with threadpool_limits(limits=2, user_api="blas"):
        StrongLiarsDiceBot("s", seed=3).choose_action(game.view(seat))
        after = [int(lib["num_threads"]) for lib in threadpool_info()
                 if lib["user_api"] == "blas"]
    assert seen and set(seen) == {1}
    assert after and set(after) == {2}


def test_one_blas_thread_nests_and_the_outermost_gives_the_setting_back() -> None:
    """An exploiter's copy of ``strong`` decides dozens of times inside one decision: the
    inner bodies keep one thread and set nothing, the outermost restores the caller's."""
    from threadpoolctl import threadpool_info, threadpool_limits

    from tavern_dice.strategy.blas import one_blas_thread

    def threads() -> set[int]:
        return {int(lib["num_threads"]) for lib in threadpool_info()
                if lib["user_api"] == "blas"}

    with threadpool_limits(limits=2, user_api="blas"):
        with one_blas_thread():
            with one_blas_thread():
                assert threads() == {1}
            assert threads() == {1}  # the inner body left the outer's limit alone
        assert threads() == {2}
