#!/usr/bin/env bash
# run.sh [SUITE...]: `make test-desktop`. pencil-actions' per-app bindings on the desktops
# people draw on today, each SUITE (Debian's trixie, forky or sid; all three by default, in
# turn) in a fresh Debian of that suite (mmdebstrap) with this tree's packages installed by its
# own apt (the same build that installs on Debian 12). What runs where (a desktop or a Krita
# is proven once, in the suite where people install that version today):
#   trixie (Debian 13):   GNOME Shell 48 (GTK 4.18, Qt 6.8), Krita 5.2 through its Xwayland
#   forky (testing):      GNOME Shell 50 and KWin 6.7 (GTK 4.24, Qt 6.11, libinput 1.31),
#                         Krita 5.3 (PyQt5) through GNOME Shell 50's Xwayland (under KWin
#                         6.7 the test's hand, xdotool's XTEST, which its Xwayland passes to
#                         KWin through libei, reaches no window: no click to check there)
#   sid (unstable):       GNOME Shell 51, the extension and the apps, no Krita
# On each:
#   - GNOME Shell, headless with a virtual monitor and software rendering, the Shell
#     extension enabled as README says (`gnome-extensions enable ...`) in the running session;
#   - KWin 6 (`kwin_wayland --virtual`, with Xwayland), which loads pencil-actions' script
#     when pencil-actions starts, as on Plasma 6.
# On each desktop, as the person of the session: a session bus, pencild as the user's service
# runs it (its demo pen: a container has no pen), pencil-actions as the session starts it, and
# real GTK 4 apps (on KWin one of them an X11 app through Xwayland) focused in turn: KWin
# focuses a window as it opens; the headless Shell, with no pointer, takes the test's click
# (its Eval, in --unsafe-mode); closing the window in front gives the focus back to the one
# behind. For each app in front, `pencilctl actions` names it as pencil-actions learned it
# from the desktop's own provider, and `pencilctl try double-tap` makes pencil-actions perform
# that app's own binding (a command: a container has no /dev/uinput for keys), and no other.
# One app is a Qt 6 app (PyQt6, on Wayland). Each app then saves its window, showing what was
# performed for it. Then Krita with this build's plugin (krita-pencild) through that desktop's
# Xwayland: a double-tap toggles its eraser, a squeeze opens its pop-up palette under the
# pointer, a click outside closes it without painting.
# Each suite's logs and screenshots are kept in .build/desktop-logs/SUITE.
# Not here: the compositor reading the mirror and the pen's eraser (they need uinput, which
# this machine's kernel lacks, and a headless Shell reads no input device: vm.sh has them, with
# sway 1.10 in Debian 13, KWin 6.7 and GNOME Shell 50 in Debian testing, booted under qemu).
# A prerequisite that is missing fails under CI=true; elsewhere the tier is skipped.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
logs_root=${DESKTOP_TEST_LOGS:-$repo/.build/desktop-logs}

# Several suites (or none named: all three): each in a run of its own, one after the other;
# the packages are made once, by the first.
if [ "$#" -ne 1 ]; then
    [ "$#" -gt 0 ] || set -- trixie forky sid
    started=$SECONDS
    total_passed=0
    total_failed=0
    status=0
    report=()
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    for suite in "$@"; do
        t=$SECONDS
        suite_status=0
        bash "$0" "$suite" 2>&1 | tee "$out" || suite_status=$?
        [ "$suite_status" -eq 0 ] || status=1
        p=
        f=
        read -r p f < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$out" | tail -n 1) || true
        total_passed=$((total_passed + ${p:-0}))
        total_failed=$((total_failed + ${f:-0}))
        report+=("$suite: ${p:-?} passed, ${f:-?} failed, $((SECONDS - t)) s (status $suite_status)")
        export README_SKIP_BUILD=1
    done
    echo "test-desktop: per suite:"
    printf '  %s\n' "${report[@]}"
    echo "test-desktop: $total_passed passed, $total_failed failed in $((SECONDS - started)) s; the logs are in $logs_root"
    exit "$status"
fi
suite=$1
tier="test-desktop $suite"
# shellcheck source=tests/desktop-tier.sh
. "$here/../desktop-tier.sh"

