"""A Qt 6 app for the desktop tier, the counterpart of app.py: one window titled by its
application id (argv[1]), which is its desktop file name and so its Wayland app_id. It writes
"shown" to argv[2] once the compositor exposes its window, and quits on SIGTERM. On SIGUSR1 it
shows the text of argv[2] with ".note" added and saves its window as argv[2] with ".png" added
(then ".png.done")."""
import os
import signal
import socket
import sys

from PyQt6.QtCore import QEvent, QObject, QSocketNotifier, QT_VERSION_STR
from PyQt6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

app_id, shown_path = sys.argv[1], sys.argv[2]
app = QApplication([sys.argv[0]])
app.setApplicationName(app_id)
app.setDesktopFileName(app_id)

window = QWidget()
window.setWindowTitle(app_id)
window.resize(480, 320)
layout = QVBoxLayout(window)
layout.addWidget(QLabel(f"{app_id} (Qt {QT_VERSION_STR})"))
note = QLabel("")
layout.addWidget(note)


class Exposed(QObject):
    """Writes "shown" at the window's first Expose event."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Expose and window.windowHandle().isExposed() and not os.path.exists(shown_path):
            with open(shown_path, "w", encoding="utf-8") as file:
                file.write("shown\n")
        return False


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
window.show()
window.windowHandle().installEventFilter(exposed)
sys.exit(app.exec())
