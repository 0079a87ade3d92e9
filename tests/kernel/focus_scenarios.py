"""pencil-actions' per-app bindings on real desktops, inside the kernel tier's VM (where
/dev/uinput exists): two windows of different apps, the focus moved between them by the
desktop's own tool, and a double-tap that must press each app's own chord on pencil-actions'
virtual keyboard. The X11 desktop is Xvfb with openbox (which keeps _NET_ACTIVE_WINDOW) and
two Tk windows; the wlroots desktop is sway, headless, with two foot windows. Ending the
desktop must leave pencil-actions on the fallback section, never the last app's chord.

Imported by suite.py; the helpers (ActionsProcess, KeyReader, Monitor...) are suite.py's."""

import glob
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time

from scenario_support import Failure, check

HERE = os.path.dirname(os.path.abspath(__file__))
X11_WINDOW = os.path.join(HERE, "..", "focus", "x11_window.py")

# The bindings both desktops use: each app its own eraser chord, every other app the fallback.
PER_APP_BINDINGS = """[switchEraser]
key = e
[switchEraser @sketch*]
key = ctrl+shift+e
[switchEraser @NOTEBOOK]
key = shift+e
"""
FALLBACK_CHORD = (18,)
SKETCHER_CHORD = (29, 42, 18)
NOTEBOOK_CHORD = (42, 18)


def _suite():
    """suite.py, which runs as the main module and imports this one."""
    return sys.modules["__main__"]


def bind(suite, scenario):
    """`scenario` as a method of the suite, with its docstring (the suite prints it)."""
    def run():
        scenario(suite)
    run.__doc__ = scenario.__doc__
    return run


