"""The tavern games where researchers already work: OpenSpiel and PettingZoo.

Modules, one job each (the rules stay in the engines; these only translate):

* :mod:`~tavern_dice.interop.liars_actions` - wagers, the accusation and "pass" as action
  numbers;
* :mod:`~tavern_dice.interop.liars_table` - a Liar's Dice game as one decision at a time,
  with the out-of-turn accusation window (L7) made explicit and every die a chance node;
* :mod:`~tavern_dice.interop.liars_encoding` - what a player knows, as strings and tensors;
* :mod:`~tavern_dice.interop.openspiel` - ``tavern_liars_dice`` and
  ``tavern_liars_dice_round`` registered with pyspiel (extra ``tavern-dice[openspiel]``);
* :mod:`~tavern_dice.interop.pettingzoo` - an AEC environment for Liar's Dice and a parallel
  one for Dice Blackjack (extra ``tavern-dice[pettingzoo]``).

The first three need nothing beyond NumPy; the last two import their framework.
"""
