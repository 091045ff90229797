"""The ``optimal`` Dice Blackjack bot: plays the exact solution of the game.

Each move comes from :func:`tavern_dice.strategy.blackjack.solver.solve` for the
table's ruleset and the bot's own proficiency bonus, which it reads from its view
(``view.proficiency[view.seat]``, B7): roll or stand as
:meth:`~tavern_dice.strategy.blackjack.solver.BlackjackSolution.action` says, and on
standing add :meth:`~tavern_dice.strategy.blackjack.solver.BlackjackSolution.bonus`.
Its long-run payout per unit bet is therefore
:meth:`~tavern_dice.strategy.blackjack.solver.BlackjackSolution.expected_payout`
(about +0.94 % of the bet under the seed's rules without proficiency).

* **Bet** (B2): ``bet_cp`` every round (default 1 gp = 100 cp), brought within
  ``view.bet_limits``.

Target 14, house roll 9, proficiency bonus 4 (bonus up to 2). At 8 the bot stands and
adds 2 (10 beats 9: worth 1, rolling on only 1/8); at 3 it rolls on, gets a 9 and adds
2 for an exact hit (1.5x):

>>> from tavern_dice.blackjack.state import BlackjackGame
>>> from tavern_dice.dice import ScriptedDice
>>> from tavern_dice.play.runner import play_blackjack_round
>>> def one_round(first):
...     dice = ScriptedDice([(14,), (9, 17), (first,), (9,)])
...     game = BlackjackGame(["Ann"], dice=dice, balances=1000, proficiency=[4])
...     play_blackjack_round(game, [OptimalBlackjackBot("Ann")])
...     return [(e.outcome, e.final, e.delta) for e in game.settlements()]
>>> one_round(8), one_round(3)
([('win', 10, 100)], [('exact', 14, 150)])
"""

from __future__ import annotations

from tavern_dice.blackjack.actions import Roll, Stand
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.bots.blackjack_betting import FixedBetBlackjackBot
from tavern_dice.bots.registry import BotError
from tavern_dice.strategy.blackjack.solver import BlackjackSolution, solve


class OptimalBlackjackBot(FixedBetBlackjackBot):
    """Bets ``bet_cp`` each round and plays the solver's best move.

    Args:
        name: the seat's name (default ``"optimal"``).
        seed: seed of the bot's own ``random.Random`` (its play is deterministic; the
            seed is kept so that every bot is built the same way).
        bet_cp: the bet in cp (>= 1), capped by the table's limits and the balance.

    Raises:
        BotError: a bet below 1 cp.
    """

    kind = "optimal"

    def solution(self, view: BlackjackView) -> BlackjackSolution:
        """The solved game for this table's rules and this seat's proficiency bonus."""
        if view.seat is None:
            raise BotError(f"{self.name} plays a seat; a spectator's view has no moves")
        return solve(view.rules, view.proficiency[view.seat])

    def choose_move(self, view: BlackjackView) -> Roll | Stand:
        """``Roll()`` or ``Stand(bonus)`` as the exact solution says."""
        _, target, total, house = self.turn(view)
        move = self.solution(view).action(target, house, total)
        if isinstance(move, Roll):
            return move
        bonus = move.bonus
        if view.legal_bonuses and bonus not in view.legal_bonuses:
            raise BotError(
                f"the solver's bonus {bonus} is not among the legal {list(view.legal_bonuses)}"
            )
        return Stand(bonus if view.legal_bonuses else 0)
