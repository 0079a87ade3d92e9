#!/usr/bin/env python3
"""The kernel suite: pencild on real evdev devices, inside the test VM, as root.

  suite.py --bin DIR --results DIR [--recordings DIR] [--only NAME,...]

pencild runs as the system runs it: socket-activated (systemd-socket-activate stands in for
pencild.socket) on /run/pencild/pencild.sock, as an unprivileged user in group "input". Pens
are made with `pencilctl emulate`; a varlink client (below, standard library only) watches
what pencild reports. Each scenario prints PASS or FAIL with what went wrong; the exit status
is the number of failed scenarios (0: all passed). Standard library only: one python start
(about 2 s under emulation) runs every scenario.
"""

import argparse
import json
import os
import grp
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

import mirror
import mirror_load
import seat_switch
import seats
import smoothing
import focus_scenarios
import app_eraser
from scenario_support import Failure, check

# ---- evdev codes (linux/input-event-codes.h) ------------------------------
EV_SYN, EV_KEY, EV_ABS, EV_MSC = 0x00, 0x01, 0x03, 0x04
SYN_REPORT = 0
ABS_X, ABS_Y, ABS_PRESSURE, ABS_DISTANCE, ABS_TILT_X, ABS_TILT_Y = 0x00, 0x01, 0x18, 0x19, 0x1A, 0x1B
BTN_TOOL_PEN, BTN_TOOL_RUBBER = 0x140, 0x141
BTN_TOUCH, BTN_STYLUS, BTN_STYLUS2 = 0x14A, 0x14B, 0x14C
MSC_SERIAL = 0x00
INPUT_PROP_POINTER = 0x00

SOCKET = "/run/pencild/pencild.sock"
SERVICE_USER = "pencild-test"
LOCKED_RULE = "/etc/udev/rules.d/99-pencild-suite-locked.rules"

# ---- the scenarios' recordings ----------------------------------------------------
#
# Written before the suite by pencil-test-recordings (tests/recordings/main.swift)
# with the project's evemu writer: each scenario's pen script, on the Intuos5 pen of the
# tests' device table (Sources/PencilTestDevices) named after its scenario.

SUITE_PEN_IDS = (3, 0x056A, 0x0027)


# ---- a varlink client ---------------------------------------------------------


class VarlinkError(Exception):
    pass


class Varlink:
    """One connection: NUL-terminated JSON messages over a Unix stream socket."""

    def __init__(self, path=SOCKET, timeout=10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""

    def send(self, method, parameters=None, more=False):
        message = {"method": method, "parameters": parameters or {}}
        if more:
            message["more"] = True
        self.sock.sendall(json.dumps(message).encode() + b"\0")

    def receive(self, timeout):
        """The next message, or None when none came within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not data:
                raise VarlinkError("the daemon closed the connection")
            self.buffer += data
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, parameters=None, timeout=10.0):
        self.send(method, parameters)
        reply = self.receive(timeout)
        if reply is None:
            raise VarlinkError(f"{method}: no reply within {timeout} s")
        if "error" in reply:
            raise VarlinkError(f"{method}: {reply['error']} {reply.get('parameters')}")
        return reply.get("parameters", {})

    def close(self):
        self.sock.close()


class Monitor:
    """A Monitor stream; keeps every event it has read in `events`."""

    def __init__(self, path=SOCKET):
        self.link = Varlink(path)
        self.link.send("org.pencild.Pen.Monitor", {}, more=True)
        self.events = []
        self.read = 0  # events up to here were matched by an earlier expect()

    def wait_for(self, predicate, timeout, what, anywhere=False):
        """Reads until an event read since the last match (or any event, `anywhere`) satisfies
        `predicate`; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            for index in range(0 if anywhere else self.read, len(self.events)):
                if predicate(self.events[index]):
                    self.read = max(self.read, index + 1)
                    return self.events[index]
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"no {what} within {timeout:.0f} s; events since the last match: "
                              + summary(self.events[self.read:]))
            reply = self.link.receive(left)
            if reply is None:
                continue
            if "error" in reply:
                raise Failure(f"Monitor failed: {reply['error']} {reply.get('parameters')}")
            self.events.append(reply["parameters"]["event"])

    def drain(self, quiet=1.0, timeout=20.0):
        """Reads until nothing comes for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = self.link.receive(quiet)
            if reply is None:
                return
            self.events.append(reply["parameters"]["event"])

    def close(self):
        self.link.close()


def summary(events, limit=40):
    """The events as words, a run of the same word counted once ("motion@event4 x36"); past
    `limit` runs, the first ten and the last: the last are what a failed wait most needs."""
    runs = []
    for event in events:
        word = event["type"]
        for key in ("phase", "button", "action"):
            if key in event:
                word += f"/{event[key]}"
        if "device" in event:
            word += f"@{event['device']}"
        if runs and runs[-1][0] == word:
            runs[-1][1] += 1
        else:
            runs.append([word, 1])
    words = [word if count == 1 else f"{word} x{count}" for word, count in runs]
    if len(words) > limit:
        words = words[:10] + [f"... ({len(words) - limit} more) ..."] + words[-(limit - 10):]
    return "[" + ", ".join(words) + "]" if words else "none"


def is_event(kind, device=None, **fields):
    def match(event):
        if event["type"] != kind or (device is not None and event.get("device") != device):
            return False
        return all(event.get(key) == value for key, value in fields.items())
    return match


# ---- pencil-actions: its virtual keyboard, read back by an evdev reader --------------------

KEY_NAMES = {29: "leftctrl", 42: "leftshift", 18: "e", 64: "f6"}
EVIOCGNAME_LEN = 256


class KeyReader:
    """Reads an evdev node on a thread, keeping (code, value) of every EV_KEY and whether each
    came in a frame of its own; notes when the device goes (ENODEV)."""

    def __init__(self, node):
        import threading
        self.node = node
        self.fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
        self.keys = []          # (code, value)
        self.frames = []        # the EV_KEY events of each frame
        self.gone = False
        self.error = None
        self.lock = threading.Condition()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        import select
        import struct
        event = struct.Struct("=qqHHi")
        frame = []
        try:
            while True:
                select.select([self.fd], [], [], 1.0)
                try:
                    data = os.read(self.fd, event.size * 64)
                except BlockingIOError:
                    continue
                except OSError as error:
                    with self.lock:
                        if error.errno == 19:  # ENODEV: the device went
                            self.gone = True
                        else:
                            self.error = error
                        self.lock.notify_all()
                    return
                with self.lock:
                    for offset in range(0, len(data), event.size):
                        _, _, kind, code, value = event.unpack_from(data, offset)
                        if kind == EV_KEY:
                            self.keys.append((code, value))
                            frame.append((code, value))
                        elif kind == EV_SYN and code == SYN_REPORT:
                            if frame:
                                self.frames.append(frame)
                            frame = []
                    self.lock.notify_all()
        finally:
            os.close(self.fd)

    def wait_for(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        with self.lock:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0 or self.error:
                    raise Failure(f"{self.node}: no {what} within {timeout:.0f} s (error {self.error}); keys: {key_summary(self.keys)}")
                self.lock.wait(left)

    def held(self):
        down = set()
        for code, value in self.keys:
            if value:
                down.add(code)
            else:
                down.discard(code)
        return down


def key_summary(keys):
    return " ".join(f"{KEY_NAMES.get(code, code)}{'↓' if value else '↑'}" for code, value in keys) or "none"


def chord(*codes):
    """The frames of a chord: each modifier down, the key down, the key up, modifiers up."""
    return [(code, 1) for code in codes] + [(code, 0) for code in reversed(codes)]


class ActionsProcess:
    """pencil-actions as the user SERVICE_USER (whom pencild serves), with its own bindings."""

    def __init__(self, suite, name, bindings, *options, environment=None):
        self.suite = suite
        user = pwd.getpwnam(SERVICE_USER)
        self.home = os.path.join(suite.work, name)
        config = os.path.join(self.home, "config", "pencild")
        os.makedirs(config, exist_ok=True)
        with open(os.path.join(config, "actions.conf"), "w") as f:
            f.write(bindings)
        for path in (self.home, os.path.join(self.home, "config"), config):
            os.chown(path, user.pw_uid, user.pw_gid)
        self.log_path = os.path.join(self.home, "actions.log")
        environment = {"PATH": "/usr/bin:/bin", "HOME": self.home, "XDG_CONFIG_HOME": os.path.join(self.home, "config"),
                       "PENCILD_SOCKET": SOCKET, **(environment or {})}
        # setpriv runs pencil-actions in place (same pid), as the user, with no capabilities.
        self.process = subprocess.Popen(
            ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups", "--inh-caps=-all", "--",
             os.path.join(suite.bin, "pencil-actions"), "--verbose", *options],
            env=environment, stdout=subprocess.DEVNULL, stderr=open(self.log_path, "wb"))
        self.wait_log("subscribed to doubleTap and squeeze", 30)

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def wait_log(self, pattern, timeout, start=0):
        deadline = time.monotonic() + timeout
        while True:
            match = re.search(pattern, self.log()[start:])
            if match:
                return match
            check(self.process.poll() is None, f"pencil-actions exited ({self.process.returncode}): {self.log()}")
            check(time.monotonic() < deadline, f"pencil-actions did not log /{pattern}/ within {timeout} s: {self.log()}")
            time.sleep(0.05)

    def keyboard(self):
        match = self.wait_log(r'virtual keyboard "pencil-actions keyboard" at (/dev/input/event\d+)', 20)
        return match.group(1)

    def idle_figures(self, seconds=2.0):
        """Context switches over `seconds` (a measuring window) and the resident memory, in KiB."""
        def status():
            with open(f"/proc/{self.process.pid}/status") as f:
                return dict(line.split(":", 1) for line in f if ":" in line)
        before = status()
        time.sleep(seconds)
        after = status()
        switches = sum(int(after[k]) - int(before[k]) for k in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"))
        return switches, int(after["VmRSS"].split()[0])

    def stop(self, sig=signal.SIGTERM):
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout=20)


def as_service_user(suite, *command):
    user = pwd.getpwnam(SERVICE_USER)
    return subprocess.run(["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups", "--", *command],
                          env={"PATH": "/usr/bin:/bin", "PENCILD_SOCKET": SOCKET}, capture_output=True, text=True, timeout=60)


FOCUS_CLIENT = r"""
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(json.dumps({"method": "org.pencild.Pen.SetFocus", "parameters": {"focused": True}}).encode() + b"\0")
reply = b""
while not reply.endswith(b"\0"):
    data = s.recv(4096)
    if not data:
        break
    reply += data
