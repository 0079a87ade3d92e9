"""pencil-actions, as the Apps page shows it: whether it runs for this user (and whether this
window can turn it on or off), and where its bindings are."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Optional

from gi.repository import Gio, GLib


def bindings_path() -> str:
    """Where pencil-actions reads its bindings (Sources/PencilActions/BindingsFile.swift)."""
    config = os.environ.get("XDG_CONFIG_HOME", "")
    if not config.startswith("/"):
        config = os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config, "pencild", "actions.conf")


def example_bindings() -> Optional[str]:
    """The example bindings that come with pencil-actions, or those of the source tree."""
    package = os.path.dirname(os.path.realpath(__file__))
    # Installed, the package is in PREFIX/share/pencil-settings; in the source tree, in apps/settings.
    prefix = os.path.dirname(os.path.dirname(os.path.dirname(package)))
    candidates = [os.path.join(prefix, "share", "doc", "pencild", "examples", "actions.conf"),
                  os.path.join(package, "..", "..", "..", "examples", "actions.conf"),
                  "/usr/share/doc/pencild/examples/actions.conf",
                  "/usr/local/share/doc/pencild/examples/actions.conf"]
    for path in candidates:
        for name in (path, path + ".gz"):
            if os.path.isfile(name):
                return name
    return None


@dataclass
class ActionsState:
    """Whether pencil-actions runs for this user, and whether this window can turn it on or
    off (through the user's service manager), or why not."""
    running: bool
    text: str
    can_switch: bool
    why_not: str = ""


NO_USER_MANAGER = ("This session has no user service manager, so this window cannot start or stop it: "
                   "start pencil-actions with your desktop’s autostart")
NOT_INSTALLED = "pencil-actions is not installed: it comes in the package of that name"
STARTED_ELSEWHERE = "Started outside your services, so this window cannot stop it: end it where it was started"


def pencil_actions_state(answer: Callable[[ActionsState], None]) -> None:
    """Whether pencil-actions runs for this user, given to `answer` from the main loop: the
    user manager's word on its unit when there is one, else a process of this user named
    pencil-actions (which this window can neither start nor stop)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", f"/run/user/{os.getuid()}")

    def without_manager(why: str) -> None:
        running = pencil_actions_process()
        answer(ActionsState(running, "Running" if running else "Not running", False,
                            STARTED_ELSEWHERE if running else why))
    if not os.path.exists(os.path.join(runtime, "systemd", "private")):
        without_manager(NO_USER_MANAGER)
        return
    try:
        process = Gio.Subprocess.new(["systemctl", "--user", "show", "pencil-actions.service",
                                      "--property=LoadState,ActiveState,UnitFileState"],
                                     Gio.SubprocessFlags.STDOUT_PIPE | Gio.SubprocessFlags.STDERR_SILENCE)
    except GLib.Error:
        without_manager(NO_USER_MANAGER)
        return

    def done(source: Gio.Subprocess, result: Gio.AsyncResult) -> None:
        try:
            _, output, _ = source.communicate_utf8_finish(result)
        except GLib.Error:
            output = ""
        unit = dict(line.split("=", 1) for line in (output or "").splitlines() if "=" in line)
        if not source.get_successful() or "LoadState" not in unit:
            without_manager(NO_USER_MANAGER)
        elif unit["LoadState"] == "masked":
            # Turned off here (or with systemctl --user mask): off for good, until turned on.
            answer(ActionsState(False, "Off", True))
        elif unit["LoadState"] != "loaded":
            without_manager(NOT_INSTALLED)
        elif unit.get("ActiveState") in ("active", "activating", "reloading"):
            answer(ActionsState(True, "On", True))
        elif pencil_actions_process():
            answer(ActionsState(True, "Running", False, STARTED_ELSEWHERE))
        elif unit.get("ActiveState") == "failed":
            answer(ActionsState(False, "Off: it stopped with an error (journalctl --user -u pencil-actions tells why)", True))
        else:
            answer(ActionsState(False, "Off", True))
    process.communicate_utf8_async(None, None, done)


def pencil_actions_process() -> bool:
    """A process of this user named pencil-actions."""
    uid = os.getuid()
    try:
        entries = os.listdir("/proc")
    except OSError:
        entries = []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm", encoding="utf-8") as comm:
                if comm.read().strip() != "pencil-actions":
                    continue
            if os.stat(f"/proc/{entry}").st_uid == uid:
                return True
        except OSError:
            continue
    return False