# What runs where (the header above): the desktops, and those Krita runs through.
case $suite in
    trixie) desktops=(gnome) krita_desktops=(gnome) ;;
    forky) desktops=(gnome kde) krita_desktops=(gnome) ;;
    sid) desktops=(gnome) krita_desktops=() ;;
    *) echo "$tier: FAIL: unknown suite $suite (trixie, forky or sid)" >&2; exit 1 ;;
esac

begin_chroot_tier -- "$@"
started=$SECONDS
packages=()
ours=("pencild_${version}_$arch" "pencil-actions_${version}_$arch")
[ "${#krita_desktops[@]}" -eq 0 ] || ours+=("python3-pencild_${version}_all" "krita-pencild_${version}_all")
for package in "${ours[@]}"; do
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
logs=$logs_root/$suite

# 1. Debian of the suite from the archive apt already uses, with the desktops and the packages.
# testing's and unstable's Release files may be older than their Valid-Until.
sources=/etc/apt/sources.list.d/debian.sources
[ -r "$sources" ] || cannot_run "$sources (the archive to build the system from) is missing"
archive=$(sed -n 's/^URIs: *//p' "$sources" | head -n 1)
[ -n "$archive" ] || cannot_run "$sources names no archive (URIs:)"
echo "$tier: a fresh Debian $suite from $archive"
t=$SECONDS
mmdebstrap --variant=minbase --skip=cleanup/apt/lists --include=dbus,dbus-bin,procps \
    --aptopt='Acquire::Check-Valid-Until "false"' "$suite" "$root" \
    "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $archive $suite main" \
    >"$work/mmdebstrap.log" 2>&1 || { tail -n 30 "$work/mmdebstrap.log" >&2; echo "$tier: FAIL: mmdebstrap" >&2; exit 1; }
mmdebstrap_seconds=$((SECONDS - t))
echo "$tier: mmdebstrap built it in $mmdebstrap_seconds s"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# Thrown away after the run: dpkg need not sync each file it writes.
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/desktop-test-unsafe-io"
mkdir -p "$root/srv/debs"
for package in "${packages[@]}"; do cp "$repo/.build/deb/${package#/srv/debs/}" "$root/srv/debs/"; done
cp "$here/app.py" "$here/qt_app.py" "$here/palette_by_hand.py" "$root/srv/"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
# A sysfs of its own, with no cgroup file system on it: GNOME Shell asks libsystemd which user
# unit runs it (sd_pid_get_user_unit), and only "none" (not "no /sys") lets it start Xwayland
# without a systemd user manager, as a Shell started by hand does.
mount -t sysfs sysfs "$root/sys"
# The apps' toolkits and the desktops; Krita (Qt 5, with PyQt5 for its plugins) where it runs.
what="this build's pencild and pencil-actions"
desktop_packages=(xwayland python3-gi gir1.2-gtk-4.0 libglib2.0-bin python3-pyqt6 qt6-wayland)
if [[ " ${desktops[*]} " == *" gnome "* ]]; then
    desktop_packages+=(gnome-shell)
    what+=", GNOME Shell"
fi
if [[ " ${desktops[*]} " == *" kde "* ]]; then
    desktop_packages+=(kwin-wayland)
    what+=", KWin"
fi
if [ "${#krita_desktops[@]}" -gt 0 ]; then
    desktop_packages+=(krita python3-pyqt5 xdotool)
    what+=", this build's Krita plugin and Krita"
fi
t=$SECONDS
if chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}" \
        "${desktop_packages[@]}" >"$work/apt.log" 2>&1; then
    pass "Debian $suite's apt installs $what" "$((SECONDS - t)) s"
else
    tail -n 30 "$work/apt.log" >&2
    fail "Debian $suite's apt installs $what"
    summary
    exit 1
