"""Which Krita action each preferred action triggers: the artist's choice among all of
Krita's actions (as Krita's own S-Pen settings offer), kept in Krita's settings (kritarc,
group [pencild_krita]); where nothing is chosen, the plugin's default."""

from __future__ import annotations

from typing import Dict, List, Tuple

from krita import Krita

SETTINGS_GROUP = "pencild_krita"
# The five preferred actions an app does (the protocol's others, ignore and
# runSystemShortcut, are not an app's to do).
PREFERRED = ["switchEraser", "switchPrevious", "showColorPalette", "showInkAttributes", "showContextualPalette"]
# Krita's pop-up palette has no action in Krita 5.1: the plugin's own, under this name.
POPUP_PALETTE = "pencild_popup_palette"
DEFAULTS: Dict[str, str] = {
    "switchEraser": "erase_action",
    "switchPrevious": "previous_preset",
    "showColorPalette": "show_color_selector",
    "showInkAttributes": "show_brush_editor",
    "showContextualPalette": POPUP_PALETTE,
}
DESCRIPTIONS: Dict[str, str] = {
    "switchEraser": "Switch eraser",
    "switchPrevious": "Switch to the previous tool",
    "showColorPalette": "Show the colour palette",
    "showInkAttributes": "Show ink attributes",
    "showContextualPalette": "Show the contextual palette",
}
# The plugin's actions that do a preferred action by hand: bound to one, they would loop.
HAND_ACTIONS = {
    "pencild_switch_eraser": "switchEraser",
    "pencild_switch_previous": "switchPrevious",
    "pencild_show_color_palette": "showColorPalette",
    "pencild_show_ink_attributes": "showInkAttributes",
    "pencild_show_contextual_palette": "showContextualPalette",
}


def _key(preferred: str) -> str:
    return f"binding_{preferred}"


def binding(preferred: str) -> str:
    """The Krita action's name for ``preferred``: the artist's, else the default."""
    chosen = Krita.instance().readSetting(SETTINGS_GROUP, _key(preferred), "")
    return chosen or DEFAULTS.get(preferred, "")


def is_default(preferred: str) -> bool:
    return binding(preferred) == DEFAULTS.get(preferred)


def set_binding(preferred: str, name: str) -> None:
    """Keeps the choice; the default is kept as no choice, so that it follows the plugin."""
    Krita.instance().writeSetting(SETTINGS_GROUP, _key(preferred), "" if name == DEFAULTS.get(preferred) else name)


def bindable(name: str) -> bool:
    return bool(name) and name not in HAND_ACTIONS


def label(name: str) -> str:
    """An action as the artist reads it: its text in Krita's menus, and its name."""
    if name == POPUP_PALETTE:
        return f"Krita's pop-up palette ({name})"
    action = Krita.instance().action(name)
    text = action.text().replace("&", "") if action is not None else ""
    return f"{text} ({name})" if text else name


def choices() -> List[Tuple[str, str]]:
    """Every action a preferred action may trigger, as (label, name), by label."""
    found: Dict[str, str] = {POPUP_PALETTE: label(POPUP_PALETTE)}
    for action in Krita.instance().actions():
        name = action.objectName()
        if bindable(name) and name not in found:
            text = action.text().replace("&", "")
            found[name] = f"{text} ({name})" if text else name
    return sorted(((text, name) for name, text in found.items()), key=lambda item: item[0].casefold())


def resolve(typed: str) -> str:
    """The action's name for what the artist typed or picked: a name, or a label."""
    typed = typed.strip()
    if typed.endswith(")") and "(" in typed:
        typed = typed[typed.rindex("(") + 1:-1]
    if typed == POPUP_PALETTE or (bindable(typed) and Krita.instance().action(typed) is not None):
        return typed
    return ""
