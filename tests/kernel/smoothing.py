"""The kernel suite's mirror-smoothing scenario: libinput of Debian testing (1.31), which smooths
no tablet it takes for a virtual device, reads the pens of the shared recordings (those below),
then pencild's mirrors of them, and must give the mirror's strokes the pen's axis values, frame
for frame: the mirror's quirk (libinput-quirks/) has it treat the mirror as the pen.

libinput runs in a chroot of the tree tests/kernel/libinput-root.sh builds (the quirk installed
as `make install` puts it), with the guest's /dev, /sys, /proc and udev database bound in, and
reads the nodes it is given (`debug-events --device`, which prints axes to 0.01 mm). The pens are
evemu's (`evemu-device`, `evemu-play`), so that each recording plays only once every reader has
its node open. A replayed pen is a uinput device too, which libinput 1.31 would not smooth: for
its own reading a quirk of the test alone (AttrIsVirtual=0 by its name) stands in for the
physical pen. The controls: the pen read without that quirk, and the mirror read without the
shipped one, both differ from the pen as the physical pen is read.

The pens declare no fuzz. A mirror declares none (docs/gestures.md, "The mirror": the kernel
would filter the pen's filtered values again), and libinput filters a tablet's axes by the fuzz
the device declares (a change of at most that much is dropped), so the mirror of a pen with fuzz
is read with more of its small moves than the pen: that difference is not smoothing's, and a pen
without fuzz leaves it out of this comparison. Nor does the mirror withhold any click here (the
gesture button is one the pens lack): a click passed on late is a frame of its own, which
libinput's smoothing takes as one more sample of the same place, so the next two or three
frames would differ by a few hundredths of a millimetre, for a reason that is the withholding's.

Used by suite.py; standard library only.
"""

import os
import pwd
import re
import select
import shutil
import subprocess
import time

from scenario_support import DebugEvents, Scenario, check

QUIRK = "20-pencild-mirror.quirks"
# The shared recordings: (events, description). Three are left out. libinput takes no tablet
# without a resolution, pen or mirror alike: the Cintiq 22HDT's recording (evemu 1.1) records
# none, the Genius EasyPen's is 0. The UC-LOGIC WP5540U never reports its pen in or out, and
# libinput takes it in and out by its timers, which fire by how fast the machine is: the two
# readings then differ by where a timer fell, not by smoothing.
RECORDINGS = [
    ("Wacom Intuos4 6x9.stylus-move.events", "Wacom Intuos4 6x9 Pen.desc"),
    ("Wacom Intuos4 6x9.stylus-drag.events", "Wacom Intuos4 6x9 Pen.desc"),
    ("Wacom Intuos4 6x9.stylus-tap.events", "Wacom Intuos4 6x9 Pen.desc"),
    ("dell_canvas_pen.evemu", None),
]
# An AES pen, which libinput smooths neither as itself nor as its mirror: the Intuos4's stroke
# on the ids of the HID 4800 (libwacom's isdv4-4800, whose styli are AES), as the eraser-button
# scenario's pen has them.
AES = ("Wacom Intuos4 6x9.stylus-move.events", "Wacom Intuos4 6x9 Pen.desc")
AES_NAME, AES_IDS = "pencild AES Pen", "0018 056a 4800 0100"


def description(path, aes=False):
    """The lines of a recording's description for evemu-device: every axis without fuzz (see
    the module's docstring); an AES pen's name and ids where `aes`."""
    lines = []
    with open(path, errors="replace") as source:
        for line in source:
            fields = line.split()
            if fields[:1] == ["A:"] and len(fields) >= 6:
                fields[4] = "0"
                line = " ".join(fields) + "\n"
            elif aes and fields[:1] == ["N:"]:
                line = f"N: {AES_NAME}\n"
            elif aes and fields[:1] == ["I:"]:
                line = f"I: {AES_IDS}\n"
            lines.append(line)
    return lines
# The events that carry a tool's axes; buttons are left out, since the mirror withholds the
# clicks that make a gesture.
AXIS_EVENTS = ("TABLET_TOOL_PROXIMITY", "TABLET_TOOL_TIP", "TABLET_TOOL_AXIS")
# A line of debug-events: its device, its event, a count of the same event in a row (from 2 on),
# its time, and what it says.
LINE = re.compile(r"^.?(event\d+)\s+(\w+)\s+(?:\d+\s+)?(?:\+\d+\.\d+s\s*)?(.*)$")


