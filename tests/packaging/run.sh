#!/usr/bin/env bash
# Packaging checks, run by `make test-packaging`:
#   - `make install` into a staged root, for PREFIX=/usr/local and PREFIX=/usr: every file
#     lands where systemd and udev look, the units' ExecStart names the installed binary;
#   - `systemd-analyze verify` on every installed unit (system and user), against the
#     staged root, and `systemd-analyze security` on the system service (2.0 at most);
#   - udev reads each rule of udev-rules/ without a complaint;
#   - `make uninstall` removes every file it installed; no uinput rule, and no rule that tags
#     anything uaccess (the pens' is the user-mode example), is installed where udev reads
#     it; the maintainer scripts and `make uninstall` replay /dev/uinput on the running
#     system (a fake udevadm says so), and never under DPKG_ROOT or DESTDIR;
#   - the mirror's libinput quirk: where libinput reads its quirks, matching what the udev rule
#     gives a mirror, in its Debian package, and by `make install` only for a libinput that
#     knows its key;
#   - shellcheck on the shell scripts;
#   - the man pages build with scdoc and list what `--help` lists (pencild's options,
#     pencilctl's commands and their options) and the configuration keys pencild accepts;
#   - the clients against a running pencild (tests/packaging/client.sh);
#   - nothing cites a document outside the repository, and every docs/*.md cited exists.
# A check that cannot run here says so; under CI (CI=true) that is a failure.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"
section() { echo "packaging: $*"; }

# Under /tmp, never under /run: the maintainer scripts run with a private /run (with_private_run).
work=$(mktemp -d -p /tmp)
trap 'rm -rf "$work"' EXIT

# The binaries of the debug build are installed: these checks are about the files'
# places and contents, not about the optimiser.
configuration=${PACKAGING_CONFIGURATION:-debug}

# verify_units LABEL COMMAND...: any message from systemd-analyze is a failure, since it
# reports unknown keys as warnings with exit status 0.
verify_units() {
    local label=$1
    shift
    local output
    if output=$(XDG_RUNTIME_DIR="$work/runtime" "$@" 2>&1) && [ -z "$output" ]; then
        pass "systemd-analyze verify: $label"
    else
        fail "systemd-analyze verify: $label:"$'\n'"$output"
    fi
}

