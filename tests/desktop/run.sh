#!/usr/bin/env bash
# run.sh: `make test-desktop`. pencil-actions' per-app bindings on the desktops people draw
# on today, in a fresh Debian 13 (trixie, mmdebstrap) with this tree's packages installed by
# its own apt (the same build that installs on Debian 12):
#   - GNOME Shell 48, headless with a virtual monitor and software rendering, the Shell
#     extension enabled as README says (`gnome-extensions enable ...`) in the running session;
#   - KWin 6 (`kwin_wayland --virtual`, with Xwayland), which loads pencil-actions' script
#     when pencil-actions starts, as on Plasma 6.
# On each, as the person of the session: a session bus, pencild as the user's service runs it
# (its demo pen: a container has no pen), pencil-actions as the session starts it, and real
# GTK 4 apps (on KWin one of them an X11 app through Xwayland) focused in turn: KWin focuses a
# window as it opens; the headless Shell, with no pointer, takes the test's click (its Eval, in
# --unsafe-mode); closing the window in front gives the focus back to the one behind. For
# each app in front, `pencilctl actions` names it as pencil-actions learned it from the
# desktop's own provider, and `pencilctl try double-tap` makes pencil-actions perform that
# app's own binding (a command: a container has no /dev/uinput for keys), and no other. One
# app is a Qt 6 app (PyQt6, on Wayland). Each app then saves its window, showing what was
# performed for it: the screenshots are kept with the logs.
# Not here: the compositor reading the mirror and the pen's eraser (they need uinput, which
# this machine's kernel lacks; the kernel tier has them on Debian 12's libinput).
# A prerequisite that is missing fails under CI=true; elsewhere the tier is skipped.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tier=test-desktop
# shellcheck source=tests/desktop-tier.sh
. "$here/../desktop-tier.sh"

begin_chroot_tier -- "$@"
started=$SECONDS
packages=()
for package in "pencild_${version}_$arch" "pencil-actions_${version}_$arch"; do
    [ -f "$repo/.build/deb/$package.deb" ] || { echo "$tier: FAIL: .build/deb/$package.deb is not built (make deb)" >&2; exit 1; }
    packages+=("/srv/debs/$package.deb")
done

begin_scratch
trap 'keep_logs; end_chroot_tier' EXIT
# The logs of the run, kept for a person to read.
keep_logs() {
    rm -rf "$logs"
    mkdir -p "$logs/screenshots"
    cp "$work"/*.log "$logs/" 2>/dev/null || true
    cp "$work"/*.png "$logs/screenshots/" 2>/dev/null || true
}
root=$work/root
logs=${DESKTOP_TEST_LOGS:-$repo/.build/desktop-logs}

# 1. Debian 13 from the archive apt already uses, with the desktops and the packages.
sources=/etc/apt/sources.list.d/debian.sources
[ -r "$sources" ] || cannot "$sources (the archive to build the system from) is missing"
archive=$(sed -n 's/^URIs: *//p' "$sources" | head -n 1)
[ -n "$archive" ] || cannot "$sources names no archive (URIs:)"
echo "$tier: a fresh Debian trixie from $archive"
t=$SECONDS
mmdebstrap --variant=minbase --skip=cleanup/apt/lists --include=dbus,dbus-bin,procps trixie "$root" "deb $archive trixie main" \
    >"$work/mmdebstrap.log" 2>&1 || { tail -n 30 "$work/mmdebstrap.log" >&2; echo "$tier: FAIL: mmdebstrap" >&2; exit 1; }
echo "$tier: built in $((SECONDS - t)) s"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# Thrown away after the run: dpkg need not sync each file it writes.
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/desktop-test-unsafe-io"
mkdir -p "$root/srv/debs"
cp "$repo/.build/deb/pencild_${version}_$arch.deb" "$repo/.build/deb/pencil-actions_${version}_$arch.deb" "$root/srv/debs/"
cp "$here/app.py" "$here/qt_app.py" "$root/srv/"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
t=$SECONDS
if chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}" \
        gnome-shell kwin-wayland xwayland python3-gi gir1.2-gtk-4.0 libglib2.0-bin python3-pyqt6 qt6-wayland \
        >"$work/apt.log" 2>&1; then
    pass "Debian 13's apt installs this build's pencild and pencil-actions, GNOME Shell and KWin" "$((SECONDS - t)) s"
