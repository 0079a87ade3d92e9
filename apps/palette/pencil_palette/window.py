"""The card: the request's items as buttons, grouped, in a small undecorated window. The
same on every route; a route only places its surface and takes input for it."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from gi.repository import Gdk, Gio, GLib, Gtk, Pango

from .request import EDIT, TOOLS, Item, Request

# A group name as a person reads it; another group's name is shown with a capital.
GROUP_TITLES = {"color": "Color", "ink": "Ink", "action": "Actions"}
# The arrows, as steps across the screen.
ARROWS = {Gdk.KEY_Up: (0, -1), Gdk.KEY_KP_Up: (0, -1), Gdk.KEY_Down: (0, 1), Gdk.KEY_KP_Down: (0, 1),
          Gdk.KEY_Left: (-1, 0), Gdk.KEY_KP_Left: (-1, 0), Gdk.KEY_Right: (1, 0), Gdk.KEY_KP_Right: (1, 0)}
# Wider labels are ellipsized (the whole label is the button's accessible name and tooltip).
LABEL_WIDTH_CHARACTERS = 22

CSS = """
/* The card: the window itself, or, on the layer-shell route, the box within a window that
   covers the output, transparent. */
window.pencil-palette, window.pencil-palette.full-output > .palette-card {
  background-color: @popover_bg_color;
  color: @popover_fg_color;
  border: 1px solid alpha(black, 0.18);
  border-radius: 12px;
}
window.pencil-palette.full-output {
  background: none;
  border: none;
  border-radius: 0;
  box-shadow: none;
}
window.pencil-palette.full-output > .palette-card { box-shadow: 0 2px 8px alpha(black, 0.25); }
/* Without a compositor the corners outside the radius would show black. */
window.pencil-palette.solid { border-radius: 0; }
window.pencil-palette .heading { margin: 2px 6px 0 6px; }
window.pencil-palette .group-heading { margin: 4px 6px 0 6px; }
window.pencil-palette button { min-height: 32px; padding: 2px 10px; }
/* The app's actions read as a menu's items. */
window.pencil-palette button.flat label { font-weight: normal; }
/* The item a tap would take, plainly: a hovering pen moves the pointer. */
window.pencil-palette button:hover {
  background-color: alpha(@accent_bg_color, 0.22);
  box-shadow: inset 0 0 0 2px @accent_color;
}
window.pencil-palette button:checked {
  background-color: @accent_bg_color;
  color: @accent_fg_color;
}
window.pencil-palette button:checked:hover {
  box-shadow: inset 0 0 0 2px @accent_fg_color, inset 0 0 0 4px @accent_bg_color;
}
"""


def group_title(group: str) -> str:
    return GROUP_TITLES.get(group, group[:1].upper() + group[1:].replace("_", " ").replace("-", " "))


def app_name(app: str) -> str:
    """The app as a person knows it: the name in its desktop file when the app's id (a Wayland
    app_id, an X11 class) names one, else the id as it came. Desktop files are the system's and
    the person's own, read by GIO; the name is shown as plain text, as every label."""
    for candidate in (app, app.lower()):
        try:
            info = Gio.DesktopAppInfo.new(f"{candidate}.desktop")
        except (TypeError, GLib.Error):
            info = None
        if info is not None and info.get_display_name():
            return str(info.get_display_name())
    return app


def window_title(app: Optional[str]) -> str:
    return f"Palette for {app}" if app else "Pen palette"


def item_label(item: Item, xalign: float) -> Gtk.Label:
    # `label` is plain text unless use-markup is set, which it never is here.
    return Gtk.Label(label=item.label, xalign=xalign, ellipsize=Pango.EllipsizeMode.END, max_width_chars=LABEL_WIDTH_CHARACTERS,
                     use_markup=False, use_underline=False)


