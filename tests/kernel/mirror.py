"""The kernel suite's mirror scenario (docs/gestures.md, "What apps receive: gesture clicks
withheld"): pencild grabs a virtual pen and re-creates it through uinput, and libinput, reading
the mirror as a compositor would, gets everything but the clicks that make a gesture.

Used by suite.py; standard library only. The pen is `virtual_pen.Pen`, driven frame by frame
with a person's timing; every wait is for an event (pencild's, libinput's or the kernel's).
"""

import fcntl
import os
import pwd
import re
import select
import signal
import struct
import subprocess
import time

import virtual_pen
from scenario_support import DebugEvents, Scenario, check
from virtual_pen import (ABS_DISTANCE, ABS_MISC, ABS_PRESSURE, ABS_TILT_X, ABS_TILT_Y, ABS_X, ABS_Y, BTN_STYLUS, BTN_TOOL_PEN,
                         BTN_TOUCH, EV_ABS, EV_KEY, INPUT_EVENT)

PEN_NAME = "pencild Mirror Pen"
PEN_PHYS = "pencild-suite/input0"
# An Intuos5 M (usb:056a:002a in libwacom) and its Grip Pen, 0x802, whose eraser end is 0x80a.
WACOM_NAME = "Wacom Intuos5 M Pen"
WACOM_PHYS = "usb-0000:00:14.0-3/input0"
GRIP_PEN, GRIP_PEN_ERASER, SERIAL = 0x802, 0x80a, 0x1234
PROXIMITY = re.compile(r"\b(pen|eraser|brush|pencil|airbrush|mouse|lens)\s+\((0x[0-9a-f]+|0), id (0x[0-9a-f]+|0)\)\s+proximity-(in|out)")
DOUBLE_TAP_INTERVAL = 0.400  # the defaults (docs/gestures.md, "Default preferences")
TAP_MAX_DURATION = 0.300


class EvdevReader:
    """A plain reader of an evdev node, grabbing nothing: what any app that opens it gets.
    Keeps (time, type, code, value) of each event, time as the kernel stamped it."""

    EVIOCSCLOCKID = (1 << 30) | (4 << 16) | (ord("E") << 8) | 0xA0

    def __init__(self, node):
        self.node = node
        self.fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
        # CLOCK_MONOTONIC, as pencild and the pen's writer use (evdev's default is the wall clock).
        fcntl.ioctl(self.fd, self.EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
        self.events = []

    def take(self, timeout=0.0):
        """Reads what is queued, waiting up to `timeout` seconds for the first of it."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return 0
        try:
            data = os.read(self.fd, INPUT_EVENT.size * 256)
        except BlockingIOError:
            return 0
        for offset in range(0, len(data), INPUT_EVENT.size):
            seconds, microseconds, kind, code, value = INPUT_EVENT.unpack_from(data, offset)
            self.events.append((seconds + microseconds / 1e6, kind, code, value))
        return len(data) // INPUT_EVENT.size

    def wait_for(self, predicate, timeout, what, since=0):
        """Waits until an event from index `since` on satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        while not any(predicate(event) for event in self.events[since:]):
            left = deadline - time.monotonic()
            check(left > 0, f"{self.node}: no {what} within {timeout:.0f} s ({len(self.events)} events read)")
            self.take(left)

    def close(self):
        os.close(self.fd)


class Libinput(DebugEvents):
    """`libinput debug-events --device NODE`: the compositor's reader of the mirror."""

    LINE_TIME = re.compile(r"\+(\d+\.\d+)s")

    def __init__(self, node, log_path):
        # libinput opens only a node udev has finished with (as a compositor gets it from its
        # udev monitor); a mirror just made may still be in udev's queue.
        waited = subprocess.run(["udevadm", "wait", "--timeout=30", node], capture_output=True, text=True)
        check(waited.returncode == 0, f"udev did not initialize {node} within 30 s: {waited.stderr.strip()}")
        super().__init__(subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events", "--device", node],
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT), log_path)

    def times(self, *words):
        found = []
        for line in self.lines:
            if all(word in line for word in words):
                match = self.LINE_TIME.search(line)
                if match:
                    found.append(float(match.group(1)))
        return found


