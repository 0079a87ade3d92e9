"""pencild: pen, hover, double-tap and squeeze events from pencild, the tablet pen daemon.

    import pencild

    with pencild.Client() as client:
        print(client.list_devices())
    for event in pencild.monitor(events=["doubleTap", "squeeze"]):
        print(event.type, event.action, event.focus)

The socket is found as pencilctl finds it (``$PENCILD_SOCKET``, else
``$XDG_RUNTIME_DIR/pencild.sock`` when it exists, else ``/run/pencild/pencild.sock``), looked
up again at each connection, so that a pencild started later is found; or given. The protocol: pencild's docs/protocol and interfaces/org.pencild.Pen.varlink.

Strings from the daemon are untrusted text: a device's name and model, a stylus's name, a
device id, an unknown name's value and an error's parameters come from the device (any USB
or uinput device names itself) or from whatever answers on the socket, and may hold terminal
escapes, newlines or bidirectional controls. Escape them before printing them to a terminal
or a log, and never hand them to a shell. Each is at most 4096 characters (longer is a
ProtocolError). Every error the library raises is a PencildError: what the daemon sends
that is not the protocol (a number no float holds, nesting past the protocol's few levels)
is a ProtocolError, a daemon that stops answering or reading a Disconnected.
"""

from __future__ import annotations

from typing import Iterable, List, Optional

from ._client import Client
from ._errors import (
    DaemonUnavailable, Disconnected, InvalidParameter, InvalidPreferences, MethodNotFound, NoSuchDevice,
    PencildError, PermissionDenied, PreferencesNotSaved, ProtocolError, RemoteError, TooManyClients,
)
from ._monitor import Monitor
from ._names import (
    GESTURES, Action, Axis, Button, EraserButtonMode, EraserKind, EventType, Focus, Gesture, GestureButton, Phase,
    StylusKind, ToolType,
)
from ._types import Device, Event, Pose, Preferences, Stylus, Tool
from ._wirename import WireName
from ._wire import DEFAULT_MAX_MESSAGE_SIZE, SYSTEM_SOCKET, default_socket_path

__version__ = "0.1.0"

__all__ = [
    "Action", "Axis", "Button", "Client", "DEFAULT_MAX_MESSAGE_SIZE", "DaemonUnavailable", "Device",
    "Disconnected", "EraserButtonMode", "EraserKind", "Event", "EventType", "Focus", "GESTURES", "Gesture", "GestureButton",
    "InvalidParameter", "InvalidPreferences",
    "MethodNotFound", "Monitor", "NoSuchDevice", "PencildError", "PermissionDenied", "Phase", "Pose",
    "Preferences", "PreferencesNotSaved", "ProtocolError", "RemoteError", "SYSTEM_SOCKET", "Stylus", "StylusKind", "Tool",
    "ToolType", "TooManyClients", "WireName", "default_socket_path", "get_preferences", "list_devices", "monitor",
    "set_preferences",
]


def list_devices(socket_path: Optional[str] = None) -> List[Device]:
    """The pens attached now (one call on a connection of its own)."""
    with Client(socket_path) as client:
        return client.list_devices()


def get_preferences(socket_path: Optional[str] = None) -> Preferences:
    """The calling user's gesture preferences."""
    with Client(socket_path) as client:
        return client.get_preferences()


def set_preferences(preferences: Preferences, socket_path: Optional[str] = None) -> Preferences:
    """Changes the fields of ``preferences`` that are set; the user's preferences after."""
    with Client(socket_path) as client:
        return client.set_preferences(preferences)


def monitor(socket_path: Optional[str] = None, *, devices: Optional[Iterable[str]] = None,
            events: Optional[Iterable[object]] = None, reconnect: bool = True) -> Monitor:
    """Subscribes to pencild's events (all devices and types unless filtered). Iterate it
    with ``for`` (blocking) or ``async for`` (asyncio), or watch ``fileno()`` and call
    ``dispatch()``. See Monitor."""
    return Monitor(socket_path, devices=devices, events=events, reconnect=reconnect)
