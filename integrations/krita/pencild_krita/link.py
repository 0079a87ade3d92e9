"""The connection to pencild, inside Qt's event loop: no threads.

The monitor's descriptor is watched by a QSocketNotifier and dispatch() runs when it is
readable. While pencild is away a single-shot QTimer wakes the monitor at its
reconnection deadline (or, before the first connection, at our own back-off); while
connected nothing polls.
"""

from __future__ import annotations

import functools
import signal
import sys
import traceback
from typing import Any, Callable, Dict, List, Optional

from PyQt5.QtCore import QObject, QSocketNotifier, QTimer, pyqtSignal

from . import client

pencild = client.load()  # None: the docker says what to do; Krita goes on without gestures

# What the plugin listens to: devices for the docker, gestures to act on, preferences.
EVENTS = ["deviceAdded", "deviceRemoved", "doubleTap", "squeeze", "preferencesChanged"]

# Back-off between attempts to reach a pencild that is not there, in milliseconds.
FIRST_RETRY_MS = 250
LONGEST_RETRY_MS = 5000

def guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """A slot that never lets an exception into Krita's event loop: it is printed, and the
    link tries again later."""
    @functools.wraps(method)
    def run(self: "PencildLink", *arguments: Any) -> Any:
        try:
            return method(self, *arguments)
        except Exception as error:  # noqa: BLE001 (a bug must not take Krita down)
            traceback.print_exc(file=sys.stderr)
            self._failed(f"{type(error).__name__}: {error}")
            return None
    return run


UNAVAILABLE = "client-missing"
CONNECTING = "connecting"
CONNECTED = "connected"
UNREACHABLE = "unreachable"


