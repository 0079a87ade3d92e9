#!/usr/bin/env python3
"""restart-check.py state FILE | check FILE [--events T,T] [--expect K,K] [--focus F]

The output of pencil-events (JSON lines) across daemon restarts.

state: prints what is open at the end of FILE on the first device: "stroke" (tip down),
"squeeze" (a squeeze began and has not ended), or "other".

check: every run of synthesized events (the library's close-out when the stream ended)
closes exactly what the daemon's events had opened, in the contract's order (docs/protocol.md,
"When pencild goes away": tipUp, buttonUp for each held button in the protocol's order,
squeeze cancelled, hover ended, proximityOut, deviceRemoved after a deviceAdded), at the
device's last time, with its last tool and pose (pressure 0: the tip is up), only of the
types subscribed to (--events); each is followed by the
new daemon's deviceAdded. --expect K,K: the Nth close-out must contain event K (for
example tipUp,squeeze: the first restart was mid-stroke, the second mid-squeeze).
--focus F: every doubleTap and squeeze carries focus F, and each daemon sent some."""
import json
import sys


BUTTONS = ["stylus", "stylus2", "stylus3", "eraser"]


class Device:
    def __init__(self):
        self.time = None
        self.tool = None
        self.pose = None
        self.proximity = self.tip = self.hovering = self.squeezing = False
        self.squeeze_focus = None
        self.buttons = []
        self.added = False


def follow(devices, event):
    """The open state after one of the daemon's events, a well-formed stream's (docs/protocol.md)."""
    name, kind, phase = event.get("device"), event["type"], event.get("phase")
    if name is None:
        return
    if kind == "deviceRemoved":
        devices.pop(name, None)
        return
    device = devices.setdefault(name, Device())
    device.time = event["time"]
    if kind == "deviceAdded":
        device.added = True
    if "tool" in event:
        device.tool = event["tool"]
        if kind != "proximityOut":
            device.proximity = True
    if "pose" in event:
        device.pose = event["pose"]
    if kind == "proximityOut":
        device.proximity = device.tip = device.hovering = device.squeezing = False
        device.buttons = []
    elif kind in ("tipDown", "motion"):
        device.tip, device.hovering = True, False
    elif kind == "tipUp":
        device.tip = False
    elif kind == "hover":
        device.hovering = phase in ("began", "changed")
        if device.hovering:
            device.tip = False
    elif kind == "buttonDown" and event["button"] not in device.buttons:
        device.buttons.append(event["button"])
    elif kind == "buttonUp" and event["button"] in device.buttons:
        device.buttons.remove(event["button"])
    elif kind == "squeeze":
        if phase == "began" or (phase == "changed" and not device.squeezing):
            device.squeeze_focus = event.get("focus")
        device.squeezing = phase in ("began", "changed")


def closing(devices, wanted):
    """The events that close what is open, in the contract's order."""
    result = []
    for name, device in devices.items():
        def event(kind, **fields):
            item = {"type": kind, "time": device.time, "device": name}
            if kind != "deviceRemoved":
                item["tool"] = device.tool
                item["pose"] = dict(device.pose, pressure=0.0)
            item.update(fields)
            item["synthesized"] = True
            if wanted is None or kind in wanted:
                result.append(item)
        if device.tip:
            event("tipUp")
        for button in sorted(device.buttons, key=BUTTONS.index):
            event("buttonUp", button=button)
        if device.squeezing:
            fields = {"phase": "cancelled"}
            if device.squeeze_focus:
                fields["focus"] = device.squeeze_focus
            event("squeeze", **fields)
        if device.hovering and not device.tip:
            event("hover", phase="ended")
        if device.proximity:
            event("proximityOut")
        if device.added:
            event("deviceRemoved")
    return result


def load(path):
    """The whole lines of FILE (a subscriber may be writing its last one)."""
    with open(path) as file:
        lines = file.read().split("\n")[:-1]
    return [json.loads(line) for line in lines if line.strip()]


def state(path):
    devices = {}
    for event in load(path):
        if not event.get("synthesized"):
            follow(devices, event)
    device = next(iter(devices.values()), None)
    if device and device.tip:
        return "stroke"
    if device and device.squeezing:
        return "squeeze"
    return "other"


def check(path, wanted, expect, focus):
    events = load(path)
    devices, problems, closeouts, index = {}, [], [], 0
    while index < len(events):
        event = events[index]
        if wanted is not None and event["type"] not in wanted:
            problems.append(f"line {index + 1}: {event['type']} was not subscribed to")
        if not event.get("synthesized"):
            follow(devices, event)
            index += 1
            continue
        run = []
        while index < len(events) and events[index].get("synthesized"):
            run.append(events[index])
            index += 1
        expected = closing(devices, wanted)
        devices = {}
        closeouts.append(run)
        if run != expected:
            problems.append(f"close-out {len(closeouts)}: got\n  " + "\n  ".join(map(json.dumps, run)) +
                            "\nexpected\n  " + "\n  ".join(map(json.dumps, expected)))
        if index < len(events) and events[index]["type"] != "deviceAdded" and (wanted is None or "deviceAdded" in wanted):
            problems.append(f"line {index + 1}: after close-out {len(closeouts)}, {events[index]['type']} instead of deviceAdded")
        if index >= len(events):
            problems.append(f"close-out {len(closeouts)}: the stream did not come back")
    for number, kind in enumerate(expect, 1):
        if number > len(closeouts):
            problems.append(f"close-out {number} (with {kind}) is missing: {len(closeouts)} close-outs")
        elif not any(event["type"] == kind for event in closeouts[number - 1]):
            problems.append(f"close-out {number} has no {kind}")
    if focus:
        # Every gesture carries the focus, also those of the daemons started later: the
        # library claimed it again on each new connection.
        segments = [[]]
        for event in events:
            if event.get("synthesized") and event["type"] == "deviceRemoved":
                segments.append([])
            elif event["type"] in ("doubleTap", "squeeze"):
                segments[-1].append(event)
        for number, gestures in enumerate(segments, 1):
            if not gestures:
                problems.append(f"daemon {number}: no doubleTap or squeeze")
            wrong = [e for e in gestures if e.get("focus") != focus]
            if wrong:
                problems.append(f"daemon {number}: {len(wrong)} gestures without focus {focus}: {json.dumps(wrong[0])}")
    for problem in problems:
        print(problem)
    if not problems:
        summary = "; ".join(",".join(e["type"] for e in run) for run in closeouts)
        print(f"{len(events)} events, {len(closeouts)} close-outs: {summary}")
    return 1 if problems else 0


def main(arguments):
    if arguments[0] == "state":
        print(state(arguments[1]))
        return 0
    wanted, expect, focus = None, [], None
    rest = arguments[2:]
    while rest:
        if rest[0] == "--events":
            wanted = set(rest[1].split(","))
        elif rest[0] == "--expect":
            expect = rest[1].split(",")
        elif rest[0] == "--focus":
            focus = rest[1]
        rest = rest[2:]
    return check(arguments[1], wanted, expect, focus)


sys.exit(main(sys.argv[1:]))
