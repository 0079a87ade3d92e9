#!/usr/bin/env python3
"""compare-events.py EXPECTED ACTUAL: the events libpencil yielded (ACTUAL, JSON lines
from pencil-events) against `pencilctl events` (EXPECTED), field by field.

Numbers are compared as doubles within what the wire's rounding allows (docs/protocol.md,
"Numbers on the wire"); everything else exactly. ACTUAL may end with the library's
"disconnected" line and may carry "focus" (which pencilctl events does not know). No
event of ACTUAL may be synthesized: the daemon closed everything itself."""
import json
import sys

# Largest difference the daemon's rounding can make, per field name.
TOLERANCE = {}
for name in ("x", "y", "pressure", "zOffset", "slider", "wheel"):
    TOLERANCE[name] = 1e-6
for name in ("xMillimeters", "yMillimeters", "widthMillimeters", "heightMillimeters", "doubleTapSlop"):
    TOLERANCE[name] = 1e-3
for name in ("tiltX", "tiltY"):
    TOLERANCE[name] = 1e-2
for name in ("azimuth", "altitude", "roll"):
    TOLERANCE[name] = 1e-5
EXTRA_IN_ACTUAL = {"focus"}


def differences(expected, actual, path):
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            where = f"{path}.{key}"
            if key not in actual:
                yield f"{where}: missing (expected {expected[key]!r})"
            elif key not in expected:
                if key not in EXTRA_IN_ACTUAL:
                    yield f"{where}: unexpected {actual[key]!r}"
            else:
                yield from differences(expected[key], actual[key], where)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            yield f"{path}: {actual!r}, expected {expected!r}"
        else:
            for index, (e, a) in enumerate(zip(expected, actual)):
                yield from differences(e, a, f"{path}[{index}]")
    elif isinstance(expected, bool) or isinstance(actual, bool) or isinstance(expected, str):
        if expected != actual or type(expected) is not type(actual):
            yield f"{path}: {actual!r}, expected {expected!r}"
    elif isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        name = path.rsplit(".", 1)[-1]
        if name in TOLERANCE:
            if abs(expected - actual) > TOLERANCE[name]:
                yield f"{path}: {actual!r}, expected {expected!r} (tolerance {TOLERANCE[name]})"
        elif isinstance(expected, float) or isinstance(actual, float) or expected != actual:
            yield f"{path}: {actual!r}, expected exactly {expected!r}"
    else:
        yield f"{path}: {actual!r}, expected {expected!r}"


def load(path):
    with open(path) as lines:
        return [json.loads(line) for line in lines if line.strip()]


def main():
    expected, actual = load(sys.argv[1]), load(sys.argv[2])
    if actual and actual[-1].get("type") == "disconnected":
        actual.pop()
    problems = []
    for index, event in enumerate(actual):
        if event.get("synthesized"):
            problems.append(f"event {index}: synthesized {event['type']}, but the daemon closed everything")
    if len(expected) != len(actual):
        problems.append(f"{len(actual)} events, expected {len(expected)}")
    for index, (e, a) in enumerate(zip(expected, actual)):
        for problem in differences(e, a, f"event {index} ({e.get('type')})"):
            problems.append(problem)
    for problem in problems[:20]:
        print(problem)
    if problems:
        print(f"{len(problems)} differences")
        return 1
    print(f"{len(actual)} events equal")
    return 0


sys.exit(main())
