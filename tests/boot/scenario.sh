#!/usr/bin/env bash
# Inside the booted Debian system (run by pencild-boot-test.service, as root, with
# systemd as PID 1 and pencild installed from its .deb): a user's machine, checked
# the way its owner would meet it. Each check prints "BOOT-TEST PASS name: detail" or
# "BOOT-TEST FAIL name: detail" on standard output (the unit sends it to the second
# serial port, read by tests/boot/run.sh), then the system powers off.
#
# The files run.sh put in /root/boot-test: pencild.deb, the other packages' .debs under
# their own names, virtual_pen.py.
set -uo pipefail

files=/root/boot-test
work=$(mktemp -d)
chmod 755 "$work"
start=$(date +%s.%N)
passed=0
failed=0

say() { echo "BOOT-TEST $*"; }
pass() { passed=$((passed + 1)); say "PASS $1: ${*:2}"; }
fail() { failed=$((failed + 1)); say "FAIL $1: ${*:2}"; }
check() { # check NAME DETAIL COMMAND...: PASS when COMMAND succeeds.
    local name=$1 detail=$2
    shift 2
    if "$@" >/dev/null; then pass "$name" "$detail"; else fail "$name" "$detail"; fi
}
elapsed() { awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }
# wait_for SECONDS COMMAND...: polls COMMAND (no event to wait on) until it succeeds.
wait_for() {
    local deadline=$(($(date +%s) + $1))
    shift
    until "$@"; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}
prop() { systemctl show -P "$2" "$1"; }
# as USER COMMAND...: COMMAND as USER with that user's groups, no login session (setpriv
# does not go through PAM) and a clean environment.
as() {
    local user=$1
    shift
    env -i PATH=/usr/bin:/bin HOME="/home/$user" LANG=C.UTF-8 \
        setpriv --reuid="$user" --regid="$user" --init-groups --inh-caps=-all -- "$@" 3>&-
}
journal_since() { journalctl -q -o cat --no-pager "$@"; }

say "INFO scenario started: $(uname -r), systemd $(systemctl --version | head -n 1 | cut -d' ' -f2)"
# This unit is part of the boot (ordered after multi-user.target), so the boot is not
# "finished" while it runs: the time multi-user.target was reached stands for it.
reached=$(systemctl show -P ActiveEnterTimestampMonotonic multi-user.target)
say "INFO boot: multi-user.target reached $(awk -v u="$reached" 'BEGIN { printf "%.1f", u / 1e6 }') s after the kernel started"
say "INFO failed units: $(systemctl list-units --failed --plain --no-legend | cut -d' ' -f1 | tr '\n' ' ')"

# --- 1. After boot: the socket listens, nothing else runs. --------------------------
check socket-enabled "pencild.socket is $(systemctl is-enabled pencild.socket) (enabled by the package)" \
    test "$(systemctl is-enabled pencild.socket)" = enabled
check socket-active "pencild.socket is $(systemctl is-active pencild.socket) after boot" \
    test "$(systemctl is-active pencild.socket)" = active
check service-idle "pencild.service is $(systemctl is-active pencild.service) until a client comes" \
    test "$(systemctl is-active pencild.service)" = inactive
check socket-file "$(stat -c '%A %U:%G' /run/pencild/pencild.sock 2>&1) /run/pencild/pencild.sock" \
    test "$(stat -c '%a %G' /run/pencild/pencild.sock 2>/dev/null)" = "666 input"

# --- 2. The first connection starts the service, sandboxed. ------------------------
if pencilctl devices --json >"$work/devices.json" 2>"$work/devices.err"; then
    pass first-connection "root's pencilctl devices (ListDevices) answered: $(tr -d '\n' <"$work/devices.json" | cut -c1-80)"
else
    fail first-connection "pencilctl devices: $(cat "$work/devices.err")"
fi
check activated "pencild.service is $(systemctl is-active pencild.service) after the first connection" \
    test "$(systemctl is-active pencild.service)" = active
pid=$(prop pencild.service MainPID)
status=/proc/$pid/status
uid=$(awk '/^Uid:/ { print $3 }' "$status")
input_gid=$(getent group input | cut -d: -f3)
check dynamic-user "DynamicUser=$(prop pencild.service DynamicUser), pid $pid runs as uid $uid ($(getent passwd "$uid" | cut -d: -f1))" \
    bash -c '[ "$1" = yes ] && [ "$2" -ge 61184 ] && [ "$2" -le 65519 ]' _ "$(prop pencild.service DynamicUser)" "$uid"
check input-group "groups of pid $pid: $(awk '/^Groups:/ { $1 = ""; print }' "$status") (input is $input_gid)" \
    grep -qE "^Groups:.*\\b$input_gid\\b" "$status"
check no-capabilities "$(grep -E '^Cap(Eff|Prm|Bnd|Amb):' "$status" | tr -s '\t\n' '  ')" \
    bash -c '! grep -E "^Cap(Eff|Prm|Bnd|Amb):" "$1" | grep -qv "0000000000000000"' _ "$status"
check capability-bounding-set "CapabilityBoundingSet=$(prop pencild.service CapabilityBoundingSet)" \
    test -z "$(prop pencild.service CapabilityBoundingSet)"
filter=$(prop pencild.service SystemCallFilter)
check syscall-filter "$(grep -E '^(Seccomp|Seccomp_filters|NoNewPrivs):' "$status" | tr -s '\t\n' '  ')SystemCallFilter= lists $(wc -w <<<"$filter") calls" \
    bash -c 'grep -q "^Seccomp:[[:space:]]*2" "$1" && grep -q "^NoNewPrivs:[[:space:]]*1" "$1" && [ -n "$2" ] && ! grep -qw reboot <<<"$2"' _ "$status" "$filter"
check sandbox "ProtectSystem=$(prop pencild.service ProtectSystem) DevicePolicy=$(prop pencild.service DevicePolicy) PrivateTmp=$(prop pencild.service PrivateTmp) RestrictAddressFamilies=$(prop pencild.service RestrictAddressFamilies)" \
    test "$(prop pencild.service ProtectSystem)/$(prop pencild.service DevicePolicy)/$(prop pencild.service PrivateTmp)" = strict/closed/yes
