"""Players' display names: cleaned, refused when reserved, and compared as people read
them.

Two names are the same name when a reader could take one for the other: after Unicode
NFKC and case folding ("Ann", "ANN", "Ａｎｎ"), and after the confusable skeleton of
Unicode TR39 ("Аnn" with a Cyrillic А). The look-alike data is the Unicode consortium's
confusables list as the ``confusable_homoglyphs`` package ships it, not a table of our
own: each character stands for the smallest member of its look-alike group.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs.confusables import confusables_data

RESERVED_NAMES = ("You", "DM", "The DM", "Host", "The host")
"""Names the pages give the viewer ("You wager 3 fives") and the table's host (the DM):
a player called so would read, on everyone's screen, as someone else acting."""


@functools.lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """The character that stands for ``char``'s look-alike group (itself if none)."""
    group = [char]
    for entry in confusables_data.get(char, ()):
        other = entry["c"]
        if len(other) == 1:
            group.append(other)
    return min(group)


def skeleton(name: str, *, fold_first: bool = True) -> str:
    """``name`` as it looks: NFKC, case folded, and each character replaced by its
    look-alike group's prototype, repeated until nothing changes (a prototype may fold
    further: Cyrillic "А" folds to "а", which looks like Latin "a").

    Folding case first lets "You" meet "you" whatever the groups of "Y" and "y" are;
    mapping first lets capitals meet capitals ("ТНЕ" in Cyrillic is "THE", though its
    small letters look nothing like "the"): :func:`same_name` tries both.

    >>> skeleton("Аnn") == skeleton("ann") == skeleton("ANN")
    True
    >>> skeleton("Ann") == skeleton("Anne")
    False
    """
    text = unicodedata.normalize("NFKC", name)
    for _ in range(4):
        step = text
        if fold_first:
            step = unicodedata.normalize("NFKC", step.casefold())
        step = "".join(_prototype(ch) for ch in step)
        step = unicodedata.normalize("NFKC", step.casefold())
        step = "".join(_prototype(ch) for ch in step)
        if step == text:
            break
        text = step
    return " ".join(text.split())


def same_name(a: str, b: str) -> bool:
    """Whether two display names would be taken for the same person: letter case,
    compatibility forms and look-alike letters aside.

    >>> same_name("Ann", "ANN"), same_name("Ann", "Аnn"), same_name("Ann", "Anne")
    (True, True, False)
    """
    return any(skeleton(a, fold_first=f) == skeleton(b, fold_first=f) for f in (True, False))


def reserved(name: str) -> str | None:
    """The reserved name ``name`` would be taken for ("You", "DM"...), or ``None``."""
    return next((r for r in RESERVED_NAMES if same_name(name, r)), None)