fi
echo "$tier: mmdebstrap $mmdebstrap_seconds s, apt $((SECONDS - t)) s"
# Those of the list that are installed (dpkg-query names the others on its errors).
versions=$(chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' gnome-shell mutter-common kwin-wayland xwayland libgtk-4-1 libqt6core6t64 \
    krita python3-pyqt5 libinput10 pencild 2>/dev/null | awk 'NF == 2' | tr '\n' ',' || true)
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

# krita_on DESKTOP [FOCUS]: Krita with the plugin (the krita-pencild package, enabled as ticking
# it in the Python Plugin Manager does) through Xwayland, in front (FOCUS krita gives it the
# focus where the desktop does not give it to a new window): a double-tap toggles its eraser,
# a squeeze opens its pop-up palette under the pen, a click outside closes it without
# painting, and the same click with the palette closed paints (the control). The plugin's
# state comes from its test hook (integrations/krita/pencild_krita/testhook.py).
krita_state() { python3 "$repo/tests/krita/state.py" "$root/srv/krita/state.json" "$1"; }  # EXPRESSION holds
krita_value() { python3 "$repo/tests/krita/state.py" --value "$root/srv/krita/state.json" "$1"; }
krita_look() { # the hook adds the image's digest, and counts the look
    local seen
    seen=$(krita_value 's["looks"]') || return 1
    touch "$root/srv/krita/state.json.look"
    wait_for 30 krita_state "s['looks'] > $seen"
}
krita_shot() { # DESKTOP NAME: Krita's window as Qt draws it, as DESKTOP-krita-NAME.png among the screenshots
    local seen
    seen=$(krita_value 's["shots"]') || return 1
    touch "$root/srv/krita/state.json.shot"
    if wait_for 30 krita_state "s['shots'] > $seen"; then
        cp "$root/srv/krita/state.json.png" "$work/$1-krita-$2.png"
        pass "$1: Krita saves its window ($2)" "$(stat -c %s "$work/$1-krita-$2.png") bytes"
    else
        fail "$1: Krita saves its window ($2)"
    fi
}
krita_on() {
    local desktop=$1 focus=${2:-} krita_short step=$SECONDS
    # Its version as people say it: 5.2, 5.3.
    krita_short=$(chroot "$root" dpkg-query -W -f '${Version}' krita | sed 's/^[0-9]*://; s/^\([0-9]*\.[0-9]*\).*/\1/')
    # A fresh folder for the hook: a quit or look file left by the Krita before would be taken
    # by this one (the hook acts on its folder's changes).
    rm -rf "$root/srv/krita"
    install -d -o 1000 -g 1000 "$root/srv/krita"
    printf '[python]\nenable_pencild_krita=true\n' >"$root/home/person/.config/kritarc"
    chroot "$root" chown person:person /home/person/.config/kritarc
    spawn "$work/krita-$desktop.log" 'exec env PENCILD_KRITA_TEST_STATE=/srv/krita/state.json QT_QPA_PLATFORM=xcb krita --nosplash --new-image RGBA,U8,800,600'
    local krita=$spawned
    canvas() { krita_look && krita_state '"canvasRect" in s and s["focusClaimed"] is True'; }
    if wait_for 300 krita_state 's.get("ready")' && { [ -z "$focus" ] || "$focus" krita; } && wait_for 120 canvas; then
        pass "$desktop: Krita $(chroot "$root" dpkg-query -W -f '${Version}' krita) opens an image through Xwayland; the plugin claims the focus" \
            "$(krita_value 's["connection"], s["socket"]')"
    else
        fail "$desktop: Krita opens an image through Xwayland; the plugin claims the focus" \
            "$(tail -n 20 "$work/krita-$desktop.log"; cat "$root/srv/krita/state.json" 2>/dev/null | head -c 2000)"
        close_app "$krita"
        return
    fi
    # Krita as large as the screen, as a person draws in it; the pointer on the canvas, as the
    # hand holding the pen over it.
    as_person "xdotool search --sync --onlyvisible --class '^krita\$' windowmove %@ 0 0 windowsize %@ 1280 800" \
        >"$work/krita-window.txt" 2>&1 || true
    wait_for 30 krita_look
    local x y
    read -r x y <<<"$(krita_value 's["canvasRect"][0] + s["canvasRect"][2] // 2, s["canvasRect"][1] + s["canvasRect"][3] // 2' | tr -d '(),')"
    as_person "xdotool mousemove $x $y"
    local before
    before=$(counts)
    as_person 'pencilctl try double-tap' >"$work/try.txt" 2>&1 || fail "$desktop: pencilctl try double-tap at Krita" "$(cat "$work/try.txt")"
    if wait_for 30 krita_state 'len(g) >= 1 and g[0]["type"] == "doubleTap" and g[0]["focus"] == "this" and g[0]["acted"] and g[0]["eraser"]'; then
        pass "$desktop: a double-tap in Krita $krita_short turns its eraser mode on (focus this)" "$(krita_value 's["gestures"][0]["result"]')"
    else
        fail "$desktop: a double-tap in Krita $krita_short turns its eraser mode on (focus this)" "$(krita_value 's["gestures"]' 2>&1 | head -c 1500)"
    fi
    check "$desktop: pencil-actions leaves Krita's double-tap to Krita" test "$(counts)" = "$before"
    as_person 'pencilctl try double-tap' >"$work/try.txt" 2>&1 || fail "$desktop: pencilctl try double-tap at Krita" "$(cat "$work/try.txt")"
    check "$desktop: the next double-tap turns it off" \
        wait_for 30 krita_state 'len(g) >= 2 and g[1]["type"] == "doubleTap" and g[1]["acted"] and not g[1]["eraser"]'
    local actions_log=$work/pencil-actions-$desktop.log mark
    mark=$(wc -l <"$actions_log")
    as_person 'pencilctl try squeeze' >"$work/try.txt" 2>&1 || fail "$desktop: pencilctl try squeeze at Krita" "$(cat "$work/try.txt")"
    if wait_for 30 krita_state 'len(g) >= 3 and g[2]["type"] == "squeeze" and g[2]["acted"] and g[2]["popupPalette"]'; then
        pass "$desktop: a squeeze in Krita $krita_short opens its pop-up palette" "$(krita_value 's["gestures"][2]["result"], s["gestures"][2]["paletteWay"]')"
        krita_shot "$desktop" palette
    else
        fail "$desktop: a squeeze in Krita $krita_short opens its pop-up palette" "$(krita_value 's["gestures"]' 2>&1 | head -c 1500)"
    fi
    # The system palette's control (docs/gestures.md, "Which app acts: the system palette"):
    # the plugin holds the pen's focus, so pencil-actions, with the squeeze's palette unbound,
    # stands aside and opens none; the same squeeze once Krita has gone opens it (below).
    since() { tail -n +"$(($1 + 1))" "$actions_log"; }
    aside() { since "$mark" | grep -q 'squeeze showContextualPalette: focus is other: that app acts'; }
    if wait_for 30 aside && ! since "$mark" | grep -q 'the system palette'; then
        pass "$desktop: with Krita's plugin holding the pen's focus, pencil-actions opens no system palette" "$(since "$mark" | grep 'squeeze' | head -n 1)"
    else
        fail "$desktop: with Krita's plugin holding the pen's focus, pencil-actions opens no system palette" "$(since "$mark" | tail -n 5)"
    fi
    krita_look
    # A point beside the palette, 20 pixels out, on the canvas: near the canvas's middle, where
    # the image is (the canvas's corners lie outside the image when the window is wider than it).
    read -r x y <<<"$(krita_value '[(x, y) for c, p in [(s["canvasRect"], s["paletteRect"])] for x, y in [(p[0] - 20, p[1] + p[3] // 2), (p[0] + p[2] + 20, p[1] + p[3] // 2), (p[0] + p[2] // 2, p[1] - 20), (p[0] + p[2] // 2, p[1] + p[3] + 20)] if c[0] <= x < c[0] + c[2] and c[1] <= y < c[1] + c[3]][0]' | tr -d '(),')"
    if ! krita_state 'inside(s["canvasRect"], '"$x, $y"') and not inside(s["paletteRect"], '"$x, $y"')'; then
        fail "$desktop: the point to click is on Krita's canvas, outside the palette" "$x $y; $(krita_value 's["canvasRect"], s["paletteRect"]')"
    fi
    local image
    image=$(krita_value 's["imageHash"]')
    as_person "xdotool mousemove $x $y click 1"
    closed() { krita_look && krita_state 'not s["popupPalette"]'; }
    if wait_for 30 closed; then
        pass "$desktop: a click outside Krita's palette closes it"
        check "$desktop: and paints nothing: the image is as it was" krita_state 's["imageHash"] == "'"$image"'"'
        as_person "xdotool click 1"
        painted() { krita_look && krita_state 's["imageHash"] != "'"$image"'"'; }
        check "$desktop: the control: the same click with the palette closed paints on the canvas" wait_for 30 painted
    else
        fail "$desktop: a click outside Krita's palette closes it" "$(krita_value 's["popupPalette"], s.get("paletteRect")')"
    fi
    touch "$root/srv/krita/state.json.quit"
    krita_ended() { ! kill -0 "$krita" 2>/dev/null; }
    wait_for 30 krita_ended || true
    close_app "$krita"
    # The control: with no app holding the pen's focus the same squeeze opens the system
    # palette (it closes when pencil-actions stops, with the desktop).
    mark=$(wc -l <"$actions_log")
    opened() { since "$mark" | grep -q 'squeeze showContextualPalette: the system palette is on screen'; }
    as_person 'pencilctl try squeeze' >"$work/try.txt" 2>&1 || fail "$desktop: pencilctl try squeeze, Krita gone" "$(cat "$work/try.txt")"
    if wait_for 60 opened; then
        pass "$desktop: the control: once Krita has gone, the same squeeze opens the system palette" "$(since "$mark" | grep -m 1 'on screen')"
    else
        fail "$desktop: the control: once Krita has gone, the same squeeze opens the system palette" "$(since "$mark" | tail -n 5)"
    fi
    echo "$tier: Krita on $desktop took $((SECONDS - step)) s"
}

# 2. GNOME Shell (48 on trixie, 50 on forky, 51 on sid).
if [[ " ${desktops[*]} " == *" gnome "* ]]; then
    echo "$tier: GNOME Shell"
    step=$SECONDS
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
        # The system palette, drawn by this Shell through the extension: pencil-palette on its
        # own shows it, with its items placed, and closes it when told (the desktop VM taps it
        # with a pen).
        if as_person 'timeout 120 python3 /srv/palette_by_hand.py gnome-shell' >"$work/palette.txt" 2>&1; then
            pass "gnome: the system palette, drawn by the Shell: pencil-palette shows it, its items placed, and closes it when told" \
                "$(head -n 1 "$work/palette.txt" | cut -c1-200)"
        else
            fail "gnome: the system palette, drawn by the Shell: pencil-palette shows it, its items placed, and closes it when told" \
                "$(cut -c1-400 "$work/palette.txt")"
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
        # The Shell's Xwayland, as its X11 apps find it: the display and its key, which the Shell
        # gives the programs it starts.
        x11=$(shell_eval 'GLib.getenv("DISPLAY") + " " + GLib.getenv("XAUTHORITY")' | sed -n "s/^(true, '\"\(.*\)\"')\$/\1/p")
        display=${x11%% *}
        if [ -n "$x11" ] && [ -S "$root/tmp/.X11-unix/X${display#:}" ]; then
            pass "GNOME Shell runs Xwayland" "DISPLAY=$display"
            session_env+=("DISPLAY=$display" "XAUTHORITY=${x11#* }")
            [[ " ${krita_desktops[*]} " != *" gnome "* ]] || krita_on gnome click
        else
            fail "GNOME Shell runs Xwayland" "${x11:-no DISPLAY}; $(grep -i 'x11\|xwayland' "$work/gnome-shell.log" | tail -n 5)"
        fi
    else
        fail "GNOME Shell runs headless" "$(tail -n 30 "$work/gnome-shell.log")"
    fi
    stop_started
    pids=()
    echo "$tier: GNOME Shell took $((SECONDS - step)) s"
fi

# 3. KWin 6 (6.7 on forky), with Xwayland: KWin starts the session's program with
# WAYLAND_DISPLAY and DISPLAY set, as Plasma's startup does; it tells them to the test and waits.
if [[ " ${desktops[*]} " == *" kde "* ]]; then
    step=$SECONDS
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
        [[ " ${krita_desktops[*]} " != *" kde "* ]] || krita_on kde
    else
        fail "KWin runs with a virtual output and Xwayland" "$(tail -n 30 "$work/kwin.log")"
    fi
    echo "$tier: KWin took $((SECONDS - step)) s"
fi

echo "$tier: took $((SECONDS - started)) s; the logs are in $logs"
summary
