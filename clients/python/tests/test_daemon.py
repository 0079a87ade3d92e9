"""The library against a real pencild replaying the shared recordings."""

from __future__ import annotations

import asyncio
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from typing import Callable, Dict, List, Optional, Set, Tuple

import pencild
import pencild._wire as pencild_wire
from pencild import Event, EventType, Phase

from support import (
    Daemon, binaries, compare, pencilctl_events, read_until, recordings, replay_arguments, require,
)


def collect_until_disconnected(monitor: pencild.Monitor, seconds: float) -> List[Event]:
    events: List[Event] = []

    def done(_: List[Event]) -> bool:
        return False

    try:
        events = read_until(monitor, done, seconds, "the end of the stream")
    except pencild.Disconnected:
        pass
    return events


class ReplayConformance(unittest.TestCase):
    """What the library yields equals `pencilctl events` on the same recording."""

    def test_every_recording_gives_pencilctl_events(self) -> None:
        binaries()
        for recording, desc in recordings():
            with self.subTest(recording=os.path.basename(recording)):
                expected = pencilctl_events(recording, desc)
                self.assertGreater(len(expected), 2)
                with Daemon(replay_arguments(recording, desc)) as daemon:
                    events: List[Event] = []
                    monitor = pencild.Monitor(daemon.socket, reconnect=False)
                    try:
                        for event in monitor:
                            events.append(event)
                    except pencild.Disconnected:
                        pass
                    finally:
                        monitor.close()
                self.assertEqual(len(events), len(expected),
                                 f"{len(events)} events from the daemon, {len(expected)} from pencilctl events")
                problems: List[str] = []
                for index, (event, json) in enumerate(zip(events, expected)):
                    self.assertFalse(event.synthesized)
                    problems += compare(event, json, f"event[{index}]")
                    if len(problems) > 20:
                        break
                self.assertEqual(problems, [])


OPENERS = {EventType.TIP_DOWN, EventType.BUTTON_DOWN, EventType.PROXIMITY_IN, EventType.DEVICE_ADDED}
CLOSING_ORDER = [EventType.TIP_UP, EventType.BUTTON_UP, EventType.SQUEEZE, EventType.HOVER,
                 EventType.PROXIMITY_OUT, EventType.DEVICE_REMOVED]


class OpenState:
    """The test's own bookkeeping of what a stream left open."""

    def __init__(self) -> None:
        self.devices: Set[str] = set()
        self.tool_in: Set[str] = set()
        self.tip: Set[str] = set()
        self.buttons: Dict[str, List[str]] = {}
        self.hover: Set[str] = set()
        self.squeeze: Set[str] = set()

    # Event types that open or close one thing: (the set it is kept in, opens).
    TOGGLES = {EventType.DEVICE_ADDED: ("devices", True), EventType.DEVICE_REMOVED: ("devices", False),
               EventType.PROXIMITY_IN: ("tool_in", True), EventType.PROXIMITY_OUT: ("tool_in", False),
               EventType.TIP_DOWN: ("tip", True), EventType.TIP_UP: ("tip", False)}

    def apply(self, event: Event) -> None:
        device = event.device or ""
        kind = event.type
        if kind in self.TOGGLES:
            name, opens = self.TOGGLES[kind]
            kept: Set[str] = getattr(self, name)
            (kept.add if opens else kept.discard)(device)
        elif kind is EventType.BUTTON_DOWN:
            self.buttons.setdefault(device, []).append(str(event.button))
        elif kind is EventType.BUTTON_UP:
            self.buttons.get(device, []).remove(str(event.button))
        elif kind is EventType.HOVER:
            (self.hover.add if event.phase is not Phase.ENDED else self.hover.discard)(device)
        elif kind is EventType.SQUEEZE:
            (self.squeeze.add if event.phase is Phase.BEGAN else self.squeeze.discard)(device)

    def expected_closing(self, device: str) -> List[Tuple[EventType, Optional[str]]]:
        closing: List[Tuple[EventType, Optional[str]]] = []
        if device in self.tool_in:
            if device in self.tip:
                closing.append((EventType.TIP_UP, None))
            closing += [(EventType.BUTTON_UP, button) for button in self.buttons.get(device, [])]
            if device in self.squeeze:
                closing.append((EventType.SQUEEZE, "cancelled"))
            if device in self.hover:
                closing.append((EventType.HOVER, "ended"))
            closing.append((EventType.PROXIMITY_OUT, None))
        closing.append((EventType.DEVICE_REMOVED, None))
        return closing

    def anything_open(self) -> bool:
        return bool(self.devices or self.tool_in or self.tip or any(self.buttons.values()) or self.hover or self.squeeze)


