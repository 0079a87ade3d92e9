#!/usr/bin/env bash
# run.sh: `make test-readme`. README's Krita and settings sections followed word for word by
# a person on a fresh Debian 12: a minimal Debian of this machine's release (mmdebstrap, from
# the archive apt already uses) with sudo and an account, `person`, whose source folder holds
# the packages `make deb` made (built here: Swift is not in Debian). In it, as that person:
#   1. the commands README gives, read from README.md each time (tests/readme/commands.py):
#      under *Installing*, the pencild package's `apt-get install` line; under *Krita*, the
#      PyQt line and the line with the three packages (apt fetches Krita itself from the
#      archive); under *The settings window*, its `apt-get install` line. Each answers
#      apt's question with yes, as a person does;
#   2. pencild runs as the user's service would (on $XDG_RUNTIME_DIR/pencild.sock), with its
#      demo pen: there is no systemd in a chroot, and no pen;
#   3. Krita, as the person starts it, with the plugin ticked as Settings › Configure Krita ›
#      Python Plugin Manager ticks it (the line it writes in kritarc): its docker says
#      pencild answers and lists the pen;
#   4. `pencil-settings`, as README says to start it: its window is shown and its Pens page
#      lists the pen, read through the accessibility tree.
# Screenshots go to $README_SCREENSHOTS (.build/readme-screenshots). The Xvfb display, the
# screenshots and the accessibility probe are the test's, not the person's. A prerequisite
# that is missing fails under CI=true; elsewhere the test is skipped.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tier=test-readme
# shellcheck source=tests/desktop-tier.sh
. "$here/../desktop-tier.sh"

# The packages of this tree; `make test` has the boot tier make them just before.
begin_chroot_tier Xvfb xdotool import -- "$@"
started=$SECONDS
for package in "pencild_${version}_$arch" "python3-pencild_${version}_all" "krita-pencild_${version}_all" "pencil-settings_${version}_all"; do
    [ -f "$repo/.build/deb/$package.deb" ] || { echo "test-readme: FAIL: .build/deb/$package.deb is not built (make deb)" >&2; exit 1; }
done

begin_scratch
trap end_chroot_tier EXIT
shots=${README_SCREENSHOTS:-$repo/.build/readme-screenshots}
mkdir -p "$shots"
root=$work/root

# 1. A fresh Debian: minbase, sudo, the D-Bus and accessibility services a desktop session
# has (the probe reads the window through them), and the probe's pyatspi.
sources=/etc/apt/sources.list.d/debian.sources
[ -r "$sources" ] || cannot_run "$sources (the archive to build the system from) is missing"
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
echo "test-readme: a fresh Debian $suite"
t=$SECONDS
# With the archive's package lists, as an installed Debian has them.
mmdebstrap --variant=minbase --skip=cleanup/apt/lists --include=sudo,dbus,at-spi2-core,python3-pyatspi "$suite" "$root" "$sources" \
    >"$work/mmdebstrap.log" 2>&1 || { tail -n 30 "$work/mmdebstrap.log" >&2; echo "test-readme: FAIL: mmdebstrap" >&2; exit 1; }
