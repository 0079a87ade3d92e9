"""The base of the protocol's names: an enum that keeps a name this library does not know."""

from __future__ import annotations

from enum import Enum
from typing import Any


class WireName(str, Enum):
    """A name of the protocol. ``Kind("newName")`` never fails for a string: a name this
    library does not know is an unknown member (``is_known`` false, ``name`` UNKNOWN)
    whose ``value`` is the text as sent."""

    @classmethod
    def _missing_(cls, value: object) -> Any:
        if not isinstance(value, str):
            return None
        member = str.__new__(cls, value)
        member._name_ = "UNKNOWN"
        member._value_ = value
        return member

    @property
    def is_known(self) -> bool:
        return self._value_ in type(self)._value2member_map_

    def __str__(self) -> str:
        return str(self._value_)