# The pen's thread runs at SCHED_RR priority 1, what the unit grants; the main thread, the
# control, stays ordinary. /proc/TID/stat: field 40 is the realtime priority, 41 the policy
# (0 ordinary, 2 SCHED_RR).
scheduling() { awk '{ print $41 "/" $40 }' "/proc/$1/task/$2/stat" 2>/dev/null; }
pen_thread() { grep -lx pencild-pen /proc/"$1"/task/*/comm 2>/dev/null | cut -d/ -f5; }
pen_tid=$(pen_thread "$pid")
pen_scheduling=$(scheduling "$pid" "${pen_tid:-none}")
main_scheduling=$(scheduling "$pid" "$pid")
check pen-thread-realtime "LimitRTPRIO=$(prop pencild.service LimitRTPRIO); policy/priority: pen's thread ${pen_tid:-not found} ${pen_scheduling:-?}, main thread $main_scheduling; pencild: $(journal_since -u pencild.service | grep -m1 "pen's path" | cut -c1-120)" \
    test "$pen_scheduling,$main_scheduling" = "2/1,0/0"

# --- 3. Who may connect. -------------------------------------------------------------
# The call pencilctl makes, written by hand so that the error's name shows.
as outsider python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect("/run/pencild/pencild.sock")
try:
    s.sendall(b"{\"method\":\"org.pencild.Pen.ListDevices\",\"parameters\":{}}\0")
except BrokenPipeError:
    pass  # pencild refuses at the connection and closes it: its reply is read all the same
reply = b""
while not reply.endswith(b"\0"):
    chunk = s.recv(4096)
    if not chunk:
        break
    reply += chunk
print(reply.rstrip(b"\0").decode())' >"$work/outsider.out" 2>&1
check outsider-denied "uid $(id -u outsider), not in input, no session: $(cut -c1-120 "$work/outsider.out")" \
    grep -q '"error" *: *"org.pencild.Pen.PermissionDenied"' "$work/outsider.out"
check input-member-served "penuser (group input) lists devices" as penuser pencilctl devices --json

# The seated user: autologin on tty1 gives "seated" (not in input) an active session.
if wait_for 90 bash -c '[ "$(loginctl show-user seated -P State 2>/dev/null)" = active ]'; then
    pass seated-session "$(loginctl list-sessions --no-legend | tr -s ' ' | tr '\n' ';')"
    check seated-served "seated (active session on seat0, not in input) lists devices" as seated pencilctl devices --json
else
    fail seated-session "no active session for seated: $(loginctl list-sessions --no-legend 2>&1 | tr '\n' ';') getty: $(systemctl is-active getty@tty1.service)"
fi

# --- 4. A pen appears: udev starts the enabled service. -----------------------------
systemctl stop pencild.service
systemctl enable pencild.service 2>/dev/null
check service-enabled "pencild.service is $(systemctl is-enabled pencild.service), $(systemctl is-active pencild.service) before the pen" \
    test "$(systemctl is-enabled pencild.service)/$(systemctl is-active pencild.service)" = enabled/inactive
modprobe uinput
mkfifo "$work/pen.fifo"
python3 "$files/virtual_pen.py" pen --name "Boot Test Pen" --node-file "$work/node" <"$work/pen.fifo" >"$work/pen.log" 2>&1 &
pen_pid=$!
exec 3>"$work/pen.fifo"
wait_for 30 test -s "$work/node" || fail pen "no virtual pen: $(cat "$work/pen.log")"
node=$(cat "$work/node" 2>/dev/null)
udevadm settle --timeout=60
event=${node##*/}
check udev-tags "$node: $(udevadm info -q property "$node" | grep -E '^(ID_INPUT_TABLET|TAGS|SYSTEMD_WANTS)=' | tr '\n' ' ')" \
    bash -c 'udevadm info -q property "$1" | grep -q "^SYSTEMD_WANTS=.*pencild-pen.target"' _ "$node"
if wait_for 60 bash -c '[ "$(systemctl is-active pencild.service)" = active ]'; then
    pass udev-starts-service "pencild.service started by the pen: pencild-pen.target is $(systemctl is-active pencild-pen.target); $(journal_since -u pencild.service -n 1)"
else
    fail udev-starts-service "pencild.service is $(systemctl is-active pencild.service), pencild-pen.target $(systemctl is-active pencild-pen.target)"
fi
# The pen's node: the system service reads it through group input; the person at the seat
# gets no ACL on it unless the administrator enables the user-mode example (docs/installing.md,
# "User service"), since an ACL checked at open() would outlive a switch of seat.
if [ -n "$node" ]; then
    pen_readable() { as seated python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_RDONLY))' "$node" 2>/dev/null; }
    pen_acl() { echo "$(stat -c '%A %U:%G' "$node"), CURRENT_TAGS=$(udevadm info -q property "$node" | sed -n 's/^CURRENT_TAGS=//p')"; }
    user_mode_example=/usr/share/doc/pencild/examples/71-pencild-user-mode.rules
    if [ -f "$user_mode_example" ] && ! pen_readable; then
        pass pen-acl-closed "seated (the active session) cannot read $node ($(pen_acl)); the user-mode example is $user_mode_example"
    else
        fail pen-acl-closed "seated can read $node ($(pen_acl)), or the example $user_mode_example is missing"
    fi
    # The administrator opts in, as docs/installing.md says.
    cp "$user_mode_example" /etc/udev/rules.d/
    udevadm control --reload
    udevadm trigger --action=change --subsystem-match=input --property-match=ID_INPUT_TABLET=1
    udevadm settle --timeout=60
    if wait_for 10 pen_readable; then
        pass pen-acl-opt-in "with the user-mode example in /etc/udev/rules.d, seated reads $node ($(pen_acl)): a user-mode pencild can"
    else
        fail pen-acl-opt-in "seated cannot read $node after the opt-in ($(pen_acl))"
    fi
    # Taken back: no later step reads the pen as seated. logind leaves the ACL it gave until
    # the pen goes; setfacl, where the image has it, takes it now.
    rm /etc/udev/rules.d/71-pencild-user-mode.rules
    udevadm control --reload
    udevadm trigger --action=change --subsystem-match=input --property-match=ID_INPUT_TABLET=1
    udevadm settle --timeout=60
    if command -v setfacl >/dev/null; then setfacl -b "$node"; fi