echo "test-readme: built in $((SECONDS - t)) s"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The system is thrown away after the run: dpkg need not sync each file it writes (and hold
# up the machine's other work while it does).
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/readme-test-unsafe-io"
# The installer names the machine in /etc/hosts; sudo looks its name up.
printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n' "$(uname -n)" >"$root/etc/hosts"
chroot "$root" useradd --create-home --uid 1000 --shell /bin/bash person
echo 'person ALL=(ALL) NOPASSWD: ALL' >"$root/etc/sudoers.d/person"   # a person types a password here
chmod 0440 "$root/etc/sudoers.d/person"
# The person's source folder, with what `make deb` left in it.
mkdir -p "$root/home/person/pencild/.build/deb"
cp "$repo"/.build/deb/*_"$version"_*.deb "$root/home/person/pencild/.build/deb/"
chroot "$root" chown -R person:person /home/person/pencild
install -d -m 0700 -o 1000 -g 1000 "$root/run/user/1000"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
# No X socket is mounted in: X clients reach the display through its abstract socket, and
# the chroot shares this machine's network namespace.

# as_person COMMAND: COMMAND run by bash as the person in their source folder, with a
# session's environment; apt's question answered yes.
as_person() {
    chroot --userspec=1000:1000 "$root" env -i HOME=/home/person USER=person LOGNAME=person SHELL=/bin/bash \
        PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 XDG_RUNTIME_DIR=/run/user/1000 DISPLAY="${DISPLAY:-}" \
        DBUS_SESSION_BUS_ADDRESS="${bus:-}" "${person_env[@]}" bash -c 'cd ~/pencild && eval "$1"' as_person "$1"
}
person_env=()

# follow SECTION PREFIX...: each command README gives there, run as the person.
follow() {
    local section=$1 list command
    shift
    list=$(python3 "$here/commands.py" "$repo/README.md" "$section" "$@") ||
        { fail "README's section \"$section\" gives a command starting with $*"; return; }
    while IFS= read -r command; do
        if as_person "$command" < <(yes) >"$work/command.log" 2>&1; then
            pass "README, \"$section\": $command"
        else
            fail "README, \"$section\": $command" "$(tail -n 20 "$work/command.log")"
        fi
    done <<<"$list"
}

echo "test-readme: the packages, as README installs them"
t=$SECONDS
follow "Debian and Ubuntu: the package" "sudo apt-get install"
follow "Krita: a plugin that speaks pencild" "sudo apt-get install"
follow "The settings window" "sudo apt-get install"
echo "test-readme: installed in $((SECONDS - t)) s"
check "Krita came with the plugin's package" test -x "$root/usr/bin/krita"
check "the plugin is where Krita looks for every user's plugins" test -f "$root/usr/share/krita/pykrita/pencild_krita/__init__.py"
check "pencil-settings is on the person's PATH" as_person "command -v pencil-settings >/dev/null"
[ "$failed" -eq 0 ] || { summary; exit 1; }

# 2. A display (the test's), a session bus and the accessibility bus (a desktop's).
start_xvfb 1280x800x24
as_person 'exec dbus-daemon --session --nofork --print-address=3 --address=unix:path=/run/user/1000/bus' 3>"$work/bus" >"$work/dbus.log" 2>&1 &
pids+=("$!")
has_bus() { [ -s "$work/bus" ]; }
wait_for 30 has_bus
bus=unix:path=/run/user/1000/bus
as_person 'exec pencild --demo --socket "$XDG_RUNTIME_DIR/pencild.sock" --no-udev' >"$work/pencild.log" 2>&1 &
pids+=("$!")
answers() { as_person 'pencilctl devices' >"$work/devices.txt" 2>&1 && grep -q "demo" "$work/devices.txt"; }
wait_for 30 answers || { cat "$work/pencild.log" "$work/devices.txt" >&2; fail "pencild answers the person's pencilctl"; summary; exit 1; }
pass "pencild, as the user's service runs it, answers the person's pencilctl: $(head -n 1 "$work/devices.txt")"

# 3. Krita, its plugin ticked.
echo "test-readme: Krita"
mkdir -p "$root/home/person/.config"
printf '[python]\nenable_pencild_krita=true\n' >"$root/home/person/.config/kritarc"
chroot "$root" chown -R person:person /home/person/.config
state=/home/person/krita-state.json
person_env=("PENCILD_KRITA_TEST_STATE=$state")
as_person 'exec krita --nosplash --new-image RGBA,U8,800,600' >"$work/krita.log" 2>&1 &
krita_pid=$!
pids=("$krita_pid" "${pids[@]}")
person_env=()
krita_state() {
    [ -f "$root$state" ] || return 1
    python3 - "$root$state" "$1" <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8") as file:
    s = json.load(file)
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
if wait_for 300 krita_state 's["ready"] and s["connection"] == "connected" and s["pens"]'; then
    pass "Krita's plugin connected to pencild by itself and knows the pen"
else
    fail "Krita's plugin connected to pencild" "$(cat "$root$state" 2>/dev/null; tail -n 20 "$work/krita.log")"
fi
# The image opens after the plugin's first word; the hook says where its canvas is once
# asked to look.
canvas_shown() { touch "$root$state.look"; krita_state '"canvasRect" in s'; }
wait_for 120 canvas_shown || fail "Krita opened the new image" "$(tail -n 20 "$work/krita.log")"
# Krita's window, as large as the screen, becomes the input focus: in front, as a person
# has it (without a window manager, Qt takes that as the window activated).
window=$(timeout 60 xdotool search --sync --onlyvisible --class '^krita$' | head -n 1)
xdotool windowmove "$window" 0 0 windowsize "$window" 1280 800 windowfocus "$window"
touch "$root$state.docker"
docker_says() { krita_state 'any(all(part in t for part in ("pencild: connected", "focus: Krita", "pencild demo pen", "double-tap: switchEraser → Set eraser mode")) for t in s.get("dockerShown", []))'; }
if wait_for 60 docker_says; then
    pass "its docker (Settings › Dockers › Pen gestures) says pencild answers, Krita has the focus, names the pen and the double-tap's Krita action"
else
    fail "its docker says pencild answers, Krita has the focus, names the pen and the double-tap's Krita action" \
        "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["dockerShown"])' "$root$state" 2>&1)"
fi
import -window root "$shots/krita.png" && pass "screenshot: $shots/krita.png"
touch "$root$state.quit"
wait "$krita_pid" 2>/dev/null || true

# 4. The settings window, started as README says.
echo "test-readme: the settings window"
start=$(python3 "$here/commands.py" "$repo/README.md" "The settings window" pencil-settings | head -n 1)
person_env=(GTK_A11Y=atspi GSETTINGS_BACKEND=memory)
as_person "exec $start" >"$work/settings.log" 2>&1 &
pids+=("$!")
person_env=()
cp "$here/pens_page.py" "$repo/apps/settings/tests/drive.py" "$repo/tests/checks.py" "$repo/tests/accessibility.py" "$root/tmp/"
if as_person 'python3 /tmp/pens_page.py "pencild demo pen"' >"$work/probe.log" 2>&1; then
    pass "\"$start\" shows the window, and its Pens page lists the pen" "$(tail -n 1 "$work/probe.log")"
else
    fail "\"$start\" shows the window, and its Pens page lists the pen" "$(cat "$work/probe.log"; tail -n 20 "$work/settings.log")"
fi
import -window root "$shots/settings.png" && pass "screenshot: $shots/settings.png"

echo "test-readme: took $((SECONDS - started)) s"
summary
