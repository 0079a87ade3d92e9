"""The kernel suite's eraser-in-app scenario (docs/gestures.md, "The pen switches tool through
its mirror"), the way a person meets it: Xournal++ on sway, sway reading the pen's mirror with
its own libinput, and nobody configured anything. A stroke is drawn, a double-tap, the same
stroke drawn over it, and grim's screenshot shows it erased; a double-tap and the stroke draw
again.

Imported by suite.py; suite.py's helpers (Monitor, is_event, as_service_user), scenario_support's
base and checks, and focus_scenarios' (Desktop, as_user, runtime_directory, wait_until) are reused. Every wait is for an event or for
what the screen shows.
"""

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time

import virtual_pen
from focus_scenarios import Desktop, as_user, runtime_directory, wait_until
from scenario_support import Failure, Scenario, check
from virtual_pen import ABS_DISTANCE, ABS_MISC, ABS_PRESSURE, ABS_X, BTN_TOOL_PEN, BTN_TOUCH, EV_ABS, EV_KEY

OUTPUT = (1024, 768)
# The pen's X and Y range (virtual_pen.AXES), and where on the tablet the stroke goes: the middle
# of the output, across the page Xournal++ shows there.
TABLET = (21600, 13500)
STROKE_Y = 0.53  # between two of the page's ruled lines
STROKE_X = (0.35, 0.65)


def screenshot(wayland, path):
    """The output as grim writes it (binary PPM), as rows of (r, g, b)."""
    result = subprocess.run(as_user(["grim", "-t", "ppm", path]), env=wayland, capture_output=True, timeout=60)
    check(result.returncode == 0, f"grim: {result.stderr.decode(errors='replace')}")
    data = open(path, "rb").read()
    # P6\n<width> <height>\n<max>\n then the pixels.
    fields = data.split(maxsplit=4)
    width, height = int(fields[1]), int(fields[2])
    pixels = fields[4]
    return width, height, pixels


def band(shot):
    """The pixels of the band the stroke crosses, as (r, g, b)."""
    width, height, pixels = shot
    y = int(STROKE_Y * height)
    found = []
    for row in range(max(0, y - 12), min(height, y + 13)):
        for column in range(int(STROKE_X[0] * width) + 10, int(STROKE_X[1] * width) - 10):
            offset = (row * width + column) * 3
            found.append((pixels[offset], pixels[offset + 1], pixels[offset + 2]))
    return found


def page_shown(pixels):
    """Most of the band is the page's white: Xournal++ has drawn its page there."""
    white = sum(1 for r, g, b in pixels if r > 235 and g > 235 and b > 235)
    return white >= len(pixels) // 2


def ink(pixels, blank):
    """How many pixels of the band differ from the blank page's (ink, whatever its colour)."""
    return sum(1 for (r, g, b), (r0, g0, b0) in zip(pixels, blank) if abs(r - r0) + abs(g - g0) + abs(b - b0) > 90)


