"""The raises the engine lists (cut out of the increasing list of wagers) are exactly the
wagers :func:`is_raise` accepts, less those L5b refuses as repeats."""

from __future__ import annotations

import random

from tavern_dice.liars_dice.rules import TAVERN, RaiseRule
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager, is_raise, legal_raises


def _by_definition(rules: object, dice: int, standing: AnyWager | None, sum_wagers: bool,
                   made: list[tuple[int, AnyWager]]) -> tuple[AnyWager, ...]:
    assert hasattr(rules, "sides")
    sides, rule = rules.sides, rules.raise_rule  # type: ignore[attr-defined]
    candidates: list[AnyWager] = (
        [SumWager(t) for t in range(dice, dice * sides + 1)] if sum_wagers
        else [Wager(q, f) for q in range(1, dice + 1) for f in range(1, sides + 1)])
    out = [w for w in candidates if is_raise(w, standing, rule)]
    if made and rule is RaiseRule.EITHER and not rules.repeat_wagers and not sum_wagers:  # type: ignore[attr-defined]
        refused = {w for _, w in made}
        out = [w for w in out if w not in refused]
    return tuple(out)


def test_legal_raises_are_the_wagers_is_raise_accepts_less_repeats() -> None:
    rng = random.Random(5)
    checked = 0
    for rule in RaiseRule:
        for sides, repeats in ((6, False), (6, True), (3, False)):
            rules = TAVERN.replace(raise_rule=rule, sides=sides, repeat_wagers=repeats)
            for dice in (1, 2, 5, 9):
                wagers = [Wager(q, f) for q in range(0, dice + 2) for f in range(1, sides + 2)]
                for standing in [None, *wagers]:
                    made: list[tuple[int, AnyWager]] = []
                    if standing is not None and rng.random() < 0.7:
                        made = [(0, w) for w in rng.sample(wagers, rng.randrange(1, 6))]
                        made.append((1, standing))
                    assert legal_raises(rules, dice, standing, False, made) == \
                        _by_definition(rules, dice, standing, False, made), (rules, standing)
                    checked += 1
                for total in [None, *range(dice - 1, dice * sides + 2)]:
                    sums = None if total is None else SumWager(total)
                    assert legal_raises(rules, dice, sums, True) == \
                        _by_definition(rules, dice, sums, True, [])
                    checked += 1
    assert checked > 2000
