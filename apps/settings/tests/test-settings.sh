#!/usr/bin/env bash
# test-settings.sh BIN_DIR: `make test-settings`. Runs pencil-settings on a private X server
# (Xvfb) with a private D-Bus session and the accessibility bus, against pencild replaying a
# test pen that comes eraser end first, double-taps, misses two double-taps (too slow, too
# far) and squeezes, and drives the window through AT-SPI (drive.py): the try-it page shows
# what was recognised and why a double-tap was missed; the pens page names the tablet and
# the pen (one pen at both ends), shows a pen libwacom has no name for as seen once it
# hovers, and two other tablets' names, one with & and one with markup, as they are; every
# control has an accessible name; every setting changed in the window reaches pencild, and
# every change made with pencilctl shows in the window; a button the pens lack and a timing
# no hand can make cannot be chosen, and say why; when pencild stops while a page is shown,
# that page says why it is greyed, and recovers when pencild comes back; with the double-tap
# button one the pen lacks, Try it says why nothing comes; an AES pen's eraser is offered
# once it is a button; on GNOME the window says what GNOME's tablet settings do and opens
# them; with pencild's demo pen alone, Try it makes its double-tap and squeeze at a button.
# Screenshots of each page in the light and the dark style, and of the changed states,
# into .build/settings-screenshots. The .desktop file is checked with desktop-file-validate.
# A prerequisite that is missing fails under CI=true; elsewhere the test is skipped and says
# so.
set -euo pipefail