class PaletteWindow(Gtk.Window):  # type: ignore[misc]
    """The card. `chosen` is called with an item's id when it is activated (a tap, a click,
    Enter or space), `dismissed` when Escape is pressed; each at most once."""

    def __init__(self, request: Request, chosen: Callable[[str], None], dismissed: Callable[[], None]) -> None:
        shown_app = app_name(request.app) if request.app else None
        super().__init__(title=window_title(shown_app), decorated=False, resizable=False)
        self.chosen = chosen
        self.dismissed = dismissed
        self.done = False
        self.buttons: Dict[str, Gtk.Button] = {}
        # What the person sees as the palette: the window itself, unless a route draws the
        # window over the whole output and the card within it.
        self.card: Gtk.Widget = self
        self.add_css_class("pencil-palette")
        display = self.get_display()
        provider = Gtk.CssProvider()
        provider.load_from_data(CSS.encode())
        Gtk.StyleContext.add_provider_for_display(display, provider, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
        if not display.is_composited():
            self.add_css_class("solid")

        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6, margin_top=8, margin_bottom=8,
                      margin_start=8, margin_end=8)
        if shown_app:
            heading = Gtk.Label(label=shown_app, xalign=0, ellipsize=Pango.EllipsizeMode.END, max_width_chars=LABEL_WIDTH_CHARACTERS,
                                use_markup=False, css_classes=["heading", "dim-label"])
            box.append(heading)
        app_groups = [group for group in request.groups() if group not in (TOOLS, EDIT)]
        for index, group in enumerate(request.groups()):
            items = request.in_group(group)
            if group == TOOLS:
                box.append(self.tool_row(items))
            elif group == EDIT:
                box.append(self.linked_row(items))
            else:
                if index > 0:
                    box.append(Gtk.Separator(orientation=Gtk.Orientation.HORIZONTAL))
                if len(app_groups) > 1:
                    box.append(Gtk.Label(label=group_title(group), xalign=0, use_markup=False,
                                         css_classes=["caption-heading", "dim-label", "group-heading"]))
                for item in items:
                    box.append(self.list_button(item))
        self.set_child(box)

        escape = Gtk.ShortcutController(scope=Gtk.ShortcutScope.GLOBAL)
        escape.add_shortcut(Gtk.Shortcut(trigger=Gtk.ShortcutTrigger.parse_string("Escape"),
                                         action=Gtk.CallbackAction.new(self.escape_pressed)))
        self.add_controller(escape)
        # Before the buttons see them: GTK moves the focus along a row with Down as with Tab,
        # where a person expects the item below.
        arrows = Gtk.EventControllerKey(propagation_phase=Gtk.PropagationPhase.CAPTURE)
        arrows.connect("key-pressed", self.arrow_pressed)
        self.add_controller(arrows)
        self.connect("close-request", lambda _window: self.escape_pressed() or True)
        self.focus_first(request)

    def tool_row(self, items: List[Item]) -> Gtk.Box:
        """The tools as linked toggle buttons, the checked one active."""
        row = Gtk.Box(css_classes=["linked"], homogeneous=True)
        first: Optional[Gtk.ToggleButton] = None
        for item in items:
            button = Gtk.ToggleButton(child=item_label(item, 0.5), active=item.checked)
            if first is not None:
                button.set_group(first)
            else:
                first = button
            self.add_item(button, item)
            row.append(button)
        return row

    def linked_row(self, items: List[Item]) -> Gtk.Box:
        row = Gtk.Box(css_classes=["linked"], homogeneous=True)
        for item in items:
            button = Gtk.Button(child=item_label(item, 0.5))
            self.add_item(button, item)
            row.append(button)
        return row

    def list_button(self, item: Item) -> Gtk.Button:
        button = Gtk.Button(child=item_label(item, 0.0), css_classes=["flat"])
        self.add_item(button, item)
        return button

    def add_item(self, button: Gtk.Button, item: Item) -> None:
        button.update_property([Gtk.AccessibleProperty.LABEL], [item.label])
        if len(item.label) > LABEL_WIDTH_CHARACTERS:
            button.set_tooltip_text(item.label)  # plain text, as the label
        button.connect("clicked", self.item_clicked, item.id)
        self.buttons[item.id] = button

    def focus_first(self, request: Request) -> None:
        """The keyboard's place: the first item of the group asked to open at, else the
        checked tool, else the first item."""
        first: Optional[Item] = None
        if request.open_at is not None:
            first = next(iter(request.in_group(request.open_at)), None)
        if first is None:
            first = next((item for item in request.in_group(TOOLS) if item.checked), None)
        if first is None:
            first = next((item for group in request.groups() for item in request.in_group(group)), None)
        if first is not None:
            self.set_focus(self.buttons[first.id])
            # Shown at once when asked for: the palette opened "at" those actions.
            self.set_focus_visible(request.open_at is not None)

    def arrow_pressed(self, _controller: Gtk.EventControllerKey, keyval: int, _keycode: int,
                      state: Gdk.ModifierType) -> bool:
        step = ARROWS.get(keyval)
        if step is None or state & (Gdk.ModifierType.CONTROL_MASK | Gdk.ModifierType.ALT_MASK):
            return False
        target = self.item_towards(step)
        if target is not None:
            target.grab_focus()
        self.set_focus_visible(True)
        return True

    def item_towards(self, step: Tuple[int, int]) -> Optional[Gtk.Button]:
        """The nearest item in the step's direction from the focused one, a sideways distance
        counting double: Down from Pen is Undo below it, not Redo."""
        focus = self.get_focus()
        centres = {button: self.centre(button) for button in self.buttons.values()}
        if focus not in centres:
            return next(iter(self.buttons.values()), None)
        here = centres[focus]
        best: Optional[Gtk.Button] = None
        best_score = 0.0
        for button, there in centres.items():
            along = (there[0] - here[0]) * step[0] + (there[1] - here[1]) * step[1]
            across = abs((there[0] - here[0]) * step[1]) + abs((there[1] - here[1]) * step[0])
            if along < 1:
                continue
            score = along + 2 * across
            if best is None or score < best_score:
                best, best_score = button, score
        return best

    def centre(self, button: Gtk.Button) -> Tuple[float, float]:
        found, bounds = button.compute_bounds(self)
        if not found:
            return (0.0, 0.0)
        return (bounds.get_x() + bounds.get_width() / 2, bounds.get_y() + bounds.get_height() / 2)

    def item_places(self) -> Dict[str, Tuple[int, int, int, int]]:
        """Each item's rectangle in the card, in pixels: where a tap takes it."""
        places: Dict[str, Tuple[int, int, int, int]] = {}
        for item_id, button in self.buttons.items():
            found, bounds = button.compute_bounds(self.card)
            if found:
                places[item_id] = (round(bounds.get_x()), round(bounds.get_y()),
                                   round(bounds.get_width()), round(bounds.get_height()))
        return places

    def item_clicked(self, _button: Gtk.Button, item_id: str) -> None:
        if not self.done:
            self.done = True
            self.chosen(item_id)

    def escape_pressed(self, *_args: object) -> bool:
        if not self.done:
            self.done = True
            self.dismissed()
        return True

