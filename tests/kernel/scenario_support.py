"""What the kernel suite's scenarios share: how a check fails, the wait for what has no event
to wait on, a scenario's base (the suite, pencild's Monitor, the service's user, its notes)
and a running `libinput debug-events`.

Used by suite.py and the scenario modules; standard library only.
"""

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
        self.buffer = b""
        self.lines = []

    def fileno(self):
        return self.process.stdout.fileno()

    def take(self):
        """Reads what libinput has written (call when its output is readable)."""
        data = os.read(self.fileno(), 65536)
        check(bool(data), f"libinput debug-events exited ({self.process.poll()}): " + " | ".join(self.lines[-5:]))
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