else
    tail -n 30 "$work/apt.log" >&2
    fail "Debian 13's apt installs this build's pencild and pencil-actions, GNOME Shell and KWin"
    summary
    exit 1
fi
versions=$(chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' gnome-shell kwin-wayland xwayland libgtk-4-1 libqt6core6t64 libinput10 pencild |
    tr '\n' ',')
echo "$tier: ${versions%,}"
check "pencild runs there" chroot "$root" pencild --version
# Where the person's programs tell the test what they did (after the install: systemd's
# tmpfiles set /srv to 0755 as systemd is installed).
chmod 1777 "$root/srv"
chroot "$root" useradd --create-home --uid 1000 --shell /bin/bash person
# A fresh /run, as a booted system has (the packages' scripts left systemd's folders in it,
# which would make GNOME Shell take logind for running).
mount -t tmpfs -o mode=0755 tmpfs "$root/run"
install -d -m 0700 -o 1000 -g 1000 "$root/run/user/1000"
# The X server's socket folder, as the system's tmpfiles make it.
install -d -m 1777 "$root/tmp/.X11-unix"
mkdir -p "$root/run/dbus"
chroot "$root" dbus-daemon --system --fork
# The person's bindings: each app's own, and one for every other app.
mkdir -p "$root/home/person/.config/pencild"
cat >"$root/home/person/.config/pencild/actions.conf" <<'EOF'
[switchEraser @org.pencild.DesktopTestA]
command = sh -c 'echo "$PENCIL_ACTION" >>"$HOME/performed-A"'

[switchEraser @org.pencild.DesktopTestB]
command = sh -c 'echo "$PENCIL_ACTION" >>"$HOME/performed-B"'

[switchEraser @org.pencild.DesktopTestQt]
command = sh -c 'echo "$PENCIL_ACTION" >>"$HOME/performed-Qt"'

[switchEraser]
command = sh -c 'echo "$PENCIL_ACTION" >>"$HOME/performed-other"'
EOF
chroot "$root" chown -R person:person /home/person

# as_person COMMAND: COMMAND run by bash as the person, with the session's environment
# ($session_env: the bus, the desktop, the display).
session_env=()
person_command() {
    person=(chroot --userspec=1000:1000 "$root" env -i HOME=/home/person USER=person LOGNAME=person SHELL=/bin/bash
        PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 XDG_RUNTIME_DIR=/run/user/1000 "${session_env[@]}"
        bash -c 'cd && eval "$1"' as_person)
}
as_person() { person_command; "${person[@]}" "$1"; }

# spawn LOG COMMAND: COMMAND ("exec PROGRAM ...") started as the person in the background,
# its output in LOG; every step execs the next, so that $spawned, added to $pids, is the
# program's own pid.
spawn() {
    person_command
    ( exec "${person[@]}" "$2" ) >"$1" 2>&1 &
    spawned=$!
    pids+=("$spawned")
}

# start_session DESKTOP: a session bus of its own, and the desktop's name, as a login sets them.
start_session() {
    rm -f "$root/run/user/1000/bus"
    session_env=(DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus "XDG_CURRENT_DESKTOP=$1" XDG_SESSION_TYPE=wayland)
    spawn "$work/dbus-$1.log" 'exec dbus-daemon --session --nofork --address="unix:path=$XDG_RUNTIME_DIR/bus"'
    wait_for 30 test -S "$root/run/user/1000/bus"
}

