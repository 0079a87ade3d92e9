#!/usr/bin/env bash
# install-deps.sh [--list] [build|test|demo|boot]
#
# Installs the Debian packages pencild needs and that are missing: "build" (the
# default) for building and running it, "test" for everything `make test` uses,
# "demo" for `make demo` (the GTK 4 sketch demo), "boot" for the boot tier
# (tests/boot) and `make deb`. With --list it only prints them, on one line: the one
# list README's *Building* gives (tests/packaging checks that they agree).
# Uses sudo when not run as root. Swift itself is not a Debian package: it must
# already be on PATH.
set -euo pipefail

list_only=""
if [ "${1:-}" = --list ]; then
    list_only=yes
    shift
fi
what=${1:-build}

# gcc, libjson-c-dev, meson, ninja-build: the C client library (clients/c), its JSON
# parser and its build; scdoc: its man page, libpencil(3), and pencild's (`make install` too).
# libxcb1-dev, libwayland-dev: pencil-actions' X11 and wlroots focus providers.
build_packages=(pkg-config libevdev-dev libudev-dev libsystemd-dev libwacom-dev libxcb1-dev libwayland-dev gcc libjson-c-dev meson ninja-build scdoc)
# systemd: systemd-analyze for the unit checks; udev: udevadm for the rule check;
# util-linux: unshare; python3-venv: a private venv for the `varlink` PyPI client;
# tmux: drives `pencilctl watch` in a terminal; shellcheck: the shell scripts;
# strace: the system calls pencild makes, against the unit's filter;
# valgrind: the C client library's tests run under it (leaks and memory errors);
# mypy: the Python client library's type hints (mypy --strict);
# python3-gi, python3-gi-cairo, gir1.2-gtk-4.0: the GTK 4 sketch demo (PyGObject, cairo drawing);
# libgtk-4-bin: broadwayd, the display the demo's test runs it on;
# man-db: renders the man pages (`man -l`) in the packaging checks;
# krita, python3-pyqt5 (only recommended by krita, yet without it no Python plugin loads),
# xvfb, xauth, xdotool: the Krita plugin's test, on a private X display;
# gir1.2-adw-1: libadwaita, the settings window's widgets (apps/settings); its test runs it on
# xvfb with a D-Bus session (dbus) and the accessibility bus (at-spi2-core), drives it with
# python3-pyatspi, takes screenshots with imagemagick's import and checks its desktop entry
# with desktop-file-utils.
# libwayland-bin: wayland-scanner, to check the Wayland protocol code kept in the tree;
# openbox, python3-tk, sway, foot: the focus-x11 and focus-sway scenarios of the kernel tier (a
# window manager that keeps _NET_ACTIVE_WINDOW, Tk windows; a headless wlroots compositor and
# its windows), with xvfb, x11-utils (xprop) and xdotool.
test_packages=(systemd udev util-linux python3 python3-venv tmux shellcheck strace valgrind
    mypy python3-gi python3-gi-cairo gir1.2-gtk-4.0 libgtk-4-bin man-db
    krita python3-pyqt5 xvfb xauth xdotool
    gir1.2-adw-1 dbus at-spi2-core python3-pyatspi imagemagick desktop-file-utils
    libwayland-bin openbox python3-tk sway foot x11-utils)

# The sketch demo: Python with PyGObject and GTK 4, cairo for its canvas (and libadwaita
# for the settings window).
demo_packages=(python3 python3-gi python3-gi-cairo gir1.2-gtk-4.0 gir1.2-adw-1)

# make deb: debhelper, dpkg-dev, fakeroot; dh-python, python3-all, python3-setuptools and
# pybuild-plugin-pyproject for python3-pencild; lintian checks the packages; mmdebstrap
# builds the guest's Debian from the archive apt uses; e2fsprogs writes it into an ext4
# image; qemu-system-x86 boots it with Debian's kernel (linux-image-amd64: its uinput
# module too).
boot_packages=(debhelper dpkg-dev fakeroot dh-python python3-all python3-setuptools pybuild-plugin-pyproject
    lintian mmdebstrap e2fsprogs qemu-system-x86 linux-image-amd64 kmod)

case $what in
    build) packages=("${build_packages[@]}") ;;
    demo) packages=("${build_packages[@]}" "${demo_packages[@]}") ;;
    test) packages=("${build_packages[@]}" "${test_packages[@]}" "${boot_packages[@]}") ;;
    boot) packages=("${build_packages[@]}" "${boot_packages[@]}") ;;
    *) echo "usage: $0 [--list] [build|test|demo|boot]" >&2; exit 2 ;;
esac
if [ -n "$list_only" ]; then
    echo "${packages[*]}"
    exit 0
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [ "${#missing[@]}" -gt 0 ]; then
    if ! command -v apt-get >/dev/null; then
        echo "install-deps: missing ${missing[*]}, and apt-get is not available: install them by hand" >&2
        exit 1
    fi
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install ${missing[*]}" >&2; exit 1; }
        sudo=(sudo)
    fi
    echo "install-deps: installing ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" ||
        { "${sudo[@]}" apt-get update -q && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; }
fi

if ! command -v swift >/dev/null; then
    echo "install-deps: swift is not on PATH. Install a Swift 6 toolchain (swift.org) and add its usr/bin to PATH." >&2
    exit 1
fi
