"""What each opponent tends to do, learned from the reveals: how often they bluff, and at
what odds they accuse.

Every reveal shows every hand (L8), so after each round the table knows, for every wager
made, the hand its maker held, and for the accusation, the hand of the accuser. From
that, per opponent:

* **bluff rate**, by position (the round's opening wager, or a raise) and by table size
  (heads-up, or three or more players; each size's estimate starts from the position's,
  so a few wagers at a new size move it only a little): each wager's
  *responsibility* of being a bluff, ``b * u / (b * u + (1 - b) * h)``, with ``h`` the
  chance an honest player with that hand makes it (the quantal model of
  :class:`~tavern_dice.strategy.liars_dice.belief.WagerModel`) and ``u`` the chance a bluffer
  picking a raise at random does. The responsibilities are counted as in one step of EM,
  from a prior worth ``prior_weight`` wagers at ``prior_bluff``: before any reveal a
  belief that one wager in ``1 / prior_bluff`` is a bluff keeps a player who bluffs on
  purpose from leading the bot by the nose.
* **accusation threshold**, on turn and out of turn: the mean of the odds (by their own
  dice) of the wagers they accused, and of the wagers they let pass when they could have
  accused; the threshold is between the two, again from a prior.

Everything is a pure function of the log (the masked log a player sees holds every
reveal), so a copy of the bot asked about the same view answers the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from tavern_dice.events import Event
from tavern_dice.liars_dice.events import Accused, Revealed, RoundStarted, WagerMade
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.wager import AnyWager, SumWager, legal_raises
from tavern_dice.strategy.liars_dice.belief import (
    MAX_HANDS,
    OpponentBelief,
    WagerModel,
    hand_count,
    options_of,
)
from tavern_dice.strategy.liars_dice.odds import true_probability

OPENING = "opening"
RAISE = "raise"


@dataclass
class _Mean:
    """A running mean with a prior worth ``weight`` observations at ``prior``."""

    prior: float
    weight: float
    total: float = 0.0
    count: float = 0.0

    def add(self, value: float, weight: float = 1.0) -> None:
        self.total += value * weight
        self.count += weight

    @property
    def value(self) -> float:
        return (self.prior * self.weight + self.total) / (self.weight + self.count)


HEADS_UP = "heads-up"
TABLE = "table"

SIZE_WEIGHT = 4.0
"""How many wagers' worth the position's bluff rate counts for at a table size."""


def size_of(players: int) -> str:
    """The table-size bucket of a round with ``players`` players in it."""
    return HEADS_UP if players == 2 else TABLE


@dataclass
class SeatTendency:
    """One opponent's learned tendencies (see the module doc)."""

    bluff: dict[str, _Mean]
    accused_odds: dict[bool, _Mean]
    passed_odds: dict[bool, _Mean]
    by_size: dict[tuple[str, str], _Mean] = field(default_factory=dict)

    def bluff_rate(self, position: str, size: str | None = None) -> float:
        """Their bluff rate at ``position``, at table ``size`` if given: that size's wagers
        counted on top of the position's rate, worth :data:`SIZE_WEIGHT` wagers."""
        overall = self.bluff[position].value
        if size is None:
            return overall
        mean = self.by_size.get((position, size))
        if mean is None:
            return overall
        return (overall * SIZE_WEIGHT + mean.total) / (SIZE_WEIGHT + mean.count)

    def threshold(self, on_turn: bool) -> float:
        """The odds below which they are likely to accuse (on their turn or not)."""
        low = self.accused_odds[on_turn].value
        high = self.passed_odds[on_turn].value
        return float(np.clip((low + high) / 2.0, 0.02, 0.9))


