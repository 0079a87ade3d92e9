"""Pen gestures in Krita through pencild: the double-tap and the squeeze of a tablet pen do
the user's preferred action with Krita's own actions, while a Krita window is in front."""

from __future__ import annotations

import os

from krita import DockWidgetFactory, DockWidgetFactoryBase, Extension, Krita
from PyQt5.QtCore import QTimer, Qt
from PyQt5.QtWidgets import QApplication

from . import actions
from .docker import PencilDocker
from .shared import get_link

# Entries of Krita's shortcut editor (Settings > Configure Krita > Keyboard Shortcuts, under
# Scripts): each preferred action by hand, and a reconnection.
HAND_ACTIONS = [
    ("pencild_switch_eraser", "Pencil: switch eraser", "switchEraser"),
    ("pencild_switch_previous", "Pencil: previous preset", "switchPrevious"),
    ("pencild_show_color_palette", "Pencil: show colour palette", "showColorPalette"),
    ("pencild_show_ink_attributes", "Pencil: show brush editor", "showInkAttributes"),
    ("pencild_show_contextual_palette", "Pencil: show pop-up palette", "showContextualPalette"),
]


class PencilExtension(Extension):
    def __init__(self, parent: object) -> None:
        super().__init__(parent)
        self.link = get_link()
        self.hook = None

    def setup(self) -> None:
        from . import testhook
        path = os.environ.get(testhook.VARIABLE)
        if path:
            self.hook = testhook.TestHook(self.link, path)
        application = QApplication.instance()
        application.applicationStateChanged.connect(self.follow_focus)
        application.focusWindowChanged.connect(self.follow_focus)
        application.aboutToQuit.connect(self.link.stop)
        # Started from the event loop, once Krita's window exists.
        QTimer.singleShot(0, self.start)

    def start(self) -> None:
        self.link.start()
        self.follow_focus()
        if self.hook is not None:
            self.hook.write()

    def follow_focus(self, *_: object) -> None:
        """Krita is in front while one of its windows (the main one, a dialog, a pop-up) is
        the active window: the application's state says exactly that."""
        self.link.set_active(QApplication.applicationState() == Qt.ApplicationActive)

    def createActions(self, window: object) -> None:  # noqa: N802 (Krita's name)
        reconnect = window.createAction("pencild_reconnect", "Pencil: reconnect to pencild", "tools/scripts")
        reconnect.triggered.connect(self.link.reconnect)
        for name, text, preferred in HAND_ACTIONS:
            action = window.createAction(name, text, "tools/scripts")
            action.triggered.connect(lambda _checked=False, what=preferred: actions.perform(what))


Krita.instance().addExtension(PencilExtension(Krita.instance()))
Krita.instance().addDockWidgetFactory(
    DockWidgetFactory("pencild_krita_docker", DockWidgetFactoryBase.DockRight, PencilDocker))
