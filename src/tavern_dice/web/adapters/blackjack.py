"""Dice Blackjack at the web table: bets, rolls and stands, and the house's dice.

With digital dice the engine rolls the players' d12s itself (chance policy ``{"d12"}``)
and draws the house's d20s, when the DM rolls them (or at once, with ``auto_house``),
from the committing source :class:`~tavern_dice.web.house.HouseDice`. With manual dice
it rolls nothing: the DM types every face in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from tavern_dice.blackjack.rules import BlackjackRules
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.blackjack.state import Phase as BlackjackPhase
from tavern_dice.bots.registry import make_blackjack_bot
from tavern_dice.dice import SecureDice
from tavern_dice.errors import TavernError
from tavern_dice.games import apply_message
from tavern_dice.stakes import Pot
from tavern_dice.web import house
from tavern_dice.web import protocol as p
from tavern_dice.web.adapters.base import Controls, Reload
from tavern_dice.web.catalog import BLACKJACK, ActionError, Engine, Rules
from tavern_dice.web.house import HouseDice
from tavern_dice.web.journal import GameSession

DEFAULT_BOT_BET_CP = 100
"""What a Blackjack bot bets each round (1 gp), raised to the table minimum."""
DIGITAL_POLICY = frozenset({"d12"})
"""The chance policy with digital dice: the engine rolls the d12s; the house's d20s wait
for the DM (or ``auto_house``)."""


def _game(engine: Engine) -> BlackjackGame:
    # Only Blackjack tables have this adapter (chosen by the table's game name).
    return cast(BlackjackGame, engine)


class BlackjackAdapter:
    """Dice Blackjack's behaviour at the web table (:class:`.base.GameAdapter`)."""

    name = BLACKJACK
    default_standin = "cautious"
    grant_refusal: str | None = ("gold changes hands between Blackjack sessions (the "
                                 "running session tracks the balances)")
    player_dice = False  # the DM types the house's dice and the d12s

    def max_seats(self, rules: Rules) -> int:
        return rules.max_players  # the rules own their seat limits

    def check_join(self, rules: Rules, name: str, proficiency: int | None) -> None:
        # The engine's own check of a player: a proficiency bonus the ruleset allows.
        try:
            BlackjackGame([name], rules=cast(BlackjackRules, rules),
                          proficiency=[proficiency], dice=SecureDice())
        except TavernError as error:
            raise ActionError("illegal", str(error)) from None

    @staticmethod
    def _dice(rules: Rules, options: p.TableOptions
              ) -> tuple[HouseDice | SecureDice, HouseDice | None, bool | frozenset[str]]:
        if options.dice_mode == "manual":
            return SecureDice(), None, False
        dice = HouseDice(cast(BlackjackRules, rules))
        return dice, dice, DIGITAL_POLICY

    def open_game(self, rules: Rules, options: p.TableOptions, names: Sequence[str],
                  balances: Sequence[int], proficiency: Sequence[int | None]
                  ) -> tuple[Engine, HouseDice | None]:
        dice, house_dice, policy = self._dice(rules, options)
        engine = BlackjackGame(names, rules=cast(BlackjackRules, rules), dice=dice,
                               auto_roll=policy, balances=list(balances),
                               proficiency=list(proficiency))
        return engine, house_dice

    def reopen_game(self, log: dict[str, Any], rules: Rules, options: p.TableOptions
                    ) -> tuple[Engine, HouseDice | None]:
        dice, house_dice, policy = self._dice(rules, options)
        return BlackjackGame.from_log(log, dice=dice, auto_roll=policy), house_dice

    def pot(self, stake: int, balances: Mapping[str, int], seats: Sequence[str],
            names: Mapping[str, str]) -> Pot[str]:
        return Pot()  # each bet is settled with the house as the round ends

    def typed_hands(self, options: p.TableOptions) -> bool:
        return False

    def player_action(self, engine: Engine, seat: int, frame: Any) -> None:
        if not isinstance(frame, p.Bet | p.SitOut | p.Roll | p.Stand):
            raise ActionError("illegal", f"{frame.type} is not a Dice Blackjack action")
        apply_message(_game(engine), seat, frame.model_dump())

    def resolve_chance(self, s: GameSession, options: p.TableOptions,
                       server_rolls: Controls) -> bool:
        # The d12s roll themselves (the chance policy); the house's dice wait for the DM
        # unless the table rolls them at once.
        if options.dice_mode != "digital" or not options.auto_house:
            return False
        return house.roll_house_now(_game(s.engine))

    def pending_roll(self, s: GameSession, options: p.TableOptions,
                     server_rolls: Controls) -> dict[str, Any] | None:
        return house.pending_roll(_game(s.engine))

    def is_over(self, engine: Engine) -> bool:
        game = _game(engine)
        return game.phase is BlackjackPhase.ROUND_OVER and game.is_over

    def make_bot(self, kind: str, name: str, rules: Rules) -> Any:
        bet = max(cast(BlackjackRules, rules).min_bet_cp, DEFAULT_BOT_BET_CP)
        return make_blackjack_bot(kind, name=name, bet_cp=bet)

    def house_roll(self, s: GameSession, frame: p.HouseRoll, options: p.TableOptions,
                   reload: Reload) -> None:
        house.dm_roll(_game(s.engine), frame, options.dice_mode == "manual", reload)
        self.resolve_chance(s, options, lambda seat: True)

    def d12(self, s: GameSession, face: int, options: p.TableOptions) -> None:
        house.dm_d12(_game(s.engine), face, options.dice_mode == "manual")

    def next_round(self, s: GameSession) -> None:
        try:
            _game(s.engine).new_round()
        except TavernError as error:
            raise ActionError("illegal", str(error)) from None
