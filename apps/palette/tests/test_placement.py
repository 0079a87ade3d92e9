"""The card's place (placement.place) and the request's checks (request.parse_request)."""

from __future__ import annotations

import json
import unittest
from typing import Any, Dict

from pencil_palette.placement import MARGIN, place
from pencil_palette.request import MAX_ITEMS, RequestError, parse_request

SCREEN = (1280, 800)
CARD = (180, 340)


class PlaceTest(unittest.TestCase):
    def test_centred_on_the_pen(self) -> None:
        self.assertEqual(place((0.25, 0.5), CARD, SCREEN), (320 - 90, 400 - 170))

    def test_unknown_pen_is_the_screens_centre(self) -> None:
        self.assertEqual(place(None, CARD, SCREEN), (640 - 90, 400 - 170))

    def test_moved_just_enough_at_the_far_corner(self) -> None:
        self.assertEqual(place((1.0, 1.0), CARD, SCREEN), (1280 - MARGIN - 180, 800 - MARGIN - 340))

    def test_moved_just_enough_at_the_origin(self) -> None:
        self.assertEqual(place((0.0, 0.0), CARD, SCREEN), (MARGIN, MARGIN))

    def test_one_axis_moved_the_other_kept(self) -> None:
        self.assertEqual(place((0.5, 0.02), CARD, SCREEN), (640 - 90, MARGIN))

    def test_a_card_within_the_margin_is_not_moved(self) -> None:
        # Its edge exactly at the margin.
        x, _ = place(((MARGIN + 90) / 1280, 0.5), CARD, SCREEN)
        self.assertEqual(x, MARGIN)

    def test_a_card_larger_than_the_screen_starts_at_the_margin(self) -> None:
        self.assertEqual(place((0.5, 0.5), (2000, 900), SCREEN), (MARGIN, MARGIN))


def request(**fields: Any) -> bytes:
    document: Dict[str, Any] = {"version": 1, "app": "Xournal++", "pen": {"x": 0.5, "y": 0.5},
                                "items": [{"id": "undo", "label": "Undo", "group": "edit"}]}
    document.update(fields)
    return json.dumps(document).encode()


class RequestTest(unittest.TestCase):
    def error(self, line: bytes) -> str:
        with self.assertRaises(RequestError) as raised:
            parse_request(line)
        return str(raised.exception)

    def test_a_good_request(self) -> None:
        parsed = parse_request(request(open_at="edit", extra="ignored"))
        self.assertEqual(parsed.pen, (0.5, 0.5))
        self.assertEqual(parsed.open_at, "edit")
        self.assertEqual([item.id for item in parsed.items], ["undo"])

    def test_groups_tools_then_edit_then_as_they_come(self) -> None:
        items = [{"id": "a", "label": "A", "group": "ink"}, {"id": "u", "label": "Undo", "group": "edit"},
                 {"id": "p", "label": "Pen", "group": "tools"}, {"id": "b", "label": "B", "group": "colour"}]
        self.assertEqual(parse_request(request(items=items)).groups(), ["tools", "edit", "ink", "colour"])

    def test_not_json(self) -> None:
        self.assertIn("not JSON", self.error(b"{nope"))

    def test_too_many_items(self) -> None:
        items = [{"id": f"i{n}", "label": "x"} for n in range(MAX_ITEMS + 1)]
        self.assertIn("items", self.error(request(items=items)))

    def test_an_id_with_a_space(self) -> None:
        self.assertIn("items[0].id", self.error(request(items=[{"id": "a b", "label": "x"}])))

    def test_an_id_too_long(self) -> None:
        self.assertIn("items[0].id", self.error(request(items=[{"id": "a" * 65, "label": "x"}])))

    def test_a_pen_off_the_screen(self) -> None:
        self.assertIn("pen.x", self.error(request(pen={"x": 2, "y": 0.5})))

    def test_a_long_label_is_cut(self) -> None:
        label = parse_request(request(items=[{"id": "a", "label": "y" * 100}])).items[0].label
        self.assertEqual(len(label), 64)
        self.assertTrue(label.endswith("\u2026"))

    def test_markup_is_kept_as_text(self) -> None:
        self.assertEqual(parse_request(request(items=[{"id": "a", "label": "<b>x</b>"}])).items[0].label, "<b>x</b>")

    def test_a_duplicate_id(self) -> None:
        items = [{"id": "a", "label": "x"}, {"id": "a", "label": "y"}]
        self.assertIn("items[1].id", self.error(request(items=items)))

    def test_too_long_a_line(self) -> None:
        self.assertIn("longer than", self.error(b" " * (64 * 1024 + 1)))


if __name__ == "__main__":
    unittest.main()
