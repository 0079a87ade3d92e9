#!/usr/bin/env python3
"""Inside the desktop tier's VM (tests/desktop/vm.sh): Debian booted with systemd as PID 1,
this build's packages installed, a person logged in on tty1 through logind, and a desktop
started by that login with its own libinput reading the seat's devices, opened through logind.
Run as root by desktop-vm-test.service, with the desktops to go through as arguments, the
person logging in again for each after the first: sway (headless output), gnome (GNOME Shell
on the VM's display), kwin (KWin 6 on the VM's display). A pen (a Wacom Intuos5's,
through uinput) comes; the system pencild mirrors it for the person at the seat, and the
desktop reads the mirror as it reads any tablet. Then, with real apps in front (a GTK 4 app,
then a Qt 6 app, each filling the screen):

  1. a stroke arrives with its pressure; a lone click of the lower button arrives late (no sooner
     than doubleTapInterval after its press); a double-tap delivers no button event; the upper
     button's squeeze no press;
  2. the double-tap was switchEraser, performed by the pen: the next stroke is an eraser stroke,
     and after the next double-tap a pen stroke again;
  3. with mirrorSwitchesTool off, pencil-actions (the person's user service) learns the focused
     app from the desktop (sway's wlr-foreign-toplevel, the Shell extension, which it turns on
     itself, the KWin script), and a double-tap presses that app's own chord on pencild's
     keyboard: the app's text field shows it, the other's does not;
  4. with nothing configured, a squeeze opens the system palette at the pen, on the layer shell
     (sway, KWin) or drawn by GNOME Shell (its extension), whose Eraser and Pen the pen taps,
     and which a tap outside and Escape close: over the GTK 4 app, then over Xournal++, whose
     page is read from the screen (ink drawn, erased, drawn again; no ink where a tap outside
     touched) and whose own Highlighter types its chord into it;
  5. GNOME: the person turns the extension off, and pencil-actions started again leaves it off;
     a squeeze then opens no palette, and pencilctl actions says why.

Each check prints "DESKTOP-VM PASS name: detail" or "DESKTOP-VM FAIL name: detail" (to the
second serial port, which vm.sh reads); screenshots (grim, the Shell's, under KWin the graphics
card's buffer) and logs go to /srv/vm/results, which vm.sh takes from the disk image after the
VM powers off.
"""

import ctypes
import fcntl
import glob
import json
import mmap
import os
import pwd
import re
import subprocess
import sys
import time
import traceback

sys.path.insert(0, "/srv/vm")
import virtual_pen  # noqa: E402
from virtual_pen import (ABS_DISTANCE, ABS_MISC, ABS_PRESSURE, ABS_X, ABS_Y, BTN_STYLUS, BTN_STYLUS2,  # noqa: E402
                         BTN_TOOL_PEN, BTN_TOUCH, EV_ABS, EV_KEY)

import pencild  # noqa: E402  (python3-pencild, from this build)

PERSON = "person"
RESULTS = "/srv/vm/results"
SYSTEM_SOCKET = "/run/pencild/pencild.sock"
# The pen's X and Y range (virtual_pen.AXES), mapped by the desktop onto its one output.
TABLET = (21600, 13500)
STYLUS_ID, SERIAL = 0x802, 0x1234  # an Intuos5's Grip Pen, which libwacom pairs with an eraser

passed = failed = 0


def say(line):
    print(f"DESKTOP-VM {line}", flush=True)


def pass_(name, detail=""):
    global passed
    passed += 1
    say(f"PASS {name}: {detail}")


def fail(name, detail=""):
    global failed
    failed += 1
    say(f"FAIL {name}: {detail}")


def check(condition, name, detail=""):
    (pass_ if condition else fail)(name, detail)
    return condition


