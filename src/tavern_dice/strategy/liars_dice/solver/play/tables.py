"""Solved heads-up policies shipped as package data, and their lookup by the bots.

For the rules a table was solved for (:data:`TABLE_RULES`), every two-player round
``(first bidder's dice, second bidder's dice)`` up to 5 dice each has a policy from the
double oracle (:mod:`.oracle`): the histories of its restricted game, the actions
allowed at each, and both players' probabilities for every hand, stored as ``uint16``
(probability x 65535) for every action but each history's last,
which gets what the others leave (a quarter fewer bytes). A history outside the table is
answered by the policy's default, an accusation: the double oracle certified the policy
*with* that default, so no deviation into such a history gains more than the round's
recorded exploitability.

Files (``tavern_dice/data/liars_dice_heads_up_<key>/r<first>_<second>.npz``, one per
round, :mod:`.table_store`) are read lazily, one round at a time, and kept as stored: a
bot decodes only the rows of the history it is at. Rebuild them with
``python -m tavern_dice.strategy.liars_dice.solver.build.build_tables`` (see ``docs/solver.md``
for how long each takes).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.actions import ACCUSE, LiarsDiceAction
from tavern_dice.liars_dice.adjudication import count_matching
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import Wager
from tavern_dice.strategy.liars_dice.solver.core.oracle_game import OracleRound
from tavern_dice.strategy.liars_dice.solver.play.round_table import (
    RoundTable as RoundTable,
)
from tavern_dice.strategy.liars_dice.solver.play.round_table import (
    TableError as TableError,
)
from tavern_dice.strategy.liars_dice.solver.play.round_table import (
    from_result as from_result,
)
from tavern_dice.strategy.liars_dice.solver.play.table_rows import stored_rows
from tavern_dice.strategy.liars_dice.solver.play.table_store import (
    Rows,
    read_folder_meta,
    read_round,
    round_file,
    round_files,
    write_round,
)

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.int64]
History = tuple[int, ...]

MAX_DICE = 5
"""Tables cover rounds with up to this many dice on each side."""

TABLE_RULES: dict[str, LiarsDiceRules] = {
    "tavern": TAVERN,
    "tavern-standard": TAVERN.replace(raise_rule=RaiseRule.STANDARD),
}
"""The rules each shipped table was solved for: the seed (``either``, repeats forbidden)
and the seed with the ``standard`` raise."""


_ROUNDS = [(a, b) for a in range(1, MAX_DICE + 1) for b in range(1, MAX_DICE + 1)]

SHIPPED_ROUNDS: dict[str, tuple[tuple[int, int], ...]] = {
    "tavern": tuple(d for d in _ROUNDS if sum(d) <= 6),
    "tavern-standard": tuple(d for d in _ROUNDS if sum(d) <= 6),
}
"""The rounds whose tables ship, per key: every round up to 6 dice in play, so that all the
package's data stays within 20 MB and no file over 5 MB (the seed's 6-dice rounds pruned,
:data:`PRUNED_BELOW`; its 5-dice ones stored as ``uint8``). The seed's 7-10-dice rounds
are searched (:mod:`.search`) and the ``standard`` 7-10-dice ones played by the
blueprints (:mod:`.blueprint`): the seed's 7-dice tables took 9-12 MB each and were
0.21-0.29 exploitable, the ``standard`` 7- and 8-dice ones 1.2-4.9 MB each."""

PRUNED_BELOW: dict[str, dict[tuple[int, int], float]] = {
    "tavern": {(1, 5): 0.01, (5, 1): 0.01, (2, 4): 0.03, (3, 3): 0.03, (4, 2): 0.03},
}
"""Per key and round, the shipped tables that forget each hand's play at the histories its
own play brings it to less than this often (:meth:`RoundTable.pruned`): the seed's 6-dice
rounds, whose files it cuts to a third or a half (the three biggest at the higher level),
at the cost in exploitability their figures give (measured exactly on the data shipped).
Every other round keeps the build's own level (:func:`~.build_tables.prune_file`)."""


def table_key(rules: LiarsDiceRules) -> str | None:
    """The shipped table that covers two-player rounds of ``rules``, or ``None``.

    Two-player rounds do not depend on ``spot_on`` (an exact wager costs the accuser, as a
    true one does), on the dice each player started with, or on the table size limits.
    """
    for key, solved in TABLE_RULES.items():
        if (
            rules.sides == solved.sides and rules.wild_face == solved.wild_face
            and rules.sum_endgame == solved.sum_endgame
            and rules.raise_rule is solved.raise_rule
            and (rules.repeat_wagers == solved.repeat_wagers
                 or rules.raise_rule is not RaiseRule.EITHER)
        ):
            return key
    return None


