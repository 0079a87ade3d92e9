"""The rows and groups the pages are made of, each named for screen readers."""

from __future__ import annotations

from typing import Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

import pencild
from gi.repository import Adw, Gtk

from .model import ACTIONS, CHOICE_ACCESSIBLE, IGNORE_SUBTITLE, Timing


def accessible_label(widget: Gtk.Widget, label: str) -> None:
    """Names the widget for screen readers. A row's activatable widget is labelled by the
    row's title too, which GTK would read with this name: that relation is dropped."""
    widget.reset_relation(Gtk.AccessibleRelation.LABELLED_BY)
    widget.update_property([Gtk.AccessibleProperty.LABEL], [label])


def plain_row(title: str, subtitle: str = "") -> Adw.ActionRow:
    """A row whose title and subtitle are shown as they are. An AdwActionRow reads both as
    Pango markup; text from pencild or a device (a name with & showed empty, one with <b>
    bold) must never be, not even while the row is made."""
    row = Adw.ActionRow(use_markup=False)
    row.set_title(title)
    row.set_subtitle(subtitle)
    return row


def switch_row(title: str, subtitle: str) -> Tuple[Adw.ActionRow, Gtk.Switch]:
    row = Adw.ActionRow(title=title, subtitle=subtitle)
    switch = Gtk.Switch(valign=Gtk.Align.CENTER)
    row.add_suffix(switch)
    row.set_activatable_widget(switch)  # the row's title names it
    return row, switch


def warning_row(title: str = "", subtitle: str = "") -> Adw.ActionRow:
    """A row that says what cannot work, with a warning sign before it."""
    row = plain_row(title, subtitle)
    row.add_prefix(Gtk.Image(icon_name="dialog-warning-symbolic"))
    return row


class TimingRow(Adw.ActionRow):  # type: ignore[misc]
    """A spin button over the range a hand can make (`Timing`). A value pencild has outside
    it (set with pencilctl) is shown as it is, the range widened to hold it, and the row says
    what it does to the gestures; the next change brings it back within the range."""

    def __init__(self, timing: Timing) -> None:
        super().__init__(title=timing.title, subtitle=timing.subtitle)
        self.timing = timing
        self.spin = Gtk.SpinButton.new_with_range(timing.low, timing.high, timing.step)
        self.spin.set_digits(timing.digits)
        self.spin.set_numeric(True)
        self.spin.set_valign(Gtk.Align.CENTER)
        # Added only while there is something to warn of: an empty prefix still takes room.
        self.warning = Gtk.Image(icon_name="dialog-warning-symbolic")
        self.add_suffix(self.spin)
        self.add_suffix(Gtk.Label(label=timing.unit, css_classes=["dim-label"]))
        self.set_activatable_widget(self.spin)
        accessible_label(self.spin, f"{timing.title}, in {timing.unit_name}")

    def show(self, value: float) -> None:
        """Shows pencild's value (the caller holds off value-changed)."""
        timing = self.timing
        self.spin.set_range(min(timing.low, value), max(timing.high, value))
        self.spin.set_value(value)
        problem = self.problem(value)
        if problem is not None and self.warning.get_parent() is None:
            self.add_prefix(self.warning)
        elif problem is None and self.warning.get_parent() is not None:
            self.remove(self.warning)
        # A subtitle is markup: ours has no markup characters.
        self.set_subtitle(problem if problem is not None else timing.subtitle)

    def problem(self, value: float) -> Optional[str]:
        timing = self.timing
        if timing.low <= value <= timing.high:
            return None
        what = timing.too_low if value < timing.low else timing.too_high
        return (f"pencild has {timing.text(value)}: {what}. Choose from {timing.text(timing.low)} "
                f"to {timing.text(timing.high)}")

    def chosen(self) -> float:
        """The value to send: the spin button's, within the hand's range."""
        value: float = min(max(self.spin.get_value(), self.timing.low), self.timing.high)
        return round(value, 1) if self.timing.digits else float(int(round(value)))