class Chroot:
    """The testing tree with the guest's /dev, /sys, /proc and udev database bound in, and a
    /tmp of its own; undone by `close()`."""

    def __init__(self, root):
        self.root = root
        self.mounts = []
        try:
            for source, target in (("/dev", "dev"), ("/sys", "sys"), ("/proc", "proc"), ("/run/udev", "run/udev")):
                self._mount(["--bind", source], target)
            self._mount(["-t", "tmpfs", "tmpfs"], "tmp")
        except subprocess.CalledProcessError:
            self.close()
            raise

    def _mount(self, how, target):
        path = os.path.join(self.root, target)
        subprocess.run(["mount", *how, path], check=True)
        self.mounts.append(path)

    def path(self, inside):
        return os.path.join(self.root, inside.lstrip("/"))

    def run(self, *command, env=None):
        return subprocess.run(["chroot", self.root, "env", *(env or []), *command], capture_output=True, text=True, timeout=60)

    def popen(self, *command, env=None, **options):
        return subprocess.Popen(["chroot", self.root, "env", *(env or []), *command], **options)

    def close(self):
        for path in reversed(self.mounts):
            subprocess.run(["umount", "-l", path], check=False)


class Reader(DebugEvents):
    """`libinput debug-events --verbose --device NODE...` in the chroot, under LIBINPUT_QUIRKS_DIR `quirks`
    (None: the installed quirks, as a compositor reads them)."""

    def __init__(self, chroot, nodes, quirks, log_path):
        env = ["LIBINPUT_QUIRKS_DIR=" + quirks] if quirks else []
        device_options = [option for node in nodes for option in ("--device", node)]
        # --verbose: libinput says when the kernel dropped its events (SYN_DROPPED) at info level.
        super().__init__(chroot.popen("stdbuf", "-oL", "libinput", "debug-events", "--verbose", *device_options, env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT), log_path)

    def wait_added(self, nodes):
        names = {os.path.basename(node) for node in nodes}
        self.wait_for(lambda lines: names <= {m.group(1) for m in map(LINE.match, lines) if m and m.group(2) == "DEVICE_ADDED"},
                      30, f"DEVICE_ADDED for {', '.join(sorted(names))}")

    def axes(self, node):
        """What libinput reported of each frame of NODE's tools: the event and its values."""
        name = os.path.basename(node)
        return [(m.group(2), " ".join(m.group(3).split())) for m in map(LINE.match, self.lines)
                if m and m.group(1) == name and m.group(2) in AXIS_EVENTS]


class Pen:
    """A recording's device through evemu-device (in the chroot); played by `play()`."""

    def __init__(self, chroot, label, events, lines, work):
        self.chroot = chroot
        self.label = label
        self.events = events
        name = label.replace(" ", "_")
        # evemu-device reads the description from a file the chroot sees.
        self.desc = "/tmp/" + name + ".desc"
        with open(chroot.path(self.desc), "w") as copy:
            copy.writelines(lines)
        self.minimums = {int(fields[1], 16): int(fields[2]) for fields in map(str.split, lines)
                         if fields[:1] == ["A:"] and len(fields) >= 6}
        self.log = open(os.path.join(work, name + ".evemu-device.log"), "w")
        self.process = chroot.popen("evemu-device", self.desc, stdout=subprocess.PIPE, stderr=self.log)
        # "NAME: /dev/input/eventN"
        line = self.process.stdout.readline().decode(errors="replace").strip()
        check("/dev/input/event" in line, f"evemu-device {name} printed {line!r} (exit {self.process.poll()})")
        self.name, self.node = line.rsplit(": ", 1)
        waited = subprocess.run(["udevadm", "wait", "--timeout=30", self.node], capture_output=True, text=True)
        check(waited.returncode == 0, f"udev did not initialize {self.node} within 30 s: {waited.stderr.strip()}")

    def play(self):
        """Plays the pen coming in and going out at once, then the recording. libinput forces a
        pen out after 50 ms without an event until the device has once sent it out itself
        (its proximity timer): that first leave keeps the timer, which fires by how fast the
        machine is, out of the comparison. It comes in with every axis at its minimum, where a
        mirror's axes start (a pen's start where its driver leaves them)."""
        name = self.label.replace(" ", "_")
        inside = "/tmp/" + name
        shutil.copyfile(self.events, self.chroot.path(inside))
        first = "/tmp/" + name + ".enter-and-leave"
        with open(self.chroot.path(first), "w") as f:
            for code, minimum in sorted(self.minimums.items()):
                f.write(f"E: 0.000000 0003 {code:04x} {minimum}\n")
            f.write("E: 0.000000 0001 0140 1\nE: 0.000000 0000 0000 0\nE: 0.010000 0001 0140 0\nE: 0.010000 0000 0000 0\n")
        return self.chroot.popen("sh", "-c", 'evemu-play "$1" <"$2" && exec evemu-play "$1" <"$3"', "sh",
                                 self.node, first, inside, stdout=subprocess.DEVNULL, stderr=self.log)

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.log.close()


