#!/usr/bin/python3
"""pencil-actions' KDE and GNOME focus providers against a private session bus, where
fake_desktop.py stands in for KWin or GNOME Shell and speaks the conversation the shipped
KWin script and GNOME Shell extension hold with pencil-actions. Neither real desktop runs
here: what KWin and GNOME Shell themselves do is not tested (README says so).

  desktop_bus_test.py BIN_DIR

Checks, for each desktop: the KWin script is loaded and started over D-Bus (again when KWin
comes back); each reported app becomes the focused app; a caller that is not the desktop is
refused and changes nothing (with the desktop's own call beside it as the control); an
over-long id is no id; the desktop leaving the bus, or the bus ending, leaves the fallback."""
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
    def __init__(self, kind, environment):
        self.process = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "fake_desktop.py"), kind], env=environment,
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

    def focus(self, app):
        self.process.stdin.write(f"focus {app}\n")
        self.process.stdin.flush()
        return self.read_until("reply")

    def quit(self):
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        self.process.wait(timeout=30)


def run(kind):
    scratch = tempfile.mkdtemp(prefix=f"pencil-focus-{kind}.")
    runtime = os.path.join(scratch, "run")
    os.mkdir(runtime, 0o700)
    read_end, write_end = os.pipe()
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--print-address={write_end}"],
                           pass_fds=[write_end], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as ready:
        address = ready.readline().strip()
    check(address, "dbus-daemon printed no address")
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": scratch, "DBUS_SESSION_BUS_ADDRESS": address,
                   "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": os.path.join(scratch, "config"),
                   "PENCILD_SOCKET": os.path.join(scratch, "no-pencild.sock")}
    status_path = os.path.join(runtime, "pencil-actions.status")
    script = os.path.join(HERE, "..", "..", "integrations", "kwin", "kwin-focus.js")
    processes = [bus]
    try:
        desktop = Desktop(kind, environment)
        processes.append(desktop.process)
        log_path = os.path.join(scratch, "actions.log")
        actions = subprocess.Popen([os.path.join(BIN, "pencil-actions"), "--verbose", "--focus", kind, "--kwin-script", script],
                                   env=environment, stdout=subprocess.DEVNULL, stderr=open(log_path, "w"))
        processes.append(actions)

        def log():
            return open(log_path, errors="replace").read()

        def status():
            try:
                return json.load(open(status_path))["focus"]
            except (OSError, ValueError):
                return None

        def wait_status(expected, what):
            return wait_until(lambda: status() == expected, f"{what} (status {status()}; log {log()})")

        if kind == "kde":
            check(desktop.read_until("called unloadScript") == "called unloadScript pencil-actions-focus", desktop.lines)
            loaded = desktop.read_until("called loadScript")
            check(loaded == f"called loadScript {script} pencil-actions-focus", f"KWin was asked: {loaded}")
            desktop.read_until("called start")
            wait_status({"following": False, "reason": "KWin's script has not reported the focus yet"}, "the wait for KWin's script")
        else:
            wait_status({"following": False, "reason": "the GNOME Shell extension pencil-actions-focus@pencild.org has not reported "
                         "the focus: is it enabled (gnome-extensions enable pencil-actions-focus@pencild.org)?"}, "the wait for the extension")
        check(desktop.focus("org.kde.krita") == "reply ok", desktop.lines)
        wait_status({"following": True, "app": "org.kde.krita"}, "krita in focus")
        # Another program of the session pretends to be the desktop: refused, nothing changes.
        impostor = subprocess.run(["gdbus", "call", "--session", "--dest", "org.pencild.Actions", "--object-path", "/org/pencild/Actions",
                                   "--method", "org.pencild.Actions1.SetFocusedApp", "gimp"], env=environment, capture_output=True, text=True)
        check(impostor.returncode != 0 and "AccessDenied" in impostor.stderr, f"the impostor was not refused: {impostor}")
        wait_until(lambda: "refused 1 focus report(s)" in log(), "the refusal in the log")
        check(status() == {"following": True, "app": "org.kde.krita"}, f"the impostor changed the focus: {status()}")
        # The control: the desktop's own call, right after, is taken.
        check(desktop.focus("xournalpp") == "reply ok", desktop.lines)
        wait_status({"following": True, "app": "xournalpp"}, "xournalpp in focus")
        check(desktop.focus("x" * 256) == "reply ok", desktop.lines)
        wait_status({"following": True, "app": None}, "an over-long id taken as none")
        check(desktop.focus("inkscape") == "reply ok", desktop.lines)
        wait_status({"following": True, "app": "inkscape"}, "inkscape in focus")
        check(desktop.focus("") == "reply ok", desktop.lines)
        wait_status({"following": True, "app": None}, "no window in focus")
        check(desktop.focus("inkscape") == "reply ok", desktop.lines)
        wait_status({"following": True, "app": "inkscape"}, "inkscape in focus again")
        # The desktop leaves: the fallback, not the last app.
        desktop.quit()
        bus_name = {"kde": "org.kde.KWin", "gnome": "org.gnome.Shell"}[kind]
        wait_status({"following": False, "reason": f"{bus_name} is not on the session bus"}, "the fallback once the desktop left")
        if kind == "kde":
            # KWin back (a restart): the script is loaded into it again.
            again = Desktop(kind, environment)
            processes.append(again.process)
            again.read_until("called loadScript")
            again.read_until("called start")
            check(again.focus("org.gimp.GIMP") == "reply ok", again.lines)
            wait_status({"following": True, "app": "org.gimp.GIMP"}, "GIMP in focus after KWin came back")
        # The bus ends: the fallback.
        bus.send_signal(signal.SIGTERM)
        bus.wait(timeout=30)
        wait_until(lambda: (status() or {}).get("following") is False and "session bus" in status().get("reason", ""),
                   f"the fallback once the bus ended (status {status()})")
        check(actions.poll() is None, f"pencil-actions exited when the bus ended: {log()}")
        actions.send_signal(signal.SIGTERM)
        check(actions.wait(timeout=30) == 0, f"pencil-actions did not exit 0: {log()}")
        check(not os.path.exists(status_path), "pencil-actions left its status file behind")
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.kill()
                process.wait()


for kind in ("kde", "gnome"):
    try:
        run(kind)
        print(f"PASS {kind}: the focus provider against a stand-in desktop on a private session bus")
    except AssertionError as error:
        failures.append(kind)
        print(f"FAIL {kind}: {error}")
sys.exit(1 if failures else 0)