class UdevEvents:
    """`udevadm monitor --udev --property` on input devices: each event as udev sent it to its
    listeners after its rules ran."""

    def __init__(self, log_path):
        self.log_path = log_path
        self.process = subprocess.Popen(["stdbuf", "-oL", "udevadm", "monitor", "--udev", "--property", "--subsystem-match=input"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.text = b""
        # Its header comes once it listens: events from then on are not missed.
        deadline = time.monotonic() + 30
        while b"UDEV - the event" not in self.text:
            left = deadline - time.monotonic()
            check(left > 0, "udevadm monitor did not start")
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                data = os.read(self.process.stdout.fileno(), 65536)
                check(bool(data), "udevadm monitor ended")
                self.text += data

    def _blocks(self):
        events = []
        for block in self.text.decode(errors="replace").split("\n\n"):
            properties = dict(line.split("=", 1) for line in block.splitlines() if "=" in line)
            if "ACTION" in properties:
                events.append(properties)
        return events

    def wait_for_add(self, kernel_name, timeout):
        deadline = time.monotonic() + timeout
        while True:
            for event in self._blocks():
                if event.get("ACTION") == "add" and event.get("DEVNAME") == f"/dev/input/{kernel_name}":
                    return event
            left = deadline - time.monotonic()
            check(left > 0, f"udev announced no add of {kernel_name} within {timeout} s")
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                data = os.read(self.process.stdout.fileno(), 65536)
                check(bool(data), "udevadm monitor ended")
                self.text += data
                with open(self.log_path, "wb") as log:
                    log.write(self.text)

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


def stroke_frames():
    """A hover that comes closer, then a stroke with pressure and tilt: the axes the mirror
    must pass unchanged, as frames of (type, code, value)."""
    frames = [[(EV_ABS, ABS_X, 4000), (EV_ABS, ABS_Y, 4000), (EV_ABS, ABS_DISTANCE, 40), (EV_KEY, BTN_TOOL_PEN, 1)]]
    for step in range(1, 6):
        frames.append([(EV_ABS, ABS_X, 4000 + 30 * step), (EV_ABS, ABS_DISTANCE, 40 - 8 * step)])
    frames.append([(EV_ABS, ABS_PRESSURE, 900), (EV_ABS, ABS_TILT_X, 12), (EV_ABS, ABS_TILT_Y, -7), (EV_KEY, BTN_TOUCH, 1)])
    for step in range(1, 11):
        frames.append([(EV_ABS, ABS_X, 4150 + 90 * step), (EV_ABS, ABS_Y, 4000 + 40 * step),
                       (EV_ABS, ABS_PRESSURE, 900 + 250 * step), (EV_ABS, ABS_TILT_X, 12 + step), (EV_ABS, ABS_TILT_Y, -7 - step)])
    frames.append([(EV_ABS, ABS_PRESSURE, 0), (EV_KEY, BTN_TOUCH, 0)])
    frames.append([(EV_ABS, ABS_DISTANCE, 20)])
    frames.append([(EV_KEY, BTN_TOOL_PEN, 0)])
    return frames


def defuzz(value, old, fuzz):
    """The kernel's filter of an axis with fuzz (input_defuzz_abs_event)."""
    if fuzz:
        if old - fuzz // 2 < value < old + fuzz // 2:
            return old
        if old - fuzz < value < old + fuzz:
            return int((old * 3 + value) / 4)
        if old - fuzz * 2 < value < old + fuzz * 2:
            return int((old + value) / 2)
    return value


def filtered_values(values, start, fuzz, times=1):
    """The values a reader of a node gets for `values` written one by one, through `times`
    nodes with `fuzz` (a value equal to the last one passed is dropped)."""
    passed = list(values)
    for _ in range(times):
        current, out = start, []
        for value in passed:
            value = defuzz(value, current, fuzz)
            if value != current:
                current = value
                out.append(value)
        passed = out
    return passed


def proximities(lines):
    """libinput's proximity lines as (tool, serial, id, in or out)."""
    found = []
    for line in lines:
        match = PROXIMITY.search(line)
        if match:
            found.append((match.group(1), int(match.group(2), 16), int(match.group(3), 16), match.group(4)))
    return found


def device_group(kernel_name):
    """LIBINPUT_DEVICE_GROUP as udev's rules set it on a node, or None."""
    subprocess.run(["udevadm", "settle", "--timeout=30"], check=False)
    properties = subprocess.run(["udevadm", "info", "--query=property", f"/dev/input/{kernel_name}"],
                                capture_output=True, text=True).stdout
    for line in properties.splitlines():
        if line.startswith("LIBINPUT_DEVICE_GROUP="):
            return line.split("=", 1)[1]
    return None


def kernel_filtered_axes(frames, start):
    """The EV_ABS events a reader gets for `frames`: the kernel drops a value equal to the
    axis's current one (no fuzz here). `start`: each axis's value before."""
    current = dict(start)
    passed = []
    for frame in frames:
        for kind, code, value in frame:
            if kind == EV_ABS and current.get(code) != value:
                current[code] = value
                passed.append((code, value))
    return passed


class MirrorScenario(Scenario):
    name = "mirror"

    def __init__(self, suite, monitor_class, is_event, as_service_user, service_user):
        super().__init__(suite, monitor_class, is_event, as_service_user, service_user)
        self.pens = []
        self.readers = []

    def set_withhold(self, on, switches_tool=False):
        """Steps 1 to 7 are about the clicks: the switch of tools, step 8's, is off for them."""
        result = self.as_service_user(self.suite, self.pencilctl, "prefs", "set", f"withholdGestureClicks={'true' if on else 'false'}",
                                      f"mirrorSwitchesTool={'true' if switches_tool else 'false'}")
        check(result.returncode == 0, f"pencilctl prefs set withholdGestureClicks: {result.stderr.strip()}")

    def new_pen(self):
        pen = virtual_pen.Pen(PEN_NAME, phys=PEN_PHYS)
        self.pens.append(pen)
        # Each axis's value as last written, which is the device's own.
        self.axes = {}
        write = pen.emit

        def emit(*events):
            for kind, code, value in events:
                if kind == EV_ABS:
                    self.axes[code] = value
            return write(*events)
        pen.emit = emit
        return pen, pen.event_node()

    def close_pen(self, pen):
        pen.close()
        self.pens.remove(pen)

    def hover_in(self, pen, x=8000, y=6000):
        pen.emit((EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y), (EV_ABS, ABS_DISTANCE, 10), (EV_KEY, BTN_TOOL_PEN, 1))

    def hover_for(self, pen, seconds, x=8000, y=6000):
        """Hovers on, moving a little every 40 ms, for `seconds` (a person's hand)."""
        end = time.monotonic() + seconds
        step = 0
        while time.monotonic() < end:
            time.sleep(0.04)
            step += 1
            pen.emit((EV_ABS, ABS_X, x + step % 7), (EV_ABS, ABS_Y, y + step % 5))

    def mirror_of(self, monitor, pen_node):
        device = os.path.basename(pen_node)
        added = monitor.wait_for(self.is_event("deviceAdded", device), 20, f"deviceAdded for {device}")
        mirror = added["deviceInfo"].get("mirror")
        check(bool(mirror), f"no mirror for {device}: {added['deviceInfo']}")
        check(added["deviceInfo"].get("tipReportedAs") == "pen", f"a new mirror's tip is reported as {added['deviceInfo'].get('tipReportedAs')!r}")
        return device, mirror

    def switch_tool(self, monitor):
        """docs/gestures.md, "The pen switches tool through its mirror", read by libinput."""
        suite = self.suite
        self.set_withhold(True, switches_tool=True)
        wacom = virtual_pen.Pen(WACOM_NAME, vendor=0x056A, product=0x002A, phys=WACOM_PHYS, wacom=True)
        self.pens.append(wacom)
        device, mirror = self.mirror_of(monitor, wacom.event_node())
        plain, plain_node = self.new_pen()
        plain_device, plain_mirror = self.mirror_of(monitor, plain_node)

        # a. The mirror is in its pen's device group (the pen has a phys); another pen is not.
        groups = {name: device_group(name) for name in (device, mirror, plain_device)}
        check(groups[device] is not None and groups[device] == groups[mirror],
              f"the mirror is not in its pen's libinput device group: {groups}")
        check(groups[plain_device] != groups[device], f"another pen shares the Wacom pen's device group: {groups}")
        self.note(f"device group of {device} and its mirror {mirror}: {groups[device]}")

        libinput = Libinput(f"/dev/input/{mirror}", os.path.join(suite.results, "mirror-libinput-switch.txt"))
        libinput.wait_for(lambda lines: any("DEVICE_ADDED" in line for line in lines), 30, "DEVICE_ADDED of the Wacom pen's mirror")
        raw_mirror = EvdevReader(f"/dev/input/{mirror}")
        self.readers.append(raw_mirror)

        # b. Hovering, a double-tap: the eraser enters with the Grip Pen eraser's id and the serial.
        wacom.enter(8000, 6000, tool_id=GRIP_PEN, serial=SERIAL)
        libinput.wait_for(lambda lines: ("pen", SERIAL, GRIP_PEN, "in") in proximities(lines), 30, "the Grip Pen's proximity-in")
        wacom.clicks(2)
        tap = monitor.wait_for(self.is_event("doubleTap", device), 20, "doubleTap on the Wacom pen")
        check(tap.get("focus") == "pen", f"the double-tap pencild performed carries focus {tap.get('focus')!r}")
        changed = monitor.wait_for(self.is_event("deviceChanged", device), 20, "deviceChanged after the switch")
        check(changed["deviceInfo"].get("tipReportedAs") == "eraser", f"deviceChanged says {changed['deviceInfo']}")
        libinput.wait_for(lambda lines: ("eraser", SERIAL, GRIP_PEN_ERASER, "in") in proximities(lines), 30,
                          "the Grip Pen eraser's proximity-in (serial 0x1234, id 0x80a)")
        check(proximities(libinput.lines) == [("pen", SERIAL, GRIP_PEN, "in"), ("pen", SERIAL, GRIP_PEN, "out"),
                                              ("eraser", SERIAL, GRIP_PEN_ERASER, "in")],
              f"libinput's proximity events: {proximities(libinput.lines)}")
        self.note("after a double-tap libinput reads the Grip Pen as its eraser (0x80a, serial 0x1234)")

        # c. A stroke: it is the eraser's, and its pressure and tilt flow.
        axis_lines = libinput.count("TABLET_TOOL_AXIS")
        wacom.emit((EV_ABS, ABS_PRESSURE, 900), (EV_ABS, ABS_TILT_X, 12), (EV_KEY, BTN_TOUCH, 1))
        for step in range(1, 11):
            time.sleep(0.01)
            wacom.emit((EV_ABS, ABS_X, 8000 + 60 * step), (EV_ABS, ABS_PRESSURE, 900 + 300 * step), (EV_ABS, ABS_TILT_X, 12 + step))
        # d. A double-tap with the tip down: no switch until it lifts.
        wacom.clicks(2)
        monitor.wait_for(self.is_event("doubleTap", device), 20, "the second doubleTap, tip down")
        wacom.emit((EV_ABS, ABS_X, 8700))
        libinput.wait_for(lambda _: libinput.count("TABLET_TOOL_AXIS") >= axis_lines + 11, 30, "the stroke's axis events")
        check(libinput.count("TABLET_TOOL_TIP", "down") >= 1, "libinput saw no tip down from the eraser")
        check(len(proximities(libinput.lines)) == 3, f"a switch was written with the tip down: {proximities(libinput.lines)}")
        pressures = [line for line in libinput.lines if "TABLET_TOOL_AXIS" in line and "pressure" in line]
        check(len(pressures) >= 10, f"the eraser's pressure did not flow: {len(pressures)} axis lines with pressure")
        wacom.emit((EV_ABS, ABS_PRESSURE, 0), (EV_KEY, BTN_TOUCH, 0))
        libinput.wait_for(lambda lines: ("pen", SERIAL, GRIP_PEN, "in") in proximities(lines)[3:], 30,
                          "the pen back after the tip lifted")
        up = max(i for i, line in enumerate(libinput.lines) if "TABLET_TOOL_TIP" in line and "up" in line)
        back = max(i for i, line in enumerate(libinput.lines) if PROXIMITY.search(line) and "proximity-in" in line)
        check(up < back, "the switch back came before the tip lifted")
        self.note("a double-tap with the tip down switched back only once the tip lifted")

        # e. Unplugging ends the switch: switched to the eraser, the pen goes; back, it is the pen.
        wacom.clicks(2)
        libinput.wait_for(lambda lines: proximities(lines)[-1:] == [("eraser", SERIAL, GRIP_PEN_ERASER, "in")], 30,
                          "the eraser before the unplug")
        self.pens.remove(wacom)
        wacom.close()
        monitor.wait_for(self.is_event("deviceRemoved", device), 20, "deviceRemoved of the Wacom pen")
        libinput.close()
        wacom = virtual_pen.Pen(WACOM_NAME, vendor=0x056A, product=0x002A, phys=WACOM_PHYS, wacom=True)
        self.pens.append(wacom)
        device, mirror = self.mirror_of(monitor, wacom.event_node())
        libinput = Libinput(f"/dev/input/{mirror}", os.path.join(suite.results, "mirror-libinput-replugged.txt"))
        libinput.wait_for(lambda lines: any("DEVICE_ADDED" in line for line in lines), 30, "DEVICE_ADDED of the new mirror")
        raw_mirror = EvdevReader(f"/dev/input/{mirror}")
        self.readers.append(raw_mirror)
        wacom.enter(8000, 6000, tool_id=GRIP_PEN, serial=SERIAL)
        libinput.wait_for(lambda lines: len(proximities(lines)) >= 1, 30, "a proximity-in after the replug")
        check(proximities(libinput.lines)[0] == ("pen", SERIAL, GRIP_PEN, "in"), f"after a replug: {proximities(libinput.lines)}")

        # f. Every X/Y value the pen's node gave pencild reaches apps: a hover that jitters by
        # less than twice the fuzz, which a mirror with the pen's fuzz would filter again.
        while raw_mirror.take(0.2):
            pass
        before = len(raw_mirror.events)
        xs = [8000 + round(3 * ((step * 7) % 5) + step * 1.5) for step in range(1, 41)]
        for x in xs:
            wacom.emit((EV_ABS, ABS_X, x))
            time.sleep(0.005)
            raw_mirror.take(0)
        wacom.emit((EV_ABS, ABS_MISC, 0), (EV_KEY, BTN_TOOL_PEN, 0))
        raw_mirror.wait_for(lambda e: e[1] == EV_KEY and e[2] == BTN_TOOL_PEN and e[3] == 0, 20, "the hover's end", since=before)
        got = [value for _, kind, code, value in raw_mirror.events[before:] if kind == EV_ABS and code == ABS_X]
        once = filtered_values(xs, 8000, 4)
        twice = filtered_values(xs, 8000, 4, times=2)
        check(once != twice, "the jitter would not tell a second filter apart (the test's own control)")
        check(got == once, f"the mirror's X differ from what the pen's node gave: {got[:10]}... against {once[:10]}...")
        self.note(f"the mirror passed all {len(once)} X values of the pen's node (a second fuzz filter would pass {len(twice)})")
        libinput.close()

        # g. A pen with neither eraser nor ids: a double-tap makes it the eraser type all the same.
        libinput = Libinput(f"/dev/input/{plain_mirror}", os.path.join(suite.results, "mirror-libinput-plain.txt"))
        libinput.wait_for(lambda lines: any("DEVICE_ADDED" in line for line in lines), 30, "DEVICE_ADDED of the plain pen's mirror")
        self.hover_in(plain)
        libinput.wait_for(lambda lines: ("pen", 0, 0, "in") in proximities(lines), 30, "the plain pen's proximity-in")
        plain.clicks(2)
        libinput.wait_for(lambda lines: ("eraser", 0, 0, "in") in proximities(lines), 30, "the plain pen as the eraser type")
        plain.emit((EV_KEY, BTN_TOOL_PEN, 0))
        libinput.wait_for(lambda lines: proximities(lines)[-1:] == [("eraser", 0, 0, "out")], 30, "the eraser leaving")
        libinput.close()
        self.close_pen(plain)
        self.pens.remove(wacom)
        wacom.close()

    def run(self):
        suite = self.suite
        uinput = os.stat("/dev/uinput")
        service = pwd.getpwnam(self.service_user)
        monitor = self.Monitor()
        try:
            self.set_withhold(True)

            # Without /dev/uinput, the user's pencild says why it cannot withhold.
            os.chmod("/dev/uinput", 0o600)
            pen, node = self.new_pen()
            device = os.path.basename(node)
            added = monitor.wait_for(self.is_event("deviceAdded", device), 20, f"deviceAdded for {device}")
            check("mirror" not in added["deviceInfo"], f"a mirror without /dev/uinput: {added['deviceInfo']}")
            check("gesture clicks cannot be withheld: no write access to /dev/uinput" in suite.log_text(),
                  "pencild did not say why it cannot withhold gesture clicks")
            self.close_pen(pen)
            monitor.wait_for(self.is_event("deviceRemoved", device), 20, "deviceRemoved")

            # What udev tells its listeners (systemd, libinput, pencild) once its rules ran.
            udev_events = UdevEvents(os.path.join(suite.results, "mirror-udev-events.txt"))
            self.udev_events = udev_events
            # With it (the administrator's choice for this user), the pen gets a mirror.
            os.chown("/dev/uinput", 0, service.pw_gid)
            os.chmod("/dev/uinput", 0o660)
            pen, node = self.new_pen()
            device = os.path.basename(node)
            added = monitor.wait_for(self.is_event("deviceAdded", device), 20, f"deviceAdded for {device}")
            mirror = added["deviceInfo"].get("mirror")
            check(bool(mirror) and mirror != device, f"deviceAdded names no mirror: {added['deviceInfo']}")
            mirror_node = f"/dev/input/{mirror}"
            self.note(f"{device} is mirrored as {mirror}")
            listed = self.as_service_user(suite, self.pencilctl, "devices")
            check(f"mirror: {mirror}" in listed.stdout, f"pencilctl devices does not show the mirror: {listed.stdout}")
            check(not any(line.split(None, 1)[0] == mirror for line in listed.stdout.splitlines() if line.strip()),
                  "pencild lists its own mirror as a pen")
            phys = open(f"/sys/class/input/{mirror}/device/phys").read().strip()
            check(phys == PEN_PHYS + "-pencild", f"the mirror's phys is {phys!r}")
            pen_event = udev_events.wait_for_add(device, 30)
            mirror_event = udev_events.wait_for_add(mirror, 30)
            # The pen, for the positive side: tagged for pencild, and it starts pencild's target.
            check("pencild" in pen_event.get("CURRENT_TAGS", "") and "pencild-pen.target" in pen_event.get("SYSTEMD_WANTS", ""),
                  f"udev did not tag the pen for pencild: {pen_event}")
            check(mirror_event.get("ID_INPUT_TABLET") == "1", f"udev does not see the mirror as a tablet: {mirror_event}")
            check("pencild" not in mirror_event.get("CURRENT_TAGS", "") and "SYSTEMD_WANTS" not in mirror_event
                  and "uaccess" not in mirror_event.get("CURRENT_TAGS", ""),
                  f"the udev rules tag the mirror for pencild or give it uaccess: {mirror_event}")
            udev_events.close()

            reader_log = os.path.join(suite.results, "mirror-libinput.txt")
            libinput = Libinput(mirror_node, reader_log)
            libinput.wait_for(lambda lines: any("DEVICE_ADDED" in line and PEN_NAME in line for line in lines), 30,
                              "DEVICE_ADDED of the mirror")
            raw_mirror = EvdevReader(mirror_node)
            raw_pen = EvdevReader(node)  # another app on the grabbed node
            self.readers += [raw_mirror, raw_pen]

            # 1. A double-tap: no button event reaches libinput.
            self.hover_in(pen)
            for _ in range(2):
                time.sleep(0.03)
                pen.emit((EV_KEY, BTN_STYLUS, 1))
                time.sleep(0.03)
                pen.emit((EV_KEY, BTN_STYLUS, 0))
            time.sleep(0.03)
            pen.emit((EV_KEY, BTN_TOOL_PEN, 0))
            monitor.wait_for(self.is_event("doubleTap", device), 20, "doubleTap")
            libinput.wait_for(lambda _: libinput.count("proximity-out") >= 1, 30, "proximity-out after the double-tap")
            check(libinput.count("TABLET_TOOL_BUTTON") == 0, "a double-tap's click reached libinput")

            # 2. A lone click, the pen hovering on: it arrives once, after doubleTapInterval.
            self.hover_in(pen)
            time.sleep(0.03)
            pressed_at = pen.emit((EV_KEY, BTN_STYLUS, 1))
            time.sleep(0.04)
            pen.emit((EV_KEY, BTN_STYLUS, 0))
            self.hover_for(pen, DOUBLE_TAP_INTERVAL + 0.3)
            pen.emit((EV_KEY, BTN_TOOL_PEN, 0))
            libinput.wait_for(lambda _: libinput.count("proximity-out") >= 2, 30, "proximity-out after the lone click")
            check(libinput.count("TABLET_TOOL_BUTTON", "pressed") == 1 and libinput.count("TABLET_TOOL_BUTTON", "released") == 1,
                  "the lone click did not arrive exactly once: " + " | ".join(l for l in libinput.lines if "BUTTON" in l))
            raw_mirror.wait_for(lambda e: e[1] == EV_KEY and e[2] == BTN_TOOL_PEN and e[3] == 0, 20, "the mirror's proximity-out")
            mirror_press = [t for t, kind, code, value in raw_mirror.events if kind == EV_KEY and code == BTN_STYLUS and value == 1]
            check(len(mirror_press) == 1, f"the mirror wrote {len(mirror_press)} presses")
            delay = mirror_press[0] - pressed_at
            check(delay >= DOUBLE_TAP_INTERVAL - 0.002, f"the lone click was passed on {delay * 1000:.0f} ms after its press, before doubleTapInterval")
            self.note(f"the lone click reached the mirror {delay * 1000:.0f} ms after its press")

            # 3. A drag with the button held: the press arrives (late), then its release.
            self.hover_in(pen)
            time.sleep(0.03)
            pen.emit((EV_KEY, BTN_STYLUS, 1))
            self.hover_for(pen, TAP_MAX_DURATION + 0.3)
            pen.emit((EV_KEY, BTN_STYLUS, 0))
            time.sleep(0.03)
            pen.emit((EV_KEY, BTN_TOOL_PEN, 0))
            libinput.wait_for(lambda _: libinput.count("proximity-out") >= 3, 30, "proximity-out after the drag")
            check(libinput.count("TABLET_TOOL_BUTTON", "pressed") == 2 and libinput.count("TABLET_TOOL_BUTTON", "released") == 2,
                  "the drag's press and release did not arrive: " + " | ".join(l for l in libinput.lines if "BUTTON" in l))

            # 4. Position, pressure, tilt and distance are the pen's.
            # What is queued is read first, and the stroke read as it goes: an evdev reader that
            # falls behind loses events (SYN_DROPPED), which would be the reader's fault.
            while raw_mirror.take(0.2):
                pass
            before = len(raw_mirror.events)
            start = dict(self.axes)
            frames = stroke_frames()
            for frame in frames:
                pen.emit(*frame)
                time.sleep(0.01)
                raw_mirror.take(0)
            libinput.wait_for(lambda _: libinput.count("proximity-out") >= 4, 30, "proximity-out after the stroke")
            raw_mirror.wait_for(lambda e: e[1] == EV_KEY and e[2] == BTN_TOOL_PEN and e[3] == 0, 20,
                                "the stroke's proximity-out on the mirror", since=before)
            got = [(code, value) for _, kind, code, value in raw_mirror.events[before:] if kind == EV_ABS]
            expected = kernel_filtered_axes(frames, start)
            check(got == expected, f"the mirror's axes differ from the pen's: {got[:12]}... against {expected[:12]}...")
            check(libinput.count("TABLET_TOOL_TIP", "down") == 1, "libinput saw no tip down on the mirror")

            # 5. Nothing reached the other reader of the grabbed node.
            raw_pen.take(0.2)
            check(raw_pen.events == [], f"another reader of the grabbed pen got {len(raw_pen.events)} events")

            # 6. pencild killed: the kernel ends the grab and destroys the mirror; the pen
            # delivers again (the positive side of 5).
            suite.daemon.send_signal(signal.SIGKILL)
            suite.daemon.wait(timeout=20)
            libinput.wait_for(lambda lines: any("DEVICE_REMOVED" in line for line in lines), 30, "DEVICE_REMOVED of the mirror")
            for frame in stroke_frames()[:3]:
                pen.emit(*frame)
            pen.emit((EV_KEY, BTN_TOOL_PEN, 0))
            raw_pen.wait_for(lambda e: e[1] == EV_KEY and e[2] == BTN_TOOL_PEN and e[3] == 1, 20, "the pen's events after pencild was killed")
            libinput.close()
            suite.start_daemon()

            # 7. An unplug mid-press leaves libinput with no button held.
            monitor.close()
            monitor = self.Monitor()
            added = monitor.wait_for(self.is_event("deviceAdded", device), 20, f"deviceAdded for {device} after the restart")
            mirror = added["deviceInfo"].get("mirror")
            check(bool(mirror), f"no mirror after the restart: {added['deviceInfo']}")
            libinput = Libinput(f"/dev/input/{mirror}", os.path.join(suite.results, "mirror-libinput-unplug.txt"))
            libinput.wait_for(lambda lines: any("DEVICE_ADDED" in line for line in lines), 30, "DEVICE_ADDED of the new mirror")
            self.hover_in(pen)
            time.sleep(0.03)
            pen.emit((EV_KEY, BTN_STYLUS, 1))
            self.hover_for(pen, TAP_MAX_DURATION + 0.15)
            libinput.wait_for(lambda _: libinput.count("TABLET_TOOL_BUTTON", "pressed") >= 1, 30, "the held press")
            self.close_pen(pen)
            monitor.wait_for(self.is_event("deviceRemoved", device), 20, "deviceRemoved at the unplug")
            libinput.wait_for(lambda lines: any("DEVICE_REMOVED" in line for line in lines), 30, "DEVICE_REMOVED at the unplug")
            check(libinput.count("TABLET_TOOL_BUTTON", "released") == libinput.count("TABLET_TOOL_BUTTON", "pressed"),
                  "libinput was left with a button held: " + " | ".join(l for l in libinput.lines if "BUTTON" in l))
            libinput.close()

            # 8. The pen switches tool through its mirror, and its values pass exactly.
            self.switch_tool(monitor)
        finally:
            if getattr(self, "udev_events", None):
                self.udev_events.close()
            for reader in self.readers:
                reader.close()
            for pen in list(self.pens):
                self.close_pen(pen)
            os.chown("/dev/uinput", uinput.st_uid, uinput.st_gid)
            os.chmod("/dev/uinput", uinput.st_mode & 0o7777)
            if suite.daemon.poll() is not None:
                suite.start_daemon()
            self.set_withhold(False, switches_tool=True)
            monitor.close()
