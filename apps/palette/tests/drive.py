#!/usr/bin/python3
"""drive.py: runs pencil-palette over the app in front (behind.py) as pencil-actions does,
one request on its standard input, its replies read from its standard output, and works it
as a person would: the pointer and clicks with xdotool at places the accessibility tree
(AT-SPI, with pyatspi) and xwininfo give, and keys. One line per check, "  ok: ..." or
"  FAIL: ...".

Environment: PALETTE (the program), PYTHON (to run it with), BEHIND_LOG (what the app in
front received), WORK (the test's scratch folder), SCREENSHOTS (a folder).
"""

from __future__ import annotations

import json
import os
import re
import selectors
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import pyatspi

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests"))
import checks  # noqa: E402
from accessibility import states, walk  # noqa: E402
from checks import check, fail, ok  # noqa: E402


def wait(predicate: Callable[[], Any], seconds: float = 10.0) -> Any:
    return checks.wait(predicate, seconds, interval=0.05)


SCREEN = (1280, 800)
ITEMS: List[Dict[str, Any]] = [
    {"id": "tool.pen", "label": "Pen", "group": "tools", "checked": True},
    {"id": "tool.eraser", "label": "Eraser", "group": "tools", "checked": False},
    {"id": "undo", "label": "Undo", "group": "edit"},
    {"id": "redo", "label": "Redo", "group": "edit"},
    {"id": "app.0", "label": "Swap Colours", "group": "color"},
    {"id": "app.1", "label": "Brush Size Larger", "group": "ink"},
    {"id": "app.2", "label": "Zoom to Fit", "group": "action"},
]
BUTTON_ROLES = ("push button", "toggle button")
# A place on the app in front, away from wherever a palette opens in these checks.
ON_THE_APP = (900, 300)


def xdotool(*arguments: str) -> None:
    subprocess.run(["xdotool", *arguments], check=True, timeout=10)


# --- the palette, as pencil-actions runs it --------------------------------------------------

runs = 0


class Palette:
    def __init__(self, request: Optional[Dict[str, Any]] = None, raw: Optional[bytes] = None,
                 environment: Optional[Dict[str, str]] = None, arguments: Tuple[str, ...] = ()) -> None:
        global runs
        runs += 1
        self.stderr_path = os.path.join(os.environ["WORK"], f"palette-{runs}.err")
        self.process = subprocess.Popen([os.environ["PYTHON"], os.environ["PALETTE"], *arguments],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=open(self.stderr_path, "wb"), env=environment)
        self.selector = selectors.DefaultSelector()
        assert self.process.stdout is not None and self.process.stdin is not None
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        self.buffer = b""
        self.replies: List[Dict[str, Any]] = []
        line = raw if raw is not None else json.dumps(request).encode()
        self.send(line + b"\n")

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
        except BrokenPipeError:
            pass

    def close_stdin(self) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass

    def reply(self, seconds: float = 10.0) -> Optional[Dict[str, Any]]:
        """The next reply line, or None when none comes in time (or the program ends)."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                return None
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                if not self.buffer:
                    return None
                break
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            return {"not json": line.decode(errors="replace")}
        self.replies.append(message)
        return dict(message)

    def shown(self) -> Optional[Dict[str, Any]]:
        message = self.reply()
        if message is None or "shown" not in message:
            fail(f"no shown reply: {message}; stderr: {self.stderr()}")
            return None
        return dict(message["shown"])

    def exit_status(self, seconds: float = 10.0) -> Optional[int]:
        try:
            return self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def stderr(self) -> str:
        with open(self.stderr_path, errors="replace") as file:
            return file.read()

    def end(self) -> None:
        self.close_stdin()
        self.exit_status(5)


def request(pen: Optional[Tuple[float, float]] = (0.25, 0.5), app: Optional[str] = "Xournal++",
            open_at: Optional[str] = None, items: Optional[List[Dict[str, Any]]] = None) -> Dict[str, Any]:
    return {"version": 1, "app": app, "pen": None if pen is None else {"x": pen[0], "y": pen[1]},
            "hovering": True, "open_at": open_at, "items": ITEMS if items is None else items}


def finished(palette: Palette, expected: Dict[str, Any], what: str) -> bool:
    got = palette.reply()
    status = palette.exit_status()
    return check(got == expected and status == 0, what, f"replied {got}, exit status {status}")


# --- the accessibility tree and the screen ------------------------------------------------------


def palette_frame(palette: Palette, buttons: int = len(ITEMS)) -> Any:
    """The palette's window in the accessibility tree, once its buttons are there."""
    def find() -> Any:
        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            app = desktop.getChildAtIndex(index)
            if app is None or app.get_process_id() != palette.process.pid:
                continue
            for child in range(app.childCount):
                frame = app.getChildAtIndex(child)
                if frame is not None and len(item_nodes(frame)) >= buttons:
                    return frame
        return None
    return wait(find, 15)