check_install() {
    local prefix=$1
    section "make install PREFIX=$prefix"
    local root="$work/root-${prefix//\//_}"
    # A staged root with this machine's own units, so that verify finds sysinit.target and
    # the other units ours depend on.
    local host_units
    host_units=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || echo /usr/lib/systemd/system)
    mkdir -p "$root$host_units" "$work/runtime"
    cp -a "$host_units/." "$root$host_units/"
    local before="$work/before-${prefix//\//_}"
    (cd "$root" && find . -type f | sort) >"$before"

    if ! make --no-print-directory -s install DESTDIR="$root" PREFIX="$prefix" CONFIGURATION="$configuration" >"$work/install.log" 2>&1; then
        fail "make install PREFIX=$prefix:"$'\n'"$(cat "$work/install.log")"
        return
    fi
    local system_dir user_dir rules_dir
    system_dir=$(make --no-print-directory -s print-dirs PREFIX="$prefix" | sed -n 's/^system=//p')
    user_dir=$(make --no-print-directory -s print-dirs PREFIX="$prefix" | sed -n 's/^user=//p')
    rules_dir=$(make --no-print-directory -s print-dirs PREFIX="$prefix" | sed -n 's/^udev=//p')
    case $prefix in
        /usr/local)
            [ "$system_dir" = /usr/local/lib/systemd/system ] || fail "system unit dir is $system_dir"
            [ "$user_dir" = /usr/local/lib/systemd/user ] || fail "user unit dir is $user_dir"
            [ "$rules_dir" = /usr/local/lib/udev/rules.d ] || fail "udev rules dir is $rules_dir" ;;
    esac
    # systemd and udev must search these directories.
    case $system_dir in /etc/systemd/system|/usr/local/lib/systemd/system|/usr/lib/systemd/system|/lib/systemd/system) ;; *) fail "systemd does not search $system_dir" ;; esac
    case $user_dir in /etc/systemd/user|/usr/local/lib/systemd/user|/usr/lib/systemd/user) ;; *) fail "systemd --user does not search $user_dir" ;; esac
    case $rules_dir in /etc/udev/rules.d|/usr/local/lib/udev/rules.d|/usr/lib/udev/rules.d|/lib/udev/rules.d) ;; *) fail "udev does not search $rules_dir" ;; esac

    local expected=(
        "$prefix/bin/pencild" "$prefix/bin/pencilctl" "$prefix/bin/pencil-actions"
        "$system_dir/pencild.service" "$system_dir/pencild.socket" "$system_dir/pencild-pen.target"
        "$user_dir/pencild.service" "$user_dir/pencild.socket" "$user_dir/pencild-pen.target"
        "$user_dir/pencil-actions.service"
        "$rules_dir/70-pencild.rules"
        "$prefix/share/doc/pencild/examples/actions.conf" "$prefix/share/doc/pencild/examples/71-pencil-actions-uinput.rules"
        "$prefix/share/pencil-actions/actions.conf"
        "$prefix/share/doc/pencild/examples/71-pencild-user-mode.rules"
        # README and the pages that pencilctl's, pencild's and pencil-actions' messages cite.
        "$prefix/share/doc/pencild/README.md" "$prefix/share/doc/pencild/docs/troubleshooting.md"
        "$prefix/share/doc/pencild/docs/installing.md" "$prefix/share/doc/pencild/docs/pencil-actions.md"
        "$prefix/share/man/man8/pencild.8" "$prefix/share/man/man1/pencilctl.1" "$prefix/share/man/man5/pencild.conf.5"
        "$prefix/share/man/man1/pencil-actions.1"
        "$prefix/share/krita/pykrita/pencild_krita.desktop" "$prefix/share/krita/pykrita/pencild_krita/__init__.py"
        "$prefix/share/krita/pykrita/pencild_krita/client/pencild/__init__.py"
        "$prefix/share/pencil-actions/kwin-focus.js"
        "$prefix/share/pencil-actions/palette/pencil-palette" "$prefix/share/pencil-actions/palette/pencil_palette/app.py"
        "$prefix/share/gnome-shell/extensions/pencil-actions-focus@pencild.org/metadata.json"
        "$prefix/share/gnome-shell/extensions/pencil-actions-focus@pencild.org/extension.js"
        "$prefix/share/gnome-shell/extensions/pencil-actions-focus@pencild.org/palette.js"
    )
    local missing=0 file
    for file in "${expected[@]}"; do
        [ -f "$root$file" ] || { fail "not installed: $file"; missing=1; }
    done
    [ "$missing" -eq 0 ] && pass "installed: ${#expected[@]} files"
    # The uinput rule is an administrator's opt-in: never where udev reads rules.
    if [ -e "$root$rules_dir/71-pencil-actions-uinput.rules" ]; then
        fail "the uinput rule is installed in $rules_dir: udev would give the seat's user /dev/uinput"
    else
        pass "no uinput rule in $rules_dir (the example is in share/doc/pencild/examples)"
    fi
    # Nor is the pens' uaccess rule: an ACL for the seat's user outlives a switch of seat, and
    # only a pencild run as a user service needs it. The example does tag them (the positive
    # control: the check would see the tag).
    local tagging
    tagging=$(grep -l '^[^#]*TAG+="uaccess"' "$root$rules_dir"/*.rules 2>/dev/null || true)
    if [ -n "$tagging" ]; then
        fail "a rule in $rules_dir gives the seat's user an ACL: ${tagging//$root/}"
    elif ! grep -q 'TAG=="pencild", TAG+="uaccess"' "$root$prefix/share/doc/pencild/examples/71-pencild-user-mode.rules" 2>/dev/null; then
        fail "the example 71-pencild-user-mode.rules does not tag pencild's pens uaccess"
    else
        pass "no rule in $rules_dir tags anything uaccess; the user-mode example in share/doc/pencild/examples tags pencild's pens"
    fi
    for file in "$prefix/bin/pencild" "$prefix/bin/pencilctl" "$prefix/bin/pencil-actions"; do
        [ -x "$root$file" ] || fail "not executable: $file"
    done
    for file in "$system_dir/pencild.service" "$user_dir/pencild.service" "$user_dir/pencil-actions.service"; do
        local exec_start program
        exec_start=$(sed -n 's/^ExecStart=//p' "$root$file")
        program=$(basename "$file" .service)
        if [ "${exec_start%% *}" = "$prefix/bin/$program" ]; then
            pass "$(basename "$(dirname "$file")")/$program.service: ExecStart=$exec_start"
        else
            fail "$file: ExecStart=$exec_start, expected $prefix/bin/$program"
        fi
        if grep -q '@[a-z_]*@' "$root$file"; then fail "$file: an @placeholder@ is left"; fi
    done

    if command -v systemd-analyze >/dev/null; then
        verify_units "system units" systemd-analyze verify --root="$root" \
            "$system_dir/pencild.service" "$system_dir/pencild.socket" "$system_dir/pencild-pen.target"
        # systemd 252 cannot verify user units under --root: a copy whose ExecStart names
        # the staged binary is verified instead.
        local user_copy="$work/user-units-${prefix//\//_}"
        mkdir -p "$user_copy"
        cp "$root$user_dir/pencild.socket" "$root$user_dir/pencild-pen.target" "$user_copy/"
        local unit
        for unit in pencild.service pencil-actions.service; do
            sed "s|^ExecStart=$prefix/bin/|ExecStart=$root$prefix/bin/|" "$root$user_dir/$unit" >"$user_copy/$unit"
        done
        verify_units "user units" systemd-analyze --user verify \
            "$user_copy/pencild.service" "$user_copy/pencild.socket" "$user_copy/pencild-pen.target" \
            "$user_copy/pencil-actions.service"
        if grep -qx 'WantedBy=graphical-session.target' "$user_copy/pencil-actions.service" &&
            grep -qx 'PartOf=graphical-session.target' "$user_copy/pencil-actions.service"; then
            pass "pencil-actions.service is part of graphical-session.target"
        else
            fail "pencil-actions.service is not WantedBy and PartOf graphical-session.target"
        fi
        local score
        if score=$(systemd-analyze security --root="$root" --offline=true --threshold=20 pencild.service 2>&1); then
            pass "systemd-analyze security: $(tail -n 1 <<<"$score" | sed 's/.*level for //')"
        else
            fail "systemd-analyze security scores above 2.0:"$'\n'"$(grep -E '^(✗|→)|: ' <<<"$score")"
        fi
    else
        cannot_check "systemd-analyze is not installed (apt-get install systemd)"
    fi

    make --no-print-directory -s uninstall DESTDIR="$root" PREFIX="$prefix" >/dev/null
    local left
    left=$(comm -13 "$before" <(cd "$root" && find . -type f | sort))
    if [ -z "$left" ]; then pass "make uninstall removed every installed file"; else fail "left after uninstall: $left"; fi
}

# udevadm reads rules from fixed directories: the rule is placed in a private mount
# namespace's /run/udev/rules.d, on a tmpfs of its own, where udevadm test reports each line it cannot use.
check_udev_rule() {
    section "udev rules"
    if ! command -v udevadm >/dev/null; then cannot_check "udevadm is not installed (apt-get install udev)"; return; fi
    if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
        cannot_check "udevadm test needs root and unshare (a private mount namespace)"; return
    fi
    local rule name output
    for rule in udev-rules/*.rules; do
        name=$(basename "$rule")
        output=$(unshare --mount --propagation private bash -c '
            set -e
            # A fresh /run: nothing of this machine'"'"'s udev is read, and nothing is left behind.
            mount -t tmpfs tmpfs /run
            mkdir -p /run/udev/rules.d
            cp "$1" /run/udev/rules.d/
            # The group the package makes (sysusers.d/pencild.conf), as on an installed system.
            if ! getent group pencild-uinput >/dev/null; then
                cp /etc/group /run/udev/rules.d/group
                echo "pencild-uinput:x:64999:" >>/run/udev/rules.d/group
                mount --bind /run/udev/rules.d/group /etc/group
            fi
            udevadm test --action=add /sys/devices/virtual/mem/null 2>&1' _ "$rule") ||
            { fail "udevadm test failed for $name:"$'\n'"$output"; continue; }
        if ! grep -q "Reading rules file: /run/udev/rules.d/$name" <<<"$output"; then
            fail "udevadm test did not read $name:"$'\n'"$output"
        elif grep -q "$name:[0-9]" <<<"$output"; then
            fail "udev complains about $name:"$'\n'"$(grep "$name:[0-9]" <<<"$output")"
        else
            pass "udevadm reads $name without a complaint"
        fi
    done
}

# The maintainer scripts and `make uninstall` on the running system: a fake udevadm first
# on PATH notes what it is asked. Removing pencil-actions (or `make uninstall`) replays
# /dev/uinput, so that an ACL a uinput rule gave does not stay until the next boot; under
# DPKG_ROOT (a system being built elsewhere) no script touches the running one.
check_maintainer_scripts() {
    section "maintainer scripts and make uninstall"
    local script unguarded=()
    for script in debian/*.postinst debian/*.postrm debian/*.prerm debian/*.preinst; do
        [ -f "$script" ] || continue
        if grep -qE 'udevadm|deb-systemd-invoke|systemctl|rm -rf' "$script" && ! grep -q 'DPKG_ROOT' "$script"; then
            unguarded+=("$script")
        fi
    done
    if [ ${#unguarded[@]} -eq 0 ]; then pass "every maintainer script that acts on the system checks DPKG_ROOT"; else fail "no DPKG_ROOT guard: ${unguarded[*]}"; fi
    # The scripts act only where udev runs (/run/udev exists): each step runs in a private
    # mount namespace whose /run is a fresh tmpfs, with udev's runtime folder or without it,
    # so the result never depends on this machine's /run or on what an earlier check left.
    if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
        cannot_check "the maintainer scripts are run in a private /run, which needs root and unshare"; return
    fi
    # The copies of release_uinput in the maintainer scripts are scripts/release-uinput.sh's.
    local copy block
    block=$(sed -n '/^# --- release_uinput ---$/,/^# --- end ---$/p' scripts/release-uinput.sh)
    for copy in debian/pencil-actions.postinst debian/pencil-actions.postrm; do
        if [ -n "$block" ] && [ "$(sed -n '/^# --- release_uinput ---$/,/^# --- end ---$/p' "$copy")" = "$block" ]; then
            pass "$copy carries scripts/release-uinput.sh's release_uinput"
        else
            fail "$copy: its release_uinput differs from scripts/release-uinput.sh's"
        fi
    done
    local fake="$work/fake-bin" calls="$work/udevadm-calls"
    mkdir -p "$fake"
    # It notes every call, and says that /dev/uinput is still tagged uaccess, so that this
    # machine's own /dev/uinput is never touched (the boot tier checks the ACL for real).
    printf '#!/bin/sh\necho "$*" >>"%s"\n[ "$1" = info ] && echo "CURRENT_TAGS=:uaccess:"\nexit 0\n' "$calls" >"$fake/udevadm"
    chmod +x "$fake/udevadm"
    local step
    for step in "pencil-actions.postinst configure" "pencil-actions.postrm remove" "pencil-actions.postrm purge"; do
        set -- $step
        rm -f "$calls"
        if [ ! -f "debian/$1" ]; then fail "debian/$1 is missing"; continue; fi
        with_private_run udev env PATH="$fake:$PATH" sh "debian/$1" "$2" >/dev/null 2>&1 || fail "debian/$step failed"
        if grep -qx 'trigger --action=change --sysname-match=uinput' "$calls" 2>/dev/null; then
            pass "debian/$step replays /dev/uinput where udev runs"
        else
            fail "debian/$step does not replay /dev/uinput (udevadm was asked: $(tr '\n' ';' 2>/dev/null <"$calls"))"
        fi
        rm -f "$calls"
        with_private_run no-udev env PATH="$fake:$PATH" sh "debian/$1" "$2" >/dev/null 2>&1 || fail "debian/$step without udev failed"
        if [ -s "$calls" ]; then fail "debian/$step ran udevadm where udev does not run: $(tr '\n' ';' <"$calls")"; else pass "debian/$step leaves udev alone where udev does not run"; fi
        rm -f "$calls"
        with_private_run udev env DPKG_ROOT="$work/elsewhere" PATH="$fake:$PATH" sh "debian/$1" "$2" >/dev/null 2>&1 || fail "debian/$step under DPKG_ROOT failed"
        if [ -s "$calls" ]; then fail "debian/$step under DPKG_ROOT ran udevadm $(tr '\n' ';' <"$calls")"; else pass "debian/$step under DPKG_ROOT leaves udev alone"; fi
    done
    # make uninstall without DESTDIR (here into a scratch PREFIX, so nothing of this
    # machine's goes), then with DESTDIR: only the first is the running system's.
    rm -f "$calls"
    with_private_run udev env PATH="$fake:$PATH" make --no-print-directory -s uninstall PREFIX="$work/uninstall-prefix" >/dev/null 2>&1 || fail "make uninstall PREFIX=scratch failed"
    if grep -qx 'trigger --action=change --sysname-match=uinput' "$calls" 2>/dev/null; then
        pass "make uninstall replays /dev/uinput"
    else
        fail "make uninstall does not replay /dev/uinput (udevadm was asked: $(tr '\n' ';' 2>/dev/null <"$calls"))"
    fi
    rm -f "$calls"
    with_private_run udev env PATH="$fake:$PATH" make --no-print-directory -s uninstall DESTDIR="$work/uninstall-root" PREFIX=/usr/local >/dev/null 2>&1 || fail "make uninstall DESTDIR= failed"
    if [ -s "$calls" ]; then fail "make uninstall DESTDIR=... ran udevadm: $(tr '\n' ';' <"$calls")"; else pass "make uninstall DESTDIR=... leaves udev alone"; fi
}

# with_private_run udev|no-udev COMMAND...: COMMAND in a private mount namespace whose /run is
# an empty tmpfs, holding udev's runtime folder (udev) or not (no-udev).
with_private_run() {
    local udev=$1
    shift
    unshare --mount --propagation private sh -c '
        set -e
        mount -t tmpfs tmpfs /run
        if [ "$1" = udev ]; then mkdir /run/udev; fi
        shift
        exec "$@"' _ "$udev" "$@"
}

check_shell() {
    section "shell scripts"
    if ! command -v shellcheck >/dev/null; then cannot_check "shellcheck is not installed (apt-get install shellcheck)"; return; fi
    local scripts=(.ci/run scripts/*.sh tests/*.sh tests/packaging/*.sh tests/boot/*.sh clients/c/tests/*.sh clients/python/*.sh examples/sketch/*.sh tests/krita/*.sh tests/readme/*.sh tests/desktop/*.sh tests/interface/*.sh tests/make-run/*.sh apps/settings/tests/*.sh)
    [ -d fuzz ] && scripts+=(fuzz/*.sh)
    if shellcheck --severity=warning "${scripts[@]}"; then
        pass "shellcheck: ${#scripts[@]} scripts"
    else
        fail "shellcheck"
    fi
}

# compare_lists LABEL WHAT-THE-PROGRAM-SAYS WHAT-THE-PAGE-SAYS (a man page, README): one item a line each.
compare_lists() {
    local label=$1 program=$2 page=$3
    if [ -z "$program" ]; then fail "$label: nothing found in the program's own list"; return; fi
    local missing extra
    missing=$(comm -23 <(sort -u <<<"$program") <(sort -u <<<"$page"))
    extra=$(comm -13 <(sort -u <<<"$program") <(sort -u <<<"$page"))
    if [ -z "$missing$extra" ]; then
        pass "$label: $(sort -u <<<"$program" | wc -l) items agree"
    else
        fail "$label: missing from the page: ${missing:-none}; only on the page: ${extra:-none}"
    fi
}

check_man_pages() {
    section "man pages"
    if ! command -v scdoc >/dev/null; then cannot_check "scdoc is not installed (apt-get install scdoc)"; return; fi
    if ! make --no-print-directory -s man >"$work/man.log" 2>&1; then
        fail "make man:"$'\n'"$(cat "$work/man.log")"; return
    fi
    local page
    for page in .build/man/pencild.8 .build/man/pencilctl.1 .build/man/pencild.conf.5 .build/man/pencil-actions.1; do
        [ -s "$page" ] || fail "not built: $page"
    done
    if ! command -v man >/dev/null; then
        cannot_check "man is not installed (apt-get install man-db): the pages' rendering is not checked"
    else
        for page in .build/man/pencild.8 .build/man/pencilctl.1 .build/man/pencild.conf.5 .build/man/pencil-actions.1; do
            if MANWIDTH=80 man -l "$page" 2>"$work/man-render.log" | grep -q '^NAME'; then
                pass "man renders $(basename "$page")"
            else
                fail "man cannot render $page: $(cat "$work/man-render.log")"
            fi
        done
    fi
    local bin
    bin=$(swift build --show-bin-path)

    # pencild: the options of --help and of OPTIONS in pencild(8).
    compare_lists "pencild(8) options" \
        "$("$bin/pencild" --help | grep -oE '^ +--[a-z-]+' | tr -d ' ')" \
        "$(sed -n '/^# OPTIONS/,/^# /p' man/pencild.8.scd | grep -oE '^\*--[a-z-]+\*' | tr -d '*')"

    # pencil-actions: the options of --help and of OPTIONS in pencil-actions(1).
    compare_lists "pencil-actions(1) options" \
        "$("$bin/pencil-actions" --help | grep -oE '^ +--[a-z-]+' | tr -d ' ')" \
        "$(sed -n '/^# OPTIONS/,/^# /p' man/pencil-actions.1.scd | grep -oE '^\*--[a-z-]+\*' | tr -d '*')"

    # pencilctl: each command with its options ("monitor --json"), and each command alone.
    local usage
    usage=$("$bin/pencilctl" --help)
    compare_lists "pencilctl(1) commands and options" \
        "$(sed -n 's/^  pencilctl //p' <<<"$usage" | while read -r command rest; do
               echo "$command"
               grep -oE -- '--[a-z-]+' <<<"$rest" | sed "s/^/$command /"
           done)" \
        "$(sed -n '/^# COMMANDS/,/^# /p' man/pencilctl.1.scd | grep -E '^\*[a-z]' | grep -v '^\*help\*' |
           while read -r line; do
               command=$(sed -E 's/^\*([a-z]+).*/\1/' <<<"$line")
               echo "$command"
               grep -oE -- '--[a-z-]+' <<<"$line" | sed "s/^/$command /"
           done)"

    # pencild.conf(5): the keys the daemon's parser knows, section by section...
    compare_lists "pencild.conf(5) keys" \
        "$(grep -oE 'case \("[A-Za-z]+", "[A-Za-z]+"\)' Sources/PencilDaemon/ConfigurationFile.swift |
           sed -E 's/case \("([A-Za-z]+)", "([A-Za-z]+)"\)/\1 \2/')" \
        "$(awk '/^# \[/ { section = substr($2, 2, length($2) - 2) } section && /^\*[A-Za-z]+=\*$/ { gsub(/[*=]/, ""); print section, $0 }' man/pencild.conf.5.scd)"
    # ...and the page's example is a file pencild accepts.
    sed -n '/^# EXAMPLE/,/^# /p' man/pencild.conf.5.scd | sed -n '/^```$/,/^```$/p' | grep -v '^```$' >"$work/example.conf"
    if [ -s "$work/example.conf" ] && "$bin/pencild" --config "$work/example.conf" --version >"$work/example.log" 2>&1; then
        pass "pencild accepts pencild.conf(5)'s example"
    else
        fail "pencild refuses pencild.conf(5)'s example: $(cat "$work/example.log" 2>/dev/null)"
    fi
}

