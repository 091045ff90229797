"""Liar's Dice (tavern rules): rules, wagers, events, engine and per-player views."""

from tavern_dice.liars_dice.actions import Accuse, LiarsDiceAction, parse_action
from tavern_dice.liars_dice.rules import OPENSPIEL, PRESETS, TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.state import LiarsDiceGame, Phase
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager, is_raise, parse_wager

__all__ = [
    "OPENSPIEL", "PRESETS", "TAVERN", "Accuse", "AnyWager", "LiarsDiceAction", "LiarsDiceGame",
    "LiarsDiceRules", "LiarsDiceView", "Phase", "RaiseRule", "SumWager", "Wager", "is_raise",
    "parse_action", "parse_wager",
]
