"""The preferred actions, done with Krita's own actions (krita/krita.action in Krita's
sources), looked up by name when a gesture comes, since some exist only while a view is
open. Each function returns a short sentence saying what it did, for the docker."""

from __future__ import annotations

from typing import Optional

from krita import Krita
from PyQt5.QtCore import QPoint
from PyQt5.QtGui import QCursor
from PyQt5.QtWidgets import QWidget

# Krita 5.1 has no action or script call for its pop-up palette: it is a child widget of
# each canvas, of this class, shown and hidden by the canvas input (right click by default).
POPUP_PALETTE_CLASS = "KisPopupPalette"
# The docker that holds the colour selector when its pop-up action is not there.
COLOR_SELECTOR_DOCKER = "ColorSelectorNg"


def trigger(name: str) -> bool:
    action = Krita.instance().action(name)
    if action is None:
        return False
    action.trigger()
    return True


def popup_palette() -> Optional[QWidget]:
    """The pop-up palette of the canvas shown in the active window, if a document is open."""
    window = Krita.instance().activeWindow()
    if window is None or window.qwindow() is None:
        return None
    for widget in window.qwindow().findChildren(QWidget):
        if widget.metaObject().className() == POPUP_PALETTE_CLASS:
            canvas = widget.parentWidget()
            if canvas is not None and canvas.isVisible():
                return widget
    return None


def toggle_popup_palette() -> bool:
    """Shows the pop-up palette centred under the pen, or hides it, as Krita's own right
    click does. The pen moves the pointer, so the pointer is where the pen is."""
    palette = popup_palette()
    if palette is None:
        return False
    if palette.isVisible():
        palette.hide()
        return True
    canvas = palette.parentWidget()
    size = palette.sizeHint() if palette.width() <= 0 else palette.size()
    under = canvas.mapFromGlobal(QCursor.pos())
    if not canvas.rect().contains(under):
        under = canvas.rect().center()
    # Kept inside the canvas, as Krita keeps it.
    x = min(max(under.x() - size.width() // 2, 0), max(canvas.width() - size.width(), 0))
    y = min(max(under.y() - size.height() // 2, 0), max(canvas.height() - size.height(), 0))
    palette.move(QPoint(x, y))
    palette.show()
    palette.raise_()
    return True


def show_color_selector() -> str:
    # `show_color_selector` (Shift+I) is registered by the Advanced Color Selector docker
    # once a canvas exists: it pops the selector up under the pointer.
    if trigger("show_color_selector"):
        return "colour selector shown (show_color_selector)"
    for docker in Krita.instance().dockers():
        if docker.objectName() == COLOR_SELECTOR_DOCKER:
            docker.show()
            docker.raise_()
            return "colour selector docker shown"
    return "no colour selector in this Krita"


def perform(action: str, event: object = None) -> str:
    """Does the preferred action; `runSystemShortcut` and `ignore` are not Krita's to do."""
    if action == "switchEraser":
        return "eraser mode toggled (erase_action)" if trigger("erase_action") else "no erase_action"
    if action == "switchPrevious":
        return "previous preset (previous_preset)" if trigger("previous_preset") else "no previous_preset"
    if action == "showColorPalette":
        return show_color_selector()
    if action == "showInkAttributes":
        return "brush editor (show_brush_editor)" if trigger("show_brush_editor") else "no show_brush_editor"
    if action == "showContextualPalette":
        if toggle_popup_palette():
            return "pop-up palette toggled"
        # Without an open document there is no canvas, hence no pop-up palette.
        return "brush presets (show_brush_presets)" if trigger("show_brush_presets") else "no show_brush_presets"
    return f"nothing to do for {action}"
