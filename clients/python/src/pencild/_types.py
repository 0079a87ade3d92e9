"""The protocol's values (docs/protocol.md, "Types") as enums and frozen dataclasses.

Every reader here distrusts its input: a field of the wrong kind raises ProtocolError
naming it. Names this library does not know (a newer daemon's new tool, action or event
type) are kept: the enum's lookup returns an unknown member whose value is the raw text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Any, Dict, Mapping, Optional, Tuple, Type, TypeVar

from ._errors import ProtocolError
from ._names import (
    PREFERENCE_FIELDS as _PREFERENCE_FIELDS, Action, PreferenceFields, Axis, Button, EraserButtonMode, EraserKind, EventType, Focus,
    GestureButton, Phase, StylusKind, ToolType,
)
from ._wirename import WireName

__all__ = ["Device", "Event", "Pose", "Preferences", "Stylus", "Tool"]

_MAX_STRING = 4096
_MAX_LIST = 64


# --- readers: each checks the kind of what it reads ------------------------------------

_N = TypeVar("_N", bound=WireName)


def _where(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _string(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"{path}: expected a string, got {type(value).__name__}")
    if len(value) > _MAX_STRING:
        raise ProtocolError(f"{path}: a string of {len(value)} characters is too long")
    return value


def _name(kind: Type[_N], value: object, path: str) -> _N:
    return kind(_string(value, path))


def _int(value: object, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"{path}: expected an integer, got {type(value).__name__}")
    if not -(1 << 63) <= value < (1 << 63):
        raise ProtocolError(f"{path}: {value} does not fit 64 bits")
    return value


def _float(value: object, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ProtocolError(f"{path}: expected a number, got {type(value).__name__}")
    try:
        result = float(value)
    except OverflowError:  # an integer of hundreds of digits
        result = math.inf
    if not math.isfinite(result):
        raise ProtocolError(f"{path}: {value} is not a finite number")
    return result


def _optional_float(value: object, path: str) -> Optional[float]:
    return None if value is None else _float(value, path)


def _bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError(f"{path}: expected true or false, got {type(value).__name__}")
    return value


def _object(value: object, path: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ProtocolError(f"{path or 'message'}: expected an object, got {type(value).__name__}")
    return value


def _names(kind: Type[_N], value: object, path: str) -> Tuple[_N, ...]:
    if not isinstance(value, list):
        raise ProtocolError(f"{path}: expected a list, got {type(value).__name__}")
    if len(value) > _MAX_LIST:
        raise ProtocolError(f"{path}: a list of {len(value)} names is too long")
    return tuple(_name(kind, item, f"{path}[{index}]") for index, item in enumerate(value))


def _required(json: Mapping[str, Any], key: str, path: str) -> object:
    if key not in json or json[key] is None:
        raise ProtocolError(f"{_where(path, key)}: missing")
    return json[key]


# --- the values ---------------------------------------------------------------------


@dataclass(frozen=True)
class Stylus:
    """Which pen a tool is, as libwacom names it (``proximityIn`` only, when libwacom knows the
    tool's id). ``name`` is untrusted text (whatever answers on the socket sent it): escape
    control characters before showing it, never interpret it."""

    name: str
    kind: StylusKind
    buttons: int
    eraser: EraserKind

    @classmethod
    def from_json(cls, value: object, path: str = "stylus") -> Stylus:
        json = _object(value, path)
        return cls(
            name=_string(_required(json, "name", path), _where(path, "name")),
            kind=_name(StylusKind, _required(json, "kind", path), _where(path, "kind")),
            buttons=_int(_required(json, "buttons", path), _where(path, "buttons")),
            eraser=_name(EraserKind, _required(json, "eraser", path), _where(path, "eraser")),
        )


@dataclass(frozen=True)
class Device:
    """A pen device. ``id`` is stable while it is attached (``event7``, ``replay0``).
    ``name`` and ``model`` (and ``id``) are untrusted text: the device names itself (a uinput
    or USB device can hold terminal escapes and newlines in its name). Escape control
    characters before printing them, and never pass them to a shell."""

    id: str
    name: str
    bus: int
    vendor: int
    product: int
    direct: bool
    width_millimeters: Optional[float]
    height_millimeters: Optional[float]
    tools: Tuple[ToolType, ...]
    axes: Tuple[Axis, ...]
    buttons: Tuple[Button, ...]
    #: The tablet's name in libwacom ("Wacom Intuos Pro M"); None when libwacom does not know it.
    model: Optional[str] = None
    #: From ``list_devices``: the styli that came into proximity since the device was attached.
    styli: Tuple[Stylus, ...] = ()
    #: The kernel name of the mirror apps read while the pen's gesture clicks are withheld
    #: (``withhold_gesture_clicks``); None while the pen is not grabbed.
    mirror: Optional[str] = None
    #: While there is a mirror: the tool the pen's tip is reported as to apps (``ToolType.ERASER``
    #: after a double-tap pencild performed); None without a mirror.
    tip_reported_as: Optional[ToolType] = None

    @classmethod
    def from_json(cls, value: object, path: str = "device") -> Device:
        json = _object(value, path)
        return cls(
            id=_string(_required(json, "id", path), _where(path, "id")),
            name=_string(_required(json, "name", path), _where(path, "name")),
            bus=_int(_required(json, "bus", path), _where(path, "bus")),
            vendor=_int(_required(json, "vendor", path), _where(path, "vendor")),
            product=_int(_required(json, "product", path), _where(path, "product")),
            direct=_bool(_required(json, "direct", path), _where(path, "direct")),
            width_millimeters=_optional_float(json.get("widthMillimeters"), _where(path, "widthMillimeters")),
            height_millimeters=_optional_float(json.get("heightMillimeters"), _where(path, "heightMillimeters")),
            tools=_names(ToolType, json.get("tools", []), _where(path, "tools")),
            axes=_names(Axis, json.get("axes", []), _where(path, "axes")),
            buttons=_names(Button, json.get("buttons", []), _where(path, "buttons")),
            model=None if json.get("model") is None else _string(json["model"], _where(path, "model")),
            styli=_styli(json.get("styli", []), _where(path, "styli")),
            mirror=None if json.get("mirror") is None else _string(json["mirror"], _where(path, "mirror")),
            tip_reported_as=None if json.get("tipReportedAs") is None
            else _name(ToolType, json["tipReportedAs"], _where(path, "tipReportedAs")),
        )


def _styli(value: object, path: str) -> Tuple[Stylus, ...]:
    if not isinstance(value, list):
        raise ProtocolError(f"{path}: expected a list, got {type(value).__name__}")
    if len(value) > _MAX_LIST:
        raise ProtocolError(f"{path}: a list of {len(value)} styli is too long")
    return tuple(Stylus.from_json(item, f"{path}[{index}]") for index, item in enumerate(value))


@dataclass(frozen=True)
class Tool:
    """A tool; ``serial`` and ``id`` are 0 when the device does not report them."""

    type: ToolType
    serial: int = 0
    id: int = 0

    @classmethod
    def from_json(cls, value: object, path: str = "tool") -> Tool:
        json = _object(value, path)
        return cls(
            type=_name(ToolType, _required(json, "type", path), _where(path, "type")),
            serial=_int(json.get("serial", 0), _where(path, "serial")),
            id=_int(json.get("id", 0), _where(path, "id")),
        )


@dataclass(frozen=True)
class Pose:
    """Where a tool is: x and y from 0 to 1 (origin top-left), pressure 0 to 1, z_offset 0 at
    the surface to 1 at the edge of range, tilt in degrees, azimuth, altitude, roll in radians."""

    x: float
    y: float
    pressure: float = 0.0
    x_millimeters: Optional[float] = None
    y_millimeters: Optional[float] = None
    z_offset: Optional[float] = None
    tilt_x: Optional[float] = None
    tilt_y: Optional[float] = None
    azimuth: Optional[float] = None
    altitude: Optional[float] = None
    roll: Optional[float] = None
    slider: Optional[float] = None
    wheel: Optional[float] = None

    @classmethod
    def from_json(cls, value: object, path: str = "pose") -> Pose:
        json = _object(value, path)

        def optional(key: str) -> Optional[float]:
            return _optional_float(json.get(key), _where(path, key))

        return cls(
            x=_float(_required(json, "x", path), _where(path, "x")),
            y=_float(_required(json, "y", path), _where(path, "y")),
            pressure=_float(json.get("pressure", 0.0), _where(path, "pressure")),
            x_millimeters=optional("xMillimeters"),
            y_millimeters=optional("yMillimeters"),
            z_offset=optional("zOffset"),
            tilt_x=optional("tiltX"),
            tilt_y=optional("tiltY"),
            azimuth=optional("azimuth"),
            altitude=optional("altitude"),
            roll=optional("roll"),
            slider=optional("slider"),
            wheel=optional("wheel"),
        )


@dataclass(frozen=True)
class Preferences(PreferenceFields):
    """A user's gesture preferences. Replies carry every field; to ``set_preferences`` a field
    left None keeps its value. Durations in milliseconds, ``double_tap_slop`` in millimetres.
    ``withhold_gesture_clicks``: apps do not receive the clicks that make a gesture.
    ``prefers_pencil_only_drawing`` and ``prefers_hover_tool_preview``: Apple's preferences, for
    apps to follow: draw only with the pen (fingers scroll), and preview the tool under a
    hovering pen."""

    @classmethod
    def from_json(cls, value: object, path: str = "preferences") -> Preferences:
        json = _object(value, path)
        values: Dict[str, Any] = {}
        for attribute, key, kind in _PREFERENCE_FIELDS:
            raw = json.get(key)
            if raw is None:
                continue
            where = _where(path, key)
            if kind is bool:
                values[attribute] = _bool(raw, where)
            elif kind is int:
                values[attribute] = _int(raw, where)
            elif kind is float:
                values[attribute] = _float(raw, where)
            elif kind is str:
                values[attribute] = _string(raw, where)
            else:
                assert isinstance(kind, type) and issubclass(kind, WireName)
                values[attribute] = _name(kind, raw, where)
        return cls(**values)

    def to_json(self) -> Dict[str, Any]:
        """The protocol's JSON object, with only the fields that are set."""
        json: Dict[str, Any] = {}
        for attribute, key, _ in _PREFERENCE_FIELDS:
            value = getattr(self, attribute)
            if value is None:
                continue
            json[key] = value.value if isinstance(value, Enum) else value
        return json


@dataclass(frozen=True)
class Event:
    """One event of a Monitor stream. ``time`` is in microseconds (CLOCK_MONOTONIC for live
    devices, the recorded time in a replay). ``synthesized`` is true for the closing events
    this library makes up when the daemon goes away (the wire has no such field)."""

    type: EventType
    time: int
    device: Optional[str] = None
    device_info: Optional[Device] = None
    tool: Optional[Tool] = None
    pose: Optional[Pose] = None
    button: Optional[Button] = None
    #: With ``proximityIn``: which pen the tool is, when libwacom knows it.
    stylus: Optional[Stylus] = None
    phase: Optional[Phase] = None
    action: Optional[Action] = None
    focus: Optional[Focus] = None
    preferences: Optional[Preferences] = None
    synthesized: bool = False

    @classmethod
    def from_json(cls, value: object, path: str = "event") -> Event:
        json = _object(value, path)

        def optional(key: str) -> object:
            return json.get(key)

        device = optional("device")
        device_info = optional("deviceInfo")
        tool = optional("tool")
        stylus = optional("stylus")
        pose = optional("pose")
        button = optional("button")
        phase = optional("phase")
        action = optional("action")
        focus = optional("focus")
        preferences = optional("preferences")
        return cls(
            type=_name(EventType, _required(json, "type", path), _where(path, "type")),
            time=_int(_required(json, "time", path), _where(path, "time")),
            device=None if device is None else _string(device, _where(path, "device")),
            device_info=None if device_info is None else Device.from_json(device_info, _where(path, "deviceInfo")),
            tool=None if tool is None else Tool.from_json(tool, _where(path, "tool")),
            stylus=None if stylus is None else Stylus.from_json(stylus, _where(path, "stylus")),
            pose=None if pose is None else Pose.from_json(pose, _where(path, "pose")),
            button=None if button is None else _name(Button, button, _where(path, "button")),
            phase=None if phase is None else _name(Phase, phase, _where(path, "phase")),
            action=None if action is None else _name(Action, action, _where(path, "action")),
            focus=None if focus is None else _name(Focus, focus, _where(path, "focus")),
            preferences=None if preferences is None else Preferences.from_json(preferences, _where(path, "preferences")),
        )