def cintiq() -> Tuple[str, Optional[str]]:
    for recording, desc in recordings():
        if "Cintiq" in os.path.basename(recording):
            return recording, desc
    require(False, "the Cintiq 22HDT recording is needed")
    raise AssertionError("unreachable")


class Restart(unittest.TestCase):
    def test_a_killed_daemon_is_closed_out_and_the_monitor_resubscribes(self) -> None:
        recording, desc = cintiq()
        filters = [t.value for t in EventType if t is not EventType.MOTION]
        first = Daemon(replay_arguments(recording, desc, speed="1", exit_after=False))
        second: Optional[Daemon] = None
        monitor = pencild.Monitor(first.socket, events=filters, min_backoff=0.05, max_backoff=0.2)
        try:
            before = read_until(monitor, lambda got: any(e.type is EventType.TIP_DOWN for e in got), 30,
                                "the first tipDown")
            first.kill()  # mid-stroke: the tip is down, pencild sends nothing more
            state = OpenState()
            for event in before:
                state.apply(event)
            expected = state.expected_closing("replay0")
            after = read_until(monitor, lambda got: any(e.type is EventType.DEVICE_REMOVED for e in got), 10,
                               "the closing events")
            closing = [e for e in after if e.synthesized]
            real_after = [e for e in after if not e.synthesized]
            for event in real_after:  # what was already on its way when the daemon died
                state.apply(event)
            expected = state.expected_closing("replay0")
            self.assertEqual([(e.type, e.button.value if e.button else e.phase.value if e.phase else None)
                              for e in closing], expected)
            self.assertTrue(all(e.device == "replay0" for e in closing))
            last_time = max(e.time for e in before + real_after)
            self.assertTrue(all(e.time == last_time for e in closing), "closing events carry the last event's time")
            order = [CLOSING_ORDER.index(e.type) for e in closing]
            self.assertEqual(order, sorted(order))
            for event in closing:
                state.apply(event)
            self.assertFalse(state.anything_open(), "nothing is left open after the closing events")
            self.assertFalse(monitor.connected)

            # A new pencild on the same socket: the monitor subscribes again, same filters.
            second = Daemon(replay_arguments(recording, desc, speed="4", exit_after=False), socket_path=first.socket)
            again = read_until(monitor, lambda got: any(e.type is EventType.TIP_DOWN for e in got), 30,
                               "events from the new daemon")
            self.assertEqual(monitor.reconnections, 1)
            self.assertIs(again[0].type, EventType.DEVICE_ADDED)
            self.assertFalse(any(e.synthesized for e in again))
            self.assertFalse(any(e.type is EventType.MOTION for e in before + after + again),
                             "the filter holds across the reconnection")
        finally:
            monitor.close()
            first.cleanup()
            if second is not None:
                second.cleanup()

    def test_without_reconnect_the_end_is_raised_after_the_closing_events(self) -> None:
        recording, desc = cintiq()
        with Daemon(replay_arguments(recording, desc, speed="1", exit_after=False)) as daemon:
            monitor = pencild.Monitor(daemon.socket, reconnect=False)
            try:
                read_until(monitor, lambda got: any(e.type is EventType.PROXIMITY_IN for e in got), 30, "proximityIn")
                daemon.kill()
                closing: List[Event] = []

                def keep(got: List[Event]) -> bool:
                    closing[:] = got
                    return False

                with self.assertRaises(pencild.Disconnected):
                    read_until(monitor, keep, 10, "Disconnected")
                self.assertTrue(closing and all(e.synthesized for e in closing))
                self.assertIs(closing[-1].type, EventType.DEVICE_REMOVED)
                self.assertIn(EventType.PROXIMITY_OUT, [e.type for e in closing])
            finally:
                monitor.close()