class OneOf:
    """One value among toggles that make a group (at most one active): a toggle a person makes
    active reports its value through `changed`; `set_value` shows a value without reporting it."""

    toggles: Mapping[str, Union[Gtk.ToggleButton, Gtk.CheckButton]]
    changed: Callable[[str], None]
    updating = False

    def toggled(self, toggle: Union[Gtk.ToggleButton, Gtk.CheckButton], value: str) -> None:
        if toggle.get_active() and not self.updating:
            self.changed(value)

    def set_value(self, value: str) -> None:
        self.updating = True
        for name, toggle in self.toggles.items():
            toggle.set_active(name == value)
        self.updating = False


class ButtonChoice(OneOf, Adw.PreferencesGroup):  # type: ignore[misc]
    """Which button makes a gesture: linked toggle buttons in a row of their own (as
    Settings' "Primary button", but with room for six), and below them, when the chosen
    button cannot work with the pens attached, why. A button the pens lack cannot be chosen
    (unless it is already the choice): it says why in its tooltip and accessible description."""

    def __init__(self, title: str, description: str, choices: Sequence[Tuple[str, str]],
                 changed: Callable[[str], None], gesture: str) -> None:
        super().__init__(title=title, description=description)
        self.changed = changed
        self.buttons: Dict[str, Gtk.ToggleButton] = {}
        self.toggles = self.buttons
        box = Gtk.Box(css_classes=["linked"], margin_top=12, margin_bottom=12, margin_start=12,
                      margin_end=12)
        group: Optional[Gtk.ToggleButton] = None
        for value, label in choices:
            button = Gtk.ToggleButton(label=label, hexpand=True)
            accessible_label(button, f"{gesture} button: {CHOICE_ACCESSIBLE.get(value, label)}")
            if group is not None:
                button.set_group(group)
            else:
                group = button
            button.connect("toggled", self.toggled, value)
            box.append(button)
            self.buttons[value] = button
        row = Adw.PreferencesRow(activatable=False, child=box)
        row.set_title(f"{gesture} button")  # for screen readers; the row shows its buttons only
        self.add(row)
        self.warning = warning_row()
        self.warning.set_visible(False)
        self.add(self.warning)

    def offer(self, value: str, sensitive: bool, reason: Optional[str]) -> None:
        """Whether a choice can be made, and why not."""
        button = self.buttons[value]
        button.set_sensitive(sensitive)
        button.set_tooltip_text(reason)
        button.update_property([Gtk.AccessibleProperty.DESCRIPTION], [reason or ""])

    def warn(self, title: Optional[str], detail: str = "") -> None:
        self.warning.set_visible(title is not None)
        self.warning.set_title(title or "")
        self.warning.set_subtitle(detail)


class ActionGroup(OneOf, Adw.PreferencesGroup):  # type: ignore[misc]
    """The preferred action of one gesture, as radio rows (as Settings › Apple Pencil)."""

    def __init__(self, title: str, description: str, changed: Callable[[str], None], gesture: str) -> None:
        super().__init__(title=title, description=description)
        self.changed = changed
        self.checks: Dict[str, Gtk.CheckButton] = {}
        self.toggles = self.checks
        first: Optional[Gtk.CheckButton] = None
        for action, name in ACTIONS:
            row = Adw.ActionRow(title=name)
            if action == pencild.Action.IGNORE:
                # Not the same as the button's Off: the gesture is still made, its clicks kept.
                row.set_subtitle(IGNORE_SUBTITLE)
            check = Gtk.CheckButton(valign=Gtk.Align.CENTER)
            if first is not None:
                check.set_group(first)
            else:
                first = check
            check.connect("toggled", self.toggled, action.value)
            row.add_prefix(check)
            row.set_activatable_widget(check)
            accessible_label(check, f"{gesture}: {name}")
            self.add(row)
            self.checks[action.value] = check
