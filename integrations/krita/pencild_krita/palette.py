"""Krita's pop-up palette, opened the way Krita's own Canvas Input opens it.

Krita 5.1 has no action for its pop-up palette: its Canvas Input opens it on a button (the
right click by default) and then owns it: the next press on the canvas closes it and goes
no further. A palette shown by hand (QWidget.show()) is not Krita's in that sense: a click
outside painted through and left it open. So the plugin hands the canvas the press and
release of that button, and Krita opens its palette as its own. Krita reads the pen as
tablet events and then drops mouse events, so the press is a tablet event while the pen is
what moved last over the canvas, and a mouse event otherwise. Escape, which Krita 5.1
leaves alone, closes the palette too.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from krita import Krita

from . import canvas_input, qt
from .qt import (
    QApplication, QCursor, QEvent, QMouseEvent, QObject, QPoint, QPointF, QStandardPaths, Qt, QTimer, QWidget, sip,
)

# The class of the palette, a child widget of each canvas.
POPUP_PALETTE_CLASS = "KisPopupPalette"

_TABLET_EVENTS = (QEvent.Type.TabletMove, QEvent.Type.TabletPress, QEvent.Type.TabletRelease,
                  QEvent.Type.TabletEnterProximity)
_MOUSE_EVENTS = (QEvent.Type.MouseMove, QEvent.Type.MouseButtonPress)
_KEY_EVENTS = (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress, QEvent.Type.KeyRelease)


# The palettes found so far: looking through every widget of a window takes a tenth of a
# second, too long to do at each gesture. (Krita deletes them with their views.)
_known: List[QWidget] = []


def _alive(widgets: List[QWidget]) -> List[QWidget]:
    widgets[:] = [widget for widget in widgets if not sip.isdeleted(widget)]
    return list(widgets)


def _scan(window: QWidget) -> List[QWidget]:
    found = [w for w in window.findChildren(QWidget) if _is_palette(w)]
    _known.extend(w for w in found if w not in _known)
    return found


def popup_palette() -> Optional[QWidget]:
    """The pop-up palette of the canvas shown in the active window, if a document is open."""
    window = Krita.instance().activeWindow()
    if window is None or window.qwindow() is None:
        return None
    top = window.qwindow()
    for widgets in (_alive(_known), None):
        for widget in widgets if widgets is not None else _scan(top):
            canvas = widget.parentWidget()
            if canvas is not None and canvas.isVisible() and widget.window() is top:
                return widget
    return None


def popup_buttons() -> Tuple[int, ...]:
    """The buttons on which Krita's Canvas Input opens the palette, from the profile in use."""
    folders = QStandardPaths.locateAll(QStandardPaths.StandardLocation.GenericDataLocation, "krita/input",
                                       QStandardPaths.LocateOption.LocateDirectory)
    name = Krita.instance().readSetting("", "currentInputProfile", "")
    return canvas_input.popup_buttons(canvas_input.find_profile(name, folders))


