"""The library's own rules, without a daemon: names from a newer daemon, distrust of what
arrives, where the socket is, the closing events' order."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import tempfile
import threading
import time
import unittest
from typing import Iterator, List, Tuple, Type

import pencild
from pencild import Event, EventType, Phase
from pencild._closeout import CloseOut
from pencild._names import PREFERENCE_FIELDS
from pencild._wire import Framer

from support import compare

POSE = {"x": 0.5, "y": 0.25, "pressure": 0.75, "tiltX": 12.5}
TOOL = {"type": "pen", "serial": 7, "id": 2050}


def event(kind: str, **members: object) -> Event:
    return Event.from_json({"type": kind, "time": members.pop("time", 1000), "device": "replay0", **members})



@contextlib.contextmanager
def unanswered_socket() -> Iterator[str]:
    """The path of a Unix socket whose connections the kernel accepts and nobody reads or answers."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "s")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            listener.bind(path)
            listener.listen(4)
            yield path

class Names(unittest.TestCase):
    def test_unknown_names_are_kept_with_their_text(self) -> None:
        parsed = Event.from_json({"type": "pinch", "time": 5, "tool": {"type": "quill"}, "phase": "wobbled",
                                  "action": "openNotes", "focus": "elsewhere", "futureField": [1, 2]})
        self.assertFalse(parsed.type.is_known)
        self.assertEqual(parsed.type.value, "pinch")
        self.assertEqual(str(parsed.type), "pinch")
        self.assertEqual(parsed.type.name, "UNKNOWN")
        assert parsed.tool is not None and parsed.phase is not None and parsed.action is not None
        self.assertEqual((parsed.tool.type.value, parsed.phase.value, parsed.action.value),
                         ("quill", "wobbled", "openNotes"))
        self.assertFalse(parsed.tool.type.is_known)
        self.assertEqual(parsed.focus, "elsewhere")
        self.assertTrue(EventType("doubleTap").is_known)
        self.assertIs(EventType("doubleTap"), EventType.DOUBLE_TAP)
        self.assertNotEqual(EventType("pinch"), EventType.DOUBLE_TAP)

    def test_every_value_of_the_interface_is_known(self) -> None:
        interface = os.path.join(os.path.dirname(__file__), "..", "..", "..", "interfaces", "org.pencild.Pen.varlink")
        with open(interface, encoding="utf-8") as file:
            text = file.read()
        lists: List[Tuple[Type[pencild.WireName], str]] = [
            (EventType, "eventType"), (pencild.ToolType, "tool"), (pencild.Axis, "axis"), (pencild.Action, "action")]
        for kind, key in lists:
            marker = f"\n# {key} names: "
            start = text.index(marker) + len(marker)
            listed = text[start:text.index("\n", start)]
            names = [re.sub(r"\(.*\)", "", n).strip() for n in listed.split(",")]
            for name in filter(None, names):
                self.assertTrue(kind(name).is_known, f"{kind.__name__} lacks {name}")

    def test_the_gestures_say_their_event_phases_and_preference(self) -> None:
        # What the interface lists, "# gesture names: doubleTap (one-shot: ...), squeeze (phased: ...)":
        # each gesture with its preference and whether it is phased, in order.
        interface = os.path.join(os.path.dirname(__file__), "..", "..", "..", "interfaces", "org.pencild.Pen.varlink")
        with open(interface, encoding="utf-8") as file:
            line = next(text for text in file if text.startswith("# gesture names: "))
        listed = re.findall(r"(\w+) \((one-shot|phased):", line)
        self.assertGreaterEqual(len(listed), 2)
        self.assertEqual(pencild.GESTURES, tuple((pencild.Gesture(name), name + "Action", kind == "phased")
                                                 for name, kind in listed))
        self.assertEqual(pencild.GESTURES[:2], ((pencild.Gesture.DOUBLE_TAP, "doubleTapAction", False),
                                                (pencild.Gesture.SQUEEZE, "squeezeAction", True)))
        wire_fields = {wire for _, wire, _ in PREFERENCE_FIELDS}
        for gesture, field, _ in pencild.GESTURES:
            self.assertTrue(EventType(str(gesture)).is_known)
            self.assertIn(field, wire_fields)


