"""Gold as integer copper pieces.

1 gp = 10 sp = 100 cp. Every amount in this project is an ``int`` of copper
pieces; floats never hold money.

>>> format_cp(1234)
'12 gp 3 sp 4 cp'
>>> format_cp(-150)
'-1 gp 5 sp'
>>> parse_cp("2 gp 5 sp")
250
>>> parse_cp("75")
75
"""

from __future__ import annotations

import re

from tavern_dice.errors import TavernError

CP_PER_SP = 10
CP_PER_GP = 100

_UNIT = {"gp": CP_PER_GP, "sp": CP_PER_SP, "cp": 1}
_TOKEN = re.compile(r"(\d+)\s*(gp|sp|cp)?", re.IGNORECASE)


def gp(amount: int) -> int:
    """Return ``amount`` gold pieces as copper pieces (``gp(3) == 300``)."""
    return amount * CP_PER_GP


def format_cp(cp: int) -> str:
    """Show a copper amount as ``'G gp S sp C cp'``, leaving out zero units.

    Zero is ``'0 cp'``; negative amounts get one leading minus sign.
    """
    if cp == 0:
        return "0 cp"
    sign = "-" if cp < 0 else ""
    rest = abs(cp)
    parts = []
    for unit, size in _UNIT.items():
        count, rest = divmod(rest, size)
        if count:
            parts.append(f"{count} {unit}")
    return sign + " ".join(parts)


def parse_cp(text: str) -> int:
    """Read an amount such as ``'5 gp'``, ``'1gp 5sp'`` or ``'250'`` (bare numbers are cp).

    Raises:
        TavernError: if the text is not a sequence of ``N [gp|sp|cp]`` terms.
    """
    cleaned = text.strip()
    if not cleaned:
        raise TavernError("no amount given; write e.g. '5 gp', '2 gp 5 sp' or '250' (cp)")
    total = 0
    pos = 0
    for match in _TOKEN.finditer(cleaned):
        if cleaned[pos : match.start()].strip(" ,"):
            break
        total += int(match.group(1)) * _UNIT[(match.group(2) or "cp").lower()]
        pos = match.end()
    if cleaned[pos:].strip(" ,") or pos == 0:
        raise TavernError(
            f"cannot read {text!r} as an amount; write e.g. '5 gp', '2 gp 5 sp' or '250' (cp)"
        )
    return total
