"""Public beliefs: every seat's hand posterior from the round's public actions, every seat
read with one policy.

What a wager says about its maker's hand depends on how the maker chooses wagers. A bot
that reads its opponents with a rougher model than the one they play (an honest-wager
likelihood, say) knows less about their hands than a player who reads them exactly, and
at a table of three or more that player wins: the reader of
:mod:`tavern_dice.bots.liars_exploit.reader`, holding a copy of ``strong`` per seat, won
47 % of games against three of the ``strong`` that read so (par 25 %).

:class:`PublicBeliefs` reads every seat with the reader's *own* policy: the chance that a
player holding each hand would have made each wager they made this round, and would
have let pass each wager they were asked to accuse out of turn and did not (L7), asking
the policy as that player at that moment. Beliefs built so do not depend on the reader's
own dice, so every player who reads this way holds the same belief about a seat, and an
exploiter holding a copy of the bot computes exactly these posteriors: it learns no more
about any hand than the bot knows.

Robust against players who do not play that policy (a person, a bluffer): each action is
read as telling nothing with the chance ``floor`` gives (``strong`` passes
the bluff rate it learns at the table), so no action rules a hand out, and a seat who
bluffs more than that is soon read as doing so.

Every posterior is a function of the public log, so a seeded game replays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.bots.base import LiarsDiceAction
from tavern_dice.bots.liars_exploit.model import hands_of
from tavern_dice.bots.liars_exploit.views import (
    events_of,
    passed_so_far,
    public_events,
    view_as,
    view_before,
)
from tavern_dice.events import Event
from tavern_dice.liars_dice.checks import asked_out_of_turn
from tavern_dice.liars_dice.view import LiarsDiceView

FloatArray = npt.NDArray[np.floating[Any]]

Policy = Callable[[LiarsDiceView, Sequence[tuple[int, ...]]],
                  tuple[tuple[LiarsDiceAction, ...], FloatArray]]
"""``policy(view, hands)``: the actions and, per hand, their chances on the viewer's turn
(:meth:`~tavern_dice.bots.base.RangeLiarsDiceAgent.range_policy`)."""

Accusations = Callable[[LiarsDiceView, Sequence[tuple[int, ...]]], FloatArray]
"""``accusations(view, hands)``: per hand, the chance of accusing out of turn
(:meth:`~tavern_dice.bots.base.RangeAccuser.accuse_chances`)."""

Floor = Callable[[int, int, Sequence[int]], float]
"""``floor(seat, index, counts)``: the chance that ``seat``'s action on the round's wager
number ``index`` (0: the opening) tells nothing about its hand, every seat holding
``counts`` dice this round."""

Reaches = dict[int, FloatArray]


class PublicBeliefs:
    """Every seat's reach this round (the chance of each hand of :func:`hands_of` its
    dice, times the chance it played as it did with it), from one policy.

    Args:
        policy, accusations: the policy every seat is read with.
        floor: how likely an action tells nothing (see the module doc).
    """

    def __init__(self, policy: Policy, accusations: Accusations, floor: Floor) -> None:
        self.policy = policy
        self.accusations = accusations
        self.floor = floor
        self._round: tuple[object, ...] | None = None
        # By (the round's first k wagers, m): the reaches once those wagers are made and
        # the first m seats asked about the last of them let it pass (every seat asked
        # about an earlier wager let it pass, or it would not be the last).
        self._cache: dict[tuple[object, ...], Reaches] = {}

    def reach(self, view: LiarsDiceView) -> Reaches:
        """Every seat's reach at the moment ``view`` shows: the standing wager let pass by
        the seats asked before ``view.seat`` (:func:`passed_so_far`)."""
        key = (view.round, view.dice_counts, view.starter, view.rules)
        if key != self._round:
            self._round, self._cache = key, {}
        return self._after(view, len(view.round_wagers), len(passed_so_far(view)))

    def _after(self, view: LiarsDiceView, k: int, m: int) -> Reaches:
        """Reaches once the round's first ``k`` wagers of ``view`` are made and the first
        ``m`` seats asked about the last let it pass."""
        wagers = view.round_wagers
        # The steps of the round in order: each wager made, then each seat asked about it
        # letting it pass. Walked forward from the last one known, so that no chain of
        # calls grows with the round: the policy, asked as a player at an earlier moment,
        # finds that moment here.
        steps = [(0, 0)]
        for j in range(1, k + 1):
            later = wagers[j][0] if j < len(wagers) else view.turn
            assert later is not None
            asked = len(asked_out_of_turn(wagers[j - 1][0], later, view.dice_counts))
            steps.extend((j, a) for a in range(asked + 1 if j < k else m + 1))
        first = len(steps) - 1
        while first > 0 and (tuple(wagers[:steps[first][0]]), steps[first][1]) not in self._cache:
            first -= 1
        reach: Reaches = (
            self._cache[(tuple(wagers[:steps[first][0]]), steps[first][1])] if first
            else {seat: hands_of(count, view.rules.sides).prob.astype(np.float64)
                  for seat, count in enumerate(view.dice_counts) if count > 0})
        events = public_events(view) if first + 1 < len(steps) else []
        for j, a in steps[first + 1:]:
            reach = self._step(view, j, a, reach, events)
            self._cache[(tuple(wagers[:j]), a)] = reach
        return reach

    def _step(self, view: LiarsDiceView, k: int, m: int, reach: Reaches,
              events: list[Event]) -> Reaches:
        """One step of :meth:`_after`: the round's wager number ``k - 1`` made (``m`` 0),
        or the ``m``-th seat asked about it letting it pass."""
        out = dict(reach)
        if m == 0:
            maker, wager = view.round_wagers[k - 1]
            moment = view_before(view, k - 1)
            faces = hands_of(view.dice_counts[maker], view.rules.sides).faces
            actions, chances = self.policy(
                view_as(moment, maker, faces[0], (), events_of(events, moment)), faces)
            honest = (chances[:, actions.index(wager)] if wager in actions
                      else np.zeros(len(faces)))
            told = self.floor(maker, k - 1, view.dice_counts)
            out[maker] = reach[maker] * (told / max(len(actions), 1) + (1.0 - told) * honest)
            return out
        moment = view_before(view, k)  # wager k - 1 standing, its next player to act
        assert moment.wager_maker is not None and moment.turn is not None
        seat = asked_out_of_turn(moment.wager_maker, moment.turn, view.dice_counts)[m - 1]
        faces = hands_of(view.dice_counts[seat], view.rules.sides).faces
        accuse = self.accusations(
            view_as(moment, seat, faces[0], (), events_of(events, moment)), faces)
        told = self.floor(seat, k - 1, view.dice_counts)
        out[seat] = reach[seat] * (told + (1.0 - told) * (1.0 - accuse))
        return out