def quirks_dir(chroot, name, leave_out=None, extra=None):
    """A copy of the installed quirks in the chroot's /tmp, without `leave_out`, with `extra`
    (file name, text) added; returns its path inside the chroot."""
    inside = "/tmp/" + name
    os.makedirs(chroot.path(inside))
    for file in os.listdir(chroot.path("/usr/share/libinput")):
        if file.endswith(".quirks") and file != leave_out:
            shutil.copyfile(chroot.path("/usr/share/libinput/" + file), chroot.path(inside + "/" + file))
    if extra:
        with open(chroot.path(inside + "/" + extra[0]), "w") as f:
            f.write(extra[1])
    return inside


def differing(a, b):
    """How many of two lists of frames differ (a missing frame counts as one), and the first."""
    count = sum(1 for x, y in zip(a, b) if x != y) + abs(len(a) - len(b))
    first = next(((i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
    return count, first


class SmoothingScenario(Scenario):
    name = "mirror-smoothing"

    def __init__(self, suite, monitor_class, is_event, as_service_user, service_user, root, truncate):
        super().__init__(suite, monitor_class, is_event, as_service_user, service_user)
        self.root = root
        self.truncate = truncate

    def set_withhold(self, on):
        """With withholding on, the gesture buttons are one the pens lack (see the module's
        docstring); off, the defaults again."""
        buttons = ["tapButton=stylus3", "squeezeButton=longPress"] if on else ["tapButton=stylus", "squeezeButton=stylus2"]
        result = self.as_service_user(self.suite, self.pencilctl, "prefs", "set", f"withholdGestureClicks={'true' if on else 'false'}",
                                      "mirrorSwitchesTool=false", *buttons)
        check(result.returncode == 0, f"pencilctl prefs set withholdGestureClicks: {result.stderr.strip()}")

    def recordings(self):
        """(label, events, description's lines, AES) of each pen."""
        check(bool(self.suite.recordings), "no recordings: set PENCILD_RECORDINGS (the shared recordings' directory)")
        chosen = []
        for (events_file, desc), aes in [(entry, False) for entry in RECORDINGS] + [(AES, True)]:
            label = events_file + (" as AES" if aes else "")
            # At most the first 8 s of each, so that they all play at once in real time.
            path = self.suite.script_path("smoothing-" + label.replace(" ", "_"))
            self.truncate(os.path.join(self.suite.recordings, events_file), path, seconds=8.0)
            lines = description(os.path.join(self.suite.recordings, desc) if desc else path, aes)
            chosen.append((label, path, lines, aes))
        return chosen

    def play_all(self, pens, readers, nodes):
        """Plays every pen at once, then unplugs them: a reader that has read a device's
        removal has read all it sent (a mirror goes with its pen). pencild's removal of them is
        seen by a Monitor opened once they have played (pencild drops a reader that lags, and
        nothing reads it while they play)."""
        for reader in readers:
            reader.wait_added(nodes)
        players = [pen.play() for pen in pens]
        # libinput's output is read as it comes: a full pipe would stop libinput reading its
        # devices, and the kernel would drop their events.
        deadline = time.monotonic() + 60
        while any(player.poll() is None for player in players):
            check(time.monotonic() < deadline, "the pens did not play within 60 s")
            ready, _, _ = select.select(readers, [], [], 0.5)
            for reader in ready:
                reader.take()
        for player in players:
            check(player.returncode == 0, f"evemu-play exited with {player.returncode}")
        monitor = self.Monitor()
        self.monitors.append(monitor)
        self.unplug(monitor, pens)
        names = {os.path.basename(node) for node in nodes}
        for reader in readers:
            reader.wait_for(lambda lines: names <= {m.group(1) for m in map(LINE.match, lines) if m and m.group(2) == "DEVICE_REMOVED"},
                            30, "DEVICE_REMOVED of every device")

    def pens_added(self, monitor, pens):
        """Waits for pencild's deviceAdded of each pen; returns their deviceInfo by recording."""
        added = {}
        for pen in pens:
            event = monitor.wait_for(self.is_event("deviceAdded", os.path.basename(pen.node)), 30,
                                     f"deviceAdded for {pen.name}", anywhere=True)
            added[pen.label] = event["deviceInfo"]
        return added

    def unplug(self, monitor, pens):
        """Unplugs the pens and waits until pencild has removed them; then the monitor forgets
        what it read, so that a new pen on a node of theirs is not taken for one of them."""
        for pen in pens:
            pen.close()
        for pen in pens:
            monitor.wait_for(self.is_event("deviceRemoved", os.path.basename(pen.node)), 30,
                             f"deviceRemoved for {pen.name}", anywhere=True)
        pens.clear()
        monitor.events.clear()
        monitor.read = 0

    def lost(self, readers, log_from):
        """The evidence that events were lost while the pens played, each reader's count of
        SYN_DROPPED: pencild's (its warnings in its log since offset `log_from`) and each
        libinput's (its verbose log). A lost event is the machine's load, not smoothing's."""
        found = []
        pencild = self.suite.log_text()[log_from:].count("SYN_DROPPED")
        if pencild:
            found.append(f"pencild lost events {pencild} time(s)")
        for reader in readers:
            count = reader.count("SYN_DROPPED")
            if count:
                found.append(f"libinput ({os.path.basename(reader.log_path)}) lost events {count} time(s)")
        return found

    def read_pens(self, chroot, chosen, make_readers, pens, readers, plays=3):
        """Plugs the pens in, opens the readers `make_readers(pens, deviceInfo by label)` gives
        ({label: node}, [reader, ...]), plays the pens and returns, for each reader, what it read
        of each label's node. A play in which events were lost (`lost`) is played again, with
        new pens and readers, at most `plays` times in all: the comparison is of lossless plays."""
        for play in range(1, plays + 1):
            monitor = self.Monitor()
            self.monitors.append(monitor)
            pens += [Pen(chroot, label, path, lines, self.suite.work) for label, path, lines, _ in chosen]
            added = self.pens_added(monitor, pens)
            # Not read while the pens play, it would lag, and pencild drops a lagging reader.
            monitor.close()
            nodes, made = make_readers(pens, added)
            readers += made
            log_from = len(self.suite.log_text())
            self.play_all(pens, readers, list(nodes.values()))
            lost = self.lost(readers, log_from)
            axes = [{label: reader.axes(node) for label, node in nodes.items()} for reader in readers]
            for reader in readers:
                reader.close()
            readers.clear()
            if not lost:
                return axes
            self.note(f"play {play} of {plays}: events were lost ({'; '.join(lost)}); "
                      + ("played again" if play < plays else "no play left"))
        check(False, f"events were lost in each of {plays} plays: the machine is too busy to compare readings frame by frame")

    def run(self):
        suite = self.suite
        check(bool(self.root) and os.path.isfile(os.path.join(self.root, "usr/bin/libinput")),
              f"no libinput tree at {self.root!r} (tests/kernel/libinput-root.sh builds it)")
        began = time.monotonic()
        chroot = Chroot(self.root)
        uinput = os.stat("/dev/uinput")
        pens, readers = [], []
        self.monitors = []
        try:
            version = chroot.run("libinput", "--version").stdout.strip()
            validated = chroot.run("libinput", "quirks", "validate", "--data-dir", "/usr/share/libinput")
            check(validated.returncode == 0, f"libinput {version} does not accept the installed quirks: {validated.stdout}{validated.stderr}")
            self.note(f"libinput {version}; its quirks and the mirror's pass `libinput quirks validate`")
            chosen = self.recordings()
            names = sorted({line[3:].strip() for _, _, lines, _ in chosen for line in lines if line.startswith("N: ")})
            # The test's stand-in for each physical pen: not virtual, by its name (no mirror
            # exists while it is read).
            physical = "".join(f"[replayed pen: {name}]\nMatchName={name}\nMatchUdevType=tablet\nAttrIsVirtual=0\n\n"
                               for name in names)
            as_physical = quirks_dir(chroot, "quirks-pens", extra=("90-test-replayed-pens.quirks", physical))
            without = quirks_dir(chroot, "quirks-without-mirror", leave_out=QUIRK)

            # 1. The pens themselves, which pencild reads without a mirror: as the physical pens
            # are read, and as libinput takes a uinput pen (the control of the comparison).
            self.set_withhold(False)

            def pen_readers(pens, added):
                nodes = [pen.node for pen in pens]
                return {pen.label: pen.node for pen in pens}, [
                    Reader(chroot, nodes, as_physical, os.path.join(suite.results, "smoothing-pens.txt")),
                    Reader(chroot, nodes, None, os.path.join(suite.results, "smoothing-pens-as-uinput.txt"))]

            physical_axes, uinput_axes = self.read_pens(chroot, chosen, pen_readers, pens, readers)
            self.note(f"the pens read ({time.monotonic() - began:.1f}s)")

            # 2. Their mirrors, as the compositor reads them, and without the shipped quirk.
            service = pwd.getpwnam(self.service_user)
            os.chown("/dev/uinput", 0, service.pw_gid)
            os.chmod("/dev/uinput", 0o660)
            self.set_withhold(True)

            def mirror_readers(pens, added):
                mirrors = {}
                for name, info in added.items():
                    check(bool(info.get("mirror")), f"{name} has no mirror: {info}")
                    mirrors[name] = "/dev/input/" + info["mirror"]
                    waited = subprocess.run(["udevadm", "wait", "--timeout=30", mirrors[name]], capture_output=True, text=True)
                    check(waited.returncode == 0, f"udev did not initialize {mirrors[name]}: {waited.stderr.strip()}")
                mirror_nodes = list(mirrors.values())
                listed = chroot.run("libinput", "quirks", "list", mirror_nodes[0])
                check("AttrIsVirtual=0" in listed.stdout, f"libinput's quirks for the mirror {mirror_nodes[0]}: {listed.stdout.strip()!r}")
                listed = chroot.run("libinput", "quirks", "list", pens[0].node)
                check("AttrIsVirtual" not in listed.stdout, f"the mirror's quirk matches the pen {pens[0].node} too: {listed.stdout.strip()!r}")
                return mirrors, [
                    Reader(chroot, mirror_nodes, None, os.path.join(suite.results, "smoothing-mirrors.txt")),
                    Reader(chroot, mirror_nodes, without, os.path.join(suite.results, "smoothing-mirrors-without-quirk.txt"))]

            mirror_axes, control_axes = self.read_pens(chroot, chosen, mirror_readers, pens, readers)
            mirrors = mirror_axes

            failures = []
            aes = {label for label, _, _, is_aes in chosen if is_aes}
            for name in mirrors:
                want = physical_axes[name]
                same, first = differing(want, mirror_axes[name])
                control, _ = differing(want, control_axes[name])
                as_uinput, _ = differing(want, uinput_axes[name])
                self.note(f"{name}: {len(want)} frames of the pen; of the mirror's, {same} differ; "
                          f"without the shipped quirk, {control}; of the pen taken for uinput, {as_uinput}")
                if len(want) < 10:
                    failures.append(f"{name}: only {len(want)} frames read from the pen")
                if same:
                    failures.append(f"{name}: the mirror differs from the pen in {same} frames, the first {first}")
                if name in aes:
                    # Smoothed in no reading: the quirk leaves an AES pen's mirror as its pen.
                    if control or as_uinput:
                        failures.append(f"{name}: an AES pen is read differently as uinput ({as_uinput}) or as its mirror without the quirk ({control})")
                    continue
                if not control:
                    failures.append(f"{name}: without the shipped quirk the mirror is read the same (the control)")
                if not as_uinput:
                    failures.append(f"{name}: the pen taken for uinput is read as the physical pen (the comparison sees no smoothing)")
            check(not failures, "; ".join(failures))
            self.note(f"done ({time.monotonic() - began:.1f}s)")
        finally:
            for reader in readers:
                reader.close()
            for pen in pens:
                pen.close()
            os.chown("/dev/uinput", uinput.st_uid, uinput.st_gid)
            os.chmod("/dev/uinput", uinput.st_mode & 0o7777)
            for monitor in self.monitors:
                monitor.close()
            chroot.close()
            if suite.daemon.poll() is None:
                self.set_withhold(False)
