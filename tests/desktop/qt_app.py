"""A Qt 6 app for the desktop tier, the counterpart of app.py: one window titled by its
application id (argv[1]), which is its desktop file name and so its Wayland app_id. It writes
"shown" to argv[2] once the compositor exposes its window, and "active" to argv[2] with
".active" added once it first makes the window the active one, and quits on SIGTERM. On SIGUSR1 it
shows the text of argv[2] with ".note" added and saves its window as argv[2] with ".png" added
(then ".png.done"). With DESKTOP_TEST_FULLSCREEN set, the window fills the screen.

With a third argument it also shows the last pen event it received and a text field for keys,
and writes each tablet event and each change of the field to that file, a JSON object a line,
as app.py does: "pen" events with Qt's type, time (ms, the compositor's), tool, pressure and
the button that changed."""
import json
import os
import signal
import socket
import sys
import time

from PyQt6.QtCore import QEvent, QObject, QSocketNotifier, Qt, QT_VERSION_STR
from PyQt6.QtGui import QPointingDevice, QTabletEvent
from PyQt6.QtWidgets import QApplication, QLabel, QLineEdit, QVBoxLayout, QWidget

app_id, shown_path = sys.argv[1], sys.argv[2]
events_path = sys.argv[3] if len(sys.argv) > 3 else None
app = QApplication([sys.argv[0]])
app.setApplicationName(app_id)
app.setDesktopFileName(app_id)

TABLET_EVENTS = {QEvent.Type.TabletPress: "press", QEvent.Type.TabletMove: "motion", QEvent.Type.TabletRelease: "release"}
TOOLS = {QPointingDevice.PointerType.Pen: "pen", QPointingDevice.PointerType.Eraser: "eraser"}


def write_event(record: dict) -> None:
    """`record`, with when the app received it (CLOCK_MONOTONIC, ms: the test's clock too)."""
    record["received"] = time.clock_gettime(time.CLOCK_MONOTONIC) * 1000
    with open(events_path, "a", encoding="utf-8") as file:
        file.write(json.dumps(record) + "\n")


BUTTONS = (Qt.MouseButton.LeftButton, Qt.MouseButton.MiddleButton, Qt.MouseButton.RightButton)
MOUSE_EVENTS = {QEvent.Type.MouseButtonPress: "press", QEvent.Type.MouseButtonRelease: "release"}


class PenLog(QObject):
    """Every tablet event the window receives, and every button event (a barrel button may
    reach it as a mouse button), as the window has them before any widget."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = TABLET_EVENTS.get(event.type()) or MOUSE_EVENTS.get(event.type())
        if kind is None:
            return False
        if isinstance(event, QTabletEvent):
            record = {"kind": "pen", "type": kind, "time": event.timestamp(),
                      "tool": TOOLS.get(event.pointerType(), event.pointerType().name), "pressure": event.pressure()}
        else:
            record = {"kind": "pen", "type": kind, "time": event.timestamp(), "tool": "mouse", "pressure": None}
        if kind in ("press", "release"):
            record["button"] = event.button().name
        record["buttons"] = [button.name for button in BUTTONS if event.buttons() & button]
        write_event(record)
        last_pen.setText(" ".join(f"{key} {value}" for key, value in record.items() if key not in ("kind", "received")))
        return False


class Window(QWidget):
    def tabletEvent(self, event: QTabletEvent) -> None:  # noqa: N802 (Qt's name)
        """Accepted, as a drawing app does (else Qt makes mouse events of it)."""
        event.accept()


window = Window()
# Hover too, as a drawing app has it: without tracking Qt gives a widget only tip-down events.
window.setTabletTracking(True)
window.setWindowTitle(app_id)
window.resize(480, 320)
layout = QVBoxLayout(window)
layout.addWidget(QLabel(f"{app_id} (Qt {QT_VERSION_STR})"))
note = QLabel("")
layout.addWidget(note)
last_pen = QLabel("no pen yet")
if events_path is not None:
    field = QLineEdit()
    field.setPlaceholderText("keys typed here")
    field.textChanged.connect(lambda text: write_event({"kind": "text", "text": text}))
    layout.addWidget(field)
    layout.addWidget(last_pen)
    field.setFocus()


class Exposed(QObject):
    """Writes "shown" at the window's first Expose event."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Expose and window.windowHandle().isExposed() and not os.path.exists(shown_path):
            with open(shown_path, "w", encoding="utf-8") as file:
                file.write("shown\n")
        return False


def write_active() -> None:
    """Once, the first time the compositor makes the window the active one."""
    if not window.windowHandle().isActive() or os.path.exists(shown_path + ".active"):
        return
    with open(shown_path + ".active", "w", encoding="utf-8") as file:
        file.write("active\n")


# Signals reach Qt's loop through a socket pair: Python's handler only marks them.
reader, writer = socket.socketpair()
writer.setblocking(False)
signal.set_wakeup_fd(writer.fileno())
signal.signal(signal.SIGTERM, lambda *_: None)
signal.signal(signal.SIGUSR1, lambda *_: None)


def on_signal() -> None:
    for number in reader.recv(64):
        if number == signal.SIGTERM:
            app.quit()
        elif number == signal.SIGUSR1:
            with open(shown_path + ".note", encoding="utf-8") as file:
                note.setText(file.read().strip())
            window.repaint()
            window.grab().save(shown_path + ".png")
            with open(shown_path + ".png.done", "w", encoding="utf-8") as file:
                file.write(f"{window.width()}x{window.height()}\n")


notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)
notifier.activated.connect(on_signal)
exposed = Exposed()
if os.environ.get("DESKTOP_TEST_FULLSCREEN"):
    window.showFullScreen()  # the whole screen, wherever the pen is over it
else:
    window.show()
window.windowHandle().installEventFilter(exposed)
window.windowHandle().activeChanged.connect(write_active)
pen_log = PenLog()
if events_path is not None:
    window.windowHandle().installEventFilter(pen_log)
sys.exit(app.exec())
