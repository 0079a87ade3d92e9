"""The contract's conformance cases (tests/contract, docs/protocol.md "When pencild goes
away"): each line is a stream of the daemon's events, how each decodes, and the closing
events a client makes up when the daemon goes away. Every library runs the same lines."""

from __future__ import annotations

import json
import os
import unittest
from typing import Any, Dict, List, Optional

from pencild import Event, ProtocolError
from pencild._closeout import CloseOut, subscription

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "contract", "closeout.jsonl")

_POSE_FIELDS = [("x", "x"), ("y", "y"), ("pressure", "pressure"), ("x_millimeters", "xMillimeters"),
                ("y_millimeters", "yMillimeters"), ("z_offset", "zOffset"), ("tilt_x", "tiltX"),
                ("tilt_y", "tiltY"), ("azimuth", "azimuth"), ("altitude", "altitude"), ("roll", "roll"),
                ("slider", "slider"), ("wheel", "wheel")]


def canonical(event: Event) -> Dict[str, Any]:
    """An event as the cases write it: wire names, names as text, only the fields present."""
    out: Dict[str, Any] = {"type": event.type.value, "time": event.time}
    if event.device is not None:
        out["device"] = event.device
    if event.tool is not None:
        out["tool"] = {"type": event.tool.type.value, "serial": event.tool.serial, "id": event.tool.id}
    if event.pose is not None:
        out["pose"] = {wire: getattr(event.pose, attribute) for attribute, wire in _POSE_FIELDS
                       if getattr(event.pose, attribute) is not None}
    for key in ("button", "phase", "action", "focus"):
        value = getattr(event, key)
        if value is not None:
            out[key] = value.value
    return out


def wire_as_written(value: Dict[str, Any]) -> Dict[str, Any]:
    """A stream line as a case's decoded value when the case gives none: the fields the
    comparison covers."""
    return {key: item for key, item in value.items()
            if key in ("type", "time", "device", "tool", "pose", "button", "phase", "action", "focus")}


def load() -> List[Dict[str, Any]]:
    with open(CASES, encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


def run(case: Dict[str, Any], closeout: Optional[CloseOut] = None) -> List[str]:
    """What differs from the case, as readable lines (empty when it passes)."""
    problems: List[str] = []
    closeout = closeout or CloseOut()
    expected_decoded = case.get("decoded")
    # A refused line ends the stream: the lines after it are decoded, not followed.
    ended = False
    for index, line in enumerate(case["stream"]):
        expected = expected_decoded[index] if expected_decoded is not None else wire_as_written(line)
        try:
            event: Optional[Event] = Event.from_json(line)
        except ProtocolError:
            event = None
        got = {"rejected": True} if event is None else canonical(event)
        if got != expected:
            problems.append(f"line {index}: decoded {got}, expected {expected}")
        ended = ended or event is None
        if not ended and event is not None:
            closeout.observe(event)
    closing = closeout.close_all()
    if not all(event.synthesized for event in closing):
        problems.append("a closing event is not marked synthesized")
    got_closing = [canonical(event) for event in closing]
    if got_closing != case["closing"]:
        problems.append(f"closing {json.dumps(got_closing)}\n   expected {json.dumps(case['closing'])}")
    return problems


class Contract(unittest.TestCase):
    def test_every_case(self) -> None:
        cases = load()
        self.assertGreater(len(cases), 10, CASES)
        for case in cases:
            with self.subTest(case["case"]):
                self.assertEqual(run(case), [])

    def test_a_wrong_expectation_fails(self) -> None:
        """Positive control for the comparison: a case altered in each part is caught."""
        case = next(c for c in load() if c["case"].startswith("drawing"))
        self.assertEqual(run(case), [])
        pressure = json.loads(json.dumps(case))
        pressure["closing"][0]["pose"]["pressure"] = 0.6
        self.assertTrue(run(pressure), "the tipUp's pressure")
        order = json.loads(json.dumps(case))
        order["closing"][1], order["closing"][2] = order["closing"][2], order["closing"][1]
        self.assertTrue(run(order), "the buttons' order")
        decoded = json.loads(json.dumps(case))
        decoded["decoded"] = [{"rejected": True}] * len(case["stream"])
        self.assertTrue(run(decoded), "a decoded value")

    def test_the_daemon_is_asked_for_what_the_close_out_needs(self) -> None:
        self.assertEqual(subscription(["tipUp"]), ["tipUp", "tipDown", "proximityIn", "proximityOut"])
        self.assertEqual(subscription(["deviceRemoved", "deviceAdded"]), ["deviceRemoved", "deviceAdded"])
        self.assertEqual(subscription(["motion", "doubleTap"]), ["motion", "doubleTap"], "nothing to close")


if __name__ == "__main__":
    unittest.main()
