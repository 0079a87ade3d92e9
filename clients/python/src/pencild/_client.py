"""Calls that get one answer: devices, preferences, focus."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional

from ._errors import Disconnected, PencildError, ProtocolError
from ._monitor import Monitor
from ._types import Device, Preferences
from ._wire import DEFAULT_MAX_MESSAGE_SIZE, Connection, default_socket_path

_MAX_DEVICES = 4096


class Client:
    """A connection to pencild for calls with one reply. It connects at the first call and
    again after the daemon restarts (a call that finds the connection gone is tried once
    more on a new one). Every call waits at most ``timeout`` seconds.

    Without ``socket_path`` the socket is looked up at each connection, as pencilctl looks it
    up (``default_socket_path``): a pencild that starts later, the user's
    (``$XDG_RUNTIME_DIR/pencild.sock``) before the system's, is the one the next call reaches.

    The focus claim (``set_focused``) belongs to this process and lasts while the process
    has a connection to pencild. A Monitor streaming is one; the Client's own connection may
    be closed by the daemon when it stays idle, and the next call makes a new one and claims
    the focus again, as ``client.monitor()`` does after the daemon restarted.
    """

    def __init__(self, socket_path: Optional[str] = None, *, timeout: Optional[float] = 10.0,
                 max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE) -> None:
        self._socket_path = socket_path
        self.timeout = timeout
        self.max_message_size = max_message_size
        self._connection: Optional[Connection] = None
        self._focused = False

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def path(self) -> str:
        """The socket of the connection open now, else the one the next call tries."""
        if self._connection is not None and self._connection.is_open:
            return self._connection.path
        return self._socket_path or default_socket_path()

    def _connect(self) -> Connection:
        # Looked up again: the pencild that answers now may not be the one of the last call.
        connection = Connection(self._socket_path or default_socket_path(), self.timeout, self.max_message_size)
        self._connection = connection
        if self._focused:
            connection.call("org.pencild.Pen.SetFocus", {"focused": True})
        return connection

    def call(self, method: str, parameters: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """Any method by its full name; the reply's parameters. The daemon's errors are
        raised as their types (InvalidPreferences, PermissionDenied, ...); no answer in time
        is Disconnected with ``timed_out``."""
        connection = self._connection
        if connection is not None and connection.is_open:
            try:
                return connection.call(method, parameters)
            except Disconnected as error:
                self._connection = None
                if error.timed_out:
                    raise
                # The connection was closed since the last call (the daemon restarted, or
                # closed an idle connection): the call goes again on a new one.
        return self._connect().call(method, parameters)

    def list_devices(self) -> List[Device]:
        devices = self.call("org.pencild.Pen.ListDevices").get("devices")
        if not isinstance(devices, list):
            raise ProtocolError("ListDevices: devices is not a list")
        if len(devices) > _MAX_DEVICES:
            raise ProtocolError(f"ListDevices: {len(devices)} devices")
        return [Device.from_json(device, f"devices[{index}]") for index, device in enumerate(devices)]

    def get_preferences(self) -> Preferences:
        return Preferences.from_json(self.call("org.pencild.Pen.GetPreferences").get("preferences"))

    def set_preferences(self, preferences: Preferences) -> Preferences:
        """Changes the fields of ``preferences`` that are set and returns the user's
        preferences as they are now. InvalidPreferences(field, reason) when the daemon
        refuses one (nothing changes then); PreferencesNotSaved when it cannot store them."""
        reply = self.call("org.pencild.Pen.SetPreferences", {"preferences": preferences.to_json()})
        return Preferences.from_json(reply.get("preferences"))

    def set_focused(self, focused: bool) -> None:
        """Claims (True) or gives up (False) the user's pen focus for this process: its
        double-taps and squeezes then carry ``focus`` THIS, other apps' OTHER."""
        self.call("org.pencild.Pen.SetFocus", {"focused": bool(focused)})
        self._focused = bool(focused)

    @property
    def focused(self) -> bool:
        """What this client last claimed."""
        return self._focused

    def monitor(self, *, devices: Optional[Iterable[str]] = None, events: Optional[Iterable[object]] = None,
                reconnect: bool = True) -> Monitor:
        """A Monitor on the same socket, given or looked up at each of its connections (a
        connection of its own: a stream occupies one). While this client claims the focus, each
        connection of the stream claims it too, so that its gestures say THIS from the first,
        also from a daemon that restarted; after a restart the client's own connection claims
        it again as well."""
        return Monitor(self._socket_path, devices=devices, events=events, reconnect=reconnect,
                       max_message_size=self.max_message_size, on_reconnect=self._claim_again,
                       claims_focus=lambda: self._focused)

    def _claim_again(self) -> None:
        if not self._focused:
            return
        try:
            self.call("org.pencild.Pen.SetFocus", {"focused": True})
        except PencildError:
            pass  # the next set_focused says what is wrong
