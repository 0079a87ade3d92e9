"""The connection to pencild, inside Qt's event loop; Krita's thread never waits on pencild.

The monitor's descriptor is watched by a QSocketNotifier and dispatch() runs when it is
readable: it never blocks. While pencild is away a single-shot QTimer wakes the monitor at
its reconnection deadline (or, before the first connection, at our own back-off); while
connected nothing polls. The calls that wait for a reply (GetPreferences, SetFocus) are
made by one worker thread (CallWorker): a pencild that is stopped or busy would otherwise
hold Krita's interface for each call's timeout at every focus change. Their answers come
back to Qt's thread as a queued signal. The socket is looked up at each attempt (the
client's own rule, as pencilctl's), so a pencild started after Krita is found.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import sys
import threading
import traceback
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import canvas_input, client
from .qt import QObject, QSocketNotifier, QTimer, pyqtSignal

pencild = client.load()  # None: the docker says what to do; Krita goes on without gestures

# What the plugin listens to: devices for the docker, gestures to act on, preferences.
# Each gesture: its name, the preference that holds its action, and whether it is phased (acted
# on when it ends), from the client's table; a client older than that table knew these two.
GESTURES: Tuple[Tuple[str, str, bool], ...] = tuple(
    (str(gesture), field, phased) for gesture, field, phased in getattr(pencild, "GESTURES", ())) or (
    ("doubleTap", "doubleTapAction", False), ("squeeze", "squeezeAction", True))
PHASED = {name: phased for name, _, phased in GESTURES}
EVENTS = ["deviceAdded", "deviceRemoved"] + [name for name, _, _ in GESTURES] + ["preferencesChanged"]

# Back-off between attempts to reach a pencild that is not there, in milliseconds.
FIRST_RETRY_MS = 250
LONGEST_RETRY_MS = 5000
# How long the worker waits for one reply; Krita's thread never waits.
CALL_TIMEOUT_S = 2.0
# A claim that failed is tried again after this long, while it is still wanted.
FOCUS_RETRY_MS = 1000


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


class CallWorker:
    """One thread with its own pencild.Client, for the calls with one reply. A request of a
    kind replaces the one of that kind still waiting (only the latest focus matters)."""

    def __init__(self, answer: Callable[[str, object, object, Optional[BaseException]], None]) -> None:
        self._answer = answer
        self._condition = threading.Condition()
        self._waiting: Dict[str, object] = {}
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="pencild-calls", daemon=True)
        self._thread.start()

    def request(self, kind: str, argument: object = None) -> None:
        with self._condition:
            self._waiting.pop(kind, None)  # to the end of the queue: made after what came before
            self._waiting[kind] = argument
            self._condition.notify()

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._condition.notify()

    def _run(self) -> None:
        assert pencild is not None
        calls = pencild.Client(timeout=CALL_TIMEOUT_S)
        while True:
            with self._condition:
                while not self._waiting and not self._stopped:
                    self._condition.wait()
                if self._stopped:
                    calls.close()
                    return
                kind = next(iter(self._waiting))
                argument = self._waiting.pop(kind)
            result: object = None
            failure: Optional[BaseException] = None
            try:
                if kind == "preferences":
                    result = calls.get_preferences()
                elif kind == "focus":
                    calls.set_focused(bool(argument))
            except Exception as error:  # noqa: BLE001 (reported to Qt's thread, which decides)
                failure = error
            with self._condition:
                if self._stopped:
                    # The link may be gone (Krita is ending): nobody to tell.
                    calls.close()
                    return
            self._answer(kind, argument, result, failure)


class PencildLink(QObject):
    """pencild seen from Krita: whether it answers, its pens, the user's preferences, and
    the focus claim. Gestures go to ``perform(action, event)`` when Krita should act."""

    changed = pyqtSignal()  # state, pens, preferences, focus or the last gesture changed
    gesture = pyqtSignal(object, bool)  # every doubleTap and squeeze, and whether Krita acted
    _answered = pyqtSignal(str, object, object, object)  # from the worker, queued to Qt's thread

    def __init__(self, perform: Callable[[str, object], str],
                 popup_buttons: Callable[[], Tuple[int, ...]] = lambda: canvas_input.DEFAULT_POPUP_BUTTONS) -> None:
        super().__init__()
        self._perform = perform
        self._popup_buttons = popup_buttons
        self.state = UNAVAILABLE if pencild is None else CONNECTING
        self.detail = "" if pencild is not None else f"the Python module pencild is missing: {client.advice()}"
        self.socket_path = ""
        self.devices: Dict[str, str] = {}  # id -> name
        self.preferences: Dict[str, str] = {}
        self.focus_wanted = False
        # What pencild last confirmed (None: not known, a call is on its way or failed).
        self.focus_claimed: Optional[bool] = False
        self.focus_error = ""
        self.focus_handler_seconds = 0.0  # the last focus change's time on Krita's thread
        # An older pencild without SetFocus: nobody can claim, so Krita acts on `none`
        # while it is the active app (docs/protocol.md, "Which app acts").
        self.focus_unsupported = False
        self.last_result = ""
        self.last_gesture = ""
        self._preferences_seen = 0  # preferencesChanged events, so a late reply loses to them
        self._monitor = None
        self._worker: Optional[CallWorker] = None
        self._notifier: Optional[QSocketNotifier] = None
        self._retry_ms = FIRST_RETRY_MS
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._due)
        self._focus_timer = QTimer(self)
        self._focus_timer.setSingleShot(True)
        self._focus_timer.timeout.connect(self._claim)
        self._preferences_timer = QTimer(self)
        self._preferences_timer.setSingleShot(True)
        self._preferences_timer.timeout.connect(self._request_preferences)
        self._answered.connect(self._answer)

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
        self._worker = CallWorker(self._answered.emit)
        self._subscribe()

    @guarded
    def reconnect(self, *_: object) -> None:
        """Drops the connection and tries again at once, on the socket found now (the
        docker's Reconnect and the "Pencil: reconnect" action)."""
        if pencild is None:
            return
        self._close_monitor()
        self._retry_ms = FIRST_RETRY_MS
        self._subscribe()

    def stop(self) -> None:
        """At Krita's end: closing the stream ends the claim, without a call to wait for."""
        self._timer.stop()
        self._focus_timer.stop()
        self._preferences_timer.stop()
        self._close_monitor()
        if self._worker is not None:
            self._worker.stop()

    def _subscribe(self) -> None:
        """A new monitor; when nothing answers, the next attempt after a growing pause."""
        assert pencild is not None
        try:
            # No socket given: the client looks it up at each attempt.
            self._monitor = pencild.Monitor(events=EVENTS)
        except pencild.DaemonUnavailable as error:
            # The docker says what to do; the cause alone is the detail.
            self._set_state(UNREACHABLE, f"{error.cause.strerror or error.cause} at {error.path}")
            self._timer.start(self._retry_ms)
            self._retry_ms = min(self._retry_ms * 2, LONGEST_RETRY_MS)
            return
        except pencild.PencildError as error:
            self._set_state(UNREACHABLE, str(error))
            self._timer.start(self._retry_ms)
            self._retry_ms = min(self._retry_ms * 2, LONGEST_RETRY_MS)
            return
        self._retry_ms = FIRST_RETRY_MS
        self._notifier = QSocketNotifier(self._monitor.fileno(), QSocketNotifier.Type.Read, self)
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
        self.devices = {}

    def _connected(self) -> None:
        """A stream (first or again): this pencild's preferences, and the claim. Its pens
        come as the stream's first events."""
        # What this pencild holds is not known: the client's own connection, made again,
        # claims anew what it last claimed. The wish is said at each new stream.
        self.focus_claimed = None
        self.socket_path = self._monitor.path if self._monitor is not None else ""
        self._set_state(CONNECTED, "")
        self._request_preferences()
        self._claim()
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
        subscriptions = monitor.reconnections
        try:
            events = monitor.dispatch()
        except pencild.PencildError as error:
            # The stream cannot go on (an error reply, a broken message): a new one later.
            self._failed(str(error))
            return
        if monitor.reconnections != subscriptions:
            # A new stream, whose first events (its pens) came in this same dispatch.
            self._connected()
        for event in events:
            self._event(event)
        if not monitor.connected and was_connected:
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

    # --- calls, on the worker ------------------------------------------------------------

    def _worker_request(self, kind: str, argument: object) -> None:
        if self._worker is not None:
            self._worker.request(kind, argument)

    def _request_preferences(self) -> None:
        if self.state == CONNECTED:
            self._worker_request("preferences", self._preferences_seen)

    @guarded
    def _answer(self, kind: str, argument: object, result: object, failure: object) -> None:
        if kind == "preferences":
            if failure is None and argument == self._preferences_seen:
                self.preferences = _preferences_text(result)
            elif failure is not None:
                self.detail = f"GetPreferences: {failure}"
                if self.state == CONNECTED and not self._preferences_timer.isActive():
                    self._preferences_timer.start(FOCUS_RETRY_MS)
        elif kind == "focus":
            if failure is None:
                self.focus_claimed = bool(argument)
                if self.focus_error:
                    # The calls that timed out may still reach a pencild that was stopped, after
                    # this one: the wish is said once more, after them.
                    self.focus_error = ""
                    self._worker_request("focus", self.focus_wanted)
                else:
                    # The wish may have changed back while this call was on its way.
                    self._claim()
            elif pencild is not None and isinstance(failure, pencild.MethodNotFound):
                self.focus_unsupported = True
                self.focus_claimed = False
            else:
                self.focus_claimed = None
                self.focus_error = str(failure)
            self._claim_later()
        self.changed.emit()

    # --- focus ----------------------------------------------------------------------

    def set_active(self, active: bool) -> None:
        """Krita became (or stopped being) the active application. Returns at once: the
        claim is the worker's to make."""
        self.focus_wanted = active
        self._claim()
        self.changed.emit()

    def _claim(self) -> None:
        if self.state != CONNECTED or self.focus_unsupported:
            return
        if self.focus_claimed is not self.focus_wanted:
            self._worker_request("focus", self.focus_wanted)

    def _claim_later(self) -> None:
        """After an answer: if the wish changed meanwhile, the request for it is on its way;
        if the call failed, it is made again in a while."""
        if self.state == CONNECTED and self.focus_claimed is None and not self._focus_timer.isActive():
            self._focus_timer.start(FOCUS_RETRY_MS)

    # --- events ---------------------------------------------------------------------

    def _event(self, event: Any) -> None:
        kind = str(event.type)
        if kind == "deviceAdded" and event.device_info is not None:
            self.devices[event.device_info.id] = event.device_info.name
            self.changed.emit()
        elif kind == "deviceRemoved" and event.device is not None:
            self.devices.pop(event.device, None)
            self.changed.emit()
        elif kind == "preferencesChanged" and event.preferences is not None:
            self._preferences_seen += 1
            self.preferences.update(_preferences_text(event.preferences))
            self.changed.emit()
        elif kind in PHASED and (not PHASED[kind] or str(event.phase) == "ended"):
            # A squeeze acts when it ends (docs/gestures.md); its other phases only say it goes on.
            self._gesture(kind, event)

    def _gesture(self, kind: str, event: Any) -> None:
        action = str(event.action)
        focus = str(event.focus) if event.focus is not None else "none"
        reason = self.not_ours(kind, event)
        acted = reason is None
        self.last_result = self._perform(action, event) if acted else (reason or "")
        self.last_gesture = f"{kind} {action} (focus {focus}): {self.last_result}"
        # The docker shows the last gesture: it is told first.
        self.changed.emit()
        self.gesture.emit(event, acted)

    def not_ours(self, kind: str, event: Any) -> Optional[str]:
        """Why Krita leaves this gesture alone, or None when it acts on it.

        Focus: Krita claims the focus whenever it is the active app, so it acts on `this`.
        A `none` means Krita is not in front (it gave the claim up) and the fallback,
        pencil-actions, acts; only a pencild that cannot take a claim leaves Krita to act
        on `none`, and then only while it is in front. `other` is never Krita's.

        One press, one thing: a gesture made on the button that Krita's Canvas Input opens
        its pop-up palette on (the pen's upper button is a right click) reaches Krita as
        that click too, unless pencild withholds gesture clicks; Krita has acted on it."""
        if event.synthesized:
            return "closed when pencild went away"
        focus = str(event.focus) if event.focus is not None else "none"
        if focus == "other":
            return "another app holds the focus"
        if focus == "none" and not (self.focus_unsupported and self.focus_wanted):
            return "Krita is not in front: left to pencil-actions"
        shared = self.shared_button(kind)
        if shared is not None:
            return f"left to Krita: {shared} is also Krita's {self.popup_click()}, which opens its pop-up palette"
        return None

    def shared_button(self, kind: str) -> Optional[str]:
        return canvas_input.shared_with_krita(kind, self.preferences, self._popup_buttons())

    def popup_click(self) -> str:
        buttons = self._popup_buttons()
        return canvas_input.BUTTON_NAMES.get(buttons[0], "button") if buttons else "button"


def looked_for(environment: Optional[Dict[str, str]] = None) -> List[str]:
    """Where the client looks for pencild, in its order (pencild.default_socket_path)."""
    env = dict(os.environ) if environment is None else environment
    if env.get("PENCILD_SOCKET"):
        return [env["PENCILD_SOCKET"]]
    places = [os.path.join(env["XDG_RUNTIME_DIR"], "pencild.sock")] if env.get("XDG_RUNTIME_DIR") else []
    system = pencild.SYSTEM_SOCKET if pencild is not None else "/run/pencild/pencild.sock"
    return places + [system]


def _preferences_text(preferences: Any) -> Dict[str, str]:
    shown: Dict[str, str] = {}
    for key in [field for _, field, _ in GESTURES] + ["tapButton", "squeezeButton"]:
        value = getattr(preferences, re.sub("([A-Z])", r"_\1", key).lower(), None)
        if value is not None:
            shown[key] = str(value.value if hasattr(value, "value") else value)
    if preferences.withhold_gesture_clicks is not None:
        shown["withholdGestureClicks"] = "true" if preferences.withhold_gesture_clicks else "false"
    return shown


def pens(link: PencildLink) -> List[str]:
    return sorted(link.devices.values())
