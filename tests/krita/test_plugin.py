"""The Krita plugin's parts that need no Krita: which button Krita's Canvas Input opens its
pop-up palette on (read from input profiles as Krita writes them), which gestures that
makes Krita's own, what the docker tells a person who lacks the Python client, and the link
to pencild in a Qt loop of its own, against a stand-in pencild that answers or is stopped:
a focus change never waits; which Qt binding the plugin takes (PyQt5 in Krita 5, PyQt6 in
Krita 6), and a pen's press as it hands it to Krita's canvas. Run by tests/krita/run.sh with
the system's Python (and its PyQt5), before Krita starts, and by tests/krita/krita6.sh in
Debian unstable, whose Python has PyQt6 alone."""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
import unittest
from types import ModuleType

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.join(HERE, "..", "..", "integrations", "krita", "pencild_krita")
DEBIAN_PROFILE = "/usr/share/krita/input/kritadefault.profile"


def load(name: str) -> ModuleType:
    """A module of the plugin on its own (the package's __init__ needs Krita)."""
    spec = importlib.util.spec_from_file_location(f"pencild_krita_{name}", os.path.join(PLUGIN, f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


canvas_input = load("canvas_input")
client = load("client")
qt = load("qt")

# Krita 5.1's default profile, the part that matters here, as Krita writes it.
DEFAULT_PROFILE = """[General]
name=Krita Default
version=6

[Pan Canvas]
2={0;2;[];4;0;0}

[Show Popup Widget]
0={0;2;[];2;0;0}
1={0;4;[];0;0;1}
"""


def write_profile(folder: str, file_name: str, text: str) -> None:
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, file_name), "w", encoding="utf-8") as file:
        file.write(text)


class PopupButtons(unittest.TestCase):
    def setUp(self) -> None:
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.user = os.path.join(self.folder.name, "user")
        self.system = os.path.join(self.folder.name, "system")
        write_profile(self.system, "kritadefault.profile", DEFAULT_PROFILE)

    def buttons(self, name: str = "") -> tuple:
        return canvas_input.popup_buttons(canvas_input.find_profile(name, [self.user, self.system]))

    def test_krita_default_opens_the_palette_on_the_right_click(self) -> None:
        self.assertEqual(self.buttons(), (canvas_input.RIGHT_BUTTON,))
        self.assertEqual(self.buttons("Krita Default"), (canvas_input.RIGHT_BUTTON,))

    def test_debian_krita_profile_reads_the_same(self) -> None:
        if not os.path.exists(DEBIAN_PROFILE):
            self.skipTest(f"{DEBIAN_PROFILE} is not installed")
        found = canvas_input.find_profile("", [os.path.dirname(DEBIAN_PROFILE)])
        self.assertEqual(canvas_input.popup_buttons(found), (canvas_input.RIGHT_BUTTON,))

    def test_the_users_profile_of_the_same_name_comes_first(self) -> None:
        write_profile(self.user, "kritadefault.profile",
                      DEFAULT_PROFILE.replace("0={0;2;[];2;0;0}", "0={0;2;[];4;0;0}"))
        self.assertEqual(self.buttons(), (canvas_input.MIDDLE_BUTTON,))

    def test_the_profile_in_use_is_the_one_named(self) -> None:
        write_profile(self.user, "other.profile", DEFAULT_PROFILE.replace("Krita Default", "Mine")
                      .replace("0={0;2;[];2;0;0}", "0={0;2;[];8;0;0}"))
        self.assertEqual(self.buttons("Mine"), (canvas_input.BACK_BUTTON,))
        self.assertEqual(self.buttons("Gone"), (canvas_input.RIGHT_BUTTON,), "an unknown name: Krita's default")

    def test_a_button_with_a_key_held_is_not_the_pens(self) -> None:
        write_profile(self.user, "kritadefault.profile",
                      DEFAULT_PROFILE.replace("0={0;2;[];2;0;0}", "0={0;2;[1000020];2;0;0}"))
        self.assertEqual(self.buttons(), (), "Shift and right click: a barrel button alone does not open it")

    def test_a_profile_without_the_palette_opens_it_on_nothing(self) -> None:
        write_profile(self.user, "kritadefault.profile", DEFAULT_PROFILE.split("[Show Popup Widget]")[0])
        self.assertEqual(self.buttons(), ())

    def test_no_profile_at_all_is_krita_s_default(self) -> None:
        self.assertEqual(canvas_input.popup_buttons(canvas_input.find_profile("", [])), (canvas_input.RIGHT_BUTTON,))


