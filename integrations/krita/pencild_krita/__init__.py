"""Pen gestures in Krita through pencild: the double-tap and the squeeze of a tablet pen do
the user's preferred action with Krita's own actions, while a Krita window is in front."""

from __future__ import annotations

import os
import time

from krita import DockWidgetFactory, DockWidgetFactoryBase, Extension, Krita

from . import actions, bindings, palette
from .docker import PencilDocker
from .qt import QApplication, Qt, QTimer
from .shared import get_link

# Entries of Krita's shortcut editor (Settings > Configure Krita > Keyboard Shortcuts, under
# Scripts): each preferred action by hand (doing what a gesture with it does), Krita's
# pop-up palette as the plugin opens it, and a reconnection.
HAND_ACTIONS = [
    (name, f"Pencil: {bindings.DESCRIPTIONS[preferred].lower()} ({preferred})", preferred)
    for name, preferred in bindings.HAND_ACTIONS.items()
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
        # The canvases and their palettes, followed as views come (palette.py).
        notifier = Krita.instance().notifier()
        notifier.windowCreated.connect(palette.keeper().watch_soon)
        notifier.viewCreated.connect(palette.keeper().watch_soon)
        # Started from the event loop, once Krita's window exists.
        QTimer.singleShot(0, self.start)

    def start(self) -> None:
        self.link.start()
        palette.keeper().watch()
        self.follow_focus()
        if self.hook is not None:
            self.hook.write()

    def follow_focus(self, *_: object) -> None:
        """Krita is in front while one of its windows (the main one, a dialog, a pop-up) is
        the active window: the application's state says exactly that."""
        began = time.monotonic()
        self.link.set_active(QApplication.applicationState() == Qt.ApplicationState.ApplicationActive)
        # Krita's thread must not wait on pencild here: the docker and the test hook say how long it took.
        self.link.focus_handler_seconds = time.monotonic() - began

    def createActions(self, window: object) -> None:  # noqa: N802 (Krita's name)
        reconnect = window.createAction("pencild_reconnect", "Pencil: reconnect to pencild", "tools/scripts")
        reconnect.triggered.connect(self.link.reconnect)
        for name, text, preferred in HAND_ACTIONS:
            action = window.createAction(name, text, "tools/scripts")
            action.triggered.connect(lambda _checked=False, what=preferred: actions.perform(what))
        popup = window.createAction(bindings.POPUP_PALETTE, "Pencil: Krita's pop-up palette", "tools/scripts")
        popup.triggered.connect(lambda _checked=False: actions.show_popup_palette())


Krita.instance().addExtension(PencilExtension(Krita.instance()))
Krita.instance().addDockWidgetFactory(
    DockWidgetFactory("pencild_krita_docker", DockWidgetFactoryBase.DockPosition.DockRight, PencilDocker))
