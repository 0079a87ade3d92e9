#!/usr/bin/python3
"""pencil-actions' KDE and GNOME focus providers against a private session bus, where
fake_desktop.py stands in for KWin or GNOME Shell and speaks the conversation the shipped
KWin script and GNOME Shell extension hold with pencil-actions. Neither real desktop runs
here: what KWin and GNOME Shell themselves do is tested by `make test-desktop` (docs/desktops.md).

  desktop_bus_test.py BIN_DIR

Checks, for each desktop: the KWin script is loaded and started over D-Bus (again when KWin
comes back); each reported app becomes the focused app; a caller that is not the desktop is
refused and changes nothing, also after it sent pencil-actions a NameOwnerChanged of its own
that names it the desktop (with the desktop's own call beside it as the control); an
over-long id is no id; the desktop leaving the bus, or the bus ending, leaves the fallback.
Then, for GNOME: the Shell's extension is turned on by the first pencil-actions that finds it
off, and never again once recorded (the person's own turning off stays); the desktop's report as pencil-actions joins the bus is taken; another
program of the session floods pencil-actions with SetFocusedApp calls, and pencil-actions
keeps taking the desktop's calls in bounded time and memory, and ends at once on SIGTERM in
the middle of a flood."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = sys.argv[1]
failures = []

# The flood's bounds. The desktop's call is answered behind whatever the flood queued in
# dbus-daemon before it; pencil-actions reads the bus only between its other descriptors and
# keeps no queue of its own, so its memory stays where it was give or take its allocator's
# reuse of the same buffers.
DESKTOP_REPLY_SECONDS = 5
RSS_GROWTH_KIB = 16 * 1024
SIGTERM_EXIT_SECONDS = 5


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def wait_until(condition, what, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        check(time.monotonic() < deadline, f"no {what} within {timeout} s")
        time.sleep(0.05)


class Desktop:
    """fake_desktop.py: the desktop (`kind`), or with `impostor` another program of the session."""

    def __init__(self, kind, environment, impostor=False, arrival_app=None):
        arguments = ["impostor", kind] if impostor else [kind] + (["--report-on-arrival", arrival_app] if arrival_app else [])
        self.process = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "fake_desktop.py"), *arguments], env=environment,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines = []
        check(self.read() == "ready", f"the {kind} stand-in did not start")

    def read(self):
        line = self.process.stdout.readline().strip()
        self.lines.append(line)
        return line

    def read_until(self, prefix):
        while True:
            line = self.read()
            check(line != "" or self.process.poll() is None, f"the stand-in ended before '{prefix}': {self.lines}")
            if line.startswith(prefix):
                return line

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def focus(self, app):
        self.send(f"focus {app}")
        return self.read_until("reply")

    def quit(self):
        self.send("quit")
        self.process.wait(timeout=30)


class Session:
    """A private session bus, and pencil-actions on it following `kind`'s desktop."""

    def __init__(self, kind):
        self.kind = kind
        self.bus_name = {"kde": "org.kde.KWin", "gnome": "org.gnome.Shell"}[kind]
        self.scratch = tempfile.mkdtemp(prefix=f"pencil-focus-{kind}.")
        runtime = os.path.join(self.scratch, "run")
        os.mkdir(runtime, 0o700)
        self.processes = []
        read_end, write_end = os.pipe()
        self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--print-address={write_end}"],
                                    pass_fds=[write_end], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.processes.append(self.bus)
        os.close(write_end)
        with os.fdopen(read_end) as ready:
            address = ready.readline().strip()
        check(address, "dbus-daemon printed no address")
        self.environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.scratch, "DBUS_SESSION_BUS_ADDRESS": address,
                            "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": os.path.join(self.scratch, "config"),
                            "PENCILD_SOCKET": os.path.join(self.scratch, "no-pencild.sock")}
        self.status_path = os.path.join(runtime, "pencil-actions.status")
        self.script = os.path.join(HERE, "..", "..", "integrations", "kwin", "kwin-focus.js")
        self.log_path = os.path.join(self.scratch, "actions.log")
        self.actions = None

    def desktop(self, impostor=False, arrival_app=None):
        desktop = Desktop(self.kind, self.environment, impostor, arrival_app)
        self.processes.append(desktop.process)
        return desktop

    def start_actions(self):
        self.actions = subprocess.Popen([os.path.join(BIN, "pencil-actions"), "--verbose", "--focus", self.kind, "--kwin-script", self.script],
                                        env=self.environment, stdout=subprocess.DEVNULL, stderr=open(self.log_path, "w"))
        self.processes.append(self.actions)

    def log(self):
        return open(self.log_path, errors="replace").read()

    def status(self):
        try:
            return json.load(open(self.status_path))["focus"]
        except (OSError, ValueError):
            return None

    def wait_status(self, expected, what):
        return wait_until(lambda: self.status() == expected, f"{what} (status {self.status()}; log {self.log()})")

    def waiting_for_the_desktop(self, desktop):
        """The status while the desktop is on the bus but has not reported; for KDE, after the script was loaded."""
        if self.kind == "kde":
            check(desktop.read_until("called unloadScript") == "called unloadScript pencil-actions-focus", desktop.lines)
            loaded = desktop.read_until("called loadScript")
            check(loaded == f"called loadScript {self.script} pencil-actions-focus", f"KWin was asked: {loaded}")
            desktop.read_until("called start")
            self.wait_status({"following": False, "reason": "KWin's script has not reported the focus yet"}, "the wait for KWin's script")
        else:
            self.wait_status({"following": False, "reason": "the GNOME Shell extension pencil-actions-focus@pencild.org has not reported "
                              "the focus: is it enabled (gnome-extensions enable pencil-actions-focus@pencild.org)? It needs "
                              "GNOME Shell 45 or later"}, "the wait for the extension")

    def resident_kib(self):
        for line in open(f"/proc/{self.actions.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS in pencil-actions' status")

    def close(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.kill()
                process.wait()


def run(kind):
    session = Session(kind)
    try:
        desktop = session.desktop()
        session.start_actions()
        session.waiting_for_the_desktop(desktop)
        check(desktop.focus("org.kde.krita") == "reply ok", desktop.lines)
        session.wait_status({"following": True, "app": "org.kde.krita"}, "krita in focus")
        # Another program of the session pretends to be the desktop: refused, nothing changes.
        impostor = subprocess.run(["gdbus", "call", "--session", "--dest", "org.pencild.Actions", "--object-path", "/org/pencild/Actions",
                                   "--method", "org.pencild.Actions1.SetFocusedApp", "gimp"], env=session.environment, capture_output=True, text=True)
        check(impostor.returncode != 0 and "AccessDenied" in impostor.stderr, f"the impostor was not refused: {impostor}")
        wait_until(lambda: "refused 1 focus report(s)" in session.log(), "the refusal in the log")
        check(session.status() == {"following": True, "app": "org.kde.krita"}, f"the impostor changed the focus: {session.status()}")
        # The control: the desktop's own call, right after, is taken.
        check(desktop.focus("xournalpp") == "reply ok", desktop.lines)
        session.wait_status({"following": True, "app": "xournalpp"}, "xournalpp in focus")
        # An impostor that first tells pencil-actions, in a NameOwnerChanged of its own making,
        # that the desktop's name is now its own: it is still refused, and the focus stays.
        forger = session.desktop(impostor=True)
        forger.send("forge")
        forger.read_until("forged")
        reply = forger.focus("gimp")
        check(reply == "reply error org.freedesktop.DBus.Error.AccessDenied", f"the forger's call was taken: {reply} (log {session.log()})")
        check(session.status() == {"following": True, "app": "xournalpp"}, f"the forger changed the focus: {session.status()}")
        wait_until(lambda: f"ignored 1 NameOwnerChanged signal(s) so far for {session.bus_name}" in session.log(), "the forgery in the log")
        # The control beside it: the desktop's own call is taken, and the forger's, after it, refused again.
        check(desktop.focus("inkscape") == "reply ok", desktop.lines)
        session.wait_status({"following": True, "app": "inkscape"}, "inkscape in focus after the forgery")
        check(forger.focus("gimp") == "reply error org.freedesktop.DBus.Error.AccessDenied", forger.lines)
        check(session.status() == {"following": True, "app": "inkscape"}, f"the forger changed the focus: {session.status()}")
        forger.quit()
        check(desktop.focus("x" * 256) == "reply ok", desktop.lines)
        session.wait_status({"following": True, "app": None}, "an over-long id taken as none")
        check(desktop.focus("inkscape") == "reply ok", desktop.lines)
        session.wait_status({"following": True, "app": "inkscape"}, "inkscape in focus")
        check(desktop.focus("") == "reply ok", desktop.lines)
        session.wait_status({"following": True, "app": None}, "no window in focus")
        check(desktop.focus("inkscape") == "reply ok", desktop.lines)
        session.wait_status({"following": True, "app": "inkscape"}, "inkscape in focus again")
        # The desktop leaves: the fallback, not the last app.
        desktop.quit()
        session.wait_status({"following": False, "reason": f"{session.bus_name} is not on the session bus"}, "the fallback once the desktop left")
        if kind == "kde":
            # KWin back (a restart): the script is loaded into it again.
            again = session.desktop()
            again.read_until("called loadScript")
            again.read_until("called start")
            check(again.focus("org.gimp.GIMP") == "reply ok", again.lines)
            session.wait_status({"following": True, "app": "org.gimp.GIMP"}, "GIMP in focus after KWin came back")
        # The bus ends: the fallback.
        session.bus.send_signal(signal.SIGTERM)
        session.bus.wait(timeout=30)
        wait_until(lambda: (session.status() or {}).get("following") is False and "session bus" in session.status().get("reason", ""),
                   f"the fallback once the bus ended (status {session.status()})")
        check(session.actions.poll() is None, f"pencil-actions exited when the bus ended: {session.log()}")
        session.actions.send_signal(signal.SIGTERM)
        check(session.actions.wait(timeout=30) == 0, f"pencil-actions did not exit 0: {session.log()}")
        check(not os.path.exists(session.status_path), "pencil-actions left its status file behind")
    finally:
        session.close()


def flood(kind):
    session = Session(kind)
    try:
        # The desktop reports as soon as pencil-actions is on the bus, before pencil-actions
        # may have heard from the bus which user the desktop is: the call waits, and is taken.
        desktop = session.desktop(arrival_app="org.kde.krita")
        session.start_actions()
        check(desktop.read_until("reply") == "reply ok", desktop.lines)
        session.wait_status({"following": True, "app": "org.kde.krita"}, "krita in focus")
        resident_before = session.resident_kib()
        flooder = session.desktop(impostor=True)
        flooder.send("flood 3")
        flooder.read_until("flooding")
        # The desktop's call in the middle of the flood is answered, and taken, in bounded time.
        asked = time.monotonic()
        reply = desktop.focus("xournalpp")
        waited_during = time.monotonic() - asked
        check(reply == "reply ok", f"the desktop's call during the flood: {reply}")
        check(waited_during < DESKTOP_REPLY_SECONDS, f"the desktop's call during the flood took {waited_during:.1f} s (at most {DESKTOP_REPLY_SECONDS})")
        session.wait_status({"following": True, "app": "xournalpp"}, "xournalpp in focus during the flood")
        sent = int(flooder.read_until("flooded").split()[1])
        # And after it: the flood left nothing behind that delays the desktop.
        asked = time.monotonic()
        check(desktop.focus("inkscape") == "reply ok", desktop.lines)
        waited = time.monotonic() - asked
        check(waited < DESKTOP_REPLY_SECONDS, f"the desktop's call after the flood took {waited:.1f} s (at most {DESKTOP_REPLY_SECONDS})")
        session.wait_status({"following": True, "app": "inkscape"}, "inkscape in focus after the flood")
        resident_after = session.resident_kib()
        check(resident_after - resident_before < RSS_GROWTH_KIB,
              f"pencil-actions grew from {resident_before} KiB to {resident_after} KiB with a flood of {sent} calls")
        # The refusals are logged, but not once per call: the log stays a few lines long.
        refusals = [line for line in session.log().splitlines() if "focus report" in line and "refused" in line]
        check(refusals and len(refusals) <= sent.bit_length() + 1, f"{len(refusals)} log lines for {sent} refused calls")
        print(f"  {sent} calls in 3 s; the desktop answered in {waited_during:.2f} s during the flood, {waited:.2f} s after; "
              f"pencil-actions {resident_before} KiB before, {resident_after} KiB after; {len(refusals)} log lines")
        # SIGTERM in the middle of a flood ends pencil-actions at once, and cleanly.
        flooder.send("flood 60")
        flooder.read_until("flooding")
        asked = time.monotonic()
        session.actions.send_signal(signal.SIGTERM)
        try:
            status = session.actions.wait(timeout=SIGTERM_EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"pencil-actions still ran {SIGTERM_EXIT_SECONDS} s after SIGTERM in a flood")
        check(status == 0, f"pencil-actions did not exit 0: {session.log()}")
        print(f"  SIGTERM in a flood: pencil-actions ended after {time.monotonic() - asked:.2f} s")
        check(not os.path.exists(session.status_path), "pencil-actions left its status file behind")
    finally:
        session.close()


def extension(kind):
    session = Session(kind)
    uuid = "pencil-actions-focus@pencild.org"
    record = os.path.join(session.scratch, ".local", "state", "pencil-actions", "gnome-extension-turned-on")

    def start_again(desktop, state):
        """pencil-actions ended, the Shell's extension made `state`, pencil-actions started
        again (the next login); returns where the Shell's lines since begin."""
        session.actions.send_signal(signal.SIGTERM)
        check(session.actions.wait(timeout=30) == 0, f"pencil-actions did not exit 0: {session.log()}")
        desktop.send(f"extension {state}")
        desktop.read_until(f"extension {state}")
        since = len(desktop.lines)
        session.start_actions()
        return since

    try:
        # The first start in a GNOME session finds the extension off: it asks the Shell to turn
        # it on, and records that it did.
        desktop = session.desktop()
        session.start_actions()
        check(desktop.read_until("called GetExtensionInfo") == f"called GetExtensionInfo {uuid}", desktop.lines)
        check(desktop.read_until("called EnableExtension") == f"called EnableExtension {uuid}", desktop.lines)
        wait_until(lambda: f"turned on the GNOME Shell extension {uuid}, once" in session.log(), "the turning on in the log")
        check(os.path.isfile(record), f"no record at {record}: {session.log()}")
        # The person turns it off; pencil-actions starts again (the next login): the record
        # keeps it from asking, and the extension stays off. Any question would come before the
        # desktop's first call is answered (the bus keeps their order).
        since = start_again(desktop, "off")
        wait_until(lambda: "stays as the person has it" in session.log(), "the record's line in the log")
        check(desktop.focus("org.kde.krita") == "reply ok", desktop.lines)
        session.wait_status({"following": True, "app": "org.kde.krita"}, "krita in focus")
        asked = [line for line in desktop.lines[since:] if line.startswith("called")]
        check(not asked, f"pencil-actions asked the Shell again after it was on once: {asked}")
        # A Shell that does not know the extension (installed after the session began): said
        # in the log, and nothing recorded, so that the next login asks again.
        os.unlink(record)
        start_again(desktop, "unknown")
        check(desktop.read_until("called GetExtensionInfo") == f"called GetExtensionInfo {uuid}", desktop.lines)
        wait_until(lambda: f"GNOME Shell does not know the extension {uuid}" in session.log(), "the unknown extension in the log")
        check(not os.path.exists(record), f"a record was written for an extension the Shell does not know: {session.log()}")
        # Found on already: recorded, nothing turned on.
        since = start_again(desktop, "on")
        check(desktop.read_until("called GetExtensionInfo") == f"called GetExtensionInfo {uuid}", desktop.lines)
        wait_until(lambda: f"the GNOME Shell extension {uuid} is on (recorded" in session.log(), "the extension found on, in the log")
        check(os.path.isfile(record), f"no record at {record}: {session.log()}")
        check(desktop.focus("org.kde.krita") == "reply ok", desktop.lines)
        turned = [line for line in desktop.lines[since:] if line.startswith("called EnableExtension")]
        check(not turned, f"pencil-actions turned on an extension that was on: {turned}")
    finally:
        session.close()


for name, scenario, kind, what in [
        ("kde", run, "kde", "the focus provider against a stand-in desktop on a private session bus"),
        ("gnome", run, "gnome", "the focus provider against a stand-in desktop on a private session bus"),
        ("gnome-extension", extension, "gnome", "the Shell's extension turned on once: off, on and recorded; off again, left off; unknown, not recorded; on, recorded"),
        ("flood", flood, "gnome", "SetFocusedApp calls flooding from another program: the desktop is answered, memory stays, SIGTERM ends it")]:
    try:
        scenario(kind)
        print(f"PASS {name}: {what}")
    except AssertionError as error:
        failures.append(name)
        print(f"FAIL {name}: {error}")
sys.exit(1 if failures else 0)
