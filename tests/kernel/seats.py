"""The kernel suite's seats scenario (docs/robustness.md, "The mirror and /dev/uinput"): the
system service on two seats. logind's state files stand in a private mount namespace for who
holds seat0 and seat1, as sd-login reads them; a udev rule puts one virtual pen on seat1.

  1a. A pen on seat1 is neither grabbed nor mirrored, whoever asks (a uinput device has no
      seat: its compositor would be seat0's), and pencild says why; a pen on seat0 is.
  1b. The mirror of a pen whose node also declares keyboard keys declares none of them, and
      keeps the pen's own codes.
  2.  Each seat's pen reaches its own user: seat0's the user at seat0, seat1's the user at
      seat1, in Monitor and ListDevices.
  3.  The deciding user's own change waits for the pen to be idle; a session switch ends the
      old user's mirror at once, the tip down; the next user's wish is met once the pen is idle.

Used by suite.py; standard library only. Every wait is for an event with a deadline: a
stream's message, an evdev node's event or its ENODEV, and (polled, having no event to wait
on) a sysfs entry or a line of pencild's log.
"""

import errno
import fcntl
import glob
import grp
import json
import os
import pwd
import select
import subprocess
import time

import virtual_pen
from mirror import EvdevReader
from scenario_support import Failure, Scenario, check, wait_until, write_logind
from virtual_pen import (ABS_DISTANCE, ABS_PRESSURE, ABS_X, ABS_Y, BTN_STYLUS, BTN_STYLUS2, BTN_TOOL_PEN, BTN_TOUCH,
                         EV_ABS, EV_KEY)

SEAT0_PEN = ("pencild Seat0 Pen", "pencild-seats/seat0")
SEAT1_PEN = ("pencild Seat1 Pen", "pencild-seats/seat1")
SEAT_RULE = "/etc/udev/rules.d/99-pencild-suite-seats.rules"
# Keys a pen's node may declare beside its pen codes (a tablet's express keys, a power key).
KEY_LEFTCTRL, KEY_A, KEY_POWER = 29, 30, 116
KEYBOARD_KEYS = (KEY_A, KEY_LEFTCTRL, KEY_POWER)
PEN_KEYS = (BTN_TOOL_PEN, BTN_TOUCH, BTN_STYLUS, BTN_STYLUS2)
BTN_MISC, KEY_OK, KEY_CNT = 0x100, 0x160, 0x300
USERS = ("pencild-seat-a", "pencild-seat-b", "pencild-seat-c")
TIMEOUT = 60  # generous: the VM is emulated, on a busy machine


# ---- evdev: capabilities and state ------------------------------------------------------------


def _eviocg(number, length):
    return (2 << 30) | (length << 16) | (ord("E") << 8) | number


