"""What the Try it page says about each press: a gesture recognised, a double-tap missed and
why, a press no gesture uses. Pure: it reads pencild's events and preferences, no GTK."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import pencild

from .model import ACTION_NAMES, BUTTON_NAMES, TURN_ON_ERASER_BUTTON, button_lack


@dataclass
class Press:
    time: int                 # microseconds
    pose: Optional[pencild.Pose]
    released: Optional[int] = None


def distance_millimetres(a: Optional[pencild.Pose], b: Optional[pencild.Pose]) -> Optional[float]:
    """The distance between two poses as the recogniser measures it (docs/gestures.md): in
    millimetres, or where the tablet has no resolution, 0.25 % of the normalised diagonal a mm."""
    if a is None or b is None:
        return None
    if None not in (a.x_millimeters, a.y_millimeters, b.x_millimeters, b.y_millimeters):
        return math.hypot(a.x_millimeters - b.x_millimeters, a.y_millimeters - b.y_millimeters)  # type: ignore[operator]
    return math.hypot(a.x - b.x, a.y - b.y) / (0.0025 * math.sqrt(2))


def millimetres(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".") + " mm"


@dataclass
class Verdict:
    """One line of the try-it page: a title and what it means."""
    kind: str                 # doubleTap, missed, squeeze, squeezeCancelled, longClick
    title: str
    detail: str


class TapWatcher:
    """Follows tapButton's presses of each pen as pencild reports them (every buttonDown and
    buttonUp at once, and the doubleTap in the frame of the second press) and says, of a
    second press that made no double-tap, why: too late, too far, or a first press held too
    long to be a click, against the preferences of the moment. A press no gesture uses, and
    an eraser that came as a tool where it was meant to be a button, are said too: otherwise
    the page stays silent when the settings ask for what the pen cannot do."""

    def __init__(self) -> None:
        self.preferences = pencild.Preferences()
        self.devices: Dict[str, pencild.Device] = {}
        self.last: Dict[str, Press] = {}          # the sequence's first press, per device
        self.pending: Optional[Tuple[str, Press, Press]] = None  # a second press, not yet judged
        self.squeeze_began: Dict[str, int] = {}

    def tap_button(self) -> str:
        return str(self.preferences.tap_button or "stylus")

    def squeeze_button(self) -> str:
        return str(self.preferences.squeeze_button or "stylus2")

    def eraser_is_button(self) -> bool:
        return self.preferences.eraser_button is pencild.EraserButtonMode.BUTTON

    def gesture_buttons(self) -> str:
        """Which button makes each gesture, as a person reads it."""
        tap, squeeze = self.tap_button(), self.squeeze_button()
        parts = ["the double-tap is off" if tap == "none"
                 else f"the double-tap button is the {BUTTON_NAMES.get(tap, tap).lower()}"]
        if squeeze == "none":
            parts.append("the squeeze is off")
        elif squeeze == "longPress":
            parts.append("the squeeze is a long press of the double-tap button")
        else:
            parts.append(f"the squeeze button is the {BUTTON_NAMES.get(squeeze, squeeze).lower()}")
        return "; ".join(parts)

    def unused_press(self, button: str) -> Verdict:
        return Verdict("unused", f"{BUTTON_NAMES.get(button, button)} pressed",
                       f"No gesture uses it: {self.gesture_buttons()}")

    def eraser_as_tool(self, device: str) -> Optional[Verdict]:
        """The eraser came near as a tool while a gesture's button is the eraser: that gesture
        cannot come, and the reason depends on the pen (no eraser button, or the switch off)."""
        gestures = [name for name, button in (("double-tap", self.tap_button()), ("squeeze", self.squeeze_button()))
                    if button == "eraser"]
        if not gestures:
            return None
        if device in self.devices:
            reason = button_lack("eraser", [self.devices[device]], self.eraser_is_button())
        else:
            reason = None if self.eraser_is_button() else "the eraser is not a button: " + TURN_ON_ERASER_BUTTON
        if reason is None:
            return None
        return Verdict("eraserTool", "The eraser came near as an eraser",
                       f"The {' and '.join(gestures)} button is the eraser button, but {reason}")

    def event(self, event: pencild.Event) -> List[Verdict]:
        verdicts: List[Verdict] = []
        device = event.device or ""
        kind = event.type
        if self.pending is not None and not (kind is pencild.EventType.DOUBLE_TAP and event.device == self.pending[0]
                                             and event.time == self.pending[2].time):
            verdicts += self.judge_pending()
        if (kind is pencild.EventType.BUTTON_DOWN and event.button is not None
                and str(event.button) not in (self.tap_button(), self.squeeze_button())):
            verdicts.append(self.unused_press(str(event.button)))
        elif (kind is pencild.EventType.PROXIMITY_IN and event.tool is not None
                and event.tool.type is pencild.ToolType.ERASER):
            verdict = self.eraser_as_tool(device)
            if verdict is not None:
                verdicts.append(verdict)
        if kind is pencild.EventType.BUTTON_DOWN and str(event.button) == self.tap_button():
            press = Press(event.time, event.pose)
            first = self.last.get(device)
            self.last[device] = press
            if first is not None:
                self.pending = (device, first, press)
        elif kind is pencild.EventType.BUTTON_UP and str(event.button) == self.tap_button():
            pressed = self.last.get(device)
            if pressed is not None and pressed.released is None:
                pressed.released = event.time
        elif kind is pencild.EventType.DOUBLE_TAP:
            pending, self.pending = self.pending, None
            detail = ""
            if pending is not None and pending[0] == device:
                first, second = pending[1], pending[2]
                detail = self.measures(first, second)
            self.last.pop(device, None)  # the second press ends the sequence
            name = ACTION_NAMES.get(str(event.action), str(event.action))
            verdicts.append(Verdict("doubleTap", f"Double-tap: {name}", detail or "Recognised"))
        elif kind is pencild.EventType.SQUEEZE:
            if event.phase is pencild.Phase.BEGAN:
                self.squeeze_began[device] = event.time
            elif event.phase in (pencild.Phase.ENDED, pencild.Phase.CANCELLED):
                began = self.squeeze_began.pop(device, None)
                held = f"held {round((event.time - began) / 1000)} ms" if began is not None else ""
                if event.phase is pencild.Phase.ENDED:
                    name = ACTION_NAMES.get(str(event.action), str(event.action))
                    verdicts.append(Verdict("squeeze", f"Squeeze: {name}", held.capitalize() or "Recognised"))
                else:
                    verdicts.append(Verdict("squeezeCancelled", "Squeeze cancelled",
                                            "Another tool came near, or the pen went away"))
        elif kind in (pencild.EventType.PROXIMITY_OUT, pencild.EventType.DEVICE_REMOVED):
            self.last.pop(device, None)
        return verdicts

    def flush(self) -> List[Verdict]:
        """A second press without a double-tap after it: judged once its frame is over."""
        return self.judge_pending()

    def measures(self, first: Press, second: Press) -> str:
        interval = round((second.time - first.time) / 1000)
        text = f"Second press {interval} ms after the first"
        distance = distance_millimetres(first.pose, second.pose)
        if distance is not None:
            text += f", {millimetres(distance)} away"
        return text

    def judge_pending(self) -> List[Verdict]:
        pending, self.pending = self.pending, None
        if pending is None:
            return []
        _, first, second = pending
        preferences = self.preferences
        allowed_interval = preferences.double_tap_interval or 400
        allowed_slop = preferences.double_tap_slop if preferences.double_tap_slop is not None else 4.0
        allowed_click = preferences.tap_max_duration or 300
        interval = round((second.time - first.time) / 1000)
        # A press long after the last is a new start, not a double-tap that failed.
        if interval > max(2 * allowed_interval, 1000):
            return []
        reasons: List[str] = []
        if first.released is None:
            return []
        held = round((first.released - first.time) / 1000)
        if held > allowed_click:
            reasons.append(f"the first press was held {held} ms; a tap is at most {allowed_click} ms")
        if interval > allowed_interval:
            reasons.append(f"too late: the second press came {interval} ms after the first; "
                           f"the double-tap speed is {allowed_interval} ms")
        distance = distance_millimetres(first.pose, second.pose)
        if distance is not None and distance > allowed_slop + 1e-6:
            reasons.append(f"too far: {millimetres(distance)}, allowed {millimetres(allowed_slop)}")
        if not reasons:
            reasons.append("the pen left range, or another tool came, between the presses")
        detail = "; ".join(reasons)
        return [Verdict("missed", "Missed double-tap", detail[0].upper() + detail[1:])]
