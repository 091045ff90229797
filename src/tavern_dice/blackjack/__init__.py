"""Dice Blackjack (the house d20 game): rules, events, engine, settlement and views."""

from tavern_dice.blackjack.actions import Bet, BlackjackAction, Roll, SitOut, Stand
from tavern_dice.blackjack.rules import PRESETS, TAVERN, BlackjackRules
from tavern_dice.blackjack.settlement import house_roll, payout_ratio, settle
from tavern_dice.blackjack.state import BlackjackGame, Phase
from tavern_dice.blackjack.view import BlackjackView

__all__ = [
    "PRESETS", "TAVERN", "Bet", "BlackjackAction", "BlackjackGame", "BlackjackRules",
    "BlackjackView", "Phase", "Roll", "SitOut", "Stand", "house_roll", "payout_ratio",
    "settle",
]