fi

# A client as penuser (group input, no session) follows the pen.
# (One simple command, so that $! is pencilctl itself; 3>&-: the pen's input stays
# with this script alone, so that closing it ends the pen.)
env -i PATH=/usr/bin:/bin HOME=/home/penuser setpriv --reuid=penuser --regid=penuser --init-groups --inh-caps=-all -- \
    pencilctl monitor --json >"$work/monitor.json" 2>"$work/monitor.err" 3>&- &
monitor_pid=$!
if wait_for 60 grep -q "\"deviceAdded\".*\"$event\"\\|\"$event\".*\"deviceAdded\"" "$work/monitor.json"; then
    pass monitor-subscribed "penuser's Monitor sees $event: $(grep -m1 deviceAdded "$work/monitor.json" | cut -c1-100)"
else
    fail monitor-subscribed "no deviceAdded for $event: $(cat "$work/monitor.err" "$work/monitor.json" | head -c 300)"
fi
echo stroke >&3
echo doubletap >&3
if wait_for 60 grep -q '"doubleTap"' "$work/monitor.json"; then
    tap=$(grep -m1 '"doubleTap"' "$work/monitor.json")
    check double-tap "penuser got $(grep -c . "$work/monitor.json") events; $(cut -c1-160 <<<"$tap")" \
        grep -q '"switchEraser"' <<<"$tap"
    # The package's defaults mirror the pen (seated has set nothing), and with no app holding
    # seated's focus pencild switches the pen to its eraser itself: penuser's stream says so.
    check double-tap-performed "the double-tap's focus: $(grep -o '"focus" *: *"[a-z]*"' <<<"$tap")" \
        grep -q '"focus" *: *"pen"' <<<"$tap"
else
    fail double-tap "no doubleTap; got: $(grep -oE '"type":"[a-zA-Z]+"' "$work/monitor.json" | sort | uniq -c | tr -s ' \n' ' ')"
fi
check pen-events "tipDown, motion and tipUp reached penuser" \
    bash -c 'grep -q "\"tipDown\"" "$1" && grep -q "\"motion\"" "$1" && grep -q "\"tipUp\"" "$1"' _ "$work/monitor.json"
kill "$monitor_pid" 2>/dev/null
wait "$monitor_pid" 2>/dev/null

# --- 4b. Gesture clicks withheld: the service makes the pen's mirror in its sandbox. --
# "seated" holds the active session on seat0, so their preference decides (docs/gestures.md,
# "The mirror"); /dev/uinput is the group "pencild-uinput"'s, which only the service has.
check uinput-group "/dev/uinput is $(stat -c '%A %U:%G' /dev/uinput 2>&1)" \
    test "$(stat -c '%a %G' /dev/uinput 2>&1)" = "660 pencild-uinput"