class SharedWithKrita(unittest.TestCase):
    right = (canvas_input.RIGHT_BUTTON,)

    def shared(self, gesture: str, **preferences: str) -> object:
        return canvas_input.shared_with_krita(gesture, dict(preferences), self.right)

    def test_pencild_s_defaults_make_the_squeeze_krita_s_right_click(self) -> None:
        self.assertEqual(self.shared("squeeze"), "stylus2", "preferences not known yet: pencild's defaults")
        self.assertEqual(self.shared("squeeze", tapButton="stylus", squeezeButton="stylus2",
                                     withholdGestureClicks="false"), "stylus2")
        self.assertIsNone(self.shared("doubleTap", tapButton="stylus", squeezeButton="stylus2"),
                          "the lower button is a middle click: Krita pans, opens nothing")

    def test_withheld_clicks_never_reach_krita(self) -> None:
        self.assertIsNone(self.shared("squeeze", squeezeButton="stylus2", withholdGestureClicks="true"))
        self.assertIsNone(self.shared("doubleTap", tapButton="stylus2", squeezeButton="stylus",
                                      withholdGestureClicks="true"))

    def test_a_double_tap_on_the_upper_button_is_krita_s_too(self) -> None:
        self.assertEqual(self.shared("doubleTap", tapButton="stylus2", squeezeButton="stylus"), "stylus2")
        self.assertIsNone(self.shared("squeeze", tapButton="stylus2", squeezeButton="stylus"))

    def test_a_long_press_is_made_of_the_tap_button(self) -> None:
        self.assertIsNone(self.shared("squeeze", tapButton="stylus", squeezeButton="longPress"))
        self.assertEqual(self.shared("squeeze", tapButton="stylus2", squeezeButton="longPress"), "stylus2")

    def test_a_gesture_of_a_newer_pencild_is_not_guessed(self) -> None:
        # Its button is not the tap button just because it is no squeeze; the control beside it.
        self.assertIsNone(self.shared("barrelClick", tapButton="stylus2", squeezeButton="stylus"))
        self.assertEqual(self.shared("doubleTap", tapButton="stylus2", squeezeButton="stylus"), "stylus2")

    def test_krita_s_own_button_follows_its_profile(self) -> None:
        middle = (canvas_input.MIDDLE_BUTTON,)
        self.assertIsNone(canvas_input.shared_with_krita("squeeze", {"squeezeButton": "stylus2"}, middle))
        self.assertEqual(canvas_input.shared_with_krita("doubleTap", {"tapButton": "stylus"}, middle), "stylus")
        self.assertIsNone(canvas_input.shared_with_krita("squeeze", {"squeezeButton": "stylus2"}, ()))


class MissingClient(unittest.TestCase):
    """What the docker says when `import pencild` fails, for each way Krita is installed."""

    def test_appimage(self) -> None:
        text = client.advice({"APPIMAGE": "/home/a/krita.appimage"}, "/home/a/.local/share/krita/pykrita/pencild_krita")
        self.assertIn("make install-krita KRITA_PLUGIN_DIR=$HOME/.local/share/krita/pykrita", text)

    def test_flatpak(self) -> None:
        text = client.advice({"FLATPAK_ID": "org.kde.krita"},
                             "/home/a/.var/app/org.kde.krita/data/krita/pykrita/pencild_krita")
        self.assertIn("KRITA_PLUGIN_DIR=$HOME/.var/app/org.kde.krita/data/krita/pykrita", text)

    def test_debian_package(self) -> None:
        if os.path.exists("/.flatpak-info"):
            self.skipTest("run inside a Flatpak")
        text = client.advice({}, "/usr/share/krita/pykrita/pencild_krita")
        self.assertIn("python3-pencild", text)

    def test_a_source_install_names_its_own_folder(self) -> None:
        if os.path.exists("/.flatpak-info"):
            self.skipTest("run inside a Flatpak")
        text = client.advice({}, "/usr/local/share/krita/pykrita/pencild_krita")
        self.assertIn("make install-krita KRITA_PLUGIN_DIR=/usr/local/share/krita/pykrita", text)