def wait_for(condition, timeout, pause=0.05):
    """condition() again every `pause` s (50 ms) until it gives something true, or None after
    `timeout` s (what the tier waits on is a file an app writes, or a compositor's answer: no
    event to block on from here)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            return None
        time.sleep(pause)


person = pwd.getpwnam(PERSON)
runtime = f"/run/user/{person.pw_uid}"
session = {"HOME": person.pw_dir, "USER": PERSON, "LOGNAME": PERSON, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
           "XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": f"unix:path={runtime}/bus"}


def process_commands():
    """The command line of each process running now."""
    commands = []
    for path in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            with open(path, "rb") as file:
                commands.append(file.read().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            pass  # ended meanwhile
    return commands


def person_command(*command):
    """COMMAND's words to run it as the person, in the session's environment (the desktop's
    sockets once it runs)."""
    return ["setpriv", f"--reuid={person.pw_uid}", f"--regid={person.pw_gid}", "--init-groups", "--",
            "env", "-i", *(f"{key}={value}" for key, value in session.items()), *command]


def as_person(*command, timeout=60):
    """COMMAND as the person, to its end."""
    return subprocess.run(person_command(*command), capture_output=True, text=True, timeout=timeout)


class AppEvents:
    """What an app (tests/desktop/app.py or qt_app.py) wrote of the pen and its text field."""

    def __init__(self, path):
        self.path = path
        self.mark_at = 0

    def all(self):
        try:
            with open(self.path, encoding="utf-8") as file:
                return [json.loads(line) for line in file if line.endswith("\n")]
        except FileNotFoundError:
            return []

    def mark(self):
        """What comes after this moment is what the next check reads."""
        self.mark_at = len(self.all())

    def since(self, kind="pen"):
        return [event for event in self.all()[self.mark_at:] if event["kind"] == kind]

    def text(self):
        texts = [event["text"] for event in self.all() if event["kind"] == "text"]
        return texts[-1] if texts else ""


class Person:
    """The hand holding the pen: where it is, and what it does with it. The virtual pen sends
    frames only when told, and pencild takes a pen out of proximity after 500 ms without one
    (docs/gestures.md, "Forced proximity-out"), so the hand moves a little while it waits, as a
    person's does (by more than the axis's fuzz, or the kernel drops the value)."""

    def __init__(self, pen):
        self.pen = pen
        self.x = TABLET[0] // 2
        self.y = TABLET[1] // 2

    def enter(self):
        self.x, self.y = TABLET[0] // 2, TABLET[1] // 2
        self.pen.emit((EV_ABS, ABS_X, self.x), (EV_ABS, ABS_Y, self.y), (EV_ABS, ABS_DISTANCE, 10),
                      (EV_ABS, ABS_MISC, STYLUS_ID), (virtual_pen.EV_MSC, virtual_pen.MSC_SERIAL, SERIAL),
                      (EV_KEY, BTN_TOOL_PEN, 1))
        time.sleep(0.05)

    def hover(self, seconds=0.0, every=0.05):
        """Moves a little, and keeps moving for `seconds`, a frame `every` so many seconds."""
        deadline = time.monotonic() + seconds
        while True:
            self.step = -getattr(self, "step", -20)  # to and fro: the hand stays where it is
            self.x += self.step
            self.pen.emit((EV_ABS, ABS_X, self.x))
            if time.monotonic() >= deadline:
                return
            time.sleep(every)

    def leave(self):
        self.pen.emit((EV_ABS, ABS_MISC, 0), (EV_KEY, BTN_TOOL_PEN, 0))
        time.sleep(0.05)

    def stroke(self, seen=lambda: True, taken=lambda: True):
        """In, hovering until `seen()` (the app has the tool: a compositor announces a tool new
        to it before its events, and a person's pen hovers before it touches anyway), down, a
        line with rising pressure, up, away. After each step the hand waits a little for
        `taken()` (the app has a move it had not): GTK merges the moves of one frame of its own,
        and an app's first frames under emulation are slow, so a hand that outran them left a
        stroke of one or two moves. (Never longer than pencild's 500 ms without a frame.)"""
        self.enter()
        wait_for(lambda: (self.hover(), seen())[1], 30)
        self.pen.emit((EV_ABS, ABS_DISTANCE, 0), (EV_ABS, ABS_PRESSURE, 1500), (EV_KEY, BTN_TOUCH, 1))
        for step in range(1, 21):
            time.sleep(0.02)
            self.x += 150
            self.pen.emit((EV_ABS, ABS_X, self.x), (EV_ABS, ABS_PRESSURE, 1500 + 300 * step))
            wait_for(taken, 0.4)
        time.sleep(0.03)
        self.pen.emit((EV_ABS, ABS_PRESSURE, 0), (EV_KEY, BTN_TOUCH, 0))
        time.sleep(0.03)
        self.leave()

    def touch(self, pressure=3000):
        """The tip down and up again where the hand is: a tap of the pen on the tablet."""
        self.pen.emit((EV_ABS, ABS_DISTANCE, 0), (EV_ABS, ABS_PRESSURE, pressure), (EV_KEY, BTN_TOUCH, 1))
        time.sleep(0.03)
        self.pen.emit((EV_ABS, ABS_PRESSURE, 0), (EV_ABS, ABS_DISTANCE, 10), (EV_KEY, BTN_TOUCH, 0))

    def click(self, button, held=0.04):
        """A press and release of a barrel button; the moment of the press (CLOCK_MONOTONIC, ms)."""
        pressed = self.pen.emit((EV_KEY, button, 1))
        time.sleep(held)
        self.pen.emit((EV_KEY, button, 0))
        return pressed * 1000

    def squeeze(self, held=0.2):
        """The upper button held a moment, the hand hovering, then let go."""
        self.pen.emit((EV_KEY, BTN_STYLUS2, 1))
        self.hover(held)
        self.pen.emit((EV_KEY, BTN_STYLUS2, 0))

    def double_tap(self):
        self.click(BTN_STYLUS, held=0.03)
        time.sleep(0.03)
        self.click(BTN_STYLUS, held=0.03)


def pen_device(device_id):
    for device in pencild.list_devices(SYSTEM_SOCKET):
        if device.id == device_id:
            return device
    return None


def tip_reported_as(device_id):
    device = pen_device(device_id)
    return device.tip_reported_as.value if device is not None and device.tip_reported_as is not None else None


def double_tap_interval_ms():
    """The person's doubleTapInterval, as pencilctl shows it."""
    result = as_person("pencilctl", "prefs", "get", "--json")
    shown = json.loads(result.stdout)
    return float(shown.get("preferences", shown)["doubleTapInterval"])


# The button each toolkit names for the tip. Which button a barrel button becomes is the
# desktop's choice (sway passes BTN_STYLUS on as itself, which GTK calls 2 and Qt MiddleButton;
# mutter makes it its secondary button, 3 and RightButton), so the checks take any button but
# the tip's as a barrel button's.
TIP = {"gtk": 1, "qt": "LeftButton"}


def motions(events, tool):
    """The app's moves of `tool` with the tip down (pressure above 0), since the mark."""
    return [event for event in events.since() if event["type"] == "motion" and event["tool"] == tool
            and event["pressure"] is not None and event["pressure"] > 0]


def stroke_received(hand, events, tool, tip):
    """A stroke, and whether the app received it as one of `tool`, with rising pressure."""
    events.mark()
    had = [0]

    def taken():
        """The app has a move of this stroke it had not at the last step."""
        count = len(motions(events, tool))
        if count > had[0]:
            had[0] = count
            return True
        return False

    def tip_events():
        return [event for event in events.since() if event["type"] in ("press", "release") and event.get("button") == tip]
    hand.stroke(seen=lambda: any(event["tool"] == tool for event in events.since()), taken=taken)
    drawn = wait_for(lambda: len(motions(events, tool)) >= 3 and any(event["type"] == "release" for event in tip_events()), 60)
    received = events.since()
    pressures = [round(event["pressure"], 3) for event in motions(events, tool)]
    tools = sorted({event["tool"] for event in received})
    return bool(drawn) and pressures == sorted(pressures) and len(set(pressures)) >= 3, \
        f"{len(received)} events, tools {tools}, {len(pressures)} motions with pressure {pressures[:1]}..{pressures[-1:]}"


def pen_checks(hand, device_id, events, toolkit, name, interval, explain=lambda: ""):
    """`explain()` says what the desktop and the app were doing, added to a failed check's detail."""
    tip = TIP[toolkit]

    def check(condition, check_name, detail=""):
        return globals()["check"](condition, check_name, detail if condition else f"{detail}; {explain()}")

    def fail(check_name, detail=""):
        globals()["fail"](check_name, f"{detail}; {explain()}")

    def settled():
        """The hand hovers on past the moment a click passed on late would come
        (doubleTapInterval after the last press, with room), then touches the tablet once: once
        the app has that touch, what it did not receive before, it never gets. (A touch: Qt
        gives a hovering eraser no move events.)"""
        after = time.clock_gettime(time.CLOCK_MONOTONIC) * 1000 + interval + 200
        hand.hover((interval + 200) / 1000)
        hand.touch()
        return wait_for(lambda: [e for e in events.since() if e["received"] >= after and e["type"] in ("press", "release")], 30)

    def button_events(button):
        """The events in which the app has `button` pressed or released (Qt may say a barrel
        button held while hovering only in a move's buttons)."""
        return [event for event in events.since() if (event["type"] in ("press", "release") and event.get("button") == button)
                or button in event.get("buttons", [])]

    def barrel_events():
        """The events in which the app has a button other than the tip's pressed or released."""
        return [event for event in events.since() if (event["type"] in ("press", "release") and event.get("button") != tip)
                or any(button != tip for button in event.get("buttons", []))]

    def barrel_button(event):
        return event.get("button") if event["type"] in ("press", "release") else \
            next(button for button in event["buttons"] if button != tip)

    def stroke_of(tool):
        return stroke_received(hand, events, tool, tip)

    # 1. A stroke, with its pressure.
    ok, detail = stroke_of("pen")
    check(ok, f"{name}: a pen stroke arrives with its rising pressure (libinput read the mirror)", detail)

    # A lone click of the lower button arrives, late: the positive beside the two negatives below.
    hand.enter()
    events.mark()
    pressed_ms = hand.click(BTN_STYLUS)
    def pressed_and_released():
        """The first event with a barrel button down, once a later one has it up again."""
        received, barrel = events.since(), barrel_events()
        first = next((index for index, event in enumerate(received) if event in barrel), None)
        if first is None:
            return None
        lower = barrel_button(received[first])
        released = any(event["type"] == "release" and event.get("button") == lower for event in received[first:]) or \
            any("buttons" in event and lower not in event["buttons"] for event in received[first + 1:])
        return received[first] if released else None
    # While the click is on its way the pen reports as a pen in proximity does, every few ms (an
    # Intuos5 200 times a second), so that the late press and its release come in frames apart.
    # (KWin sends a tablet button with no frame of its own, and Qt applies buttons at a frame:
    # a press and release with no pen frame between them would cancel out in a Qt app there.)
    arrived = wait_for(lambda: (hand.hover(0.1, every=0.01), pressed_and_released())[1], 30, pause=0)
    if arrived:
        late = arrived["received"] - pressed_ms
        check(late >= interval, f"{name}: a lone click of the lower button arrives, late, and ends",
              f"the app had its press (button {barrel_button(arrived)}) {late:.0f} ms after the pen's "
              f"(doubleTapInterval {interval:.0f} ms)")
    else:
        fail(f"{name}: a lone click of the lower button arrives, late, and ends", f"{events.since()[-5:]}")
    hand.leave()

    # A double-tap: no button event; pencild switches the pen to its eraser (switchEraser).
    hand.enter()
    events.mark()
    hand.double_tap()
    switched = wait_for(lambda: (hand.hover(), tip_reported_as(device_id) == "eraser")[1], 30)
    later = settled()
    hand.leave()
    check(bool(switched), f"{name}: the double-tap is switchEraser, performed by the pen",
          f"pencild reports the tip as {tip_reported_as(device_id)}")
    check(bool(later) and not barrel_events(),
          f"{name}: the double-tap delivers no button event",
          f"{len(events.since())} pen events after it, barrel buttons among them: {barrel_events()}")

    # 2. The next stroke is an eraser stroke.
    ok, detail = stroke_of("eraser")
    check(ok, f"{name}: the next stroke is an eraser stroke", detail)

    # The squeeze (the upper button held, then released): no press of it.
    hand.enter()
    events.mark()
    hand.squeeze(0.3)
    later = settled()
    hand.leave()
    check(bool(later) and not barrel_events(), f"{name}: the squeeze button delivers no press",
          f"{len(events.since())} pen events while it was held and after, barrel buttons among them: {barrel_events()}")

    # A double-tap again: back to the pen, and the control stroke is a pen's.
    hand.enter()
    hand.double_tap()
    back = wait_for(lambda: (hand.hover(), tip_reported_as(device_id) == "pen")[1], 30)
    hand.leave()
    ok, detail = stroke_of("pen")
    check(bool(back) and ok, f"{name}: a double-tap again, and the next stroke is a pen's", detail)


# GTK draws with cairo, as where there is no GPU: GNOME Shell offers its clients EGL (llvmpipe
# under emulation), with which GTK's first frame, compiling its shaders, takes minutes.
APPS = (("A", "app.py", "org.pencild.DesktopTestA", "gtk", "GDK_BACKEND=wayland GSK_RENDERER=cairo"),
        ("Qt", "qt_app.py", "org.pencild.DesktopTestQt", "qt", "QT_QPA_PLATFORM=wayland"))


def active_session():
    """The person's session, when it is the active one on seat0, as logind shows it."""
    seat = subprocess.run(["loginctl", "show-seat", "seat0", "-p", "ActiveSession", "--value"], capture_output=True, text=True)
    session_id = seat.stdout.strip()
    if not session_id:
        return None
    shown = subprocess.run(["loginctl", "show-session", session_id, "-p", "Id", "-p", "Name", "-p", "Type", "-p", "State",
                            "-p", "TTY"], capture_output=True, text=True).stdout
    return shown if f"Name={PERSON}" in shown and "State=active" in shown else None


class Desktop:
    """What a desktop of the tier does its own way: start in the person's login, open, focus,
    close and picture an app, and say whether its libinput reads the pen's mirror."""

    name = "?"
    log = "?"  # its own log, in RESULTS (the person's .bash_profile writes it)

    def __init__(self):
        self.processes = {}
        self.app_logs = {}

    def start(self):
        """This desktop, started by the person's login on tty1 (their .bash_profile reads
        /srv/vm/desktop): the one at boot, or the next after the session before ended."""
        with open("/srv/vm/desktop", encoding="utf-8") as file:
            running = file.read().strip()
        with open("/srv/vm/desktop", "w", encoding="utf-8") as file:
            file.write(self.name + "\n")
        before = active_session()
        if before and running != self.name:
            session_id = next(line[3:] for line in before.splitlines() if line.startswith("Id="))
            subprocess.run(["loginctl", "terminate-session", session_id], check=False)
            wait_for(lambda: active_session() != before, 60)
        for key in ("SWAYSOCK", "WAYLAND_DISPLAY"):
            session.pop(key, None)
        logged_in = wait_for(active_session, 120)
        check(bool(logged_in), f"{self.name}: the person is logged in on seat0 through logind, the active session",
              " ".join((logged_in or "").split()))
        return bool(logged_in)

    def log_tail(self):
        try:
            with open(f"{RESULTS}/{self.log}", errors="replace") as file:
                return file.read()[-600:].replace("\n", " | ")
        except OSError as error:
            return str(error)

    def explain(self, app_id):
        """What a failed check's detail adds: whether the app still runs, the end of its log,
        and what the desktop itself says (an app the compositor dropped, or a dialog over it,
        receives nothing more, and says so only there)."""
        running = any(app_id in command for command in process_commands())
        log = self.app_logs.get(app_id)
        try:
            with open(f"{RESULTS}/{log}", errors="replace") as file:
                tail = file.read()[-400:].replace("\n", " | ")
        except (OSError, TypeError) as error:
            tail = str(error)
        return f"the app {'runs' if running else 'no longer runs'}, its log ends: {tail!r}; {self.state()}"

    def state(self):
        return f"{self.name}'s log ends: {self.log_tail()[-300:]!r}"

    def launch(self, app_id, command):
        """COMMAND started as the person, in the session's environment."""
        self.processes[app_id] = subprocess.Popen(person_command("sh", "-c", command))

    def app_ids(self):
        """The app ids (Wayland) or classes of the windows shown."""
        return []

    def fill_screen(self, app_id):
        """The app's window over the whole screen, as a person makes it to draw (sway tiles the
        one window over the output already)."""

    def shoot_area(self, x, y, width, height):
        """That rectangle of the screen as the desktop draws it, as rows of (r, g, b); None
        where the desktop saves no screen (KWin's screenshots need OpenGL)."""
        return None

    def close(self, app_id):
        process = self.processes.pop(app_id, None)
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def open_app(self, letter, program, app_id, toolkit_env, fullscreen, log):
        """The app as the person starts it, shown and in front; what it receives."""
        events = AppEvents(f"/srv/vm/events-{letter}.jsonl")
        shown = f"/srv/vm/shown-{letter}"
        for path in (events.path, shown, shown + ".active"):
            if os.path.exists(path):
                os.remove(path)
        self.app_logs[app_id] = log
        environment = " ".join(filter(None, [toolkit_env, "DESKTOP_TEST_FULLSCREEN=1" if fullscreen else ""]))
        self.launch(app_id, f"exec env {environment} python3 /srv/vm/{program} {app_id} {shown} {events.path} "
                            f">{RESULTS}/{log} 2>&1")
        shown_in_front = wait_for(lambda: os.path.exists(shown) and self.in_front(app_id), 180)
        return events if check(bool(shown_in_front), f"{self.name}: the {letter} app ({app_id}) shows its window, in front") else None


class Sway(Desktop):
    name = "sway"
    log = "sway.log"

    def start(self):
        if not super().start():
            return False
        sockets = wait_for(lambda: glob.glob(f"{runtime}/sway-ipc.*.sock") and glob.glob(f"{runtime}/wayland-[0-9]"), 180)
        if not check(bool(sockets), "sway runs in that session (its login started it)", str(sockets)):
            return False
        session["SWAYSOCK"] = glob.glob(f"{runtime}/sway-ipc.*.sock")[0]
        session["WAYLAND_DISPLAY"] = os.path.basename(glob.glob(f"{runtime}/wayland-[0-9]")[0])
        version = subprocess.run(["sway", "--version"], capture_output=True, text=True).stdout.strip()
        say(f"INFO {version or 'sway: no version'}")
        return True

    def swaymsg(self, *arguments):
        result = as_person("swaymsg", *arguments)
        return result.stdout if result.returncode == 0 else ""

    def reads(self, mirror):
        """The pen (grabbed: it gives sway nothing) and its mirror, both named as the pen."""
        inputs = json.loads(self.swaymsg("-t", "get_inputs") or "[]")
        tablets = [device["identifier"] for device in inputs
                   if device.get("type") == "tablet_tool" and "Intuos5" in device.get("name", "")]
        return tablets if len(tablets) == 2 else None

    def launch(self, app_id, command):
        self.swaymsg("exec", command)

    def in_front(self, app_id):
        return f'"app_id": "{app_id}"' in self.swaymsg("-t", "get_tree")

    def focus(self, app_id):
        self.swaymsg(f'[app_id="{app_id}"]', "focus")

    def close(self, app_id):
        self.swaymsg(f'[app_id="{app_id}"]', "kill")
        wait_for(lambda: f'"app_id": "{app_id}"' not in self.swaymsg("-t", "get_tree"), 60)

    def app_ids(self):
        return re.findall(r'"app_id": "([^"]+)"', self.swaymsg("-t", "get_tree"))

    def shoot_area(self, x, y, width, height):
        result = as_person("grim", "-g", f"{x},{y} {width}x{height}", AREA_PICTURE)
        return area_pixels(AREA_PICTURE) if result.returncode == 0 else None

    def shoot(self, name, app_id):
        picture = f"/srv/vm/shot-{name}.png"
        result = as_person("grim", picture)
        if result.returncode == 0 and os.path.exists(picture):
            os.replace(picture, os.path.join(RESULTS, f"sway-{name}.png"))
            pass_(f"sway: the screen saved ({name})", f"{os.path.getsize(os.path.join(RESULTS, f'sway-{name}.png'))} bytes")
        else:
            fail(f"sway: the screen saved ({name})", result.stderr.strip()[:300])


class DrmStruct(ctypes.Structure):
    @classmethod
    def request(cls, number):
        """The ioctl's number: _IOWR('d', number, this struct)."""
        return (3 << 30) | (ctypes.sizeof(cls) << 16) | (ord("d") << 8) | number


class DrmCardResources(DrmStruct):
    _fields_ = [("fb_id_ptr", ctypes.c_uint64), ("crtc_id_ptr", ctypes.c_uint64), ("connector_id_ptr", ctypes.c_uint64),
                ("encoder_id_ptr", ctypes.c_uint64), ("count_fbs", ctypes.c_uint32), ("count_crtcs", ctypes.c_uint32),
                ("count_connectors", ctypes.c_uint32), ("count_encoders", ctypes.c_uint32), ("min_width", ctypes.c_uint32),
                ("max_width", ctypes.c_uint32), ("min_height", ctypes.c_uint32), ("max_height", ctypes.c_uint32)]


class DrmCrtc(DrmStruct):
    _fields_ = [("set_connectors_ptr", ctypes.c_uint64), ("count_connectors", ctypes.c_uint32), ("crtc_id", ctypes.c_uint32),
                ("fb_id", ctypes.c_uint32), ("x", ctypes.c_uint32), ("y", ctypes.c_uint32), ("gamma_size", ctypes.c_uint32),
                ("mode_valid", ctypes.c_uint32), ("mode", ctypes.c_uint8 * 68)]


class DrmFramebuffer(DrmStruct):
    _fields_ = [("fb_id", ctypes.c_uint32), ("width", ctypes.c_uint32), ("height", ctypes.c_uint32), ("pitch", ctypes.c_uint32),
                ("bpp", ctypes.c_uint32), ("depth", ctypes.c_uint32), ("handle", ctypes.c_uint32)]


class DrmMapDumb(DrmStruct):
    _fields_ = [("handle", ctypes.c_uint32), ("pad", ctypes.c_uint32), ("offset", ctypes.c_uint64)]


class DrmGemClose(ctypes.Structure):
    _fields_ = [("handle", ctypes.c_uint32), ("pad", ctypes.c_uint32)]
    REQUEST = (1 << 30) | (8 << 16) | (ord("d") << 8) | 0x09  # _IOW('d', 0x09, struct drm_gem_close)


def scanned_out(x, y, width, height, card="/dev/dri/card0"):
    """That rectangle of what the graphics card shows, as rows of (r, g, b), read from the
    buffer its CRTC scans out (root may open any framebuffer; KWin's QPainter output draws
    into dumb buffers, linear XRGB8888): the screen as a person sees it, with no help from
    the compositor, whose own screenshots need OpenGL. None when no CRTC shows a buffer."""
    descriptor = os.open(card, os.O_RDWR | os.O_CLOEXEC)
    try:
        resources = DrmCardResources()
        fcntl.ioctl(descriptor, DrmCardResources.request(0xA0), resources)
        crtc_ids = (ctypes.c_uint32 * resources.count_crtcs)()
        resources = DrmCardResources(crtc_id_ptr=ctypes.addressof(crtc_ids), count_crtcs=len(crtc_ids))
        fcntl.ioctl(descriptor, DrmCardResources.request(0xA0), resources)
        for crtc_id in crtc_ids:
            crtc = DrmCrtc(crtc_id=crtc_id)
            fcntl.ioctl(descriptor, DrmCrtc.request(0xA1), crtc)
            if not crtc.fb_id:
                continue
            framebuffer = DrmFramebuffer(fb_id=crtc.fb_id)
            fcntl.ioctl(descriptor, DrmFramebuffer.request(0xAD), framebuffer)
            if not framebuffer.handle or framebuffer.bpp != 32:
                return None
            try:
                mapping = DrmMapDumb(handle=framebuffer.handle)
                fcntl.ioctl(descriptor, DrmMapDumb.request(0xB3), mapping)
                size = framebuffer.pitch * framebuffer.height
                with mmap.mmap(descriptor, size, mmap.MAP_SHARED, mmap.PROT_READ, offset=mapping.offset) as memory:
                    rows = []
                    for row in range(max(0, y), min(y + height, framebuffer.height)):
                        start = row * framebuffer.pitch + max(0, x) * 4
                        line = memory[start:start + (min(x + width, framebuffer.width) - max(0, x)) * 4]
                        rows.append([(line[i + 2], line[i + 1], line[i]) for i in range(0, len(line), 4)])  # B, G, R, X
                    return rows
            finally:
                fcntl.ioctl(descriptor, DrmGemClose.REQUEST, DrmGemClose(handle=framebuffer.handle))
        return None
    finally:
        os.close(descriptor)


def save_pixels(rows, path):
    """Rows of (r, g, b) as a PNG (GdkPixbuf)."""
    import gi
    gi.require_version("GdkPixbuf", "2.0")
    from gi.repository import GdkPixbuf, GLib
    data = bytes(channel for row in rows for pixel in row for channel in pixel)
    width = len(rows[0])
    GdkPixbuf.Pixbuf.new_from_bytes(GLib.Bytes.new(data), GdkPixbuf.Colorspace.RGB, False, 8, width, len(rows),
                                    width * 3).savev(path, "png", [], [])


class KWin(Desktop):
    """KWin 6 on the VM's display (its DRM backend on virtio's graphics card, drawing with
    QPainter): the only way KWin reads libinput; `--virtual` reads no input device. Its
    screenshots need OpenGL: the screen is read from the card (scanned_out)."""

    name = "kwin"
    log = "kwin.log"

    def start(self):
        if not super().start():
            return False
        ready = wait_for(lambda: os.path.exists(f"{runtime}/wayland-0") and self.answers(), 240)
        if not check(bool(ready), "KWin runs in that session on the VM's display (its login started it)",
                     "" if ready else self.log_tail()):
            return False
        session["WAYLAND_DISPLAY"] = "wayland-0"
        return True

    def answers(self):
        return as_person("busctl", "--user", "status", "org.kde.KWin").returncode == 0

    def reads(self, mirror):
        result = as_person("busctl", "--user", "get-property", "org.kde.KWin", "/org/kde/KWin/InputDevice",
                           "org.kde.KWin.InputDeviceManager", "devicesSysNames")
        return [mirror] if f'"{mirror}"' in result.stdout else None

    def in_front(self, app_id):
        """KWin makes a new window the active one once it shows it, some time after the app
        has its first frame ("shown"): a pen that came in between would have no window to come
        into, and KWin then sends the window the pen's moves with no proximity-in, which Qt
        drops. So, as a person's hand would, the test waits for the window KWin shows: the
        test's apps say when theirs is active; of another app, pencil-actions (KWin's script
        tells it) names the active window's."""
        if not app_id.startswith("org.pencild.DesktopTest"):
            return self.app_ids() == [app_id]
        return app_id in self.processes and self.processes[app_id].poll() is None and \
            os.path.exists(f"/srv/vm/shown-{self.letter(app_id)}.active")

    def app_ids(self):
        """The active window's app, as KWin's script told pencil-actions (when it runs)."""
        focused = re.search(r'focused app: "([^"]+)"', as_person("pencilctl", "actions").stdout)
        return [focused[1]] if focused else []

    def fill_screen(self, app_id):
        """A KWin script makes the app's window fill the screen, as the person's F11 does."""
        script = "/srv/vm/fill-screen.js"
        with open(script, "w", encoding="utf-8") as file:
            file.write(f'for (const window of workspace.windowList())\n'
                       f'    if (window.resourceClass === "{app_id}") {{ window.fullScreen = true; workspace.activeWindow = window; }}\n')
        os.chmod(script, 0o644)
        as_person("busctl", "--user", "call", "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", "s", "fill-screen")
        loaded = as_person("busctl", "--user", "call", "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting",
                           "loadScript", "ss", script, "fill-screen")
        started = as_person("busctl", "--user", "call", "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "start")
        if loaded.returncode != 0 or started.returncode != 0:
            say(f"INFO kwin: the fill-screen script: {(loaded.stderr + started.stderr).strip()[:300]}")

    def shoot_area(self, x, y, width, height):
        return scanned_out(x, y, width, height)

    @staticmethod
    def letter(app_id):
        """The letter open_app gave the app's files (shown-LETTER)."""
        return "Qt" if app_id.endswith("Qt") else "A"

    def focus(self, app_id):
        pass  # the newest window has it

    def shoot(self, name, app_id):
        """The screen as the graphics card shows it."""
        screen = scanned_out(0, 0, *SCREEN)
        picture = os.path.join(RESULTS, f"kwin-{name}.png")
        if screen:
            save_pixels(screen, picture)
        check(bool(screen), f"kwin: the screen read from the graphics card ({name})",
              f"{os.path.getsize(picture)} bytes" if screen else "no CRTC shows a buffer root can read")


class GnomeShell(Desktop):
    """GNOME Shell (48, 50) on the VM's display (mutter's native backend, KMS on qemu's VGA,
    drawing with llvmpipe): the only way the Shell reads libinput; `--headless` reads no input
    device.
    Started in --unsafe-mode so that the test's hand can ask it (Eval) what a person sees."""

    name = "gnome"
    log = "gnome-shell.log"

    def start(self):
        if not super().start():
            return False
        session["WAYLAND_DISPLAY"] = "wayland-0"
        ready = wait_for(lambda: os.path.exists(f"{runtime}/wayland-0") and self.eval("1") == "1", 400)
        if not check(bool(ready), "gnome: GNOME Shell runs in that session on the VM's display (its login started it)",
                     self.version() if ready else self.log_tail()):
            return False
        # The Shell opens the session in its overview, which takes the pen's events over every
        # window: the person leaves it (Escape, or a click on the desktop) before drawing.
        wait_for(lambda: self.eval("Main.layoutManager._startingUp") == "false", 120)
        self.eval("Main.overview.hide()")
        left = wait_for(lambda: self.eval("Main.overview.visible || Main.overview.animationInProgress") == "false", 120)
        check(bool(left), "gnome: the person leaves the overview the Shell opens the session in",
              f"overview visible: {self.eval('Main.overview.visible')}")
        # The extension is off: pencil-actions turns it on once it runs (extension_turned_on).
        check(self.extension_state() not in (None, "1"), "gnome: the Shell knows pencil-actions' extension, and it is off before pencil-actions runs",
              f"state {self.extension_state()}")
        return True

    def extension_state(self):
        """The Shell's state of pencil-actions' extension: "1" runs; None when the Shell knows none."""
        state = self.eval(f"String(Main.extensionManager.lookup('{GNOME_EXTENSION}')?.state)")
        return None if state in (None, "undefined") else state

    def eval(self, code):
        """What the Shell's JavaScript makes of CODE, as a string; None when it cannot."""
        result = as_person("gdbus", "call", "--session", "-d", "org.gnome.Shell", "-o", "/org/gnome/Shell",
                           "-m", "org.gnome.Shell.Eval", code)
        out = result.stdout.strip()
        if result.returncode != 0 or not out.startswith("(true, '"):
            return None
        value = out[len("(true, '"):-len("')")]
        return value[1:-1] if value.startswith('"') and value.endswith('"') else value

    def version(self):
        result = as_person("gdbus", "call", "--session", "-d", "org.gnome.Shell", "-o", "/org/gnome/Shell", "-m",
                           "org.freedesktop.DBus.Properties.Get", "org.gnome.Shell", "ShellVersion")
        return result.stdout.strip()

    def reads(self, mirror):
        nodes = self.eval("global.stage.context.get_backend().get_default_seat().list_devices()"
                          ".map(d => d.get_device_node() + '=' + d.get_device_name()).join(', ')")
        return [node for node in (nodes or "").split(", ") if node.startswith(f"/dev/input/{mirror}=")] or None

    def state(self):
        shown = self.eval("[global.display.focus_window?.get_wm_class() ?? 'no window', Main.modalCount, "
                          "Main.overview.visible, global.get_window_actors().map(a => a.meta_window.get_wm_class())]"
                          ".join(' / ')")
        return f"the Shell: focus / modal count / overview / windows: {shown}; its log ends: {self.log_tail()[-300:]!r}"

    def window(self, app_id):
        return f'global.get_window_actors().map(a => a.meta_window).find(w => w.get_wm_class() === "{app_id}")'

    def in_front(self, app_id):
        """Asked again until true: each time it is not, the window is activated, as a click on
        it does (a window that opens under no pointer is not given the focus)."""
        if self.eval(f"global.display.focus_window === {self.window(app_id)}") == "true":
            return True
        self.focus(app_id)
        return False

    def focus(self, app_id):
        self.eval(f"{self.window(app_id)}.activate(global.display.get_current_time_roundtrip())")

    def fill_screen(self, app_id):
        self.eval(f"{self.window(app_id)}.make_fullscreen()")

    def app_ids(self):
        shown = self.eval("global.get_window_actors().map(a => a.meta_window.get_wm_class() ?? '').join(',')")
        return (shown or "").split(",")

    def shoot_area(self, x, y, width, height):
        result = as_person("gdbus", "call", "--session", "-d", "org.gnome.Shell.Screenshot", "-o", "/org/gnome/Shell/Screenshot",
                           "-m", "org.gnome.Shell.Screenshot.ScreenshotArea", str(x), str(y), str(width), str(height),
                           "false", AREA_PICTURE)
        return area_pixels(AREA_PICTURE) if result.stdout.startswith("(true,") else None

    def shoot(self, name, app_id):
        picture = f"/srv/vm/shot-{name}.png"
        result = as_person("gdbus", "call", "--session", "-d", "org.gnome.Shell.Screenshot", "-o", "/org/gnome/Shell/Screenshot",
                           "-m", "org.gnome.Shell.Screenshot.Screenshot", "false", "false", picture)
        if result.stdout.startswith("(true,") and os.path.exists(picture):
            os.replace(picture, os.path.join(RESULTS, f"gnome-{name}.png"))
            pass_(f"gnome: the Shell saved the screen ({name})", f"{os.path.getsize(os.path.join(RESULTS, f'gnome-{name}.png'))} bytes")
        else:
            fail(f"gnome: the Shell saved the screen ({name})", (result.stdout + result.stderr).strip()[:300])


def on(desktop, pen, device_id, interval):
    """The checks on one desktop: its libinput reads the mirror; each app receives the pen;
    each app's own chord."""
    hand = Person(pen)
    read = wait_for(lambda: desktop.reads(pen_device(device_id).mirror), 60)
    check(bool(read), f"{desktop.name}: its libinput reads the pen's mirror (opened through logind)", ", ".join(read or []))
    for letter, program, app_id, toolkit, env in APPS:
        events = desktop.open_app(letter, program, app_id, env, fullscreen=True, log=f"{desktop.name}-app-{letter}.log")
        if events is None:
            continue
        name = f"{desktop.name}, {'GTK 4' if toolkit == 'gtk' else 'Qt 6'} app"
        try:
            pen_checks(hand, device_id, events, toolkit, name, interval, explain=lambda: desktop.explain(app_id))
        except Exception:  # a check that raised is a failed check, and the others still run
            fail(f"{name}: the pen's checks ran to the end", traceback.format_exc()[-600:].replace("\n", " | "))
        desktop.shoot(letter, app_id)
        desktop.close(app_id)

    # 3. Per-app chords through pencild's keyboard, with the mirror not performing the switch.
    result = as_person("pencilctl", "prefs", "set", "mirrorSwitchesTool=false")
    check(result.returncode == 0, f"{desktop.name}: pencilctl prefs set mirrorSwitchesTool=false", (result.stdout + result.stderr).strip()[:200])
    os.makedirs(f"{person.pw_dir}/.config/pencild", exist_ok=True)
    with open(f"{person.pw_dir}/.config/pencild/actions.conf", "w", encoding="utf-8") as file:
        file.write("[switchEraser @org.pencild.DesktopTestA]\nkey = g\n\n"
                   "[switchEraser @org.pencild.DesktopTestQt]\nkey = q\n\n"
                   "[switchEraser]\nkey = x\n")
    subprocess.run(["chown", "-R", f"{PERSON}:{PERSON}", f"{person.pw_dir}/.config"], check=True)
    # The session's variables in the user manager, as the desktop's startup puts them there
    # (sway's config.d does it itself), then pencil-actions as the person enables it.
    if desktop.name in ("kwin", "gnome"):
        as_person("systemctl", "--user", "set-environment", "WAYLAND_DISPLAY=wayland-0",
                  f"XDG_CURRENT_DESKTOP={'KDE' if desktop.name == 'kwin' else 'GNOME'}")
    result = as_person("systemctl", "--user", "enable", "--now", "pencil-actions.service")
    as_person("systemctl", "--user", "restart", "pencil-actions.service")
    check(result.returncode == 0, f"{desktop.name}: systemctl --user enable --now pencil-actions.service",
          (result.stdout + result.stderr).strip()[:300])
    if desktop.name == "gnome":
        extension_turned_on(desktop)
    apps = {}
    chords = {"A": "g", "Qt": "q"}
    for letter, program, app_id, _, env in APPS:
        events = desktop.open_app(letter, program, app_id, env, fullscreen=False, log=f"{desktop.name}-app-{letter}-keys.log")
        if events is None:
            return
        apps[letter] = (app_id, events)
        if desktop.name == "kwin":
            chord_for(desktop, hand, apps, letter, chords)  # KWin: each app as it opens, in front
    if desktop.name in ("sway", "gnome"):
        for letter in ("A", "Qt"):
            desktop.focus(apps[letter][0])
            chord_for(desktop, hand, apps, letter, chords)
    for app_id, _ in apps.values():
        desktop.close(app_id)
    result = as_person("pencilctl", "prefs", "set", "mirrorSwitchesTool=true")
    if desktop.name in PALETTE_DESKTOPS:
        palette_checks(desktop, hand, device_id)
    if desktop.name == "gnome":
        extension_left_off(desktop, hand)
    as_person("systemctl", "--user", "stop", "pencil-actions.service")


GNOME_EXTENSION = "pencil-actions-focus@pencild.org"
EXTENSION_RECORD = f"{person.pw_dir}/.local/state/pencil-actions/gnome-extension-turned-on"


def extension_turned_on(desktop):
    """GNOME: nothing set up, pencil-actions' first start turns its Shell extension on, and
    records that it did."""
    on = wait_for(lambda: desktop.extension_state() == "1", 60, pause=0.5)
    said = [line for line in actions_log() if GNOME_EXTENSION in line]
    check(bool(on) and os.path.isfile(EXTENSION_RECORD) and any("turned on the GNOME Shell extension" in line for line in said),
          "gnome: pencil-actions turns its Shell extension on by itself, once, and records it",
          f"state {desktop.extension_state()}; record: {os.path.isfile(EXTENSION_RECORD)}; {' | '.join(said[-2:])}")


def extension_left_off(desktop, hand):
    """GNOME: the person turns the extension off; pencil-actions, started again, leaves it off
    (its record), and says so; a squeeze then opens no palette, and pencilctl actions says
    which extension to turn on; the person turns it on as README says."""
    result = as_person("gnome-extensions", "disable", GNOME_EXTENSION)
    off = wait_for(lambda: desktop.extension_state() not in (None, "1"), 60, pause=0.5)
    check(result.returncode == 0 and bool(off), f"gnome: gnome-extensions disable {GNOME_EXTENSION}",
          f"{(result.stdout + result.stderr).strip()[:200]}; state {desktop.extension_state()}")
    mark = len(actions_log())
    as_person("systemctl", "--user", "restart", "pencil-actions.service")
    # Once pencilctl says the extension has not reported, pencil-actions has heard from the bus
    # who the Shell is: where it would have asked the Shell to turn it on.
    waiting = wait_for(lambda: "has not reported the focus" in as_person("pencilctl", "actions").stdout
                       and any("stays as the person has it" in line for line in actions_log()[mark:]), 60, pause=0.5)
    check(bool(waiting) and desktop.extension_state() not in (None, "1"),
          "gnome: started again after the person turned it off, pencil-actions leaves the extension off, and says why",
          f"state {desktop.extension_state()}; {' | '.join(actions_log()[mark:][-3:])}")
    palette_cannot_open("gnome, the extension off", hand, because=f"gnome-extensions enable {GNOME_EXTENSION}")
    result = as_person("gnome-extensions", "enable", GNOME_EXTENSION)
    on = wait_for(lambda: desktop.extension_state() == "1", 60, pause=0.5)
    check(result.returncode == 0 and bool(on), f"gnome: the person turns it on again: gnome-extensions enable {GNOME_EXTENSION}",
          f"{(result.stdout + result.stderr).strip()[:200]}; state {desktop.extension_state()}")


# 4. The system palette: on the layer shell where the compositor offers one, drawn by the Shell
# (its extension) on GNOME.
PALETTE_DESKTOPS = ("sway", "kwin", "gnome")
PALETTE_ROUTES = {"sway": "layer-shell", "kwin": "layer-shell", "gnome": "gnome-shell"}
ROUTE_WORDS = {"layer-shell": "on the layer shell", "gnome-shell": "drawn by GNOME Shell"}
# What each desktop's session tells its programs: pencil-palette chooses its route by it.
SESSION_DESKTOPS = {"sway": "sway", "kwin": "KDE", "gnome": "GNOME"}
SCREEN = (1280, 800)  # the output the tablet maps onto


def actions_log():
    """pencil-actions' journal: the person's unit's lines, as root reads them."""
    result = subprocess.run(["journalctl", "--no-pager", "-o", "cat", "_SYSTEMD_USER_UNIT=pencil-actions.service"],
                            capture_output=True, text=True)
    return result.stdout.splitlines()


def palette_by_hand(name, desktop_name):
    """pencil-palette started as the person starts it, on its own, in the desktop's session
    (palette_by_hand.py): it opens by the desktop's route, says where, and closes when told."""
    route = PALETTE_ROUTES[desktop_name]
    result = as_person("env", f"XDG_CURRENT_DESKTOP={SESSION_DESKTOPS[desktop_name]}", "python3", "/srv/vm/palette_by_hand.py", route,
                       timeout=240)
    check(result.returncode == 0, f"{name}: pencil-palette, started on its own, opens {ROUTE_WORDS[route]} and closes when told",
          (result.stdout + result.stderr).strip()[:600])


class Keyboard:
    """A keyboard of the test's own, through uinput: the desktop's libinput reads it as it reads
    any keyboard, on every desktop (KWin lets no client type as a virtual keyboard)."""

    KEYS = {"z": 44, "e": 18, "Escape": 1}

    def __init__(self):
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
        fcntl.ioctl(self.fd, virtual_pen.UI_SET_EVBIT, virtual_pen.EV_SYN)
        fcntl.ioctl(self.fd, virtual_pen.UI_SET_EVBIT, EV_KEY)
        for code in self.KEYS.values():
            fcntl.ioctl(self.fd, virtual_pen.UI_SET_KEYBIT, code)
        fcntl.ioctl(self.fd, virtual_pen.UI_DEV_SETUP,
                    virtual_pen.UINPUT_SETUP.pack(virtual_pen.BUS_VIRTUAL, 0x1234, 0x4b42, 1, b"desktop test keyboard", 0))
        fcntl.ioctl(self.fd, virtual_pen.UI_DEV_CREATE)

    emit = virtual_pen.Pen.emit

    def press(self, key):
        self.emit((EV_KEY, self.KEYS[key], 1))
        time.sleep(0.03)
        self.emit((EV_KEY, self.KEYS[key], 0))
        time.sleep(0.03)

    def close(self):
        os.close(self.fd)


def palette_cannot_open(name, hand, because):
    """Where no route to the screen works (on GNOME Shell, its extension turned off), a squeeze
    opens none, and pencilctl actions says why, with `because` in its words (gestures.md,
    "Which app acts: the system palette", case 9)."""
    mark = len(actions_log())
    hand.enter()
    hand.squeeze()
    said = wait_for(lambda: (hand.hover(), any("the system palette cannot open" in line for line in actions_log()[mark:]))[1], 90)
    hand.leave()
    status = as_person("pencilctl", "actions").stdout
    reason = next((line.strip() for line in status.splitlines() if line.strip().startswith("system palette:")), "")
    check(bool(said) and because in reason and not any("is on screen at" in line for line in actions_log()[mark:]),
          f"{name}: a squeeze opens none, and pencilctl actions says why",
          f"{reason!r}; {' | '.join(actions_log()[mark:][-3:])}")


def area_pixels(path):
    """A picture's pixels as rows of (r, g, b) (GdkPixbuf reads what grim and the Shell write)."""
    import gi
    gi.require_version("GdkPixbuf", "2.0")
    from gi.repository import GdkPixbuf
    pixbuf = GdkPixbuf.Pixbuf.new_from_file(path)
    data, stride, channels = pixbuf.get_pixels(), pixbuf.get_rowstride(), pixbuf.get_n_channels()
    return [[tuple(data[row * stride + column * channels:row * stride + column * channels + 3]) for column in range(pixbuf.get_width())]
            for row in range(pixbuf.get_height())]


AREA_PICTURE = "/srv/vm/area.png"


def inked(pixels, blank):
    """How many pixels differ from the blank page's (ink of any colour), as the kernel tier's
    eraser-in-app scenario counts them."""
    return sum(1 for row, blank_row in zip(pixels, blank) for (r, g, b), (r0, g0, b0) in zip(row, blank_row)
               if abs(r - r0) + abs(g - g0) + abs(b - b0) > 90)


def yellow(pixels):
    """How many pixels are the highlighter's yellow (Xournal++'s default, see-through over white)."""
    return sum(1 for row in pixels for r, g, b in row if r > 200 and g > 200 and b < 200)


def palette_checks(desktop, hand, device_id):
    """With nothing configured, a squeeze over an app opens the system palette at the pen
    (docs/gestures.md, "Which app acts: the system palette"), a GTK 4 app in front and then
    Xournal++: its Eraser, tapped with the pen, makes the next stroke an eraser's, and its Pen a
    pen's again; a tap outside and Escape close it, and the app under it receives neither,
    beside the same tap and key reaching the app with no palette open. In Xournal++, whose
    shipped section names its own items, what the strokes leave on the screen is counted,
    and its Highlighter types its chord into it. On a desktop with no route,
    palette_cannot_open."""
    name = f"{desktop.name}, system palette"
    conf = f"{person.pw_dir}/.config/pencild/actions.conf"
    if os.path.exists(conf):
        os.remove(conf)  # nothing configured: the shipped bindings
    # Verbose, for where each item is; and a minute for a palette to show: under emulation
    # Python and GTK take 8 to 17 s to start (the check below says how long), where an
    # ordinary machine takes well under a second (make bench). GTK draws the palette with
    # cairo, as the test's apps draw (APPS): the VM has no GPU, and GL on llvmpipe under
    # emulation only adds seconds to each start.
    drop_in = f"{person.pw_dir}/.config/systemd/user/pencil-actions.service.d"
    os.makedirs(drop_in, exist_ok=True)
    with open(f"{drop_in}/test.conf", "w", encoding="utf-8") as file:
        file.write("[Service]\nEnvironment=GSK_RENDERER=cairo\nExecStart=\nExecStart=/usr/bin/pencil-actions --verbose --palette-wait 60\n")
    subprocess.run(["chown", "-R", f"{PERSON}:{PERSON}", f"{person.pw_dir}/.config"], check=True)
    as_person("systemctl", "--user", "daemon-reload")
    before = len(actions_log())
    as_person("systemctl", "--user", "restart", "pencil-actions.service")
    subscribed = wait_for(lambda: any("subscribed to" in line for line in actions_log()[before:]), 60)
    check(bool(subscribed), f"{name}: pencil-actions runs again, verbose, with nothing configured",
          " | ".join(actions_log()[before:][-5:]))
    if desktop.name not in PALETTE_DESKTOPS:
        palette_cannot_open(name, hand, because="no layer shell")
        return
    expected_route = PALETTE_ROUTES[desktop.name]
    # pencil-palette started on its own, where the Shell draws it; on the layer shell the squeeze
    # below starts the same program, which chooses the same route, and under emulation its GTK
    # takes 17 s or more to show.
    if expected_route == "gnome-shell":
        palette_by_hand(name, desktop.name)
    walk = PaletteWalk(desktop, hand, device_id)
    try:
        gtk_app_palette(walk)
        xournal_palette(walk)
    finally:
        walk.keyboard.close()
        hand.leave()


def tablet_point(point):
    """Where on the tablet the hand is over `point` (screen pixels)."""
    return round(point[0] * TABLET[0] / SCREEN[0]), round(point[1] * TABLET[1] / SCREEN[1])


class PaletteWalk:
    """What a person does with the system palette over the app in front, and the checks of
    each: a squeeze opens it at the pen, a tap takes an item, Escape closes it. It holds the
    desktop, the hand, and a keyboard for Escape, made at the start: by the time it is pressed
    the desktop has read it."""

    def __init__(self, desktop, hand, device_id):
        self.desktop, self.hand, self.device_id = desktop, hand, device_id
        self.name = f"{desktop.name}, system palette"
        self.route = PALETTE_ROUTES[desktop.name]
        self.keyboard = Keyboard()

    def at(self, point):
        """The hand over `point` (screen pixels)."""
        hand = self.hand
        hand.x, hand.y = tablet_point(point)
        hand.pen.emit((EV_ABS, ABS_X, hand.x), (EV_ABS, ABS_Y, hand.y))
        time.sleep(0.05)

    def open_palette(self):
        """A squeeze with the hand in the middle of the tablet; the pen's place, the palette's
        rectangle and its items' places once on screen, and pencil-actions' lines since."""
        hand = self.hand
        mark = len(actions_log())
        hand.enter()
        hand.squeeze()
        pen = (hand.x * SCREEN[0] / TABLET[0], hand.y * SCREEN[1] / TABLET[1])

        def shown():
            lines = actions_log()[mark:]
            found = [line for line in lines if "the system palette is on screen at" in line]
            if not found:
                return None
            rectangle = re.search(r"on screen at (-?\d+),(-?\d+), (\d+)x(\d+) \(([^)]*)\), (\d+) ms", found[0])
            places = {}
            for line in lines:
                place = re.search(r"system palette's (.+) is at (-?\d+),(-?\d+), (\d+)x(\d+)", line)
                if place is not None:
                    places[place[1]] = tuple(int(number) for number in place.groups()[1:])
            # pencil-actions logs each item's place after the palette's: the journal may not
            # hold all of them yet.
            counted = [re.search(r"the system palette, pid \d+, (\d+) items", line) for line in lines]
            items = next((int(count[1]) for count in counted if count is not None), 0)
            return (rectangle, places, lines) if len(places) >= items else None
        # The hand stays near: the palette closes once the pen has been away for 3 s.
        opened = wait_for(lambda: (hand.hover(), shown())[1], 30)
        return (pen, *opened) if opened else (pen, None, {}, actions_log()[mark:])

    @staticmethod
    def centre(place):
        return (place[0] + place[2] / 2, place[1] + place[3] / 2)

    def closed(self, reason, mark):
        return wait_for(lambda: (self.hand.hover(), any(f"the system palette closed ({reason})" in line
                                                       for line in actions_log()[mark:]))[1], 30)

    def opens_at_pen(self, app_name):
        """A squeeze opens it by the desktop's route, centred on the pen; its items' places."""
        name, expected_route = self.name, self.route
        pen, rectangle, places, lines = self.open_palette()
        if not check(rectangle is not None, f"{name}, {app_name} in front: a squeeze with nothing configured opens the system palette",
                     " | ".join(lines[-6:])):
            return None
        x, y, width, height, route = int(rectangle[1]), int(rectangle[2]), int(rectangle[3]), int(rectangle[4]), rectangle[5]
        distance = ((x + width / 2 - pen[0]) ** 2 + (y + height / 2 - pen[1]) ** 2) ** 0.5
        check(distance <= 40 and route == expected_route,
              f"{name}, {app_name} in front: it opens {ROUTE_WORDS[expected_route]} with its centre within 40 px of the pen",
              f"{distance:.0f} px: {width}x{height} at {x},{y}, the pen at {pen[0]:.0f},{pen[1]:.0f}, route {route}, "
              f"on screen {rectangle[6]} ms after the squeeze; items: {', '.join(places)}")
        return places

    def tap_item(self, app_name, label, places, events=None):
        """The pen taps `label` in the open palette; whether pencil-actions took it."""
        name, hand = self.name, self.hand
        if label not in places:
            fail(f"{name}, {app_name} in front: a tap on {label} in the palette", f"no place for {label}: {places}")
            return False
        if events is not None:
            events.mark()
        mark = len(actions_log())
        self.at(self.centre(places[label]))
        hand.touch()
        taken = wait_for(lambda: (hand.hover(), any(f" {label}: " in line for line in actions_log()[mark:]))[1], 30)
        if not taken:
            fail(f"{name}, {app_name} in front: a tap on {label} in the palette", " | ".join(actions_log()[mark:][-4:]))
        return bool(taken)

    def escape_closes(self, app_name, events=None):
        """Escape closes it; a key typed while it is open reaches no app, the next one does."""
        name, keyboard = self.name, self.keyboard
        places = self.opens_at_pen(app_name)
        text_before = events.text() if events is not None else ""
        mark = len(actions_log())
        if events is not None:
            keyboard.press("z")
        keyboard.press("Escape")
        gone = self.closed("escape", mark)
        if events is None:
            check(places is not None and bool(gone), f"{name}, {app_name} in front: Escape closes it",
                  " | ".join(actions_log()[mark:][-3:]))
            return
        keyboard.press("e")
        typed = wait_for(lambda: events.text() == text_before + "e", 30)
        check(places is not None and bool(gone) and bool(typed),
              f"{name}, {app_name} in front: Escape closes it; a key typed while it was open reached no app, the next one reaches the app",
              f"the app's field: {events.text()!r}; {' | '.join(actions_log()[mark:][-3:])}")


def gtk_app_palette(walk):
    """The GTK 4 app (app.py) in front: what it receives says which tool drew, and whether a
    tap or a key reached it."""
    desktop, hand, device_id, name = walk.desktop, walk.hand, walk.device_id, walk.name
    letter, program, app_id, toolkit, env = APPS[0]
    app_name = "the GTK 4 app"
    events = desktop.open_app(letter, program, app_id, env, fullscreen=True, log=f"{desktop.name}-app-{letter}-palette.log")
    if events is None:
        return
    tip = TIP[toolkit]
    places = walk.opens_at_pen(app_name)
    if places is None:
        desktop.close(app_id)
        return
    desktop.shoot("palette", app_id)
    # A tap on Eraser: the tip becomes the eraser, and the app had no press of it; then Pen.
    for tool in ("Eraser", "Pen"):
        if tool == "Pen":
            places = walk.opens_at_pen(app_name) or {}
        taken = walk.tap_item(app_name, tool, places, events)
        switched = taken and wait_for(lambda: (hand.hover(), tip_reported_as(device_id) == tool.lower())[1], 30)
        presses = [event for event in events.since() if event["type"] == "press"]
        check(bool(switched) and not presses, f"{name}, {app_name} in front: a tap on {tool} switches the tip to the "
              f"{tool.lower()}, and the app under the palette has no press of it",
              f"pencild reports the tip as {tip_reported_as(device_id)}; the app's presses: {presses}")
        hand.leave()
        ok, detail = stroke_received(hand, events, tool.lower(), tip)
        check(ok, f"{name}, {app_name} in front: the next stroke is {'an eraser' if tool == 'Eraser' else 'a pen'}'s", detail)

    # A tap outside: closed, the app has no press; then the same tap reaches the app.
    places = walk.opens_at_pen(app_name)
    events.mark()
    mark = len(actions_log())
    walk.at((1100, 120))
    hand.touch()
    gone = walk.closed("outside", mark)
    presses = [event for event in events.since() if event["type"] == "press"]
    check(places is not None and bool(gone) and not presses,
          f"{name}, {app_name} in front: a tap outside it closes it, and the app under it has no press",
          f"the app's presses: {presses}; {' | '.join(actions_log()[mark:][-3:])}")
    events.mark()
    hand.touch()
    reached = wait_for(lambda: (hand.hover(), [event for event in events.since() if event["type"] == "press"])[1], 30)
    check(bool(reached), f"{name}, {app_name} in front: with no palette open, the same tap reaches the app (the control)",
          f"{events.since()[-3:]}")
    hand.leave()
    walk.escape_closes(app_name, events)
    hand.leave()
    desktop.close(app_id)


# Where on the screen Xournal++'s strokes go: across its page, clear of the palette at the
# middle of the screen (where the hand squeezes) and of the tap outside.
XOURNAL_STROKE = (560, 880)
XOURNAL_PEN_ROW, XOURNAL_HIGHLIGHTER_ROW = 565, 625
XOURNAL_TAP = (720, 680)
# Where the hand goes before it leaves (on the page, above the strokes), so that the tool's
# cursor, which the compositor draws into the screen's pictures, is never among the pixels
# counted.
XOURNAL_PARK = (1200, 180)


def xournal_palette(walk):
    """Xournal++ in front, as a person starts it, nothing configured: pencil-actions' shipped
    section names its items. Its page is read from the screen, as the kernel tier's
    eraser-in-app scenario reads it: a pen stroke inks it, the same stroke after Eraser leaves
    none, after Pen it inks again; a tap outside leaves no ink where the same tap with no
    palette leaves a dot; Highlighter types Xournal++'s chord (ctrl+shift+h) into it, and the
    next stroke is yellow."""
    desktop, hand, device_id, name = walk.desktop, walk.hand, walk.device_id, walk.name
    app_name = "Xournal++"
    if not check(bool(desktop.shoot_area(0, 0, 8, 8)), f"{name}: the screen can be read, to count Xournal++'s ink on it"):
        return
    for path in glob.glob(f"{person.pw_dir}/.config/xournalpp") + glob.glob(f"{person.pw_dir}/.cache/xournalpp"):
        subprocess.run(["rm", "-rf", path], check=True)  # as a person who never ran it
    desktop.launch("xournalpp", f"exec env GDK_BACKEND=wayland NO_AT_BRIDGE=1 xournalpp >{RESULTS}/{desktop.name}-xournalpp.log 2>&1")
    desktop.app_logs["xournalpp"] = f"{desktop.name}-xournalpp.log"
    app_id = wait_for(lambda: next((shown for shown in desktop.app_ids() if "xournalpp" in shown.lower()), None), 180)
    in_front = bool(app_id) and wait_for(lambda: desktop.in_front(app_id), 60)
    if not check(bool(in_front), f"{desktop.name}: Xournal++ shows its window, in front", f"app id {app_id!r}; {desktop.explain('xournalpp')}"):
        desktop.close("xournalpp")
        return
    desktop.processes.setdefault(app_id, desktop.processes.pop("xournalpp", None))
    desktop.app_logs[app_id] = desktop.app_logs["xournalpp"]
    desktop.fill_screen(app_id)
    left, right = XOURNAL_STROKE

    def band(row):
        return desktop.shoot_area(left, row - 12, right - left, 25) or []

    def settled(row):
        """The page's white across the band, the same in two pictures in a row (the window
        settles, and Xournal++ draws its page, some time after it shows)."""
        previous = [None]

        def same():
            pixels = band(row)
            white = sum(1 for line in pixels for r, g, b in line if r > 235 and g > 235 and b > 235)
            steady = pixels == previous[0] and white >= sum(len(line) for line in pixels) // 2
            previous[0] = pixels
            return pixels if steady else None
        return wait_for(same, 180, pause=0.5)

    blank_pen, blank_highlighter = settled(XOURNAL_PEN_ROW), settled(XOURNAL_HIGHLIGHTER_ROW)
    tap_box = (XOURNAL_TAP[0] - 20, XOURNAL_TAP[1] - 20, 40, 40)
    blank_tap = desktop.shoot_area(*tap_box)
    if not check(bool(blank_pen) and bool(blank_highlighter) and bool(blank_tap),
                 f"{desktop.name}: Xournal++'s page is on screen where the strokes go",
                 f"{right - left} px across at rows {XOURNAL_PEN_ROW} and {XOURNAL_HIGHLIGHTER_ROW}, the tap at {XOURNAL_TAP}"
                 if blank_pen and blank_highlighter and blank_tap else desktop.explain(app_id)):
        desktop.close(app_id)
        return

    def away():
        """The hand moves off the counted pixels, then leaves."""
        walk.at(XOURNAL_PARK)
        hand.hover(0.2)
        hand.leave()

    def stroke(row):
        """A person's stroke across the page at `row`: hover in, down, a line, up, away."""
        walk.at((left, row))
        hand.pen.emit((EV_ABS, ABS_DISTANCE, 10), (EV_ABS, ABS_MISC, STYLUS_ID), (virtual_pen.EV_MSC, virtual_pen.MSC_SERIAL, SERIAL),
                      (EV_KEY, BTN_TOOL_PEN, 1))
        hand.hover(0.3)
        hand.pen.emit((EV_ABS, ABS_DISTANCE, 0), (EV_ABS, ABS_PRESSURE, 6000), (EV_KEY, BTN_TOUCH, 1))
        steps = 40
        for step in range(1, steps + 1):
            time.sleep(0.02)
            x, _ = tablet_point((left + (right - left) * step / steps, row))
            hand.pen.emit((EV_ABS, ABS_X, x), (EV_ABS, ABS_PRESSURE, 6000 + step % 3))
        time.sleep(0.05)
        hand.pen.emit((EV_ABS, ABS_PRESSURE, 0), (EV_KEY, BTN_TOUCH, 0))
        time.sleep(0.05)
        away()

    def shows(condition, row, blank):
        """Pictures of the band until its ink satisfies `condition`; the last count."""
        counts = [None]

        def met():
            counts[0] = inked(band(row), blank)
            return condition(counts[0])
        return bool(wait_for(met, 60, pause=0.5)), counts[0]

    # A pen stroke inks the page: the picture's measure of the app's drawing.
    stroke(XOURNAL_PEN_ROW)
    ok, drawn = shows(lambda count: count >= 150, XOURNAL_PEN_ROW, blank_pen)
    check(ok, f"{name}, {app_name} in front: a pen stroke inks its page", f"{drawn} inked pixels along it")
    desktop.shoot("xournalpp-drawn", app_id)
    # Eraser, then the same stroke: the ink is gone.
    places = walk.opens_at_pen(app_name)
    if places is not None:
        check(all(label in places for label in ("Pen", "Eraser", "Undo", "Redo", "Highlighter")),
              f"{name}, {app_name} in front: it holds the pen's tools, Undo, Redo and Xournal++'s own items, named as Xournal++ names them",
              ", ".join(places))
        desktop.shoot("xournalpp-palette", app_id)
        taken = walk.tap_item(app_name, "Eraser", places)
        switched = taken and wait_for(lambda: (hand.hover(), tip_reported_as(device_id) == "eraser")[1], 30)
        hand.leave()
        stroke(XOURNAL_PEN_ROW)
        ok, left_over = shows(lambda count: count < drawn // 5, XOURNAL_PEN_ROW, blank_pen)
        check(bool(switched) and ok, f"{name}, {app_name} in front: a tap on Eraser, and the same stroke erases it",
              f"pencild reports the tip as {tip_reported_as(device_id)}; inked pixels along it: {drawn} drawn, {left_over} after")
    # Pen, and the stroke inks again.
    places = walk.opens_at_pen(app_name)
    if places is not None:
        taken = walk.tap_item(app_name, "Pen", places)
        switched = taken and wait_for(lambda: (hand.hover(), tip_reported_as(device_id) == "pen")[1], 30)
        hand.leave()
        stroke(XOURNAL_PEN_ROW)
        ok, again = shows(lambda count: count >= drawn // 2, XOURNAL_PEN_ROW, blank_pen)
        check(bool(switched) and ok, f"{name}, {app_name} in front: a tap on Pen, and the stroke inks again",
              f"pencild reports the tip as {tip_reported_as(device_id)}; {again} inked pixels along it")
    # A tap outside closes it and leaves no ink; the same tap with no palette leaves a dot. A
    # firm tap: GNOME's pressure curve makes a light one's dot too faint to count.
    places = walk.opens_at_pen(app_name)
    mark = len(actions_log())
    walk.at(XOURNAL_TAP)
    hand.touch(pressure=7000)
    gone = walk.closed("outside", mark)
    away()
    clean = inked(desktop.shoot_area(*tap_box) or [], blank_tap)
    check(places is not None and bool(gone) and clean == 0, f"{name}, {app_name} in front: a tap outside it closes it and leaves no ink",
          f"{clean} inked pixels where it touched; {' | '.join(actions_log()[mark:][-3:])}")
    desktop.shoot("xournalpp-outside", app_id)
    hand.enter()
    walk.at(XOURNAL_TAP)
    hand.hover(0.3)
    hand.touch(pressure=7000)
    hand.hover(0.2)
    away()
    dot = wait_for(lambda: inked(desktop.shoot_area(*tap_box) or [], blank_tap), 60, pause=0.5)
    check(bool(dot), f"{name}, {app_name} in front: with no palette open, the same tap leaves a dot (the control)",
          f"{dot or 0} inked pixels where it touched")
    # Highlighter: Xournal++'s own item, its chord typed into it; the next stroke is yellow.
    places = walk.opens_at_pen(app_name)
    if places is not None:
        taken = walk.tap_item(app_name, "Highlighter", places)
        hand.leave()
        stroke(XOURNAL_HIGHLIGHTER_ROW)
        ok, highlighted = shows(lambda count: count >= 150, XOURNAL_HIGHLIGHTER_ROW, blank_highlighter)
        marked = yellow(band(XOURNAL_HIGHLIGHTER_ROW))
        check(taken and ok and marked >= 150,
              f"{name}, {app_name} in front: a tap on Highlighter types Xournal++'s chord into it, and the next stroke is its highlighter's",
              f"{highlighted} inked pixels along the stroke, {marked} of them yellow")
        desktop.shoot("xournalpp-highlighted", app_id)
    walk.escape_closes(app_name)
    hand.leave()
    # Asked to close, Xournal++ asks whether to save the page first: it is ended instead, as
    # the person who answers "close without saving".
    subprocess.run(["pkill", "-TERM", "-x", "xournalpp"], check=False)
    desktop.close(app_id)


def chord_for(desktop, hand, apps, letter, chords):
    app_id, events = apps[letter]
    named = wait_for(lambda: (lambda out: out if f'focused app: "{app_id}"' in out else None)(as_person("pencilctl", "actions").stdout), 60)
    check(bool(named), f"{desktop.name}: with the {letter} app in front, pencil-actions names it",
          next((line for line in (named or as_person("pencilctl", "actions").stdout).splitlines() if line.startswith("focused app")), ""))
    hand.enter()
    hand.double_tap()
    hand.hover(0.2)
    hand.leave()
    typed = wait_for(lambda: events.text() == chords[letter], 30)
    others = {other: apps[other][1].text() for other in apps if other != letter}
    check(bool(typed) and "x" not in events.text() and all(text in ("", chords[other]) for other, text in others.items()),
          f"{desktop.name}: a double-tap with the {letter} app in front types its own chord ({chords[letter]}) into it, and only there",
          f"its field: {events.text()!r}, the other's: {others}")
    desktop.shoot(f"{letter}-chord", app_id)


def main():
    say(f"INFO scenario started: {os.uname().release}, {subprocess.run(['systemctl', '--version'], capture_output=True, text=True).stdout.split(chr(10))[0]}")
    reached = int(subprocess.run(["systemctl", "show", "-P", "ActiveEnterTimestampMonotonic", "multi-user.target"],
                                 capture_output=True, text=True).stdout.strip() or 0)
    say(f"INFO boot: multi-user.target reached {reached / 1e6:.1f} s after the kernel started")
    pen = virtual_pen.Pen("Wacom Intuos5 M Pen", vendor=0x056A, product=0x002A, phys="usb-0000:00:14.0-4/input0", wacom=True)
    device_id = os.path.basename(pen.event_node())
    mirrored = wait_for(lambda: (lambda device: device if device is not None and device.mirror else None)(pen_device(device_id)), 60)
    if not check(bool(mirrored), "pencild (the system service, started by udev) mirrors the pen for the person at the seat",
                 f"{device_id}: mirror {getattr(mirrored, 'mirror', None)}"):
        return
    interval = double_tap_interval_ms()
    desktops = {"sway": Sway, "kwin": KWin, "gnome": GnomeShell}
    for name in sys.argv[1:] or ["sway"]:
        desktop = desktops[name]()
        if desktop.start():
            on(desktop, pen, device_id, interval)


try:
    os.makedirs(RESULTS, exist_ok=True)
    main()
except Exception:
    fail("the scenario ran to the end", traceback.format_exc()[-800:].replace("\n", " | "))
say(f"DONE {passed} passed, {failed} failed")
