"""A Monitor subscription that survives the daemon restarting, read three ways: a blocking
iterator, an asyncio async iterator, and ``fileno()`` + ``dispatch()`` for an event loop
such as GLib's."""

from __future__ import annotations

import asyncio
import collections
import select
import socket
import time
from typing import Any, AsyncIterator, Callable, Deque, Dict, FrozenSet, Iterable, Iterator, List, Optional

from ._closeout import CloseOut, subscription
from ._errors import DaemonUnavailable, Disconnected, PencildError
from ._names import EventType
from ._types import Event
from ._wire import (
    DEFAULT_MAX_MESSAGE_SIZE, Framer, Reply, connect, decode_message, default_socket_path, encode_call, send_refused,
)

_READ_CHUNK = 64 * 1024
#: At most this many bytes are read from the socket in one dispatch, so that one busy
#: stream cannot hold an event loop for long.
_DISPATCH_BUDGET = 256 * 1024


def _names(values: Optional[Iterable[object]], what: str) -> Optional[List[str]]:
    if values is None:
        return None
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{what} is a list of names, not one string")
    return [str(value.value) if isinstance(value, EventType) else str(value) for value in values]


class Monitor:
    """Events from pencild's ``Monitor``, optionally only of some devices and event types.

    When the stream ends (the daemon stopped, crashed or restarted) the monitor yields the
    closing events of whatever was open (``synthesized`` true), then, with ``reconnect``
    (the default), connects again with back-off and subscribes with the same filters; the
    new stream starts with ``deviceAdded`` and the events that bring the client to the
    current state. With ``reconnect=False`` it raises Disconnected after the closing events.
    A daemon's error reply (NoSuchDevice, InvalidParameter, PermissionDenied) or a message
    that breaks the protocol ends the monitor the same way: closing events, then the error.

    Three ways to read it, one at a time:

    - ``for event in monitor``: blocks until events come;
    - ``async for event in monitor``: awaits without blocking the asyncio loop;
    - ``fileno()`` in an event loop (readable when there is something to read), then
      ``dispatch()``, which never blocks and returns the events; ``timeout()`` says when a
      reconnection attempt is due and ``dispatch()`` should be called even if nothing is
      readable. The descriptor stays the same across reconnections.

    Without ``socket_path`` the socket is looked up at each attempt, as pencilctl looks it up
    (``default_socket_path``): after the stream ends, a pencild started since, the user's
    before the system's, is the one found. Connecting happens in the constructor:
    DaemonUnavailable when nothing answers there.
    """

    def __init__(
        self,
        socket_path: Optional[str] = None,
        *,
        devices: Optional[Iterable[str]] = None,
        events: Optional[Iterable[object]] = None,
        reconnect: bool = True,
        min_backoff: float = 0.05,
        max_backoff: float = 5.0,
        max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
        on_reconnect: Optional[Callable[[], None]] = None,
        claims_focus: Optional[Callable[[], bool]] = None,
    ) -> None:
        self._socket_path = socket_path
        #: The socket of the stream, or of the last attempt.
        self.path = socket_path or default_socket_path()
        self.devices = _names(devices, "devices")
        self.events = _names(events, "events")
        self.reconnect = reconnect
        self.min_backoff = min_backoff
        self.max_backoff = max_backoff
        self.max_message_size = max_message_size
        #: Called after each successful resubscription (Client.monitor uses it to claim
        #: the focus again from the new daemon).
        self.on_reconnect = on_reconnect
        #: Asked at each connection: True makes the connection claim the focus (a oneway
        #: SetFocus before Monitor), so that the stream's first gesture already carries the
        #: claim, whichever daemon the connection reaches (Client.monitor: what it claimed).
        self.claims_focus = claims_focus
        #: How many times the stream was lost and subscribed again.
        self.reconnections = 0
        self._closeout = CloseOut(frozenset(self.events) if self.events is not None else None)
        self._queue: Deque[Event] = collections.deque()
        self._socket: Optional[socket.socket] = None
        self._framer = Framer(max_message_size)
        self._backoff = min_backoff
        self._retry_at: Optional[float] = None
        self._failure: Optional[PencildError] = None
        self._closed = False
        # One descriptor that stays the same for the monitor's life: the socket of the
        # moment is registered in it.
        self._epoll = select.epoll()
        try:
            self._subscribe()
        except BaseException:
            self._epoll.close()
            raise

    # --- life -----------------------------------------------------------------------

    def close(self) -> None:
        """Ends the subscription and releases the socket (no closing events are made)."""
        if self._closed:
            return
        self._closed = True
        self._drop_socket()
        self._epoll.close()

    def __enter__(self) -> Monitor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        return self._socket is not None

    def _subscribe(self) -> None:
        self.path = self._socket_path or default_socket_path()
        sock = connect(self.path, timeout=5.0)
        parameters: Dict[str, Any] = {}
        if self.devices is not None:
            parameters["devices"] = self.devices
        if self.events is not None:
            parameters["events"] = subscription(self.events)
        try:
            # Refused, the call may not be sent; the daemon's reason is read from the stream.
            call = encode_call("org.pencild.Pen.Monitor", parameters, more=True)
            if self.claims_focus is not None and self.claims_focus():
                call = encode_call("org.pencild.Pen.SetFocus", {"focused": True}, oneway=True) + call
            send_refused(sock, call)
            sock.setblocking(False)
        except OSError as error:
            sock.close()
            raise DaemonUnavailable(self.path, error) from None
        self._socket = sock
        self._framer = Framer(self.max_message_size)
        self._epoll.register(sock.fileno(), select.EPOLLIN)

    def _drop_socket(self) -> None:
        if self._socket is not None:
            try:
                self._epoll.unregister(self._socket.fileno())
            except (OSError, ValueError):
                pass
            self._socket.close()
            self._socket = None

    def _lost(self, reason: str) -> None:
        """The stream ended: close what was open, then plan the next attempt or the end."""
        self._drop_socket()
        self._queue.extend(self._closeout.close_all())
        if self.reconnect:
            self._retry_at = time.monotonic() + self._backoff
        else:
            self._failure = Disconnected(self.path, reason)

    def _fail(self, error: PencildError) -> None:
        """The daemon's error reply, or a broken message: the stream cannot go on. What was
        open is closed, the events before it are delivered, then the error is raised."""
        self._drop_socket()
        self._retry_at = None
        self._queue.extend(self._closeout.close_all())
        self._failure = error

    # --- the non-blocking core --------------------------------------------------------

    def fileno(self) -> int:
        """A descriptor that is readable when ``dispatch()`` has something to read; the
        same one for the monitor's life, across reconnections."""
        return self._epoll.fileno()

    def timeout(self) -> Optional[float]:
        """Seconds until ``dispatch()`` must be called even without input (a reconnection
        attempt is due; 0 when events are waiting), or None."""
        if self._queue or self._failure is not None:
            return 0.0
        if self._retry_at is not None:
            return max(self._retry_at - time.monotonic(), 0.0)
        return None

    def dispatch(self) -> List[Event]:
        """Reads what has arrived, without blocking, and returns the events (possibly none).
        Raises the daemon's error replies (NoSuchDevice, InvalidParameter, PermissionDenied),
        ProtocolError for a malformed stream, and Disconnected once the stream is over with
        ``reconnect=False``."""
        if self._closed:
            raise Disconnected(self.path, "the monitor is closed")
        if self._socket is None and self._retry_at is not None and time.monotonic() >= self._retry_at:
            self._retry()
        if self._socket is not None:
            self._read()
        events = list(self._queue)
        self._queue.clear()
        if not events and self._failure is not None:
            failure, self._failure = self._failure, None
            self.close()
            raise failure
        return events

    def _retry(self) -> None:
        try:
            self._subscribe()
        except DaemonUnavailable:
            self._backoff = min(self._backoff * 2, self.max_backoff)
            self._retry_at = time.monotonic() + self._backoff
            return
        self._retry_at = None
        self.reconnections += 1
        if self.on_reconnect is not None:
            self.on_reconnect()

    def _read(self) -> None:
        sock = self._socket
        assert sock is not None
        budget = _DISPATCH_BUDGET
        while budget > 0:
            try:
                data = sock.recv(_READ_CHUNK)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                self._lost(f"the connection failed: {error.strerror or error}")
                return
            if not data:
                self._lost("the daemon closed the connection")
                return
            budget -= len(data)
            for message in self._framer.feed(data):
                if not self._handle(message):
                    return
            if self._framer.failure is not None:
                self._fail(self._framer.failure)
                return

    def _handle(self, message: bytes) -> bool:
        """Queues a reply's event; false once the stream is over."""
        try:
            reply = Reply(decode_message(message))
            raw = reply.parameters.get("event")
            event = None if raw is None else Event.from_json(raw)
        except PencildError as error:
            self._fail(error)
            return False
        if event is not None:
            self._closeout.observe(event)
            if self.events is None or event.type.value in self.events:
                self._queue.append(event)
            self._backoff = self.min_backoff
        if not reply.continues:
            self._lost("the daemon ended the stream")
            return False
        return True

    # --- blocking iterator ------------------------------------------------------------

    def __iter__(self) -> Iterator[Event]:
        while True:
            for event in self.dispatch():
                yield event
            if self._queue or self._failure is not None:
                continue
            timeout = self.timeout()
            poller = select.poll()
            poller.register(self.fileno(), select.POLLIN)
            poller.poll(None if timeout is None else max(int(timeout * 1000) + 1, 1))

    # --- asyncio ----------------------------------------------------------------------

    def __aiter__(self) -> AsyncIterator[Event]:
        return self._async_events()

    async def _async_events(self) -> AsyncIterator[Event]:
        loop = asyncio.get_running_loop()
        while True:
            for event in self.dispatch():
                yield event
            if self._queue or self._failure is not None:
                continue
            readable: asyncio.Future[None] = loop.create_future()

            def wake() -> None:
                if not readable.done():
                    readable.set_result(None)

            descriptor = self.fileno()
            loop.add_reader(descriptor, wake)
            try:
                await asyncio.wait_for(readable, self.timeout())
            except asyncio.TimeoutError:
                pass
            finally:
                loop.remove_reader(descriptor)
