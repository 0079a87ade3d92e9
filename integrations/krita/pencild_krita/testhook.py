"""For the tests only, and only when PENCILD_KRITA_TEST_STATE names a file: Krita's state as
the plugin sees it, written to that file (a temporary file renamed over it, so a reader
never sees half of it) after each change. Commands are files named as the state file with
a suffix, taken when they appear: `.quit` ends Krita; `.mark` starts anew the longest time
Krita's thread went without running its event loop (`longestStall`); `.docker` floats the
plugin's docker at the screen's right, large enough to read; `.look` adds what
costs too much to gather at every change (where the test's buttons are on the screen, a
digest of the image's pixels) and counts itself in `looks`; `.shot` saves Krita's window as
Qt draws it, the state file's name with `.png` added, and counts itself in `shots`."""

from __future__ import annotations

import hashlib
import json
import os
import time
from typing import Any, Dict, List

from krita import Krita

from . import bindings, palette, qt
from .docker import shown_labels, status_text
from .link import PencildLink
from .qt import QApplication, QFileSystemWatcher, QLabel, QRegularExpression, Qt, QTextDocument, QTimer, QWidget

VARIABLE = "PENCILD_KRITA_TEST_STATE"
# The event loop is expected to turn this often; a longer gap is a stall.
TICK_MS = 20
# Widgets whose place on the screen the test clicks at, by object name.
PLACES = QRegularExpression("^(pencild_bindings|pencild_reconnect|pencild_bindings_ok|binding_[A-Za-z]+)$")


def shown_text(label: QLabel) -> str:
    """What a label shows: its text as it is, or, where Qt reads the text as rich text (as
    Qt.AutoText does when the first line looks like HTML), what is left once the tags are
    taken as tags."""
    text = label.text()
    form = label.textFormat()
    if form == Qt.TextFormat.RichText or (form == Qt.TextFormat.AutoText and Qt.mightBeRichText(text)):
        document = QTextDocument()
        document.setHtml(text)
        return document.toPlainText()
    return text


def screen_rect(widget: QWidget) -> List[int]:
    corner = widget.mapToGlobal(widget.rect().topLeft())
    return [corner.x(), corner.y(), widget.width(), widget.height()]


