"""What a client has seen opened, per device, so that the closing events can be made up
when the daemon goes away without sending them (gestures.md, "When a device goes away")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional

from ._types import Button, Event, EventType, Focus, Phase, Pose, Tool

_MAX_DEVICES = 256
_MAX_BUTTONS = 16


@dataclass
class _DeviceState:
    time: int = 0
    attached: bool = False
    tool: Optional[Tool] = None
    pose: Optional[Pose] = None
    tip_down: bool = False
    buttons: List[Button] = field(default_factory=list)
    squeeze_focus: Optional[Focus] = None
    squeeze_open: bool = False
    hovering: bool = False


class CloseOut:
    """Follows a stream's events; ``close_all`` returns, for every device, the events that
    close what is open, in the contract's order: tipUp, buttonUp for each held button,
    squeeze cancelled, hover ended, proximityOut, deviceRemoved, at the time of the device's
    last event. Only event types in ``wanted`` (None: all) are made."""

    def __init__(self, wanted: Optional[FrozenSet[str]] = None) -> None:
        self._wanted = wanted
        self._devices: Dict[str, _DeviceState] = {}

    def _state(self, device: str) -> Optional[_DeviceState]:
        state = self._devices.get(device)
        if state is None:
            if len(self._devices) >= _MAX_DEVICES:
                return None
            state = _DeviceState()
            self._devices[device] = state
        return state

    def observe(self, event: Event) -> None:
        if event.device is None or not event.type.is_known:
            return
        kind = event.type
        if kind is EventType.DEVICE_REMOVED:
            self._devices.pop(event.device, None)
            return
        state = self._state(event.device)
        if state is None:
            return
        state.time = max(state.time, event.time)
        if event.pose is not None:
            state.pose = event.pose
        if event.tool is not None and kind is not EventType.PROXIMITY_OUT:
            state.tool = event.tool
        if kind is EventType.DEVICE_ADDED:
            state.attached = True
        elif kind is EventType.PROXIMITY_OUT:
            state.tool = None
            state.tip_down = state.hovering = state.squeeze_open = False
            state.buttons.clear()
        elif kind is EventType.TIP_DOWN:
            state.tip_down = True
        elif kind is EventType.TIP_UP:
            state.tip_down = False
        elif kind is EventType.BUTTON_DOWN and event.button is not None:
            if event.button not in state.buttons and len(state.buttons) < _MAX_BUTTONS:
                state.buttons.append(event.button)
        elif kind is EventType.BUTTON_UP and event.button is not None:
            if event.button in state.buttons:
                state.buttons.remove(event.button)
        elif kind is EventType.HOVER:
            if event.phase is Phase.BEGAN or event.phase is Phase.CHANGED:
                state.hovering = True
            elif event.phase is Phase.ENDED:
                state.hovering = False
        elif kind is EventType.SQUEEZE:
            if event.phase is Phase.BEGAN:
                state.squeeze_open = True
                state.squeeze_focus = event.focus
            elif event.phase is Phase.ENDED or event.phase is Phase.CANCELLED:
                state.squeeze_open = False

    def _emit(self, into: List[Event], kind: EventType, device: str, state: _DeviceState, **values: object) -> None:
        if self._wanted is not None and kind.value not in self._wanted:
            return
        into.append(Event(type=kind, time=state.time, device=device, synthesized=True, **values))  # type: ignore[arg-type]

    def close_all(self) -> List[Event]:
        """The closing events of everything open, and forgets it all."""
        events: List[Event] = []
        for device, state in self._devices.items():
            pen = {"tool": state.tool, "pose": state.pose}
            if state.tool is not None:
                if state.tip_down:
                    self._emit(events, EventType.TIP_UP, device, state, **pen)
                for button in state.buttons:
                    self._emit(events, EventType.BUTTON_UP, device, state, button=button, **pen)
                if state.squeeze_open:
                    self._emit(events, EventType.SQUEEZE, device, state, phase=Phase.CANCELLED,
                               focus=state.squeeze_focus, **pen)
                if state.hovering:
                    self._emit(events, EventType.HOVER, device, state, phase=Phase.ENDED, **pen)
                self._emit(events, EventType.PROXIMITY_OUT, device, state, **pen)
            if state.attached:
                self._emit(events, EventType.DEVICE_REMOVED, device, state)
        self._devices.clear()
        return events
