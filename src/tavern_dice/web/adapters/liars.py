"""Liar's Dice at the web table: wagers and calls, stakes and the pot, typed-in hands.

The engine rolls every die itself from the server's dice (chance policy ``True``),
except at a table whose players type their physical dice in (``dice_mode: "manual"``):
there it rolls only the public roll-off, and each round's hands wait until every hand
is typed in or is the server's to roll (:mod:`tavern_dice.web.physical`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from tavern_dice.bots.registry import make_liars_dice_bot
from tavern_dice.dice import SecureDice
from tavern_dice.errors import NotYourTurnError, TavernError
from tavern_dice.games import apply_message
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.stakes import Pot
from tavern_dice.web import physical
from tavern_dice.web import protocol as p
from tavern_dice.web.adapters.base import Controls, Reload
from tavern_dice.web.calls import refused_call, stale_call
from tavern_dice.web.catalog import LIARS_DICE, ActionError, Engine, Rules
from tavern_dice.web.house import HouseDice
from tavern_dice.web.journal import GameSession

TYPED_POLICY = frozenset({"roll-off"})
"""The chance policy with typed-in hands: the engine rolls the public roll-off only."""
NO_HOUSE = "this table plays Liar's Dice; the dice roll themselves"


def _game(engine: Engine) -> LiarsDiceGame:
    # Only Liar's Dice tables have this adapter (chosen by the table's game name).
    return cast(LiarsDiceGame, engine)


class LiarsDiceAdapter:
    """Liar's Dice's behaviour at the web table (:class:`.base.GameAdapter`)."""

    name = LIARS_DICE
    default_standin = "probabilistic"
    grant_refusal: str | None = None
    player_dice = True

    def max_seats(self, rules: Rules) -> int:
        return rules.max_players  # the rules own their seat limits

    def check_join(self, rules: Rules, name: str, proficiency: int | None) -> None:
        if proficiency is not None:
            raise ActionError("illegal", "proficiency bonuses are for Dice Blackjack only")

    def _policy(self, options: p.TableOptions) -> bool | frozenset[str]:
        return TYPED_POLICY if self.typed_hands(options) else True

    def open_game(self, rules: Rules, options: p.TableOptions, names: Sequence[str],
                  balances: Sequence[int], proficiency: Sequence[int | None]
                  ) -> tuple[Engine, HouseDice | None]:
        engine = LiarsDiceGame(names, rules=cast(LiarsDiceRules, rules), dice=SecureDice(),
                               auto_roll=self._policy(options))
        return engine, None

    def reopen_game(self, log: dict[str, Any], rules: Rules, options: p.TableOptions
                    ) -> tuple[Engine, HouseDice | None]:
        engine = LiarsDiceGame.from_log(log, dice=SecureDice(),
                                        auto_roll=self._policy(options))
        return engine, None

    def pot(self, stake: int, balances: Mapping[str, int], seats: Sequence[str],
            names: Mapping[str, str]) -> Pot[str]:
        try:
            return Pot.collect(stake, balances, seats, names)
        except TavernError as error:
            raise ActionError("illegal", str(error)) from None

    def typed_hands(self, options: p.TableOptions) -> bool:
        return options.dice_mode == "manual"

    def player_action(self, engine: Engine, seat: int, frame: Any) -> None:
        game = _game(engine)
        if isinstance(frame, p.Accuse):
            _accuse(game, seat, frame)
        elif isinstance(frame, p.Wager):
            apply_message(game, seat, frame.model_dump())
        else:
            raise ActionError("illegal", f"{frame.type} is not a Liar's Dice action")

    def resolve_chance(self, s: GameSession, options: p.TableOptions,
                       server_rolls: Controls) -> bool:
        if not self.typed_hands(options):
            return False  # the engine rolls every die itself
        return physical.roll_when_ready(s, server_rolls)

    def pending_roll(self, s: GameSession, options: p.TableOptions,
                     server_rolls: Controls) -> dict[str, Any] | None:
        if not self.typed_hands(options):
            return None
        return physical.waiting_for(s, server_rolls)

    def is_over(self, engine: Engine) -> bool:
        return _game(engine).is_over

    def make_bot(self, kind: str, name: str, rules: Rules) -> Any:
        return make_liars_dice_bot(kind, name=name)

    def house_roll(self, s: GameSession, frame: p.HouseRoll, options: p.TableOptions,
                   reload: Reload) -> None:
        raise ActionError("illegal", NO_HOUSE)

    def d12(self, s: GameSession, face: int, options: p.TableOptions) -> None:
        raise ActionError("illegal", NO_HOUSE)

    def next_round(self, s: GameSession) -> None:
        raise ActionError("illegal", NO_HOUSE)


def _accuse(engine: LiarsDiceGame, seat: int, frame: p.Accuse) -> None:
    """A call of "Liar!", refused with what happened if the wager it meant is gone."""
    stale = stale_call(engine, frame.round, frame.wager, seat)
    if stale is not None:
        raise ActionError("illegal", stale)
    try:
        apply_message(engine, seat, frame.model_dump())
    except NotYourTurnError:
        raise
    except TavernError as error:
        raise ActionError("illegal", refused_call(engine, seat) or str(error)) from None
