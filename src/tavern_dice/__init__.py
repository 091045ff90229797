"""tavern-dice: Liar's Dice (tavern rules) and Dice Blackjack (the house d20 game).

Data flows one way: dice source -> rules engine -> events -> per-player views ->
interfaces (terminal, web). The rules live in :mod:`tavern_dice.liars_dice` and
:mod:`tavern_dice.blackjack`; strategy (odds, solvers) sits apart in
:mod:`tavern_dice.strategy` (one subpackage per game), the bots that use it in
:mod:`tavern_dice.bots`, the runner and simulations that seat them in
:mod:`tavern_dice.play`, and the measurement of a strategy in :mod:`tavern_dice.measure`.
"""

__version__ = "0.1.0"
