"""pencild in the GLib main loop: the monitor's events as they come, and whether pencild
answers, trying again while it does not."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import pencild
from gi.repository import GLib


class Connection:
    """The monitor's descriptor watched in the main loop. The Monitor subscribes again by
    itself when pencild restarts (its timeout() says when); while there is no Monitor yet
    (pencild was not running, or refused us), a GLib timeout tries again with back-off."""

    EVENTS = ["deviceAdded", "deviceRemoved", "proximityIn", "proximityOut", "hover", "buttonDown", "buttonUp",
              "doubleTap", "squeeze", "preferencesChanged"]

    def __init__(self, socket_path: Optional[str], on_events: Callable[[List[pencild.Event]], None],
                 on_state: Callable[[str, str], None]) -> None:
        self.client = pencild.Client(socket_path, timeout=2.0)
        self.on_events = on_events
        self.on_state = on_state       # ("connected" | "absent" | "denied" | "error", message)
        self.monitor: Optional[pencild.Monitor] = None
        self.watch: Optional[int] = None
        self.timer: Optional[int] = None
        self.backoff = 0.2
        self.state = ""

    @property
    def path(self) -> str:
        return self.client.path

    def start(self) -> None:
        self.timer = None
        try:
            monitor = self.client.monitor(events=self.EVENTS)
        except pencild.PermissionDenied as error:
            self.retry_later("denied", str(error), slow=True)
            return
        except pencild.PencildError as error:
            self.retry_later("absent", str(error))
            return
        self.monitor = monitor
        self.backoff = 0.2
        self.watch = GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, monitor.fileno(), GLib.IOCondition.IN,
                                           self.readable)
        self.set_state("connected", "")

    def retry_later(self, state: str, message: str, slow: bool = False) -> None:
        self.set_state(state, message)
        delay = max(self.backoff, 5.0) if slow else self.backoff
        self.backoff = min(self.backoff * 2, 5.0)
        self.timer = GLib.timeout_add(int(delay * 1000), self.due_start)

    def due_start(self) -> bool:
        self.start()
        return False

    def set_state(self, state: str, message: str) -> None:
        if state != self.state:
            self.state = state
            self.on_state(state, message)

    def readable(self, *_: Any) -> bool:
        self.run()
        return self.monitor is not None

    def due(self) -> bool:
        self.timer = None
        self.run()
        return False

    def run(self) -> None:
        monitor = self.monitor
        if monitor is None:
            return
        try:
            events = monitor.dispatch()
        except pencild.PencildError as error:
            # The daemon refused the stream (PermissionDenied) or broke it: the monitor is over.
            if self.watch is not None:
                GLib.source_remove(self.watch)
                self.watch = None
            self.monitor = None
            self.on_events([])
            self.retry_later("denied" if isinstance(error, pencild.PermissionDenied) else "absent", str(error),
                             slow=isinstance(error, pencild.PermissionDenied))
            return
        if events:
            self.on_events(events)
        if monitor.connected:
            self.set_state("connected", "")
        elif not monitor.connected:
            self.set_state("absent", f"cannot connect to {self.path}")
        timeout = monitor.timeout()
        if timeout is not None and self.timer is None:
            self.timer = GLib.timeout_add(max(int(timeout * 1000), 1), self.due)

    def close(self) -> None:
        if self.watch is not None:
            GLib.source_remove(self.watch)
        if self.timer is not None:
            GLib.source_remove(self.timer)
        if self.monitor is not None:
            self.monitor.close()
        self.client.close()