def wait_until(condition, timeout, what, process=None):
    """Waits for `condition()` (checked again every 50 ms), failing after `timeout` s or when
    `process` ends first."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if process is not None and process.poll() is not None:
            raise Failure(f"{what}: the process it depends on exited ({process.returncode})")
        if time.monotonic() > deadline:
            raise Failure(f"no {what} within {timeout} s")
        time.sleep(0.05)


class Desktop:
    """Processes of one scenario, ended (by their own ids) whatever happens."""

    def __init__(self):
        self.processes = []

    def start(self, command, **options):
        process = subprocess.Popen(command, **options)
        self.processes.append(process)
        return process

    def stop(self, process):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def close(self):
        for process in reversed(self.processes):
            self.stop(process)


def run_per_app(suite, name, desktop_environment, focus, apps, end_desktop, sketcher):
    """The shared part: pencil-actions in the desktop's session, a double-tap per app in
    focus, `pencilctl actions` naming `sketcher` (focused last) and its binding, then the
    desktop ended and a double-tap that must get the fallback chord."""
    suite_module = _suite()
    ActionsProcess, KeyReader, Monitor = suite_module.ActionsProcess, suite_module.KeyReader, suite_module.Monitor
    as_service_user, chord = suite_module.as_service_user, suite_module.chord
    is_event, key_summary = suite_module.is_event, suite_module.key_summary
    user = pwd.getpwnam("pencild-test")
    uinput = os.stat("/dev/uinput")
    os.chmod("/run/pencild/pencild.sock", 0o666)
    monitor = Monitor()
    actions = None
    try:
        result = as_service_user(suite, os.path.join(suite.bin, "pencilctl"), "prefs", "set",
                                 "doubleTapAction=switchEraser", "squeezeAction=ignore", "withholdGestureClicks=false")
        check(result.returncode == 0, f"pencilctl prefs set: {result.stderr}")
        os.chown("/dev/uinput", user.pw_uid, -1)
        actions = ActionsProcess(suite, f"actions-{name}", PER_APP_BINDINGS, "--focus", focus,
                                 environment=desktop_environment)
        reader = KeyReader(actions.keyboard())
        recording = suite.scenario_recording("actions-per-app.evemu")
        expected = []

        def double_tap(why):
            pen, node = suite.emulate(recording)
            device = os.path.basename(node)
            monitor.wait_for(is_event("doubleTap", device), 30, f"doubleTap ({why})")
            pen.wait(timeout=30)
            monitor.wait_for(is_event("deviceRemoved", device), 30, f"deviceRemoved ({why})")

        status_path = os.path.join(desktop_environment["XDG_RUNTIME_DIR"], "pencil-actions.status")

        def focus_status():
            try:
                with open(status_path) as f:
                    return json.load(f)["focus"]
            except (OSError, ValueError, KeyError):
                return None

        for app, focus_on, codes in apps:
            focus_on()
            # The status file says what pencil-actions sees, whether or not the focus moved.
            wait_until(lambda: focus_status() == {"following": True, "app": app}, 30,
                       f"pencil-actions seeing {app} in focus (status {focus_status()}; log {actions.log()})")
            double_tap(app)
            expected += chord(*codes)
            reader.wait_for(lambda r: len(r.keys) >= len(expected), 20, f"{app}'s chord")
            check(reader.keys == expected, f"in {app} the keyboard sent {key_summary(reader.keys)}, not {key_summary(expected)}")
            suite.note(f"  {app}: {key_summary(reader.keys[-len(codes) * 2:])}")
        check_pencilctl_shows(suite, {"PATH": "/usr/bin:/bin", **desktop_environment,
                                      "XDG_CONFIG_HOME": os.path.join(suite.work, f"actions-{name}", "config"),
                                      "PENCILD_SOCKET": "/run/pencild/pencild.sock"},
                              sketcher, "doubleTapAction=switchEraser -> key leftctrl+leftshift+e ([switchEraser @sketch*]")
        # The desktop goes: pencil-actions must fall back, not keep the last app's chord.
        end_desktop()
        wait_until(lambda: (focus_status() or {}).get("following") is False, 30,
                   f"pencil-actions falling back once the desktop ended (status {focus_status()})")
        double_tap("after the desktop ended")
        expected += chord(*FALLBACK_CHORD)
        reader.wait_for(lambda r: len(r.keys) >= len(expected), 20, "the fallback chord")
        check(reader.keys == expected, f"after the desktop ended the keyboard sent {key_summary(reader.keys)}, not {key_summary(expected)}")
        check(actions.stop() == 0, "pencil-actions did not exit 0 on SIGTERM")
        actions = None
    finally:
        if actions:
            actions.stop(signal.SIGKILL)
        os.chown("/dev/uinput", uinput.st_uid, uinput.st_gid)
        os.chmod("/dev/uinput", uinput.st_mode & 0o7777)
        as_service_user(suite, os.path.join(suite.bin, "pencilctl"), "prefs", "set",
                        "doubleTapAction=switchEraser", "squeezeAction=showContextualPalette")
        monitor.close()
    suite.daemon_alive()


def runtime_directory(suite, name):
    """A private XDG_RUNTIME_DIR of the service user (sway insists on 0700)."""
    user = pwd.getpwnam("pencild-test")
    path = os.path.join(suite.work, f"{name}-runtime")
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.chown(path, user.pw_uid, user.pw_gid)
    os.chmod(path, 0o700)
    return path


def as_user(command):
    user = pwd.getpwnam("pencild-test")
    return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups", "--", *command]


def check_pencilctl_shows(suite, environment, app, chord_text):
    """`pencilctl actions` names the focused app as pencil-actions sees it, and its binding."""
    config = os.path.join(environment["XDG_CONFIG_HOME"], "pencild", "actions.conf")
    result = subprocess.run(as_user([os.path.join(suite.bin, "pencilctl"), "actions", "--config", config]),
                            env=environment, capture_output=True, text=True, timeout=60)
    check(result.returncode == 0, f"pencilctl actions exited {result.returncode}: {result.stderr}")
    check(f'focused app: "{app}"' in result.stdout, f"pencilctl actions does not name {app}: {result.stdout}")
    check(chord_text in result.stdout, f"pencilctl actions does not show {chord_text}: {result.stdout}")


def scenario_focus_x11(suite):
    """X11 (Xvfb, openbox, two Tk windows): a double-tap presses the focused app's own chord."""
    for program in ("Xvfb", "openbox", "xdotool"):
        check(shutil.which(program), f"{program} is not installed (scripts/install-deps.sh test)")
    desktop = Desktop()
    try:
        read_end, write_end = os.pipe()
        server = desktop.start(["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-ac", "-screen", "0", "800x600x24"],
                               pass_fds=[write_end], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_end)
        # Xvfb writes its display number once it accepts clients.
        with os.fdopen(read_end) as ready:
            number = ready.readline().strip()
        check(number.isdigit(), f"Xvfb did not start (it wrote {number!r})")
        display = f":{number}"
        x_environment = {"PATH": "/usr/bin:/bin", "DISPLAY": display, "HOME": suite.work}
        desktop.start(["openbox", "--sm-disable"], env=x_environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=x_environment,
                                          capture_output=True, text=True).stdout.count("window id"), 30, "openbox")
        windows = {}
        for app in ("Sketcher", "Notebook"):
            desktop.start(["/usr/bin/python3", X11_WINDOW, app], env=x_environment, stdin=subprocess.PIPE)
            found = subprocess.run(["xdotool", "search", "--sync", "--class", f"^{app}$"], env=x_environment,
                                   capture_output=True, text=True, timeout=60)
            check(found.returncode == 0 and found.stdout.split(), f"no {app} window: {found.stderr}")
            windows[app] = found.stdout.split()[0]

        def activate(app):
            def run():
                result = subprocess.run(["xdotool", "windowactivate", "--sync", windows[app]], env=x_environment,
                                        capture_output=True, text=True, timeout=60)
                check(result.returncode == 0, f"xdotool windowactivate {app}: {result.stderr}")
            return run

        environment = {"DISPLAY": display, "XDG_RUNTIME_DIR": runtime_directory(suite, "x11")}
        run_per_app(suite, "x11", environment, "x11",
                    [("Sketcher", activate("Sketcher"), SKETCHER_CHORD), ("Notebook", activate("Notebook"), NOTEBOOK_CHORD),
                     ("Sketcher", activate("Sketcher"), SKETCHER_CHORD)],
                    lambda: desktop.stop(server), "Sketcher")
    finally:
        desktop.close()


