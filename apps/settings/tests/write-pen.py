#!/usr/bin/python3
"""write-pen.py HEADER HOLD [--idle NAME | --attached | --hover NAME]: prints an evemu
recording of a person trying the gestures on the test pen whose evemu header (N:, I:, P:,
B:, A: lines) is in the file HEADER, a Wacom Grip Pen (tool id 0x802) on a tablet with 200
units a millimetre:

  0 s    the pen's eraser end comes near (tool id 0x80a, which libwacom lists as "Grip Pen
         Eraser"), and leaves at 0.2 s; the pen comes at 0.3 s, the right way up;
  0.5 s  a double-tap of the lower button: 60 ms presses, the second 120 ms after the first;
  1.5 s  a double-tap that is too slow: the second press 520 ms after the first;
  3.5 s  a double-tap that is too far: the second press 200 ms later, 6.1 mm to the right;
  4.5 s  a squeeze: the upper button held for 300 ms while the pen moves;
  5.5 s  the pen leaves; the recording's last frame comes HOLD seconds later, so that the
         device stays attached that long at real-time speed.

The pen hovers with a frame at least every 50 ms in between (pencild forces a still pen out of
range after 500 ms without a frame).

With --idle NAME, the same tablet named NAME and unknown to libwacom (USB ids no tablet has,
so the window titles it by its name), attached for HOLD seconds and never used: a device
whose name is not ours to trust.

With --attached, the tablet of HEADER as it is (its name and ids, so libwacom knows it),
attached for HOLD seconds and never used: a pen whose buttons the window offers.

With --hover NAME, that unknown tablet's pen comes near at 1 s, hovers for 2 s and leaves,
with no tool id and no serial, as most Huion, XP-Pen and Gaomon pens (libwacom has no
stylus for it); the tablet stays attached for HOLD seconds.
"""

import sys
from typing import Dict, List, Optional, Tuple

EV_SYN, EV_KEY, EV_ABS, EV_MSC = 0, 1, 3, 4
BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_STYLUS, BTN_STYLUS2 = 0x140, 0x141, 0x14B, 0x14C
ABS_X, ABS_Y, ABS_DISTANCE, ABS_TILT_X, ABS_TILT_Y, ABS_MISC = 0x00, 0x01, 0x19, 0x1A, 0x1B, 0x28
MSC_SERIAL = 0x00

Change = Tuple[int, int, int]

# pid.codes' test vendor and product: libwacom knows no tablet by them.
UNKNOWN_IDS = "I: 0003 1209 0001 0000"


def idle(lines: List[str], hold: float, name: Optional[str]) -> str:
    """Attached for `hold` seconds, never used; named `name` with ids libwacom does not know,
    or with None as the header has it."""
    header = lines if name is None else [
        f"N: {name}" if line.startswith("N:") else UNKNOWN_IDS if line.startswith("I:") else line for line in lines]
    what = "a tablet named by someone else" if name is not None else "a tablet attached, never used"
    out = ["# EVEMU 1.3", f"# the settings window's test: {what}"] + header
    out += ["E: 0.000000 0000 0000 0", f"E: {hold:.6f} 0004 0000 1", f"E: {hold:.6f} 0000 0000 0"]
    return "\n".join(out) + "\n"


def hover(lines: List[str], hold: float, name: str) -> str:
    out = idle(lines, hold, name).splitlines()[:-3]
    out[1] = "# the settings window's test: a pen libwacom has no name for, hovering"
    out.append("E: 0.000000 0000 0000 0")
    x, y = 20000, 12000
    for step in range(0, 41):
        time = 1.0 + step * 0.05
        changes = [f"E: {time:.6f} 0001 0140 1"] if step == 0 else []
        changes += [f"E: {time:.6f} 0003 0000 {x + step * 40}", f"E: {time:.6f} 0003 0001 {y}"]
        if step == 0:  # at 30 from the surface, upright
            changes += [f"E: {time:.6f} 0003 0019 30", f"E: {time:.6f} 0003 001a 64", f"E: {time:.6f} 0003 001b 64"]
        out += changes + [f"E: {time:.6f} 0000 0000 0"]
    out += ["E: 3.050000 0001 0140 0", "E: 3.050000 0000 0000 0"]
    out += [f"E: {hold:.6f} 0004 0000 1", f"E: {hold:.6f} 0000 0000 0"]
    return "\n".join(out) + "\n"


