"""The ``cautious`` and ``bold`` Dice Blackjack bots: a fixed bet and a rule of thumb.

Both play the fixed policies of :mod:`tavern_dice.strategy.blackjack.solver`
(:func:`~tavern_dice.strategy.blackjack.solver.cautious_policy` stands 7 or
less under the target, :func:`~tavern_dice.strategy.blackjack.solver.bold_policy`
only within 2; both stand when their bonus reaches the target exactly, and both
roll on when the house did not bust and their total plus bonus cannot beat the
house roll, since standing would lose anyway).

* **Bet** (B2): ``bet_cp`` every round (default 1 gp = 100 cp), brought within
  ``view.bet_limits``.
* **Stand** (B6, B7): with the largest bonus from ``view.legal_bonuses`` if it improves
  the payout the engine's :func:`~tavern_dice.blackjack.settlement.settle` gives,
  else none.

Target 14, house roll 9, a first d12 of 8, proficiency bonus 4 (bonus up to 2):
the cautious bot stands (6 under the target) and adds 2 to beat the house; the
bold bot rolls again, a 5, and adds 1 for an exact hit (1.5x):

>>> from tavern_dice.blackjack.state import BlackjackGame
>>> from tavern_dice.dice import ScriptedDice
>>> from tavern_dice.play.runner import play_blackjack_round
>>> def one_round(bot):
...     dice = ScriptedDice([(14,), (9, 17), (8,), (5,)])
...     game = BlackjackGame(["Ann"], dice=dice, balances=1000, proficiency=[4])
...     play_blackjack_round(game, [bot])
...     return [(e.outcome, e.final, e.delta) for e in game.settlements()]
>>> one_round(CautiousBlackjackBot("Ann")), one_round(BoldBlackjackBot("Ann"))
([('win', 10, 100)], [('exact', 14, 150)])
"""

from __future__ import annotations

from tavern_dice.blackjack.actions import Roll, Stand
from tavern_dice.blackjack.settlement import settle
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.bots.blackjack_betting import FixedBetBlackjackBot
from tavern_dice.bots.registry import DEFAULT_BET_CP, BotError
from tavern_dice.strategy.blackjack.solver import Policy, bold_policy, cautious_policy


class PolicyBlackjackBot(FixedBetBlackjackBot):
    """Bets ``bet_cp`` each round and plays ``policy`` (a
    :data:`~tavern_dice.strategy.blackjack.solver.Policy`).

    Args:
        name: the seat's name (default: the bot's kind).
        seed: seed of the bot's own ``random.Random`` (its play is deterministic; the
            seed is kept so that every bot is built the same way).
        bet_cp: the bet in cp (>= 1), capped by the table's limits and the balance.
        policy: a module-level function (so that the bot pickles); default: the class's
            :meth:`default_policy`.

    Raises:
        BotError: a bet below 1 cp, or no policy.
    """

    kind = "policy"

    def __init__(
        self, name: str | None = None, seed: int | None = None, bet_cp: int = DEFAULT_BET_CP,
        *, policy: Policy | None = None,
    ) -> None:
        super().__init__(name, seed, bet_cp)
        self.policy = policy if policy is not None else self.default_policy()

    def default_policy(self) -> Policy:
        """The policy played when none is given (a subclass's own).

        Raises:
            BotError: this class has none.
        """
        raise BotError(f"{type(self).__name__} needs a policy")

    def choose_move(self, view: BlackjackView) -> Roll | Stand:
        """``Roll()`` or ``Stand(bonus)`` as the policy says."""
        seat, target, total, house = self.turn(view)
        cap = view.rules.bonus_cap(view.proficiency[seat])
        if isinstance(self.policy(total, target, house, cap), Roll):
            return Roll()
        return Stand(self._bonus(view, total, target, house))

    def _bonus(self, view: BlackjackView, total: int, target: int, house: int | None) -> int:
        legal = view.legal_bonuses
        if not legal:
            return 0
        bet = view.bets.get(view.seat, 1) if view.seat is not None else 1
        largest = max(legal)

        def payout(bonus: int) -> int:
            return settle(view.rules, bet, total + bonus, target=target, house=house)[1]

        return largest if payout(largest) > payout(0) else 0


class CautiousBlackjackBot(PolicyBlackjackBot):
    """The ``cautious`` bot: :func:`~tavern_dice.strategy.blackjack.solver.cautious_policy`."""

    kind = "cautious"

    def default_policy(self) -> Policy:
        return cautious_policy


class BoldBlackjackBot(PolicyBlackjackBot):
    """The ``bold`` bot: :func:`~tavern_dice.strategy.blackjack.solver.bold_policy`."""

    kind = "bold"

    def default_policy(self) -> Policy:
        return bold_policy
