"""The kernel suite's seat-switch scenario (docs/robustness.md, "The seat's keyboard and the seat's input"): a user's
pencild reads a pen only while its user holds the pen's seat. logind's state files stand in a
private mount namespace for who holds seat0, as sd-login reads them; a switch closes the pen
out to the clients and closes its node, and the switch back opens it again.

Used by suite.py; standard library only. Every wait is for an event (pencild's or the kernel's).
"""

import grp
import os
import pwd
import subprocess

import virtual_pen
from scenario_support import Scenario, check, wait_until, write_logind
from virtual_pen import ABS_DISTANCE, ABS_X, ABS_Y, BTN_TOOL_PEN, EV_ABS, EV_KEY

PEN_NAME = "pencild Seat Pen"
PEN_PHYS = "pencild-seat/input0"


def write_seat(directory, active_uid, daemon_uid):
    """seat0's active session belongs to `active_uid`; the daemon's user and another have one each."""
    other = daemon_uid + 1
    write_logind(directory, {"c1": (daemon_uid, "seat0"), "c2": (other, "seat0")},
                 {"seat0": "c1" if active_uid == daemon_uid else "c2"})
    return other


def node_open(pid, node):
    """Whether process `pid` has `node` open."""
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == node:
                return True
        except OSError:
            continue
    return False


class SeatSwitchScenario(Scenario):
    name = "seat-switch"

    def __init__(self, suite, monitor_class, is_event, service_user):
        super().__init__(suite, monitor_class, is_event, service_user=service_user)

    def run(self):
        suite = self.suite
        user = pwd.getpwnam(self.service_user)
        base = os.path.join(suite.work, "seat-switch")
        state = os.path.join(base, "run-systemd")
        os.makedirs(state, exist_ok=True)
        os.chown(base, user.pw_uid, user.pw_gid)
        socket_path = os.path.join(base, "pencild.sock")
        log_path = os.path.join(suite.results, "seat-switch-pencild.log")
        other = write_seat(state, user.pw_uid, user.pw_uid)
        os.makedirs("/run/systemd", exist_ok=True)
        input_gid = grp.getgrnam("input").gr_gid
        # A user's pencild (not root: a user's daemon) in a mount namespace whose /run/systemd
        # is the state above.
        script = 'mount --bind "$0" /run/systemd && exec "$@"'
        daemon = subprocess.Popen(
            ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, state,
             "setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", f"--groups={input_gid}", "--inh-caps=-all", "--",
             os.path.join(suite.bin, "pencild"), "--socket", socket_path, "--state-dir", os.path.join(base, "state"),
             "--log-level", "debug"],
            stdout=open(log_path, "wb"), stderr=subprocess.STDOUT)
        pen = None
        monitor = None
        try:
            wait_until(lambda: os.path.exists(socket_path) or daemon.poll() is not None, 30, "the user's pencild listening")
            check(daemon.poll() is None, f"the user's pencild exited: {open(log_path).read()[-2000:]}")
            monitor = self.Monitor(socket_path)
            pen = virtual_pen.Pen(PEN_NAME, phys=PEN_PHYS)
            node = pen.event_node()
            device = os.path.basename(node)

            # Its user holds the seat: the pen is read (the positive side).
            monitor.wait_for(self.is_event("deviceAdded", device), 20, f"deviceAdded for {device} while its user holds the seat")
            pen.emit((EV_ABS, ABS_X, 8000), (EV_ABS, ABS_Y, 6000), (EV_ABS, ABS_DISTANCE, 10), (EV_KEY, BTN_TOOL_PEN, 1))
            monitor.wait_for(self.is_event("proximityIn", device), 20, "proximityIn")
            check(node_open(daemon.pid, node), f"pencild does not hold {node} open")

            # Another user takes the seat, the pen in range: closed out, and the node closed.
            write_seat(state, other, user.pw_uid)
            monitor.wait_for(self.is_event("proximityOut", device), 20, "proximityOut when the seat changed hands")
            removed = monitor.wait_for(self.is_event("deviceRemoved", device), 20, "deviceRemoved when the seat changed hands")
            wait_until(lambda: not node_open(daemon.pid, node), 20, f"pencild closing {node}")
            self.note(f"uid {other} took seat0: {device} closed out and its node closed")
            # The pen moves while another user holds the seat: nothing of it reaches this stream.
            pen.emit((EV_ABS, ABS_X, 8100))
            pen.emit((EV_KEY, BTN_TOOL_PEN, 0))

            # The seat comes back: the pen is opened again and read from its next frame on.
            write_seat(state, user.pw_uid, user.pw_uid)
            added = monitor.wait_for(self.is_event("deviceAdded", device), 20, "deviceAdded when the seat came back")
            wait_until(lambda: node_open(daemon.pid, node), 20, f"pencild opening {node} again")
            between = monitor.events[monitor.events.index(removed) + 1:monitor.events.index(added)]
            check(not [e for e in between if e.get("device") == device],
                  f"events of {device} while another user held the seat: {between}")
            pen.emit((EV_ABS, ABS_X, 8200), (EV_ABS, ABS_DISTANCE, 10), (EV_KEY, BTN_TOOL_PEN, 1))
            monitor.wait_for(self.is_event("proximityIn", device), 20, "proximityIn after the seat came back")
            self.note(f"seat0 back: {device} read again")
        finally:
            if monitor:
                monitor.close()
            if pen:
                pen.close()
            daemon.terminate()
            daemon.wait(timeout=20)