def _bits(node, request):
    fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
    try:
        buffer = bytearray(KEY_CNT // 8)
        fcntl.ioctl(fd, request, buffer)
    finally:
        os.close(fd)
    return {code for code in range(KEY_CNT) if buffer[code // 8] >> (code % 8) & 1}


def declared_keys(node):
    """The EV_KEY codes `node` declares (EVIOCGBIT)."""
    return _bits(node, _eviocg(0x20 + EV_KEY, KEY_CNT // 8))


def keys_down(node):
    """The keys the kernel holds down for `node`'s device (EVIOCGKEY), a grab or not."""
    return _bits(node, _eviocg(0x18, KEY_CNT // 8))


def mirror_of(phys):
    """The kernel name of the mirror of the pen with `phys` (its phys with -pencild), or None."""
    for folder in glob.glob("/sys/class/input/input*"):
        try:
            with open(os.path.join(folder, "phys")) as f:
                if f.read().strip() != phys + "-pencild":
                    continue
        except OSError:
            continue
        events = [os.path.basename(path) for path in glob.glob(os.path.join(folder, "event*"))]
        if events:
            return events[0]
    return None


def proximity_outs(events, device):
    return sum(1 for event in events if event["type"] == "proximityOut" and event.get("device") == device)


def wait_read(reader, predicate, timeout, what):
    """`reader.wait_for`, where the node going away (ENODEV) is a failure that says so."""
    try:
        reader.wait_for(predicate, timeout, what)
    except OSError as error:
        if error.errno != errno.ENODEV:
            raise
        raise Failure(f"{reader.node} went away before {what}") from None


def wait_unplugged(reader, timeout, when):
    """Reads `reader`'s node until the kernel says it is gone (ENODEV)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        check(left > 0, f"{reader.node} did not go {when}: still there after {timeout} s")
        try:
            reader.take(left)
        except OSError as error:
            if error.errno == errno.ENODEV:
                return
            raise


# ---- clients as the seats' users ------------------------------------------------------------

USER_MONITOR = r"""
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(json.dumps({"method": "org.pencild.Pen.Monitor", "parameters": {}, "more": True}).encode() + b"\0")
buffer = b""
while True:
    data = s.recv(65536)
    if not data:
        break
    buffer += data
    *messages, buffer = buffer.split(b"\0")
    for message in messages:
        print(message.decode(), flush=True)
"""


class UserMonitor:
    """A Monitor stream of another uid (a python client under setpriv); keeps its events."""

    def __init__(self, name, user, socket_path):
        self.name = name
        self.process = subprocess.Popen(
            ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups", "--",
             "python3", "-c", USER_MONITOR, socket_path],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
        self.buffer = b""
        self.events = []

    def wait_for(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        while not any(predicate(event) for event in self.events):
            left = deadline - time.monotonic()
            check(left > 0, f"{self.name}'s stream: no {what} within {timeout} s; it has {self.kinds()}")
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if not ready:
                continue
            data = os.read(self.process.stdout.fileno(), 65536)
            if not data:
                self.process.wait(timeout=TIMEOUT)
                raise Failure(f"{self.name}'s stream ended: {self.process.stderr.read().decode(errors='replace')[-500:]}")
            self.buffer += data
            *lines, self.buffer = self.buffer.split(b"\n")
            for line in lines:
                reply = json.loads(line)
                check("error" not in reply, f"{self.name}'s Monitor failed: {reply}")
                self.events.append(reply["parameters"]["event"])

    def kinds(self):
        return [f"{event['type']}@{event.get('device', '')}" for event in self.events][-30:]

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=20)


class SeatsScenario(Scenario):
    name = "seats"

    def __init__(self, suite, monitor_class, varlink_class, is_event, service_user):
        super().__init__(suite, monitor_class, is_event, service_user=service_user)
        self.Varlink = varlink_class
        self.pens = []
        self.readers = []
        self.streams = []

    # -- the system service in its namespace

    def start_daemon(self, base, state):
        service = pwd.getpwnam(self.service_user)
        input_gid = grp.getgrnam("input").gr_gid
        self.socket = os.path.join(base, "pencild.sock")
        self.log_path = os.path.join(self.suite.results, "seats-pencild.log")
        os.makedirs("/run/systemd", exist_ok=True)
        # As pencild.service runs it: an unprivileged user with --system, in group input, with
        # /dev/uinput by group (pencild-uinput on an installed system), no capabilities; in a
        # mount namespace whose /run/systemd is the state above.
        script = 'mount --bind "$0" /run/systemd && exec "$@"'
        self.daemon = subprocess.Popen(
            ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, state,
             "setpriv", f"--reuid={service.pw_uid}", f"--regid={service.pw_gid}", f"--groups={input_gid}",
             "--inh-caps=-all", "--",
             os.path.join(self.suite.bin, "pencild"), "--system", "--socket", self.socket,
             "--state-dir", os.path.join(base, "state"), "--log-level", "debug"],
            stdout=open(self.log_path, "wb"), stderr=subprocess.STDOUT)
        wait_until(lambda: os.path.exists(self.socket) or self.daemon.poll() is not None, TIMEOUT, "system pencild listening")
        check(self.daemon.poll() is None, f"the system pencild exited: {self.log()[-2000:]}")
        # As pencild.socket makes it (SocketMode=0666): pencild checks each client itself.
        os.chmod(self.socket, 0o666)

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def wait_log(self, text, timeout, start=0):
        wait_until(lambda: text in self.log()[start:], timeout, f"'{text}' in the system pencild's log")

    def as_user(self, user, *command):
        return subprocess.run(["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups", "--", *command],
                              env={"PATH": "/usr/bin:/bin", "PENCILD_SOCKET": self.socket}, capture_output=True, text=True,
                              timeout=TIMEOUT, cwd="/")

    def set_withhold(self, user, on):
        result = self.as_user(user, self.pencilctl, "prefs", "set", f"withholdGestureClicks={'true' if on else 'false'}")
        check(result.returncode == 0, f"pencilctl prefs set as {user.pw_name}: {result.stderr.strip()}")

    def listed(self, user):
        result = self.as_user(user, self.pencilctl, "devices")
        check(result.returncode == 0, f"pencilctl devices as {user.pw_name}: {result.stderr.strip()}")
        ids = {line.split(None, 1)[0] for line in result.stdout.splitlines() if line.strip() and not line.startswith(" ")}
        return ids, result.stdout

    # -- pens and readers

    def new_pen(self, pen, extra_keys=()):
        name, phys = pen
        made = virtual_pen.Pen(name, phys=phys, extra_keys=extra_keys)
        self.pens.append(made)
        return made, made.event_node()

    def reader(self, node):
        reader = EvdevReader(node)
        self.readers.append(reader)
        return reader

    def hover(self, pen, x):
        pen.emit((EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, 6000), (EV_ABS, ABS_DISTANCE, 10), (EV_KEY, BTN_TOOL_PEN, 1))

    def leave(self, pen):
        pen.emit((EV_KEY, BTN_TOOL_PEN, 0))

    @staticmethod
    def key(code, value):
        return lambda e: e[1] == EV_KEY and e[2] == code and e[3] == value

    # -- the scenario

    def run(self):
        suite = self.suite
        service = pwd.getpwnam(self.service_user)
        for name in USERS:
            subprocess.run(["bash", os.path.join(os.path.dirname(__file__), "guest-add-user.sh"), name],
                           check=True, stdout=subprocess.DEVNULL)
        a, b, c = (pwd.getpwnam(name) for name in USERS)
        base = os.path.join(suite.work, "seats")
        logind = os.path.join(base, "run-systemd")
        state_dir = os.path.join(base, "state")
        os.makedirs(logind, exist_ok=True)
        os.makedirs(state_dir, mode=0o700, exist_ok=True)
        os.chown(base, service.pw_uid, service.pw_gid)
        os.chown(state_dir, service.pw_uid, service.pw_gid)
        # seat0: A's session active, C's online beside it (the session it switches to); seat1: B's.
        sessions = {"c1": (a.pw_uid, "seat0"), "c2": (b.pw_uid, "seat1"), "c3": (c.pw_uid, "seat0")}
        write_logind(logind, sessions, {"seat0": "c1", "seat1": "c2"})
        # C also withholds gesture clicks (the harder case: the same wish, from another user).
        # Written as pencild writes it: C has no active session, so C may not call yet.
        c_file = os.path.join(state_dir, f"{c.pw_uid}.json")
        with open(c_file, "w") as f:
            f.write('{"withholdGestureClicks": true}\n')
        os.chown(c_file, service.pw_uid, service.pw_gid)
        os.chmod(c_file, 0o600)
        uinput = os.stat("/dev/uinput")
        os.chown("/dev/uinput", 0, service.pw_gid)
        os.chmod("/dev/uinput", 0o660)
        # Pens with this phys are on seat1 (before either pen is made: udev applies the rule at the add).
        with open(SEAT_RULE, "w") as f:
            f.write(f'SUBSYSTEM=="input", ATTRS{{phys}}=="{SEAT1_PEN[1]}", ENV{{ID_SEAT}}="seat1"\n')
        subprocess.run(["udevadm", "control", "--reload"], check=True)
        self.daemon = None
        monitor = None
        try:
            self.start_daemon(base, logind)
            monitor = self.Monitor(self.socket)
            self.set_withhold(a, True)
            self.set_withhold(b, True)
            self.note(f"system pencild pid {self.daemon.pid}: seat0 held by uid {a.pw_uid} (A), seat1 by uid {b.pw_uid} (B),"
                      f" uid {c.pw_uid} (C) online on seat0; all three withhold gesture clicks")
            mirror = self.part_1(monitor, a)
            self.part_2(monitor, a, b)
            self.part_3(a, logind, sessions, mirror)
            monitor.close()
            monitor = None
            self.daemon.terminate()
            status = self.daemon.wait(timeout=TIMEOUT)
            check(status == 0, f"the system pencild exited with {status} on SIGTERM")
        finally:
            for stream in self.streams:
                stream.close()
            if monitor:
                monitor.close()
            for reader in self.readers:
                reader.close()
            for pen in self.pens:
                pen.close()
            if self.daemon and self.daemon.poll() is None:
                self.daemon.kill()
                self.daemon.wait(timeout=20)
            if os.path.exists(os.path.join(base, "pencild.sock")):
                os.unlink(os.path.join(base, "pencild.sock"))
            os.unlink(SEAT_RULE)
            subprocess.run(["udevadm", "control", "--reload"], check=False)
            os.chown("/dev/uinput", uinput.st_uid, uinput.st_gid)
            os.chmod("/dev/uinput", uinput.st_mode & 0o7777)

    def part_1(self, monitor, a):
        """1a and 1b: seat1's pen is not mirrored, seat0's is, and seat0's mirror cannot type.
        Returns the mirror's kernel name."""
        # The positive side first: a pen on seat0, its node declaring keyboard keys too.
        seat0_pen, seat0_node = self.new_pen(SEAT0_PEN, extra_keys=KEYBOARD_KEYS)
        seat0 = os.path.basename(seat0_node)
        added = monitor.wait_for(self.is_event("deviceAdded", seat0), TIMEOUT, f"deviceAdded for the seat0 pen {seat0}")
        mirror = added["deviceInfo"].get("mirror")
        check(bool(mirror), f"the seat0 pen has no mirror: {added['deviceInfo']}")
        check(mirror_of(SEAT0_PEN[1]) == mirror, f"deviceAdded names mirror {mirror}, sysfs has {mirror_of(SEAT0_PEN[1])}")
        ids, text = self.listed(a)
        check(seat0 in ids and f"mirror: {mirror}" in text, f"pencilctl devices as A does not name {seat0}'s mirror {mirror}: {text}")
        self.note(f"1a: the seat0 pen {seat0} is mirrored as {mirror} (deviceAdded, sysfs, A's pencilctl devices)")

        # The seat1 pen: B withholds too, and pencild says why it does not.
        log_start = len(self.log())
        seat1_pen, seat1_node = self.new_pen(SEAT1_PEN)
        seat1 = os.path.basename(seat1_node)
        added = monitor.wait_for(self.is_event("deviceAdded", seat1), TIMEOUT, f"deviceAdded for the seat1 pen {seat1}")
        properties = subprocess.run(["udevadm", "info", "--query=property", f"--name={seat1_node}"],
                                    capture_output=True, text=True).stdout
        check("ID_SEAT=seat1" in properties.splitlines(), f"udev did not put {seat1} on seat1: {properties}")
        check("mirror" not in added["deviceInfo"], f"the seat1 pen has a mirror: {added['deviceInfo']}")
        why = (f"device {seat1}: gesture clicks cannot be withheld: the pen is on seat1, and a mirror would belong to"
               " seat0's compositor: only pens on seat0 are mirrored")
        self.wait_log(why, TIMEOUT, log_start)
        check(mirror_of(SEAT1_PEN[1]) is None, f"a mirror of the seat1 pen exists: {mirror_of(SEAT1_PEN[1])}")

        # Readers of each pen's own node and of the mirror: the seat1 pen is not grabbed, the
        # seat0 pen is (its events go to the mirror alone).
        seat1_reader = self.reader(seat1_node)
        seat0_reader = self.reader(seat0_node)
        mirror_reader = self.reader(f"/dev/input/{mirror}")
        self.hover(seat1_pen, 7000)
        self.leave(seat1_pen)
        wait_read(seat1_reader, self.key(BTN_TOOL_PEN, 0), TIMEOUT, "the seat1 pen's own events")
        self.hover(seat0_pen, 7000)
        self.leave(seat0_pen)
        wait_read(mirror_reader, self.key(BTN_TOOL_PEN, 0), TIMEOUT, "the seat0 pen's events on its mirror")
        seat0_reader.take(0.2)
        check(seat0_reader.events == [], f"a reader of the grabbed seat0 pen got {len(seat0_reader.events)} events")
        # Root's stream has both pens' hovers: the counts of part 2 start from here.
        monitor.wait_for(self.is_event("proximityOut", seat1), TIMEOUT, "the seat1 pen's proximityOut", anywhere=True)
        monitor.wait_for(self.is_event("proximityOut", seat0), TIMEOUT, "the seat0 pen's proximityOut", anywhere=True)
        self.note(f"1a: the seat1 pen {seat1} (ID_SEAT=seat1) has no mirror, pencild said why, and a reader of its node"
                  f" gets its events; a reader of the grabbed seat0 pen gets none, its mirror all")

        # 1b: the pen's node declares the keyboard keys; its mirror none of them.
        pen_keys = declared_keys(seat0_node)
        mirror_keys = declared_keys(f"/dev/input/{mirror}")
        check(set(KEYBOARD_KEYS) <= pen_keys, f"the seat0 pen does not declare its keyboard keys: {sorted(pen_keys)}")
        check(set(PEN_KEYS) <= mirror_keys, f"the mirror lacks pen codes: {sorted(set(PEN_KEYS) - mirror_keys)}")
        typing = sorted(code for code in mirror_keys if code < BTN_MISC or code >= KEY_OK)
        check(typing == [], f"the mirror declares keyboard keys {typing}")
        self.note(f"1b: the pen declares keys {sorted(pen_keys)}; its mirror {sorted(mirror_keys)}")
        self.seat0_pen, self.seat0_node = seat0_pen, seat0_node
        self.seat1_pen, self.seat1_node = seat1_pen, seat1_node
        return mirror

    def part_2(self, monitor, a, b):
        """Each seat's pen to its own user, in Monitor (catch-up and live) and ListDevices."""
        seat0_pen, seat1_pen = self.seat0_pen, self.seat1_pen
        seat0, seat1 = os.path.basename(self.seat0_node), os.path.basename(self.seat1_node)
        a_stream = UserMonitor("A", a, self.socket)
        b_stream = UserMonitor("B", b, self.socket)
        self.streams += [a_stream, b_stream]
        a_stream.wait_for(self.is_event("deviceAdded", seat0), TIMEOUT, f"deviceAdded for {seat0} (catch-up)")
        b_stream.wait_for(self.is_event("deviceAdded", seat1), TIMEOUT, f"deviceAdded for {seat1} (catch-up)")
        # seat1's pen, then seat0's, then seat1's again, each seen by root's stream before the
        # next: whichever stream got the other seat's pen would have it before what it waits for.
        for pen, device, x in ((seat1_pen, seat1, 7100), (seat0_pen, seat0, 7100), (seat1_pen, seat1, 7200)):
            before = proximity_outs(monitor.events, device)
            self.hover(pen, x)
            self.leave(pen)
            monitor.wait_for(lambda _, d=device, n=before: proximity_outs(monitor.events, d) > n, TIMEOUT,
                             f"root's proximityOut of {device}", anywhere=True)
        a_stream.wait_for(lambda _: proximity_outs(a_stream.events, seat0) >= 1, TIMEOUT, f"proximityOut of {seat0}")
        b_stream.wait_for(lambda _: proximity_outs(b_stream.events, seat1) >= 2, TIMEOUT, f"the second proximityOut of {seat1}")
        a_other = [e["type"] for e in a_stream.events if e.get("device") == seat1]
        b_other = [e["type"] for e in b_stream.events if e.get("device") == seat0]
        check(a_other == [], f"A, at seat0, got events of the seat1 pen: {a_other}")
        check(b_other == [], f"B, at seat1, got events of the seat0 pen: {b_other}")
        a_ids, a_text = self.listed(a)
        b_ids, b_text = self.listed(b)
        check(seat0 in a_ids and seat1 not in a_ids, f"A's ListDevices: {a_text}")
        check(seat1 in b_ids and seat0 not in b_ids, f"B's ListDevices: {b_text}")
        for stream in (a_stream, b_stream):
            stream.close()
            self.streams.remove(stream)
        self.note(f"2: A got {seat0} alone and B {seat1} alone (catch-up, live events, ListDevices)")

    def part_3(self, a, logind, sessions, mirror):
        """The deciding user's own change waits for the pen to be idle; a switch does not."""
        pen, node = self.seat0_pen, self.seat0_node
        device = os.path.basename(node)
        # The positive control: A turns withholding off while the pen hovers. The mirror stays,
        # and carries the pen, until the pen leaves.
        mirror_reader = self.reader(f"/dev/input/{mirror}")
        self.hover(pen, 7300)
        wait_read(mirror_reader, self.key(BTN_TOOL_PEN, 1), TIMEOUT, "the hover on the mirror")
        log_start = len(self.log())
        self.set_withhold(a, False)
        # A later frame reaches the mirror: pencild has long since acted on A's change.
        pen.emit((EV_ABS, ABS_X, 7350))
        wait_read(mirror_reader, lambda e: e[1] == EV_ABS and e[2] == ABS_X and e[3] == 7350, TIMEOUT,
                               "the pen's next frame on the mirror after A's change")
        check(os.path.exists(f"/sys/class/input/{mirror}"), f"the mirror {mirror} is gone while the pen hovers")
        check("its mirror is gone" not in self.log()[log_start:], "the mirror ended while the pen hovered after A's change")
        self.leave(pen)
        wait_unplugged(mirror_reader, TIMEOUT, "once the pen left")
        self.wait_log(f"device {device}: its mirror is gone (withholdGestureClicks is off for the pen's deciding user)",
                      TIMEOUT, log_start)
        self.note(f"3 (control): A's own change kept {mirror} while the pen hovered; it went when the pen left")

        # A withholds again: the idle pen gets a new mirror.
        self.set_withhold(a, True)
        wait_until(lambda: mirror_of(SEAT0_PEN[1]) is not None, TIMEOUT, "a new mirror once A withholds again")
        mirror = mirror_of(SEAT0_PEN[1])
        mirror_reader = self.reader(f"/dev/input/{mirror}")
        pen_reader = self.reader(node)

        # Mid-stroke: in proximity, the tip down, as the mirror shows.
        self.hover(pen, 7400)
        pen.emit((EV_ABS, ABS_PRESSURE, 900), (EV_KEY, BTN_TOUCH, 1))
        wait_read(mirror_reader, self.key(BTN_TOUCH, 1), TIMEOUT, "the tip down on the mirror")
        pen_reader.take(0.2)
        check(pen_reader.events == [], "a reader of the grabbed pen got its events before the switch")
        log_start = len(self.log())
        switched = time.monotonic()
        write_logind(logind, sessions, {"seat0": "c3", "seat1": "c2"})
        wait_unplugged(mirror_reader, TIMEOUT, "when seat0 switched from A to C, the tip down")
        wait_until(lambda: not os.path.exists(f"/sys/class/input/{mirror}") and not os.path.exists(f"/dev/input/{mirror}"),
                   TIMEOUT, f"{mirror} leaving sysfs and /dev/input")
        gone_after = time.monotonic() - switched
        held = keys_down(node)
        check({BTN_TOOL_PEN, BTN_TOUCH} <= held, f"the pen is no longer in proximity with the tip down: keys down {sorted(held)}")
        self.wait_log(f"device {device}: its mirror is gone (uid {a.pw_uid}, whose preferences it followed, no longer decides"
                      " for seat0)", TIMEOUT, log_start)
        # C withholds as well, but the pen is not idle: no mirror for C yet.
        check(mirror_of(SEAT0_PEN[1]) is None, f"a mirror for C while the tip is down: {mirror_of(SEAT0_PEN[1])}")
        # The pen is ungrabbed: a reader of its node gets its next frame.
        pen.emit((EV_ABS, ABS_X, 7450), (EV_ABS, ABS_PRESSURE, 1000))
        wait_read(pen_reader, lambda e: e[1] == EV_ABS and e[2] == ABS_X and e[3] == 7450, TIMEOUT,
                            "the pen's frame on its own node after the switch")
        self.note(f"3: seat0 to uid {sessions['c3'][0]} (C) with the tip down: {mirror} gone after {gone_after:.2f} s,"
                  f" the pen still in proximity with the tip down (EVIOCGKEY) and read on its own node")

        # C's wish is met once the pen is idle.
        pen.emit((EV_ABS, ABS_PRESSURE, 0), (EV_KEY, BTN_TOUCH, 0))
        self.leave(pen)
        wait_until(lambda: mirror_of(SEAT0_PEN[1]) is not None, TIMEOUT, "a mirror for C once the pen left")
        devices = {d["id"]: d for d in self.root_devices()}
        check(devices.get(device, {}).get("mirror") == mirror_of(SEAT0_PEN[1]),
              f"ListDevices does not name C's mirror {mirror_of(SEAT0_PEN[1])}: {devices.get(device)}")
        self.note(f"3: once the pen left, C's wish was met: mirror {mirror_of(SEAT0_PEN[1])}")

    def root_devices(self):
        link = self.Varlink(self.socket)
        try:
            return link.call("org.pencild.Pen.ListDevices", timeout=TIMEOUT)["devices"]
        finally:
            link.close()