check_clients() {
    section "clients against a running pencild"
    local bin
    bin=$(swift build --show-bin-path)
    if tests/packaging/client.sh "$bin" >"$work/client.log" 2>&1; then
        grep -E '^  (ok|skipped):' "$work/client.log"
        passed=$((passed + $(grep -c '^  ok:' "$work/client.log")))
    else
        grep -vE '^<[0-9]>' "$work/client.log" | sed 's/^/  /' | head -n 60
        fail "tests/packaging/client.sh (pencild's log is in its output above)"
    fi
}

# The files under DIR to scan, NUL-separated: the tracked ones in a git checkout, all but
# build output otherwise. This file is left out, as it names the patterns.
scanned_files() {
    local dir=$1
    if [ -e "$dir/.git" ] && command -v git >/dev/null; then
        git -C "$dir" ls-files -z -- . ':!tests/packaging/run.sh'
    else
        (cd "$dir" && find . \( -name '.build*' -o -name .git \) -prune -o -type f ! -path ./tests/packaging/run.sh -print0)
    fi
}

# The lines of the files under DIR that point outside the repository: the contract lives in
# docs/. The one exception is the recordings' default place beside the repository
# (PENCILD_RECORDINGS), kept outside for their size and licences.
outside_citations() {
    local dir=$1
    (cd "$dir" || exit; scanned_files . | xargs -0 grep -nIE '(\.\./)+shared/|shared/design' -- 2>/dev/null; true) |
        grep -vE '(\.\./)+shared/recordings' || true
}