def data_path(key: str, folder: Path | None = None) -> Path:
    """The folder of the table ``key`` (one file per round): in ``folder`` (a build's), else
    in the folder named by ``$TAVERN_TABLES`` (to try a build before installing it), else
    the package data."""
    if key not in TABLE_RULES:
        raise TableError(f"no heads-up table {key!r}; available: {list(TABLE_RULES)}")
    return data_file(f"liars_dice_heads_up_{key}", folder)


def data_file(name: str, folder: Path | None = None) -> Path:
    """The shipped data file ``name``: in ``folder``, else in ``$TAVERN_TABLES``, else in
    the package data."""
    if folder is None and os.environ.get("TAVERN_TABLES"):
        folder = Path(os.environ["TAVERN_TABLES"])
    if folder is not None:
        return folder / name
    return _package_data() / name


@lru_cache(maxsize=1)
def _package_data() -> Path:
    """The package's data folder (looked up once: a model of the bot asks for a round's
    file at every answer it is asked for)."""
    return Path(str(resources.files("tavern_dice").joinpath("data")))


def save(tables: dict[tuple[int, int], RoundTable], key: str, path: Path) -> None:
    """Write ``tables`` (by dice) into ``key``'s folder ``path``, one file per round: its
    histories, their actions, each player's :func:`stored_rows` (``q0``, ``q1``) and its
    figures. Only the rounds given are written."""
    rules = TABLE_RULES[key].to_dict()
    for (a, b), table in sorted(tables.items()):
        arrays: dict[str, npt.NDArray[Any]] = {
            "parent": table.parent.astype(np.int32), "bid": table.bid.astype(np.int16),
            "slot_start": table.slot_start.astype(np.int32),
            "slot_action": table.slot_action.astype(np.int16),
            "q0": _stored(table, 0), "q1": _stored(table, 1),
        }
        write_round(path, key, rules, arrays, {"dice": [a, b], **table.meta})


def _stored(table: RoundTable, player: int) -> npt.NDArray[Any]:
    """``player``'s rows as the file stores them: as read, for a table read from a file
    (written again byte for byte), else quantised now."""
    if table.floats is None and table.stored is not None:
        return np.asarray(table.stored[player])
    return stored_rows(table, player)


def read_meta(path: Path) -> dict[str, Any]:
    """The JSON metadata of the table folder at ``path``: every round's figures (read now,
    not cached)."""
    key = path.name.removeprefix("liars_dice_heads_up_")
    rules = TABLE_RULES[key].to_dict() if key in TABLE_RULES else {}
    return read_folder_meta(path, key, rules)


@lru_cache(maxsize=4)
def _meta(path: str) -> dict[str, Any]:
    return read_meta(Path(path))


def forget_loaded() -> None:
    """Drop every cached table and metadata: for a process that rewrites table files
    (a build) and reads them again."""
    load_round.cache_clear()
    _rounds_in.cache_clear()
    _meta.cache_clear()


def metadata(key: str) -> dict[str, Any]:
    """The figures of a shipped table (its rounds and how each was solved)."""
    return _meta(str(data_path(key)))


@lru_cache(maxsize=8)
def _rounds_in(folder: Path) -> frozenset[tuple[int, int]]:
    """The rounds whose files a table folder holds."""
    return frozenset(dice for dice, _ in round_files(folder))


@lru_cache(maxsize=2)  # a heads-up game plays each round size once, the biggest first
def load_round(key: str, first: int, second: int, folder: Path | None = None) -> RoundTable:
    """The shipped policy of round ``(first bidder's dice, second's)`` under ``key`` (from
    the package data, or from ``folder``), its rows kept as stored."""
    path = round_file(data_path(key, folder), first, second)
    if not path.exists():
        raise TableError(f"the {key} table has no round with dice {(first, second)}")
    arrays, info = read_round(path)
    return RoundTable(
        OracleRound(TABLE_RULES[key], (first, second)),
        _ints(arrays["parent"]), _ints(arrays["bid"]), _ints(arrays["slot_start"]),
        _ints(arrays["slot_action"]), None, dict(info), (arrays["q0"], arrays["q1"]),
    )


def _ints(stored: Rows) -> npt.NDArray[np.int64]:
    return np.asarray(stored).astype(np.int64)