class AsyncAndDispatch(unittest.TestCase):
    def tap(self) -> Tuple[str, Optional[str]]:
        for recording, desc in recordings():
            if "stylus-tap" in recording:
                return recording, desc
        require(False, "the Intuos4 stylus-tap recording is needed")
        raise AssertionError("unreachable")

    def test_async_iterator_gives_the_events_without_blocking_the_loop(self) -> None:
        recording, desc = self.tap()
        expected = pencilctl_events(recording, desc)
        with Daemon(replay_arguments(recording, desc, speed="1")) as daemon:
            ticks = 0

            async def ticker(stop: asyncio.Event) -> None:
                nonlocal ticks
                while not stop.is_set():
                    ticks += 1
                    await asyncio.sleep(0.01)

            async def main() -> List[Event]:
                stop = asyncio.Event()
                task = asyncio.create_task(ticker(stop))
                events: List[Event] = []
                monitor = pencild.monitor(daemon.socket, reconnect=False)
                try:
                    async for event in monitor:
                        events.append(event)
                except pencild.Disconnected:
                    pass
                finally:
                    monitor.close()
                    stop.set()
                    await task
                return events

            started = time.monotonic()
            events = asyncio.run(asyncio.wait_for(main(), 60))
            elapsed = time.monotonic() - started
        self.assertEqual([compare(e, j, "event") for e, j in zip(events, expected) if compare(e, j, "event")], [])
        self.assertEqual(len(events), len(expected))
        # The replay runs in real time (about half a second, some 45 ticks of 10 ms): the loop
        # kept ticking meanwhile; an iterator that blocked it would leave one or two.
        self.assertGreaterEqual(ticks, 10, f"{ticks} ticks in {elapsed:.2f} s")

    def test_dispatch_never_blocks_and_fileno_stays(self) -> None:
        recording, desc = self.tap()
        with Daemon(replay_arguments(recording, desc, speed="1")) as daemon:
            monitor = pencild.Monitor(daemon.socket)
            try:
                descriptor = monitor.fileno()
                started = time.monotonic()
                while monitor.dispatch() == []:  # nothing yet: returns at once
                    if time.monotonic() - started > 10:
                        self.fail("no events")
                    time.sleep(0.001)
                events = read_until(monitor, lambda got: any(e.type is EventType.DEVICE_REMOVED for e in got), 20,
                                    "deviceRemoved")
                quiet = time.monotonic()
                self.assertEqual(monitor.dispatch(), [])
                self.assertLess(time.monotonic() - quiet, 0.05)
                self.assertTrue(any(e.type is EventType.TIP_DOWN for e in events))
                # The daemon leaves after the replay; the monitor waits for it, same descriptor.
                read_until(monitor, lambda _: monitor.timeout() is not None, 20, "the daemon to leave")
                self.assertEqual(monitor.fileno(), descriptor)
            finally:
                monitor.close()


# Another process that follows the gestures and prints each as "type phase focus".
WATCHER = """
import pencild
for event in pencild.monitor(events=["doubleTap", "squeeze"], reconnect=False):
    print(event.type, event.phase, event.focus, flush=True)
"""