class Identity(unittest.TestCase):
    def test_stylus_model_and_styli_are_read(self) -> None:
        event = Event.from_json({"type": "proximityIn", "time": 5, "tool": {"type": "pen", "serial": 9, "id": 2050},
                                 "stylus": {"name": "Grip Pen", "kind": "general", "buttons": 2, "eraser": "invert"}})
        self.assertEqual(event.stylus, pencild.Stylus("Grip Pen", pencild.StylusKind.GENERAL, 2, pencild.EraserKind.INVERT))
        device = pencild.Device.from_json({
            "id": "event7", "name": "Wacom Cintiq 22HDT Pen", "bus": 3, "vendor": 0x56a, "product": 0x5b, "direct": True,
            "model": "Wacom Cintiq 22HD touch", "mirror": "event12",
            "styli": [{"name": "Odd", "kind": "quill", "buttons": 1, "eraser": "sponge"}]})
        self.assertEqual(device.model, "Wacom Cintiq 22HD touch")
        self.assertEqual(device.mirror, "event12")
        self.assertEqual(device.styli[0].kind, "quill")
        self.assertFalse(device.styli[0].kind.is_known)
        self.assertIsNone(pencild.Device.from_json({"id": "x", "name": "y", "bus": 3, "vendor": 1, "product": 2,
                                                    "direct": False}).model)
        self.assertIsNone(pencild.Device.from_json({"id": "x", "name": "y", "bus": 3, "vendor": 1, "product": 2,
                                                    "direct": False}).mirror)
        with self.assertRaises(pencild.ProtocolError) as caught:
            Event.from_json({"type": "proximityIn", "time": 5, "stylus": {"name": "Grip Pen", "kind": "general"}})
        self.assertIn("event.stylus.buttons: missing", str(caught.exception))
        with self.assertRaises(pencild.ProtocolError) as caught:
            pencild.Preferences.from_json({"prefersHoverToolPreview": 1})
        self.assertIn("expected true or false", str(caught.exception))