class TestHook:
    def __init__(self, link: PencildLink, path: str) -> None:
        self.link = link
        self.path = path
        self.gestures: List[Dict[str, Any]] = []
        # Written once the event loop has run the other slots (the docker's among them), so
        # that what the file says of the docker is what it shows.
        link.changed.connect(self.write_soon)
        link.gesture.connect(self.gesture)
        # The folder is watched, not polled: the quit and mark files' appearance wakes us.
        self.watcher = QFileSystemWatcher([os.path.dirname(os.path.abspath(path))])
        self.watcher.directoryChanged.connect(self.command)
        self.longest_stall = 0.0
        self.looks = 0
        self.shots = 0
        self.look: Dict[str, Any] = {}
        self.last_tick = time.monotonic()
        self.ticker = QTimer()
        self.ticker.timeout.connect(self.tick)
        self.ticker.start(TICK_MS)

    def tick(self) -> None:
        now = time.monotonic()
        self.longest_stall = max(self.longest_stall, now - self.last_tick - TICK_MS / 1000)
        self.last_tick = now

    def command(self, *_: object) -> None:
        if os.path.exists(self.path + ".quit"):
            # Krita's scripting has no quit; closing windows would ask about the document.
            os._exit(0)
        if os.path.exists(self.path + ".mark"):
            os.unlink(self.path + ".mark")
            self.longest_stall = 0.0
            self.last_tick = time.monotonic()
            self.write_soon()
        if os.path.exists(self.path + ".docker"):
            # As a person drags the docker out to read it: floating, at the screen's right.
            os.unlink(self.path + ".docker")
            for docker in Krita.instance().dockers():
                if docker.objectName() == "pencild_krita_docker":
                    docker.show()
                    docker.setFloating(True)
                    docker.setGeometry(820, 420, 450, 370)
            self.write_soon()
        if os.path.exists(self.path + ".shot"):
            os.unlink(self.path + ".shot")
            window = Krita.instance().activeWindow()
            if window is not None and window.qwindow().grab().save(self.path + ".png"):
                self.shots += 1
            self.write_soon()
        if os.path.exists(self.path + ".look"):
            os.unlink(self.path + ".look")
            self.looks += 1
            self.look = {"places": self.places(), **self.image()}
            self.write_soon()

    def gesture(self, event: Any, acted: bool) -> None:
        record = {
            "type": str(event.type), "action": str(event.action),
            "focus": str(event.focus) if event.focus is not None else None, "acted": acted,
            "result": self.link.last_result, **self.krita_state(),
        }
        # The docker as it shows when the gesture is told (the link refreshes it first).
        record["docker"] = [shown_text(label) for label in shown_labels()]
        self.gestures.append(record)
        self.write_soon()

    def write_soon(self) -> None:
        QTimer.singleShot(0, self.write)

    def krita_state(self) -> Dict[str, Any]:
        erase = Krita.instance().action("erase_action")
        mirror = Krita.instance().action("mirror_canvas")
        shown = palette.popup_palette()
        state: Dict[str, Any] = {
            "eraser": bool(erase is not None and erase.isChecked()),
            "mirrorCanvas": bool(mirror is not None and mirror.isChecked()),
            "popupPalette": bool(shown is not None and shown.isVisible()),
            "paletteWay": palette.keeper().last_way,
            "windows": sorted(widget.metaObject().className() for widget in QApplication.topLevelWidgets()
                              if widget.isVisible()),
            "dockers": sorted(docker.objectName() for docker in Krita.instance().dockers() if docker.isVisible()),
        }
        for docker in Krita.instance().dockers():
            if docker.objectName() == "pencild_krita_docker" and docker.isVisible():
                state["dockerRect"] = screen_rect(docker)
        if shown is not None:
            state["paletteRect"] = screen_rect(shown) if shown.isVisible() else None
            state["canvasRect"] = screen_rect(shown.parentWidget())
        return state

    def image(self) -> Dict[str, str]:
        document = Krita.instance().activeDocument()
        if document is None:
            return {}
        # What the canvas holds, to tell whether a click painted (once Krita has done it).
        document.waitForDone()
        pixels = document.pixelData(0, 0, document.width(), document.height())
        return {"imageHash": hashlib.sha1(bytes(pixels)).hexdigest()}

    def places(self) -> Dict[str, List[int]]:
        found: Dict[str, List[int]] = {}
        for top in QApplication.topLevelWidgets():
            if top.isVisible():
                for widget in top.findChildren(QWidget, PLACES):
                    if widget.isVisible() and widget.objectName() not in found:
                        found[widget.objectName()] = screen_rect(widget)
        return found

    def write(self) -> None:
        labels = shown_labels()
        state = {
            "ready": True, "connection": self.link.state, "detail": self.link.detail,
            "socket": self.link.socket_path,
            "status": status_text(self.link), "dockerTexts": [label.text() for label in labels],
            "dockerShown": [shown_text(label) for label in labels],
            "pens": sorted(self.link.devices.values()), "preferences": self.link.preferences,
            "active": self.link.focus_wanted, "focusClaimed": self.link.focus_claimed,
            "focusHandlerSeconds": self.link.focus_handler_seconds, "longestStall": self.longest_stall,
            "bindings": {preferred: bindings.binding(preferred) for preferred in bindings.PREFERRED},
            "looks": self.looks, "shots": self.shots, **self.look, "gestures": self.gestures, **self.krita_state(),
            "qt": f"{qt.BINDING} {qt.QtCore.PYQT_VERSION_STR}, Qt {qt.QtCore.qVersion()}",
        }
        temporary = self.path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump(state, file, indent=1, sort_keys=True)
        os.replace(temporary, self.path)