class Focus(unittest.TestCase):
    """docs/protocol.md, "Which app acts (focus)": the claim belongs to the calling process."""

    def watcher(self, socket_path: str) -> "subprocess.Popen[bytes]":
        return subprocess.Popen([sys.executable, "-c", WATCHER], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=dict(os.environ, PENCILD_SOCKET=socket_path))

    def finish(self, process: "subprocess.Popen[bytes]") -> List[str]:
        try:
            out, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
        lines = out.decode().splitlines()
        self.assertTrue(lines, f"the other process printed nothing: {err.decode()}")
        return lines

    def gestures(self, monitor: pencild.Monitor) -> List[Event]:
        return read_until(monitor, lambda got: any(e.type is EventType.DOUBLE_TAP for e in got), 60, "the doubleTap")

    def test_the_claiming_process_gets_this_and_another_gets_other(self) -> None:
        recording, desc = cintiq()
        with Daemon(replay_arguments(recording, desc) + ["--wait-monitors", "2"]) as daemon:
            with pencild.Client(daemon.socket) as client:
                client.set_focused(True)
                self.assertTrue(client.focused)
                monitor = client.monitor(events=["doubleTap", "squeeze"])
                other = self.watcher(daemon.socket)
                try:
                    mine = self.gestures(monitor)
                finally:
                    monitor.close()
                theirs = self.finish(other)
        self.assertEqual({e.focus for e in mine}, {pencild.Focus.THIS})
        self.assertEqual(len([e for e in mine if e.type is EventType.SQUEEZE and e.phase is Phase.ENDED]), 7)
        self.assertEqual(len(theirs), len(mine))
        self.assertTrue(all(line.endswith(" other") for line in theirs), theirs[:3])
        self.assertEqual(theirs[-1], "doubleTap None other")

    def test_a_claim_given_up_leaves_focus_to_none(self) -> None:
        recording, desc = cintiq()
        with Daemon(replay_arguments(recording, desc)) as daemon:
            with pencild.Client(daemon.socket) as client:
                client.set_focused(True)
                client.set_focused(False)
                self.assertFalse(client.focused)
                monitor = client.monitor(events=["doubleTap", "squeeze"])
                try:
                    events = self.gestures(monitor)
                finally:
                    monitor.close()
        self.assertEqual({e.focus for e in events}, {pencild.Focus.NONE})

    def restart(self, client: pencild.Client, first: Daemon, then: Callable[[Daemon], None],
                arguments: List[str]) -> None:
        """Kills ``first`` under ``client``, starts a pencild with ``arguments`` on its socket,
        and runs ``then`` with it; cleans up both daemons and the client."""
        second: Optional[Daemon] = None
        try:
            first.kill()
            second = Daemon(arguments, socket_path=first.socket)
            then(second)
        finally:
            client.close()
            first.cleanup()
            if second is not None:
                second.cleanup()

    def test_the_claim_is_made_again_after_a_restart(self) -> None:
        recording, desc = cintiq()
        first = Daemon()
        client = pencild.Client(first.socket)
        client.set_focused(True)
        monitor = client.monitor(events=["doubleTap"])

        def then(second: Daemon) -> None:
            read_until(monitor, lambda _: monitor.reconnections == 1, 30, "the monitor to subscribe again")
            other = self.watcher(second.socket)  # the second subscriber starts the replay
            try:
                events = self.gestures(monitor)
            finally:
                monitor.close()
            self.assertEqual([(e.type, e.focus) for e in events], [(EventType.DOUBLE_TAP, pencild.Focus.THIS)])
            self.assertEqual(self.finish(other)[-1], "doubleTap None other")
        self.restart(client, first, then, replay_arguments(recording, desc) + ["--wait-monitors", "2"])

    def test_a_monitor_opened_after_a_restart_carries_the_claim(self) -> None:
        # The claim's own connection is to the daemon that died; the monitor reaches the new one.
        recording, desc = cintiq()
        first = Daemon()
        client = pencild.Client(first.socket)
        client.set_focused(True)

        def then(_: Daemon) -> None:
            monitor = client.monitor(events=["doubleTap", "squeeze"])
            try:
                events = self.gestures(monitor)
            finally:
                monitor.close()
            self.assertEqual({e.focus for e in events}, {pencild.Focus.THIS})
        self.restart(client, first, then, replay_arguments(recording, desc) + ["--wait-monitors", "1"])