class Distrust(unittest.TestCase):
    def test_wrong_kinds_are_protocol_errors_naming_the_field(self) -> None:
        cases = [
            ({"type": "motion"}, "event.time: missing"),
            ({"type": 3, "time": 1}, "event.type: expected a string"),
            ({"type": "motion", "time": 1.5}, "event.time: expected an integer"),
            ({"type": "motion", "time": True}, "event.time: expected an integer"),
            ({"type": "motion", "time": 1, "pose": {"x": "0.5", "y": 0}}, "event.pose.x: expected a number"),
            ({"type": "motion", "time": 1, "pose": [0.5, 0.5]}, "event.pose: expected an object"),
            ({"type": "motion", "time": 1, "tool": {"type": "pen", "serial": 1 << 70}}, "does not fit 64 bits"),
            ({"type": "deviceAdded", "time": 1, "deviceInfo": {"id": "x"}}, "event.deviceInfo.name: missing"),
            ({"type": "motion", "time": 1, "device": "x" * 5000}, "too long"),
        ]
        for json_value, message in cases:
            with self.subTest(json=str(json_value)[:60]):
                with self.assertRaises(pencild.ProtocolError) as caught:
                    Event.from_json(json_value)
                self.assertIn(message, str(caught.exception))

    def test_the_framer_bounds_a_message(self) -> None:
        framer = Framer(max_message_size=16)
        self.assertEqual(framer.feed(b'{"a":1}\0{"b"'), [b'{"a":1}'])
        self.assertEqual(framer.feed(b':2}\0'), [b'{"b":2}'])
        self.assertIsNone(framer.failure)
        self.assertEqual(framer.feed(b'{}\0' + b"x" * 17), [b"{}"])
        self.assertIsInstance(framer.failure, pencild.ProtocolError)
        self.assertEqual(framer.feed(b"\0{}\0"), [], "nothing more after a failure")
        framer = Framer(max_message_size=16)
        self.assertEqual(framer.feed(b"y" * 10), [])
        self.assertEqual(framer.feed(b"z" * 10 + b"\0"), [])
        self.assertIsNotNone(framer.failure)

    def serve(self, payloads: list[bytes]) -> tuple[str, threading.Thread, tempfile.TemporaryDirectory[str]]:
        """A Unix socket that answers the first call with ``payloads`` and closes."""
        folder = tempfile.TemporaryDirectory()
        path = os.path.join(folder.name, "s")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(1)

        def answer() -> None:
            with listener:
                connection, _ = listener.accept()
                with connection:
                    connection.recv(65536)
                    for payload in payloads:
                        connection.sendall(payload)

        thread = threading.Thread(target=answer)
        thread.start()
        return path, thread, folder

    def test_a_message_larger_than_the_bound_ends_the_stream(self) -> None:
        huge = json.dumps({"parameters": {"event": {"type": "motion", "time": 1, "device": "d" * 4000}},
                           "continues": True}).encode() + b"\0"
        good = json.dumps({"parameters": {"event": {"type": "deviceAdded", "time": 1, "device": "a"}},
                           "continues": True}).encode() + b"\0"
        path, thread, folder = self.serve([good, huge])
        with folder:
            monitor = pencild.Monitor(path, reconnect=False, max_message_size=1024)
            events = []
            with self.assertRaises(pencild.ProtocolError) as caught:
                for item in monitor:
                    events.append(item)
            thread.join()
            self.assertIn("larger than 1024 bytes", str(caught.exception))
            self.assertEqual([e.type for e in events], [EventType.DEVICE_ADDED, EventType.DEVICE_REMOVED])
            self.assertTrue(events[1].synthesized)

    def test_garbage_and_nan_are_refused(self) -> None:
        for payload in (b"\xff\xfe\0", b"[1,2]\0", b'{"parameters":{"event":{"type":"motion","time":NaN}}}\0',
                        b"[" * 100000 + b"\0"):
            with self.subTest(payload=payload[:20]):
                path, thread, folder = self.serve([payload])
                with folder:
                    monitor = pencild.Monitor(path, reconnect=False, max_message_size=1 << 20)
                    with self.assertRaises(pencild.ProtocolError):
                        list(monitor)
                    thread.join()

    def test_a_call_without_an_answer_times_out_once(self) -> None:
        with unanswered_socket() as path:
            client = pencild.Client(path, timeout=0.3)
            started = time.monotonic()
            with self.assertRaises(pencild.Disconnected) as caught:
                client.get_preferences()
            elapsed = time.monotonic() - started
            self.assertTrue(caught.exception.timed_out)
            self.assertIn("no reply to org.pencild.Pen.GetPreferences within 0.3 s", str(caught.exception))
            self.assertLess(elapsed, 0.55, "a call that timed out is not sent again")
            client.close()

    def test_an_integer_no_float_holds_is_a_protocol_error(self) -> None:
        huge = int("9" * 400)
        for pose in ({"x": huge, "y": 0, "pressure": 0}, {"x": 0.5, "y": 0.5, "pressure": 0, "tiltX": -huge}):
            with self.subTest(pose=str(pose)[:40]):
                with self.assertRaises(pencild.ProtocolError) as caught:
                    Event.from_json({"type": "motion", "time": 1, "pose": pose})
                self.assertIn("is not a finite number", str(caught.exception))
        # The same value as the daemon writes it, through the wire, and a plain one beside it.
        path, thread, folder = self.serve([b'{"parameters":{"event":{"type":"motion","time":1,"device":"d",'
                                           b'"pose":{"x":0.5,"y":0.5,"pressure":0}}},"continues":true}\0',
                                           b'{"parameters":{"event":{"type":"motion","time":2,"device":"d",'
                                           b'"pose":{"x":' + b"9" * 400 + b',"y":0,"pressure":0}}},"continues":true}\0'])
        with folder:
            monitor = pencild.Monitor(path, reconnect=False)
            events = []
            with self.assertRaises(pencild.ProtocolError):
                for item in monitor:
                    events.append(item)
            thread.join()
            self.assertEqual(events[0].pose.x if events and events[0].pose else None, 0.5)

    def test_an_error_whose_parameters_nest_deeply_is_a_protocol_error(self) -> None:
        from pencild._wire import Reply, decode_message
        # Every depth up to what json.loads takes: the typed error for the protocol's few
        # levels, ProtocolError past them; never RecursionError, however deep the caller's stack.
        for depth in range(1, 1200):
            nested = "[" * depth + "]" * depth
            data = ('{"error":"org.pencild.Pen.NoSuchDevice","parameters":{"device":"d","x":' + nested + '}}').encode()
            try:
                Reply(decode_message(data))
            except pencild.NoSuchDevice as error:
                self.assertLessEqual(depth, 30)
                self.assertIn("NoSuchDevice", str(error))
            except pencild.ProtocolError:
                self.assertGreater(depth, 30)
        for depth, deep in ((5, False), (991, True)):
            nested = "[" * depth + "]" * depth
            payload = ('{"error":"org.pencild.Pen.NoSuchDevice","parameters":{"device":"d","x":' + nested + '}}').encode() + b"\0"
            with self.subTest(depth=depth):
                path, thread, folder = self.serve([payload])
                with folder:
                    client = pencild.Client(path, timeout=5)
                    with self.assertRaises(pencild.ProtocolError if deep else pencild.NoSuchDevice) as caught:
                        client.get_preferences()
                    str(caught.exception)
                    client.close()
                    thread.join()

    def test_a_daemon_that_stops_reading_is_a_timed_out_disconnection(self) -> None:
        from pencild._wire import Connection
        with unanswered_socket() as path:
            for size in (10, 8 << 20):
                with self.subTest(size=size):
                    connection = Connection(path, timeout=0.3)
                    started = time.monotonic()
                    with self.assertRaises(pencild.Disconnected) as caught:
                        connection.call("org.pencild.Pen.SetPreferences", {"preferences": {"doubleTapAction": "x" * size}})
                    self.assertTrue(caught.exception.timed_out)
                    self.assertLess(time.monotonic() - started, 2)
                    connection.close()

    def test_remote_errors_are_typed(self) -> None:
        error = pencild.RemoteError("x", {})
        self.assertIsInstance(error, pencild.PencildError)
        from pencild._errors import remote_error
        invalid = remote_error("org.pencild.Pen.InvalidPreferences", {"field": "tapButton", "reason": "same"})
        self.assertIsInstance(invalid, pencild.InvalidPreferences)
        assert isinstance(invalid, pencild.InvalidPreferences)
        self.assertEqual((invalid.field, invalid.reason), ("tapButton", "same"))
        self.assertIs(type(remote_error("org.example.Other", None)), pencild.RemoteError)


