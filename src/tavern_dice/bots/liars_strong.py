"""The ``strong`` Liar's Dice bot: hard to bully, at any table.

**Heads-up** (two players left), in a round of up to 6 dice in play where the table's
rules have a solved policy (:mod:`tavern_dice.strategy.liars_dice.solver.play.tables`, one
small file per round), it plays that policy: an equilibrium of the round found by the
double oracle, its exploitability measured exactly by full-recall best responses on the
data shipped. It samples its action from the policy's probabilities for its hand and this
round's wagers, decoding only the rows of the history it is at.

**Heads-up against a bot it knows**, in a round with more than 6 dice in play, it
plays the local best response against that bot
(:class:`~tavern_dice.bots.liars_exploit.lookahead.LookaheadExploiter`), once the
opponent's revealed rounds have shown it is that bot: after every reveal it asks each
deterministic bot of this project what it would have done with the hand the opponent
turned out to hold, and names one only when it matched every scored decision, at least
six (:mod:`tavern_dice.bots.liars_exploit.identify`; one miss and the name is withdrawn
for good). A person, a randomised bot or an exploiter is never named.

**Heads-up in a bigger round under the seed's ``either`` raise** (7-10 dice in play)
against anyone else, it *searches* (:mod:`tavern_dice.strategy.liars_dice.solver.play.search`):
at each decision it re-solves the rest of the round two wagers deep over both players'
hand ranges, which it keeps from the round's whole history, with the ``standard``
blueprint's values at the leaves; on its turn after the opponent's wager it re-solves
safely (the opponent's range held only to the values its wagers had, not to the model).
The blueprint alone forgets the history, which the ``either`` rule's lower-quantity
raises turn against it.

**Heads-up in a bigger round** otherwise (the ``standard`` raise, 7-10 dice in play), it
samples the shipped *blueprint*
(:mod:`tavern_dice.strategy.liars_dice.solver.play.blueprint`): CFR on the
round's last-wager abstraction, approximate (a full-recall opponent can read more from
the whole history than it does) but mixed and balanced, which the lookahead below is not
(the local best response won 97.5 % of 5 v 5 rounds against that lookahead, 77 % against
the blueprint).

**Everywhere else** (three or more players, or rules without a solved policy) it plays
the expected-value lookahead it shares with the ``trusting`` bot
(:mod:`tavern_dice.strategy.liars_dice.values`), made robust:

* **Every seat read with its own policy** (three or more players;
  :mod:`tavern_dice.bots.public_beliefs`): the chance that a player holding each hand
  would have made each of their wagers this round, and let pass each wager they were
  asked to accuse, is what this bot's own policy would have done in their seat. Those
  beliefs do not depend on its own dice, so a player who knows its policy exactly (the
  ``reader`` exploiter) knows no more about any hand than it does; read as honest
  wagers instead (``reading='quantal'``, as until 2026-12-06), it lost 47 % of games to the
  reader at four players (par 25 %).
* **Beliefs that a bluffer cannot lead.** Each action is read as telling nothing with a
  *bluff rate learned at the table* (:mod:`tavern_dice.strategy.liars_dice.tendencies`):
  every reveal shows every hand, so the bot counts how often each opponent's wagers were
  bluffs, at the opening and when raising, heads-up and at bigger tables, from a prior of
  15 % worth six wagers. Before any reveal it already discounts what it is told; against
  honest players it comes to trust them.
* **Opponents' calls learned too**: the odds at which each opponent accused, and let
  wagers pass, give that opponent's accusation threshold in the lookahead.
* **Every legal raise**, the seed's ``either`` rule's lower-quantity raises and rule L5b
  included, is weighed, so it takes a safe lower raise where one pays.
* **Mixed play.** It does not always take the top-scoring action: it picks among those
  within ``margin`` of the best with chances ``∝ exp(value / temperature)``, and accuses
  out of turn with a chance that rises smoothly with the accusation's value; a fixed
  counter-strategy finds no certain reply to exploit.

**Replays.** Its random choices come from a hash of its seed and the moment of the game
(round, log length, seat), not from a generator that moves on: the same seed and the same
game give the same choices, also in a game restored from its log.

>>> from tavern_dice.dice import SeededDice
>>> from tavern_dice.liars_dice.state import LiarsDiceGame
>>> from tavern_dice.play.runner import play_liars_dice
>>> from tavern_dice.bots.liars_trusting import TrustingLiarsDiceBot
>>> game = LiarsDiceGame(3, dice=SeededDice(2))
>>> seats = [StrongLiarsDiceBot("s", seed=1), TrustingLiarsDiceBot("t1"),
...          TrustingLiarsDiceBot("t2")]
>>> play_liars_dice(game, seats) in range(3)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction, LiarsDiceAgent, one_action_per_hand
from tavern_dice.bots.public_beliefs import PublicBeliefs
from tavern_dice.bots.registry import BotError, check_number
from tavern_dice.liars_dice.events import WagerMade
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.strategy.blas import one_blas_thread
from tavern_dice.strategy.liars_dice.belief import RoundBelief, WagerModel
from tavern_dice.strategy.liars_dice.tendencies import OPENING, RAISE, Tendencies, size_of
from tavern_dice.strategy.liars_dice.values import (
    BeliefKeeper,
    RoundState,
    Valuer,
    posterior_state,
)

FloatArray = npt.NDArray[np.floating[Any]]

READINGS = ("self", "quantal")
"""How it may read the others' wagers at three or more players (the ``reading`` option)."""