def heads_up_round(view: LiarsDiceView) -> tuple[int, int, int, int] | None:
    """``(first bidder's dice, second's, my player number, opponent)`` of the heads-up
    round ``view`` shows, bidding, with at most :data:`MAX_DICE` dice a side, or ``None``."""
    if view.seat is None or view.phase != "bidding" or view.starter is None:
        return None
    alive = [s for s, c in enumerate(view.dice_counts) if c > 0]
    if len(alive) != 2 or view.seat not in alive:
        return None
    other = alive[0] if alive[1] == view.seat else alive[1]
    mine, theirs = view.dice_counts[view.seat], view.dice_counts[other]
    if mine > MAX_DICE or theirs > MAX_DICE:
        return None
    if view.starter == view.seat:
        return mine, theirs, 0, other
    return theirs, mine, 1, other


def _round_of(view: LiarsDiceView) -> tuple[str, int, int, int, int] | None:
    """``(key, first bidder's dice, second's, my player number, opponent)`` of a
    heads-up round a table covers, or ``None``."""
    found = heads_up_round(view)
    rules = view.rules
    if view.sum_wagers and rules.wild_face is not None:
        # Every die counts toward a sum (L10): the round is the one without a wild face.
        rules = rules.replace(wild_face=None)
    key = table_key(rules)
    if found is None or key is None:
        return None
    return (key, *found)


def keep_legal(
    view: LiarsDiceView, named: Sequence[LiarsDiceAction], probs: FloatArray
) -> tuple[tuple[LiarsDiceAction, ...], FloatArray]:
    """A stored policy's actions and probabilities without the raises the table's rules
    forbid here, the rest renormalised per hand (a hand left with nothing accuses).

    Only a stand-in policy has such raises: a ``standard`` raise that repeats an earlier
    wager of the round after an ``either``-only raise (L5b)."""
    legal = set(view.legal_wagers)
    keep = [i for i, a in enumerate(named) if a == ACCUSE or a in legal]
    if len(keep) == len(named):
        return tuple(named), probs
    kept = tuple(named[i] for i in keep)
    probs = probs[:, keep]
    total = probs.sum(axis=1, keepdims=True)
    accuse = np.array([a == ACCUSE for a in kept])
    return kept, np.where(total > 0, probs / np.maximum(total, 1e-300), accuse[None, :] * 1.0)


def off_tree_policy(
    table: RoundTable, history: History, hands: Sequence[int], legal: Collection[int]
) -> tuple[list[int], FloatArray]:
    """A one-step answer where the opponent has left the table's histories.

    The table's own default there is to accuse (that is what its exploitability was
    certified with). ``strong`` answers so off a stand-in table (:func:`heads_up_policy`):
    it keeps the opponent's range as the table left it (their wagers while the round was in
    the table, read through the table's policy; nothing is read into the wager that left
    it), and for each of its hands takes the better of accusing (it wins if the standing
    wager is false) and the raise most likely to hold (as if it will be accused) among
    ``legal``, the wager numbers the table's rules allow now (a stand-in's own raises can
    include a repeat, L5b).
    """
    game = table.game
    player = len(history) % 2
    reach = table.opponent_reach(history, player)
    # Only the rules' raises: a stand-in's best raise that the rules forbid was dropped
    # later (keep_legal), leaving the hand to accuse.
    raises = [r for r in game.raises(history) if r in legal]
    bids = np.array([history[-1], *raises], dtype=np.int64)
    true, total = game.true_mass(player, bids, np.broadcast_to(reach, (bids.shape[0],
                                                                       reach.shape[0])))
    odds = true[:, list(hands)] / np.maximum(total, 1e-300)
    accuse = 1.0 - odds[0]
    probs = np.zeros((len(hands), 1 + len(raises)))
    if raises:
        best = odds[1:].argmax(axis=0)
        take = odds[1:].max(axis=0) > accuse
        probs[np.arange(len(hands)), np.where(take, best + 1, 0)] = 1.0
    else:
        probs[:, 0] = 1.0
    return [game.liar, *raises], probs


