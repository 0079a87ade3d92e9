"""The library's errors: one base class, the daemon's errors by name, and what can go wrong
on the way (no daemon, a stream that ended, a message that breaks the protocol)."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Type

__all__ = [
    "DaemonUnavailable", "Disconnected", "InvalidParameter", "InvalidPreferences",
    "MethodNotFound", "NoSuchDevice", "PencildError", "PermissionDenied",
    "PreferencesNotSaved", "ProtocolError", "RemoteError", "TooManyClients", "remote_error",
]


class PencildError(Exception):
    """Every error this library raises."""


class DaemonUnavailable(PencildError):
    """Nothing answers on the socket (pencild is not running there, or may not be reached)."""

    def __init__(self, path: str, cause: OSError) -> None:
        super().__init__(
            f"cannot connect to {path}: {cause.strerror or cause}. Is pencild running? Start it with "
            "`sudo systemctl start pencild.socket` (for everyone) or `systemctl --user start pencild.socket` "
            "(for you alone), or set PENCILD_SOCKET to the socket it listens on"
        )
        self.path = path
        self.cause = cause


class Disconnected(PencildError):
    """The daemon ended the connection (it stopped or restarted). A Monitor made with
    ``reconnect=False`` raises it after the closing events of what was open."""

    def __init__(self, path: str, reason: str = "the daemon closed the connection", timed_out: bool = False) -> None:
        super().__init__(f"pencild at {path}: {reason}")
        self.path = path
        self.reason = reason
        #: True when the daemon did not answer in time (it may still be running).
        self.timed_out = timed_out


class ProtocolError(PencildError):
    """The daemon sent something that is not the protocol (malformed, too large, wrong kind)."""


class RemoteError(PencildError):
    """An error reply from the daemon: ``name`` is the varlink error, ``parameters`` its
    parameters as sent."""

    def __init__(self, name: str, parameters: Optional[Mapping[str, Any]] = None) -> None:
        self.name = name
        self.parameters: Dict[str, Any] = dict(parameters or {})
        super().__init__(self._describe())

    def _describe(self) -> str:
        if not self.parameters:
            return self.name
        details = ", ".join(f"{key}: {value}" for key, value in self.parameters.items())
        return f"{self.name} ({details})"

    def _text(self, key: str) -> str:
        value = self.parameters.get(key)
        return value if isinstance(value, str) else ""


class PermissionDenied(RemoteError):
    """This user may not use pencild (docs/protocol.md, "Who may connect")."""


class NoSuchDevice(RemoteError):
    """A device id that is not attached."""

    @property
    def device(self) -> str:
        return self._text("device")


class InvalidPreferences(RemoteError):
    """A preference the daemon refused: ``field`` names it, ``reason`` says why."""

    @property
    def field(self) -> str:
        return self._text("field")

    @property
    def reason(self) -> str:
        return self._text("reason")


class PreferencesNotSaved(RemoteError):
    """The preferences could not be stored; nothing changed."""

    @property
    def reason(self) -> str:
        return self._text("reason")


class TooManyClients(RemoteError):
    """The daemon serves as many clients as it may."""


class InvalidParameter(RemoteError):
    """A call's parameter the daemon refused (an unknown event type in a filter)."""

    @property
    def parameter(self) -> str:
        return self._text("parameter")


class MethodNotFound(RemoteError):
    """The daemon does not know the method (an older daemon)."""


_BY_NAME: Dict[str, Type[RemoteError]] = {
    "org.pencild.Pen.PermissionDenied": PermissionDenied,
    "org.pencild.Pen.NoSuchDevice": NoSuchDevice,
    "org.pencild.Pen.InvalidPreferences": InvalidPreferences,
    "org.pencild.Pen.PreferencesNotSaved": PreferencesNotSaved,
    "org.pencild.Pen.TooManyClients": TooManyClients,
    "org.varlink.service.InvalidParameter": InvalidParameter,
    "org.varlink.service.MethodNotFound": MethodNotFound,
}


def remote_error(name: str, parameters: Optional[Mapping[str, Any]]) -> RemoteError:
    """The typed exception for a varlink error reply (RemoteError for names not listed)."""
    return _BY_NAME.get(name, RemoteError)(name, parameters)
