"""What a Liar's Dice player knows, as a string and as a tensor.

Two kinds, in OpenSpiel's terms:

* the **observation** (``perfect_recall=False``): the situation now - whose view, their
  own dice, every seat's dice count, the standing wager and its maker, the wagers made
  this round (L5b), who acts and whether it is an accusation window, and the latest
  reveal;
* the **information state** (``perfect_recall=True``): everything the player has seen,
  round by round - who started, the dice counts, their own dice, the order in which the
  wagers were made, who accused, and the dice every reveal showed.

Other players' dice appear only in a reveal (L11: "All players roll their dice in
Secret"). What is private can be chosen as OpenSpiel does: the player's own dice
(``"single"``), nobody's (``"none"``) or everybody's (``"all"``, a referee's view).
Passes in the window are not in the tensor except for the current window
(``passed``): a round that went on after a wager means everyone asked passed it.

Own dice are shown sorted: they are rolled together in a cup, so their order means
nothing, and players with the same dice in another order are in the same position.

>>> from tavern_dice.interop.liars_table import LiarsDiceTable
>>> from tavern_dice.liars_dice import LiarsDiceRules, Wager
>>> table = LiarsDiceTable(2, LiarsDiceRules(dice_per_player=2), single_round=True)
>>> for face in (6, 2, 3, 3):
...     table.apply_chance(face - 1)
>>> table.apply(table.actions.encode(Wager(2, 3)))
>>> enc = LiarsEncoder(table, perfect_recall=True)
>>> enc.string(table, 0)
'P0 | r1: P0 starts, dice 2-2; mine 2 6; P0 2x3'
>>> enc.string(table, 1)
'P1 | r1: P0 starts, dice 2-2; mine 3 3; P0 2x3'
>>> LiarsEncoder(table, perfect_recall=False).string(table, 1)
'P1 | r1, dice 2-2 | mine 3 3 | wager 2x3 by P0, made 2x3 | P1 to raise or accuse'
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from tavern_dice.interop.liars_table import LiarsDiceTable, RoundRecord

Private = Literal["single", "none", "all"]
"""Whose dice a view includes before a reveal: the player's own, nobody's, everybody's."""
FloatArray = npt.NDArray[np.float32]