class PaletteKeeper(QObject):
    """Watches the canvases (which device moved last) and the palettes (shown: Escape closes
    them), and opens the palette through the canvas."""

    def __init__(self) -> None:
        super().__init__()
        self.pen_moved_last = False
        self.pen: Optional[str] = None  # the pen that moved last, as Qt 6 knows it
        self._escape_watch = False
        self._eating_escape = False
        self._watched: List[QWidget] = []
        self.last_way = ""  # how the palette was last opened: "tablet", "mouse" or "shown"

    def watch(self, *_: object) -> None:
        """Follows every canvas and palette of every window (again after views change)."""
        for window in Krita.instance().windows():
            if window.qwindow() is None:
                continue
            for widget in _scan(window.qwindow()):
                # Installing again only moves the filter to the front.
                widget.installEventFilter(self)
                if widget not in self._watched:
                    self._watched.append(widget)
                if widget.parentWidget() is not None:
                    widget.parentWidget().installEventFilter(self)

    def watch_soon(self, *_: object) -> None:
        # A view's canvas exists only once the view is made.
        QTimer.singleShot(0, self.watch)

    # --- what the person does -----------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind in _TABLET_EVENTS:
            self.pen_moved_last = True
            self.pen = qt.tablet_device(event)
        elif kind in _MOUSE_EVENTS and qt.mouse_is_the_mouse(event):
            self.pen_moved_last = False
        elif kind == QEvent.Type.TabletLeaveProximity:
            self.pen_moved_last = False
        elif kind == QEvent.Type.Show and _is_palette(watched):
            self._watch_escape(True)
        elif kind == QEvent.Type.Hide and _is_palette(watched):
            self._watch_escape(False)
        elif kind in _KEY_EVENTS and event.key() == Qt.Key.Key_Escape:
            return self._escape(kind, event)
        return False

    def _watch_escape(self, on: bool) -> None:
        """Escape may come to any widget with the keyboard focus: the application is watched
        while a palette is shown, and only then."""
        if on and not self._escape_watch:
            QApplication.instance().installEventFilter(self)
        elif not on and self._escape_watch and not any(p.isVisible() for p in self._palettes()):
            QApplication.instance().removeEventFilter(self)
        else:
            return
        self._escape_watch = on

    def _escape(self, kind: int, event: QEvent) -> bool:
        shown = [palette for palette in self._palettes() if palette.isVisible()]
        if kind == QEvent.Type.ShortcutOverride:
            if shown:
                event.accept()  # no shortcut: the key press comes, and is the palette's
            return bool(shown)
        if kind == QEvent.Type.KeyPress and shown:
            for palette in shown:
                palette.hide()  # what Krita's dismiss() does
            self._eating_escape = True
            return True
        if kind == QEvent.Type.KeyRelease and self._eating_escape:
            self._eating_escape = False
            return True
        return False

    def _palettes(self) -> List[QWidget]:
        return _alive(_known)

    # --- opening it -----------------------------------------------------------------------

    def toggle(self) -> Optional[str]:
        """Opens the palette under the pen as Krita's Canvas Input does, or closes it; a
        sentence saying what was done, or None when no canvas is open."""
        palette = popup_palette()
        if palette is None:
            return None
        if not self._watches(palette):
            self.watch()
        if palette.isVisible():
            palette.hide()  # what Krita's dismiss() does; a press outside would do the same
            return "Krita's pop-up palette closed"
        buttons = popup_buttons()
        canvas = palette.parentWidget()
        local = canvas.mapFromGlobal(QCursor.pos())
        if not canvas.rect().contains(local):
            local = canvas.rect().center()
        if not buttons:
            # Krita's Canvas Input opens it on no button: shown as it stands, which Krita
            # does not close on a click outside (Escape still does).
            palette.move(QPoint(max(local.x() - palette.width() // 2, 0), max(local.y() - palette.height() // 2, 0)))
            palette.show()
            palette.raise_()
            self.last_way = "shown"
            return "pop-up palette shown (Krita's Canvas Input has no button for it)"
        self._press(canvas, local, buttons[0], tablet=self.pen_moved_last)
        if not palette.isVisible():
            return f"Krita did not open its pop-up palette (its {canvas_input.BUTTON_NAMES.get(buttons[0], 'button')} " \
                   "does something else with this tool)"
        return "Krita's pop-up palette opened"

    def _watches(self, palette: QWidget) -> bool:
        return palette in _alive(self._watched)

    def _press(self, canvas: QWidget, local: QPoint, button: int, tablet: bool) -> None:
        """A press and a release of ``button`` on the canvas, as the pen or the mouse gives
        them: Krita's Canvas Input acts on them as on the person's own."""
        where, screen = QPointF(local), QPointF(canvas.mapToGlobal(local))
        qt_button = Qt.MouseButton(button)
        if tablet:
            events = [qt.tablet_event(QEvent.Type.TabletPress, where, screen, qt_button, button, self.pen),
                      qt.tablet_event(QEvent.Type.TabletRelease, where, screen, qt_button, 0, self.pen)]
        else:
            none = Qt.KeyboardModifier.NoModifier
            events = [QMouseEvent(QEvent.Type.MouseButtonPress, where, screen, qt_button, qt.mouse_buttons(button), none),
                      QMouseEvent(QEvent.Type.MouseButtonRelease, where, screen, qt_button, Qt.MouseButton.NoButton, none)]
        self.last_way = "tablet" if tablet else "mouse"
        for event in events:
            QApplication.sendEvent(canvas, event)


def _is_palette(widget: QObject) -> bool:
    return isinstance(widget, QWidget) and widget.metaObject().className() == POPUP_PALETTE_CLASS


_keeper: Optional[PaletteKeeper] = None


def keeper() -> PaletteKeeper:
    global _keeper
    if _keeper is None:
        _keeper = PaletteKeeper()
    return _keeper


def toggle() -> Optional[str]:
    return keeper().toggle()
