"""A small docker: whether pencild answers, the pens, what each gesture does in Krita (and
when it is Krita's own to do), the last gesture, and the artist's choice of Krita action
for each preferred action."""

from __future__ import annotations

import re
from typing import List, Optional

from krita import DockWidget

from . import bindings
from . import link as pencil_link
from .qt import QHBoxLayout, QLabel, QPushButton, Qt, QVBoxLayout, QWidget, sip
from .shared import get_link

TITLE = "Pen gestures"
# Every docker's status label (one per window), for the test hook.
_labels: List[QLabel] = []


def shown_labels() -> List[QLabel]:
    _labels[:] = [label for label in _labels if not sip.isdeleted(label)]
    return list(_labels)


def gesture_word(kind: str) -> str:
    """A gesture as a person reads it: doubleTap is a double-tap."""
    return re.sub("([A-Z])", lambda capital: "-" + capital.group(1).lower(), kind)


def focus_text(link: pencil_link.PencildLink) -> str:
    if link.focus_unsupported:
        return "focus: this pencild takes no claim; Krita acts while it is in front"
    waiting = f" (pencild has not answered: {link.focus_error})" if link.focus_error else ""
    if link.focus_wanted:
        if link.focus_claimed is True:
            return "focus: Krita's (Krita is in front)"
        return f"focus: claiming it for Krita, which is in front{waiting or ' (asked)'}"
    if link.focus_claimed is False:
        return "focus: another app's (Krita is not in front)"
    return f"focus: giving it up, Krita is not in front{waiting or ' (asked)'}"


def gesture_text(link: pencil_link.PencildLink, kind: str) -> str:
    """What the gesture does here: the preferred action and the Krita action bound to it, or
    why Krita does it itself."""
    preferences = link.preferences
    action = preferences.get(kind + "Action", "?")
    head = f"{gesture_word(kind)}: {action}"
    shared = link.shared_button(kind)
    if shared is not None:
        return (f"{head}, left to Krita: {shared} is also Krita's {link.popup_click()}, on which Krita opens its "
                f"pop-up palette itself (for the {gesture_word(kind)} to be the plugin's alone: pencilctl prefs set "
                "withholdGestureClicks=true)")
    if action in bindings.PREFERRED:
        return f"{head} → {bindings.label(bindings.binding(action))}"
    return f"{head} (nothing for Krita to do)"


def status_text(link: pencil_link.PencildLink) -> str:
    """The docker's text, also what the test hook reports."""
    if link.state == pencil_link.UNAVAILABLE:
        return f"pencild: cannot be used: {link.detail}"
    if link.state == pencil_link.UNREACHABLE:
        places = ", then ".join(pencil_link.looked_for())
        lines = [f"pencild: not reachable: {link.detail}",
                 f"Looking for it at {places}, every few seconds.",
                 "To start it for everyone: sudo systemctl start pencild.socket",
                 "For you alone: systemctl --user start pencild.socket"]
    elif link.state == pencil_link.CONNECTING:
        lines = ["pencild: connecting"]
    else:
        lines = [f"pencild: connected ({link.socket_path})", focus_text(link)]
        names = pencil_link.pens(link)
        lines.append("pens: " + (", ".join(names) if names else "none attached"))
        lines += [gesture_text(link, gesture) for gesture, _, _ in pencil_link.GESTURES]
    if link.last_gesture:
        lines.append(f"last gesture: {link.last_gesture}")
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
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.label)
        _labels.append(self.label)
        buttons = QHBoxLayout()
        reconnect = QPushButton("Reconnect", body)
        reconnect.setObjectName("pencild_reconnect")
        choose = QPushButton("Gesture actions…", body)
        choose.setObjectName("pencild_bindings")
        choose.setToolTip("Which Krita action each preferred action triggers")
        buttons.addWidget(reconnect)
        buttons.addWidget(choose)
        layout.addLayout(buttons)
        layout.addStretch(1)
        self.setWidget(body)
        self.link = get_link()
        reconnect.clicked.connect(self.link.reconnect)
        choose.clicked.connect(self.choose_actions)
        self.link.changed.connect(self.refresh)
        self.dialog: Optional[QWidget] = None
        self.refresh()

    def refresh(self) -> None:
        self.label.setText(status_text(self.link))

    def choose_actions(self) -> None:
        from .bindings_dialog import BindingsDialog
        dialog = BindingsDialog(self)
        dialog.finished.connect(lambda _result: self.refresh())
        self.dialog = dialog
        dialog.open()

    def canvasChanged(self, canvas: object) -> None:  # noqa: N802 (Krita's name)
        pass