mirror_of() { pencilctl devices --json | python3 -c 'import json, sys
for line in sys.stdin:
    device = json.loads(line)
    if device["id"] == sys.argv[1]:
        print(device.get("mirror", ""))' "$1"; }
# seated has set nothing: the package's default (withholdGestureClicks true) decides.
seated_withhold=$(as seated pencilctl prefs get --json | grep -o '"withholdGestureClicks" *: *[a-z]*')
check prefs-untouched "seated's preferences, never set: $seated_withhold" grep -q 'true$' <<<"$seated_withhold"
if wait_for 60 bash -c "[ -n \"\$(pencilctl devices --json | grep -o '\"mirror\" *: *\"event[0-9]*\"')\" ]"; then
    mirror=$(mirror_of "$event")
    phys=$(cat "/sys/class/input/$mirror/device/phys" 2>&1)
    # Tagged for nobody (no "pencild" tag, no service wanted), and named for libinput's quirk
    # by UNIQ (libinput-quirks/20-pencild-mirror.quirks).
    check mirror-made "by default: $event is mirrored as $mirror, phys $phys; udev: $(udevadm info -q property "/dev/input/$mirror" | grep -E '^(ID_INPUT_TABLET|UNIQ|TAGS|CURRENT_TAGS|SYSTEMD_WANTS|SYSTEMD_USER_WANTS)=' | tr '\n' ' ')" \
        bash -c '[ -c "/dev/input/$1" ] && [ "${2%-pencild}" != "$2" ] \
            && udevadm info -q property "/dev/input/$1" | grep -qx "UNIQ=pencild-mirror" \
            && ! udevadm info -q property "/dev/input/$1" | grep -E "^(TAGS|CURRENT_TAGS|SYSTEMD_WANTS|SYSTEMD_USER_WANTS)=" | grep -q "pencild"' _ "$mirror" "$phys"
    # The double-tap above switched the pen to its eraser through the mirror: the stroke comes
    # as the eraser's, and ends with the eraser leaving.
    python3 "$files/virtual_pen.py" read "/dev/input/$mirror" --ready-file "$work/mirror.ready" --timeout 60 \
        --until-key 0x141 >"$work/mirror.read" 2>&1 &
    reader_pid=$!
    wait_for 30 test -e "$work/mirror.ready"
    echo stroke >&3
    wait "$reader_pid"
    reader_status=$?
    check mirror-carries "a stroke of the pen reached the mirror's reader as the eraser's (exit $reader_status): $(grep -c . "$work/mirror.read") events, $(grep -m1 BTN_TOOL "$work/mirror.read"), $(grep -m1 BTN_TOUCH "$work/mirror.read")" \
        bash -c '[ "$1" = 0 ] && grep -q "BTN_TOOL_RUBBER 1" "$2" && ! grep -q "BTN_TOOL_PEN" "$2" && grep -q "BTN_TOUCH 1" "$2" && grep -q "ABS_PRESSURE" "$2"' _ "$reader_status" "$work/mirror.read"
    # One command gives seated the clicks back.
    as seated pencilctl prefs set withholdGestureClicks=false >/dev/null
    if wait_for 60 bash -c '[ -z "$(pencilctl devices --json | grep -o "\"mirror\"")" ]'; then
        check mirror-released "seated's pencilctl prefs set withholdGestureClicks=false: the mirror is gone, /dev/input/$mirror $(test -e "/dev/input/$mirror" && echo "still there" || echo removed)" \
            test ! -e "/dev/input/$mirror"
    else
        fail mirror-released "the mirror stayed: $(pencilctl devices --json | tr -d '\n' | cut -c1-200)"
    fi
else
    fail mirror-made "no mirror for $event: $(pencilctl devices --json | tr -d '\n' | cut -c1-200); $(journal_since -u pencild.service | grep -i 'withh\|mirror\|uinput' | tail -n 3)"
fi

# --- 5. Preferences survive a restart, in the dynamic user's state directory. -------
as penuser pencilctl prefs set doubleTapAction=showColorPalette doubleTapInterval=350 >/dev/null
systemctl restart pencild.service
prefs=$(as penuser pencilctl prefs get --json 2>&1)
check prefs-survive-restart "after systemctl restart (pid $(prop pencild.service MainPID), was $pid): $(cut -c1-140 <<<"$prefs")" \
    bash -c 'grep -q "\"showColorPalette\"" <<<"$1" && grep -q "\"doubleTapInterval\" *: *350" <<<"$1"' _ "$prefs"
penuser_uid=$(id -u penuser)
check state-directory "/var/lib/pencild -> $(readlink /var/lib/pencild); $(stat -c '%a' /var/lib/private) /var/lib/private; $(ls /var/lib/private/pencild 2>&1 | tr '\n' ' ')" \
    bash -c '[ "$(readlink /var/lib/pencild)" = private/pencild ] && [ "$(stat -c %a /var/lib/private)" = 700 ] && [ -s "/var/lib/private/pencild/$1.json" ]' _ "$penuser_uid"

# --- 6. A clean stop, and the watchdog. -----------------------------------------------
systemd-analyze set-log-level debug
systemctl stop pencild.service
systemd-analyze set-log-level info
stop_note=$(journal_since -u pencild.service -g 'STOPPING=1' -n 1)
check clean-stop "Result=$(prop pencild.service Result) ExecMainStatus=$(prop pencild.service ExecMainStatus); ${stop_note:-no STOPPING=1 notification}" \
    bash -c '[ "$1" = success ] && [ "$2" = 0 ] && [ -n "$3" ]' _ "$(prop pencild.service Result)" "$(prop pencild.service ExecMainStatus)" "$stop_note"

pencilctl devices >/dev/null 2>&1
stopped_pid=$(prop pencild.service MainPID)
watchdog_start=$(date +%s)
kill -STOP "$stopped_pid"
if wait_for 120 bash -c 'p=$(systemctl show -P MainPID pencild.service); [ "$p" != 0 ] && [ "$p" != "$1" ] && [ "$(systemctl is-active pencild.service)" = active ]' _ "$stopped_pid"; then
    pass watchdog "pid $stopped_pid stopped with SIGSTOP; after $(($(date +%s) - watchdog_start)) s pid $(prop pencild.service MainPID) serves ($(journal_since -u pencild.service -g 'atchdog' -n 1 | cut -c1-80))"
else
    fail watchdog "pencild.service is $(systemctl is-active pencild.service), MainPID $(prop pencild.service MainPID) after SIGSTOP of $stopped_pid"
fi
check watchdog-serves "the restarted pencild answers" pencilctl devices --json

# --- 7. The user unit: a lingering user's own daemon. ---------------------------------
# user_pen_scheduling PID USER: once the user's pencild PID said at what its pen's thread
# runs (it asks RealtimeKit first), that thread's policy/priority and what pencild said.
user_pen_scheduling() {
    wait_for 60 bash -c 'journalctl -q -o cat --no-pager _PID="$1" | grep -q "pen.s path runs"' _ "$1"
    user_said=$(journal_since _PID="$1" | grep -m1 "pen's path runs" | cut -c1-240)
    user_scheduling=$(scheduling "$1" "$(pen_thread "$1")")
    say "INFO $2's pencild (pid $1): pen's thread ${user_scheduling:-?}"
}
lingerer_uid=$(id -u lingerer)
if wait_for 60 test -S "/run/user/$lingerer_uid/systemd/private"; then
    as lingerer env XDG_RUNTIME_DIR="/run/user/$lingerer_uid" systemctl --user enable --now pencild.socket >"$work/user.log" 2>&1
    as lingerer env XDG_RUNTIME_DIR="/run/user/$lingerer_uid" pencilctl devices >>"$work/user.log" 2>&1
    user_status=$?
    user_pid=$(as lingerer env XDG_RUNTIME_DIR="/run/user/$lingerer_uid" systemctl --user show -P MainPID pencild.service)
    user_uid=$(awk '/^Uid:/ { print $3 }' "/proc/$user_pid/status" 2>/dev/null)
    check user-unit "lingerer's socket $(stat -c %a "/run/user/$lingerer_uid/pencild.sock" 2>&1); its pencild pid $user_pid runs as uid $user_uid (lingerer is $lingerer_uid; the system one is $(prop pencild.service MainPID))" \
        bash -c '[ "$1" = 0 ] && [ "$2" = "$3" ] && [ "$4" != "$(systemctl show -P MainPID pencild.service)" ]' _ "$user_status" "$user_uid" "$lingerer_uid" "$user_pid"
    # A user's pencild asks RealtimeKit for SCHED_RR, which polkit grants to a user with an
    # active local session: not to lingerer, who has none (the negative)...
    user_pen_scheduling "$user_pid" lingerer
    check user-unit-no-realtime-without-session "lingerer (no session): pen's thread $user_scheduling; pencild: $user_said" \
        bash -c '[ "$1" = 0/0 ] && grep -q "RealtimeKit refused" <<<"$2"' _ "$user_scheduling" "$user_said"
else
    fail user-unit "no user manager for lingerer: user@$lingerer_uid.service is $(systemctl is-active "user@$lingerer_uid.service")"
fi
# ... and to seated, whose session on tty1 is active (the positive).
seated_uid=$(id -u seated)
if wait_for 60 test -S "/run/user/$seated_uid/systemd/private"; then
    as seated env XDG_RUNTIME_DIR="/run/user/$seated_uid" systemctl --user start pencild.socket >"$work/seated-user.log" 2>&1
    as seated env XDG_RUNTIME_DIR="/run/user/$seated_uid" pencilctl devices >>"$work/seated-user.log" 2>&1
    seated_pid=$(as seated env XDG_RUNTIME_DIR="/run/user/$seated_uid" systemctl --user show -P MainPID pencild.service)
    user_pen_scheduling "$seated_pid" seated
    check user-unit-realtime-from-realtimekit "seated (active session): pen's thread $user_scheduling; pencild: $user_said; LimitRTTIME $(awk '/realtime timeout/ { print $5 }' "/proc/$seated_pid/limits" 2>&1) us" \
        bash -c '[ "$1" = 2/1 ] && grep -q "granted by RealtimeKit" <<<"$2"' _ "$user_scheduling" "$user_said"
    as seated env XDG_RUNTIME_DIR="/run/user/$seated_uid" systemctl --user stop pencild.socket pencild.service >>"$work/seated-user.log" 2>&1
else
    fail user-unit-realtime-from-realtimekit "no user manager for seated: user@$seated_uid.service is $(systemctl is-active "user@$seated_uid.service")"
fi

# --- 8. The other packages: the client libraries and pencil-actions, on the pen. -------
version=$(dpkg-query -W -f '${Version}' pencild)
arch=$(dpkg --print-architecture)
t=$(date +%s)
apt-get install -y -q "$files/libpencil0_${version}_$arch.deb" "$files/python3-pencild_${version}_all.deb" \
    "$files/pencil-actions_${version}_$arch.deb" >"$work/others.log" 2>&1
others_status=$?
check other-packages "$(($(date +%s) - t)) s; apt-get install libpencil0 python3-pencild pencil-actions: exit $others_status" \
    test "$others_status" = 0
# pencil-actions is on for every user's graphical session, with nothing to set up; pencild's
# user units stay off (the positive and negative side of one rule).
actions_enabled=$(systemctl --global is-enabled pencil-actions.service 2>&1)
user_pencild_enabled=$(systemctl --global is-enabled pencild.socket 2>&1)
check pencil-actions-enabled "systemctl --global is-enabled: pencil-actions.service $actions_enabled, pencild.socket $user_pencild_enabled; the shipped bindings: $(ls /usr/share/pencil-actions/actions.conf 2>&1)" \
    bash -c '[ "$1" = enabled ] && [ "$2" = disabled ] && [ -f /usr/share/pencil-actions/actions.conf ] && [ -x /usr/share/pencil-actions/palette/pencil-palette ]' _ "$actions_enabled" "$user_pencild_enabled"
# One user turns it off, as the settings window's switch does (mask: a user's disable cannot
# undo a global enable), and on again (unmask): the global enable is theirs again.
if [ "$(systemctl is-active "user@$seated_uid.service")" = active ]; then
    seated_systemctl() { as seated env XDG_RUNTIME_DIR="/run/user/$seated_uid" systemctl --user "$@"; }
    seated_systemctl mask --now pencil-actions.service >"$work/actions-mask.log" 2>&1
    masked=$(seated_systemctl is-enabled pencil-actions.service 2>&1)
    seated_systemctl unmask pencil-actions.service >>"$work/actions-mask.log" 2>&1
    unmasked=$(seated_systemctl is-enabled pencil-actions.service 2>&1)
    check pencil-actions-off-for-one-user "seated's pencil-actions.service: after mask --now $masked, after unmask $unmasked; the global enable: $(systemctl --global is-enabled pencil-actions.service 2>&1)" \
        bash -c '[ "$1" = masked ] && [ "$2" = enabled ] && [ "$(systemctl --global is-enabled pencil-actions.service)" = enabled ]' _ "$masked" "$unmasked"
else
    fail pencil-actions-off-for-one-user "no user manager for seated: user@$seated_uid.service is $(systemctl is-active "user@$seated_uid.service")"
fi
# Each client library, as an app of penuser's would use it, lists the pen.
python_devices=$(as penuser python3 -c 'import pencild; print(" ".join(d.id for d in pencild.list_devices()))' 2>&1)
check python-client "penuser's pencild.list_devices() (python3-pencild): $python_devices" test "$python_devices" = "$event"
c_devices=$(as penuser python3 - 2>&1 <<'EOF_C'
import ctypes
lib = ctypes.CDLL("libpencil.so.0")
lib.pencil_new.restype = ctypes.c_void_p
lib.pencil_list_devices.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(ctypes.c_void_p)),
                                    ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p]