class EraserInApp(Scenario):
    name = "eraser-in-app"

    def prefs(self, *assignments):
        result = self.as_service_user(self.suite, os.path.join(self.suite.bin, "pencilctl"), "prefs", "set", *assignments)
        check(result.returncode == 0, f"pencilctl prefs set {assignments}: {result.stderr}")

    def stroke(self, pen):
        """A person's stroke across the page: hover in, down, a line, up, away."""
        y = int(STROKE_Y * TABLET[1])
        x0, x1 = (int(fraction * TABLET[0]) for fraction in STROKE_X)
        pen.enter(x0, y, tool_id=0x802, serial=0x1234)
        time.sleep(0.05)
        pen.emit((EV_ABS, ABS_DISTANCE, 0), (EV_ABS, ABS_PRESSURE, 8000), (EV_KEY, BTN_TOUCH, 1))
        steps = 40
        for step in range(1, steps + 1):
            time.sleep(0.02)
            pen.emit((EV_ABS, ABS_X, x0 + (x1 - x0) * step // steps), (EV_ABS, ABS_PRESSURE, 8000 + step % 3))
        time.sleep(0.05)
        pen.emit((EV_ABS, ABS_PRESSURE, 0), (EV_KEY, BTN_TOUCH, 0))
        time.sleep(0.05)
        pen.emit((EV_ABS, ABS_DISTANCE, 10))
        self.hovering_at = x1

    def double_tap(self, pen, monitor, device, what):
        """A double-tap, and pencild's doubleTap for it. The hand hovers while the screen is
        read: a real pen sends frames all the while, the virtual one only when told, and after
        500 ms without one pencild takes the pen out of proximity (docs/gestures.md, "Forced
        proximity-out"). So the hand moves a little first, as a person's does: by more than
        twice the axis's fuzz, or the kernel's filter keeps the old value and sends nothing."""
        self.hovering_at += 40
        pen.emit((EV_ABS, ABS_X, self.hovering_at))
        pen.clicks(2)
        try:
            return monitor.wait_for(self.is_event("doubleTap", device), 20, what)
        except Failure as error:
            raise Failure(f"{error}; press, release, press, release written at {pen.click_times} ms")

    def leave(self, pen):
        pen.emit((EV_ABS, ABS_MISC, 0), (EV_KEY, BTN_TOOL_PEN, 0))

    def run(self):
        suite = self.suite
        for program in ("sway", "swaymsg", "grim", "xournalpp", "seatd"):
            check(shutil.which(program), f"{program} is not installed (tests/kernel/install-deps.sh)")
        user = pwd.getpwnam(self.service_user)
        uinput = os.stat("/dev/uinput")
        monitor = self.Monitor()
        desktop = Desktop()
        pen = None
        home = None
        try:
            # The package's defaults, as a person who set nothing has them.
            self.prefs("withholdGestureClicks=true", "mirrorSwitchesTool=true", "doubleTapAction=switchEraser")
            os.chown("/dev/uinput", user.pw_uid, -1)
            pen = virtual_pen.Pen("Wacom Intuos5 M Pen", vendor=0x056A, product=0x002A, phys="usb-0000:00:14.0-4/input0", wacom=True)
            device = os.path.basename(pen.event_node())
            added = monitor.wait_for(self.is_event("deviceAdded", device), 20, f"deviceAdded for {device}")
            mirror = added["deviceInfo"].get("mirror")
            check(bool(mirror), f"no mirror for {device}: {added['deviceInfo']}")

            runtime = runtime_directory(suite, "xournalpp")
            # The app's home is its own, outside the suite's work folder (which the suite copies
            # to the results): only the screenshots are kept.
            home = tempfile.mkdtemp(prefix="pencild-xournalpp.")
            os.chown(home, user.pw_uid, user.pw_gid)
            config = os.path.join(suite.work, "sway-eraser.conf")
            with open(config, "w") as file:
                file.write(f"output HEADLESS-1 mode {OUTPUT[0]}x{OUTPUT[1]} bg #808080 solid_color\n"
                           "default_border none\nfocus_follows_mouse no\n")
            base = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": runtime}
            # sway's own libinput reads the seat's input (the mirror among it), the devices
            # opened for it by seatd, as on a desktop without logind.
            seatd_log = open(os.path.join(suite.results, "eraser-in-app-seatd.log"), "wb")
            read_end, write_end = os.pipe()
            seatd = desktop.start(["seatd", "-u", self.service_user, "-n", str(write_end), "-l", "debug"],
                                  pass_fds=[write_end], stdout=seatd_log, stderr=seatd_log)
            os.close(write_end)
            with os.fdopen(read_end) as ready:  # seatd writes a line once it accepts clients
                if ready.readline() == "":
                    check(False, f"seatd did not start (it exited with {seatd.wait()})")
            sway_log = open(os.path.join(suite.results, "eraser-in-app-sway.log"), "wb")
            sway = desktop.start(as_user(["sway", "-d", "-c", config]),
                                 # (Without WLR_LIBINPUT_NO_DEVICES: with it, wlroots reads libinput's
                                 # first devices only once one of them has input.)
                                 env={**base, "WLR_BACKENDS": "headless,libinput", "WLR_RENDERER": "pixman",
                                      "LIBSEAT_BACKEND": "seatd"},
                                 stdout=sway_log, stderr=sway_log)
            socket_path = wait_until(lambda: glob.glob(os.path.join(runtime, "wayland-[0-9]")), 120, "sway's Wayland socket", sway)[0]
            ipc = wait_until(lambda: glob.glob(os.path.join(runtime, "sway-ipc.*.sock")), 60, "sway's IPC socket", sway)[0]
            wayland = {**base, "WAYLAND_DISPLAY": os.path.basename(socket_path), "SWAYSOCK": ipc}

            def inputs():
                return subprocess.run(as_user(["swaymsg", "-t", "get_inputs"]), env=wayland, capture_output=True, text=True,
                                      timeout=60).stdout
            try:
                wait_until(lambda: added["deviceInfo"]["name"] in inputs() and "tablet_tool" in inputs(), 60,
                           "sway's libinput reading the mirror as a tablet tool", sway)
            except Failure as error:
                listed = subprocess.run(["libinput", "list-devices"], capture_output=True, text=True, timeout=60)
                raise Failure(f"{error}; sway's inputs: {inputs()[:1500]}; libinput list-devices as root: "
                                       f"{(listed.stdout + listed.stderr)[:1500]}")

            app_log = open(os.path.join(suite.results, "eraser-in-app-xournalpp.log"), "wb")
            desktop.start(as_user(["xournalpp"]), env={**wayland, "GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"},
                          stdout=app_log, stderr=app_log)

            def tree():
                return subprocess.run(as_user(["swaymsg", "-t", "get_tree"]), env=wayland, capture_output=True, text=True,
                                      timeout=60).stdout
            wait_until(lambda: "xournalpp" in tree().lower(), 180, "the Xournal++ window", sway)
            # grim writes as the user; the screenshots are copied to the results at the end.
            shots = os.path.join(home, "shots")
            os.makedirs(shots, exist_ok=True)
            os.chown(shots, user.pw_uid, user.pw_gid)
            counter = [0]

            def shot():
                counter[0] += 1
                return band(screenshot(wayland, os.path.join(shots, "latest.ppm")))

            def keep(name):
                """The last screenshot, kept for the results as NAME.ppm."""
                shutil.copyfile(os.path.join(shots, "latest.ppm"), os.path.join(shots, f"{name}.ppm"))

            # The page, blank where the stroke goes, once Xournal++ has drawn it and laid it out
            # (the same in two screenshots in a row: the page may move as the window settles).
            previous = [None]

            def settled_page():
                pixels = shot()
                settled = page_shown(pixels) and pixels == previous[0]
                previous[0] = pixels
                return pixels if settled else None
            blank = wait_until(settled_page, 180, "Xournal++'s page, settled, where the stroke goes", sway)
            keep("1-blank")

            def shows(condition, timeout, what):
                """Screenshots until the ink along the stroke satisfies `condition`; how much ink."""
                return wait_until(lambda: (lambda count: (count,) if condition(count) else None)(ink(shot(), blank)), timeout,
                                  what, sway)[0]

            # The page is blank where the stroke goes, once Xournal++ has drawn it.
            self.note(f"Xournal++ is up: its page is where the stroke will go ({len(blank)} pixels watched)")

            # 1. A stroke with the pen draws.
            self.stroke(pen)
            drawn = shows(lambda count: count >= 150, 60, "the stroke on the screen")
            keep("2-drawn")
            # 2. A double-tap: pencild switches the pen to its eraser (nobody holds the focus).
            tap = self.double_tap(pen, monitor, device, "the double-tap")
            check(tap.get("focus") == "pen", f"the double-tap carries focus {tap.get('focus')!r}")
            changed = monitor.wait_for(self.is_event("deviceChanged", device), 20, "deviceChanged to the eraser")
            check(changed["deviceInfo"].get("tipReportedAs") == "eraser", f"deviceChanged: {changed['deviceInfo']}")
            self.leave(pen)
            # 3. The same stroke erases it.
            self.stroke(pen)
            erased = shows(lambda count: count < drawn // 5, 60, f"the stroke erased (fewer than {drawn // 5} of its {drawn} inked pixels left)")
            keep("3-erased")
            # 4. A double-tap, and the stroke draws again.
            self.double_tap(pen, monitor, device, "the second double-tap")
            changed = monitor.wait_for(self.is_event("deviceChanged", device), 20, "deviceChanged back to the pen")
            check(changed["deviceInfo"].get("tipReportedAs") == "pen", f"deviceChanged: {changed['deviceInfo']}")
            self.leave(pen)
            self.stroke(pen)
            again = shows(lambda count: count >= drawn // 2, 60, "the stroke drawn again")
            keep("4-drawn-again")
            self.leave(pen)
            self.note(f"inked pixels along the stroke: {drawn} drawn, {erased} after the eraser's stroke, {again} drawn again "
                      f"({counter[0]} screenshots; the four kept in eraser-in-app-shots)")
        finally:
            desktop.close()
            if home is not None:
                shots = os.path.join(home, "shots")
                if os.path.isdir(shots):
                    shutil.copytree(shots, os.path.join(suite.results, "eraser-in-app-shots"), dirs_exist_ok=True)
                shutil.rmtree(home, ignore_errors=True)
            if pen is not None:
                pen.close()
            os.chown("/dev/uinput", uinput.st_uid, uinput.st_gid)
            os.chmod("/dev/uinput", uinput.st_mode & 0o7777)
            self.prefs("withholdGestureClicks=false")
            monitor.close()
