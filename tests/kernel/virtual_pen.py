#!/usr/bin/env python3
"""A virtual tablet pen through /dev/uinput, and a raw evdev reader.

Standard library only, so it runs on any Debian python3 inside the test VM.

  virtual_pen.py pen --name NAME --node-file FILE
      Creates the pen, writes its /dev/input/eventN path to FILE, then reads
      commands from stdin, one per line:
        stroke        proximity in, touch down, a short line, up, out
        stylus        press and release BTN_STYLUS while hovering
        doubletap     two quick BTN_STYLUS clicks in one hover (a double-tap)
        sleep SECS    pause
      The device is destroyed at end of input.

  virtual_pen.py read NODE --ready-file FILE [--until-key CODE] [--timeout S]
      Opens an evdev node, touches FILE once it is open, prints each event as
      "TYPE CODE VALUE" (names where known) until the given key is released
      or the timeout expires. Exits 1 if nothing matched before the timeout.
"""

import argparse
import fcntl
import os
import select
import struct
import sys
import time

# ---- linux/input-event-codes.h -------------------------------------------
EV_SYN, EV_KEY, EV_ABS, EV_MSC = 0x00, 0x01, 0x03, 0x04
SYN_REPORT = 0
ABS_X, ABS_Y, ABS_PRESSURE, ABS_DISTANCE, ABS_TILT_X, ABS_TILT_Y = 0x00, 0x01, 0x18, 0x19, 0x1A, 0x1B
ABS_MISC, MSC_SERIAL = 0x28, 0x00
BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH, BTN_STYLUS, BTN_STYLUS2 = 0x140, 0x141, 0x14A, 0x14B, 0x14C
BUS_USB = 0x03
INPUT_PROP_POINTER = 0x00
BUS_VIRTUAL = 0x06

NAMES = {
    (EV_SYN, SYN_REPORT): "SYN_REPORT",
    (EV_ABS, ABS_X): "ABS_X", (EV_ABS, ABS_Y): "ABS_Y",
    (EV_ABS, ABS_PRESSURE): "ABS_PRESSURE", (EV_ABS, ABS_DISTANCE): "ABS_DISTANCE",
    (EV_ABS, ABS_TILT_X): "ABS_TILT_X", (EV_ABS, ABS_TILT_Y): "ABS_TILT_Y",
    (EV_KEY, BTN_TOOL_PEN): "BTN_TOOL_PEN", (EV_KEY, BTN_TOOL_RUBBER): "BTN_TOOL_RUBBER", (EV_KEY, BTN_TOUCH): "BTN_TOUCH",
    (EV_KEY, BTN_STYLUS): "BTN_STYLUS", (EV_KEY, BTN_STYLUS2): "BTN_STYLUS2",
}
TYPE_NAMES = {EV_SYN: "EV_SYN", EV_KEY: "EV_KEY", EV_ABS: "EV_ABS"}


# ---- linux/uinput.h ioctl numbers (asm-generic _IOC encoding) -------------
def _ioc(direction, nr, size):
    return (direction << 30) | (size << 16) | (ord("U") << 8) | nr


_WRITE, _READ = 1, 2
UI_DEV_CREATE = _ioc(0, 1, 0)
UI_DEV_DESTROY = _ioc(0, 2, 0)
# struct uinput_setup { struct input_id id; char name[80]; __u32 ff_effects_max; }
UINPUT_SETUP = struct.Struct("=HHHH80sI")
UI_DEV_SETUP = _ioc(_WRITE, 3, UINPUT_SETUP.size)
# struct uinput_abs_setup { __u16 code; /* pad */ struct input_absinfo absinfo; }
UINPUT_ABS_SETUP = struct.Struct("=H2xiiiiii")
UI_ABS_SETUP = _ioc(_WRITE, 4, UINPUT_ABS_SETUP.size)
UI_SET_EVBIT = _ioc(_WRITE, 100, 4)
UI_SET_KEYBIT = _ioc(_WRITE, 101, 4)
UI_SET_ABSBIT = _ioc(_WRITE, 103, 4)
UI_SET_MSCBIT = _ioc(_WRITE, 104, 4)
UI_SET_PROPBIT = _ioc(_WRITE, 110, 4)
UI_SET_PHYS = _ioc(_WRITE, 108, 8)  # _IOW('U', 108, char *): the size is a pointer's
SYSNAME_LEN = 64
UI_GET_SYSNAME = _ioc(_READ, 44, SYSNAME_LEN)