lib.pencil_device_get_id.restype = ctypes.c_char_p
lib.pencil_device_get_id.argtypes = [ctypes.c_void_p]
lib.pencil_device_list_free.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
lib.pencil_unref.argtypes = [ctypes.c_void_p]
pencil = lib.pencil_new()
devices = ctypes.POINTER(ctypes.c_void_p)()
count = ctypes.c_size_t()
status = lib.pencil_list_devices(pencil, ctypes.byref(devices), ctypes.byref(count), None)
if status < 0:
    raise SystemExit(f"pencil_list_devices: {status}")
print(" ".join(lib.pencil_device_get_id(devices[i]).decode() for i in range(count.value)))
lib.pencil_device_list_free(devices, count)
lib.pencil_unref(pencil)
EOF_C
)
check c-library "penuser's pencil_list_devices() (libpencil.so.0): $c_devices" test "$c_devices" = "$event"
# pencil-actions as seated (the seat's active user) and as penuser (no session at all): a
# command bound to the double-tap's action runs once for seated; penuser's performs nothing,
# and says why (docs/robustness.md, "The seat's keyboard and the seat's input").
as seated pencilctl prefs set doubleTapAction=showColorPalette >/dev/null
for user in seated penuser; do
    mkdir -p "/home/$user/.config/pencild"
    cat >"/home/$user/.config/pencild/actions.conf" <<'EOF_ACTIONS'