def item_nodes(frame: Any) -> Dict[str, Any]:
    return {node.name: node for node in walk(frame) if node.getRoleName() in BUTTON_ROLES}


def window_geometry(name: str) -> Optional[Tuple[int, int, int, int]]:
    output = subprocess.run(["xwininfo", "-name", name], capture_output=True, text=True, timeout=10).stdout
    numbers = {}
    for key in ("Absolute upper-left X", "Absolute upper-left Y", "Width", "Height"):
        found = re.search(rf"{key}:\s+(-?\d+)", output)
        if found is None:
            return None
        numbers[key] = int(found.group(1))
    return (numbers["Absolute upper-left X"], numbers["Absolute upper-left Y"], numbers["Width"], numbers["Height"])


def item_centre(node: Any, origin: Tuple[int, int]) -> Tuple[int, int]:
    """Where an item is on the screen: its place in its window (GTK gives no other) from the
    window's origin."""
    x, y, width, height = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    return origin[0] + x + width // 2, origin[1] + y + height // 2


def rectangle(shown: Dict[str, Any]) -> Tuple[int, int, int, int]:
    return int(shown["x"]), int(shown["y"]), int(shown["width"]), int(shown["height"])


def centre(rect: Tuple[int, int, int, int]) -> Tuple[float, float]:
    return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2


def near(point: Tuple[float, float], target: Tuple[float, float], pixels: float = 40) -> bool:
    return abs(point[0] - target[0]) <= pixels and abs(point[1] - target[1]) <= pixels


def on_screen(rect: Tuple[int, int, int, int]) -> bool:
    x, y, width, height = rect
    return x >= 0 and y >= 0 and x + width <= SCREEN[0] and y + height <= SCREEN[1]


def pixel(x: int, y: int) -> str:
    return subprocess.run(["import", "-window", "root", "-crop", f"1x1+{x}+{y}", "-depth", "8", "txt:-"],
                          capture_output=True, text=True, timeout=10).stdout.strip().splitlines()[-1]


# --- the app in front ------------------------------------------------------------------------------


def behind_lines() -> List[str]:
    with open(os.environ["BEHIND_LOG"]) as file:
        return file.read().splitlines()


def received_after(mark: int, control: Callable[[], None], expected: str) -> Optional[List[str]]:
    """What the app received since line `mark` before `control`'s event, which must reach it
    (X delivers in order: anything sent before it has arrived when it has). None when the
    control never arrived."""
    control()
    if not wait(lambda: expected in behind_lines()[mark:], 10):
        return None
    lines = behind_lines()[mark:]
    return lines[:lines.index(expected)]


def click_at(x: int, y: int) -> None:
    xdotool("mousemove", str(x), str(y), "click", "1")


# --- the checks ---------------------------------------------------------------------------------


