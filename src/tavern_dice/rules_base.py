"""Shared machinery for frozen ruleset objects: named options, JSON round trip."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any, Self

from tavern_dice.errors import RulesetError

_FIELD_TYPES: dict[type, dict[str, tuple[type, ...]]] = {}


def _field_types(cls: type) -> dict[str, tuple[type, ...]]:
    """Each field's accepted runtime types, read once from the class's annotations."""
    known = _FIELD_TYPES.get(cls)
    if known is not None:
        return known
    hints = typing.get_type_hints(cls)
    out: dict[str, tuple[type, ...]] = {}
    for field in dataclasses.fields(cls):
        hint = hints[field.name]
        args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        out[field.name] = tuple(a for a in args if isinstance(a, type))
    _FIELD_TYPES[cls] = out
    return out


_last_dict: tuple[object, dict[str, Any]] = (None, {})
"""The ruleset last turned into data, and that data: ``(ruleset, data)``, replaced as one
(bots build views on worker threads)."""


class RulesetMixin:
    """Gives a frozen dataclass ruleset ``to_dict``, ``from_dict`` and ``replace``."""

    def check_field_types(self) -> None:
        """Refuse an option of the wrong type: ``2.5`` or ``"5"`` where a whole number
        belongs, ``1`` where ``true``/``false`` does (a ``bool`` is an ``int`` to Python,
        and ``6.0 == 6``, so range checks alone would let both through).

        Raises:
            RulesetError: naming the option, the value and the type it needs.
        """
        words = {int: "a whole number", bool: "true or false", type(None): "None"}
        for name, allowed in _field_types(type(self)).items():
            value = getattr(self, name)
            if type(value) in allowed:
                continue
            wanted = " or ".join(
                f"one of {[m.value for m in t]}" if issubclass(t, enum.Enum)
                else words.get(t, t.__name__)
                for t in allowed
            )
            raise RulesetError(f"{name} must be {wanted}, not {value!r}")

    def to_dict(self) -> dict[str, Any]:
        """Return the ruleset as JSON-ready data (enums as their values)."""
        global _last_dict
        ruleset, data = _last_dict
        if ruleset is not self:  # a table asks for the same ruleset in every frame it builds
            data = {}
            for name in _field_types(type(self)):  # the fields in order, read once per class
                value = getattr(self, name)
                data[name] = value.value if isinstance(value, enum.Enum) else value
            _last_dict = (self, data)
        return dict(data)  # flat (numbers, text, None): a copy is the caller's own

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Build a ruleset from :meth:`to_dict` output.

        Raises:
            RulesetError: for an unknown option or an invalid value.
        """
        fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise RulesetError(f"unknown ruleset options {unknown}; known: {sorted(fields)}")
        values: dict[str, Any] = {}
        for name, value in data.items():
            default = getattr(cls(), name)
            if isinstance(default, enum.Enum):
                try:
                    value = type(default)(value)
                except ValueError:
                    choices = [m.value for m in type(default)]
                    raise RulesetError(f"{name} must be one of {choices}, not {value!r}") from None
            values[name] = value
        return cls(**values)

    def replace(self, **changes: Any) -> Self:
        """Return a copy with some options changed (validated again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]