[showColorPalette]
command = sh -c 'echo "$PENCIL_GESTURE $PENCIL_ACTION" >> "$HOME/actions.out"'
EOF_ACTIONS
    chown -R "$user:$user" "/home/$user/.config"
done
# env and setpriv exec in place: $! is pencil-actions itself, which SIGTERM reaches.
env -i PATH=/usr/bin:/bin HOME=/home/seated setpriv --reuid=seated --regid=seated --init-groups --inh-caps=-all -- \
    pencil-actions >"$work/actions.log" 2>&1 3>&- &
actions_pid=$!
env -i PATH=/usr/bin:/bin HOME=/home/penuser setpriv --reuid=penuser --regid=penuser --init-groups --inh-caps=-all -- \
    pencil-actions >"$work/actions-penuser.log" 2>&1 3>&- &
penuser_actions_pid=$!
if wait_for 30 grep -q 'subscribed to doubleTap and squeeze' "$work/actions.log" &&
    wait_for 30 grep -q 'subscribed to doubleTap and squeeze' "$work/actions-penuser.log"; then
    echo doubletap >&3
    if wait_for 60 test -s /home/seated/actions.out; then
        check pencil-actions "seated's bound command ran for the double-tap: $(tr '\n' ' ' </home/seated/actions.out)" \
            test "$(cat /home/seated/actions.out)" = "doubleTap showColorPalette"
    else
        fail pencil-actions "no command ran for seated's double-tap: $(tr '\n' ' ' <"$work/actions.log" | cut -c1-300)"
    fi
    wait_for 30 grep -q 'doubleTap showColorPalette: not performed: this session is not the seat' "$work/actions-penuser.log"
    check pencil-actions-no-session "penuser (no session) performed nothing: $(grep -m1 'not performed' "$work/actions-penuser.log" | cut -c1-160); its command output: $(cat /home/penuser/actions.out 2>/dev/null || echo none)" \
        bash -c 'grep -q "not performed: this session is not the seat" "$1" && [ ! -e /home/penuser/actions.out ]' _ "$work/actions-penuser.log"
else
    fail pencil-actions "pencil-actions did not subscribe: $(tr '\n' ' ' <"$work/actions.log" "$work/actions-penuser.log" | cut -c1-300)"
fi
kill "$penuser_actions_pid" 2>/dev/null
wait "$penuser_actions_pid"
kill "$actions_pid" 2>/dev/null
wait "$actions_pid"
actions_status=$?
check pencil-actions-stops "pencil-actions ended with status $actions_status on SIGTERM" test "$actions_status" = 0

# --- 8b. /dev/uinput: nobody's by default; the example rule is the administrator's opt-in,
# and removing pencil-actions replays the node, so an ACL does not outlive the rule. -------
uinput_writable() { as seated python3 -c 'import os; os.close(os.open("/dev/uinput", os.O_WRONLY))' 2>/dev/null; }
uinput_closed() { ! uinput_writable; }
uinput_acl() { stat -c '%A' /dev/uinput; }
example=/usr/share/doc/pencild/examples/71-pencil-actions-uinput.rules
rules=$(find /lib/udev/rules.d /usr/lib/udev/rules.d /etc/udev/rules.d -iname '*uinput*' 2>/dev/null | tr '\n' ' ')
check uinput-rule-example "no uinput rule where udev reads rules (${rules:-none}); the example: $(test -f "$example" && echo "$example" || echo missing)" \
    bash -c '[ -z "$1" ] && [ -f "$2" ]' _ "$rules" "$example"
if [ -e /dev/uinput ] && ! uinput_writable; then
    pass uinput-closed "seated (the active session) cannot open /dev/uinput ($(uinput_acl)) with pencil-actions installed"
else
    fail uinput-closed "seated can open /dev/uinput ($(uinput_acl 2>&1)), or it is missing"
fi
# The administrator opts in, as docs/pencil-actions.md says.
cp "$example" /etc/udev/rules.d/
udevadm control --reload
udevadm trigger --action=change --sysname-match=uinput
udevadm settle --timeout=60
if wait_for 10 uinput_writable; then
    pass uinput-opt-in "with the example rule in /etc/udev/rules.d, seated opens /dev/uinput ($(uinput_acl)): pencil-actions' keys work for whoever enables it"
else
    fail uinput-opt-in "seated cannot open /dev/uinput after the opt-in ($(uinput_acl))"
fi
# The administrator takes the copy back and removes pencil-actions: its postrm replays the
# node, and the ACL goes at once, not at the next boot.
rm /etc/udev/rules.d/71-pencil-actions-uinput.rules
apt-get remove -y -q pencil-actions >"$work/remove-actions.log" 2>&1
remove_status=$?
udevadm settle --timeout=60
if [ "$remove_status" = 0 ] && wait_for 10 uinput_closed; then
    pass uinput-acl-dropped "after apt-get remove pencil-actions, seated cannot open /dev/uinput ($(uinput_acl))"
else
    fail uinput-acl-dropped "apt-get remove pencil-actions: exit $remove_status; seated can still open /dev/uinput ($(uinput_acl))"
fi