bin=${1:?usage: $0 BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
app_dir=$(cd "$here/.." && pwd)
repo=$(cd "$app_dir/../.." && pwd)

tier=test-settings
# shellcheck source=tests/desktop-tier.sh
. "$here/../../../tests/desktop-tier.sh"
for program in pencild pencilctl pencil-test-recordings; do
    [ -x "$bin/$program" ] || { echo "test-settings: $bin/$program is missing: build first" >&2; exit 1; }
done
require_accessible_gtk
command -v import >/dev/null || cannot_run "import is not installed (apt-get install imagemagick)"
command -v desktop-file-validate >/dev/null || cannot_run "desktop-file-validate is not installed (apt-get install desktop-file-utils)"

# Everything below runs on a D-Bus session bus of its own, which ends with the test.
if [ -z "${PENCIL_SETTINGS_TEST_BUS:-}" ]; then
    exec dbus-run-session -- env PENCIL_SETTINGS_TEST_BUS=1 "$0" "$@"
fi

started=$SECONDS
begin_scratch
pencild=$bin/pencild
pencilctl=$bin/pencilctl

echo "test-settings: the desktop file and the scripts"
if output=$(desktop-file-validate "$app_dir/org.pencild.Settings.desktop" 2>&1) && [ -z "$output" ]; then
    pass "desktop-file-validate: org.pencild.Settings.desktop"
else
    fail "desktop-file-validate: $output"
fi
if grep -qx 'Categories=Settings;HardwareSettings;GTK;' "$app_dir/org.pencild.Settings.desktop"; then
    pass "the app is in the Settings category"
else
    fail "the desktop file's Categories"
fi
if command -v shellcheck >/dev/null; then
    # From the top of the tree, with the library it sources (shellcheck follows a source
    # given beside it).
    if (cd "$repo" && shellcheck --severity=warning apps/settings/tests/*.sh tests/desktop-tier.sh tests/lib.sh); then pass "shellcheck: the test's scripts"; else fail "shellcheck"; fi
fi
if command -v mypy >/dev/null; then
    if MYPYPATH=$repo/clients/python/src:$repo/tests mypy --ignore-missing-imports --no-error-summary --cache-dir "$work/mypy" \
        --scripts-are-modules "$app_dir/pencil-settings" "$app_dir/pencil_settings" "$here"/*.py; then
        pass "mypy: the app and the test's Python"
    else
        fail "mypy"
    fi
fi
# make install's part: the program runs from where it is installed, with its package and its
# own copy of the client, and the installed desktop entry is valid and names an installed icon.
if make --no-print-directory -s -C "$repo" install-settings DESTDIR="$work/root" PREFIX=/usr/local >"$work/install.log" 2>&1 &&
    "$python" "$work/root/usr/local/bin/pencil-settings" --help >/dev/null 2>>"$work/install.log" &&
    desktop-file-validate "$work/root/usr/local/share/applications/org.pencild.Settings.desktop" >>"$work/install.log" 2>&1 &&
    [ -f "$work/root/usr/local/share/icons/hicolor/scalable/apps/$(sed -n 's/^Icon=//p' "$app_dir/org.pencild.Settings.desktop").svg" ]; then
    pass "make install-settings: the program runs where it is installed; its desktop entry and icon are in place"
else
    fail "make install-settings: $(cat "$work/install.log")"
fi
make --no-print-directory -s -C "$repo" uninstall-settings DESTDIR="$work/root" PREFIX=/usr/local >/dev/null 2>&1 || true
left=$(find "$work/root" -type f 2>/dev/null)
if [ -z "$left" ]; then pass "make uninstall-settings removes all of it"; else fail "left after uninstall-settings: $left"; fi

export XDG_RUNTIME_DIR=$work/runtime XDG_CONFIG_HOME=$work/config HOME=$work/home
mkdir -m 0700 "$XDG_RUNTIME_DIR"
mkdir -p "$XDG_CONFIG_HOME" "$HOME" "$work/state"
export GSETTINGS_BACKEND=memory NO_AT_BRIDGE=0 GTK_A11Y=atspi GDK_BACKEND=x11
# Not GNOME, unless a run says so (the gnome phase).
export XDG_CURRENT_DESKTOP=
export PENCILCTL=$bin/pencilctl PENCILD_SOCKET=$work/pencild.sock WORK=$work
export SCREENSHOTS=${SCREENSHOTS:-$repo/.build/settings-screenshots}
export WINDOW_SIZE=860x860

# The X server picks a free display and writes its number on descriptor 3.
start_xvfb 1024x900x24
"$launcher" --launch-immediately >"$work/at-spi.log" 2>&1 &
pids+=("$!")
echo "test-settings: Xvfb on $DISPLAY"

# The test pen: the client tests' tablet (an Intuos5, 200 units a mm) with a Grip Pen; it
# stays attached for 5 minutes after its last gesture.
export PEN_NAME="Client Test Pen"
"$bin/pencil-test-recordings" --client-pen --name "$PEN_NAME" >"$work/header.evemu"
"$python" "$here/write-pen.py" "$work/header.evemu" 300 >"$work/try.evemu"
# Beside it, two tablets libwacom does not know, named as anyone who makes a device may name
# it: the window must show their names as they are, never read them as markup (where a name
# with & showed empty, and <b> bold).
export AMPERSAND_PEN_NAME="Pens & Pencils"
export MARKUP_PEN_NAME='<b>Bold</b> <span size="90000">Giant</span>'
"$python" "$here/write-pen.py" "$work/header.evemu" 300 --idle "$AMPERSAND_PEN_NAME" >"$work/ampersand.evemu"
"$python" "$here/write-pen.py" "$work/header.evemu" 300 --idle "$MARKUP_PEN_NAME" >"$work/markup.evemu"
# And a tablet libwacom does not know, whose pen (no tool id, no serial, as most Huion,
# XP-Pen and Gaomon pens) hovers: seen, though it has no name.
export UNNAMED_PEN_NAME="Tablet Without Names"
"$python" "$here/write-pen.py" "$work/header.evemu" 300 --hover "$UNNAMED_PEN_NAME" >"$work/unnamed.evemu"
# The unnamed tablet second, so that the pens page's screenshot shows it.
pens=(--replay "$work/try.evemu" --replay "$work/unnamed.evemu" --replay "$work/ampersand.evemu"
    --replay "$work/markup.evemu")
# An AES pen (its eraser a button) and a Pro Pen 3's display (a third button), attached, idle:
# the kernel suite's recordings give their tablets.
"$bin/pencil-test-recordings" "$work/suite"
"$python" "$here/write-pen.py" "$work/suite/eraser-button.evemu" 300 --attached >"$work/aes.evemu"
"$python" "$here/write-pen.py" "$work/suite/third-button.evemu" 300 --attached >"$work/third.evemu"
# GNOME's settings, as the window starts them: a gnome-control-center that notes its arguments.
mkdir -p "$work/gnome-bin"
export GNOME_CALLS=$work/gnome-calls
printf '#!/bin/sh\necho "$@" >"%s"\n' "$GNOME_CALLS" >"$work/gnome-bin/gnome-control-center"
chmod +x "$work/gnome-bin/gnome-control-center"

# run_pencild ARGS...: pencild on the test's socket, once it answers.
run_pencild() {
    local status=0
    start_pencild "$PENCILD_SOCKET" "$work/pencild.log" --state-dir "$work/state" --no-udev "$@" || status=$?
    pids+=("$pencild_pid")
    return "$status"
}
stop_pencild() {
    kill -TERM "$pencild_pid"
    wait "$pencild_pid" 2>/dev/null || true
}
app_pid=""
start_app() {
    # pencilctl beside the build, as it is beside an installed window.
    env PATH="$bin:$PATH" "$@" "$python" "$app_dir/pencil-settings" --socket "$PENCILD_SOCKET" --size "$WINDOW_SIZE" \
        >>"$work/app.log" 2>&1 &
    app_pid=$!
    pids=("$app_pid" "${pids[@]}")
}
stop_app() {
    kill -TERM "$app_pid"
    wait "$app_pid" 2>/dev/null || true
}
# drive PHASE: drive.py's checks, counted here.
drive() {
    echo "test-settings: $1"
    local status=0
    "$python" "$here/drive.py" "$1" >"$work/drive.out" 2>&1 || status=$?
    cat "$work/drive.out"
    passed=$((passed + $(grep -c '^  ok: ' "$work/drive.out" || true)))
    failed=$((failed + $(grep -c '^  FAIL: ' "$work/drive.out" || true)))
    if [ "$status" -ne 0 ] && ! grep -q '^  FAIL: ' "$work/drive.out"; then
        failed=$((failed + 1))
    fi
}

# The replay starts when the window subscribes, and plays at real speed (5.5 s of gestures).
run_pencild "${pens[@]}" --wait-monitors 1
start_app
drive gestures
drive shots-light
drive settings
stop_pencild
drive absent
run_pencild
drive back
# The double-tap button the third (set in the back phase), the test pen replayed again.
stop_pencild
run_pencild "${pens[@]}" --wait-monitors 1
drive unmade
stop_pencild
run_pencild --replay "$work/aes.evemu" --replay "$work/third.evemu"
drive buttons
stop_app
# The dark style, with the test pens replayed again for its screenshots, on GNOME.
stop_pencild
run_pencild "${pens[@]}" --wait-monitors 1
start_app ADW_DEBUG_COLOR_SCHEME=prefer-dark XDG_CURRENT_DESKTOP=ubuntu:GNOME PATH="$work/gnome-bin:$bin:$PATH"
drive shots-dark
drive gnome
stop_app
# pencild with its demo pen alone, as `make run` starts it without a tablet.
stop_pencild
run_pencild --demo
start_app
drive demo
stop_app
if kill -0 "$pencild_pid" 2>/dev/null; then pass "pencild is still running"; else fail "pencild exited"; fi
# "from markup": GTK's warning for a label given text that Pango cannot read as markup.
if grep -q -e Traceback -e CRITICAL -e 'from markup' "$work/app.log"; then
    fail "the app's output has errors: $(cat "$work/app.log")"
else
    pass "the app wrote no Python traceback, GTK critical or text GTK could not read as markup"
fi

echo "test-settings: screenshots in $SCREENSHOTS"
echo "test-settings: took $((SECONDS - started)) s"
if [ "$failed" -gt 0 ]; then
    echo "--- pencild's log"; cat "$work/pencild.log"
    echo "--- the app's output"; cat "$work/app.log"
fi
summary
