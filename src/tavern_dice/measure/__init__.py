"""Measuring a Liar's Dice strategy: how far the best counter-strategies push a bot, in
whole games and in single heads-up rounds. It sits above :mod:`tavern_dice.play`, whose
runner and simulations it drives, and below the shells that report its figures.

Modules, one job each:

* :mod:`.exploit` - the exploiter suite: each counter-strategy against copies of a bot;
* :mod:`.round_gain` - a sampled lower bound on a bot's exploitability in one round;
* :mod:`.round_gain_integrated` - the same bound with both hands summed out;
* :mod:`.round_bounds` - the shipped bounds on ``strong``'s uncovered rounds
  (``python -m tavern_dice.measure.round_bounds``).
"""
