"""varlink on a Unix socket: JSON messages each ended by one NUL byte, with a bound on a
message's size, and where the socket is."""

from __future__ import annotations

import errno
import json
import os
import socket
import stat
import time
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

from ._errors import DaemonUnavailable, Disconnected, ProtocolError, remote_error

SYSTEM_SOCKET = "/run/pencild/pencild.sock"
USER_SOCKET_NAME = "pencild.sock"

#: The largest message accepted from the daemon by default. Events are a few hundred
#: bytes; a device list of many pens a few kilobytes.
DEFAULT_MAX_MESSAGE_SIZE = 1 << 20

_READ_CHUNK = 64 * 1024


def default_socket_path(environment: Optional[Mapping[str, str]] = None) -> str:
    """Where pencild listens, found as pencilctl finds it: ``$PENCILD_SOCKET``; else
    ``$XDG_RUNTIME_DIR/pencild.sock`` when that is a socket; else the system service's."""
    env = os.environ if environment is None else environment
    explicit = env.get("PENCILD_SOCKET", "")
    if explicit:
        return explicit
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if runtime:
        candidate = os.path.join(runtime, USER_SOCKET_NAME)
        try:
            if stat.S_ISSOCK(os.stat(candidate).st_mode):
                return candidate
        except OSError:
            pass
    return SYSTEM_SOCKET


def _reject_constant(name: str) -> Any:
    raise ProtocolError(f"{name} is not a JSON number")


#: The deepest nesting a message may have: the protocol's messages nest five levels (a
#: reply, its parameters, an event, its device, a list). Deeper is a ProtocolError, so that
#: nothing later (an error's text, an app's repr) meets a value too deep to walk.
MAX_DEPTH = 32