def shown_at_the_pen() -> None:
    palette = Palette(request())
    shown = palette.shown()
    if shown is None:
        palette.end()
        return
    rect = rectangle(shown)
    check(near(centre(rect), (320, 400)) and shown.get("route") == "x11" and shown.get("screen") ==
          {"width": SCREEN[0], "height": SCREEN[1]}, "shown: centred on the pen at (320, 400)", json.dumps(shown))
    geometry = window_geometry("Palette for Xournal++")
    check(geometry is not None and near(centre(geometry), (320, 400)) and geometry == rect,
          "xwininfo: the palette's window is where shown says, centred on the pen", f"{geometry} against {rect}")

    frame = palette_frame(palette)
    if frame is None:
        fail(f"the palette is not in the accessibility tree; stderr: {palette.stderr()}")
        palette.end()
        return
    check(frame.name == "Palette for Xournal++", "the window's accessible name names the app", repr(frame.name))
    nodes = item_nodes(frame)
    missing = [item["label"] for item in ITEMS if item["label"] not in nodes]
    check(not missing, f"every item is a button named by its label ({len(ITEMS)} items)",
          f"missing {missing}; buttons {sorted(nodes)}")
    # Where shown says each item is, the accessibility tree agrees: the same centre (within a
    # pixel's rounding), and the button's extents within the place (GTK 4.8 gives the extents
    # of its content, inside the padding).
    places = shown.get("items", {})
    astray = []
    for item in ITEMS:
        node, place = nodes.get(item["label"]), places.get(item["id"])
        if node is None or not isinstance(place, dict):
            astray.append(f"{item['id']}: {place}")
            continue
        x, y, width, height = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        expected = (rect[0] + x, rect[1] + y, width, height)
        left, top, place_width, place_height = place["x"], place["y"], place["width"], place["height"]
        centred = abs(left + place_width / 2 - (expected[0] + width / 2)) <= 1 and \
            abs(top + place_height / 2 - (expected[1] + height / 2)) <= 1
        within = left <= expected[0] and top <= expected[1] and expected[0] + width <= left + place_width and \
            expected[1] + height <= top + place_height
        if not (centred and within):
            astray.append(f"{item['id']}: shown {place}, on screen {expected}")
    check(not astray, f"shown gives each item's place on the screen, where it is ({len(places)} places)", "; ".join(astray))
    pen, eraser = nodes.get("Pen"), nodes.get("Eraser")
    # GTK 4.8 gives a toggle button the role "push button" and the state "pressed" (4.10 and
    # later: "toggle button", and "checked").
    check(pen is not None and any(state in ("pressed", "checked") for state in states(pen))
          and eraser is not None and not any(state in ("pressed", "checked") for state in states(eraser)),
          "Pen is shown checked (pressed), Eraser not",
          f"Pen {pen and (pen.getRoleName(), states(pen))}, Eraser {eraser and (eraser.getRoleName(), states(eraser))}")

    # Hover: a pen hovering over an item is the pointer over it, which must light it.
    swap = nodes.get("Swap Colours")
    if swap is not None:
        x, y, width, height = swap.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        spot = (rect[0] + x + 6, rect[1] + y + height // 2)
        before = pixel(*spot)
        xdotool("mousemove", str(rect[0] + x + width // 2), str(rect[1] + y + height // 2))
        changed = wait(lambda: pixel(*spot) != before, 5)
        check(bool(changed), "hovering over an item highlights it", f"{before} stays")
    folder = os.environ["SCREENSHOTS"]
    os.makedirs(folder, exist_ok=True)
    whole = os.path.join(folder, "palette-over-app.png")
    subprocess.run(["import", "-window", "root", whole], check=True, timeout=30)
    left, top = max(0, rect[0] - 60), max(0, rect[1] - 40)
    subprocess.run(["convert", whole, "-crop", f"{rect[2] + 120}x{rect[3] + 80}+{left}+{top}", "+repage",
                    os.path.join(folder, "palette.png")], check=True, timeout=30)
    described = subprocess.run(["identify", "-format", "%wx%h %k", whole], capture_output=True, text=True,
                               timeout=30).stdout.split()
    check(len(described) == 2 and described[0] == f"{SCREEN[0]}x{SCREEN[1]}" and int(described[1]) > 20,
          f"screenshot: {whole} ({' '.join(described)} colours)")

    undo = nodes.get("Undo")
    if undo is None:
        palette.end()
        return
    mark = len(behind_lines())
    click_at(*item_centre(undo, rect[:2]))
    finished(palette, {"chosen": "undo"}, "a click on Undo: chosen undo, exit 0")
    got = received_after(mark, lambda: click_at(*ON_THE_APP), f"press {ON_THE_APP[0]} {ON_THE_APP[1]}")
    check(got == [], "the app behind got no click from it", f"it got {got}")


def whole_on_screen() -> None:
    for pen in ((0.99, 0.99), (0.0, 0.0)):
        palette = Palette(request(pen=pen))
        shown = palette.shown()
        if shown is not None:
            geometry = window_geometry("Palette for Xournal++")
            check(on_screen(rectangle(shown)) and geometry == rectangle(shown),
                  f"pen at {pen}: the whole palette is on screen", f"shown {shown}, xwininfo {geometry}")
        palette.end()


def outside() -> None:
    palette = Palette(request())
    if palette.shown() is None:
        palette.end()
        return
    mark = len(behind_lines())
    click_at(*ON_THE_APP)
    finished(palette, {"closed": "outside"}, "a click outside: closed outside, exit 0")
    # The control: the same click, with no palette open, reaches the app.
    expected = f"press {ON_THE_APP[0]} {ON_THE_APP[1]}"
    got = received_after(mark, lambda: click_at(*ON_THE_APP), expected)
    check(got is not None, "the same click with no palette open reaches the app")
    check(got == [], "the app did not get the click outside", f"it got {got}")


def keyboard() -> None:
    xdotool("mousemove", *map(str, ON_THE_APP))
    palette = Palette(request())
    if palette.shown() is None:
        palette.end()
        return
    mark = len(behind_lines())
    xdotool("key", "Escape")
    finished(palette, {"closed": "escape"}, "Escape: closed escape, exit 0")
    got = received_after(mark, lambda: xdotool("key", "Escape"), "key Escape")
    check(got is not None, "Escape with no palette open reaches the app")
    check(got == [], "the app got no Escape while the palette was open", f"it got {got}")

    # The focus starts on the checked tool, Pen; Down reaches Undo below it, Right Redo.
    palette = Palette(request())
    if palette.shown() is None or palette_frame(palette) is None:
        palette.end()
        return
    mark = len(behind_lines())
    xdotool("key", "Down", "Right", "Return")
    finished(palette, {"chosen": "redo"}, "Down, Right and Return from Pen: chosen redo")
    got = received_after(mark, lambda: xdotool("key", "a"), "key a")
    check(got == [], "the app got none of those keys", f"it got {got}")


def open_at() -> None:
    palette = Palette(request(open_at="ink"))
    if palette.shown() is None:
        palette.end()
        return
    frame = palette_frame(palette)
    focused = wait(lambda: [node.name for node in walk(frame) if "focused" in states(node)], 5) if frame else None
    check(focused == ["Brush Size Larger"], "open_at ink: the first ink item has the focus", f"focused: {focused}")
    palette.send(b'{"close": "again"}\n')
    finished(palette, {"closed": "again"}, '{"close": "again"}: closed again, exit 0')
    palette = Palette(request(pen=None))
    shown = palette.shown()
    if shown is not None:
        check(near(centre(rectangle(shown)), (640, 400), 2), "pen null: the palette is at the screen's centre",
              json.dumps(shown))
    palette.close_stdin()
    finished(palette, {"closed": "ended"}, "standard input ended: closed ended, exit 0")
    palette = Palette(request())
    if palette.shown() is not None:
        palette.send(b'{"close": "away"}\n')
        finished(palette, {"closed": "away"}, '{"close": "away"}: closed away, exit 0')


def app_names() -> None:
    """The heading names the app as its desktop file does, where its id names one; an id that
    names none is shown as it came (the control)."""
    applications = os.path.join(os.environ["WORK"], "data", "applications")
    os.makedirs(applications, exist_ok=True)
    with open(os.path.join(applications, "org.example.SketchBook.desktop"), "w", encoding="utf-8") as file:
        file.write("[Desktop Entry]\nType=Application\nName=Sketch <b>Book</b>\nExec=true\n")
    environment = dict(os.environ, XDG_DATA_HOME=os.path.join(os.environ["WORK"], "data"))
    for app, expected in (("org.example.SketchBook", "Sketch <b>Book</b>"), ("org.example.Unknown", "org.example.Unknown")):
        palette = Palette(request(app=app), environment=environment)
        if palette.shown() is not None:
            frame = palette_frame(palette)
            labels = [node.name for node in walk(frame) if node.getRoleName() == "label"] if frame is not None else []
            check(frame is not None and frame.name == f"Palette for {expected}" and expected in labels,
                  f"the app {app} is named {expected!r}, as plain text", f"window {frame and frame.name!r}, labels {labels}")
        palette.end()


def bad_requests() -> None:
    cases = [
        ("not JSON", b"{this is not json", "not JSON"),
        ("40 items", json.dumps(request(items=[{"id": f"i{n}", "label": f"Item {n}"} for n in range(40)])).encode(),
         "items"),
        ("an id with a space", json.dumps(request(items=[{"id": "tool pen", "label": "Pen"}])).encode(),
         "items[0].id"),
        ("a pen off the screen", json.dumps(request(pen=(1.5, 0.5))).encode(), "pen.x"),
        ("a line longer than 64 KiB", b'{"items": ["' + b"x" * 70000 + b'"]}', "longer than"),
    ]
    for what, line, field in cases:
        palette = Palette(raw=line)
        got = palette.reply()
        status = palette.exit_status()
        error = str((got or {}).get("error", ""))
        check(field in error and status == 2 and "Traceback" not in palette.stderr(),
              f"{what}: the error names {field!r}, exit 2, no traceback", f"replied {got}, exit status {status}")

    markup = "<b>x</b>"
    palette = Palette(request(items=[{"id": "bold", "label": markup, "group": "action"},
                                     {"id": "long", "label": "A very long label " * 6, "group": "action"}]))
    if palette.shown() is not None:
        frame = palette_frame(palette, 2)
        names = list(item_nodes(frame)) if frame is not None else []
        texts = [node.name for node in walk(frame) if node.getRoleName() == "label"] if frame is not None else []
        check(markup in names and markup in texts, "a label with markup is shown as it is written",
              f"buttons {names}, labels {texts}")
        check(any(name.endswith("\u2026") and len(name) == 64 for name in names),
              "a label longer than 64 characters is cut to 64 with an ellipsis", f"buttons {names}")
    palette.end()


def cannot_open() -> None:
    environment = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    palette = Palette(request(), environment=environment)
    got = palette.reply()
    status = palette.exit_status()
    check(got is not None and str(got.get("error", "")).startswith("cannot open the palette:") and status == 1,
          "no DISPLAY: an error reply, exit 1", f"replied {got}, exit status {status}")
    # An X server but no Wayland compositor: the layer-shell route says so. (On a Wayland
    # compositor the desktop VM tier shows it: tests/desktop/vm_scenario.py.)
    palette = Palette(request(), arguments=("--route", "layer-shell"),
                      environment={key: value for key, value in os.environ.items() if key != "WAYLAND_DISPLAY"})
    got = palette.reply()
    status = palette.exit_status()
    check(got is not None and "WAYLAND_DISPLAY is not set" in str(got.get("error", "")) and status == 1,
          "--route layer-shell without a Wayland display: an error reply saying so, exit 1",
          f"replied {got}, exit status {status}")


def no_tracebacks() -> None:
    work = os.environ["WORK"]
    bad = [name for name in sorted(os.listdir(work)) if name.startswith("palette-") and name.endswith(".err")
           and re.search(r"Traceback|CRITICAL|from markup", open(os.path.join(work, name), errors="replace").read())]
    check(not bad, f"no traceback, GTK critical or markup warning on stderr in {runs} runs",
          "; ".join(open(os.path.join(work, name), errors="replace").read() for name in bad))


def main() -> int:
    if not wait(lambda: "ready" in behind_lines(), 20):
        fail("the app in front did not appear")
        return 1
    # A key reaches the app in front: no window manager gives it the focus.
    xdotool("search", "--sync", "--name", "^Behind$", "windowfocus", "--sync")
    for phase in (shown_at_the_pen, whole_on_screen, outside, keyboard, open_at, app_names, bad_requests, cannot_open,
                  no_tracebacks):
        started = time.monotonic()
        phase()
        print(f"    ({phase.__name__}: {time.monotonic() - started:.1f} s)", flush=True)
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
