"""Shared machinery for frozen ruleset objects: named options, JSON round trip."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Self

from tavern_dice.errors import RulesetError


class RulesetMixin:
    """Gives a frozen dataclass ruleset ``to_dict``, ``from_dict`` and ``replace``."""

    def to_dict(self) -> dict[str, Any]:
        """Return the ruleset as JSON-ready data (enums as their values)."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            out[field.name] = value.value if isinstance(value, enum.Enum) else value
        return out

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