def heads_up_policy(
    view: LiarsDiceView, hands: Sequence[tuple[int, ...]], off_tree: str = "accuse"
) -> tuple[tuple[LiarsDiceAction, ...], FloatArray] | None:
    """The shipped policy's ``(actions, probabilities (hands x actions))`` for the seat
    whose view this is, holding each of ``hands``, on its turn; ``None`` where no table
    covers the round (three or more players, other rules, a round the rules' table
    lacks, or the table file missing).

    ``off_tree``: where the round has left the table's histories, ``'accuse'`` (the
    table's certified default), ``'odds'`` (:func:`off_tree_policy`), or ``'stand-in'``:
    the odds where the table is a stand-in, whose histories the rules' raises often leave,
    and on the rules' own table the certified accuse, save for a hand that makes the
    standing wager true by itself (accusing it loses for certain; a raise loses at most as
    much, so this cannot raise the certified exploitability). A 2026-12-05 check measured the odds
    answer on the own tables giving `lbr` 0.08 a round more at 2 v 4
    (``docs/strategy.md``).
    """
    found = _round_of(view)
    if found is None or view.turn != view.seat:
        return None
    key, first, second, player, _ = found
    table = _covering_table(key, first, second)
    if table is None:
        return None
    game = table.game
    try:
        history = tuple(game.index[w] for _, w in view.round_wagers)
        numbers = game.hands[player].indices(hands)
    except (KeyError, TavernError):
        return None
    # Off the histories, the hands that leave the table's certified accuse for the odds.
    leave = [False] * len(hands)
    if off_tree != "accuse" and history and table.node_of(history) is None:
        if off_tree == "odds" or game.rules != TABLE_RULES[key]:
            leave = [True] * len(hands)
        else:
            standing = view.round_wagers[-1][1]
            leave = [isinstance(standing, Wager)
                     and count_matching(h, standing, view.rules) >= standing.quantity
                     for h in hands]
    if any(leave):
        legal = {game.index[w] for w in view.legal_wagers if w in game.index}
        actions, probs = off_tree_policy(table, history, numbers, legal)
        # The answer's first action is the accuse (off_tree_policy).
        probs = np.where(np.array(leave)[:, None], probs, np.eye(len(actions))[0])
    else:
        actions, probs = table.policy(history, numbers)
    return keep_legal(
        view, [ACCUSE if a == game.liar else game.wagers[a] for a in actions], probs
    )


TABLE_STAND_INS: dict[str, str] = {"tavern": "tavern-standard"}
"""For a round a key's table lacks, the table played instead. Every ``standard`` raise is
an ``either`` raise (repeated wagers aside, which :func:`heads_up_policy` drops), so the
``standard`` policy is a legal strategy of the seed's round; it is not an equilibrium
there (an ``either``-only raise leaves its histories, and its best response may use those
raises), but it is a much better answer than no table at all (``docs/strategy.md``). The
shipped ``tavern`` table has every round up to 6 dice in play, so it plays only where a
build of one (``TAVERN_TABLES``) lacks a round: at the seed's 3 v 3 ``lbr`` gained 0.40 a
round against it, 0.05 against the seed's own table."""

STAND_IN_MAX_IN_PLAY = 6
"""A stand-in plays only rounds with at most this many dice in play: under the seed's rules
the bigger rounds are searched (:mod:`.search`), which ``lbr`` found the harder of the two
at 4 v 3 (it won 131 of 200 single rounds against the search, 142 of the same 200 against
the 7-dice stand-in; ``docs/strategy.md``)."""


def table_rounds(key: str) -> set[tuple[int, int]]:
    """The rounds ``(first bidder's dice, second's)`` ``key``'s own table has."""
    return {(info["dice"][0], info["dice"][1]) for info in metadata(key)["rounds"]}


def stand_in_rounds(key: str) -> list[tuple[int, int]]:
    """The rounds ``(first bidder's dice, second's)`` that ``key``'s own table lacks and
    its stand-in's table plays (:data:`TABLE_STAND_INS`), smallest first."""
    stand_in = TABLE_STAND_INS.get(key)
    if stand_in is None:
        return []
    own = table_rounds(key)
    rounds = {d for d in table_rounds(stand_in) if sum(d) <= STAND_IN_MAX_IN_PLAY}
    return sorted(rounds - own, key=lambda d: (d[0] + d[1], d))


def _covering_table(key: str, first: int, second: int) -> RoundTable | None:
    """``key``'s table of the round, else its stand-in's (up to
    :data:`STAND_IN_MAX_IN_PLAY` dice in play), else ``None``."""
    stand_in = TABLE_STAND_INS.get(key) if first + second <= STAND_IN_MAX_IN_PLAY else None
    for candidate in (key, stand_in):
        # A round with no file (most asked: the bigger rounds, searched) is known at once,
        # not by a failed load each time a model of the bot asks.
        if candidate is None or (first, second) not in _rounds_in(data_path(candidate)):
            continue
        try:
            return load_round(candidate, first, second)
        except (TableError, OSError):
            continue
    return None