class SocketPath(unittest.TestCase):
    def test_found_as_pencilctl_finds_it(self) -> None:
        with tempfile.TemporaryDirectory() as runtime:
            self.assertEqual(pencild.default_socket_path({"PENCILD_SOCKET": "/x/p.sock", "XDG_RUNTIME_DIR": runtime}),
                             "/x/p.sock")
            self.assertEqual(pencild.default_socket_path({"XDG_RUNTIME_DIR": runtime}), pencild.SYSTEM_SOCKET,
                             "no socket in the runtime folder: the system one")
            open(os.path.join(runtime, "pencild.sock"), "w").close()
            self.assertEqual(pencild.default_socket_path({"XDG_RUNTIME_DIR": runtime}), pencild.SYSTEM_SOCKET,
                             "a plain file is not a socket")
            os.unlink(os.path.join(runtime, "pencild.sock"))
            with socket.socket(socket.AF_UNIX) as listener:
                listener.bind(os.path.join(runtime, "pencild.sock"))
                self.assertEqual(pencild.default_socket_path({"XDG_RUNTIME_DIR": runtime, "PENCILD_SOCKET": ""}),
                                 os.path.join(runtime, "pencild.sock"))
            self.assertEqual(pencild.default_socket_path({}), pencild.SYSTEM_SOCKET)


