"""The DM's house-edge dial at the web table: ``GET /api/house-edge?edge=2%&bonuses=0,1,2,3``.

The create page's Dice Blackjack panel asks it for the table rules closest to a house
edge. The answer is :func:`tavern_dice.strategy.blackjack.dial.dial`'s, as ``tavern odds
blackjack --edge`` prints it: every candidate with its exact edges (as fractions, and as
floats for the page), and the chosen one with the whole ruleset to create the table with.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from tavern_dice.blackjack.rules import TAVERN
from tavern_dice.errors import RulesetError
from tavern_dice.strategy.blackjack.dial import Candidate, DialResult, dial, parse_edge
from tavern_dice.web.catalog import ActionError

MAX_EDGE = Fraction(1)
"""The dial's range: a house edge of -100 % to +100 % of the bet."""
MAX_QUERY = 32
"""Longest ``edge`` or ``bonuses`` text read."""
DEFAULT_BONUSES = (0, 1, 2, 3)


def read_edge(text: str) -> Fraction:
    """The ``edge`` parameter: ``2%``, ``-0.5%`` or ``0.02`` (a fraction of the bet).

    Raises:
        ActionError: naming ``edge`` and what it may be.
    """
    if len(text) > MAX_QUERY:
        raise ActionError("illegal", f"edge: at most {MAX_QUERY} characters", "edge")
    try:
        edge = parse_edge(text)
    except RulesetError as error:
        raise ActionError("illegal", f"edge: {error}", "edge") from None
    if abs(edge) > MAX_EDGE:
        raise ActionError("illegal", f"edge: a house edge is from -100% to 100% of the bet, "
                          f"not {float(edge):.2%}", "edge")
    return edge


def read_bonuses(text: str | None) -> tuple[int, ...]:
    """The ``bonuses`` parameter: the table's bonuses added on standing, ``0,1,2,3``.

    Raises:
        ActionError: naming ``bonuses`` and what they may be.
    """
    if text is None:
        return DEFAULT_BONUSES
    top = TAVERN.bonus_cap(TAVERN.max_proficiency_bonus)
    wanted = f"bonuses: one to four of 0-{top} separated by commas, such as 0,1,2,3"
    parts = text.split(",") if len(text) <= MAX_QUERY else []
    if not parts or not all(p.strip().isdigit() for p in parts):
        raise ActionError("illegal", f"{wanted}; not {text[:MAX_QUERY]!r}", "bonuses")
    values = tuple(int(p) for p in parts)
    if len(values) > len(DEFAULT_BONUSES) or any(v > top for v in values):
        raise ActionError("illegal", f"{wanted}; not {text!r}", "bonuses")
    return values


def candidate_dict(cand: Candidate, chosen: bool) -> dict[str, Any]:
    """One candidate: the dial's options, exact edges (fractions as text) and floats."""
    rules = cand.rules
    return {
        "payout": rules.payout_text(),
        "exact_numerator": rules.exact_numerator,
        "exact_denominator": rules.exact_denominator,
        "house_exact_beats_player_exact": rules.house_exact_beats_player_exact,
        "house_needs_under": rules.house_needs_under,
        "max_added_bonus": rules.max_added_bonus,
        "edges": [float(e) for e in cand.edges],
        "edges_exact": [str(e) for e in cand.edges],
        "table_edge": float(cand.table_edge),
        "table_edge_exact": str(cand.table_edge),
        "changes": cand.changes,
        "flags": cand.flags(),
        "chosen": chosen,
    }


def result_dict(result: DialResult) -> dict[str, Any]:
    """The endpoint's answer: candidates lowest edge first, as the CLI lists them."""
    chosen = result.chosen
    ordered = sorted(result.candidates, key=lambda c: (c.table_edge, c.changes))
    return {
        "target": float(result.target),
        "target_exact": str(result.target),
        "bonuses": list(chosen.bonuses),
        "candidates": [candidate_dict(c, c is chosen) for c in ordered],
        "chosen": candidate_dict(chosen, True),
        "rules": chosen.rules.to_dict(),
    }


def house_edge_router() -> APIRouter:
    """``GET /api/house-edge``: the dial, off the event loop (a cold solve takes seconds)."""
    router = APIRouter()

    @router.get("/api/house-edge")
    async def house_edge(edge: str | None = None, bonuses: str | None = None
                         ) -> dict[str, Any]:
        if edge is None:
            raise ActionError("illegal", "edge: give the house edge wanted, such as "
                              "?edge=2% or ?edge=0.02", "edge")
        target = read_edge(edge)
        table = read_bonuses(bonuses)
        result = await run_in_threadpool(_dial, target, table)
        return result_dict(result)

    return router


def _dial(target: Fraction, bonuses: Sequence[int]) -> DialResult:
    return dial(target, bonuses)