# --- 8c. The seat's keyboard: chords for the active session's user alone, every key let go
# at a switch (docs/robustness.md, "The seat's keyboard and the seat's input"). The longest
# interval pencild allows (100 ms, below any desktop's autorepeat delay) and a chord of seven
# modifiers before its key leave 700 ms between the chord's first key down and its key down;
# the keyboard's reader switches the console to the other session the moment the first key
# goes down, as a person pressing Ctrl+Alt+F2 would, with no shell polling in between. -----
# pencild presses keys only for a process of the seat's active session (or of its user's
# service manager): the client joins USER's session scope first, as a program of that
# session would be; press_chord_outside makes the same call from no session at all.
press_chord() { # press_chord USER KEY...: PressChord's reply, as USER, from USER's session
    local user=$1 scope
    shift
    scope=$(systemctl show -P ControlGroup "$(loginctl show-session "$(session_of "$user")" -P Scope 2>/dev/null)" 2>/dev/null)
    (
        [ -n "$scope" ] && echo "$BASHPID" >"/sys/fs/cgroup$scope/cgroup.procs"
        press_chord_outside "$user" "$@"
    )
}
press_chord_outside() { # press_chord_outside USER KEY...: PressChord's reply, as USER, from no session
    local user=$1
    shift
    as "$user" python3 -c '
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect("/run/pencild/pencild.sock")
try:
    s.sendall(json.dumps({"method": "org.pencild.Pen.PressChord", "parameters": {"keys": sys.argv[1:]}}).encode() + b"\0")
except BrokenPipeError:
    pass
reply = b""
while not reply.endswith(b"\0"):
    chunk = s.recv(4096)
    if not chunk: break
    reply += chunk
print(reply.rstrip(b"\0").decode())' "$@"
}
session_of() { loginctl list-sessions --no-legend | awk -v u="$1" '$3 == u { print $1; exit }'; }
keyboard_node() {
    local name
    for name in /sys/class/input/event*/device/name; do
        [ "$(cat "$name")" = "pencild keyboard" ] && { echo "/dev/input/$(basename "$(dirname "$(dirname "$name")")")"; return 0; }
    done
    return 1
}
mkdir -p /etc/systemd/system/pencild.service.d
printf '[Daemon]\nChordKeyInterval=100ms\n' >/etc/pencild-boot-chords.conf
printf '[Service]\nExecStart=\nExecStart=/usr/bin/pencild --system --state-dir ${STATE_DIRECTORY} --config /etc/pencild-boot-chords.conf\n' \
    >/etc/systemd/system/pencild.service.d/chords.conf
systemctl daemon-reload
systemctl restart pencild.service
systemctl start getty@tty2.service
seated_session=$(session_of seated)
if wait_for 60 bash -c '[ -n "$(loginctl list-sessions --no-legend | awk '\''$3 == "visitor"'\'')" ]'; then
    visitor_session=$(session_of visitor)
    visitor_vt=$(loginctl show-session "$visitor_session" -P VTNr 2>/dev/null)
    visitor_vt=${visitor_vt:-2}
    first=$(press_chord seated leftctrl z)
    check chord-pressed "seated (active on seat0) PressChord(leftctrl z) from its session: ${first:-no reply}; keyboard $(keyboard_node || echo missing)" \
        bash -c '[[ "$1" == *parameters* && "$1" != *error* ]]' _ "$first"
    outside=$(press_chord_outside seated leftctrl z)
    check chord-outside-session-refused "seated's chord from no session (as from an SSH login or a cron job): ${outside:-no reply}; from its session (above): $first" \
        bash -c 'grep -q PermissionDenied <<<"$1"' _ "$outside"
    wait_for 20 keyboard_node >/dev/null
    keyboard=$(keyboard_node)
    # A reader of the keyboard prints "code value" for each key change, as it happens; it
    # appends, so that emptying the file between steps leaves no hole before its next line.
    # Once open it writes in the ready file whether a key is down (EVIOCGKEY): the first
    # chord may be over already. When the arm file names a virtual
    # terminal, the next key down switches to it (VT_ACTIVATE, as Ctrl+Alt+Fn does; logind
    # makes that terminal's session the active one).
    python3 -u -c '
import fcntl, os, struct, sys
keyboard, ready, arm = sys.argv[1:]
EVIOCGKEY_96 = 0x80604518
VT_ACTIVATE = 0x5606
with open(keyboard, "rb") as f:
    held = fcntl.ioctl(f, EVIOCGKEY_96, bytes(96))
    with open(ready + ".new", "w") as r:
        r.write("busy" if any(held) else "idle")
    os.rename(ready + ".new", ready)
    while True:
        _, _, kind, code, value = struct.unpack("llHHi", f.read(24))
        if kind != 1:
            continue
        print(code, value)
        if value == 1 and os.path.exists(arm):
            vt = int(open(arm).read())
            os.unlink(arm)
            console = os.open("/dev/tty0", os.O_WRONLY | os.O_NOCTTY)
            fcntl.ioctl(console, VT_ACTIVATE, vt)
            os.close(console)' "$keyboard" "$work/keys.ready" "$work/switch.arm" >>"$work/keys.txt" 2>&1 &
    reader_pid=$!
    wait_for 20 test -s "$work/keys.ready"
    # Whatever is left of the first chord reaches the reader before the second one starts.
    [ "$(cat "$work/keys.ready" 2>/dev/null)" = busy ] && wait_for 20 grep -q '^29 0$' "$work/keys.txt"
    : >"$work/keys.txt"
    # Seven modifiers, then e: leftctrl leftshift leftmeta leftalt rightctrl rightshift rightmeta.
    modifiers=(29 42 125 56 97 54 126)
    echo "$visitor_vt" >"$work/switch.arm"
    second=$(press_chord seated leftctrl leftshift leftmeta leftalt rightctrl rightshift rightmeta e)
    wait_for 20 bash -c 'journalctl -q -o cat -u pencild.service | grep -qE "no longer holds the seat: [0-9]+ keys? let go"'
    released=$?
    # The releases reach the reader once pencild has sent them.
    wait_for 10 bash -c '[ "$(grep -c " 0$" "$1")" -ge "$(grep -c " 1$" "$1")" ]' _ "$work/keys.txt"
    # What the keyboard should have sent: the modifiers that went down before the switch, in
    # order, then each of them up, the last first; e (18) never.
    downs=$(grep -c ' 1$' "$work/keys.txt")
    expected=$(for ((i = 0; i < downs; i++)); do echo "${modifiers[i]} 1"; done
        for ((i = downs - 1; i >= 0; i--)); do echo "${modifiers[i]} 0"; done)
    check chord-released-at-switch "seated's chord of seven modifiers and e ($second): switched to tty$visitor_vt ($(loginctl show-session "$visitor_session" -P Active 2>&1) active) at the first key; the keyboard sent: $(tr '\n' ';' <"$work/keys.txt"); pencild: $(journalctl -q -o cat -u pencild.service | grep 'let go' | tail -n 1)" \
        bash -c '[ "$1" = 0 ] && [ "$2" -ge 1 ] && [ "$2" -le 7 ] && [ "$(cat "$3")" = "$4" ] && ! grep -q "^18 1$" "$3"' _ "$released" "$downs" "$work/keys.txt" "$expected"
    stale=$(press_chord seated leftctrl z)
    : >"$work/keys.txt"
    fresh=$(press_chord visitor leftctrl z)
    wait_for 10 grep -q '^29 1$' "$work/keys.txt"
    check chord-old-user-refused "after the switch seated's chord: $stale; visitor's (positive control): $fresh, the keyboard sent: $(tr '\n' ';' <"$work/keys.txt")" \
        bash -c 'grep -q PermissionDenied <<<"$1" && [[ "$2" == *parameters* && "$2" != *error* ]] && grep -q "^29 1$" "$3"' _ "$stale" "$fresh" "$work/keys.txt"
    loginctl activate "$seated_session"
    kill "$reader_pid" 2>/dev/null
    wait "$reader_pid" 2>/dev/null