def main() -> int:
    header_file, hold = sys.argv[1], float(sys.argv[2])
    with open(header_file, encoding="utf-8") as header:
        lines = [line.rstrip("\n") for line in header if line[:2] in ("N:", "I:", "P:", "B:", "A:")]
    if sys.argv[3:4] == ["--idle"] and len(sys.argv) == 5:
        sys.stdout.write(idle(lines, hold, sys.argv[4]))
        return 0
    if sys.argv[3:] == ["--attached"]:
        sys.stdout.write(idle(lines, hold, None))
        return 0
    if sys.argv[3:4] == ["--hover"] and len(sys.argv) == 5:
        sys.stdout.write(hover(lines, hold, sys.argv[4]))
        return 0
    frames: List[Tuple[float, List[Change]]] = []
    x = 22000
    y = 14000

    def at(time: float, *changes: Change) -> None:
        frames.append((round(time, 6), list(changes)))

    at(0.0, (EV_KEY, BTN_TOOL_RUBBER, 1), (EV_MSC, MSC_SERIAL, 0x2345), (EV_ABS, ABS_MISC, 0x80a),
       (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y), (EV_ABS, ABS_DISTANCE, 30), (EV_ABS, ABS_TILT_X, 64),
       (EV_ABS, ABS_TILT_Y, 64))
    at(0.1, (EV_ABS, ABS_Y, y + 20), (EV_MSC, MSC_SERIAL, 0x2345))
    at(0.2, (EV_KEY, BTN_TOOL_RUBBER, 0), (EV_ABS, ABS_MISC, 0), (EV_MSC, MSC_SERIAL, 0x2345))
    at(0.3, (EV_KEY, BTN_TOOL_PEN, 1), (EV_MSC, MSC_SERIAL, 0x2345), (EV_ABS, ABS_MISC, 0x802),
       (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y), (EV_ABS, ABS_DISTANCE, 30), (EV_ABS, ABS_TILT_X, 64),
       (EV_ABS, ABS_TILT_Y, 64))
    presses = {0.50: BTN_STYLUS, 0.62: BTN_STYLUS, 1.50: BTN_STYLUS, 2.02: BTN_STYLUS,
               3.50: BTN_STYLUS, 3.70: BTN_STYLUS}
    events: Dict[float, List[Change]] = {}
    for time, button in presses.items():
        events.setdefault(round(time, 2), []).append((EV_KEY, button, 1))
        events.setdefault(round(time + 0.06, 2), []).append((EV_KEY, button, 0))
    events.setdefault(4.50, []).append((EV_KEY, BTN_STYLUS2, 1))
    events.setdefault(4.80, []).append((EV_KEY, BTN_STYLUS2, 0))
    # Hover: a small wander every 50 ms; 6.1 mm (1220 units) to the right from 3.60 to 3.90;
    # the presses on a 10 ms grid.
    for hundredths in range(31, 550):
        step = hundredths / 100
        changes = events.pop(round(step, 2), [])
        position = 22000 + 1220 if 3.60 <= step < 3.90 else 22000
        if position != x:
            changes.append((EV_ABS, ABS_X, position))
            x = position
        elif hundredths % 5 == 0:
            if 4.5 <= step <= 4.8:
                changes.append((EV_ABS, ABS_Y, y + int((step - 4.5) * 400)))
            else:
                changes.append((EV_ABS, ABS_Y, y + (20 if hundredths % 10 else -20)))
        if changes:
            at(step, *changes)
    assert not events, events
    at(5.5, (EV_KEY, BTN_TOOL_PEN, 0))
    at(5.5 + hold, (EV_MSC, MSC_SERIAL, 0x2345))

    out = ["# EVEMU 1.3", "# the settings window's test pen: a double-tap, two missed ones, a squeeze"] + lines
    for time, changes in frames:
        stamp = f"{int(time)}.{round((time - int(time)) * 1e6):06d}"
        for kind, code, value in changes:
            out.append(f"E: {stamp} {kind:04x} {code:04x} {value}")
        out.append(f"E: {stamp} 0000 0000 0")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
