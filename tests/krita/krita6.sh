#!/usr/bin/env bash
# krita6.sh: `make test-krita6`. The Krita plugin in Krita 6 (Qt 6: its Python plugins run on
# PyQt6, and it refuses any that imports PyQt5), as Debian experimental has it, in a fresh
# Debian unstable (sid, mmdebstrap) with this build's pencild, python3-pencild and
# krita-pencild installed by its own apt (the same build that installs on Debian 12), and no
# python3-pyqt5:
#   1. the plugin's parts that need no Krita (test_plugin.py) on that Python and its PyQt6:
#      the binding picked, the link to pencild in a Qt 6 loop, a pen's event for Qt 6;
#   2. Krita 6 on an X display of its own (Xvfb), as a person of that system, pencild's demo
#      pen as the user's pencild runs it: the plugin loads, with no traceback in Krita's log
#      (the control: a plugin that imports PyQt5 is refused there, and its traceback is in
#      that log); its docker shows, connected, with the demo pen;
#   3. `pencilctl try double-tap` toggles Krita's eraser mode (on, then off), `pencilctl try
#      squeeze` opens Krita's pop-up palette (pencild withholds gesture clicks by default), a
#      click outside it closes it and paints nothing (the control: the same click with the
#      palette closed paints).
# Krita's state comes from the plugin's test hook (integrations/krita/pencild_krita/testhook.py);
# Krita's log and the screenshots are kept in $KRITA6_TEST_LOGS (.build/krita6-logs). Each
# step says how long it took. A prerequisite that is missing fails under CI=true; elsewhere
# the tier is skipped.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tier=test-krita6
# shellcheck source=tests/desktop-tier.sh
. "$here/../desktop-tier.sh"

begin_chroot_tier Xvfb xdotool import python3 -- "$@"
started=$SECONDS
step=$SECONDS
took() { echo "$tier: $1: $((SECONDS - step)) s"; step=$SECONDS; }
packages=()
for package in "pencild_${version}_$arch" "python3-pencild_${version}_all" "krita-pencild_${version}_all"; do
    [ -f "$repo/.build/deb/$package.deb" ] || { echo "$tier: FAIL: .build/deb/$package.deb is not built (make deb)" >&2; exit 1; }
    packages+=("/srv/debs/$package.deb")
done

