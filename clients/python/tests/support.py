"""What the tests share: the built pencild and pencilctl, the shared recordings, a daemon
started and stopped by pid, and waiting on events with a bounded deadline."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import pencild

IN_CI = os.environ.get("CI") == "true"


def require(condition: bool, what: str) -> None:
    """A prerequisite: missing, it fails the test under CI=true and skips it elsewhere."""
    if condition:
        return
    if IN_CI:
        raise AssertionError(f"prerequisite missing under CI: {what}")
    raise unittest.SkipTest(what)


def binaries() -> Tuple[str, str]:
    directory = os.environ.get("PENCILD_BIN_DIR", "")
    pencild_path = os.path.join(directory, "pencild")
    pencilctl_path = os.path.join(directory, "pencilctl")
    require(bool(directory) and os.access(pencild_path, os.X_OK) and os.access(pencilctl_path, os.X_OK),
            "PENCILD_BIN_DIR must name the folder of a built pencild and pencilctl (make test-client-python sets it)")
    return pencild_path, pencilctl_path


def recordings() -> List[Tuple[str, Optional[str]]]:
    """Every shared recording and the .desc it needs: a recording without a header pairs
    with the .desc whose name starts with the recording's device name (the part of its
    file name before the first dot)."""
    directory = os.environ.get("PENCILD_RECORDINGS", "")
    require(bool(directory) and os.path.isdir(directory),
            "PENCILD_RECORDINGS must name the folder of the shared pen recordings")
    names = sorted(os.listdir(directory))
    descs = [name for name in names if name.endswith(".desc")]
    found: List[Tuple[str, Optional[str]]] = []
    for name in names:
        if not (name.endswith(".events") or name.endswith(".evemu")):
            continue
        path = os.path.join(directory, name)
        desc: Optional[str] = None
        if not has_header(path):
            device = name.split(".")[0]
            matches = [d for d in descs if d.startswith(device)]
            if len(matches) != 1:
                raise AssertionError(f"{name} has no header and no single .desc to pair with: {matches}")
            desc = os.path.join(directory, matches[0])
        found.append((path, desc))
    require(bool(found), f"no recordings in {directory}")
    return found


def has_header(path: str) -> bool:
    with open(path, "rb") as file:
        for line in file:
            if line.startswith(b"N:") or line.startswith(b"I:"):
                return True
            if line.startswith(b"E:"):
                return False
    return False


def pencilctl_events(recording: str, desc: Optional[str]) -> List[Dict[str, Any]]:
    _, pencilctl = binaries()
    command = [pencilctl, "events", recording] + (["--desc", desc] if desc else [])
    output = subprocess.run(command, check=True, stdout=subprocess.PIPE, timeout=120).stdout
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def wait_until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(0.02)


class Daemon:
    """pencild on a private socket, started here and stopped by its pid."""

    def __init__(self, arguments: Sequence[str] = (), socket_path: Optional[str] = None,
                 state_dir: Optional[str] = None) -> None:
        pencild_path, _ = binaries()
        self.work = tempfile.mkdtemp(prefix="pencild-python-")
        self.socket = socket_path or os.path.join(self.work, "pencild.sock")
        self.state_dir = state_dir or os.path.join(self.work, "state")
        os.makedirs(self.state_dir, exist_ok=True)
        self.log_path = os.path.join(self.work, "pencild.log")
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [pencild_path, "--socket", self.socket, "--state-dir", self.state_dir, "--no-udev", *arguments],
            stdout=self._log, stderr=subprocess.STDOUT)
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise

    def _wait_ready(self) -> None:
        """Until pencild answers a call (it makes its socket before it has loaded its
        recordings; a socket left by a killed daemon answers nothing). A call that does
        not subscribe leaves a replay waiting."""
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"pencild exited with {self.process.returncode}: {self.log()}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"pencild did not answer within 60 s: {self.log()}")
            try:
                with pencild.Client(self.socket, timeout=left) as client:
                    client.list_devices()
                return
            except pencild.DaemonUnavailable:
                time.sleep(0.02)

    def log(self) -> str:
        with open(self.log_path, encoding="utf-8", errors="replace") as file:
            return file.read()

    def kill(self) -> None:
        """SIGKILL: the daemon dies without closing anything."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=20)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log.close()

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.work, ignore_errors=True)

    def __enter__(self) -> Daemon:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