# The docs/*.md that the files under DIR cite and that do not exist.
missing_docs() {
    local dir=$1 cited
    for cited in $( (cd "$dir" || exit; scanned_files . | xargs -0 grep -hoIE 'docs/[A-Za-z0-9_-]+\.md' -- 2>/dev/null; true) | sort -u); do
        [ -f "$dir/$cited" ] || echo "$cited"
    done
}

check_citations() {
    section "citations stay inside the repository"
    # Positive control: the scan finds what it must, and lets the recordings' place be.
    local control="$work/citations"
    mkdir -p "$control/docs"
    printf '%s\n' '# see ../shared/design/protocol.md' '// shared/design/gestures.md, "Hover"' \
        'recordings: ../shared/recordings' 'the rules: docs/protocol.md, docs/absent.md' >"$control/notes"
    touch "$control/docs/protocol.md"
    local found
    found=$(outside_citations "$control" | wc -l)
    if [ "$found" -eq 2 ] && [ "$(missing_docs "$control")" = docs/absent.md ]; then
        pass "the scan finds a citation outside the repository and a missing document"
    else
        fail "the scan's control: $found outside citations found (2 expected), missing: $(missing_docs "$control")"
    fi
    local outside missing
    outside=$(outside_citations "$repo")
    missing=$(missing_docs "$repo")
    if [ -z "$outside" ]; then pass "no file cites a path outside the repository"; else fail "cited outside the repository:"$'\n'"$outside"; fi
    if [ -z "$missing" ]; then pass "every docs/*.md cited exists"; else fail "cited and missing: $missing"; fi
}