# struct input_event on 64-bit: struct timeval (two longs), __u16, __u16, __s32
INPUT_EVENT = struct.Struct("=qqHHi")

# Axis ranges: roughly a 216 x 135 mm tablet at 100 units/mm. libinput
# refuses tablets whose X/Y have no resolution, so it is set.
AXES = {
    ABS_X: (0, 21600, 100),
    ABS_Y: (0, 13500, 100),
    ABS_PRESSURE: (0, 8191, 0),
    ABS_DISTANCE: (0, 63, 0),
    ABS_TILT_X: (-64, 63, 57),  # 57 units/radian, about one per degree
    ABS_TILT_Y: (-64, 63, 57),
}
KEYS = (BTN_TOOL_PEN, BTN_TOUCH, BTN_STYLUS, BTN_STYLUS2)


class Pen:
    """`extra_keys`: more EV_KEY codes for the node to declare (a pen whose node also has
    keyboard keys, as some tablets' nodes do). `wacom`: a Wacom serial pen's node as the kernel's
    wacom driver makes it: on USB, with the eraser tool, ABS_MISC (the tool id), MSC_SERIAL
    and a fuzz of 4 on X and Y."""

    def __init__(self, name, vendor=0x1234, product=0x5678, phys=None, extra_keys=(), wacom=False):
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
        if phys:
            fcntl.ioctl(self.fd, UI_SET_PHYS, phys.encode() + b"\0")
        fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_SYN)
        fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_KEY)
        for key in (*KEYS, *extra_keys, *((BTN_TOOL_RUBBER,) if wacom else ())):
            fcntl.ioctl(self.fd, UI_SET_KEYBIT, key)
        fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_ABS)
        axes = {**AXES, **({ABS_MISC: (0, 0, 0)} if wacom else {})}
        for code, (lo, hi, res) in axes.items():
            fuzz = 4 if wacom and code in (ABS_X, ABS_Y) else 0
            fcntl.ioctl(self.fd, UI_SET_ABSBIT, code)
            fcntl.ioctl(self.fd, UI_ABS_SETUP,
                        UINPUT_ABS_SETUP.pack(code, 0, lo, hi, fuzz, 0, res))
        if wacom:
            fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_MSC)
            fcntl.ioctl(self.fd, UI_SET_MSCBIT, MSC_SERIAL)
        # An external (not on-screen) tablet: pointer property, not direct.
        fcntl.ioctl(self.fd, UI_SET_PROPBIT, INPUT_PROP_POINTER)
        fcntl.ioctl(self.fd, UI_DEV_SETUP,
                    UINPUT_SETUP.pack(BUS_USB if wacom else BUS_VIRTUAL, vendor, product, 1,
                                      name.encode()[:79], 0))
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        buf = bytearray(SYSNAME_LEN)
        fcntl.ioctl(self.fd, UI_GET_SYSNAME, buf)
        self.sysname = buf.split(b"\0", 1)[0].decode()

    def event_node(self, timeout=5.0):
        """/dev/input/eventN of this device (kernel side; udev may lag)."""
        sysdir = f"/sys/devices/virtual/input/{self.sysname}"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                for entry in os.listdir(sysdir):
                    if entry.startswith("event"):
                        return f"/dev/input/{entry}"
            except FileNotFoundError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"no event node under {sysdir}")

    def emit(self, *events):
        """Writes one frame; returns CLOCK_MONOTONIC just before the write, in seconds (the
        kernel stamps the frame a moment later)."""
        data = b"".join(INPUT_EVENT.pack(0, 0, t, c, v) for t, c, v in events)
        data += INPUT_EVENT.pack(0, 0, EV_SYN, SYN_REPORT, 0)
        written_at = time.clock_gettime(time.CLOCK_MONOTONIC)
        os.write(self.fd, data)
        return written_at

    def stroke(self, steps=10):
        x0, y0 = 5000, 5000
        self.emit((EV_ABS, ABS_X, x0), (EV_ABS, ABS_Y, y0),
                  (EV_KEY, BTN_TOOL_PEN, 1))
        time.sleep(0.02)
        self.emit((EV_ABS, ABS_PRESSURE, 2000), (EV_KEY, BTN_TOUCH, 1))
        for i in range(1, steps + 1):
            time.sleep(0.01)
            self.emit((EV_ABS, ABS_X, x0 + 100 * i), (EV_ABS, ABS_Y, y0 + 50 * i),
                      (EV_ABS, ABS_PRESSURE, 2000 + 300 * i))
        time.sleep(0.02)
        self.emit((EV_ABS, ABS_PRESSURE, 0), (EV_KEY, BTN_TOUCH, 0))
        time.sleep(0.02)
        self.emit((EV_KEY, BTN_TOOL_PEN, 0))

    def stylus_click(self, clicks=1):
        """Hovers, clicks BTN_STYLUS `clicks` times (two: a double-tap), leaves."""
        self.emit((EV_ABS, ABS_X, 8000), (EV_ABS, ABS_Y, 6000),
                  (EV_KEY, BTN_TOOL_PEN, 1))
        self.clicks(clicks, pause=0.02)
        time.sleep(0.02)
        self.emit((EV_KEY, BTN_TOOL_PEN, 0))

    def clicks(self, count=2, pause=0.03):
        """The pen hovering, BTN_STYLUS pressed and released `count` times (two: a double-tap).
        When each was written is kept in `click_times` (ms after the first press), for a test's
        message: a stalled machine can stretch a person's double-tap past doubleTapInterval."""
        written = []
        for _ in range(count):
            time.sleep(pause)
            self.emit((EV_KEY, BTN_STYLUS, 1))
            written.append(time.monotonic())
            time.sleep(pause)
            self.emit((EV_KEY, BTN_STYLUS, 0))
            written.append(time.monotonic())
        self.click_times = [round((moment - written[0]) * 1000) for moment in written]

    def enter(self, x, y, tool_id=None, serial=None):
        """The pen comes into range above (x, y), hovering; a Wacom serial pen also says which
        tool it is (ABS_MISC) and its serial (MSC_SERIAL)."""
        events = [(EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y), (EV_ABS, ABS_DISTANCE, 10)]
        if tool_id is not None:
            events.append((EV_ABS, ABS_MISC, tool_id))
        if serial is not None:
            events.append((EV_MSC, MSC_SERIAL, serial))
        return self.emit(*events, (EV_KEY, BTN_TOOL_PEN, 1))

    def close(self):
        fcntl.ioctl(self.fd, UI_DEV_DESTROY)
        os.close(self.fd)


