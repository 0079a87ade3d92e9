"""What a client has seen opened, per device, so that the closing events can be made up
when the daemon goes away without sending them (docs/protocol.md, "When pencild goes away").
The rules, and the cases every library must pass, are the contract's: tests/contract."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Dict, FrozenSet, List, Optional

from ._names import Button, EventType, Focus, Phase
from ._types import Event, Pose, Tool

# The same bounds in every library (docs/protocol.md): a stream that names more opens nothing more.
_MAX_DEVICES = 64
_MAX_BUTTONS = 8
# Known buttons are released in the protocol's order, as the daemon releases them.
_BUTTON_ORDER = [button.value for button in Button]


@dataclass
class _ToolState:
    tool: Tool
    pose: Optional[Pose] = None
    tip_down: bool = False
    buttons: List[Button] = field(default_factory=list)
    squeeze_open: bool = False
    squeeze_focus: Optional[Focus] = None
    hovering: bool = False


@dataclass
class _DeviceState:
    time: int = 0
    added: bool = False
    # The one tool in proximity: a device has at most one.
    tool: Optional[_ToolState] = None


class CloseOut:
    """Follows a stream's events; ``close_all`` returns, for every device in the order it
    first appeared, the events that close what is open: tipUp, buttonUp for each held
    button, squeeze cancelled, hover ended, proximityOut, deviceRemoved, at the device's
    latest time. Only event types in ``wanted`` (None: all) are made."""

    def __init__(self, wanted: Optional[FrozenSet[str]] = None) -> None:
        self._wanted = wanted
        self._devices: Dict[str, _DeviceState] = {}

    def observe(self, event: Event) -> None:
        if event.device is None:
            return
        kind = event.type
        state = self._devices.get(event.device)
        if kind is EventType.DEVICE_REMOVED:
            self._devices.pop(event.device, None)
            return
        if state is None:
            if len(self._devices) >= _MAX_DEVICES:
                return
            state = self._devices[event.device] = _DeviceState(time=event.time)
        state.time = max(state.time, event.time)
        if kind is EventType.DEVICE_ADDED:
            state.added = True
            return
        if event.tool is None:
            return
        if kind is EventType.PROXIMITY_IN:
            if state.tool is None or not _same_tool(state.tool.tool, event.tool):
                # A tool whose proximityOut never came is forgotten with what it had open.
                state.tool = _ToolState(tool=event.tool)
        open_tool = state.tool
        if open_tool is None or not _same_tool(open_tool.tool, event.tool):
            return
        open_tool.tool = event.tool
        if event.pose is not None:
            open_tool.pose = event.pose
        if kind is EventType.PROXIMITY_OUT:
            state.tool = None
        elif kind is EventType.TIP_DOWN:
            open_tool.tip_down = True
        elif kind is EventType.TIP_UP:
            open_tool.tip_down = False
        elif kind is EventType.BUTTON_DOWN and event.button is not None:
            if event.button not in open_tool.buttons and len(open_tool.buttons) < _MAX_BUTTONS:
                open_tool.buttons.append(event.button)
        elif kind is EventType.BUTTON_UP and event.button is not None:
            if event.button in open_tool.buttons:
                open_tool.buttons.remove(event.button)
        elif kind is EventType.HOVER:
            if event.phase is Phase.BEGAN:
                open_tool.hovering = True
            elif event.phase is Phase.ENDED:
                open_tool.hovering = False
        elif kind is EventType.SQUEEZE:
            if event.phase is Phase.BEGAN:
                open_tool.squeeze_open = True
                open_tool.squeeze_focus = event.focus
            elif event.phase is Phase.ENDED or event.phase is Phase.CANCELLED:
                open_tool.squeeze_open = False

    def _emit(self, into: List[Event], kind: EventType, device: str, time: int, **values: object) -> None:
        if self._wanted is not None and kind.value not in self._wanted:
            return
        into.append(Event(type=kind, time=time, device=device, synthesized=True, **values))  # type: ignore[arg-type]

    def close_all(self) -> List[Event]:
        """The closing events of everything open, and forgets it all."""
        events: List[Event] = []
        for device, state in self._devices.items():
            time = state.time
            open_tool = state.tool
            if open_tool is not None:
                # Every closing event comes with the tip up: pressure 0.
                pose = None if open_tool.pose is None else replace(open_tool.pose, pressure=0.0)
                pen = {"tool": open_tool.tool, "pose": pose}
                if open_tool.tip_down:
                    self._emit(events, EventType.TIP_UP, device, time, **pen)
                known = [b for b in _BUTTON_ORDER if b in open_tool.buttons]
                unknown = [b for b in open_tool.buttons if not b.is_known]
                for button in known + unknown:
                    self._emit(events, EventType.BUTTON_UP, device, time, button=Button(button), **pen)
                if open_tool.squeeze_open:
                    self._emit(events, EventType.SQUEEZE, device, time, phase=Phase.CANCELLED,
                               focus=open_tool.squeeze_focus, **pen)
                if open_tool.hovering:
                    self._emit(events, EventType.HOVER, device, time, phase=Phase.ENDED, **pen)
                self._emit(events, EventType.PROXIMITY_OUT, device, time, **pen)
            if state.added:
                self._emit(events, EventType.DEVICE_REMOVED, device, time)
        self._devices.clear()
        return events


# What the close-out must see to know that a closer's state is open: its opener, and for what
# a tool holds, the tool's proximity.
_NEEDS = {
    "deviceRemoved": ("deviceAdded",),
    "proximityOut": ("proximityIn",),
    "tipUp": ("tipDown", "proximityIn", "proximityOut"),
    "buttonUp": ("buttonDown", "proximityIn", "proximityOut"),
    "hover": ("proximityIn", "proximityOut"),
    "squeeze": ("proximityIn", "proximityOut"),
}


def subscription(wanted: List[str]) -> List[str]:
    """The event types to ask of the daemon for an app that wants ``wanted``: those, then what
    the close-out needs; the app is handed only its own."""
    types = list(wanted)
    for closer, needed in _NEEDS.items():
        if closer in wanted:
            types.extend(name for name in needed if name not in types)
    return types


def _same_tool(a: Tool, b: Tool) -> bool:
    """The contract's "same tool": the same type and serial."""
    return a.type == b.type and a.serial == b.serial
