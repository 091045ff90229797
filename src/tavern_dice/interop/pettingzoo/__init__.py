"""The tavern games in PettingZoo (install the extra: ``pip install 'tavern-dice[pettingzoo]'``).

* :func:`env` / :func:`raw_env` - Liar's Dice, an AEC environment with the out-of-turn
  accusation window made explicit (:mod:`~tavern_dice.interop.pettingzoo.liars_dice`);
* :func:`blackjack_parallel_env` - Dice Blackjack's player decisions, a parallel
  environment (:mod:`~tavern_dice.interop.pettingzoo.blackjack`).
"""

from tavern_dice.interop.pettingzoo.blackjack import parallel_env as blackjack_parallel_env
from tavern_dice.interop.pettingzoo.liars_dice import env, raw_env

__all__ = ["blackjack_parallel_env", "env", "raw_env"]
