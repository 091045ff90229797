"""Dice sources: reproducible seeded streams, range checks, typed-in and scripted dice."""

from __future__ import annotations

import random

import pytest

from tavern_dice.dice import ManualDice, RollSpec, ScriptedDice, SecureDice, SeededDice
from tavern_dice.errors import InvalidDiceError


@pytest.mark.parametrize("sides", [2, 6, 12, 20, 100])
def test_seeded_dice_give_the_faces_of_randint_for_the_same_seed(sides: int) -> None:
    """The seeded stream is fixed by our own rejection sampling; today it equals CPython's
    ``randint(1, sides)`` stream, which an independent generator checks here."""
    for seed in range(20):
        ours = SeededDice(seed)
        reference = random.Random(seed)
        for _ in range(10):
            faces = ours.roll(RollSpec(0, 5, sides, "round"))
            assert faces == tuple(reference.randint(1, sides) for _ in range(5))


def test_every_face_of_a_d6_comes_up_and_none_other() -> None:
    faces = SeededDice(1).roll(RollSpec(0, 600, 6, "round"))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    secure = SecureDice().roll(RollSpec(None, 400, 20, "house"))
    assert min(secure) >= 1 and max(secure) <= 20 and len(secure) == 400


def test_manual_dice_ask_again_with_the_reason() -> None:
    answers = iter([[7], [0], [4]])
    reasons: list[str | None] = []

    def ask(spec: RollSpec, problem: str | None) -> list[int]:
        reasons.append(problem)
        return next(answers)

    assert ManualDice(ask).roll(RollSpec(2, 1, 6, "round")) == (4,)
    assert reasons[0] is None
    assert reasons[1] == "a d6 shows a whole number from 1 to 6, not 7"


def test_spec_check_refuses_bools_wrong_counts_and_bare_numbers() -> None:
    spec = RollSpec(0, 2, 6, "round")
    with pytest.raises(InvalidDiceError, match="not True"):
        spec.check([True, 3])
    with pytest.raises(InvalidDiceError, match="expected 2 d6 for round, got 3 values"):
        spec.check([1, 2, 3])
    with pytest.raises(InvalidDiceError, match="expected a list of 2 d6 faces"):
        spec.check(5)  # type: ignore[arg-type]
    scripted = ScriptedDice([(1, 2)])
    assert scripted.roll(spec) == (1, 2) and scripted.remaining == 0
