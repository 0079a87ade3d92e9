"""A small docker: whether pencild answers, the pens, and the user's preferred actions."""

from __future__ import annotations

from krita import DockWidget
from PyQt5.QtCore import Qt
from PyQt5.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from . import link as pencil_link
from .shared import get_link

TITLE = "Pen gestures"


def status_text(link: pencil_link.PencildLink) -> str:
    """The docker's text, also what the test hook reports."""
    if link.state == pencil_link.UNAVAILABLE:
        return f"pencild: cannot be used: {link.detail}"
    if link.state == pencil_link.UNREACHABLE:
        return f"pencild: not reachable ({link.detail}); trying again"
    if link.state == pencil_link.CONNECTING:
        return "pencild: connecting"
    lines = ["pencild: connected"]
    if link.focus_unsupported:
        lines.append("focus: this pencild takes no claim; Krita acts while it is in front")
    else:
        lines.append("focus: Krita's" if link.focus_claimed else "focus: another app's (Krita is not in front)")
    names = pencil_link.pens(link)
    lines.append("pens: " + (", ".join(names) if names else "none attached"))
    preferences = link.preferences
    lines.append(f"double-tap: {preferences.get('doubleTapAction', '?')}")
    lines.append(f"squeeze: {preferences.get('squeezeAction', '?')}")
    if link.last_result:
        lines.append(f"last gesture: {link.last_result}")
    return "\n".join(lines)


class PencilDocker(DockWidget):
    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(TITLE)
        body = QWidget(self)
        layout = QVBoxLayout(body)
        self.label = QLabel(body)
        self.label.setObjectName("pencild_status")
        # The text carries pens' names and pencild's errors: shown as they are. Left to guess,
        # Qt reads a text whose first line has a tag as rich text.
        self.label.setTextFormat(Qt.PlainText)
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        button = QPushButton("Reconnect", body)
        layout.addWidget(button)
        layout.addStretch(1)
        self.setWidget(body)
        self.link = get_link()
        button.clicked.connect(self.link.reconnect)
        self.link.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        self.label.setText(status_text(self.link))

    def canvasChanged(self, canvas: object) -> None:  # noqa: N802 (Krita's name)
        pass
