#!/usr/bin/python3
"""drive.py PHASE: drives the running pencil-settings window through the accessibility tree
(AT-SPI, with pyatspi), the way a screen reader or a test robot does: page tabs, buttons and
switches by their actions, spin buttons by their value, radio buttons by a click at the place
AT-SPI gives for them. It checks what the window shows against what pencild says
(`pencilctl prefs get --json`). One line per check, "  ok: ..." or "  FAIL: ...".

Environment: PENCILCTL (the program), PENCILD_SOCKET, SCREENSHOTS (a folder), WORK (the
test's scratch folder), XDG_CONFIG_HOME; PEN_NAME, UNNAMED_PEN_NAME, AMPERSAND_PEN_NAME and
MARKUP_PEN_NAME, the names of the devices replay0 to replay3; GNOME_CALLS, the file the fake
gnome-control-center writes its arguments to.

Phases: gestures (the try-it page after the replay, the pens page, accessible names),
settings (every setting changed in the window and read back from pencild, and changed
with pencilctl and read from the window; buttons the pens lack and timings out of a hand's
reach), absent (pencild stopped while a page is shown), back (pencild started again),
unmade (the double-tap button is one the pen lacks: Try it says why nothing comes),
buttons (an AES pen, whose eraser is a button, and a Pro Pen 3: what they offer), gnome
(the window on GNOME: its tablet settings, and the way to them), shots-light, shots-dark
(a screenshot of each page). The phases that change a page take its screenshot too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Optional

import pyatspi

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests"))
import checks  # noqa: E402
from accessibility import states, walk  # noqa: E402
from checks import check, fail, ok, wait  # noqa: E402

PAGES = ["Pens", "Double-tap", "Squeeze", "Timing", "Apps", "Try it"]
# Roles a person operates: each must have a name of its own (GTK names an unnamed one after
# its class, GtkSpinButton, which says nothing).
INTERACTIVE = {"push button", "push button", "check box", "radio button", "spin button", "combo box", "slider",
               "page tab", "entry", "text", "menu item", "link", "switch", "password text"}
FALLBACK_NAME = re.compile(r"^(Gtk|Adw)[A-Z]\w*$")


# --- the tree -------------------------------------------------------------------------------


def application() -> Any:
    def find() -> Any:
        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            app = desktop.getChildAtIndex(index)
            if app is None:
                continue
            for child in range(app.childCount):
                frame = app.getChildAtIndex(child)
                if frame is not None and frame.getRoleName() == "frame" and frame.name == "Pen":
                    return app
        return None
    app = wait(find, 30)
    if app is None:
        print("  FAIL: the window did not appear in the accessibility tree", flush=True)
        sys.exit(1)
    return app


def find(app: Any, role: str, name: str) -> Any:
    def lookup() -> Any:
        for node in walk(app):
            if node.getRoleName() == role and node.name == name:
                return node
        return None
    return wait(lookup, 5)


def labels(app: Any) -> List[str]:
    return [node.name for node in walk(app) if node.getRoleName() == "label"]


def act(node: Any, action: str) -> None:
    actions = node.queryAction()
    for index in range(actions.nActions):
        if actions.getName(index) == action:
            actions.doAction(index)
            return
    raise RuntimeError(f"{node.name}: no action {action}")


def click(node: Any) -> None:
    """A click at the middle of where AT-SPI says the node is (the window is at the screen's
    origin: Xvfb without a window manager)."""
    x, y, width, height = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    pyatspi.Registry.generateMouseEvent(x + width // 2, y + height // 2, "b1c")


def show_page(app: Any, title: str) -> None:
    tab = find(app, "page tab", title)
    if tab is None:
        raise RuntimeError(f"no page tab {title}")
    act(tab, "click")
    time.sleep(0.3)


def checked(node: Any) -> bool:
    return any(state in ("checked", "pressed") for state in states(node))


def sensitive(node: Any) -> bool:
    return node is not None and "sensitive" in states(node)


def shot(name: str) -> None:
    """A screenshot of the window as it is, into SCREENSHOTS."""
    folder = os.environ["SCREENSHOTS"]
    os.makedirs(folder, exist_ok=True)
    size = os.environ.get("WINDOW_SIZE", "860x860")
    path = os.path.join(folder, name)
    subprocess.run(["import", "-window", "root", "-crop", f"{size}+0+0", "+repage", path], check=True, timeout=30)
    described = subprocess.run(["identify", "-format", "%wx%h %k", path], capture_output=True, text=True,
                               timeout=30).stdout.split()
    colours = int(described[1]) if len(described) == 2 else 0
    check(bool(described) and described[0] == size and colours > 50,
          f"screenshot: {name} ({' '.join(described)} colours)")


# --- pencild ----------------------------------------------------------------------------------


def prefs() -> Dict[str, Any]:
    output = subprocess.run([os.environ["PENCILCTL"], "prefs", "get", "--json"], capture_output=True, text=True,
                            timeout=10, check=True).stdout
    return dict(json.loads(output))


def pencilctl_set(*assignments: str) -> None:
    subprocess.run([os.environ["PENCILCTL"], "prefs", "set", *assignments], capture_output=True, timeout=10,
                   check=True)


def pencild_has(field: str, value: Any, what: str) -> bool:
    got = wait(lambda: prefs().get(field) == value, 5)
    return check(bool(got), what, f"pencild has {field}={prefs().get(field)!r}, expected {value!r}")


# --- phases -----------------------------------------------------------------------------------


def accessible_names(app: Any) -> None:
    for page in PAGES:
        show_page(app, page)
        unnamed = []
        count = 0
        for node in walk(app):
            if node.getRoleName() in INTERACTIVE:
                count += 1
                if not node.name or FALLBACK_NAME.match(node.name):
                    unnamed.append(f"{node.getRoleName()} {node.name!r}")
        check(not unnamed and count > 0, f"{page}: all {count} controls have an accessible name",
              ", ".join(unnamed))


def phase_gestures(app: Any) -> None:
    show_page(app, "Try it")
    wanted = {
        "the replayed double-tap, with its action": "Double-tap: Switch between the current tool and the eraser",
        "how the double-tap was measured": "Second press 120 ms after the first, 0 mm away",
        "the replayed squeeze, with its action": "Squeeze: Show the contextual palette",
        "the too-slow double-tap, shown as too late":
            "Too late: the second press came 520 ms after the first; the double-tap speed is 400 ms",
        "the double-tap whose presses were too far apart": "Too far: 6.1 mm, allowed 4 mm",
    }
    found = wait(lambda: all(text in labels(app) for text in wanted.values()), 30)
    shown = labels(app)
    for what, text in wanted.items():
        check(text in shown, f"try it: {what} ({text!r})", f"the labels are {shown}")
    # The recognised double-tap is not also reported as missed: two misses, no more.
    check(shown.count("Missed double-tap") == 2, "try it: exactly the two missed double-taps are shown as missed",
          f"{shown.count('Missed double-tap')} are")
    # The control of the demo phase: with real (replayed) pens, no demo pen's buttons.
    check(not any(node.name == "Make the demo pen double-tap" for node in walk(app)),
          "try it: with no demo pen attached, no buttons to make its gestures")
    if not found:
        return
    show_page(app, "Pens")
    pens = wait(lambda: "Grip Pen" in labels(app) and labels(app), 10) or labels(app)
    check("Wacom Intuos5 touch M" in pens, "pens: the tablet by its libwacom model", f"labels: {pens}")
    check("Grip Pen" in pens, "pens: the stylus seen, by its libwacom name")
    check("Lower button, Upper button" in pens, "pens: the pen's buttons, by their names")
    check("pencild is not running" not in pens, "pens: no 'not running' note while pencild runs")
    # The pen came eraser end first (libwacom's "Grip Pen Eraser", tool 0x80a): one pen.
    check(pens.count("Grip Pen") == 1 and "Grip Pen Eraser" not in pens,
          "pens: the pen used at both ends is one pen, its eraser end no pen of its own",
          f"{pens.count('Grip Pen')} rows are Grip Pen, {pens.count('Grip Pen Eraser')} Grip Pen Eraser")
    # A pen libwacom has no name for is seen once it hovers; the idle tablets' pens, never near, are not.
    seen = [text for text in pens if text.startswith("Seen; Linux’s tablet database has no name for it")]
    check(len(seen) == 1, f"pens: the pen of {os.environ['UNNAMED_PEN_NAME']!r}, with no libwacom stylus, is seen once "
          "it hovered", f"labels: {pens}")
    check(pens.count("Pen not seen yet") == 2, "pens: the two idle tablets' pens, never near, are not seen yet",
          f"{pens.count('Pen not seen yet')} are")
    shot("pens-unnamed-pen-seen.png")
    device_names(app)
    accessible_names(app)
    check("GNOME’s tablet settings" not in labels(app), "away from GNOME, no word of GNOME's tablet settings")


def device_names(app: Any) -> None:
    """A device's name is its maker's text, shown as it is: a name with & showed empty, and
    one with <b> bold, while they were read as markup. The test pen's ordinary name beside
    them is the control. The tablets libwacom does not know are titled by their names."""
    ordinary, ampersand, markup = (os.environ[name] for name in ("PEN_NAME", "AMPERSAND_PEN_NAME", "MARKUP_PEN_NAME"))
    wanted = [f"{ordinary} (replay0)", f"{ampersand} (replay2)", f"{markup} (replay3)", ampersand, markup]
    shown = wait(lambda: all(text in labels(app) for text in wanted) and labels(app), 5) or labels(app)
    # Where a name went wrong: the device rows, and the labels that say nothing (GTK names an
    # empty label GtkLabel).
    seen = "shown: " + ", ".join(repr(text) for text in shown if "(replay" in text or FALLBACK_NAME.match(text))
    check(f"{ordinary} (replay0)" in shown, f"pens: the test pen's device row shows its name, {ordinary!r}", seen)
    for name, device in ((ampersand, "replay2"), (markup, "replay3")):
        check(f"{name} ({device})" in shown, f"pens: the device row shows the name {name!r} as it is", seen)
        check(name in shown, f"pens: the tablet libwacom does not know is titled {name!r}, as it is", seen)


def phase_settings(app: Any) -> None:
    start = prefs()
    check(start["doubleTapAction"] == "switchEraser", "pencild starts with the default double-tap action")

    # Double-tap: every action, one after another.
    show_page(app, "Double-tap")
    # "Do nothing" and the button's "Off" are two things, and the page says how they differ.
    # (Both gesture pages are in the tree: one such line each.)
    check(labels(app).count("The gesture is still recognised and its clicks kept from apps; to let the button click "
                            "as usual, choose Off for the button") == 2,
          "double-tap and squeeze: 'Do nothing' says how it differs from the button's Off, once on each page")
    for value, name in [("showColorPalette", "Show the colour palette"),
                        ("switchPrevious", "Switch between the current tool and the last one used"),
                        ("showInkAttributes", "Show ink attributes"),
                        ("showContextualPalette", "Show the contextual palette"),
                        ("runSystemShortcut", "Run a system shortcut"), ("ignore", "Do nothing"),
                        ("switchEraser", "Switch between the current tool and the eraser")]:
        radio = find(app, "check box", f"Double-tap: {name}")
        if radio is None:
            fail(f"no radio button 'Double-tap: {name}'")
            continue
        click(radio)
        pencild_has("doubleTapAction", value, f"double-tap: '{name}' is sent as {value}")

    # The buttons: the squeeze's button cannot be chosen for the double-tap, nor buttons the
    # pens attached (an Intuos5 with a Grip Pen, two idle tablets) lack; each says why.
    upper = find(app, "push button", "Double-tap button: Upper button")
    check(upper is not None and "sensitive" not in states(upper),
          "double-tap: the upper button, the squeeze's, cannot be chosen")
    check(upper is not None and upper.description == "It is the squeeze’s button", "and it says why",
          repr(upper.description if upper is not None else None))
    for name, why, barrier in (("Third button", "No attached pen has a third button", ("ignore", "Do nothing")),
                               ("Eraser button", "No attached pen has an eraser button",
                                ("showInkAttributes", "Show ink attributes"))):
        button = find(app, "push button", f"Double-tap button: {name}")
        check(button is not None and not sensitive(button), f"double-tap: the {name.lower()}, which the pens lack, "
              "cannot be chosen")
        check(button is not None and button.description == why, f"and it says why: {why!r}",
              repr(button.description if button is not None else None))
        # Chosen the way a person does, with the mouse: nothing is sent. The action chosen next
        # is the barrier: once it has reached pencild, the click before it was handled.
        if button is not None:
            click(button)
        click(find(app, "check box", f"Double-tap: {barrier[1]}"))
        pencild_has("doubleTapAction", barrier[0], "(the click after it reached pencild)")
        check(prefs()["tapButton"] == "stylus", f"double-tap: a click on the {name.lower()} sends nothing",
              f"pencild has tapButton={prefs()['tapButton']}")
    click(find(app, "check box", "Double-tap: Switch between the current tool and the eraser"))
    pencild_has("doubleTapAction", "switchEraser", "double-tap: back to its default action")
    lower = find(app, "push button", "Double-tap button: Lower button")
    check(sensitive(lower) and checked(lower) and not lower.description,
          "double-tap: the lower button, which the pens have, is chosen and says nothing against it")
    show_page(app, "Squeeze")
    # The button choice's description is one line, as tall as the page's other one-line
    # description (it wrapped onto three beside six buttons).
    heights = [find(app, "label", text).queryComponent().getExtents(pyatspi.WINDOW_COORDS)[3]
               for text in ("The button you hold", "Hold the button, then let go")]
    check(heights[0] == heights[1], "squeeze: the button's description is on one line", f"heights {heights}")
    act(find(app, "push button", "Squeeze button: Long press of the double-tap button"), "click")
    pencild_has("squeezeButton", "longPress", "squeeze: long press is sent as squeezeButton=longPress")
    radio = find(app, "check box", "Squeeze: Show the colour palette")
    click(radio)
    pencild_has("squeezeAction", "showColorPalette", "squeeze: its action is sent")
    show_page(app, "Double-tap")
    upper = find(app, "push button", "Double-tap button: Upper button")
    check("sensitive" in states(upper), "double-tap: the upper button can be chosen once the squeeze is a long press")
    act(upper, "click")
    pencild_has("tapButton", "stylus2", "double-tap: the upper button is sent as tapButton=stylus2")
    act(find(app, "push button", "Double-tap button: Lower button"), "click")
    pencild_has("tapButton", "stylus", "double-tap: back to the lower button")
    show_page(app, "Squeeze")
    act(find(app, "push button", "Squeeze button: Upper button"), "click")
    pencild_has("squeezeButton", "stylus2", "squeeze: back to the upper button")

    # Timing: the spin buttons offer what a hand can make (pencild accepts 1 to 10000 ms);
    # a value out of that range cannot be set here.
    show_page(app, "Timing")
    spins = {"doubleTapInterval": "Double-tap speed, in milliseconds", "tapMaxDuration": "Tap length, in milliseconds",
             "longPressDuration": "Long press, in milliseconds", "doubleTapSlop": "Distance between taps, in millimetres"}
    ranges = {"doubleTapInterval": (100.0, 2000.0), "tapMaxDuration": (50.0, 2000.0),
              "longPressDuration": (200.0, 5000.0), "doubleTapSlop": (0.5, 50.0)}
    values = {"doubleTapInterval": 520, "tapMaxDuration": 250, "longPressDuration": 700, "doubleTapSlop": 6.5}
    for field, name in spins.items():
        spin = find(app, "spin button", name)
        if spin is None:
            fail(f"no spin button {name!r}")
            continue
        spin_value = spin.queryValue()
        low, high = ranges[field]
        check((spin_value.minimumValue, spin_value.maximumValue) == (low, high),
              f"timing: {name} ranges from {low:g} to {high:g}",
              f"{spin_value.minimumValue}..{spin_value.maximumValue}")
        spin_value.currentValue = values[field]
        pencild_has(field, values[field], f"timing: {name} = {values[field]} is sent")
    spin = find(app, "spin button", spins["doubleTapInterval"])
    spin.queryValue().currentValue = 5
    pencild_has("doubleTapInterval", 100, "timing: a 5 ms double-tap speed cannot be set: it is held at 100 ms")
    spin.queryValue().currentValue = 20000
    pencild_has("doubleTapInterval", 2000, "timing: 20000 ms is held at 2000 ms")
    spin = find(app, "spin button", spins["doubleTapSlop"])
    spin.queryValue().currentValue = 0
    pencild_has("doubleTapSlop", 0.5, "timing: a distance of 0 mm is held at 0.5 mm")
    # Set elsewhere, out of a hand's reach: shown as it is, and said to be.
    pencilctl_set("doubleTapInterval=5")
    spin = find(app, "spin button", spins["doubleTapInterval"])
    check(wait(lambda: spin.queryValue().currentValue == 5, 5), "timing: pencilctl's 5 ms shows as it is")
    warned = "pencild has 5 ms: no second press comes that soon. Choose from 100 ms to 2000 ms"
    check(wait(lambda: warned in labels(app), 5), f"timing: and the row says what it does ({warned!r})")
    show_page(app, "Try it")
    check(wait(lambda: "Double-tap speed: 5 ms" in labels(app), 5),
          "try it: says why no double-tap will come: the double-tap speed is 5 ms")
    show_page(app, "Timing")
    shot("timing-out-of-reach.png")
    act(find(app, "push button", "Reset to defaults"), "click")
    after = wait(lambda: (lambda p: p if p["doubleTapInterval"] == 400 else None)(prefs()), 5) or prefs()
    check((after["tapMaxDuration"], after["doubleTapInterval"], after["longPressDuration"], after["doubleTapSlop"])
          == (300, 400, 500, 4), "timing: Reset to defaults sends 300, 400, 500 ms and 4 mm", str(after))
    check(after["squeezeAction"] == "showColorPalette", "timing: the reset leaves the actions alone")
    check(wait(lambda: find(app, "spin button", spins["longPressDuration"]).queryValue().currentValue == 500, 5),
          "timing: the window shows the defaults after the reset")
    check(wait(lambda: warned not in labels(app), 5), "timing: and no longer says the speed is out of reach")

    # Apps and the eraser button: switches.
    show_page(app, "Apps")
    # Both on by default: the eraser switch first, while the clicks are kept (it needs them).
    check(not any(text.startswith("Works only while") for text in labels(app)),
          "apps: while the clicks are kept, the eraser switch gives no reason to be greyed")
    for field, name, on in [("mirrorSwitchesTool", "Switch to the eraser in every app", False),
                            ("withholdGestureClicks", "Keep gesture clicks from apps", False),
                            ("prefersPencilOnlyDrawing", "Draw only with the pen", True),
                            ("prefersHoverToolPreview", "Preview the tool while hovering", False)]:
        switch = find(app, "check box", name)
        act(switch, "toggle")
        pencild_has(field, on, f"apps: '{name}' is sent as {field}={str(on).lower()}")
    shown = labels(app)
    check(any(text.startswith("On: a double-tap’s and a squeeze’s clicks never reach apps") and "Off: apps get every click" in text
              for text in shown),
          "apps: the withholding switch says what it does, on and off")
    check(wait(lambda: not find(app, "check box", "Switch to the eraser in every app").getState().contains(pyatspi.STATE_SENSITIVE), 5),
          "apps: with the clicks no longer kept, the eraser switch is greyed (it works through them)")
    check(wait(lambda: any(text.startswith("Works only while “Keep gesture clicks from apps” is on") for text in labels(app)), 5),
          "apps: and the greyed switch says why")
    check(not any("takes effect with a pencild that withholds clicks" in text for text in shown),
          "apps: and no longer that it waits for a pencild that withholds clicks (this one does)")
    show_page(app, "Pens")
    act(find(app, "check box", "Use the eraser button as a button"), "toggle")
    pencild_has("eraserButton", "button", "pens: the eraser button switch is sent as eraserButton=button")

    # Changed elsewhere: the window follows.
    pencilctl_set("doubleTapAction=showInkAttributes", "squeezeButton=none", "doubleTapInterval=650",
                  "prefersHoverToolPreview=true", "eraserButton=eraser")
    show_page(app, "Double-tap")
    check(wait(lambda: checked(find(app, "check box", "Double-tap: Show ink attributes")), 5),
          "pencilctl's doubleTapAction=showInkAttributes shows as the checked radio")
    check(not checked(find(app, "check box", "Double-tap: Switch between the current tool and the eraser")),
          "and the action before is no longer checked")
    show_page(app, "Squeeze")
    check(wait(lambda: checked(find(app, "push button", "Squeeze button: Off")), 5),
          "pencilctl's squeezeButton=none shows as Off")
    show_page(app, "Timing")
    check(wait(lambda: find(app, "spin button", spins["doubleTapInterval"]).queryValue().currentValue == 650, 5),
          "pencilctl's doubleTapInterval=650 shows in the spin button")
    show_page(app, "Apps")
    check(wait(lambda: checked(find(app, "check box", "Preview the tool while hovering")), 5),
          "pencilctl's prefersHoverToolPreview=true shows as the switch on")
    check(wait(lambda: any("up to 650 ms late" in text for text in labels(app)), 5),
          "the withholding sentence gives the lone click's delay from the new double-tap speed")
    show_page(app, "Pens")
    check(wait(lambda: not checked(find(app, "check box", "Use the eraser button as a button")), 5),
          "pencilctl's eraserButton=eraser shows as the switch off")

    # pencil-actions: not running, then running (a process of that name), then not again, all
    # while the page stays shown; its switch follows, greyed, and says why: this session has
    # no user service manager (the test's bus is dbus-run-session's). Then its bindings.
    show_page(app, "Apps")
    switch = find(app, "check box", "Perform gestures in other apps")
    check(wait(lambda: any(text.startswith("Not running. This session has no user service manager")
                           for text in labels(app)), 5),
          "apps: pencil-actions is shown as not running, and why the window cannot start it")
    check(switch is not None and not checked(switch) and not sensitive(switch),
          "apps: its switch is off and greyed")
    fake = os.path.join(os.environ["WORK"], "pencil-actions")
    shutil.copy("/bin/sleep", fake)
    process = subprocess.Popen([fake, "60"])
    try:
        check(wait(lambda: any(text.startswith("Running. Started outside your services") for text in labels(app)), 10),
              "apps: pencil-actions started while the page is shown is shown as running, and why it cannot be stopped here")
        check(wait(lambda: checked(switch), 5) and not sensitive(switch), "apps: its switch is on, and greyed")
        shot("apps-pencil-actions-elsewhere.png")
    finally:
        process.terminate()
        process.wait()
    check(wait(lambda: any(text.startswith("Not running") for text in labels(app)), 10),
          "apps: and as not running once it stops, the page still shown")
    check(wait(lambda: not checked(switch), 5), "apps: its switch is off again")
    check(any(text == os.path.join(os.environ["XDG_CONFIG_HOME"], "pencild", "actions.conf") for text in labels(app)),
          "apps: the bindings row shows where pencil-actions reads them")
    bindings = os.path.join(os.environ["XDG_CONFIG_HOME"], "pencild", "actions.conf")
    check(not os.path.exists(bindings), "apps: there is no bindings file yet")
    act(find(app, "push button", "Open the bindings file"), "click")
    made = wait(lambda: os.path.exists(bindings) and "[switchEraser]" in open(bindings, encoding="utf-8").read(), 5)
    check(bool(made), "apps: Open bindings makes the bindings file from the example, where pencil-actions reads it")
    # The system palette of each app, as pencil-actions reads the bindings (pencilctl actions
    # palette): shown again when the page is, so the new file's apps come.
    show_page(app, "Pens")
    show_page(app, "Apps")
    title = wait(lambda: next((node for node in walk(app) if node.getRoleName() == "label" and node.name == "System palette"), None), 5)

    def on_screen(start: str) -> Any:
        """A label starting with `start` that has a place in the window (a closed row's have none)."""
        for node in walk(app):
            if node.getRoleName() == "label" and node.name.startswith(start):
                x, y, width, height = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
                if width > 0 and height > 0 and 0 <= y < 2000:
                    return node
        return None
    closed = on_screen("Undo, Redo, Color Picker") is None
    if title is not None:
        click(title)  # a click on the row opens it, as a person does
    gimp = wait(lambda: on_screen("Undo, Redo, Color Picker"), 10)
    check(closed and bool(gimp) and bool(on_screen("*gimp*")) and "Any other app" in labels(app),
          "apps: the system palette's row, closed at first, opens on a click to each app's items (GIMP's from the bindings), and every other app's below",
          f"closed at first: {closed}; GIMP's row on screen after the click: {bool(gimp)}")
    shot("apps-system-palette.png")
    pencilctl_set("doubleTapAction=switchEraser", "squeezeAction=showContextualPalette", "squeezeButton=stylus2",
                  "doubleTapInterval=400", "withholdGestureClicks=false", "prefersPencilOnlyDrawing=false")
    # pencild stops next, while a page other than Pens is shown.
    show_page(app, "Double-tap")


BANNER = "pencild is not running, so these settings cannot be changed until it starts"


def phase_absent(app: Any) -> None:
    # pencild stopped while the Double-tap page was shown: that page says why it is greyed.
    check(bool(wait(lambda: BANNER in labels(app), 15)),
          f"pencild stopped: the page shown says why its settings are greyed ({BANNER!r})")
    radio = find(app, "check box", "Double-tap: Do nothing")
    check(radio is not None and not sensitive(radio), "the settings cannot be changed meanwhile")
    shot("double-tap-pencild-absent.png")
    for page in ("Squeeze", "Timing", "Apps", "Try it"):
        show_page(app, page)
        check(BANNER in labels(app), f"so does the {page} page")
    show_page(app, "Pens")
    shown = wait(lambda: "pencild is not running" in labels(app) and labels(app), 15) or labels(app)
    check("pencild is not running" in shown, "the pens page says it is not running")
    check(BANNER not in shown, "and, having the whole story, no banner")
    check(any("systemctl --user start pencild.socket" in text for text in shown),
          "and says how to start it, as docs/troubleshooting.md does")
    check("Wacom Intuos5 touch M" not in shown, "and shows no pen")
    show_page(app, "Double-tap")
    act(find(app, "push button", "Show what to do on the Pens page"), "click")
    check(bool(wait(lambda: "pencild is not running" in labels(app) and BANNER not in labels(app), 5)),
          "the banner's button shows the Pens page")
    # pencild comes back while the Double-tap page is shown.
    show_page(app, "Double-tap")


def phase_back(app: Any) -> None:
    radio = find(app, "check box", "Double-tap: Show the colour palette")
    back = wait(lambda: BANNER not in labels(app) and sensitive(radio), 20)
    check(bool(back), "pencild started again: the page shown lost its banner, its settings can be changed again",
          str(labels(app)))
    pencilctl_set("doubleTapAction=showColorPalette")
    check(wait(lambda: checked(radio), 5), "and follows the new daemon's preferences")
    show_page(app, "Pens")
    check(bool(wait(lambda: "pencild is not running" not in labels(app) and "No pens attached" in labels(app), 5)),
          "the pens page: connected by itself, no pens attached", str(labels(app)))
    pencilctl_set("doubleTapAction=switchEraser")
    # The next pencild replays the test pen with the third button as the double-tap's (set
    # now, kept by pencild): the gestures tried so far are cleared for it.
    pencilctl_set("tapButton=stylus3")
    show_page(app, "Try it")
    act(find(app, "push button", "Clear the gestures"), "click")
    check(bool(wait(lambda: "Nothing yet" in labels(app), 5)), "try it: the gestures are cleared")
    check(bool(wait(lambda: "No pen is attached" in labels(app), 5)),
          "try it: with no pen attached, says so as what keeps gestures from coming")


def phase_unmade(app: Any) -> None:
    """The test pen replayed again, its double-tap button the third, which it lacks: Try it
    says so before and as the pen is used; the squeeze, on a button it has, still comes."""
    note = "The double-tap button is the third button, but no attached pen has a third button"
    check(bool(wait(lambda: note in labels(app), 15)), f"try it: says why no double-tap will come ({note!r})")
    check("No pen is attached" not in labels(app), "try it: and no longer that no pen is attached")
    pressed = "No gesture uses it: the double-tap button is the third button; the squeeze button is the upper button"
    check(bool(wait(lambda: "Squeeze: Show the contextual palette" in labels(app), 30)),
          "try it: the squeeze, on the upper button, is recognised (the control)")
    shown = labels(app)
    check(shown.count("Lower button pressed") == 1 and pressed in shown,
          f"try it: the lower button's six presses say once that no gesture uses it ({pressed!r})",
          f"{shown.count('Lower button pressed')} rows say it")
    check("Missed double-tap" not in shown and not any(text.startswith("Double-tap:") for text in shown),
          "try it: and no double-tap, made or missed, is claimed")
    shot("try-it-third-button.png")
    show_page(app, "Double-tap")
    check(bool(wait(lambda: "No attached pen has a third button" in labels(app), 5)),
          "double-tap: the button chosen says what it cannot do")
    third = find(app, "push button", "Double-tap button: Third button")
    check(sensitive(third) and checked(third), "double-tap: the third button, being the choice, can be left")
    shot("double-tap-third-button.png")
    act(find(app, "push button", "Double-tap button: Lower button"), "click")
    pencild_has("tapButton", "stylus", "double-tap: back to the lower button")
    check(not sensitive(find(app, "push button", "Double-tap button: Third button")),
          "double-tap: and the third button can no longer be chosen")


def phase_buttons(app: Any) -> None:
    """An AES pen (its eraser is a button, libwacom says) and a Pro Pen 3's display (a third
    button), attached: the third button is offered; the eraser only once it is a button."""
    show_page(app, "Double-tap")
    third = find(app, "push button", "Double-tap button: Third button")
    check(bool(wait(lambda: sensitive(third), 15)),
          "double-tap: with a Pro Pen 3 attached, the third button is offered")
    eraser = find(app, "push button", "Double-tap button: Eraser button")
    why = "The eraser is not a button: turn on “Use the eraser button as a button” on the Pens page"
    check(not sensitive(eraser) and eraser.description == why,
          f"double-tap: the AES pen's eraser, while not a button, cannot be chosen, and says why ({why!r})",
          repr(eraser.description))
    show_page(app, "Pens")
    act(find(app, "check box", "Use the eraser button as a button"), "toggle")
    pencild_has("eraserButton", "button", "pens: the eraser is made a button")
    show_page(app, "Double-tap")
    check(bool(wait(lambda: sensitive(eraser) and not eraser.description, 5)),
          "double-tap: then the eraser button is offered")
    act(eraser, "click")
    pencild_has("tapButton", "eraser", "double-tap: the eraser button is sent as tapButton=eraser")
    # Turned back into an eraser elsewhere: what a person met, silently, before.
    pencilctl_set("eraserButton=eraser")
    check(bool(wait(lambda: why in labels(app), 5)), "double-tap: the eraser chosen says it is not a button now")
    shot("double-tap-eraser-not-a-button.png")
    show_page(app, "Try it")
    note = ("The double-tap button is the eraser button, but the eraser is not a button: turn on “Use the eraser "
            "button as a button” on the Pens page")
    check(bool(wait(lambda: note in labels(app), 5)), f"try it: says why no double-tap will come ({note!r})")
    pencilctl_set("tapButton=stylus")
    check(bool(wait(lambda: note not in labels(app), 5)), "try it: and stops saying it once the button is one the "
          "pen has")


def phase_gnome(app: Any) -> None:
    """On GNOME, the gesture pages and the Apps page say what GNOME's tablet settings do, and
    open them."""
    calls = os.environ["GNOME_CALLS"]
    for page in ("Double-tap", "Squeeze", "Apps"):
        show_page(app, page)
        check("GNOME’s tablet settings" in labels(app), f"gnome: the {page} page says what GNOME's settings do")
        shot(f"{page.lower()}-gnome.png")
    show_page(app, "Squeeze")
    shown = labels(app)
    check(any("The squeeze comes from the button itself, whatever GNOME maps it to" in text for text in shown),
          "gnome: a mapping in GNOME does not move the squeeze")
    # GTK's tree holds every page (it reports no "showing"): one button on each of the three.
    buttons = [node for node in walk(app) if node.getRoleName() == "push button"
               and node.name == "Open GNOME’s Wacom Tablet settings"]
    check(len(buttons) == 3, "gnome: a button opens GNOME's Wacom Tablet settings on each of the three pages",
          f"{len(buttons)} buttons")
    if buttons:
        act(buttons[0], "click")
    opened = wait(lambda: os.path.exists(calls) and open(calls, encoding="utf-8").read().split(), 10)
    check(opened == ["wacom"], "gnome: it runs gnome-control-center wacom", repr(opened))


def phase_shots(app: Any, style: str) -> None:
    show_page(app, "Try it")
    check(bool(wait(lambda: "Squeeze: Show the contextual palette" in labels(app), 30)),
          f"{style} style: the replayed gestures are on the try-it page")
    for page in PAGES:
        show_page(app, page)
        time.sleep(0.5)
        shot(f"{page.lower().replace(' ', '-')}-{style}.png")


def phase_demo(app: Any) -> None:
    """pencild with its demo pen alone, as `make run` starts it for a person with no tablet:
    Try it offers the demo pen's gestures, and each button's gesture shows as recognised."""
    show_page(app, "Try it")
    for gesture, recognised in (("double-tap", "Double-tap: Switch between the current tool and the eraser"),
                                ("squeeze", "Squeeze: Show the contextual palette")):
        button = find(app, "push button", f"Make the demo pen {gesture}")
        if not check(button is not None, f"try it: a button makes the demo pen {gesture}",
                     f"the labels are {labels(app)}"):
            return
        click(button)
        check(wait(lambda: recognised in labels(app), 20), f"try it: the demo pen's {gesture} shows as recognised",
              f"the labels are {labels(app)}")
    check("The demo pen’s gestures show below as pencild recognises them, under your settings" in labels(app),
          "try it: with only the demo pen, the page does not ask to hover over a tablet")
    shot("try-demo-pen.png")
    # The demo pen has no eraser: no eraser button to turn into a button (the settings phase,
    # whose pen has an eraser end, has the switch).
    pencilctl_set("eraserButton=eraser")
    show_page(app, "Pens")
    check(wait(lambda: "pencild demo pen (demo0)" in labels(app), 10), "pens: the demo pen is shown")
    check(find(app, "check box", "Use the eraser button as a button") is None,
          "pens: a pen with no eraser is offered no eraser-button switch")


def main() -> int:
    phase = sys.argv[1]
    app = application()
    if phase == "gestures":
        phase_gestures(app)
    elif phase == "settings":
        phase_settings(app)
    elif phase == "absent":
        phase_absent(app)
    elif phase == "back":
        phase_back(app)
    elif phase == "unmade":
        phase_unmade(app)
    elif phase == "buttons":
        phase_buttons(app)
    elif phase == "gnome":
        phase_gnome(app)
    elif phase == "demo":
        phase_demo(app)
    elif phase in ("shots-light", "shots-dark"):
        phase_shots(app, phase.split("-")[1])
    else:
        print(f"drive.py: no phase {phase}", file=sys.stderr)
        return 2
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