def _depth_exceeds(value: Any, limit: int) -> bool:
    """True when ``value`` nests deeper than ``limit`` (walked without recursion)."""
    stack: List[Tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[Any] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def decode_message(data: bytes) -> Dict[str, Any]:
    """One message's JSON object; anything else is a ProtocolError."""
    try:
        value = json.loads(data.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError as error:
        raise ProtocolError(f"a message is not UTF-8: {error}") from None
    except RecursionError:
        raise ProtocolError("a message nests too deeply") from None
    except ValueError as error:
        raise ProtocolError(f"a message is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise ProtocolError(f"a message is a JSON {type(value).__name__}, not an object")
    if _depth_exceeds(value, MAX_DEPTH):
        raise ProtocolError(f"a message nests more than {MAX_DEPTH} levels")
    return value


def encode_call(method: str, parameters: Optional[Mapping[str, Any]] = None, more: bool = False,
                oneway: bool = False) -> bytes:
    message: Dict[str, Any] = {"method": method, "parameters": dict(parameters or {})}
    if more:
        message["more"] = True
    if oneway:
        message["oneway"] = True
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\0"


class Reply:
    """A reply: its parameters, and whether more replies follow. An error reply is raised
    as the typed exception instead of becoming a Reply."""

    __slots__ = ("parameters", "continues")

    def __init__(self, message: Mapping[str, Any]) -> None:
        error = message.get("error")
        parameters = message.get("parameters", {})
        if parameters is None:
            parameters = {}
        if not isinstance(parameters, dict):
            raise ProtocolError("a reply's parameters are not an object")
        if error is not None:
            if not isinstance(error, str):
                raise ProtocolError("a reply's error is not a string")
            raise remote_error(error, parameters)
        continues = message.get("continues", False)
        if not isinstance(continues, bool):
            raise ProtocolError("a reply's continues is not true or false")
        self.parameters: Dict[str, Any] = parameters
        self.continues: bool = continues


class Framer:
    """Cuts a byte stream into NUL-ended messages. More than ``max_message_size`` bytes
    without a NUL is a ProtocolError: ``feed`` returns the messages before it and keeps the
    error in ``failure``, and reads nothing more (the buffer never grows past the bound)."""

    def __init__(self, max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE) -> None:
        if max_message_size < 1:
            raise ValueError("max_message_size must be positive")
        self.max_message_size = max_message_size
        self.failure: Optional[ProtocolError] = None
        self._buffer = bytearray()

    def _fits(self, size: int) -> bool:
        if len(self._buffer) + size <= self.max_message_size:
            return True
        self.failure = ProtocolError(f"a message is larger than {self.max_message_size} bytes")
        self._buffer.clear()
        return False

    def feed(self, data: bytes) -> List[bytes]:
        messages: List[bytes] = []
        if self.failure is not None:
            return messages
        start = 0
        while True:
            end = data.find(b"\0", start)
            if end < 0:
                break
            if not self._fits(end - start):
                return messages
            self._buffer += data[start:end]
            messages.append(bytes(self._buffer))
            self._buffer.clear()
            start = end + 1
        if self._fits(len(data) - start):
            self._buffer += data[start:]
        return messages


def connect(path: str, timeout: Optional[float]) -> socket.socket:
    """A connected stream socket to ``path``; DaemonUnavailable when nothing answers there."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
    try:
        sock.settimeout(timeout)
        sock.connect(path)
    except OSError as error:
        sock.close()
        if isinstance(error, socket.timeout):
            error = OSError(errno.ETIMEDOUT, "timed out")
        raise DaemonUnavailable(path, error) from None
    return sock


def send_refused(sock: socket.socket, data: bytes) -> Optional[str]:
    """Sends ``data``; why not, when the daemon had closed the connection (what it said
    before closing can still be read), else None. Other errors are raised."""
    try:
        # MSG_NOSIGNAL: an app that embeds Python (Krita) may keep SIGPIPE fatal, and a
        # daemon that has just closed the connection must not end the app.
        sock.sendall(data, socket.MSG_NOSIGNAL)
    except (BrokenPipeError, ConnectionResetError) as error:
        return error.strerror or str(error)
    return None


class Connection:
    """A blocking connection for calls that get one reply (every method but Monitor). A
    reply that does not come within ``timeout`` seconds is a Disconnected error."""

    def __init__(self, path: str, timeout: Optional[float] = 10.0,
                 max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE) -> None:
        self.path = path
        self.timeout = timeout
        self._socket: Optional[socket.socket] = connect(path, timeout)
        self._framer = Framer(max_message_size)
        self._pending: List[bytes] = []

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    @property
    def is_open(self) -> bool:
        return self._socket is not None

    def call(self, method: str, parameters: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        sock = self._socket
        if sock is None:
            raise Disconnected(self.path, "the connection is closed")
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        # A daemon that refuses this user answers PermissionDenied at once and closes: the
        # call may then not be sent (EPIPE), but the answer is there to be read.
        try:
            # A daemon that stops reading makes the send wait: the same deadline holds.
            if deadline is not None:
                sock.settimeout(self.timeout)
            unsent = send_refused(sock, encode_call(method, parameters))
            while not self._pending:
                if deadline is not None:
                    sock.settimeout(max(deadline - time.monotonic(), 0.001))
                data = sock.recv(_READ_CHUNK)
                if not data:
                    raise Disconnected(self.path, f"{method}: {unsent}" if unsent else
                                       "the daemon closed the connection")
                self._pending.extend(self._framer.feed(data))
                if not self._pending and self._framer.failure is not None:
                    raise self._framer.failure
        except socket.timeout:
            self.close()
            raise Disconnected(self.path, f"no reply to {method} within {self.timeout} s", timed_out=True) from None
        except OSError as error:
            self.close()
            raise Disconnected(self.path, f"{method}: {error.strerror or error}") from None
        except (Disconnected, ProtocolError):
            self.close()
            raise
        message = decode_message(self._pending.pop(0))
        return Reply(message).parameters