class Preferences(unittest.TestCase):
    def test_round_trip_and_typed_errors(self) -> None:
        binaries()
        with Daemon() as daemon:
            monitor = pencild.Monitor(daemon.socket, events=["preferencesChanged"])
            with pencild.Client(daemon.socket) as client:
                defaults = client.get_preferences()
                self.assertIs(defaults.double_tap_action, pencild.Action.SWITCH_ERASER)
                self.assertIs(defaults.squeeze_button, pencild.GestureButton.STYLUS2)
                wanted = pencild.Preferences(double_tap_action=pencild.Action.SHOW_COLOR_PALETTE,
                                             squeeze_button=pencild.GestureButton.LONG_PRESS,
                                             long_press_duration=650, double_tap_slop=3.5)
                result = client.set_preferences(wanted)
                self.assertIs(result.double_tap_action, pencild.Action.SHOW_COLOR_PALETTE)
                self.assertIs(result.squeeze_button, pencild.GestureButton.LONG_PRESS)
                self.assertEqual(result.long_press_duration, 650)
                self.assertAlmostEqual(result.double_tap_slop or 0, 3.5, places=3)
                self.assertEqual(result.tap_max_duration, defaults.tap_max_duration, "fields left out are kept")
                self.assertEqual(client.get_preferences(), result)

                with self.assertRaises(pencild.InvalidPreferences) as caught:
                    client.set_preferences(pencild.Preferences(long_press_duration=0))
                self.assertEqual(caught.exception.field, "longPressDuration")
                self.assertTrue(caught.exception.reason)
                with self.assertRaises(pencild.InvalidPreferences) as caught:
                    client.set_preferences(pencild.Preferences(tap_button=pencild.GestureButton.STYLUS2,
                                                               squeeze_button=pencild.GestureButton.STYLUS2))
                self.assertIn(caught.exception.field, ("tapButton", "squeezeButton"))
                self.assertEqual(client.get_preferences(), result, "a refused change changes nothing")

            changed = read_until(monitor, lambda got: bool(got), 10, "preferencesChanged")
            monitor.close()
            self.assertIs(changed[0].type, EventType.PREFERENCES_CHANGED)
            self.assertIsNotNone(changed[0].preferences)
            assert changed[0].preferences is not None
            self.assertIs(changed[0].preferences.double_tap_action, pencild.Action.SHOW_COLOR_PALETTE)

            # Kept across a restart of the daemon, on the same state directory.
            daemon.stop()
            with Daemon(state_dir=daemon.state_dir) as again, pencild.Client(again.socket) as client:
                self.assertEqual(client.get_preferences(), result)

    def test_the_four_new_preferences_round_trip(self) -> None:
        binaries()
        with Daemon() as daemon:
            monitor = pencild.Monitor(daemon.socket, events=["preferencesChanged"])
            with pencild.Client(daemon.socket) as client:
                defaults = client.get_preferences()
                self.assertIs(defaults.withhold_gesture_clicks, True)
                self.assertIs(defaults.mirror_switches_tool, True)
                self.assertIs(defaults.eraser_button, pencild.EraserButtonMode.ERASER)
                self.assertIs(defaults.prefers_pencil_only_drawing, False)
                self.assertIs(defaults.prefers_hover_tool_preview, True)
                result = client.set_preferences(pencild.Preferences(
                    withhold_gesture_clicks=False, mirror_switches_tool=False, eraser_button=pencild.EraserButtonMode.BUTTON,
                    prefers_pencil_only_drawing=True, prefers_hover_tool_preview=False,
                    tap_button=pencild.GestureButton.ERASER))
                self.assertIs(result.withhold_gesture_clicks, False)
                self.assertIs(result.mirror_switches_tool, False)
                self.assertIs(result.eraser_button, pencild.EraserButtonMode.BUTTON)
                self.assertIs(result.prefers_pencil_only_drawing, True)
                self.assertIs(result.prefers_hover_tool_preview, False)
                self.assertIs(result.tap_button, pencild.GestureButton.ERASER)
                self.assertEqual(client.get_preferences(), result)
            changed = read_until(monitor, lambda got: bool(got), 10, "preferencesChanged")
            monitor.close()
            assert changed[0].preferences is not None
            self.assertIs(changed[0].preferences.eraser_button, pencild.EraserButtonMode.BUTTON)
            self.assertIs(changed[0].preferences.prefers_hover_tool_preview, False)
            daemon.stop()
            with Daemon(state_dir=daemon.state_dir) as again, pencild.Client(again.socket) as client:
                self.assertEqual(client.get_preferences(), result)

    def test_errors_of_calls(self) -> None:
        binaries()
        def refusal(socket_path: str, devices: Optional[List[str]] = None,
                    events: Optional[List[str]] = None) -> pencild.RemoteError:
            """The error that ends a Monitor with these filters."""
            monitor = pencild.Monitor(socket_path, devices=devices, events=events, reconnect=False)
            try:
                read_until(monitor, lambda _: False, 10, "the daemon's error")
            except pencild.RemoteError as error:
                return error
            finally:
                monitor.close()
            raise AssertionError("unreachable: read_until raises")

        with Daemon() as daemon:
            no_device = refusal(daemon.socket, devices=["event99"])
            assert isinstance(no_device, pencild.NoSuchDevice), no_device
            self.assertEqual(no_device.device, "event99")
            bad = refusal(daemon.socket, events=["noSuchEvent"])
            assert isinstance(bad, pencild.InvalidParameter), bad
            self.assertEqual(bad.parameter, "events")
            with pencild.Client(daemon.socket) as client:
                self.assertEqual(client.list_devices(), [])
            self.assertEqual(pencild.list_devices(daemon.socket), [])
            changed = pencild.set_preferences(pencild.Preferences(tap_max_duration=250), daemon.socket)
            self.assertEqual(changed.tap_max_duration, 250)
            self.assertEqual(pencild.get_preferences(daemon.socket), changed)
        with self.assertRaises(pencild.DaemonUnavailable) as gone:
            pencild.Client(daemon.socket).list_devices()
        self.assertIn(daemon.socket, str(gone.exception))

    def test_a_user_who_may_not_connect_gets_permission_denied(self) -> None:
        """docs/protocol.md, "Who may connect": `nobody` is not root, not the daemon's user, not in
        the socket's group and has no session."""
        require(os.geteuid() == 0, "root is needed to run a client as the user nobody")
        runuser = shutil.which("runuser")
        require(runuser is not None, "runuser is needed (util-linux)")
        assert runuser is not None
        source = os.path.dirname(os.path.dirname(pencild.__file__))
        # The system's python3 (on the default search path): one in root's home is out of
        # nobody's reach.
        python = shutil.which("python3", path=os.defpath) or sys.executable
        script = ("import pencild\n"
                  "try:\n    pencild.list_devices()\n"
                  "except pencild.PermissionDenied as error:\n    print('denied', error.name)\n"
                  "m = pencild.monitor(reconnect=False)\n"
                  "try:\n    list(m)\n"
                  "except pencild.PermissionDenied as error:\n    print('denied', error.name)\n")
        with Daemon() as daemon:
            os.chmod(daemon.work, 0o755)  # the folder, not the socket, would refuse nobody
            result = subprocess.run(
                [runuser, "-u", "nobody", "--", python, "-c", script],
                env=dict(os.environ, PENCILD_SOCKET=daemon.socket, PYTHONPATH=source),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        self.assertEqual(result.stdout.decode().splitlines(), ["denied org.pencild.Pen.PermissionDenied"] * 2,
                         result.stderr.decode())

    def test_a_client_survives_a_restart(self) -> None:
        binaries()
        with Daemon() as first:
            client = pencild.Client(first.socket)
            self.assertEqual(client.list_devices(), [])
            first.stop()
            with Daemon(socket_path=first.socket, state_dir=first.state_dir):
                self.assertEqual(client.get_preferences().tap_button, pencild.GestureButton.STYLUS)
            client.close()



class SocketLookedUpAtEachConnection(unittest.TestCase):
    """A client made before pencild starts finds it, as a person meets it: Krita started at
    login, pencild later as the user's service. No PENCILD_SOCKET; XDG_RUNTIME_DIR is a
    private folder, and the system socket a path of the test's own."""

    def setUp(self) -> None:
        binaries()
        self.runtime = tempfile.mkdtemp(prefix="pencild-runtime-")
        self.user_socket = os.path.join(self.runtime, "pencild.sock")
        os.makedirs(os.path.join(self.runtime, "system"))
        self.system_socket = os.path.join(self.runtime, "system", "pencild.sock")
        saved = {name: os.environ.get(name) for name in ("PENCILD_SOCKET", "XDG_RUNTIME_DIR")}
        saved_system = pencild_wire.SYSTEM_SOCKET

        def restore() -> None:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            pencild_wire.SYSTEM_SOCKET = saved_system
            shutil.rmtree(self.runtime, ignore_errors=True)

        self.addCleanup(restore)
        os.environ.pop("PENCILD_SOCKET", None)
        os.environ["XDG_RUNTIME_DIR"] = self.runtime
        pencild_wire.SYSTEM_SOCKET = self.system_socket

    def test_a_client_reaches_a_user_pencild_started_after_it(self) -> None:
        found = pencild.Client(timeout=5.0)
        given = pencild.Client(self.system_socket, timeout=5.0)
        self.addCleanup(found.close)
        self.addCleanup(given.close)
        with self.assertRaises(pencild.DaemonUnavailable) as nothing:
            found.list_devices()
        self.assertEqual(nothing.exception.path, self.system_socket, "no user socket yet: the system's is tried")
        with Daemon(socket_path=self.user_socket):
            self.assertEqual(found.list_devices(), [], "the same client, at its next call, reaches the user's pencild")
            self.assertEqual(found.path, self.user_socket)
            # The positive control's neighbour: a client given its socket keeps it.
            with self.assertRaises(pencild.DaemonUnavailable) as refused:
                given.list_devices()
            self.assertEqual(refused.exception.path, self.system_socket)

    def test_a_monitor_subscribes_again_to_the_user_pencild_that_came_after(self) -> None:
        with Daemon(socket_path=self.system_socket) as system:
            monitor = pencild.Monitor(min_backoff=0.02, max_backoff=0.2)
            self.addCleanup(monitor.close)
            self.assertEqual(monitor.path, self.system_socket, "the only pencild yet is the system's")
            with Daemon(socket_path=self.user_socket):
                system.stop()
                wait_for_monitor(monitor, lambda: monitor.reconnections >= 1 and monitor.connected, 30,
                                 "the monitor to subscribe again")
                self.assertEqual(monitor.path, self.user_socket, "the user's pencild, started after the monitor")
                with pencild.Client(self.user_socket) as client:
                    client.set_preferences(pencild.Preferences(double_tap_action=pencild.Action.SWITCH_PREVIOUS))
                events = read_until(monitor, lambda got: any(e.type == EventType.PREFERENCES_CHANGED for e in got),
                                    30, "preferencesChanged from the user's pencild")
                self.assertTrue(any(e.type == EventType.PREFERENCES_CHANGED for e in events))


def wait_for_monitor(monitor: pencild.Monitor, condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Dispatches ``monitor`` (fileno, timeout, dispatch) until ``condition()`` or the deadline."""
    deadline = time.monotonic() + seconds
    while not condition():
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        timeout = monitor.timeout()
        select.select([monitor.fileno()], [], [], left if timeout is None else min(left, timeout))
        monitor.dispatch()

if __name__ == "__main__":
    unittest.main()