# start_services: pencild as the user's service runs it, then pencil-actions, as the session
# starts them (pencil-actions.service), with a clean slate of performed actions.
start_services() {
    rm -f "$root/home/person/performed-"*
    spawn "$work/pencild-$1.log" 'exec pencild --demo --socket "$XDG_RUNTIME_DIR/pencild.sock" --no-udev'
    answers() { as_person 'pencilctl devices' 2>/dev/null | grep -q demo; }
    wait_for 30 answers || fail "pencild answers on $1" "$(tail -n 20 "$work/pencild-$1.log")"
    spawn "$work/pencil-actions-$1.log" 'exec pencil-actions --verbose'
}

# open_app DESKTOP ID PROGRAM [ENV...]: the window of PROGRAM (app.py, qt_app.py) as app ID,
# shown; its pid in $app_pid.
open_app() {
    local desktop=$1 id=$2 program=$3
    shift 3
    rm -f "$root/srv/shown-$id"*
    spawn "$work/app-$desktop-$id.log" "exec env GSK_RENDERER=cairo $* python3 /srv/$program $id /srv/shown-$id"
    app_pid=$spawned
    wait_for 60 test -s "$root/srv/shown-$id" || fail "$desktop: $id shows its window" "$(tail -n 20 "$work/app-$desktop-$id.log")"
}

