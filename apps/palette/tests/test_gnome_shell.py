"""The GNOME Shell route's pure parts: the route chosen for a session, the request as the
Shell's extension reads it, and which of the Shell's words become a reply line."""

from __future__ import annotations

import json
import unittest

from pencil_palette.gnome_shell import EXTENSION, outcome_message, remote_message, request_text, unavailable_reason
from pencil_palette.request import parse_request
from pencil_palette.routes import RouteUnavailable, automatic


class RouteChoiceTest(unittest.TestCase):
    def test_gnome_on_wayland_and_on_x11_is_the_shells(self) -> None:
        self.assertEqual(automatic({"XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0"}), "gnome-shell")
        self.assertEqual(automatic({"XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "DISPLAY": ":0"}), "gnome-shell")

    def test_other_desktops_by_their_display(self) -> None:
        self.assertEqual(automatic({"XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"}), "layer-shell")
        self.assertEqual(automatic({"XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1"}), "layer-shell")
        self.assertEqual(automatic({"DISPLAY": ":0"}), "x11")
        # A word that merely contains GNOME is another desktop.
        self.assertEqual(automatic({"XDG_CURRENT_DESKTOP": "GNOME-Flashback-ish", "DISPLAY": ":0"}), "x11")

    def test_nothing_to_draw_on(self) -> None:
        with self.assertRaises(RouteUnavailable):
            automatic({})


class RequestTextTest(unittest.TestCase):
    def test_the_checked_request_goes_on_whole(self) -> None:
        request = parse_request(json.dumps({
            "app": "xournalpp", "pen": {"x": 0.25, "y": 0.5}, "hovering": True, "open_at": "edit",
            "items": [{"id": "pen", "label": "Pen", "group": "tools", "checked": True},
                      {"id": "undo", "label": "Undo\nnow", "group": "edit"}]}).encode())
        sent = json.loads(request_text(request))
        self.assertEqual(sent["pen"], {"x": 0.25, "y": 0.5})
        self.assertEqual(sent["open_at"], "edit")
        self.assertEqual(sent["items"][0], {"id": "pen", "label": "Pen", "group": "tools", "checked": True})
        # As pencil-palette read it: one line, plain.
        self.assertEqual(sent["items"][1]["label"], "Undo now")

    def test_no_pen_is_null(self) -> None:
        request = parse_request(b'{"items": [{"id": "a", "label": "A"}]}')
        self.assertIsNone(json.loads(request_text(request))["pen"])


class OutcomeTest(unittest.TestCase):
    def test_chosen_and_closed(self) -> None:
        self.assertEqual(outcome_message('{"chosen": "eraser"}'), {"chosen": "eraser"})
        for reason in ("escape", "outside", "again", "away", "ended"):
            self.assertEqual(outcome_message(json.dumps({"closed": reason})), {"closed": reason})

    def test_anything_else_is_no_outcome(self) -> None:
        for text in ('{"closed": "whatever"}', '{"chosen": 3}', '{"chosen": "a", "closed": "escape"}', "[]", "not json",
                     '{"chosen": "' + "x" * 20000 + '"}', "[" * 100000):
            self.assertIsNone(outcome_message(text), text[:40])


class UnavailableTest(unittest.TestCase):
    def test_an_extension_off_is_named_with_its_command(self) -> None:
        reason = unavailable_reason("org.freedesktop.DBus.Error.UnknownMethod", "No such interface")
        self.assertIn(f"gnome-extensions enable {EXTENSION}", reason)

    def test_gdbus_prefix_left_out(self) -> None:
        name = "org.pencild.Palette1.Error.Busy"
        self.assertEqual(remote_message(f"GDBus.Error:{name}: a palette is open already", name), "a palette is open already")
        self.assertEqual(remote_message("plain words", name), "plain words")

    def test_the_shells_own_words_otherwise(self) -> None:
        self.assertIn("a palette is open already", unavailable_reason("org.pencild.Palette1.Error.Busy", "a palette is open already"))


if __name__ == "__main__":
    unittest.main()
