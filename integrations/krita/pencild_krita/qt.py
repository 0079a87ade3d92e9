"""Qt for the plugin, from one source: PyQt5 in Krita 5 (5.1 to 5.3, Qt 5), PyQt6 in Krita 6
(Qt 6). The rest of the plugin imports Qt's classes from here, and writes enum members with
their scope (``QEvent.Type.TabletMove``), which both bindings accept.

Which binding is Krita's own: the one whose QtCore the process has already loaded. Krita
loads it before any plugin (its `krita` package imports it), and nothing else tells as
surely: Krita 5 may run where python3-pyqt6 is installed too, and importing PyQt6 there
would load Qt 6 into Krita's Qt 5 process; Krita 6 refuses `import PyQt5` itself, but a
build of it that did not would fare the same. So the plugin never imports a binding Krita
has not loaded. Only where no binding is loaded (the plugin's parts tested without Krita) is
the first that imports taken, PyQt5 first."""

from __future__ import annotations

import importlib
from typing import Any, Callable, List, Mapping, Optional

BINDINGS = ("PyQt5", "PyQt6")


def pick(loaded: Mapping[str, object], importable: Callable[[str], bool]) -> str:
    """The binding to use, given the modules this process has loaded (sys.modules) and a test
    of whether a binding imports (tried only when none is loaded)."""
    found = [name for name in BINDINGS if f"{name}.QtCore" in loaded]
    if len(found) > 1:
        raise ImportError("PyQt5 and PyQt6 are both loaded in this process: cannot tell which is Krita's")
    if found:
        return found[0]
    for name in BINDINGS:
        if importable(name):
            return name
    raise ImportError("neither PyQt5 nor PyQt6 can be imported (Krita 5 needs python3-pyqt5, Krita 6 python3-pyqt6)")


def _imports(name: str) -> bool:
    try:
        importlib.import_module(f"{name}.QtCore")
    except ImportError:
        return False
    return True


def _loaded() -> Mapping[str, object]:
    import sys
    return sys.modules


BINDING = pick(_loaded(), _imports)
QtCore: Any = importlib.import_module(f"{BINDING}.QtCore")
QtGui: Any = importlib.import_module(f"{BINDING}.QtGui")
QtWidgets: Any = importlib.import_module(f"{BINDING}.QtWidgets")
sip: Any = importlib.import_module(f"{BINDING}.sip")
QT_MAJOR = int(QtCore.QT_VERSION_STR.split(".")[0])

# The classes the plugin uses, by their names.
pyqtSignal = QtCore.pyqtSignal  # noqa: N816 (PyQt's name)
QEvent = QtCore.QEvent
QFileSystemWatcher = QtCore.QFileSystemWatcher
QObject = QtCore.QObject
QPoint = QtCore.QPoint
QPointF = QtCore.QPointF
QRegularExpression = QtCore.QRegularExpression
QSocketNotifier = QtCore.QSocketNotifier
QStandardPaths = QtCore.QStandardPaths
QTimer = QtCore.QTimer
Qt = QtCore.Qt
QCursor = QtGui.QCursor
QMouseEvent = QtGui.QMouseEvent
QTabletEvent = QtGui.QTabletEvent
QTextDocument = QtGui.QTextDocument
QApplication = QtWidgets.QApplication
QComboBox = QtWidgets.QComboBox
QCompleter = QtWidgets.QCompleter
QDialog = QtWidgets.QDialog
QDialogButtonBox = QtWidgets.QDialogButtonBox
QFormLayout = QtWidgets.QFormLayout
QHBoxLayout = QtWidgets.QHBoxLayout
QLabel = QtWidgets.QLabel
QPushButton = QtWidgets.QPushButton
QVBoxLayout = QtWidgets.QVBoxLayout
QWidget = QtWidgets.QWidget


def mouse_buttons(value: int) -> Any:
    """Qt's buttons held, from their bits: Qt 5's Qt.MouseButtons, Qt 6's Qt.MouseButton flag."""
    return Qt.MouseButtons(value) if QT_MAJOR == 5 else Qt.MouseButton(value)


def mouse_is_the_mouse(event: Any) -> bool:
    """A mouse event that a mouse made, not one Qt made from a tablet's or a touch's."""
    if QT_MAJOR == 5:
        return bool(event.source() == Qt.MouseEventSource.MouseEventNotSynthesized)
    device = event.pointingDevice()
    return device is None or device.type() in (QtGui.QInputDevice.DeviceType.Mouse,
                                                QtGui.QInputDevice.DeviceType.TouchPad)


def tablet_device(event: Any) -> Optional[str]:
    """What tells the pen of a tablet event again later (Qt 6: its device's name), or None."""
    if QT_MAJOR == 5:
        return None
    device = event.pointingDevice()
    return device.name() if device is not None else None


_own_pen: List[Any] = []


def _pen(name: Optional[str]) -> Any:
    """Qt 6's device for a pen's event: the pen called ``name`` as Qt knows it now, else any
    stylus Qt knows, else one of the plugin's own."""
    styluses = [device for device in QtGui.QInputDevice.devices()
                if device.type() == QtGui.QInputDevice.DeviceType.Stylus]
    for device in styluses:
        if device.name() == name:
            return device
    if styluses:
        return styluses[0]
    if not _own_pen:
        capabilities = QtGui.QInputDevice.Capability.Position | QtGui.QInputDevice.Capability.Pressure
        _own_pen.append(QtGui.QPointingDevice("pencild pen", 0, QtGui.QInputDevice.DeviceType.Stylus,
                                              QtGui.QPointingDevice.PointerType.Pen, capabilities, 1, 3))
    return _own_pen[0]


def tablet_event(kind: Any, where: Any, screen: Any, button: Any, buttons: int, pen: Optional[str] = None) -> Any:
    """A pen's press or release (``kind``) of ``button`` at ``where`` (``screen`` on the
    screen), no pressure, ``buttons`` held after it."""
    modifiers = Qt.KeyboardModifier.NoModifier
    if QT_MAJOR == 5:
        return QTabletEvent(kind, where, screen, QTabletEvent.TabletDevice.Stylus, QTabletEvent.PointerType.Pen,
                            0.0, 0, 0, 0.0, 0.0, 0, modifiers, 0, button, mouse_buttons(buttons))
    return QTabletEvent(kind, _pen(pen), where, screen, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, modifiers, button,
                        mouse_buttons(buttons))
