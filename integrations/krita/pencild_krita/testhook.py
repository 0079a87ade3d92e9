"""For the tests only, and only when PENCILD_KRITA_TEST_STATE names a file: Krita's state as
the plugin sees it, written to that file (a temporary file renamed over it, so a reader
never sees half of it) after each change; and an end to Krita when the file's name with
`.quit` appended appears."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List

from krita import Krita
from PyQt5.QtCore import QFileSystemWatcher, Qt, QTimer
from PyQt5.QtGui import QTextDocument
from PyQt5.QtWidgets import QApplication, QLabel

from . import actions
from .docker import status_text
from .link import PencildLink

VARIABLE = "PENCILD_KRITA_TEST_STATE"


def shown_text(label: QLabel) -> str:
    """What a label shows: its text as it is, or, where Qt reads the text as rich text (as
    Qt.AutoText does when the first line looks like HTML), what is left once the tags are
    taken as tags."""
    text = label.text()
    form = label.textFormat()
    if form == Qt.RichText or (form == Qt.AutoText and Qt.mightBeRichText(text)):
        document = QTextDocument()
        document.setHtml(text)
        return document.toPlainText()
    return text


class TestHook:
    def __init__(self, link: PencildLink, path: str) -> None:
        self.link = link
        self.path = path
        self.gestures: List[Dict[str, Any]] = []
        # Written once the event loop has run the other slots (the docker's among them), so
        # that what the file says of the docker is what it shows.
        link.changed.connect(self.write_soon)
        link.gesture.connect(self.gesture)
        # The folder is watched, not polled: the quit file's appearance wakes us.
        self.watcher = QFileSystemWatcher([os.path.dirname(os.path.abspath(path))])
        self.watcher.directoryChanged.connect(self.maybe_quit)

    def maybe_quit(self, *_: object) -> None:
        if os.path.exists(self.path + ".quit"):
            # Krita's scripting has no quit; closing windows would ask about the document.
            os._exit(0)

    def gesture(self, event: object, acted: bool) -> None:
        self.gestures.append({
            "type": str(event.type), "action": str(event.action),
            "focus": str(event.focus) if event.focus is not None else None, "acted": acted,
            "result": self.link.last_result if acted else "", **self.krita_state(),
        })
        self.write_soon()

    def write_soon(self) -> None:
        QTimer.singleShot(0, self.write)

    def krita_state(self) -> Dict[str, Any]:
        erase = Krita.instance().action("erase_action")
        palette = actions.popup_palette()
        return {
            "eraser": bool(erase is not None and erase.isChecked()),
            "popupPalette": bool(palette is not None and palette.isVisible()),
            "windows": sorted(widget.metaObject().className() for widget in QApplication.topLevelWidgets()
                              if widget.isVisible()),
            "dockers": sorted(docker.objectName() for docker in Krita.instance().dockers() if docker.isVisible()),
        }

    def write(self) -> None:
        labels = [label for widget in QApplication.topLevelWidgets()
                  for label in widget.findChildren(QLabel, "pencild_status")]
        state = {
            "ready": True, "connection": self.link.state, "detail": self.link.detail,
            "status": status_text(self.link), "dockerTexts": [label.text() for label in labels],
            "dockerShown": [shown_text(label) for label in labels],
            "pens": sorted(self.link.devices.values()), "preferences": self.link.preferences,
            "active": self.link.focus_wanted, "focusClaimed": self.link.focus_claimed,
            "gestures": self.gestures, **self.krita_state(),
        }
        temporary = self.path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump(state, file, indent=1, sort_keys=True)
        os.replace(temporary, self.path)
