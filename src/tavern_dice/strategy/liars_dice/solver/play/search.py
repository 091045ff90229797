"""Decision-time search for heads-up rounds with no table: depth-2 re-solving over ranges.

The blueprints (:mod:`.blueprint`) remember one or two wagers. Under the seed's ``either``
rule that is what a full-recall opponent takes apart: a raise to a higher face at a lower
quantity (an *escape*, "2 fours" after "3 twos") brings the round back to a wager the
``standard`` blueprint met only at the start of a round, and the blueprint answers as if
nothing had been said yet, its own hand still hidden. The local best response won 78 % of
3 v 3 rounds of the seed's rules against the last-wager blueprint playing so.

Here the bot re-solves the round from where it stands, in the manner of continual
re-solving (DeepStack; ReBeL) with the blueprint as leaf values (Libratus's depth-limited
search), on every decision:

* **Ranges.** Both players' hand distributions follow the round's whole history: at each
  earlier wager its maker's chance of it is read from the search solved at that point
  (the viewer's own wagers exactly, as it played them; the opponent's through the same
  search with the wager it made beside the searched raises at its root, mixed 95 : 5 with
  a uniform choice over every legal action so that no wager is impossible). With
  :data:`RESOLVE` (on) the viewer's own turns do not trust that model but re-solve safely
  (Burch, Johanson & Bowling 2014; DeepStack's continual re-solving): the opponent's range
  chosen by a gadget in which each of its hands may take the value it had when it wagered,
  or enter the subgame.
* **Subgame.** The player to act accuses or raises; after a raise the other accuses or
  raises; after that the round is valued by the ``standard`` blueprint played out from
  there by both (:mod:`.leaves`: the last-wager blueprint, or with ``leaves.RECALL`` 2 the
  two-wager one where the two wagers rise; with ``leaves.CONTINUATIONS`` the answering
  player also picks how it plays on). Raises are the legal ones (the ``either`` escapes
  and the repeat rule, L5b, included) up to :data:`.subgame.SPREAD` above the smallest of each
  face.
* **Solve.** Predictive regret matching+ over both players' hands at once, with
  alternating updates, for as many iterations as a fixed amount of work allows
  (:data:`SOLVE_WORK`), the searcher's average strategy at the root returned for every
  hand: a mixed policy, consistent with the range it keeps for itself.

Everything is a function of the public history, so a replay repeats it and an exploiter
that copies the bot can replay it on every hand. A decision takes one or two searches, each
about 45-70 ms of CPU at 5 v 5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from tavern_dice.liars_dice.actions import LiarsDiceAction
from tavern_dice.liars_dice.rules import LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import (
    AnyWager,
    is_raise,
)
from tavern_dice.strategy.blas import one_blas_thread
from tavern_dice.strategy.liars_dice.solver.play.blueprint import (
    Blueprint,
    blueprint_game,
    blueprint_key,
    blueprint_round,
    load_blueprint,
)
from tavern_dice.strategy.liars_dice.solver.play.leaves import LeafValues, leaf_values
from tavern_dice.strategy.liars_dice.solver.play.subgame import (
    Subgame,
    hands_first,
    legal_after,
    match,
    match_first,
)
from tavern_dice.strategy.liars_dice.solver.play.tables import TableError

FloatArray = npt.NDArray[np.float64]

SOLVE_WORK = 220_000_000
"""What a solve may spend on its leaves, in ``LeafSet.work`` summed over its iterations of
predictive regret matching+ (Farina, Kroer & Sandholm 2021; quadratic averaging,
alternating updates): the iterations are this over one iteration's work, from
:data:`MIN_ITERATIONS` to :data:`MAX_ITERATIONS`. A bound in work, not in seconds, so that
a replay repeats every decision. At 5 v 5 a solve gets 14-16 iterations, about 45-70 ms
on this project's 2-core machine (60-100 ms before the leaves were read in one product,
``docs/experiments.md``); the rounds of 8 dice or fewer 40. Alternating updates
converge about twice as fast as the simultaneous ones used before: NashConv at the
opening of 5 v 5 0.064 after 15 iterations against 0.064 after 30 simultaneous ones, 0.055
after 20 against 0.101 (4 v 3: 0.072 against 0.062, and 0.058 against 0.105)."""
MIN_ITERATIONS = 14
MAX_ITERATIONS = 40


def iterations_for(work: int) -> int:
    """The solver's iterations for a subgame whose iteration costs ``work``
    (``LeafSet.work``)."""
    return max(MIN_ITERATIONS, min(MAX_ITERATIONS, SOLVE_WORK // max(work, 1)))

RESOLVE = True
"""Re-solve the searcher's own turns safely: the opponent's range is not the one modelled
from its wagers but what the re-solving gadget lets it pick (:func:`solve`'s ``follow``;
:meth:`RoundSearcher._follow` says where the values come from). **On** since 2026-12-06: on
the same 100 rounds ``lbr`` gained 0.259 [0.190, 0.329] a round at 4 v 4 against 0.310
[0.246, 0.374] without, and 0.252 [0.178, 0.326] at 5 v 3 against 0.391 [0.331, 0.451];
heads-up against ``equilibrium`` (5 dice each, seed's rules, 200 games, the same seeds)
``strong`` won 110 with it and 111 without (``docs/strategy.md``). On 2026-12-02 it was left off:
its 100 played rounds (+-0.18) saw no gain, and ``strong`` then searched the 7-dice rounds
too, where reading an honest opponent's wagers had won it 70 % of 200 games against
``equilibrium``, 53-55 % with it."""
RESOLVE_ESCAPES = False
"""Re-solve safely (as :data:`RESOLVE`) only the searcher's turns that answer an escape of
the opponent's (a raise to a lower quantity of a higher face, which only the ``either``
raise allows): the model reads those worst (after "1 six" over "2 fives" it gave hands
with a six a chance of 0.52 and hands without one 0.50), while the ``standard``
blueprints never make one."""
MODEL_EVERY = False
"""Model the opponent's wager with every legal raise at the root of its search (about 60
at 5 v 5, some 700 leaves: 0.3-0.6 s a solve), instead of the searched few and the wager
it made (about 13 raises: 0.1 s). **Off** since 2026-12-07: the chance of the wager made,
hand by hand, is what the ranges read, and the few it was weighed against are the ones the
search itself plays (``docs/experiments.md`` has the measured cost and strength)."""
OWN_RANGE_ONLY = False
"""On the searcher's own re-solved turns read only its own range (:meth:`RoundSearcher.
own_reach`): the gadget picks the opponent's, and ``solve`` never reads the modelled one
there, so the search that models the opponent's last wager runs only where the searcher's
previous search did not meet that answer (or the opponent opened). The same choices.
**Off**: at 5 v 5 it took the searched decisions' p50 from 129 to 74 ms and ones wild's
from 153 to 93 ms, but the 99th percentile from 170 to 191 ms and 203 to 354 ms (whole
games 161 to 184 ms): where the searcher's previous search did not meet the answer, the
opponent's range is wanted after all, and every search modelling its earlier wagers
runs on that one decision (``docs/experiments.md``)."""
OPPONENT_FLOOR = 0.05
"""Share of a uniform choice mixed into the opponent's modelled chances of its wagers."""
BLUEPRINT_UNTIL_ESCAPE = False
"""Play the two-wager blueprint while the wagers rise in the ``standard`` order and search
from the first escape, ranges over the rising wagers read from the blueprint. **Off**:
``lbr`` won 137 of 200 single 5 v 5 rounds against it, 127 against the search from the
opening (seeds 5000-5199; ``docs/strategy.md``)."""
_CACHE = 1_000  # solves (up to 0.1 MB each at 5 v 5) and ranges kept per round size


@dataclass(frozen=True)
class Solution:
    """A solved depth-2 subgame.

    Attributes:
        actions: the root's actions (the accusation first where there is a standing wager).
        strategy: the actor's average strategy, ``(its hands, actions)``.
        answers: per root raise (in order), the other's actions: the accusation, then raises.
        answer_strategy: the other's average strategy, ``(root raises, its hands, widest
            answers)``, zero past each raise's own answers.
        values: the actor's counterfactual value of each root action, ``(its hands,
            actions)``, against the other's average strategy (its hands weighted by chance
            and reach).
        answer_values: the other's counterfactual value of each answer, ``(root raises,
            its hands, widest answers)``, against the actor's average strategy: what the
            actor's next search holds it to after that raise and answer (``follow``).
    """

    actions: list[LiarsDiceAction]
    strategy: FloatArray
    answers: list[list[LiarsDiceAction]]
    answer_strategy: FloatArray
    values: FloatArray
    answer_values: FloatArray


def solve(
    leaves: LeafValues, rules: LiarsDiceRules, actor: int, wagers: Sequence[AnyWager],
    reach: tuple[FloatArray, FloatArray], every: bool = False,
    follow: FloatArray | None = None, choose: bool = True, also: AnyWager | None = None,
    iterations: int = 0,
) -> Solution:
    """Solve the depth-2 subgame after ``wagers`` (oldest first) with ``actor`` (0: the
    first bidder) to act and both players' ``reach`` (per hand, chance excluded): the
    actor's raises are the searched few (:data:`.subgame.SPREAD`), or ``every`` legal one.

    ``follow`` (per hand of the other, who made the last wager): its counterfactual value
    of that wager in an earlier search (:attr:`Solution.answer_values` of the actor's own
    before its last raise, or :attr:`Solution.values` of one that modelled the wager). The other's
    range is then not ``reach`` but what the re-solving gadget of Burch, Johanson &
    Bowling (2014), as DeepStack uses it, lets it choose: each of its hands takes
    ``follow`` or enters the subgame, by regret matching, so the actor's strategy holds
    every hand of the other to about its ``follow`` value whatever range it really has.

    ``choose``: the other picks, per leaf and hand, among the continuations the leaves
    hold (``leaves.CONTINUATIONS``; the searcher's own turns), else plays on by the
    blueprint (a search that models the opponent's wager).

    ``also``: a raise the actor's root holds beside the searched few (the wager a modelled
    opponent made; :data:`MODEL_EVERY` off). ``iterations``: of the solver; 0, as
    :func:`iterations_for` the subgame's work."""
    a, b = actor, 1 - actor
    w_a, chance_b = leaves.game.hands[a].prob * reach[a], leaves.game.hands[b].prob
    w_b = chance_b * reach[b]
    n_a, n_b = w_a.shape[0], w_b.shape[0]
    sub = Subgame(leaves, rules, actor, wagers, every, also, choose)
    root, first_raise, k, leaf, n_c = sub.root, sub.first_raise, sub.k, sub.leaf, sub.n_c
    valid, uniform = sub.valid, sub.uniform
    gadget = follow is not None and bool(wagers)
    regret_g = np.zeros((n_b, 2))  # the gadget: follow, enter
    last_g = np.zeros_like(regret_g)
    s_g = np.full((n_b, 2), 0.5)
    if gadget:
        # The other's score per hand when the actor accuses its standing wager.
        u_sb, vt_sb = leaves.raise_accused(b, wagers[-1])
        w_b = chance_b * s_g[:, 1]  # each hand of the other follows or enters, evenly at first
    standing = leaves.standing_accused(a, wagers[-1], w_b) if wagers else None
    regret_a, total_a, last_a = (np.zeros((n_a, len(root))) for _ in range(3))
    # (k, width, n_b): sums over the answers then run along whole rows of hands.
    regret_b, total_b, last_b = (np.zeros((k, sub.width, n_b)) for _ in range(3))
    # The other's continuation past the horizon, per leaf and hand (one: the blueprint).
    regret_c = np.zeros((n_c, leaf.size, n_b))
    # With one continuation it is chosen for sure, and nothing is learnt (the usual search).
    total_c = np.zeros_like(regret_c) if n_c > 1 else np.ones_like(regret_c)
    last_c = np.zeros_like(regret_c)
    s_c = match_first(regret_c) if n_c > 1 else np.ones_like(regret_c)
    s_a = match(regret_a, None)
    s_b = uniform
    for t in range(1, (iterations or iterations_for(leaf.work)) + 1):
        # Alternating updates (as CFR+ makes them): the actor against the other's latest
        # strategy, then the other against the actor's new one; predictive regret
        # matching+, the last instantaneous regret as the prediction.
        q_a = np.zeros((n_a, len(root)))
        q_a[:, first_raise:] = sub.root_values(w_b * s_b, s_c)
        if standing is not None:
            q_a[:, 0] = standing
        last_a = q_a - (q_a * s_a).sum(axis=1, keepdims=True)
        regret_a = np.maximum(regret_a + last_a, 0.0)
        total_a += t * t * s_a  # quadratic averaging, as the solver's PCFR+
        s_a = match(regret_a + last_a, None)
        x = w_a[:, None] * s_a[:, first_raise:]  # (n_a, k): the actor's reach of each raise
        q_b, q_c = sub.answer_values(x, s_c)
        if gadget:
            assert follow is not None
            enter = (q_b * s_b).sum(axis=1).sum(axis=0)
            enter += u_sb @ (vt_sb @ (w_a * s_a[:, 0]))
            q_g = np.stack([follow, enter], axis=1)
            last_g = q_g - (q_g * s_g).sum(axis=1, keepdims=True)
            regret_g = np.maximum(regret_g + last_g, 0.0)
            s_g = match(regret_g + last_g, None)
            w_b = chance_b * s_g[:, 1]
            standing = leaves.standing_accused(a, wagers[-1], w_b)
        last_b = np.where(valid, q_b - (q_b * s_b).sum(axis=1, keepdims=True), 0.0)
        regret_b = np.maximum(regret_b + last_b, 0.0)
        if n_c > 1:
            last_c = q_c - (q_c * s_c).sum(axis=0, keepdims=True)
            regret_c = np.maximum(regret_c + last_c, 0.0)
            total_c += t * t * s_c
            s_c = match_first(regret_c + last_c)
        total_b += t * t * s_b
        # Zero where no answer is: both terms are.
        s_b = match(regret_b + last_b, uniform, axis=1)
    avg_a: FloatArray = total_a / total_a.sum(axis=1, keepdims=True)
    avg_b: FloatArray = np.where(valid, total_b, 0.0)
    avg_b /= np.maximum(avg_b.sum(axis=1, keepdims=True), 1e-300)
    # Against the other's last range (with the gadget, its last choice): the values a later
    # search reads are those of searches without one (the modelled opponent's) or the
    # answers' values, which weigh the actor's reach, not the other's.
    cfv = np.zeros((n_a, len(root)))
    avg_c: FloatArray = total_c / np.maximum(total_c.sum(axis=0, keepdims=True), 1e-300)
    answer_cfv, _ = sub.answer_values(w_a[:, None] * avg_a[:, first_raise:], avg_c)
    cfv[:, first_raise:] = sub.root_values(w_b * avg_b, avg_c)
    if standing is not None:
        cfv[:, 0] = standing
    return Solution(root, avg_a, sub.answer_lists, hands_first(avg_b), cfv,
                    hands_first(answer_cfv))


class RoundSearcher:
    """Searches one heads-up round size for one player, remembering ranges and solves by
    history (both are functions of the public wagers alone)."""

    def __init__(self, key: str, first: int, second: int) -> None:
        self.key, self.first, self.second = key, first, second
        self.game = blueprint_game(key, first, second)
        self._blueprint: Blueprint | None = None
        if BLUEPRINT_UNTIL_ESCAPE:
            try:
                self._blueprint = load_blueprint(key, first, second, recall=2)
            except (TableError, OSError):
                self._blueprint = None  # none: the search plays from the opening
        self._reach: dict[tuple[tuple[AnyWager, ...], int], tuple[FloatArray, FloatArray]] = {}
        self._own: dict[tuple[tuple[AnyWager, ...], int], FloatArray] = {}
        self._solves: dict[tuple[tuple[AnyWager, ...], int, AnyWager | None], Solution] = {}
        self.dice = first + second

    @cached_property
    def leaves(self) -> LeafValues:
        """The round's leaf values, built when a search first needs them (a round may open
        on the two-wager blueprint) and then held for the round: the shared cache keeps
        two rounds, and a server's tables at other round sizes would push this one out."""
        return leaf_values(self.key, self.first, self.second)

    def reach(self, rules: LiarsDiceRules, wagers: tuple[AnyWager, ...],
              viewer: int) -> tuple[FloatArray, FloatArray]:
        """Both players' reach of each hand after ``wagers``, as ``viewer`` keeps them."""
        key = (wagers, viewer)
        found = self._reach.get(key)
        if found is not None:
            return found
        if not wagers:
            n0, n1 = self.game.n_states
            found = (np.ones(n0), np.ones(n1))
        else:
            before = self.reach(rules, wagers[:-1], viewer)
            maker = (len(wagers) - 1) % 2
            parts = list(before)
            if maker == viewer:
                parts[viewer] = self.own_reach(rules, wagers, viewer)
            else:
                played = self.blueprint_chance(wagers, maker)
                chance: FloatArray | float
                if played is not None:
                    chance, width = played
                else:
                    root, avg = self.policy(rules, wagers[:-1], viewer, before, wagers[-1])
                    # The floor spreads over every legal action, whichever few were solved.
                    width = 1 + len(legal_after(rules, self.dice, wagers[:-1])) \
                        if wagers[:-1] else len(legal_after(rules, self.dice, ()))
                    # A wager the search would not consider (another policy made it).
                    chance = avg[:, root.index(wagers[-1])] if wagers[-1] in root else 1.0
                chance = (1 - OPPONENT_FLOOR) * chance + OPPONENT_FLOOR / width
                parts[maker] = before[maker] * chance
            found = (parts[0], parts[1])
        if len(self._reach) > _CACHE:
            self._reach.clear()
        self._reach[key] = found
        return found

    def own_reach(self, rules: LiarsDiceRules, wagers: tuple[AnyWager, ...],
                  viewer: int) -> FloatArray:
        """The viewer's own reach of each of its hands after ``wagers``: :meth:`reach`'s
        part for it, read from its own searches alone (exactly as it played them), with
        no model of the opponent's wagers."""
        key = (wagers, viewer)
        found = self._own.get(key)
        if found is not None:
            return found
        if not wagers:
            found = np.ones(self.game.n_states[viewer])
        else:
            found = self.own_reach(rules, wagers[:-1], viewer)
            maker = (len(wagers) - 1) % 2
            if maker == viewer:
                played = self.blueprint_chance(wagers, maker)
                if played is not None:
                    found = found * played[0]
                else:
                    root, avg = self.policy(rules, wagers[:-1], viewer)
                    # A wager its search would not consider (another policy made it): no news.
                    if wagers[-1] in root:
                        found = found * avg[:, root.index(wagers[-1])]
        if len(self._own) > _CACHE:
            self._own.clear()
        self._own[key] = found
        return found

    def rising_numbers(self, wagers: Sequence[AnyWager]) -> list[int] | None:
        """The wager numbers of ``wagers`` where they rise in the ``standard`` order (no
        escape yet) and so the two-wager blueprint plays them (:data:`BLUEPRINT_UNTIL_ESCAPE`),
        else ``None``."""
        if self._blueprint is None:
            return None
        numbers = [self.game.bids.index(w) for w in wagers]
        return numbers if all(a < b for a, b in pairwise(numbers)) else None

    def blueprint_chance(self, wagers: Sequence[AnyWager],
                         maker: int) -> tuple[FloatArray, int] | None:
        """Where ``wagers`` all rise: per hand of ``maker`` the blueprint's chance of the
        last, and how many actions it chose among; else ``None``."""
        numbers = self.rising_numbers(wagers)
        if self._blueprint is None or numbers is None:
            return None
        actions, probs = self._blueprint.policy(
            numbers[:-1], maker, range(self.game.n_states[maker]))
        if numbers[-1] not in actions:
            return None
        chance = np.asarray(probs[:, actions.index(numbers[-1])], dtype=np.float64)
        return chance, len(actions)

    def policy(self, rules: LiarsDiceRules, wagers: tuple[AnyWager, ...], viewer: int,
               reach: tuple[FloatArray, FloatArray] | None = None,
               made: AnyWager | None = None) -> tuple[list[LiarsDiceAction], FloatArray]:
        """The search's root actions and strategy (every hand of the player to act) after
        ``wagers``: the viewer's own play, or, for the opponent, with the wager it ``made``
        beside the searched few at the root (:data:`MODEL_EVERY`: every legal raise), so
        that whatever it wagered has a chance."""
        solved = self.solution(rules, wagers, viewer, reach, made)
        return solved.actions, solved.strategy

    def solution(self, rules: LiarsDiceRules, wagers: tuple[AnyWager, ...], viewer: int,
                 reach: tuple[FloatArray, FloatArray] | None = None,
                 made: AnyWager | None = None) -> Solution:
        """The search after ``wagers`` as :meth:`policy` solves it. On the viewer's own turn
        after the opponent's wager, with :data:`RESOLVE`, the opponent's range is the
        re-solving gadget's, each hand held to its value from :meth:`_follow`."""
        actor = len(wagers) % 2
        modelled = actor != viewer
        also = made if modelled and not MODEL_EVERY else None
        key = (wagers, viewer, also)
        found = self._solves.get(key)
        if found is None:
            resolve = RESOLVE or (RESOLVE_ESCAPES and _escaped(wagers))
            follow = self._follow(rules, wagers, viewer) if resolve and not modelled else None
            if reach is None and OWN_RANGE_ONLY and follow is not None and wagers:
                # The gadget picks the opponent's range itself (solve never reads its
                # reach then): only the viewer's own is needed, and the searches that
                # model the opponent's wagers are not run for a range nobody reads.
                mine = self.own_reach(rules, wagers, viewer)
                other = np.ones(self.game.n_states[1 - viewer])
                reach = (mine, other) if viewer == 0 else (other, mine)
            elif reach is None:
                reach = self.reach(rules, wagers, viewer)
            found = solve(self.leaves, rules, actor, wagers, reach,
                          every=modelled and MODEL_EVERY, choose=not modelled,
                          follow=follow, also=also)
            if len(self._solves) > _CACHE:
                self._solves.clear()
            self._solves[key] = found
        return found

    def _follow(self, rules: LiarsDiceRules, wagers: tuple[AnyWager, ...],
                viewer: int) -> FloatArray | None:
        """The opponent's values of its last wager, per hand, that the viewer's search now
        holds it to: from the viewer's own search before its last raise, where that
        search met this answer (DeepStack's continual re-solving); else (the opening wager,
        an answer that search did not consider) from the search that modelled the
        opponent's wager; ``None`` before any wager."""
        if not wagers:
            return None
        if len(wagers) >= 2:
            mine = self.solution(rules, wagers[:-2], viewer)
            if wagers[-2] in mine.actions:
                raised = mine.actions.index(wagers[-2]) - (len(mine.actions)
                                                           - len(mine.answers))
                answers = mine.answers[raised]
                if wagers[-1] in answers:
                    return mine.answer_values[raised, :, answers.index(wagers[-1])]
        theirs = self.solution(rules, wagers[:-1], viewer, made=wagers[-1])
        if wagers[-1] in theirs.actions:
            return theirs.values[:, theirs.actions.index(wagers[-1])]
        return None


def _escaped(wagers: Sequence[AnyWager]) -> bool:
    """Whether the last of ``wagers`` is an escape: a raise the ``standard`` order
    would refuse (the engine's L5 test), so one only the ``either`` raise allows."""
    return len(wagers) >= 2 and not is_raise(wagers[-1], wagers[-2], RaiseRule.STANDARD)


def applies(rules: LiarsDiceRules) -> bool:
    """Whether the search plays rounds of ``rules``: the seed's ``either`` raise, where a
    blueprint only stands in (the ``standard`` rounds keep their own blueprints)."""
    return rules.raise_rule is RaiseRule.EITHER and blueprint_key(rules) is not None


def search_policy(
    view: LiarsDiceView, hands: Sequence[tuple[int, ...]],
    searchers: dict[tuple[str, int, int], RoundSearcher],
) -> tuple[tuple[LiarsDiceAction, ...], FloatArray] | None:
    """The search's ``(actions, probabilities (hands x actions))`` for the seat whose view
    this is, holding each of ``hands``, on its turn in a heads-up round with 7-10 dice in
    play under rules it :func:`applies` to; ``None`` elsewhere. ``searchers`` keeps each
    round size's memory between decisions (one dict per bot)."""
    found = blueprint_round(view) if applies(view.rules) else None
    if found is None:
        return None
    key, first, second, player = found
    searcher = searchers.get((key, first, second))
    if searcher is None:
        # Rounds only shrink in a heads-up game: the rounds left behind (their ranges,
        # their solves, their leaf values) go.
        searchers.clear()
        try:
            searcher = RoundSearcher(key, first, second)
        except (TableError, OSError):
            return None
        searchers[(key, first, second)] = searcher
    wagers = tuple(w for _, w in view.round_wagers)
    if searcher.rising_numbers(wagers) is not None:
        return None  # the two-wager blueprint plays the rising wagers
    # One BLAS thread, whoever asks: threads split a product's sums differently, and the
    # last digits of its float32 sums with them, so a replay could drift.
    with one_blas_thread():
        root, avg = searcher.policy(view.rules, wagers, player)
    index = searcher.game.hands[player]
    rows = avg[index.indices(hands)]
    return tuple(root), rows