def cmd_pen(args):
    pen = Pen(args.name)
    try:
        node = pen.event_node()
        tmp = args.node_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(node + "\n")
        os.rename(tmp, args.node_file)  # atomic: readers never see half a path
        print(f"pen: {args.name!r} is {pen.sysname} at {node}", flush=True)
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "stroke":
                pen.stroke()
            elif words[0] == "stylus":
                pen.stylus_click()
            elif words[0] == "doubletap":
                pen.stylus_click(clicks=2)
            elif words[0] == "sleep":
                time.sleep(float(words[1]))
            else:
                print(f"pen: unknown command {words[0]!r}", file=sys.stderr)
                return 2
            print(f"pen: did {words[0]}", flush=True)
    finally:
        pen.close()
    return 0


def cmd_read(args):
    fd = os.open(args.node, os.O_RDONLY | os.O_NONBLOCK)
    open(args.ready_file, "w").close()
    deadline = time.monotonic() + args.timeout
    seen = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            print(f"read: timeout after {seen} events", file=sys.stderr)
            return 1
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        data = os.read(fd, INPUT_EVENT.size * 64)
        for off in range(0, len(data), INPUT_EVENT.size):
            _, _, etype, code, value = INPUT_EVENT.unpack_from(data, off)
            seen += 1
            print(TYPE_NAMES.get(etype, str(etype)),
                  NAMES.get((etype, code), str(code)), value, flush=True)
            if etype == EV_KEY and code == args.until_key and value == 0:
                return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pen")
    p.add_argument("--name", default="Virtual Test Pen")
    p.add_argument("--node-file", required=True)
    r = sub.add_parser("read")
    r.add_argument("node")
    r.add_argument("--ready-file", required=True)
    r.add_argument("--until-key", type=lambda s: int(s, 0), default=BTN_TOOL_PEN)
    r.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    return cmd_pen(args) if args.cmd == "pen" else cmd_read(args)


if __name__ == "__main__":
    sys.exit(main())