def replay_arguments(recording: str, desc: Optional[str], speed: str = "max", exit_after: bool = True) -> List[str]:
    arguments = ["--replay", recording]
    if desc:
        arguments += ["--replay-desc", desc]
    arguments += ["--speed", speed]
    if exit_after:
        arguments.append("--exit-after-replay")
    return arguments


def read_until(monitor: pencild.Monitor, done: Callable[[List[pencild.Event]], bool], seconds: float,
               what: str) -> List[pencild.Event]:
    """Events from ``monitor`` (fileno + dispatch) until ``done(events)`` or the deadline."""
    events: List[pencild.Event] = []
    deadline = time.monotonic() + seconds
    while not done(events):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}; got {len(events)} events")
        timeout = monitor.timeout()
        wait = left if timeout is None else min(left, timeout)
        select.select([monitor.fileno()], [], [], wait)
        events.extend(monitor.dispatch())
    return events


# Tolerance for numbers, from the rounding on the wire (docs/protocol.md, "Numbers on the wire").
_DECIMALS = {"xMillimeters": 3, "yMillimeters": 3, "widthMillimeters": 3, "heightMillimeters": 3,
             "doubleTapSlop": 3, "tiltX": 2, "tiltY": 2, "azimuth": 5, "altitude": 5, "roll": 5}


def _tolerance(key: str) -> float:
    return 0.5 * 10.0 ** -_DECIMALS.get(key, 6) + 1e-9


def camel_to_snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def compare(value: Any, expected: Any, path: str) -> List[str]:
    """Differences between a library value and the protocol's JSON for it, field by field:
    every JSON member must be the same-named attribute (camelCase to snake_case), every
    attribute the JSON lacks must be None (or an empty tuple, a list the protocol leaves out
    when empty: Device.styli); names compare by their wire text, numbers as
    doubles within the wire's rounding."""
    problems: List[str] = []
    if isinstance(expected, dict):
        if not hasattr(value, "__dataclass_fields__"):
            return [f"{path}: expected an object, got {value!r}"]
        attributes = set(value.__dataclass_fields__) - {"synthesized"}
        for key, member in expected.items():
            attribute = camel_to_snake(key)
            if attribute not in attributes:
                problems.append(f"{path}.{key}: not in {type(value).__name__}")
                continue
            attributes.discard(attribute)
            problems += compare(getattr(value, attribute), member, f"{path}.{key}")
        for attribute in sorted(attributes):
            if getattr(value, attribute) is not None and getattr(value, attribute) != ():
                problems.append(f"{path}.{attribute}: {getattr(value, attribute)!r}, absent from the JSON")
    elif isinstance(expected, list):
        if not isinstance(value, (list, tuple)) or len(value) != len(expected):
            return [f"{path}: {value!r} against {expected!r}"]
        for index, (item, member) in enumerate(zip(value, expected)):
            problems += compare(item, member, f"{path}[{index}]")
    elif isinstance(expected, bool) or expected is None:
        if value is not expected:
            problems.append(f"{path}: {value!r} against {expected!r}")
    elif isinstance(expected, str):
        text = value.value if isinstance(value, pencild.WireName) else value
        if text != expected or (isinstance(value, pencild.WireName) and not value.is_known):
            problems.append(f"{path}: {value!r} against {expected!r}")
    elif isinstance(expected, int) and path.rsplit(".", 1)[-1] in ("time", "serial", "id", "bus", "vendor", "product",
                                                                   "tapMaxDuration", "doubleTapInterval",
                                                                   "longPressDuration", "buttons"):
        if type(value) is not int or value != expected:
            problems.append(f"{path}: {value!r} against {expected!r}")
    elif isinstance(expected, (int, float)):
        key = path.rsplit(".", 1)[-1]
        if not isinstance(value, float) or abs(value - float(expected)) > _tolerance(key):
            problems.append(f"{path}: {value!r} against {expected!r}")
    else:
        problems.append(f"{path}: unexpected JSON {expected!r}")
    return problems