def scenario_focus_sway(suite):
    """wlroots (sway headless, two foot windows): a double-tap presses the focused app's own chord."""
    for program in ("sway", "swaymsg", "foot"):
        check(shutil.which(program), f"{program} is not installed (scripts/install-deps.sh test)")
    desktop = Desktop()
    try:
        runtime = runtime_directory(suite, "sway")
        home = os.path.join(suite.work, "sway-home")
        os.makedirs(home, exist_ok=True)
        user = pwd.getpwnam("pencild-test")
        os.chown(home, user.pw_uid, user.pw_gid)
        base = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": runtime}
        sway_log = open(os.path.join(suite.work, "sway.log"), "wb")
        # sway refuses to run as root: it runs as the user pencil-actions runs as.
        sway = desktop.start(as_user(["sway", "-c", "/dev/null"]),
                             env={**base, "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"},
                             stdout=sway_log, stderr=sway_log)
        socket_path = wait_until(lambda: glob.glob(os.path.join(runtime, "wayland-[0-9]")), 60, "sway's Wayland socket", sway)[0]
        ipc = wait_until(lambda: glob.glob(os.path.join(runtime, "sway-ipc.*.sock")), 60, "sway's IPC socket", sway)[0]
        wayland = {**base, "WAYLAND_DISPLAY": os.path.basename(socket_path), "SWAYSOCK": ipc}

        def tree():
            result = subprocess.run(as_user(["swaymsg", "-t", "get_tree"]), env=wayland, capture_output=True, text=True, timeout=60)
            return result.stdout

        for app in ("sketcher", "notebook"):
            desktop.start(as_user(["foot", f"--app-id={app}", "cat"]), env=wayland, stdin=subprocess.PIPE,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wait_until(lambda: f'"app_id": "{app}"' in tree(), 60, f"the {app} window", sway)

        def focus(app):
            def run():
                result = subprocess.run(as_user(["swaymsg", f'[app_id="{app}"] focus']), env=wayland,
                                        capture_output=True, text=True, timeout=60)
                check(result.returncode == 0, f"swaymsg focus {app}: {result.stdout} {result.stderr}")
            return run

        environment = {"WAYLAND_DISPLAY": os.path.basename(socket_path), "XDG_RUNTIME_DIR": runtime}
        run_per_app(suite, "sway", environment, "wlroots",
                    [("notebook", focus("notebook"), NOTEBOOK_CHORD), ("sketcher", focus("sketcher"), SKETCHER_CHORD)],
                    lambda: desktop.stop(sway), "sketcher")
    finally:
        desktop.close()