class PencildLink(QObject):
    """pencild seen from Krita: whether it answers, its pens, the user's preferences, and
    the focus claim. Gestures go to ``perform(action, event)`` when Krita should act."""

    changed = pyqtSignal()  # state, pens, preferences or focus changed
    gesture = pyqtSignal(object, bool)  # every doubleTap and squeeze, and whether Krita acted

    def __init__(self, perform: Callable[[str, object], str], socket_path: Optional[str] = None) -> None:
        super().__init__()
        self._perform = perform
        self.socket_path = socket_path
        self.state = UNAVAILABLE if pencild is None else CONNECTING
        self.detail = "" if pencild is not None else f"the Python module pencild is missing: {client.advice()}"
        self.devices: Dict[str, str] = {}  # id -> name
        self.preferences: Dict[str, str] = {}
        self.focus_wanted = False
        self.focus_claimed = False
        # An older pencild without SetFocus: nobody can claim, so Krita acts on `none`
        # while it is the active app (docs/protocol.md, "Which app acts").
        self.focus_unsupported = False
        self.last_result = ""
        self._client = None
        self._monitor = None
        self._notifier: Optional[QSocketNotifier] = None
        self._retry_ms = FIRST_RETRY_MS
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._due)

    # --- life ----------------------------------------------------------------------

    @guarded
    def start(self) -> None:
        # Python started by Krita leaves SIGPIPE as it was: fatal. A call on a connection
        # that pencild has just closed would then end Krita instead of raising EPIPE, which
        # the client handles by connecting again.
        if signal.getsignal(signal.SIGPIPE) == signal.SIG_DFL:
            signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        if pencild is None:
            self.changed.emit()
            return
        self._client = pencild.Client(self.socket_path, timeout=1.0)
        self._subscribe()

    @guarded
    def reconnect(self, *_: object) -> None:
        """Drops the connection and tries again at once (the "Pencil: reconnect" action)."""
        if pencild is None:
            return
        self._close_monitor()
        self._retry_ms = FIRST_RETRY_MS
        self._subscribe()

    def stop(self) -> None:
        self._timer.stop()
        if self.focus_claimed:
            self._send_focus(False)
        self._close_monitor()
        if self._client is not None:
            self._client.close()

    def _subscribe(self) -> None:
        """A new monitor; when nothing answers, the next attempt after a growing pause."""
        try:
            self._monitor = self._client.monitor(events=EVENTS)
        except pencild.PencildError as error:
            self._set_state(UNREACHABLE, str(error))
            self._timer.start(self._retry_ms)
            self._retry_ms = min(self._retry_ms * 2, LONGEST_RETRY_MS)
            return
        self._retry_ms = FIRST_RETRY_MS
        self._notifier = QSocketNotifier(self._monitor.fileno(), QSocketNotifier.Read, self)
        self._notifier.activated.connect(self._readable)
        self._connected()
        self._readable()

    def _close_monitor(self) -> None:
        if self._notifier is not None:
            self._notifier.setEnabled(False)
            self._notifier.deleteLater()
            self._notifier = None
        if self._monitor is not None:
            self._monitor.close()
            self._monitor = None

    def _connected(self) -> None:
        """A stream (first or again): the pens and preferences of this pencild, and the claim."""
        self.focus_claimed = False
        self._set_state(CONNECTED, "")
        try:
            self.devices = {device.id: device.name for device in self._client.list_devices()}
            self.preferences = _preferences_text(self._client.get_preferences())
        except pencild.PencildError as error:
            self.detail = str(error)
        self._send_focus(self.focus_wanted)
        self.changed.emit()

    def _failed(self, reason: str) -> None:
        self._close_monitor()
        self.focus_claimed = False
        self._set_state(UNREACHABLE, reason)
        self._timer.start(self._retry_ms)

    @guarded
    def _due(self) -> None:
        if self._monitor is None:
            self._subscribe()
        else:
            self._readable()

    @guarded
    def _readable(self, *_: object) -> None:
        monitor = self._monitor
        if monitor is None:
            return
        was_connected = monitor.connected
        try:
            events = monitor.dispatch()
        except pencild.PencildError as error:
            # The stream cannot go on (an error reply, a broken message): a new one later.
            self._failed(str(error))
            return
        for event in events:
            self._event(event)
        if monitor.connected and not was_connected:
            self._connected()
        elif not monitor.connected and was_connected:
            self.focus_claimed = False
            self.devices = {}
            self._set_state(UNREACHABLE, "pencild went away; waiting for it")
        # The monitor says when it must be woken without input: its reconnection attempt.
        timeout = monitor.timeout()
        if timeout is None:
            self._timer.stop()
        else:
            self._timer.start(max(int(timeout * 1000), 1))

    def _set_state(self, state: str, detail: str) -> None:
        if (state, detail) != (self.state, self.detail):
            self.state, self.detail = state, detail
            self.changed.emit()

    # --- focus ----------------------------------------------------------------------

    def set_active(self, active: bool) -> None:
        """Krita became (or stopped being) the active application."""
        self.focus_wanted = active
        if self.state == CONNECTED and active != self.focus_claimed:
            self._send_focus(active)
        self.changed.emit()

    def _send_focus(self, focused: bool) -> None:
        if self._client is None:
            return
        try:
            self._client.set_focused(focused)
            self.focus_claimed = focused
        except pencild.MethodNotFound:
            self.focus_unsupported = True
            self.focus_claimed = False
        except pencild.PencildError as error:
            self.focus_claimed = False
            self.detail = f"SetFocus: {error}"

    # --- events ---------------------------------------------------------------------

    def _event(self, event: object) -> None:
        kind = str(event.type)
        if kind == "deviceAdded" and event.device_info is not None:
            self.devices[event.device_info.id] = event.device_info.name
            self.changed.emit()
        elif kind == "deviceRemoved" and event.device is not None:
            self.devices.pop(event.device, None)
            self.changed.emit()
        elif kind == "preferencesChanged" and event.preferences is not None:
            self.preferences.update(_preferences_text(event.preferences))
            self.changed.emit()
        elif kind == "doubleTap" or (kind == "squeeze" and str(event.phase) == "ended"):
            # A squeeze acts when it ends (docs/gestures.md); its other phases only say it goes on.
            acted = not event.synthesized and self._acts_on(event)
            if acted:
                self.last_result = self._perform(str(event.action), event)
            self.gesture.emit(event, acted)

    def _acts_on(self, event: object) -> bool:
        """Krita claims the focus whenever it is the active app, so it acts on `this`. A
        `none` means Krita is not in front (it gave the claim up) and the fallback,
        pencil-actions, acts; only a pencild that cannot take a claim leaves Krita to act on
        `none`, and then only while it is in front. `other` is never Krita's."""
        focus = str(event.focus) if event.focus is not None else "none"
        if focus == "this":
            return True
        return focus == "none" and self.focus_unsupported and self.focus_wanted


def _preferences_text(preferences: object) -> Dict[str, str]:
    shown: Dict[str, str] = {}
    for key, value in (("doubleTapAction", preferences.double_tap_action),
                       ("squeezeAction", preferences.squeeze_action),
                       ("tapButton", preferences.tap_button),
                       ("squeezeButton", preferences.squeeze_button)):
        if value is not None:
            shown[key] = str(value)
    return shown


def pens(link: PencildLink) -> List[str]:
    return sorted(link.devices.values())