def load_link() -> ModuleType:
    """link.py, which imports its neighbours relatively: loaded inside a package of its own
    that is not the plugin's (whose __init__ needs Krita)."""
    import types
    package = types.ModuleType("pencild_krita_parts")
    package.__path__ = [PLUGIN]  # type: ignore[attr-defined]
    sys.modules["pencild_krita_parts"] = package
    sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python", "src"))
    return importlib.import_module("pencild_krita_parts.link")


class FakePencild:
    """A socket that takes connections like pencild: one that answers each call at once
    (Monitor with no event, SetFocus and GetPreferences with their reply), or, stalled,
    one that never answers (as a pencild stopped by SIGSTOP)."""

    def __init__(self, path: str, answers: bool) -> None:
        import socket
        import threading
        self.answers = answers
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(16)
        self.connections: list = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        import threading
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.connections.append(connection)
            if self.answers:
                threading.Thread(target=self.answer, args=(connection,), daemon=True).start()

    def answer(self, connection: "object") -> None:
        import json
        pending = b""
        while True:
            try:
                data = connection.recv(4096)  # type: ignore[attr-defined]
            except OSError:
                return
            if not data:
                return
            pending += data
            while b"\0" in pending:
                message, pending = pending.split(b"\0", 1)
                method = json.loads(message)["method"]
                if method.endswith(".GetPreferences"):
                    reply = {"parameters": {"preferences": {}}}
                elif method.endswith(".SetFocus"):
                    reply = {"parameters": {}}
                else:
                    continue  # Monitor: a stream with nothing to tell
                connection.sendall(json.dumps(reply).encode() + b"\0")  # type: ignore[attr-defined]

    def close(self) -> None:
        self.listener.close()
        for connection in self.connections:
            connection.close()


class Binding(unittest.TestCase):
    """Which of PyQt5 and PyQt6 the plugin takes: the one Krita has loaded, never the other."""

    def test_the_binding_krita_loaded_is_taken(self) -> None:
        imported: list = []

        def importable(name: str) -> bool:
            imported.append(name)
            return True

        self.assertEqual(qt.pick({"PyQt5.QtCore": object()}, importable), "PyQt5", "Krita 5")
        self.assertEqual(qt.pick({"PyQt6.QtCore": object(), "PyQt6": object()}, importable), "PyQt6", "Krita 6")
        self.assertEqual(imported, [], "with Krita's binding loaded, no other is even tried")

    def test_krita_5_beside_python3_pyqt6_stays_on_pyqt5(self) -> None:
        # PyQt6 installed too: importing it would load Qt 6 into Krita 5's Qt 5 process.
        self.assertEqual(qt.pick({"PyQt5.QtCore": object()}, lambda name: name == "PyQt6"), "PyQt5")

    def test_without_krita_the_first_that_imports(self) -> None:
        self.assertEqual(qt.pick({}, lambda name: True), "PyQt5")
        # Krita 6 refuses PyQt5 by name (ModuleNotFoundError); Debian unstable may lack it.
        self.assertEqual(qt.pick({}, lambda name: name == "PyQt6"), "PyQt6")
        with self.assertRaises(ImportError):
            qt.pick({}, lambda name: False)

    def test_both_loaded_is_refused(self) -> None:
        with self.assertRaises(ImportError):
            qt.pick({"PyQt5.QtCore": object(), "PyQt6.QtCore": object()}, lambda name: True)

    def test_this_python_s_binding(self) -> None:
        expected = "PyQt5" if importlib.util.find_spec("PyQt5") is not None else "PyQt6"
        self.assertEqual(qt.BINDING, expected)
        self.assertEqual(qt.QT_MAJOR, int(expected[-1]))
        self.assertIs(sys.modules[f"{expected}.QtCore"], qt.QtCore)

    def test_scoped_names_the_plugin_uses(self) -> None:
        """Enum members by their scope, as both bindings take them (PyQt6 only so)."""
        self.assertEqual(qt.QEvent.Type.TabletPress, qt.QEvent(qt.QEvent.Type.TabletPress).type())
        self.assertNotEqual(qt.Qt.ApplicationState.ApplicationActive, qt.Qt.ApplicationState.ApplicationInactive)
        for name in ("TabletMove", "TabletEnterProximity", "TabletLeaveProximity", "MouseMove", "MouseButtonPress",
                     "ShortcutOverride", "KeyPress", "KeyRelease", "Show", "Hide"):
            self.assertTrue(hasattr(qt.QEvent.Type, name), name)
        self.assertTrue(qt.QSocketNotifier.Type.Read is not None and qt.Qt.Key.Key_Escape is not None)

    def test_a_pen_press_as_the_canvas_gets_it(self) -> None:
        application = qt.QtCore.QCoreApplication.instance() or qt.QtCore.QCoreApplication([])
        self.assertIsNotNone(application)
        where, screen = qt.QPointF(10, 20), qt.QPointF(110, 220)
        right = qt.Qt.MouseButton(canvas_input.RIGHT_BUTTON)
        press = qt.tablet_event(qt.QEvent.Type.TabletPress, where, screen, right, canvas_input.RIGHT_BUTTON)
        release = qt.tablet_event(qt.QEvent.Type.TabletRelease, where, screen, right, 0)
        self.assertEqual(press.type(), qt.QEvent.Type.TabletPress)
        self.assertEqual(press.button(), qt.Qt.MouseButton.RightButton)
        self.assertEqual(press.buttons(), qt.mouse_buttons(canvas_input.RIGHT_BUTTON))
        self.assertEqual(release.buttons(), qt.mouse_buttons(0))
        self.assertEqual((press.globalPosF() if qt.QT_MAJOR == 5 else press.globalPosition()), screen)
        if qt.QT_MAJOR == 6:
            self.assertEqual(press.pointingDevice().type(), qt.QtGui.QInputDevice.DeviceType.Stylus)
        mouse = qt.QMouseEvent(qt.QEvent.Type.MouseButtonPress, where, screen, right,
                               qt.mouse_buttons(canvas_input.RIGHT_BUTTON), qt.Qt.KeyboardModifier.NoModifier)
        self.assertTrue(qt.mouse_is_the_mouse(mouse), "the plugin's own mouse press is the mouse's")


