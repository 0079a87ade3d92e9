"""The Krita plugin's parts that need no Krita: which button Krita's Canvas Input opens its
pop-up palette on (read from input profiles as Krita writes them), which gestures that
makes Krita's own, and what the docker tells a person who lacks the Python client.
Run by tests/krita/run.sh with the system's Python, before Krita starts."""

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


if __name__ == "__main__":
    unittest.main()