close_app() {
    kill -TERM "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

performed() { [ -f "$root/home/person/performed-$1" ] && wc -l <"$root/home/person/performed-$1" || echo 0; }
counts() { echo "$(performed A) $(performed B) $(performed Qt) $(performed other)"; }

# shoot DESKTOP ID PID: app ID (process PID) shows what was performed for it and saves its
# window, as DESKTOP-ID.png among the screenshots.
shoot() {
    local desktop=$1 id=$2 pid=$3 letter=${2#org.pencild.DesktopTest}
    rm -f "$root/srv/shown-$id.png" "$root/srv/shown-$id.png.done"
    printf 'on %s, in front: a double-tap performed switchEraser here %s time(s)\n' "$desktop" "$(performed "$letter")" \
        >"$root/srv/shown-$id.note"
    kill -USR1 "$pid"
    if wait_for 30 test -s "$root/srv/shown-$id.png.done" && head -c 8 "$root/srv/shown-$id.png" | grep -q PNG; then
        cp "$root/srv/shown-$id.png" "$work/$desktop-$id.png"
        pass "$desktop: $id saves its window" "$(cat "$root/srv/shown-$id.png.done"), $(stat -c %s "$work/$desktop-$id.png") bytes"
    else
        fail "$desktop: $id saves its window" "$(tail -n 5 "$work/app-$desktop-$id.log")"
    fi
}

# in_front DESKTOP APP PATTERN COUNTS: with APP in front, pencil-actions names it as the
# desktop reported it (PATTERN: the app id as that desktop spells it), and a double-tap
# performs APP's own binding: afterwards the performed counts of A, B and the rest are COUNTS.
in_front() {
    local desktop=$1 app=$2 pattern=$3 counts=$4
    said_in_front() { as_person 'pencilctl actions' >"$work/actions.txt" 2>&1 && grep -qi "^focused app: \"$pattern\" ($desktop" "$work/actions.txt"; }
    if wait_for 30 said_in_front; then
        pass "$desktop: with $app in front, pencilctl actions names it" "$(grep '^focused app' "$work/actions.txt")"
    else
        fail "$desktop: with $app in front, pencilctl actions names it" "$(cat "$work/actions.txt"; tail -n 5 "$work/pencil-actions-$desktop.log")"
        return
    fi
    as_person 'pencilctl try double-tap' >"$work/try.txt" 2>&1 || fail "$desktop: pencilctl try double-tap" "$(cat "$work/try.txt")"
    counted() { [ "$(counts)" = "$counts" ]; }
    if wait_for 30 counted; then
        pass "$desktop: a double-tap with $app in front performs $app's own binding" "A, B, Qt, other: $counts"
    else
        fail "$desktop: a double-tap with $app in front performs $app's own binding" \
            "A, B, Qt, other: $(counts), not $counts; $(tail -n 5 "$work/pencil-actions-$desktop.log")"
    fi
}

# 2. GNOME Shell 48.
echo "$tier: GNOME Shell"
start_session GNOME
# --unsafe-mode lets the test's hand reach windows (Eval): a headless Shell has no pointer to
# click a window with, and it does not focus a window that opens without one.
spawn "$work/gnome-shell.log" 'exec gnome-shell --headless --wayland --unsafe-mode --virtual-monitor 1280x800'
# click ID: the window of app ID activated, as a person's click on it does; again until the
# Shell says it has the focus (a window that has just opened may not take it yet).
shell_eval() {
    as_person "gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell -m org.gnome.Shell.Eval '$1'" 2>&1
}
click() {
    local window="global.get_window_actors().map(a => a.meta_window).find(w => w.get_wm_class() === \"$1\")"
    focused() {
        shell_eval "$window.activate(global.display.get_current_time_roundtrip())" >"$work/click.txt"
        shell_eval "global.display.focus_window === $window" >>"$work/click.txt"
        grep -q "^(true, 'true')" "$work/click.txt"
    }
    wait_for 30 focused || fail "gnome: a click on $1 gives it the focus" "$(cat "$work/click.txt")"
}
shell_answers() {
    as_person 'gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell -m org.freedesktop.DBus.Properties.Get org.gnome.Shell ShellVersion' \
        >"$work/shell-version.txt" 2>/dev/null
}
if wait_for 120 shell_answers; then
    pass "GNOME Shell runs headless" "$(tr -d "()<>,'" <"$work/shell-version.txt")"
    # What a desktop session does at login (gnome-session): the session's environment
    # reaches what the bus starts.
    as_person 'dbus-update-activation-environment --all' || true
    command=$(python3 "$repo/tests/readme/commands.py" "$repo/README.md" "On GNOME" "gnome-extensions enable" | head -n 1)
    [ -n "$command" ] || fail "README's GNOME section gives the gnome-extensions enable command"
    if as_person "WAYLAND_DISPLAY=wayland-0 $command" >"$work/enable.log" 2>&1; then
        pass "README's \"$command\" enables the extension in the running Shell"
    else
        fail "README's \"$command\" enables the extension in the running Shell" "$(cat "$work/enable.log")"
    fi
    session_env+=(WAYLAND_DISPLAY=wayland-0)
    start_services gnome
    # The extension's first word: no window has the focus yet.
    said_none() { as_person 'pencilctl actions' >"$work/actions.txt" 2>&1 && grep -q '^focused app: none (gnome says' "$work/actions.txt"; }
    if wait_for 30 said_none; then
        pass "gnome: pencil-actions hears the extension" "$(grep '^focused app' "$work/actions.txt")"
    else
        fail "gnome: pencil-actions hears the extension" "$(grep '^focused app' "$work/actions.txt"; tail -n 5 "$work/pencil-actions-gnome.log")"
    fi
    open_app gnome org.pencild.DesktopTestA app.py
    first=$app_pid
    click org.pencild.DesktopTestA
    in_front gnome "app A" org.pencild.DesktopTestA "1 0 0 0"
    shoot gnome org.pencild.DesktopTestA "$first"
    # The whole screen too, as the Shell draws it (its Screenshot call, open in --unsafe-mode).
    rm -f "$root/srv/screen-gnome.png"
    as_person "gdbus call --session -d org.gnome.Shell.Screenshot -o /org/gnome/Shell/Screenshot -m org.gnome.Shell.Screenshot.Screenshot false false /srv/screen-gnome.png" \
        >"$work/screen.txt" 2>&1 || true
    if grep -q "^(true," "$work/screen.txt" && head -c 8 "$root/srv/screen-gnome.png" 2>/dev/null | grep -q PNG; then
        cp "$root/srv/screen-gnome.png" "$work/gnome-screen.png"
        pass "gnome: the Shell's screenshot of the screen, app A in front" "$(stat -c %s "$work/gnome-screen.png") bytes"
    else
        fail "gnome: the Shell's screenshot of the screen, app A in front" "$(cat "$work/screen.txt")"
    fi
    open_app gnome org.pencild.DesktopTestB app.py
    second=$app_pid
    click org.pencild.DesktopTestB
    in_front gnome "app B" org.pencild.DesktopTestB "1 1 0 0"
    shoot gnome org.pencild.DesktopTestB "$second"
    open_app gnome org.pencild.DesktopTestQt qt_app.py QT_QPA_PLATFORM=wayland
    click org.pencild.DesktopTestQt
    in_front gnome "the Qt app" org.pencild.DesktopTestQt "1 1 1 0"
    shoot gnome org.pencild.DesktopTestQt "$app_pid"
    close_app "$app_pid"
    in_front gnome "app B again (the Qt app closed)" org.pencild.DesktopTestB "1 2 1 0"
    close_app "$second"
    in_front gnome "app A again (B closed)" org.pencild.DesktopTestA "2 2 1 0"
    close_app "$first"
else
    fail "GNOME Shell runs headless" "$(tail -n 30 "$work/gnome-shell.log")"
fi
stop_started
pids=()

# 3. KWin 6, with Xwayland: KWin starts the session's program with WAYLAND_DISPLAY and
# DISPLAY set, as Plasma's startup does; it tells them to the test and waits.
echo "$tier: KWin"
start_session KDE
cat >"$root/srv/kwin-session.sh" <<'EOF'
#!/bin/sh
env | grep -E '^(WAYLAND_DISPLAY|DISPLAY)=' >/srv/kwin-session.env.part
mv /srv/kwin-session.env.part /srv/kwin-session.env
exec sleep infinity
EOF
chmod 0755 "$root/srv/kwin-session.sh"
spawn "$work/kwin.log" 'exec kwin_wayland --virtual --width 1280 --height 800 --xwayland --exit-with-session /srv/kwin-session.sh'
kwin_ready() { grep -q '^DISPLAY=' "$root/srv/kwin-session.env" 2>/dev/null && grep -q '^WAYLAND_DISPLAY=' "$root/srv/kwin-session.env"; }
if wait_for 120 kwin_ready; then
    pass "KWin runs with a virtual output and Xwayland" "$(tr '\n' ' ' <"$root/srv/kwin-session.env")"
    while IFS= read -r line; do session_env+=("$line"); done <"$root/srv/kwin-session.env"
    start_services kde
    loaded() { grep -q "KWin runs" "$work/pencil-actions-kde.log"; }
    check "pencil-actions loads its script into KWin" wait_for 30 loaded
    open_app kde org.pencild.DesktopTestA app.py
    first=$app_pid
    in_front kde "app A" org.pencild.DesktopTestA "1 0 0 0"
    shoot kde org.pencild.DesktopTestA "$first"
    # An X11 app through Xwayland: KWin knows it by its WM_CLASS class.
    open_app kde org.pencild.DesktopTestB app.py GDK_BACKEND=x11
    second=$app_pid
    in_front kde "app B, an X11 window" org.pencild.DesktopTestB "1 1 0 0"
    shoot kde org.pencild.DesktopTestB "$second"
    open_app kde org.pencild.DesktopTestQt qt_app.py QT_QPA_PLATFORM=wayland
    in_front kde "the Qt app" org.pencild.DesktopTestQt "1 1 1 0"
    shoot kde org.pencild.DesktopTestQt "$app_pid"
    close_app "$app_pid"
    in_front kde "app B again (the Qt app closed)" org.pencild.DesktopTestB "1 2 1 0"
    close_app "$second"
    in_front kde "app A again (B closed)" org.pencild.DesktopTestA "2 2 1 0"
    close_app "$first"
else
    fail "KWin runs with a virtual output and Xwayland" "$(tail -n 30 "$work/kwin.log")"
fi

echo "$tier: took $((SECONDS - started)) s; the logs are in $logs"
summary
