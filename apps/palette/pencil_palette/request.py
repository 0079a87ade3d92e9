"""The request pencil-actions writes on the first line of standard input, read and checked.

Nothing in it is trusted: every field is checked for its type and size, and a mistake is
reported with the field (and the item's index) it is in, never as a traceback."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

MAX_REQUEST_BYTES = 64 * 1024
MAX_ITEMS = 32
MAX_LABEL_CHARACTERS = 64
MAX_ID_BYTES = 64
ID_PATTERN = re.compile(r"[A-Za-z0-9._-]+")
# Groups the card lays out in rows of their own; the rest follow in the order they come.
TOOLS = "tools"
EDIT = "edit"
DEFAULT_GROUP = "action"
# Any other control character (a line break, an escape) shown as a space: a label is one line.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class RequestError(Exception):
    """What is wrong with a request, and where."""


@dataclass
class Item:
    id: str
    label: str
    group: str
    checked: bool = False


@dataclass
class Request:
    app: Optional[str] = None
    pen: Optional[Tuple[float, float]] = None
    hovering: bool = False
    open_at: Optional[str] = None
    items: List[Item] = field(default_factory=list)

    def groups(self) -> List[str]:
        """The groups in the order the card shows them: tools, edit, then as they come."""
        seen: List[str] = []
        for item in self.items:
            if item.group not in seen:
                seen.append(item.group)
        first = [name for name in (TOOLS, EDIT) if name in seen]
        return first + [name for name in seen if name not in first]

    def in_group(self, group: str) -> List[Item]:
        return [item for item in self.items if item.group == group]


def plain_label(text: str) -> str:
    """One line of at most MAX_LABEL_CHARACTERS, longer text cut with an ellipsis."""
    text = " ".join(CONTROL.sub(" ", text).split())
    if len(text) > MAX_LABEL_CHARACTERS:
        text = text[:MAX_LABEL_CHARACTERS - 1].rstrip() + "\u2026"
    return text


def name_field(value: Any, where: str) -> str:
    """An id or a group name: at most MAX_ID_BYTES of [A-Za-z0-9._-]."""
    if not isinstance(value, str):
        raise RequestError(f"{where}: expected a string")
    if not ID_PATTERN.fullmatch(value):
        raise RequestError(f"{where}: only letters, digits, '.', '_' and '-' are allowed, got {value[:80]!r}")
    if len(value) > MAX_ID_BYTES:
        raise RequestError(f"{where}: longer than {MAX_ID_BYTES} bytes")
    return value


def optional_text(value: Any, where: str) -> Optional[str]:
    if value is None:
        return None
    if not isinstance(value, str):
        raise RequestError(f"{where}: expected a string or null")
    return plain_label(value) or None


def pen_place(value: Any) -> Optional[Tuple[float, float]]:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RequestError("pen: expected an object with x and y, or null")
    place = []
    for axis in ("x", "y"):
        number = value.get(axis)
        # bool is an int to Python, and never a place.
        if isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number):
            raise RequestError(f"pen.{axis}: expected a number from 0 to 1")
        if not 0 <= number <= 1:
            raise RequestError(f"pen.{axis}: {number} is outside 0 to 1")
        place.append(float(number))
    return place[0], place[1]


def parse_item(value: Any, index: int) -> Item:
    where = f"items[{index}]"
    if not isinstance(value, dict):
        raise RequestError(f"{where}: expected an object")
    item_id = name_field(value.get("id"), f"{where}.id")
    label = value.get("label")
    if not isinstance(label, str):
        raise RequestError(f"{where}.label: expected a string")
    label = plain_label(label)
    if not label:
        raise RequestError(f"{where}.label: empty")
    group = value.get("group", DEFAULT_GROUP)
    group = DEFAULT_GROUP if group is None else name_field(group, f"{where}.group")
    checked = value.get("checked", False)
    if not isinstance(checked, bool):
        raise RequestError(f"{where}.checked: expected true or false")
    return Item(item_id, label, group, checked)


def parse_request(line: bytes) -> Request:
    """The request from its line (without the line break)."""
    if len(line) > MAX_REQUEST_BYTES:
        raise RequestError(f"request: longer than {MAX_REQUEST_BYTES} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError(f"request: not UTF-8 (byte {error.start})") from None
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        detail = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deeply"
        raise RequestError(f"request: not JSON ({detail})") from None
    if not isinstance(document, dict):
        raise RequestError("request: expected a JSON object")
    return parse_document(document)


def parse_document(document: Dict[str, Any]) -> Request:
    version = document.get("version", 1)
    if version != 1 or isinstance(version, bool):
        raise RequestError(f"version: {version!r} is not 1")
    items = document.get("items")
    if not isinstance(items, list):
        raise RequestError("items: expected a list")
    if not items:
        raise RequestError("items: empty")
    if len(items) > MAX_ITEMS:
        raise RequestError(f"items: {len(items)} items, at most {MAX_ITEMS}")
    parsed = [parse_item(value, index) for index, value in enumerate(items)]
    seen: Dict[str, int] = {}
    for index, item in enumerate(parsed):
        if item.id in seen:
            raise RequestError(f"items[{index}].id: {item.id!r} is also items[{seen[item.id]}]'s")
        seen[item.id] = index
    hovering = document.get("hovering", False)
    if not isinstance(hovering, bool):
        raise RequestError("hovering: expected true or false")
    open_at = document.get("open_at")
    if open_at is not None:
        open_at = name_field(open_at, "open_at")
    return Request(app=optional_text(document.get("app"), "app"), pen=pen_place(document.get("pen")),
                   hovering=hovering, open_at=open_at, items=parsed)