print(reply.rstrip(b"\0").decode(), flush=True)
sys.stdin.read()  # holds the claim (and the connection) until stdin closes
"""


# ---- the suite ---------------------------------------------------------------------


class Suite:
    def __init__(self, args):
        self.bin = args.bin
        self.results = args.results
        self.recordings = args.recordings
        self.scenario_recordings = args.scenario_recordings
        self.libinput_root = args.libinput_root
        self.work = tempfile.mkdtemp(prefix="pencild-suite.")
        os.chmod(self.work, 0o755)
        self.daemon = None
        self.daemon_log = os.path.join(self.results, "pencild.log")
        self.pens = []
        self.start = time.monotonic()

    def note(self, text):
        print(f"suite: [{time.monotonic() - self.start:6.1f}s] {text}", flush=True)

    # -- pencild, as the system runs it

    def install_locked_rule(self):
        """A udev rule that leaves one test pen's node to root alone (mode 0600), installed
        before any pen appears so that no rule reload races with a new device."""
        with open(LOCKED_RULE, "w") as f:
            f.write('SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="pencild Locked Pen", MODE="0600", GROUP="root"\n')
        subprocess.run(["udevadm", "control", "--reload"], check=True)
        subprocess.run(["udevadm", "settle", "--timeout=30"], check=False)

    def start_daemon(self):
        subprocess.run(["bash", os.path.join(os.path.dirname(__file__), "guest-add-user.sh"), SERVICE_USER, "input"],
                       check=True, stdout=subprocess.DEVNULL)
        user = pwd.getpwnam(SERVICE_USER)
        state = "/run/pencild-test-state"  # /var may be read-only in the VM
        os.makedirs(state, exist_ok=True)
        os.chown(state, user.pw_uid, user.pw_gid)
        os.makedirs(os.path.dirname(SOCKET), exist_ok=True)
        if os.path.exists(SOCKET):
            os.unlink(SOCKET)
        input_gid = grp.getgrnam("input").gr_gid
        # systemd-socket-activate makes the listening socket and execs the rest in place (same
        # pid, so LISTEN_PID matches), as pencild.socket and pencild.service would; setpriv
        # drops to the service user with group input and no capabilities, as the unit does;
        # prlimit grants SCHED_RR priority 1 for the pen's thread, as its LimitRTPRIO=1 does.
        command = ["systemd-socket-activate", "-l", SOCKET, "-E", "PENCILD_SOCKET",
                   "prlimit", "--rtprio=1:1", "setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", f"--groups={input_gid}",
                   "--inh-caps=-all", "--",
                   os.path.join(self.bin, "pencild"), "--state-dir", state, "--log-level", "debug"]
        self.daemon = subprocess.Popen(command, stdout=open(self.daemon_log, "ab"), stderr=subprocess.STDOUT)
        for _ in range(200):
            if os.path.exists(SOCKET):
                break
            time.sleep(0.05)
        # As pencild.socket makes it (SocketMode=0666): pencild checks each client itself.
        os.chmod(SOCKET, 0o666)
        info = Varlink().call("org.varlink.service.GetInfo", timeout=30)
        check(info.get("product") == "pencild", f"GetInfo answered {info}")
        self.note(f"pencild {info.get('version')} is pid {self.daemon.pid}")

    def daemon_alive(self):
        check(self.daemon.poll() is None, f"pencild exited with status {self.daemon.returncode} (see pencild.log)")
        info = Varlink().call("org.varlink.service.GetInfo")
        check(info.get("product") == "pencild", "pencild no longer answers GetInfo")

    def log_text(self):
        with open(self.daemon_log, errors="replace") as f:
            return f.read()

    def stop_daemon(self):
        if self.daemon and self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGTERM)
            try:
                return self.daemon.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()
                return None
        return self.daemon.returncode if self.daemon else None

    # -- pens

    def emulate(self, recording, *options, settle=2.0, wait_for_pencild=True):
        """Starts `pencilctl emulate`; returns (process, node) once the device exists. The
        recording plays once pencild has added the device (pencilctl waits for its
        deviceAdded: however long udev and pencild take, no event is played before pencild
        reads the node); for a pen pencild will not add, after `settle` seconds. `settle` is
        also how long the device stays after its last event (without --hold)."""
        log = open(os.path.join(self.work, os.path.basename(recording) + ".log"), "wb")
        command = [os.path.join(self.bin, "pencilctl"), "emulate", recording, "--settle", str(settle), *options]
        if wait_for_pencild:
            command.append("--wait-for-pencild")
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log,
                                   env=dict(os.environ, PENCILD_SOCKET=SOCKET))
        self.pens.append(process)
        node = process.stdout.readline().decode().strip()
        check(node.startswith("/dev/input/event"), f"pencilctl emulate printed {node!r} (exit {process.poll()})")
        return process, node

    def wait_played(self, recording, timeout=60, monitor=None):
        """Waits until `pencilctl emulate --hold` has written every event of `recording`."""
        log = os.path.join(self.work, os.path.basename(recording) + ".log")
        deadline = time.monotonic() + timeout
        while "holding the device" not in open(log).read():
            check(time.monotonic() < deadline, f"{os.path.basename(recording)} was not played within {timeout} s")
            if monitor:
                monitor.drain(quiet=0.2, timeout=0.5)
            else:
                time.sleep(0.1)

    def unplug(self, process):
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)

    def script_path(self, name):
        return os.path.join(self.work, name)

    def scenario_recording(self, name):
        """The path of a scenario's recording, written before the suite (see above)."""
        path = os.path.join(self.scenario_recordings or "", name)
        check(bool(self.scenario_recordings) and os.path.isfile(path),
              f"no scenario recording {name} in {self.scenario_recordings!r} (pencil-test-recordings writes them)")
        return path

    # -- scenarios

    def scenario_pen_appears(self):
        """A pen appears: deviceAdded, a stroke, hover, a double-tap and a squeeze, then it goes."""
        # Hover, a stroke, a double-tap (two clicks 150 ms apart), a squeeze (held 300 ms), leaving.
        path = self.scenario_recording("appears.evemu")
        monitor = Monitor()
        pen, node = self.emulate(path)
        device = os.path.basename(node)
        added = monitor.wait_for(is_event("deviceAdded", device), 15, f"deviceAdded for {device}")
        info = added["deviceInfo"]
        check(info["name"] == "pencild Suite Pen", f"deviceAdded names {info['name']!r}")
        check((info["bus"], info["vendor"], info["product"]) == SUITE_PEN_IDS, f"ids {info}")
        check(info["direct"] is False, "an external tablet reported as direct")
        check(set(info["tools"]) >= {"pen", "eraser"}, f"tools {info['tools']}")
        check(set(info["buttons"]) >= {"stylus", "stylus2"}, f"buttons {info['buttons']}")
        check({"pressure", "distance", "tilt"} <= set(info["axes"]), f"axes {info['axes']}")
        expected = [
            ("proximityIn", {}), ("hover", {"phase": "began"}), ("hover", {"phase": "changed"}),
            ("hover", {"phase": "ended"}), ("tipDown", {}), ("motion", {}), ("tipUp", {}),
            ("hover", {"phase": "began"}),
            ("buttonDown", {"button": "stylus"}), ("buttonUp", {"button": "stylus"}),
            ("buttonDown", {"button": "stylus"}), ("doubleTap", {"action": "switchEraser"}),
            ("buttonUp", {"button": "stylus"}),
            ("buttonDown", {"button": "stylus2"}), ("squeeze", {"phase": "began"}),
            ("buttonUp", {"button": "stylus2"}), ("squeeze", {"phase": "ended", "action": "showContextualPalette"}),
            ("hover", {"phase": "ended"}), ("proximityOut", {}), ("deviceRemoved", {}),
        ]
        for kind, fields in expected:
            event = monitor.wait_for(is_event(kind, device, **fields), 20, f"{kind} {fields}")
            if kind in ("tipDown", "motion", "doubleTap"):
                check("pose" in event and 0 <= event["pose"]["x"] <= 1, f"{kind} without a pose: {event}")
        pen.wait(timeout=20)
        monitor.close()
        self.daemon_alive()

    def gesture_scenario(self, recording, preferences, name, model, expected):
        """A pen of `recording` plays under the monitoring user's `preferences`: its deviceAdded
        names `model`, and its events are `expected`, in order, with nothing else of its
        proximity, tip or buttons between them. The preferences go back to the defaults after."""
        link = Varlink()
        before = link.call("org.pencild.Pen.GetPreferences")["preferences"]
        link.call("org.pencild.Pen.SetPreferences", {"preferences": preferences})
        try:
            monitor = Monitor()
            pen, node = self.emulate(self.scenario_recording(recording))
            device = os.path.basename(node)
            added = monitor.wait_for(is_event("deviceAdded", device), 15, f"deviceAdded for {device}")
            info = added["deviceInfo"]
            check(info["name"] == name, f"deviceAdded names {info['name']!r}")
            check(info.get("model") == model, f"libwacom's model {info.get('model')!r}, not {model!r}")
            monitor.wait_for(is_event("deviceRemoved", device), 30, "deviceRemoved")
            pen.wait(timeout=20)
            kinds = ("proximityIn", "proximityOut", "tipDown", "tipUp", "buttonDown", "buttonUp", "doubleTap", "squeeze")
            seen = [e for e in monitor.events if e.get("device") == device and e["type"] in kinds]
            words = [" ".join(str(e.get(k)) for k in ("type", "button", "phase", "action") if e.get(k)) for e in seen]
            check(words == expected, f"events {words}, not {expected}")
            monitor.close()
            return seen, info
        finally:
            link.call("org.pencild.Pen.SetPreferences", {"preferences": before})
            link.close()

    def scenario_eraser_button(self):
        """An AES pen's eraser button through uinput: a double-tap, a squeeze, and the pen leaving with it held."""
        seen, info = self.gesture_scenario(
            "eraser-button.evemu", {"eraserButton": "button", "tapButton": "eraser", "squeezeButton": "longPress"},
            "pencild AES Pen", "Wacom ISDv4 4800", [
                "proximityIn",
                "buttonDown eraser", "buttonUp eraser",
                "buttonDown eraser", "doubleTap switchEraser", "buttonUp eraser",
                "buttonDown eraser", "squeeze began", "buttonUp eraser", "squeeze ended showContextualPalette",
                "buttonDown eraser", "buttonUp eraser", "proximityOut",
            ])
        check("eraser" in info["buttons"], f"buttons {info['buttons']} lack the eraser button")
        check(all(e["tool"]["type"] == "pen" for e in seen if "tool" in e), "an event of the eraser tool")

    def scenario_mirror(self):
        """Gesture clicks withheld: pencild grabs the pen, and libinput reads its mirror as a compositor would."""
        mirror.MirrorScenario(self, Monitor, is_event, as_service_user, SERVICE_USER).run()

    def scenario_mirror_under_load(self):
        """Stalled clients and a connect flood do not delay the pen's frames to the mirror, against quiet rounds of the same run."""
        mirror_load.MirrorUnderLoad(self, Monitor, is_event, as_service_user, SERVICE_USER, SOCKET).run()

    def scenario_mirror_smoothing(self):
        """libinput 1.31 reads a pen's mirror as it reads the pen: the same axis values, frame for frame, smoothed alike."""
        smoothing.SmoothingScenario(self, Monitor, is_event, as_service_user, SERVICE_USER, self.libinput_root,
                                    truncate_recording).run()

    def scenario_eraser_in_app(self):
        """A double-tap erases in Xournal++ on sway (its libinput reading the mirror): drawn, erased by the same stroke, drawn again."""
        app_eraser.EraserInApp(self, Monitor, is_event, as_service_user, SERVICE_USER).run()

    def scenario_seat_switch(self):
        """A user's pencild stops reading a pen when another user's session takes the seat, and reads it again when it comes back."""
        seat_switch.SeatSwitchScenario(self, Monitor, is_event, SERVICE_USER).run()

    def scenario_seats(self):
        """The system service on two seats: only seat0's pen is mirrored, its mirror cannot type, each pen reaches its seat's user, a switch ends the old user's mirror at once."""
        # The suite's own pencild must leave the scenario's pens to the scenario's: told not to
        # withhold gesture clicks, it makes no mirror and grabs neither pen, whichever
        # scenarios ran before (without this, seats passed only after pencil-actions).
        result = as_service_user(self, os.path.join(self.bin, "pencilctl"), "prefs", "set", "withholdGestureClicks=false")
        check(result.returncode == 0, f"pencilctl prefs set withholdGestureClicks=false: {result.stderr}")
        seats.SeatsScenario(self, Monitor, Varlink, is_event, SERVICE_USER).run()

    def scenario_third_button(self):
        """A Pro Pen 3's third button through uinput: named from libwacom, a double-tap and a squeeze."""
        seen, info = self.gesture_scenario(
            "third-button.evemu", {"tapButton": "stylus3", "squeezeButton": "longPress"},
            "pencild Pro Pen 3", "Wacom Cintiq Pro 27", [
                "proximityIn",
                "buttonDown stylus3", "buttonUp stylus3",
                "buttonDown stylus3", "doubleTap switchEraser", "buttonUp stylus3",
                "buttonDown stylus3", "squeeze began", "buttonUp stylus3", "squeeze ended showContextualPalette",
                "proximityOut",
            ])
        check("stylus3" in info["buttons"], f"buttons {info['buttons']}")
        check(seen[0].get("stylus", {}).get("name") == "Pro Pen 3", f"proximityIn's stylus {seen[0].get('stylus')}")

    def held_pen(self, recording):
        """A virtual pen playing the scenario recording `recording` and kept after its last
        event (--hold), with a Monitor that has seen it added: (path, monitor, pen, device)."""
        path = self.scenario_recording(recording)
        monitor = Monitor()
        pen, node = self.emulate(path, "--hold")
        device = os.path.basename(node)
        monitor.wait_for(is_event("deviceAdded", device), 15, "deviceAdded")
        return path, monitor, pen, device

    def scenario_unplug_mid_stroke(self):
        """Unplugged with the tip down: tipUp, proximityOut, deviceRemoved; pencild keeps running."""
        path, monitor, pen, device = self.held_pen("mid-stroke.evemu")
        monitor.wait_for(is_event("tipDown", device), 15, "tipDown")
        monitor.wait_for(is_event("motion", device), 15, "motion")
        self.wait_played(path, monitor=monitor)
        monitor.drain(quiet=0.5)
        start = len(monitor.events)
        self.unplug(pen)
        for kind in ("tipUp", "proximityOut", "deviceRemoved"):
            monitor.wait_for(is_event(kind, device), 15, f"{kind} after the unplug")
        closing = [e["type"] for e in monitor.events[start:] if e.get("device") == device]
        check(closing == ["tipUp", "proximityOut", "deviceRemoved"], f"the close-out was {closing}")
        monitor.close()
        self.daemon_alive()

    def scenario_unplug_mid_squeeze(self):
        """Unplugged during a squeeze: buttonUp, the squeeze closed once, hover ended, proximityOut, deviceRemoved.

        The kernel releases every held key of a device it disconnects, in one last frame,
        before readers get ENODEV (input_disconnect_device). A reader that reads that frame
        in time sees the button let go, and the squeeze ends (with its action); one that gets
        ENODEV first closes out, and the squeeze is cancelled. Both are a correct account of
        what the reader saw; which one happens is a race, so either is accepted here."""
        path, monitor, pen, device = self.held_pen("mid-squeeze.evemu")
        monitor.wait_for(is_event("squeeze", device, phase="began"), 15, "squeeze began")
        self.wait_played(path, monitor=monitor)
        monitor.drain(quiet=0.5)
        start = len(monitor.events)
        self.unplug(pen)
        monitor.wait_for(is_event("deviceRemoved", device), 15, "deviceRemoved after the unplug")
        closing = [e for e in monitor.events[start:] if e.get("device") == device]
        kinds = [(e["type"], e.get("phase") or e.get("button")) for e in closing]
        squeezes = [phase for kind, phase in kinds if kind == "squeeze"]
        check(len(squeezes) == 1 and squeezes[0] in ("ended", "cancelled"), f"the squeeze did not close once: {summary(closing)}")
        expected = [("buttonUp", "stylus2"), ("squeeze", squeezes[0]), ("hover", "ended"), ("proximityOut", None),
                    ("deviceRemoved", None)]
        check(kinds == expected, f"the close-out was {summary(closing)}")
        ended = next(e for e in closing if e["type"] == "squeeze")
        if squeezes[0] == "ended":
            check(ended.get("action") == "showContextualPalette", f"an ended squeeze without its action: {ended}")
        else:
            check("action" not in ended, f"a cancelled squeeze with an action: {ended}")
        self.note(f"  the squeeze was {squeezes[0]} (the kernel's release of held keys was "
                  f"{'read' if squeezes[0] == 'ended' else 'not read'} before the device went)")
        monitor.close()
        self.daemon_alive()

    def scenario_syn_dropped(self):
        """pencild stopped while the pen floods the kernel buffer; button and tip released meanwhile.
        After SIGCONT, libevdev's sync brings the state right: nothing stays pressed."""
        # Tip and both buttons held; a 4 s pause (pencild is stopped during it), then 3000
        # frames in one burst, and everything let go.
        path, monitor, pen, device = self.held_pen("flood.evemu")
        monitor.wait_for(is_event("tipDown", device), 15, "tipDown")
        monitor.wait_for(is_event("squeeze", device, phase="began"), 15, "squeeze began (stylus2 held)")
        monitor.wait_for(is_event("buttonDown", device, button="stylus"), 15, "buttonDown stylus", anywhere=True)
        os.kill(self.daemon.pid, signal.SIGSTOP)
        self.note("pencild stopped (SIGSTOP) while the pen writes 3000 frames")
        try:
            self.wait_played(path)
        finally:
            os.kill(self.daemon.pid, signal.SIGCONT)
        self.note("pencild continued (SIGCONT)")
        start = len(monitor.events)
        monitor.wait_for(is_event("squeeze", device, phase="cancelled"), 20, "squeeze cancelled after SYN_DROPPED")
        monitor.drain(quiet=1.5)
        after = [e for e in monitor.events[start:] if e.get("device") == device]
        kinds = [(e["type"], e.get("button")) for e in after]
        check(("buttonUp", "stylus") in kinds and ("buttonUp", "stylus2") in kinds, f"no buttonUp after resync: {summary(after)}")
        check(("tipUp", None) in kinds, f"no tipUp after resync: {summary(after)}")
        check(not any(e["type"] == "squeeze" and e.get("phase") == "ended" for e in after), "a squeeze ended across SYN_DROPPED")
        # A new client catches up with the current state: nothing held, the tip up. (The pen
        # itself may have left by then: it went silent, a forced proximity-out.)
        fresh = Monitor()
        fresh.drain(quiet=1.0)
        state = [e for e in fresh.events if e.get("device") == device]
        state_kinds = [e["type"] for e in state]
        check(state_kinds[:1] == ["deviceAdded"], f"catch-up: {summary(state)}")
        check("tipDown" not in state_kinds, f"the tip is stuck down: {summary(state)}")
        check("buttonDown" not in state_kinds, f"a button is stuck down: {summary(state)}")
        check(not any(e["type"] == "squeeze" for e in state), f"a squeeze is stuck: {summary(state)}")
        fresh.close()
        if "dropped" not in self.log_text().lower():
            self.note("  note: pencild's log does not mention the dropped events")
        self.unplug(pen)
        monitor.wait_for(is_event("deviceRemoved", device), 15, "deviceRemoved")
        monitor.close()
        self.daemon_alive()

    def scenario_real_devices(self):
        """Real tablets' capabilities, several at once: each is added with its identity and
        reports the strokes and clicks `pencilctl events` finds in the same recording."""
        if not self.recordings:
            raise Failure("no recordings: set PENCILD_RECORDINGS (the shared recordings' directory)")
        chosen = [
            ("Wacom Cintiq 22HDT Pen.events", None),
            ("Wacom Intuos4 6x9.stylus-drag.events", "Wacom Intuos4 6x9 Pen.desc"),
            ("dell_canvas_pen.evemu", None),
            ("UC-LOGIC Tablet WP5540U Pen.events", None),
            ("Genius EasyPen i405X.events", "Genius EasyPen i405X.desc"),
        ]
        # What each recording gives offline, worked out before any pen plays: the monitor below
        # is not read while the pens are set up, and a pen that plays meanwhile must not leave
        # it behind for long (pencild drops a reader that lags by seconds).
        prepared = []
        for events_file, desc in chosen:
            source = os.path.join(self.recordings, events_file)
            # At most the first 8 s of each, so they all play at once in real time.
            path = self.script_path(events_file.replace(" ", "_"))
            truncate_recording(source, path, seconds=8.0)
            options = ["--desc", os.path.join(self.recordings, desc)] if desc else []
            offline = subprocess.run([os.path.join(self.bin, "pencilctl"), "events", path, *options],
                                     capture_output=True, text=True)
            check(offline.returncode == 0, f"pencilctl events {events_file}: {offline.stderr.strip()}")
            prepared.append((events_file, path, options, [json.loads(line) for line in offline.stdout.splitlines()]))
        monitor = Monitor()
        pens = []
        for events_file, path, options, expected in prepared:
            pen, node = self.emulate(path, *options, "--hold")
            pens.append((events_file, pen, os.path.basename(node), expected))
        for events_file, pen, device, expected in pens:
            added = monitor.wait_for(is_event("deviceAdded", device), 20, f"deviceAdded for {events_file}", anywhere=True)
            want = expected[0]["deviceInfo"]
            got = added["deviceInfo"]
            for key in ("name", "bus", "vendor", "product", "direct", "tools", "axes", "buttons"):
                check(got.get(key) == want.get(key), f"{events_file}: {key} is {got.get(key)!r}, offline {want.get(key)!r}")
        # Wait for every pen to finish playing, then compare.
        for events_file, pen, device, expected in pens:
            self.wait_played(self.script_path(events_file.replace(" ", "_")), monitor=monitor)
        # Unplugged, each closes what is open as the end of the offline replay does: compare then.
        for events_file, pen, device, expected in pens:
            self.unplug(pen)
        for events_file, pen, device, expected in pens:
            monitor.wait_for(is_event("deviceRemoved", device), 20, f"deviceRemoved for {events_file}", anywhere=True)
        for events_file, pen, device, expected in pens:
            live = [e for e in monitor.events if e.get("device") == device]
            for kind in ("tipDown", "tipUp", "buttonDown", "buttonUp"):
                want = sum(1 for e in expected if e["type"] == kind)
                got = sum(1 for e in live if e["type"] == kind)
                check(got == want, f"{events_file}: {got} {kind} live, {want} offline")
            # Proximity may differ by one: a forced proximity-out depends on a 500 ms silence,
            # which live playback reproduces only to within the host's jitter.
            want_in = sum(1 for e in expected if e["type"] == "proximityIn")
            got_in = sum(1 for e in live if e["type"] == "proximityIn")
            check(got_in >= 1 and abs(got_in - want_in) <= 1, f"{events_file}: {got_in} proximityIn live, {want_in} offline")
            self.note(f"  {events_file}: {len(live)} events live, {len(expected)} offline")
        monitor.close()
        self.daemon_alive()

    def scenario_unreadable_device(self):
        """A pen pencild cannot open (mode 0600, root) is reported in its log, not fatal; the
        next pen works."""
        # LOCKED_RULE (installed before pencild started) makes this pen's node root's alone.
        path = self.scenario_recording("locked.evemu")
        monitor = Monitor()
        log_start = len(self.log_text())
        # pencild cannot open this one: nothing to wait for but the settle.
        pen, node = self.emulate(path, "--hold", wait_for_pencild=False)
        name = re.compile(r"\b" + os.path.basename(node) + r"\b")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not name.search(self.log_text()[log_start:]):
            time.sleep(0.2)
        stat = os.stat(node)
        check(stat.st_mode & 0o077 == 0, f"{node} is not locked: mode {oct(stat.st_mode)}")
        with open(f"/proc/{self.daemon.pid}/status") as f:
            ids = [line.strip() for line in f if line.startswith(("Uid", "Gid", "Groups", "CapEff"))]
        self.note(f"  {node}: mode {oct(stat.st_mode)}, owner {stat.st_uid}:{stat.st_gid}; pencild {ids}")
        lines = [line for line in self.log_text()[log_start:].splitlines() if name.search(line)]
        check(lines, f"pencild's log does not mention {node}")
        check(any("denied" in line.lower() or "permission" in line.lower() for line in lines),
              f"pencild's log does not say why {node} was not opened: {lines}")
        monitor.drain(quiet=1.0)
        check(not any(e.get("device") == os.path.basename(node) and e["type"] != "deviceRemoved" for e in monitor.events),
              f"events from a device pencild cannot read: {summary(monitor.events)}")
        self.daemon_alive()
        self.unplug(pen)
        monitor.close()
        # The next pen is read as usual.
        path = self.scenario_recording("after-locked.evemu")
        monitor = Monitor()
        pen, node = self.emulate(path)
        device = os.path.basename(node)
        monitor.wait_for(is_event("deviceAdded", device), 15, "deviceAdded for the next pen")
        monitor.wait_for(is_event("proximityIn", device), 15, "proximityIn from the next pen")
        pen.wait(timeout=20)
        monitor.close()
        self.daemon_alive()

    def scenario_service_identity(self):
        """pencild runs unprivileged, in group input, on the socket systemd-socket-activate passed."""
        with open(f"/proc/{self.daemon.pid}/status") as f:
            status = dict(line.split(":", 1) for line in f if ":" in line)
        uids = status["Uid"].split()
        groups = status["Groups"].split()
        user = pwd.getpwnam(SERVICE_USER)
        check(uids[0] == uids[1] == str(user.pw_uid), f"pencild runs as uid {uids}, not {SERVICE_USER}")
        check(str(grp.getgrnam("input").gr_gid) in groups, f"pencild is not in group input: {groups}")
        check(status["CapEff"].strip() == "0000000000000000", f"pencild has capabilities {status['CapEff'].strip()}")
        check("listening on the socket systemd passed" in self.log_text(), "pencild did not use the passed socket")
        link = Varlink()
        devices = link.call("org.pencild.Pen.ListDevices")
        check("devices" in devices, f"ListDevices answered {devices}")
        link.close()

    def scenario_pencil_actions(self):
        """pencil-actions performs each gesture's binding: the bound chord on its virtual keyboard, a command once per gesture.

        Its udev rule tags /dev/uinput uaccess. It stands aside while an app of the user holds focus, lets go of every key when it is
        stopped mid-chord (SIGTERM) or killed (SIGKILL: the kernel lets go), and without
        access to /dev/uinput says so and still runs commands. Idle, it does not wake up and
        stays under 10 MiB."""
        user = pwd.getpwnam(SERVICE_USER)
        uinput = os.stat("/dev/uinput")
        bindings = ("[switchEraser]\nkey = ctrl+shift+e\n[showContextualPalette]\nkey = f6\n[runSystemShortcut]\n"
                    "command = sh -c 'echo \"$PENCIL_GESTURE $PENCIL_ACTION $PENCIL_FOCUS\" >> \"$HOME/ran\"'\n")
        processes = []
        focus_client = None

        def set_prefs(*assignments):
            result = as_service_user(self, os.path.join(self.bin, "pencilctl"), "prefs", "set", *assignments)
            check(result.returncode == 0, f"pencilctl prefs set {assignments}: {result.stderr}")

        def play(name, monitor, **gestures):
            # A pen that double-clicks its first button and squeezes its second as often as
            # `gestures` says (written by pencil-test-recordings).
            path = self.scenario_recording(f"actions-{name}.evemu")
            pen, node = self.emulate(path)
            device = os.path.basename(node)
            for _ in range(gestures.get("double_taps", 0)):
                monitor.wait_for(is_event("doubleTap", device), 20, f"doubleTap from the {name} pen")
            for _ in range(gestures.get("squeezes", 0)):
                monitor.wait_for(is_event("squeeze", device, phase="ended"), 20, f"squeeze ended from the {name} pen")
            return pen, device

        def ran(actions):
            path = os.path.join(actions.home, "ran")
            return open(path).read().splitlines() if os.path.exists(path) else []

        # The project's example rule for /dev/uinput, enabled as an administrator would (it is
        # not installed where udev reads it): udev tags the node uaccess (for logind's ACL).
        rule = os.path.join(os.path.dirname(__file__), "..", "..", "udev-rules", "71-pencil-actions-uinput.rules")
        shutil.copy(rule, "/etc/udev/rules.d/")
        subprocess.run(["udevadm", "control", "--reload"], check=True)
        subprocess.run(["udevadm", "trigger", "--action=add", "--sysname-match=uinput"], check=True)
        subprocess.run(["udevadm", "settle", "--timeout=30"], check=False)
        info = subprocess.run(["udevadm", "info", "/dev/uinput"], capture_output=True, text=True).stdout
        check(re.search(r"^(G: uaccess|E: TAGS=.*:uaccess:)", info, re.M), f"71-pencil-actions-uinput.rules did not tag /dev/uinput uaccess: {info}")
        # pencild.socket makes its socket 0666 (SocketMode=); systemd-socket-activate here
        # made it with root's umask. pencild itself decides who is served.
        os.chmod(SOCKET, 0o666)
        monitor = Monitor()
        try:
            set_prefs("doubleTapAction=switchEraser", "squeezeAction=showContextualPalette", "withholdGestureClicks=true",
                      "mirrorSwitchesTool=true")
            # logind's uaccess ACL, stood in for: the user may write /dev/uinput.
            os.chown("/dev/uinput", user.pw_uid, -1)

            # 0. The package's defaults: the pen is mirrored, and its double-tap's switchEraser is
            # performed through the mirror (focus pen), so pencil-actions presses nothing for it;
            # the squeeze's chord, which only pencil-actions performs, is pressed (the positive side).
            actions = ActionsProcess(self, "actions-pen-performs", bindings)
            reader = KeyReader(actions.keyboard())
            pen, node = self.emulate(self.scenario_recording("actions-keys.evemu"))
            device = os.path.basename(node)
            tap = monitor.wait_for(is_event("doubleTap", device), 20, "doubleTap from the mirrored pen")
            check(tap.get("focus") == "pen", f"the mirrored pen's double-tap carries focus {tap.get('focus')!r}, not pen: {tap}")
            squeeze = monitor.wait_for(is_event("squeeze", device, phase="ended"), 20, "squeeze ended from the mirrored pen")
            check(squeeze.get("focus") == "none", f"the squeeze (not the mirror's to perform) carries focus {squeeze.get('focus')!r}")
            reader.wait_for(lambda r: len(r.keys) >= len(chord(64)), 20, "the squeeze's chord")
            pen.wait(timeout=20)
            monitor.wait_for(is_event("deviceRemoved", device), 20, "deviceRemoved")
            check(reader.keys == chord(64), f"for a gesture the pen performed the keyboard sent {key_summary(reader.keys)}, not only the squeeze's f6")
            actions.stop()
            set_prefs("withholdGestureClicks=false")

            # 1. Keys: the exact chord of each gesture, down and up, one key change per frame.
            actions = ActionsProcess(self, "actions-keys", bindings)
            processes.append(actions)
            reader = KeyReader(actions.keyboard())
            pen, device = play("keys", monitor, double_taps=1, squeezes=1)
            expected = chord(29, 42, 18) + chord(64)
            reader.wait_for(lambda r: len(r.keys) >= len(expected), 20, "both chords")
            check(reader.keys == expected, f"the keyboard sent {key_summary(reader.keys)}, not {key_summary(expected)}")
            check(all(len(frame) == 1 for frame in reader.frames), f"key changes share frames: {reader.frames}")
            pen.wait(timeout=20)
            monitor.wait_for(is_event("deviceRemoved", device), 20, "deviceRemoved")
            check(reader.keys == expected, f"more keys came: {key_summary(reader.keys)}")
            # pencil-actions hears the pen leave too (for the system palette): idle after that.
            actions.wait_log(f"proximityOut of {os.path.basename(device)}", 20)
            switches, rss = actions.idle_figures()
            self.note(f"  pencil-actions idle: {switches} wake-ups in 2 s, {rss} KiB resident")
            check(switches == 0, f"pencil-actions woke up {switches} times in 2 s while idle")
            check(rss < 10 * 1024, f"pencil-actions holds {rss} KiB, not under 10 MiB")

            # 2. A command binding runs once per gesture, with the event in its environment.
            set_prefs("squeezeAction=runSystemShortcut")
            pen, device = play("commands", monitor, squeezes=2)
            deadline = time.monotonic() + 20
            while len(ran(actions)) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            pen.wait(timeout=20)
            monitor.wait_for(is_event("deviceRemoved", device), 20, "deviceRemoved")
            check(ran(actions) == ["squeeze runSystemShortcut none"] * 2, f"the command ran: {ran(actions)}")
            check(actions.log().count("squeeze runSystemShortcut: command") == 2, f"commands started: {actions.log()}")
            check(reader.keys == expected, f"a command binding sent keys: {key_summary(reader.keys)}")

            # 3. While an app of the user holds focus, pencil-actions stands aside.
            focus_client = subprocess.Popen(
                ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups", "--",
                 "python3", "-c", FOCUS_CLIENT, SOCKET], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            reply = focus_client.stdout.readline()
            check(reply and "error" not in json.loads(reply), f"SetFocus(true) answered {reply!r}")
            log_start = len(actions.log())
            pen, device = play("focus", monitor, double_taps=1, squeezes=1)
            actions.wait_log(r"doubleTap switchEraser: focus is other", 20, log_start)
            actions.wait_log(r"squeeze runSystemShortcut: focus is other", 20, log_start)
            pen.wait(timeout=20)
            monitor.wait_for(is_event("deviceRemoved", device), 20, "deviceRemoved")
            check(reader.keys == expected, f"keys were sent while an app held focus: {key_summary(reader.keys)}")
            check(len(ran(actions)) == 2, f"a command ran while an app held focus: {ran(actions)}")
            focus_client.stdin.close()
            focus_client.wait(timeout=20)
            focus_client = None
            check(actions.stop() == 0, "pencil-actions did not exit 0 on SIGTERM")
            reader.wait_for(lambda r: r.gone, 20, "the keyboard's removal")

            # 4, 5. Stopped mid-chord: SIGTERM lets go of the held keys; after SIGKILL the kernel does.
            for sig in (signal.SIGTERM, signal.SIGKILL):
                name = signal.Signals(sig).name
                actions = ActionsProcess(self, f"actions-{name.lower()}", bindings, "--key-interval", "1000")
                processes.append(actions)
                reader = KeyReader(actions.keyboard())
                pen, device = play(name.lower(), monitor, double_taps=1)
                reader.wait_for(lambda r: (29, 1) in r.keys, 20, "the chord's first key")
                actions.stop(sig)
                reader.wait_for(lambda r: r.gone, 20, "the keyboard's removal")
                held = reader.held()
                if sig == signal.SIGTERM:
                    check(not held, f"after SIGTERM mid-chord keys stay down: {key_summary(reader.keys)}")
                    check(actions.process.returncode == 0, f"pencil-actions exited {actions.process.returncode} on SIGTERM")
                else:
                    # The kernel's release frame races with the device's removal for the reader
                    # (see unplug-mid-squeeze); either way nothing is held once the device is gone.
                    self.note(f"  SIGKILL mid-chord: {key_summary(reader.keys)}, then the device went"
                              f" ({'release read' if not held else 'release not read before ENODEV'})")
                check(reader.keys[:1] == [(29, 1)], f"the chord did not start with ctrl: {key_summary(reader.keys)}")
                pen.wait(timeout=20)
                monitor.wait_for(is_event("deviceRemoved", device), 20, "deviceRemoved")

            # 6. Without access to /dev/uinput, and a user's pencild (which has no keyboard):
            # it says why no key is sent, and still runs commands.
            os.chown("/dev/uinput", uinput.st_uid, uinput.st_gid)
            os.chmod("/dev/uinput", 0o600)
            actions = ActionsProcess(self, "actions-no-uinput", bindings)
            processes.append(actions)
            actions.wait_log(r"no keyboard of its own \(/dev/uinput: Permission denied\): chords go to pencild's keyboard", 20)
            pen, device = play("no-uinput", monitor, double_taps=1, squeezes=1)
            actions.wait_log(r"doubleTap switchEraser: key leftctrl\+leftshift\+e not sent: pencild has no keyboard: a user's pencild has no keyboard.*; no keyboard of its own", 20)
            deadline = time.monotonic() + 20
            while not ran(actions) and time.monotonic() < deadline:
                time.sleep(0.05)
            check(ran(actions) == ["squeeze runSystemShortcut none"], f"without uinput the command ran: {ran(actions)}")
            pen.wait(timeout=20)
            monitor.wait_for(is_event("deviceRemoved", device), 20, "deviceRemoved")
        finally:
            if focus_client:
                focus_client.kill()
                focus_client.wait()
            for actions in processes:
                actions.stop(signal.SIGKILL)
            os.chown("/dev/uinput", uinput.st_uid, uinput.st_gid)
            os.chmod("/dev/uinput", uinput.st_mode & 0o7777)
            set_prefs("doubleTapAction=switchEraser", "squeezeAction=showContextualPalette")
            monitor.close()
        self.daemon_alive()

    def run(self, only):
        scenarios = [
            ("service-identity", self.scenario_service_identity),
            ("pen-appears", self.scenario_pen_appears),
            ("unplug-mid-stroke", self.scenario_unplug_mid_stroke),
            ("unplug-mid-squeeze", self.scenario_unplug_mid_squeeze),
            ("syn-dropped", self.scenario_syn_dropped),
            ("real-devices", self.scenario_real_devices),
            ("unreadable-device", self.scenario_unreadable_device),
            ("pencil-actions", self.scenario_pencil_actions),
            ("eraser-button", self.scenario_eraser_button),
            ("third-button", self.scenario_third_button),
            ("mirror", self.scenario_mirror),
            ("mirror-under-load", self.scenario_mirror_under_load),
            ("mirror-smoothing", self.scenario_mirror_smoothing),
            ("eraser-in-app", self.scenario_eraser_in_app),
            ("seat-switch", self.scenario_seat_switch),
            ("seats", self.scenario_seats),
            ("focus-x11", focus_scenarios.bind(self, focus_scenarios.scenario_focus_x11)),
            ("focus-sway", focus_scenarios.bind(self, focus_scenarios.scenario_focus_sway)),
        ]
        failed = []
        try:
            self.install_locked_rule()
            self.start_daemon()
        except Exception as error:  # nothing else can run
            self.note(f"FAIL start: pencild did not start: {error}")
            print(self.log_text()[-4000:])
            return 1
        for name, scenario in scenarios:
            if only and name not in only:
                continue
            self.note(f"---- {name}: {scenario.__doc__.split(chr(10))[0]}")
            began = time.monotonic()
            try:
                scenario()
                self.note(f"PASS {name} ({time.monotonic() - began:.1f}s)")
            except Exception as error:
                failed.append(name)
                detail = str(error) if isinstance(error, Failure) else traceback.format_exc()
                self.note(f"FAIL {name}: {detail}")
            finally:
                for pen in self.pens:
                    if pen.poll() is None:
                        pen.kill()
                        pen.wait()
                self.pens.clear()
        status = self.stop_daemon()
        if status != 0:
            failed.append("clean-exit")
            self.note(f"FAIL clean-exit: pencild exited with {status} on SIGTERM")
        shutil.copytree(self.work, os.path.join(self.results, "suite-work"), dirs_exist_ok=True)
        shutil.rmtree(self.work, ignore_errors=True)
        if failed:
            self.note(f"{len(failed)} failed: {', '.join(failed)}; pencild's log: {self.daemon_log}")
        else:
            self.note("all scenarios passed")
        return len(failed)


def truncate_recording(source, destination, seconds):
    """Copies the header and the events of the first `seconds` of an evemu recording, ending
    at a frame boundary."""
    first = None
    with open(source, errors="replace") as src, open(destination, "w") as dst:
        for line in src:
            if line.startswith("E:"):
                stamp = float(line.split()[1])
                first = stamp if first is None else first
                if stamp - first > seconds:
                    break
            dst.write(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="where pencild and pencilctl are")
    parser.add_argument("--results", required=True)
    parser.add_argument("--recordings", default=os.environ.get("PENCILD_RECORDINGS"))
    parser.add_argument("--scenario-recordings", help="the scenarios' recordings (pencil-test-recordings DIR)")
    parser.add_argument("--only", default="", help="comma-separated scenario names")
    parser.add_argument("--libinput-root", help="the tree of tests/kernel/libinput-root.sh (libinput of Debian testing)")
    args = parser.parse_args()
    only = [name for name in args.only.split(",") if name]
    return min(Suite(args).run(only), 100)


if __name__ == "__main__":
    sys.exit(main())
