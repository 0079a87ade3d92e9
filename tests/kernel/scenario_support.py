"""What the kernel suite's scenarios share: how a check fails, the wait for what has no event
to wait on, logind's state files as sd-login reads them, a scenario's base (the suite,
pencild's Monitor, the service's user, its notes) and a running `libinput debug-events`.

Used by suite.py and the scenario modules; standard library only.
"""

import fcntl
import os
import select
import time


class Failure(Exception):
    """A check failed: suite.py reports its text alone, without a traceback."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def wait_until(condition, timeout, what):
    """Polls `condition` until it holds: for sysfs, /proc and log files, which have no event to
    wait on here."""
    deadline = time.monotonic() + timeout
    while not condition():
        check(time.monotonic() < deadline, f"no {what} within {timeout} s")
        time.sleep(0.05)


def write_logind(directory, sessions, active):
    """`sessions`: {session: (uid, seat)}; `active`: {seat: session}. Each file is written
    as logind does, a new file renamed over the old (sd-login's monitor sees the rename)."""
    for folder in ("sessions", "users", "seats", "machines"):
        os.makedirs(os.path.join(directory, folder), exist_ok=True)

    def put(path, text):
        with open(os.path.join(directory, path + ".new"), "w") as f:
            f.write(text)
        os.rename(os.path.join(directory, path + ".new"), os.path.join(directory, path))

    running = set(active.values())
    for session, (uid, seat) in sessions.items():
        on = session in running
        put(f"sessions/{session}", f"UID={uid}\nACTIVE={int(on)}\nSTATE={'active' if on else 'online'}\nREMOTE=0\n"
                                   f"SEAT={seat}\nTYPE=wayland\nCLASS=user\n")
    for uid in sorted({uid for uid, _ in sessions.values()}):
        own = [session for session, (owner, _) in sessions.items() if owner == uid]
        live = [session for session in own if session in running]
        put(f"users/{uid}", f"STATE={'active' if live else 'online'}\nSESSIONS={' '.join(own)}\n"
                            f"ONLINE_SESSIONS={' '.join(own)}\nACTIVE_SESSIONS={' '.join(live)}\n")
    for seat in sorted({seat for _, seat in sessions.values()}):
        held = [session for session, (_, on) in sessions.items() if on == seat]
        session = active.get(seat)
        uid = sessions[session][0] if session else ""
        put(f"seats/{seat}", f"ACTIVE={session or ''}\nACTIVE_UID={uid}\nSESSIONS={' '.join(held)}\n")


class Scenario:
    """One scenario of the suite. `name` is how its notes begin."""

    name = "scenario"

    def __init__(self, suite, monitor_class, is_event, as_service_user=None, service_user=None):
        self.suite = suite
        self.Monitor = monitor_class
        self.is_event = is_event
        self.as_service_user = as_service_user
        self.service_user = service_user
        self.pencilctl = os.path.join(suite.bin, "pencilctl")

    def note(self, text):
        self.suite.note(f"  {self.name}: {text}")


class DebugEvents:
    """A running `libinput debug-events` (a compositor's reading of input, line by line): its
    lines so far, kept in `log_path` as they come."""

    def __init__(self, process, log_path):
        self.process = process
        self.log_path = log_path
        self.log = open(log_path, "w")
        self.buffer = b""
        self.lines = []
        # A compositor's libinput never waits to write; this one writes to a pipe, and a full
        # pipe would stop it reading its devices until the kernel dropped their events. 1 MiB
        # holds some ten seconds of five pens' lines should this reader fall behind.
        try:
            fcntl.fcntl(self.fileno(), fcntl.F_SETPIPE_SZ, 1 << 20)
        except OSError:
            pass

    def fileno(self):
        return self.process.stdout.fileno()

    def take(self):
        """Reads what libinput has written (call when its output is readable); the new lines
        are added to the log, not the whole log written again (that grew with every read)."""
        data = os.read(self.fileno(), 1 << 20)
        check(bool(data), f"libinput debug-events exited ({self.process.poll()}): " + " | ".join(self.lines[-5:]))
        self.buffer += data
        *complete, self.buffer = self.buffer.split(b"\n")
        new = [line.decode(errors="replace") for line in complete]
        self.lines += new
        if new:
            self.log.write("\n".join(new) + "\n")
            self.log.flush()

    def wait_for(self, predicate, timeout, what):
        """Waits until `predicate(lines)` holds."""
        deadline = time.monotonic() + timeout
        while not predicate(self.lines):
            left = deadline - time.monotonic()
            check(left > 0, f"libinput: no {what} within {timeout:.0f} s; its last lines: " + " | ".join(self.lines[-8:]))
            ready, _, _ = select.select([self], [], [], left)
            if ready:
                self.take()

    def count(self, *words):
        """How many lines hold every one of `words`."""
        return sum(1 for line in self.lines if all(word in line for word in words))

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.log.close()