begin_scratch
trap 'keep_logs; end_chroot_tier' EXIT
logs=${KRITA6_TEST_LOGS:-$repo/.build/krita6-logs}
keep_logs() {
    rm -rf "$logs"
    mkdir -p "$logs"
    cp "$work"/*.log "$work"/*.png "$logs/" 2>/dev/null || true
}
root=$work/root

# 1. Debian unstable, with experimental's Krita 6 and the packages.
sources=/etc/apt/sources.list.d/debian.sources
[ -r "$sources" ] || cannot_run "$sources (the archive to build the system from) is missing"
archive=$(sed -n 's/^URIs: *//p' "$sources" | head -n 1)
[ -n "$archive" ] || cannot_run "$sources names no archive (URIs:)"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || cannot_run "$keyring is missing (apt-get install debian-archive-keyring)"
echo "$tier: a fresh Debian sid with experimental from $archive"
# The archive is a snapshot: its Release files for sid and experimental are past their date.
mmdebstrap --variant=minbase --skip=cleanup/apt/lists --aptopt='Acquire::Check-Valid-Until "false"' \
    --include=python3-pyqt6,qt6-svg-plugins sid "$root" \
    "deb [signed-by=$keyring] $archive sid main" "deb [signed-by=$keyring] $archive experimental main" \
    >"$work/mmdebstrap.log" 2>&1 || { tail -n 30 "$work/mmdebstrap.log" >&2; echo "$tier: FAIL: mmdebstrap" >&2; exit 1; }
took "mmdebstrap"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# Thrown away after the run: dpkg need not sync each file it writes.
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/krita6-test-unsafe-io"
mkdir -p "$root/srv/debs"
for package in "${packages[@]}"; do cp "$repo/.build/deb/${package#/srv/debs/}" "$root/srv/debs/"; done
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
# krita/experimental: Krita 6 and what it needs from experimental, the rest from sid.
if chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        krita/experimental "${packages[@]}" >"$work/apt.log" 2>&1; then
    pass "sid's apt installs Krita from experimental and this build's pencild, python3-pencild and krita-pencild"
else
    tail -n 30 "$work/apt.log" >&2
    fail "sid's apt installs Krita from experimental and this build's pencild, python3-pencild and krita-pencild"
    summary
    exit 1
fi
took "apt-get install"
versions=$(chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' krita python3-pyqt6 libqt6core6t64 python3 krita-pencild | tr '\n' ',')
echo "$tier: ${versions%,}"
krita_version=$(chroot "$root" dpkg-query -W -f '${Version}' krita)
check "the Krita installed is Krita 6" test "$(echo "$krita_version" | sed 's/^[0-9]*://; s/\..*//')" = 6
# Krita 6 refuses PyQt5; krita-pencild takes python3-pyqt6 for its PyQt (python3-pyqt5 | python3-pyqt6).
installed() { chroot "$root" dpkg-query -W -f '${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'; }
check "python3-pyqt6 is installed, python3-pyqt5 is not: the plugin has PyQt6 alone" \
    eval 'installed python3-pyqt6 && ! installed python3-pyqt5'

# 2. The plugin's parts that need no Krita, on that system's Python (PyQt6 only).
mkdir -p "$root/srv/tree/tests" "$root/srv/tree/integrations" "$root/srv/tree/clients/python"
cp -r "$repo/tests/krita" "$root/srv/tree/tests/"
cp -r "$repo/integrations/krita" "$root/srv/tree/integrations/"
cp -r "$repo/clients/python/src" "$root/srv/tree/clients/python/"
if chroot "$root" sh -c 'cd /srv/tree/tests/krita && QT_QPA_PLATFORM=offscreen python3 -m unittest -v test_plugin' \
        >"$work/test_plugin.log" 2>&1; then
    pass "test_plugin.py on PyQt6" "$(grep -c '\.\.\. ok$' "$work/test_plugin.log") tests ok, $(grep -c '\.\.\. skipped' "$work/test_plugin.log") skipped"
else
    fail "test_plugin.py on PyQt6" "$(tail -n 30 "$work/test_plugin.log")"
fi
picked() {
    chroot "$root" python3 -c 'import importlib.util as u; s = u.spec_from_file_location("qt", "/srv/tree/integrations/krita/pencild_krita/qt.py"); m = u.module_from_spec(s); s.loader.exec_module(m); print(m.BINDING, m.QT_MAJOR)'
}
check "there, the plugin picks PyQt6, on Qt 6" test "$(picked 2>&1)" = "PyQt6 6"
took "test_plugin.py"

# 3. Krita 6, as a person of that system, on an X display of this machine's (Krita reaches it
# through its abstract socket: the chroot shares the network namespace).
chroot "$root" useradd --create-home --uid 1000 --shell /bin/bash person
mount -t tmpfs -o mode=0755 tmpfs "$root/run"
install -d -m 0700 -o 1000 -g 1000 "$root/run/user/1000"
start_xvfb 1280x800x24
echo "$tier: Xvfb on $DISPLAY"
# The plugin, from the package, enabled as ticking it in the Python Plugin Manager does; and a
# plugin that imports PyQt5, which Krita 6 refuses: its traceback shows what one looks like in
# Krita's log.
probe=/home/person/.local/share/krita/pykrita
mkdir -p "$root$probe/pencild_probe" "$root/home/person/.config"
printf '[Desktop Entry]\nType=Service\nServiceTypes=Krita/PythonPlugin\nX-KDE-Library=pencild_probe\nX-Python-2-Compatible=false\nName=PyQt5 probe\n' \
    >"$root$probe/pencild_probe.desktop"
echo 'from PyQt5 import QtCore  # noqa: F401 (Krita 6 refuses it)' >"$root$probe/pencild_probe/__init__.py"
printf '[python]\nenable_pencild_krita=true\nenable_pencild_probe=true\n' >"$root/home/person/.config/kritarc"
install -d -o 1000 -g 1000 "$root/srv/krita"
chroot "$root" chown -R person:person /home/person

# as_person COMMAND: COMMAND run by bash as the person, on the display, with the user's
# runtime folder (where the user's pencild listens).
person=(chroot --userspec=1000:1000 "$root" env -i HOME=/home/person USER=person LOGNAME=person SHELL=/bin/bash
    PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 XDG_RUNTIME_DIR=/run/user/1000 "DISPLAY=$DISPLAY"
    bash -c 'cd && eval "$1"' as_person)
as_person() { "${person[@]}" "$1"; }
# spawn LOG COMMAND: COMMAND ("exec PROGRAM ...") as the person in the background; its pid,
# the program's own, in $spawned and $pids.
spawn() {
    ( exec "${person[@]}" "$2" ) >"$1" 2>&1 &
    spawned=$!
    pids+=("$spawned")
}

spawn "$work/pencild.log" 'exec pencild --demo --socket "$XDG_RUNTIME_DIR/pencild.sock" --no-udev'
answers() { as_person 'pencilctl devices' 2>/dev/null | grep -q demo; }
wait_for 30 answers || { fail "pencild answers with its demo pen" "$(tail -n 20 "$work/pencild.log")"; summary; exit 1; }

state_file=$root/srv/krita/state.json
krita_state() { python3 "$here/state.py" "$state_file" "$1"; }  # EXPRESSION holds (state.py)
krita_value() { python3 "$here/state.py" --value "$state_file" "$1"; }
krita_look() { # the hook adds the image's digest and the places, and counts the look
    local seen
    seen=$(krita_value 's["looks"]') || return 1
    touch "$state_file.look"
    wait_for 30 krita_state "s['looks'] > $seen"
}
screenshot() { # NAME [RECT]: the screen, or RECT of it (x y w h), as NAME.png among the logs
    local crop=() x y w h
    if [ -n "${2:-}" ]; then
        read -r x y w h <<<"$2"
        crop=(-crop "${w}x${h}+${x}+${y}" +repage)
    fi
    import -window root "${crop[@]}" "$work/$1.png" && pass "screenshot: $1.png" "$(stat -c %s "$work/$1.png") bytes"
}
krita_log=$work/krita.log
# traceback_of PLUGIN: a traceback in Krita's log passes through a file of PLUGIN (Krita's own
# lines quote it as \", what the plugin prints to its stderr as ").
traceback_of() { grep -Eq 'File \\?".*/'"$1"'/' "$krita_log"; }
gesture() { # NAME: pencilctl try NAME, as the person
    as_person "pencilctl try $1" >"$work/try.log" 2>&1 || fail "pencilctl try $1" "$(cat "$work/try.log")"
}

spawn "$krita_log" 'exec env QT_LOGGING_RULES=krita.scripting=true PENCILD_KRITA_TEST_STATE=/srv/krita/state.json krita --nosplash --new-image RGBA,U8,800,600'
krita=$spawned
canvas() { krita_look && krita_state '"canvasRect" in s'; }
# Krita is slow to start on two cores: a generous bound, cut short by the plugin's traceback.
ready_or_broken() { krita_state 's.get("ready")' || traceback_of pencild_krita; }
if wait_for 300 ready_or_broken && krita_state 's.get("ready")' && wait_for 120 canvas; then
    pass "Krita $krita_version opens an image; the plugin runs (its test hook writes)" "after $((SECONDS - step)) s"
else
    fail "Krita $krita_version opens an image; the plugin runs (its test hook writes)" \
        "$(grep -A 16 'Loading module:  "pencild_krita"' "$krita_log" || tail -n 30 "$krita_log")"
    summary
    exit 1
fi
took "Krita's start"
check "Krita 6 loaded the plugin" grep -q 'Loading module:  "pencild_krita"' "$krita_log"
check "which runs there on PyQt6, with Krita's Qt 6" krita_state 's["qt"].startswith("PyQt6 ") and ", Qt 6." in s["qt"]'
echo "$tier: the plugin's Qt: $(krita_value 's["qt"]')"
refused() { traceback_of pencild_probe && grep -q 'This version of Krita is not compatible with PyQt5' "$krita_log"; }
check "the control: Krita's log shows a plugin's traceback (the probe, which imports PyQt5, is refused)" refused
check "no traceback of the plugin in Krita's log" eval '! traceback_of pencild_krita'

# Krita as large as the screen and the X input focus: without a window manager, Qt takes
# that as its window being activated. The pointer on the canvas, as the hand holding the pen.
window=$(timeout 30 xdotool search --sync --onlyvisible --class '^krita$' | head -n 1)
xdotool windowmove "$window" 0 0 windowsize "$window" 1280 800 windowfocus "$window"
claimed() { krita_state 's["active"] and s["focusClaimed"] is True and s["connection"] == "connected" and s["pens"]'; }
if wait_for 30 claimed; then
    pass "the plugin finds the user's pencild, claims the focus for Krita and sees the demo pen" "$(krita_value 's["socket"], s["pens"]')"
else
    fail "the plugin finds the user's pencild, claims the focus for Krita and sees the demo pen" "$(krita_value 's["status"]')"
fi
touch "$state_file.docker"
docker_shown() { krita_state '"pencild_krita_docker" in s["dockers"] and "dockerRect" in s'; }
if wait_for 30 docker_shown; then
    pass "the docker shows" "$(krita_value 's["dockerRect"]')"
else
    fail "the docker shows" "$(krita_value 's["dockers"]')"
fi
check "it says pencild is connected, Krita has the focus, and names the demo pen" \
    krita_state 'any("pencild: connected" in t and "focus: Krita" in t and "demo" in t.lower() for t in s["dockerShown"])'
check "and what a double-tap does in Krita" \
    krita_state 'any("double-tap: switchEraser → Set eraser mode (erase_action)" in t for t in s["dockerShown"])'
wait_for 30 krita_look
read -r x y <<<"$(krita_value 's["canvasRect"][0] + s["canvasRect"][2] // 2, s["canvasRect"][1] + s["canvasRect"][3] // 2' | tr -d '(),')"
xdotool mousemove "$x" "$y"
screenshot docker "$(krita_value '" ".join(map(str, s["dockerRect"]))')"
took "the docker"

# 4. The gestures, made on the demo pen.
gesture double-tap
if wait_for 30 krita_state 'len(g) >= 1 and g[0]["type"] == "doubleTap" and g[0]["focus"] == "this" and g[0]["acted"] and g[0]["eraser"]'; then
    pass "a double-tap in Krita 6 turns its eraser mode on (focus this)" "$(krita_value 's["gestures"][0]["result"]')"
else
    fail "a double-tap in Krita 6 turns its eraser mode on (focus this)" "$(krita_value 's["gestures"]' 2>&1 | head -c 1500)"
fi
gesture double-tap
check "the next double-tap turns it off" \
    wait_for 30 krita_state 'len(g) >= 2 and g[1]["type"] == "doubleTap" and g[1]["acted"] and not g[1]["eraser"]'
gesture squeeze
if wait_for 30 krita_state 'len(g) >= 3 and g[2]["type"] == "squeeze" and g[2]["acted"] and g[2]["popupPalette"]'; then
    pass "a squeeze in Krita 6 opens its pop-up palette" "$(krita_value 's["gestures"][2]["result"], s["gestures"][2]["paletteWay"]')"
else
    fail "a squeeze in Krita 6 opens its pop-up palette" "$(krita_value 's["gestures"]' 2>&1 | head -c 1500)"
fi
krita_look
check "the palette is on the canvas, under the pointer" \
    krita_state 'inside(s["paletteRect"], '"$x, $y"') and inside(s["canvasRect"], '"$x, $y"')'
screenshot palette
# A point beside the palette, 20 pixels out, on the canvas near its middle, where the image is.
read -r x y <<<"$(krita_value '[(x, y) for c, p in [(s["canvasRect"], s["paletteRect"])] for x, y in [(p[0] - 20, p[1] + p[3] // 2), (p[0] + p[2] + 20, p[1] + p[3] // 2), (p[0] + p[2] // 2, p[1] - 20), (p[0] + p[2] // 2, p[1] + p[3] + 20)] if c[0] <= x < c[0] + c[2] and c[1] <= y < c[1] + c[3]][0]' | tr -d '(),')"
check "the point to click is on Krita's canvas, outside the palette" \
    krita_state 'inside(s["canvasRect"], '"$x, $y"') and not inside(s["paletteRect"], '"$x, $y"')'
image=$(krita_value 's["imageHash"]')
xdotool mousemove "$x" "$y" click 1
closed() { krita_look && krita_state 'not s["popupPalette"]'; }
if wait_for 30 closed; then
    pass "a click outside Krita's palette closes it"
    check "and paints nothing: the image is as it was" krita_state 's["imageHash"] == "'"$image"'"'
    xdotool click 1
    painted() { krita_look && krita_state 's["imageHash"] != "'"$image"'"'; }
    check "the control: the same click with the palette closed paints on the canvas" wait_for 30 painted
else
    fail "a click outside Krita's palette closes it" "$(krita_value 's["popupPalette"], s.get("paletteRect")')"
fi
check "still no traceback of the plugin in Krita's log" eval '! traceback_of pencild_krita'
took "the gestures"

touch "$state_file.quit"
krita_ended() { ! kill -0 "$krita" 2>/dev/null; }
wait_for 30 krita_ended || true
echo "$tier: took $((SECONDS - started)) s; Krita's log and the screenshots are in $logs"
summary