EXPLOIT_ABOVE_IN_PLAY = 6
"""Heads-up with more dice in play than this, a bot it has named meets its best response
(no table covers those rounds; were one built, the best response would outrank it); its
identifier scores the same rounds."""


class StrongLiarsDiceBot:
    """The solved policy heads-up; robust, learning, mixed lookahead elsewhere (see the
    module doc).

    Args:
        name, seed: the seat's name and the seed of its random choices.
        temperature: how widely it mixes among good actions (value units: dice).
        margin: actions scoring more than this below the best are never taken.
        prior_bluff, prior_weight: the bluff rate it believes of an opponent before any
            reveal, and how many wagers' worth that belief is.
        opponent_weight, pass_value, steepness: the lookahead's scores (as ``trusting``).
        tables: play the solved heads-up policies where they cover the round.
        identify: heads-up in a round with more than 6 dice in play, play the local best response
            against a known bot once the opponent's revealed rounds show it is that bot
            (:mod:`tavern_dice.bots.liars_exploit.identify`).
        blueprints: heads-up in a round no table covers (7-10 dice in play under the
            seed's rules, 9-10 under the ``standard`` raise), play the shipped
            last-wager blueprint
            (:mod:`tavern_dice.strategy.liars_dice.solver.play.blueprint`) unless the
            opponent is a bot it has named.
        search: in those rounds under the seed's ``either`` raise, search instead
            (:mod:`tavern_dice.strategy.liars_dice.solver.play.search`).
        reading: at three or more players, how it reads the others' wagers: ``'self'``,
            with its own policy (:mod:`tavern_dice.bots.public_beliefs`), or
            ``'quantal'``, as honest wagers of a quantal player (until 2026-12-06).

    Raises:
        BotError: an option out of range.
    """

    def __init__(
        self,
        name: str = "strong",
        seed: int | None = None,
        *,
        temperature: float = 0.015,
        margin: float = 0.06,
        prior_bluff: float = 0.15,
        prior_weight: float = 6.0,
        opponent_weight: float = 1.0,
        pass_value: float = 0.0,
        steepness: float = 20.0,
        tables: bool = True,
        identify: bool = True,
        blueprints: bool = True,
        search: bool = True,
        reading: str = "self",
    ) -> None:
        self.name = name
        self.seed = seed
        # Its options as given: the identifier's exploiter of it models a copy of it.
        self.options: dict[str, Any] = {
            "temperature": temperature, "margin": margin, "prior_bluff": prior_bluff,
            "prior_weight": prior_weight, "opponent_weight": opponent_weight,
            "pass_value": pass_value, "steepness": steepness, "tables": tables,
            "identify": identify, "blueprints": blueprints, "search": search,
            "reading": reading,
        }
        self.temperature = check_number("temperature", temperature, 1e-6)
        self.margin = check_number("margin", margin, 0.0)
        self.pass_value = check_number("pass_value", pass_value, -1.0, 1.0)
        self.tables = bool(tables)
        self.identify = bool(identify)
        self.blueprints = bool(blueprints)
        self.search = bool(search)
        self._searchers: dict[tuple[str, int, int], Any] = {}
        self._identifier: Any = None
        self._exploiters: dict[str, Any] = {}
        self.model = WagerModel("quantal")
        self.tendencies = Tendencies(
            self.model, check_number("prior_bluff", prior_bluff, 0.0, 1.0),
            check_number("prior_weight", prior_weight, 0.0),
        )
        self.valuer = Valuer(
            check_number("opponent_weight", opponent_weight, 0.0), self.pass_value,
            check_number("steepness", steepness, 0.0), self._threshold,
        )
        self._beliefs = BeliefKeeper()
        if reading not in READINGS:
            raise BotError(f"reading is one of {', '.join(READINGS)}, not {reading!r}")
        self.reading = reading
        # Every seat read with this bot's own policy; an action tells nothing with the
        # chance of its maker's learned bluff rate.
        self._public = PublicBeliefs(self.range_policy, self.accuse_chances, self._bluff_rate)

    # ------------------------------------------------------------------ agent protocol

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        """An action drawn from :meth:`action_probabilities`."""
        chances = self.action_probabilities(view)
        u = self._uniform(view, "act")
        total = 0.0
        choice: LiarsDiceAction | None = None
        for action, p in chances.items():
            total += p
            choice = action
            if u < total:
                break
        if choice is None:
            raise BotError(f"{self.name} was asked to act with no legal action")
        return choice

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        """Out of turn: accuse with :meth:`accuse_probability`."""
        p = self.accuse_probability(view)
        return p > 0.0 and self._uniform(view, "accuse") < p

    # ------------------------------------------------------------------ its mixed strategy

    def action_probabilities(self, view: LiarsDiceView) -> dict[LiarsDiceAction, float]:
        """The chance of each action on its turn (see the module doc)."""
        actions, probs = self.range_policy(view, (view.own_dice,))
        return {a: float(p) for a, p in zip(actions, probs[0], strict=True) if p > 0}

    def accuse_probability(self, view: LiarsDiceView) -> float:
        """Out of turn: the chance it accuses the standing wager now."""
        return float(self.accuse_chances(view, (view.own_dice,))[0])

    def accuse_chances(self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]) -> FloatArray:
        """Out of turn: the chance it accuses the standing wager now with each of ``hands``
        as its dice (a logistic of the accusation's gain over letting it pass, none below
        ``-margin``); for all hands at once, as :meth:`range_policy`."""
        if not view.may_accuse or view.wager is None or view.wager_maker is None:
            return np.zeros(len(hands))
        state = self._round(view)
        with one_blas_thread():
            own = self.valuer.own_matrix(state, hands, view.sum_wagers)
            gain = self.valuer.accuse_column(view, state, own) - self.pass_value
        chance = 1.0 / (1.0 + np.exp(-np.clip(gain / self.temperature, -50.0, 50.0)))
        out: FloatArray = np.where(gain < -self.margin, 0.0, chance)
        return out

    def range_policy(
        self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
    ) -> tuple[tuple[LiarsDiceAction, ...], FloatArray]:
        """What it would do on its turn with each of ``hands`` as its dice: the solved
        policy where one covers the round; heads-up in a bigger round, the best response
        to a bot it has named, else the blueprint; else its mixed lookahead; for all hands
        at once (its beliefs about the others do not depend on its own dice)."""
        with one_blas_thread():  # small products: BLAS threads would only spin
            return self._range_policy(view, hands)

    def _range_policy(
        self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
    ) -> tuple[tuple[LiarsDiceAction, ...], FloatArray]:
        # Against a bot it has named, the best response outranks any table of a round of
        # more than 6 dice in play, as it outranks the blueprints there: a table is what a
        # stranger cannot beat, not what beats a known bot.
        first, then = (self._exploit_rows, self._table_rows)
        if sum(view.dice_counts) <= EXPLOIT_ABOVE_IN_PLAY:
            first, then = then, first
        for rows in (first, then):
            found = rows(view, hands)
            if found is not None:
                return found
        if self.search:
            from tavern_dice.strategy.liars_dice.solver.play.search import search_policy

            searched = search_policy(view, hands, self._searchers)
            if searched is not None:
                return searched
        if self.blueprints:
            from tavern_dice.strategy.liars_dice.solver.play.blueprint import blueprint_policy

            found = blueprint_policy(view, hands)
            if found is not None:
                return found
        state = self._round(view)
        actions, values = self.valuer.action_matrix(view, state, hands, view.legal_wagers)
        if not actions:
            raise BotError(f"{self.name} was asked to act with no legal action")
        return actions, self._mix(values)

    def action_values(self, view: LiarsDiceView) -> dict[LiarsDiceAction, float]:
        """Its lookahead's expected score of each legal action with its own dice (what its
        mixed play weighs; :mod:`tavern_dice.review.evaluate` gives the solved policy's)."""
        state = self._round(view)
        values: dict[LiarsDiceAction, float] = {}
        if view.may_accuse and view.wager is not None and view.wager_maker is not None:
            values[ACCUSE] = self.valuer.accuse_value(view.wager, view.wager_maker, state)
        values.update(self.valuer.raise_values(state, view.legal_wagers))
        return values

    # ------------------------------------------------------------------ pieces

    def _mix(self, values: FloatArray) -> FloatArray:
        """Per row (hand): chances ``∝ exp(value / temperature)`` among the actions within
        ``margin`` of the row's best, none elsewhere."""
        best = values.max(axis=1, keepdims=True)
        weights = np.where(values >= best - self.margin,
                           np.exp((values - best) / self.temperature), 0.0)
        out: FloatArray = weights / weights.sum(axis=1, keepdims=True)
        return out

    def _uniform(self, view: LiarsDiceView, tag: str) -> float:
        """A number in [0, 1) fixed by the seed and the moment of the game."""
        key = f"{self.seed}:{view.round}:{len(view.log)}:{view.seat}:{tag}"
        digest = hashlib.sha256(key.encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64

    def _threshold(self, seat: int, on_turn: bool) -> float:
        return self.tendencies.seat(seat).threshold(on_turn)

    def _table(self, view: LiarsDiceView) -> tuple[tuple[LiarsDiceAction, ...], FloatArray] | None:
        rows = self._table_rows(view, (view.own_dice,))
        if rows is None:
            return None
        return rows[0], rows[1][0]

    def _table_rows(
        self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
    ) -> tuple[tuple[LiarsDiceAction, ...], FloatArray] | None:
        if not self.tables:
            return None
        from tavern_dice.strategy.liars_dice.solver.play.tables import heads_up_policy

        return heads_up_policy(view, hands, off_tree="stand-in")

    def _exploit_rows(
        self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
    ) -> tuple[tuple[LiarsDiceAction, ...], FloatArray] | None:
        """Heads-up against an identified bot: what the local best response against it
        does with each hand (one action per hand), or ``None``."""
        if not self.identify or view.seat is None:
            return None
        alive = [s for s, c in enumerate(view.dice_counts) if c > 0]
        if len(alive) != 2 or view.sum_wagers:
            return None
        from tavern_dice.bots.liars_exploit.identify import Identifier
        from tavern_dice.bots.liars_exploit.views import view_as

        if self._identifier is None:
            self._identifier = Identifier(max_tabled=EXPLOIT_ABOVE_IN_PLAY,
                                          exploiter=self._exploiter_of_me)
        opponent = alive[0] if alive[1] == view.seat else alive[1]
        kind = self._identifier.identify(view, opponent)
        if kind is None:
            return None
        exploiter = self._exploiters.get(kind)
        if exploiter is None:
            from tavern_dice.bots.liars_exploit.lookahead import LookaheadExploiter

            exploiter = LookaheadExploiter(self.name, self.seed, target=kind, depth=1)
            self._exploiters[kind] = exploiter
        if not exploiter.consistent(view):
            # A wager this round that the named bot would make with no hand: not that bot.
            self._identifier.withdraw(opponent, kind)
            return None
        events = list(view.log)
        return one_action_per_hand([
            exploiter.choose_action(
                view if tuple(hand) == tuple(view.own_dice)
                else view_as(view, view.seat, hand, (), events)
            )
            for hand in hands
        ])

    def _exploiter_of_me(self) -> LiarsDiceAgent:
        """The local best response against this bot (its copy naming nobody): a player
        the identifier must not mistake for a known bot."""
        from tavern_dice.bots.liars_exploit.lookahead import LookaheadExploiter

        # Its copy plays the blueprint where this bot searches: the exploiter is only the
        # identifier's alternative hypothesis, and against a search each of its decisions
        # would cost dozens of searches, on this bot's turn.
        return LookaheadExploiter(self.name, self.seed, target="strong", depth=1,
                                  target_options=self.options | {"identify": False,
                                                                 "search": False})

    def _round(self, view: LiarsDiceView) -> RoundState:
        me = view.seat
        if me is None:
            raise BotError(f"{self.name} plays a seat; a spectator's view has no decisions")
        self.tendencies.update(view.log, view.rules)
        if self.reading == "self" and sum(1 for count in view.dice_counts if count) >= 3:
            return posterior_state(view, self._public.reach(view))

        def new(counts: tuple[int, ...]) -> RoundBelief:
            # Every opponent's model is replaced per wager (see _learned_model).
            models = {seat: self.model for seat, count in enumerate(counts)
                      if count and seat != me}
            return RoundBelief(view.rules, me, counts, self.model, models, every_raise=True)

        return self._beliefs.state(view, new, self._learned_model)

    def _learned_model(
        self, belief: RoundBelief, index: int, wager: WagerMade, counts: tuple[int, ...]
    ) -> None:
        """Before an opponent's wager is read: its maker's bluff rate as learned so far."""
        seat = wager.seat
        if seat != belief.viewer:
            rate = self._bluff_rate(seat, index, counts)
            belief.models[seat] = WagerModel("quantal", bluff=rate)

    def _bluff_rate(self, seat: int, index: int, counts: Sequence[int]) -> float:
        """``seat``'s bluff rate as learned so far, for the round's wager number ``index``."""
        size = size_of(sum(1 for c in counts if c > 0))
        return self.tendencies.bluff_rate(seat, OPENING if index == 0 else RAISE, size)

    def __repr__(self) -> str:
        return f"StrongLiarsDiceBot(name={self.name!r}, seed={self.seed!r})"