class Closing(unittest.TestCase):
    def test_closing_events_in_the_contracts_order(self) -> None:
        closeout = CloseOut()
        for item in [event("deviceAdded", deviceInfo=None), event("proximityIn", tool=TOOL, pose=POSE),
                     event("hover", tool=TOOL, pose=POSE, phase="began"),
                     event("buttonDown", tool=TOOL, pose=POSE, button="stylus2"),
                     event("squeeze", tool=TOOL, pose=POSE, phase="began", focus="this"),
                     event("buttonDown", tool=TOOL, pose=POSE, button="stylus"),
                     event("tipDown", tool=TOOL, pose=POSE, time=2000),
                     event("motion", tool=TOOL, pose=dict(POSE, x=0.6), time=3000),
                     event("deviceAdded", time=2500, device="other")]:
            if item.device != "replay0":
                item = Event(type=item.type, time=item.time, device="other")
            closeout.observe(item)
        closing = closeout.close_all()
        self.assertEqual([(e.device, e.type.value, str(e.button or e.phase or "")) for e in closing], [
            ("replay0", "tipUp", ""), ("replay0", "buttonUp", "stylus"), ("replay0", "buttonUp", "stylus2"),
            ("replay0", "squeeze", "cancelled"), ("replay0", "hover", "ended"), ("replay0", "proximityOut", ""),
            ("replay0", "deviceRemoved", ""), ("other", "deviceRemoved", "")])
        self.assertTrue(all(e.synthesized for e in closing))
        self.assertEqual({e.time for e in closing if e.device == "replay0"}, {3000})
        self.assertEqual(closing[0].pose and closing[0].pose.x, 0.6, "the last pose")
        self.assertEqual(closing[0].pose and closing[0].pose.pressure, 0.0, "the tip is up")
        self.assertIs(closing[3].focus, pencild.Focus.THIS, "a squeeze keeps the focus it began with")
        self.assertEqual(closeout.close_all(), [], "everything is forgotten")

    def test_closed_things_are_not_closed_again_and_filters_hold(self) -> None:
        closeout = CloseOut(frozenset({"tipDown", "tipUp", "proximityOut"}))
        for item in [event("proximityIn", tool=TOOL, pose=POSE), event("tipDown", tool=TOOL, pose=POSE),
                     event("tipUp", tool=TOOL, pose=POSE), event("hover", tool=TOOL, pose=POSE, phase="began")]:
            closeout.observe(item)
        self.assertEqual([e.type for e in closeout.close_all()], [EventType.PROXIMITY_OUT])
        closeout = CloseOut()
        for item in [event("proximityIn", tool=TOOL, pose=POSE), event("proximityOut", tool=TOOL, pose=POSE)]:
            closeout.observe(item)
        self.assertEqual(closeout.close_all(), [])


class Comparison(unittest.TestCase):
    """The conformance tests' comparison finds what differs."""

    def test_compare_reports_differences(self) -> None:
        wire = {"type": "motion", "time": 9, "device": "replay0", "tool": TOOL, "pose": POSE}
        self.assertEqual(compare(Event.from_json(wire), wire, "e"), [])
        self.assertEqual(compare(Event.from_json(wire), dict(wire, pose=dict(POSE, x=0.5000004)), "e"), [])
        self.assertTrue(compare(Event.from_json(wire), dict(wire, pose=dict(POSE, x=0.50001)), "e"))
        self.assertTrue(compare(Event.from_json(wire), dict(wire, type="hover"), "e"))
        self.assertTrue(compare(Event.from_json(dict(wire, phase="began")), wire, "e"))
        self.assertTrue(compare(Event.from_json(wire), dict(wire, phase="began"), "e"))


if __name__ == "__main__":
    unittest.main()