else
    fail chord-pressed "no session for visitor on tty2: $(loginctl list-sessions --no-legend | tr '\n' ';') getty: $(systemctl is-active getty@tty2.service)"
fi
rm -f /etc/systemd/system/pencild.service.d/chords.conf /etc/pencild-boot-chords.conf
systemctl daemon-reload
systemctl restart pencild.service

# --- 9. An upgrade in place: the package installed again over itself while it serves. --
as penuser pencilctl devices >/dev/null
before_pid=$(prop pencild.service MainPID)
t=$(date +%s)
dpkg -i "$files/pencild.deb" >"$work/upgrade.log" 2>&1
upgrade_status=$?
prefs=$(as penuser pencilctl prefs get --json 2>&1)
devices=$(as penuser pencilctl devices --json 2>&1)
check upgrade-in-place "$(($(date +%s) - t)) s; dpkg -i: exit $upgrade_status; socket $(systemctl is-active pencild.socket); pencild pid $before_pid before, $(prop pencild.service MainPID) after; the pen listed again: $(grep -c "\"$event\"" <<<"$devices"); penuser's doubleTapAction kept: $(grep -o '"doubleTapAction" *: *"[a-zA-Z]*"' <<<"$prefs")" \
    bash -c '[ "$1" = 0 ] && [ "$(systemctl is-active pencild.socket)" = active ] && grep -q "\"$2\"" <<<"$3" && grep -q "\"showColorPalette\"" <<<"$4"' _ "$upgrade_status" "$event" "$devices" "$prefs"

# --- 10. The journal: no seccomp or permission errors from pencild's whole run. ------------
errors=$(journal_since -u pencild.service -u pencild.socket | grep -iE 'seccomp|operation not permitted|permission denied|EPERM|EACCES|bad system call|core dump')
kernel=$(journal_since -k | grep -E 'audit.*type=1326|seccomp' | grep -i pencild)
check journal-clean "${errors:-no pencild errors}${kernel:+; kernel: $kernel}" test -z "$errors$kernel"

# --- 11. Removal and purge (the pen still plugged in). -----------------------------------
current_tags() { udevadm info -q property "$node" | sed -n 's/^CURRENT_TAGS=//p'; }
t=$(date +%s)
apt-get remove -y -q pencild >"$work/remove.log" 2>&1
check apt-remove "$(($(date +%s) - t)) s; socket $(systemctl is-active pencild.socket), service $(systemctl is-active pencild.service), /run/pencild/pencild.sock $(test -e /run/pencild/pencild.sock && echo left || echo gone), state kept: $(ls /var/lib/private/pencild 2>&1 | tr '\n' ' ')" \
    bash -c '[ "$(systemctl is-active pencild.socket)" != active ] && [ "$(systemctl is-active pencild.service)" != active ] && [ ! -e /run/pencild/pencild.sock ] && [ -d /var/lib/private/pencild ]'
udevadm trigger --action=change "$node"
udevadm settle --timeout=60
check udev-rule-removed "after remove and a change event, $node has CURRENT_TAGS=$(current_tags)" \
    bash -c '! grep -q :pencild: <<<"$1"' _ "$(current_tags)"
t=$(date +%s)
apt-get install -y -q "$files/pencild.deb" >"$work/install.log" 2>&1
install_status=$?
check apt-install "$(($(date +%s) - t)) s; apt-get install: exit $install_status; pencild.socket $(systemctl is-active pencild.socket) right after (started by postinst)" \
    test "$install_status/$(systemctl is-active pencild.socket)" = 0/active
udevadm settle --timeout=60
check udev-rule-reloaded "after installation (postinst reloads the rules and replays tablets), $node has CURRENT_TAGS=$(current_tags)" \
    bash -c 'grep -q :pencild: <<<"$1"' _ "$(current_tags)"
exec 3>&-
timeout 30 tail --pid="$pen_pid" -f /dev/null || fail pen "the virtual pen did not end: $(cat "$work/pen.log")"
t=$(date +%s)
apt-get purge -y -q pencild >"$work/purge.log" 2>&1
check apt-purge "$(($(date +%s) - t)) s; after purge: $(ls -d /var/lib/private/pencild /var/lib/pencild 2>&1 | tr '\n' ' ')" \
    bash -c '[ ! -e /var/lib/private/pencild ] && [ ! -e /var/lib/pencild ] && [ ! -e /lib/systemd/system/pencild.service ] && [ "$(systemctl is-active pencild.socket)" != active ] && [ "$(systemctl is-active pencild.service)" != active ]'

if [ "$failed" -gt 0 ]; then
    say "INFO pencild's journal:"
    journal_since -u pencild.service -u pencild.socket | tail -n 60 | sed 's/^/BOOT-TEST LOG /'
    for log in "$work"/*.log "$work"/*.err; do
        [ -s "$log" ] && tail -n 15 "$log" | sed "s|^|BOOT-TEST LOG $(basename "$log"): |"
    done
fi
say "DONE $passed passed, $failed failed, scenario took $(elapsed) s"
