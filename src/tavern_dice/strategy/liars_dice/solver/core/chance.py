"""One player's private dice: sorted multisets with their chance probabilities.

A player who rolls ``d`` dice with ``s`` sides sees a multiset; there are
``C(d + s - 1, d)`` of them, and the multiset with face multiplicities
``m_1 .. m_s`` has probability ``d! / (m_1! ... m_s!) / s**d`` (multinomial).
Order within a hand carries no information, so the solver's information sets
use multisets (rule L2: "All players roll their dice in Secret").

>>> hands = PrivateStates.roll(2, 6)
>>> hands.n_states, hands.faces[1], round(float(hands.prob[1]) * 36)
(21, (1, 2), 2)
>>> hands.index([5, 2]) == hands.faces.index((2, 5))
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import InvalidDiceError


@dataclass(frozen=True)
class PrivateStates:
    """All hands of ``n_dice`` dice with ``sides`` faces, in lexicographic order.

    Attributes:
        n_dice, sides: the roll.
        faces: the hands as sorted tuples, ``n_states`` of them.
        prob: shape ``(n_states,)``, chance probability of each hand (sums to 1).
        counts: shape ``(n_states, sides)``, how many dice of the hand show face ``f + 1``.
        sums: shape ``(n_states,)``, the sum of the hand's faces.
    """

    n_dice: int
    sides: int
    faces: list[tuple[int, ...]] = field(repr=False)
    prob: npt.NDArray[np.float64] = field(repr=False)
    counts: npt.NDArray[np.int64] = field(repr=False)
    sums: npt.NDArray[np.int64] = field(repr=False)
    _index: dict[tuple[int, ...], int] = field(repr=False, compare=False)

    @classmethod
    def roll(cls, n_dice: int, sides: int) -> PrivateStates:
        """Enumerate the hands of ``n_dice`` dice with ``sides`` faces."""
        if n_dice < 1 or sides < 2:
            raise InvalidDiceError(
                f"need at least one die of at least 2 sides, not {n_dice}d{sides}"
            )
        hands = list(itertools.combinations_with_replacement(range(1, sides + 1), n_dice))
        counts = np.zeros((len(hands), sides), dtype=np.int64)
        for i, hand in enumerate(hands):
            for face in hand:
                counts[i, face - 1] += 1
        ways = np.array(
            [math.factorial(n_dice) // math.prod(math.factorial(int(m)) for m in row)
             for row in counts],
            dtype=np.float64,
        )
        prob = ways / float(sides) ** n_dice
        sums = np.array([sum(h) for h in hands], dtype=np.int64)
        return cls(n_dice, sides, hands, prob, counts, sums, {h: i for i, h in enumerate(hands)})

    @property
    def n_states(self) -> int:
        """Number of distinct hands."""
        return len(self.faces)

    def indices(self, hands: Iterable[Iterable[int]]) -> list[int]:
        """The numbers of ``hands`` (any order each), as :meth:`index`; a hand already
        sorted, as the range tools pass every hand, is looked up without sorting; every
        hand in this order (a model asking for its whole range) is numbered at once."""
        if hands is self.faces or (isinstance(hands, list) and hands == self.faces):
            return list(range(len(self.faces)))
        out = []
        for dice in hands:
            found = self._index.get(dice) if isinstance(dice, tuple) else None
            out.append(self.index(dice) if found is None else found)
        return out

    def index(self, dice: Iterable[int]) -> int:
        """The number of the hand ``dice`` (any order)."""
        hand = tuple(sorted(int(d) for d in dice))
        try:
            return self._index[hand]
        except KeyError:
            raise InvalidDiceError(
                f"{list(hand)} is not a hand of {self.n_dice} dice with faces 1..{self.sides}"
            ) from None

    def effective_counts(self, wild_face: int | None) -> npt.NDArray[np.int64]:
        """Shape ``(n_states, sides)``: dice of each hand that count toward each face.

        Rule L6 (option ``wild_face``): a wild die counts toward every other face;
        a wager on the wild face itself counts only that face.
        """
        if wild_face is None:
            return self.counts.copy()
        w = wild_face - 1
        eff = self.counts + self.counts[:, w : w + 1]
        eff[:, w] = self.counts[:, w]
        return eff