class LiarsEncoder:
    """Strings and tensors of one kind of view for one table size and ruleset.

    Args:
        table: a table of the game (only its size and ruleset are read).
        perfect_recall: the information state (``True``) or the observation (``False``).
        private: whose dice are included (see :data:`Private`).
        public: whether the public information (wagers, counts, reveals) is included.

    Attributes:
        pieces: ``(name, shape)`` of each part of the tensor, in order.
        size: the tensor's length.
    """

    def __init__(
        self,
        table: LiarsDiceTable,
        *,
        perfect_recall: bool,
        private: Private = "single",
        public: bool = True,
    ) -> None:
        self.perfect_recall = perfect_recall
        self.private = private
        self.public = public
        self.players = n = table.num_players
        self.sides = s = table.rules.sides
        self.num_wagers = w = table.actions.num_wagers
        self.max_rounds = table.max_rounds
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if perfect_recall:
            block = 1 + (n + n + 1 + w + n + n * s if public else 0)
            block += {"single": s, "none": 0, "all": n * s}[private]
            if public:
                pieces.append(("passed", (n,)))
            pieces.append(("rounds", (self.max_rounds, block)))
        else:
            if private == "single":
                pieces.append(("my_dice", (s,)))
            elif private == "all":
                pieces.append(("dice", (n, s)))
            if public:
                pieces += [
                    ("dice_counts", (n,)), ("sum_round", (1,)), ("wager", (w,)),
                    ("maker", (n,)), ("made", (w,)), ("actor", (n,)), ("window", (1,)),
                    ("passed", (n,)), ("revealed", (n, s)), ("losers", (n,)),
                ]
        self.pieces = pieces
        self.size = sum(int(np.prod(shape)) for _, shape in pieces)
        # Where each piece lies in the flat tensor, worked out once: views() is asked for
        # at every observation (an RL environment's every step).
        self._spans: list[tuple[str, int, int, tuple[int, ...]]] = []
        start = 0
        for name, shape in pieces:
            length = int(np.prod(shape))
            self._spans.append((name, start, start + length, shape))
            start += length

    # ------------------------------------------------------------------ tensors

    def views(self, tensor: FloatArray) -> dict[str, FloatArray]:
        """Named, shaped views into a flat ``tensor`` of :attr:`size`."""
        return {name: tensor[start:stop].reshape(shape)
                for name, start, stop, shape in self._spans}

    def tensor(self, table: LiarsDiceTable, player: int) -> FloatArray:
        """A new flat tensor of ``player``'s view."""
        flat = np.zeros(self.size, np.float32)
        self.fill(self.views(flat), table, player, zeroed=True)
        return flat

    def fill(self, views: dict[str, FloatArray], table: LiarsDiceTable, player: int,
             *, zeroed: bool = False) -> None:
        """Write ``player``'s view of ``table`` into ``views`` (from :meth:`views`);
        ``zeroed``: they are all zeros already (a new tensor)."""
        if not zeroed:
            for view in views.values():
                view.fill(0.0)
        views["player"][player] = 1.0
        if "passed" in views:
            for seat in table.passed:
                views["passed"][seat] = 1.0
        if self.perfect_recall:
            for row, record in zip(views["rounds"], table.rounds, strict=False):
                self._fill_round(row, record, player)
        else:
            self._fill_now(views, table, player)

    def _counts(self, hand: tuple[int, ...]) -> FloatArray:
        counts = np.zeros(self.sides, np.float32)
        for face in hand:
            counts[face - 1] += 1.0
        return counts

    def _private_hands(self, record: RoundRecord, player: int) -> list[tuple[int, ...]]:
        """The hands this view shows before the reveal, seat by seat (empty if hidden)."""
        if record.hands is None or self.private == "none":
            return [()] * self.players
        if self.private == "all":
            return list(record.hands)
        return [record.hands[s] if s == player else () for s in range(self.players)]

    def _fill_round(self, row: FloatArray, record: RoundRecord, player: int) -> None:
        n, s, w = self.players, self.sides, self.num_wagers
        row[0] = 1.0
        at = 1
        if self.public:
            row[at + record.starter] = 1.0
            at += n
            row[at : at + n] = record.dice_counts
            at += n
            row[at] = float(record.sum_wagers)
            at += 1
        hands = self._private_hands(record, player)
        if self.private == "single":
            row[at : at + s] = self._counts(hands[player])
            at += s
        elif self.private == "all":
            for seat in range(n):
                row[at + seat * s : at + (seat + 1) * s] = self._counts(hands[seat])
            at += n * s
        if not self.public:
            return
        order = 0
        for _, action in record.moves:
            if action < w:
                order += 1
                row[at + action] = float(order)  # the order matters: 'either' has cycles
        at += w
        if record.reveal is not None:
            accuser = record.moves[-1][0]
            row[at + accuser] = 1.0
            at += n
            for seat, hand in enumerate(record.reveal.hands):
                row[at + seat * s : at + (seat + 1) * s] = self._counts(hand)

    def _fill_now(self, views: dict[str, FloatArray], table: LiarsDiceTable, player: int) -> None:
        record = table.rounds[-1] if table.rounds else None
        if record is not None:
            hands = self._private_hands(record, player)
            if "my_dice" in views:
                views["my_dice"][:] = self._counts(hands[player])
            if "dice" in views:
                for seat, hand in enumerate(hands):
                    views["dice"][seat] = self._counts(hand)
        if not self.public:
            return
        engine = table.engine
        views["dice_counts"][:] = engine.dice_counts
        views["sum_round"][0] = float(engine.sum_wagers)
        if engine.current_wager is not None and engine.wager_maker is not None:
            views["wager"][table.actions.encode(engine.current_wager)] = 1.0
            views["maker"][engine.wager_maker] = 1.0
        for _, wager in engine.round_wagers:
            views["made"][table.actions.encode(wager)] = 1.0
        actor = table.actor()
        if actor is not None:
            views["actor"][actor] = 1.0
        views["window"][0] = float(bool(table.window))
        reveal = engine.last_reveal
        if reveal is not None:
            for seat, hand in enumerate(reveal.hands):
                views["revealed"][seat] = self._counts(hand)
            for seat in reveal.losers:
                views["losers"][seat] += 1.0

    # ------------------------------------------------------------------ strings

    def string(self, table: LiarsDiceTable, player: int) -> str:
        """``player``'s view as text (distinct views give distinct strings)."""
        parts = [f"P{player}"]
        if self.perfect_recall:
            parts += [self._round_string(table, r, player) for r in table.rounds]
        else:
            parts += self._now_strings(table, player)
        return " | ".join(parts)

    @staticmethod
    def _dice(hand: tuple[int, ...]) -> str:
        return " ".join(str(f) for f in hand) if hand else "-"

    def _mine(self, record: RoundRecord, player: int) -> str | None:
        if self.private == "none":
            return None
        if record.hands is None:
            return "mine ?" if self.private == "single" else "dice ?"
        hands = self._private_hands(record, player)
        if self.private == "single":
            return f"mine {self._dice(hands[player])}"
        return "dice " + ", ".join(f"P{s} {self._dice(h)}" for s, h in enumerate(hands))

    def _round_string(self, table: LiarsDiceTable, record: RoundRecord, player: int) -> str:
        head = f"r{record.number}"
        if self.public:
            head += f": P{record.starter} starts, dice " + "-".join(map(str, record.dice_counts))
            head += ", sums" if record.sum_wagers else ""
        pieces = [head]
        mine = self._mine(record, player)
        if mine is not None:
            pieces.append(mine)
        if self.public and record.moves:
            pieces.append(", ".join(f"P{s} {table.label(a)}" for s, a in record.moves))
        if self.public and record.reveal is not None:
            shown = ", ".join(
                f"P{s} {self._dice(tuple(sorted(h)))}" for s, h in enumerate(record.reveal.hands)
            )
            pieces.append(f"shown {shown}")
        return "; ".join(pieces)

    def _now_strings(self, table: LiarsDiceTable, player: int) -> list[str]:
        engine = table.engine
        record = table.rounds[-1] if table.rounds else None
        parts: list[str] = []
        if self.public:
            head = "start" if record is None else f"r{record.number}"
            parts.append(f"{head}, dice " + "-".join(map(str, engine.dice_counts)))
        if record is not None:
            mine = self._mine(record, player)
            if mine is not None:
                parts.append(mine)
        if not self.public:
            return parts
        wager = engine.current_wager
        if wager is not None:
            made = " ".join(w.code() for _, w in engine.round_wagers)
            parts.append(f"wager {wager.code()} by P{engine.wager_maker}, made {made}")
        actor = table.actor()
        if table.is_over:
            parts.append("over")
        elif actor is None:
            parts.append("dice rolling")
        elif table.window:
            parts.append(f"P{actor} to accuse or pass")
        else:
            parts.append(f"P{actor} to " + ("raise or accuse" if wager is not None else "wager"))
        reveal = engine.last_reveal
        if reveal is not None:
            shown = ", ".join(
                f"P{s} {self._dice(tuple(sorted(h)))}" for s, h in enumerate(reveal.hands)
            )
            losers = " ".join(f"P{s}" for s in reveal.losers)
            parts.append(f"last reveal {shown}: {reveal.outcome}, lost a die {losers}")
        return parts

