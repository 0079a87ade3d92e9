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
from virtual_pen import (ABS_DISTANCE, ABS_PRESSURE, ABS_TILT_X, ABS_TILT_Y, ABS_X, ABS_Y, BTN_STYLUS, BTN_TOOL_PEN,
                         BTN_TOUCH, EV_ABS, EV_KEY, EV_SYN, INPUT_EVENT)

PEN_NAME = "pencild Mirror Pen"
PEN_PHYS = "pencild-suite/input0"
DOUBLE_TAP_INTERVAL = 0.400  # the defaults (docs/gestures.md, "Default preferences")
TAP_MAX_DURATION = 0.300


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


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


class Libinput:
    """`libinput debug-events --device NODE`: the compositor's reader of the mirror."""

    LINE_TIME = re.compile(r"\+(\d+\.\d+)s")

    def __init__(self, node, log_path):
        self.log_path = log_path
        self.process = subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events", "--device", node],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.buffer = b""
        self.lines = []

    def _read(self, timeout):
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            return
        data = os.read(self.process.stdout.fileno(), 65536)
        if not data:
            raise Failure(f"libinput debug-events exited ({self.process.poll()}): " + " | ".join(self.lines[-5:]))
        self.buffer += data
        *complete, self.buffer = self.buffer.split(b"\n")
        self.lines += [line.decode(errors="replace") for line in complete]
        with open(self.log_path, "w") as log:
            log.write("\n".join(self.lines) + "\n")

    def wait_for(self, predicate, timeout, what):
        """Waits until `predicate(lines)` holds."""
        deadline = time.monotonic() + timeout
        while not predicate(self.lines):
            left = deadline - time.monotonic()
            check(left > 0, f"libinput: no {what} within {timeout:.0f} s; its last lines: " + " | ".join(self.lines[-8:]))
            self._read(left)

    def count(self, *words):
        return sum(1 for line in self.lines if all(word in line for word in words))

    def times(self, *words):
        found = []
        for line in self.lines:
            if all(word in line for word in words):
                match = self.LINE_TIME.search(line)
                if match:
                    found.append(float(match.group(1)))
        return found

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


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


class MirrorScenario:
    def __init__(self, suite, monitor_class, is_event, as_service_user, service_user):
        self.suite = suite
        self.Monitor = monitor_class
        self.is_event = is_event
        self.as_service_user = as_service_user
        self.service_user = service_user
        self.pencilctl = os.path.join(suite.bin, "pencilctl")
        self.pens = []
        self.readers = []

    def note(self, text):
        self.suite.note(f"  mirror: {text}")

    def set_withhold(self, on):
        result = self.as_service_user(self.suite, self.pencilctl, "prefs", "set", f"withholdGestureClicks={'true' if on else 'false'}")
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
            self.set_withhold(False)
            monitor.close()
