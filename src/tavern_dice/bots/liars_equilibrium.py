"""The ``equilibrium`` Liar's Dice bot: the solved two-player policy wherever one covers.

When exactly two players are left, each with at most five dice, and the table's rules are
those the shipped policies were solved for (:mod:`tavern_dice.solver.store`: the seed's
rules with the ``standard`` raise), it samples its action from the equilibrium strategy
of that round, given its own dice and this round's wagers. The two-player, one-die-each
sum endgame (L10) is the same game under every raise rule (sums must simply increase), so
it is covered under the seed's ``either`` rule too. Everywhere else it plays as its
fallback bot (``trusting`` by default).

An equilibrium strategy of a two-player zero-sum game cannot lose on average against any
opponent from the seat it is solved for: its expected result is at least the round's
value, whatever the opponent does.

>>> from tavern_dice.liars_dice.state import LiarsDiceGame
>>> from tavern_dice.play.runner import play_liars_dice
>>> from tavern_dice.bots.liars_probabilistic import ProbabilisticLiarsDiceBot
>>> game = LiarsDiceGame(["eq", "p"], seed=4, starting_dice=[1, 1])
>>> play_liars_dice(game, [EquilibriumLiarsDiceBot("eq", seed=1),
...                        ProbabilisticLiarsDiceBot("p", seed=2)]) in (0, 1)
True
"""

from __future__ import annotations

import random

from tavern_dice.bots.base import ACCUSE, LiarsAction, LiarsDiceAgent
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.view import LiarsDiceView

RULES_KEY = "tavern-standard"
_SOLVED_MAX_DICE = 5


def _solved_for(rules: LiarsDiceRules) -> bool:
    # Spot-on changes nothing between two players (the accuser is "everyone but the
    # wager-maker"), so it is not compared.
    return (
        rules.sides == TAVERN.sides
        and rules.wild_face is None
        and rules.sum_endgame
        and rules.dice_per_player >= 1
    )


def policy_covers(view: LiarsDiceView) -> bool:
    """Whether a shipped equilibrium policy covers the round ``view`` shows."""
    if view.seat is None or view.phase != "bidding" or not _solved_for(view.rules):
        return False
    alive = [s for s, c in enumerate(view.dice_counts) if c > 0]
    if len(alive) != 2 or view.seat not in alive:
        return False
    if any(view.dice_counts[s] > _SOLVED_MAX_DICE for s in alive):
        return False
    return view.sum_wagers or view.rules.raise_rule is RaiseRule.STANDARD


class EquilibriumLiarsDiceBot:
    """Samples the solved two-player equilibrium; falls back to another bot elsewhere.

    Args:
        name: the bot's name at the table.
        seed: seeds its sampling and its fallback bot.
        fallback: the registry kind played where no policy covers (default ``trusting``,
            the Bayesian bot this project called ``strong`` before the robust one).
    """

    def __init__(
        self, name: str = "equilibrium", seed: int | None = None, *, fallback: str = "trusting"
    ) -> None:
        from tavern_dice.bots.registry import make_liars_dice_bot

        self.name = name
        self._rng = random.Random(seed)
        self._fallback: LiarsDiceAgent = make_liars_dice_bot(fallback, name=name, seed=seed)

    def choose_action(self, view: LiarsDiceView) -> LiarsAction:
        if not policy_covers(view):
            return self._fallback.choose_action(view)
        from tavern_dice.solver.store import equilibrium_action_probabilities

        assert view.seat is not None
        opponent = next(
            s for s, c in enumerate(view.dice_counts) if c > 0 and s != view.seat
        )
        probabilities = equilibrium_action_probabilities(
            RULES_KEY,
            my_dice=view.own_dice,
            their_dice=view.dice_counts[opponent],
            i_start=view.starter == view.seat,
            history=[wager for _, wager in view.round_wagers],
        )
        actions = list(probabilities)
        choice = self._rng.choices(actions, weights=[probabilities[a] for a in actions])[0]
        if choice == "liar":
            return ACCUSE
        if choice in view.legal_wagers:
            return choice
        # A policy is solved for the rules it covers, so this is a defensive fallback only.
        return self._fallback.choose_action(view)

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        # With two players the only possible accuser is the player to act, who answers
        # through choose_action; out-of-turn questions only arise at bigger tables.
        return self._fallback.wants_to_accuse(view)