class FocusWithoutWaiting(unittest.TestCase):
    """Krita's thread never waits on pencild: a focus change returns at once, whether
    pencild answers (the claim is then made) or is stopped (the claim is said to wait)."""

    def setUp(self) -> None:
        self.application = qt.QtCore.QCoreApplication.instance() or qt.QtCore.QCoreApplication([])
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.path = os.path.join(folder.name, "pencild.sock")
        saved = os.environ.get("PENCILD_SOCKET")
        os.environ["PENCILD_SOCKET"] = self.path
        self.addCleanup(lambda: os.environ.pop("PENCILD_SOCKET") if saved is None
                        else os.environ.__setitem__("PENCILD_SOCKET", saved))
        self.link_module = load_link()

    def run_until(self, condition: "object", seconds: float) -> bool:
        import time
        deadline = time.monotonic() + seconds
        while not condition() and time.monotonic() < deadline:  # type: ignore[operator]
            self.application.processEvents()
            time.sleep(0.01)
        return bool(condition())  # type: ignore[operator]

    def focus_change(self, answers: bool) -> "object":
        import time
        pencild = FakePencild(self.path, answers)
        self.addCleanup(pencild.close)
        link = self.link_module.PencildLink(lambda action, event: "", lambda: (canvas_input.RIGHT_BUTTON,))
        self.addCleanup(link.stop)
        link.start()
        self.assertEqual(link.state, self.link_module.CONNECTED, "the stream is made: the kernel took the connection")
        began = time.monotonic()
        link.set_active(True)
        self.assertLess(time.monotonic() - began, 0.2, "set_active waited on pencild")
        return link

    def test_a_stopped_pencild_holds_nothing_and_the_claim_waits(self) -> None:
        link = self.focus_change(answers=False)
        self.assertTrue(self.run_until(lambda: link.focus_error != "", self.link_module.CALL_TIMEOUT_S * 3),
                        "the call's timeout is reported")
        self.assertIn("no reply", link.focus_error)
        self.assertIsNone(link.focus_claimed, "not known: the docker says the claim waits")
        self.assertTrue(link.focus_wanted)

    def test_a_pencild_that_answers_gets_the_claim(self) -> None:
        link = self.focus_change(answers=True)
        self.assertTrue(self.run_until(lambda: link.focus_claimed is True, self.link_module.CALL_TIMEOUT_S * 3))
        self.assertEqual(link.focus_error, "")


if __name__ == "__main__":
    unittest.main()