@dataclass
class Tendencies:
    """Tendencies of every seat, learned from the reveals in a game's log.

    Args:
        model: the honest-wager model (its ``bluff`` is ignored: learned here).
        prior_bluff, prior_weight: the bluff rate believed before any reveal, and how many
            wagers' worth of evidence that belief is.
        prior_thresholds: ``(on turn, out of turn)`` accusation thresholds believed first.
    """

    model: WagerModel = field(default_factory=WagerModel)
    prior_bluff: float = 0.3
    prior_weight: float = 6.0
    prior_thresholds: tuple[float, float] = (0.45, 0.2)
    seats: dict[int, SeatTendency] = field(default_factory=dict)
    _seen: int = 0
    _last: Event | None = None
    _round: list[Event] = field(default_factory=list)
    _folded: int = 0  # the log's length up to the last reveal folded in, and that reveal
    _round_end: Event | None = None

    def seat(self, seat: int) -> SeatTendency:
        found = self.seats.get(seat)
        if found is None:
            spread = 0.15
            found = SeatTendency(
                {p: _Mean(self.prior_bluff, self.prior_weight) for p in (OPENING, RAISE)},
                {t: _Mean(th - spread, 3.0) for t, th in
                 zip((True, False), self.prior_thresholds, strict=True)},
                {t: _Mean(th + spread, 3.0) for t, th in
                 zip((True, False), self.prior_thresholds, strict=True)},
            )
            self.seats[seat] = found
        return found

    def bluff_rate(self, seat: int, position: str, size: str | None = None) -> float:
        """``seat``'s learned bluff rate at ``position`` (and table ``size``)."""
        return self.seat(seat).bluff_rate(position, size)

    def update(self, log: Sequence[Event], rules: LiarsDiceRules) -> None:
        """Fold in the rounds revealed in ``log`` since the last call (from the start if
        ``log`` does not continue the log seen before; a log cut short within the round
        after the last reveal, an earlier moment of it, keeps what was learned)."""
        if self._seen > len(log) or (self._seen and log[self._seen - 1] != self._last):
            if self._folded and len(log) >= self._folded and (
                    log[self._folded - 1] == self._round_end):
                self._seen = self._folded
            else:
                self.seats.clear()
                self._seen = self._folded = 0
            self._round = []
        for i in range(self._seen, len(log)):
            event = log[i]
            if isinstance(event, RoundStarted):
                self._round = [event]
            elif self._round:
                self._round.append(event)
                if isinstance(event, Revealed):
                    self._fold_round(self._round, rules)
                    self._round = []
                    self._folded, self._round_end = i + 1, event
        self._seen = len(log)
        self._last = log[-1] if log else None

    def _fold_round(self, events: list[Event], rules: LiarsDiceRules) -> None:
        started = events[0]
        assert isinstance(started, RoundStarted)
        reveal = events[-1]
        assert isinstance(reveal, Revealed)
        counts = started.dice_counts
        dice = sum(counts)
        hands = reveal.hands
        made: list[tuple[int, AnyWager]] = []
        n = len(counts)
        for event in events[1:-1]:
            if isinstance(event, WagerMade):
                previous = made[-1][1] if made else None
                if made:
                    # The player to the maker's left let `previous` pass by raising.
                    self._odds_seen(event.seat, previous, hands, dice, rules, accused=False,
                                    on_turn=True)
                self._wager_seen(event.seat, event.wager, previous, made, hands, counts,
                                 rules)
                made.append((event.seat, event.wager))
            elif isinstance(event, Accused) and made:
                maker = made[-1][0]
                on_turn = event.accuser == next(
                    (maker + k) % n for k in range(1, n + 1) if counts[(maker + k) % n] > 0
                )
                self._odds_seen(event.accuser, made[-1][1], hands, dice, rules, accused=True,
                                on_turn=on_turn)

    def _odds_seen(
        self, seat: int, wager: AnyWager | None, hands: tuple[tuple[int, ...], ...], dice: int,
        rules: LiarsDiceRules, *, accused: bool, on_turn: bool,
    ) -> None:
        if wager is None or not hands[seat]:
            return
        odds = true_probability(wager, hands[seat], dice, rules)
        tendency = self.seat(seat)
        (tendency.accused_odds if accused else tendency.passed_odds)[on_turn].add(float(odds))

    def _wager_seen(
        self, seat: int, wager: AnyWager, previous: AnyWager | None,
        made: list[tuple[int, AnyWager]], hands: tuple[tuple[int, ...], ...],
        counts: tuple[int, ...], rules: LiarsDiceRules,
    ) -> None:
        hand = hands[seat]
        if not hand or hand_count(len(hand), rules.sides) > MAX_HANDS:
            return
        belief = OpponentBelief(seat, len(hand), rules)
        assert belief._space is not None
        options = options_of(legal_raises(
            rules, sum(counts), previous, isinstance(wager, SumWager), made
        ))
        index = belief._space.index_of(hand)
        honest, n_options = belief.quantal_choice(wager, previous, sum(counts), self.model,
                                                  options, np.array([index]))
        h = float(honest[0])
        u = 1.0 / max(n_options, 1)
        tendency = self.seat(seat)
        position = OPENING if previous is None else RAISE
        size = size_of(sum(1 for c in counts if c > 0))
        b = tendency.bluff_rate(position, size)
        responsibility = b * u / (b * u + (1.0 - b) * h) if b * u + (1.0 - b) * h > 0 else b
        tendency.bluff[position].add(responsibility)
        tendency.by_size.setdefault((position, size), _Mean(0.0, 0.0)).add(responsibility)