# The mirror's libinput quirk (libinput-quirks/): in the folder where this machine's libinput keeps
# its own quirks; matching the UNIQ that pencild's udev rule gives a mirror; in the Debian package,
# which Breaks the libinput that cannot read it; and by `make install` only where libinput knows
# AttrIsVirtual (an older one that meets the key reads no quirk at all): in a stand-in of
# libinput's folder that uses the key, and not in one that does not.
check_libinput_quirk() {
    section "libinput quirk for the mirror"
    local name=20-pencild-mirror.quirks dir own uniq
    dir=$(make --no-print-directory -s print-dirs | sed -n 's/^libinput-quirks=//p')
    own=$(dpkg-query -L libinput-bin 2>/dev/null | grep -m1 '/10-generic-[a-z]*\.quirks$' || true)
    if [ -z "$own" ]; then
        cannot_check "libinput's own quirks are not installed (apt-get install libinput-bin)"
    elif [ "$(dirname "$own")" = "$dir" ]; then
        pass "installed in $dir, where libinput keeps its own quirks ($(basename "$own"))"
    else
        fail "installed in $dir, but libinput keeps its own quirks in $(dirname "$own")"
    fi
    uniq=$(sed -n 's/^MatchUniq=//p' "libinput-quirks/$name")
    if [ -n "$uniq" ] && grep -q "^DEVPATH==\"/devices/virtual/input/\*\", ATTRS{phys}==\"\*-pencild\", ENV{UNIQ}=\"$uniq\"$" udev-rules/70-pencild.rules; then
        pass "70-pencild.rules gives a mirror (a virtual input device whose phys ends in -pencild) the UNIQ the quirk matches, $uniq"
    else
        fail "70-pencild.rules does not give a mirror the UNIQ the quirk matches (MatchUniq=${uniq:-nothing})"
    fi
    if grep -qx "${dir#/}/$name" debian/pencild-libinput-quirks.install &&
        grep -q "LIBINPUT_QUIRKS_DIR=$dir " debian/rules && grep -q 'LIBINPUT_MIRROR_QUIRK=yes$' debian/rules &&
        sed -n '/^Package: pencild-libinput-quirks$/,/^$/p' debian/control | grep -qx 'Breaks: libinput10 (<< 1.28.901)'; then
        pass "the package pencild-libinput-quirks holds $dir/$name and Breaks libinput10 (<< 1.28.901)"
    else
        fail "debian/ does not put $dir/$name in pencild-libinput-quirks with Breaks: libinput10 (<< 1.28.901)"
    fi
    local knows="$work/libinput-knows" older="$work/libinput-older" staged="$work/quirk-root"
    mkdir -p "$knows" "$older"
    printf '[A virtual mouse]\nMatchName=*Virtual Mouse*\nAttrIsVirtual=1\n' >"$knows/30-vendor-example.quirks"
    printf '[A tablet]\nMatchName=*Tablet*\nAttrTabletSmoothing=1\n' >"$older/50-system-example.quirks"
    # An earlier install's copy of the quirk is not the libinput's word.
    cp "libinput-quirks/$name" "$older/"
    make --no-print-directory -s install-libinput-quirks DESTDIR="$staged" LIBINPUT_QUIRKS_DIR="$knows" >/dev/null
    make --no-print-directory -s install-libinput-quirks DESTDIR="$staged" LIBINPUT_QUIRKS_DIR="$older" >/dev/null
    if cmp -s "libinput-quirks/$name" "$staged$knows/$name" && [ ! -e "$staged$older/$name" ]; then
        pass "make install puts it beside a libinput's quirks that use AttrIsVirtual, not beside older ones"
    else
        fail "make install: beside quirks that use AttrIsVirtual: $([ -e "$staged$knows/$name" ] && echo installed || echo missing); beside older ones: $([ -e "$staged$older/$name" ] && echo installed || echo absent)"
    fi
    make --no-print-directory -s install-libinput-quirks DESTDIR="$staged" LIBINPUT_QUIRKS_DIR="$older" LIBINPUT_MIRROR_QUIRK=yes >/dev/null
    make --no-print-directory -s install-libinput-quirks DESTDIR="$staged/no" LIBINPUT_QUIRKS_DIR="$knows" LIBINPUT_MIRROR_QUIRK=no >/dev/null
    make --no-print-directory -s uninstall-libinput-quirks DESTDIR="$staged" LIBINPUT_QUIRKS_DIR="$knows"
    if [ -e "$staged$older/$name" ] && [ ! -e "$staged/no$knows/$name" ] && [ ! -e "$staged$knows/$name" ]; then
        pass "LIBINPUT_MIRROR_QUIRK=yes installs it regardless, =no never; make uninstall removes it"
    else
        fail "LIBINPUT_MIRROR_QUIRK=yes, =no or make uninstall did not do what they say"
    fi
}

# README's *Building* against what the build needs: its apt-get line is the list
# scripts/install-deps.sh installs for `make run`, and it names every program the package
# installs (the Makefile's PROGRAMS) and pencil-bench.
check_readme_building() {
    section "README, Building"
    local building line wanted program missing=""
    building=$(awk '/^## Building/ { on = 1; next } /^## / { on = 0 } on' README.md)
    line=$(sed -n 's/^sudo apt-get install //p' <<<"$building" | head -n 1)
    wanted=$(scripts/install-deps.sh --list build)
    compare_lists "README's Building line against install-deps.sh build" "$(tr ' ' '\n' <<<"$wanted")" "$(tr ' ' '\n' <<<"$line")"
    for program in $(make --no-print-directory -s print-programs) pencil-bench; do
        grep -q "\`$program\`" <<<"$building" || missing+=" $program"
    done
    if [ -z "$missing" ]; then pass "README's Building names every program"; else fail "README's Building does not name:$missing"; fi
}

check_citations
check_readme_building
check_shell
check_libinput_quirk
check_maintainer_scripts
check_udev_rule
check_install /usr/local
check_install /usr
check_man_pages
check_clients

summary
