"""Strategy: exact odds, beliefs and solved play, one subpackage per game.

* :mod:`tavern_dice.strategy.liars_dice` - the odds of a wager, what a player believes of
  the others' dice, the value of each action, and the equilibrium solver
  (:mod:`tavern_dice.strategy.liars_dice.solver`) with its shipped heads-up tables;
* :mod:`tavern_dice.strategy.blackjack` - the exact optimal policy and house edge, and the
  house-edge dial of the table's options.

Strategy reads the rules engines and nothing above them: the bots
(:mod:`tavern_dice.bots`) ask it, the runner and simulations (:mod:`tavern_dice.play`)
seat the bots, and ``tests/test_package_shape.py`` keeps the packages in that order.
"""
