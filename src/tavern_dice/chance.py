"""The chance policy of a rules engine: which rolls it makes itself.

Each engine stops at explicit chance nodes (:meth:`chance_request` says what is to be
rolled; :meth:`roll` resolves it, from the engine's dice source or from faces given by
hand). Its *chance policy*, given when the game is made (the ``auto_roll=`` argument of
:class:`~tavern_dice.liars_dice.state.LiarsDiceGame` and
:class:`~tavern_dice.blackjack.state.BlackjackGame`, and of their ``from_log``), says
which of those nodes the engine resolves on its own, from its dice source, as soon as
they arise; the others wait for a ``roll()`` call. It is not changed while the game is
played: a table that rolls some dice itself and waits for others (the web table's
house dice, typed-in hands) says so up front.

* ``True`` - every chance node (the default: bots, simulations, digital tables);
* ``False`` - none (dice typed in by hand, log replay);
* a set of purposes (:attr:`~tavern_dice.dice.RollSpec.purpose`) - those only: a
  Blackjack table whose d12s roll themselves while the DM rolls the house's d20s is
  ``{"d12"}``; Liar's Dice whose players type their hands is ``{"roll-off"}``.

>>> auto_roll_policy(["d12"]), auto_roll_policy(True)
(frozenset({'d12'}), True)
>>> rolls_itself(frozenset({"d12"}), "d12"), rolls_itself(frozenset({"d12"}), "house")
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable

AutoRoll = bool | frozenset[str]
"""A chance policy: every roll (``True``), none (``False``), or those of these purposes."""


def auto_roll_policy(value: bool | Iterable[str]) -> AutoRoll:
    """The :data:`AutoRoll` for an ``auto_roll=`` argument: a bool, or the purposes."""
    return value if isinstance(value, bool) else frozenset(value)


def rolls_itself(policy: AutoRoll, purpose: str) -> bool:
    """Whether an engine under ``policy`` resolves a chance node for ``purpose`` itself."""
    return policy if isinstance(policy, bool) else purpose in policy
