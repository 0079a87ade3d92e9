# pencild: build, run, test, install.
#
#   make run          build and show a pen live (real pens, or the demo pen)
#   make test         everything: build, unit tests, packaging checks, the C client library, the Krita plugin, the desktops' focus providers, fuzzers, boot tier, README on a fresh Debian, kernel tier
#   make install      PREFIX=/usr/local by default; DESTDIR honoured
#   make deb          the Debian packages, in .build/deb
#
# The targets run one after another: a Swift build already uses every core.

.NOTPARALLEL:
.DEFAULT_GOAL := build

SWIFT ?= swift
CONFIGURATION ?= release
SWIFT_BUILD_FLAGS ?=
# Release binaries carry the Swift runtime inside: the service needs no toolchain at run
# time, and the daemon's resident memory stays small (no shared runtime libraries mapped).
RELEASE_FLAGS ?= --static-swift-stdlib

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DOCDIR ?= $(PREFIX)/share/doc/pencild
MANDIR ?= $(PREFIX)/share/man
# Krita finds Python plugins in krita/pykrita under each of $XDG_DATA_DIRS (/usr/local/share
# and /usr/share by default) and under the user's own ~/.local/share.
KRITA_PLUGIN_DIR ?= $(PREFIX)/share/krita/pykrita
# pencil-actions' KWin script (it finds it beside its bin/) and GNOME Shell extension (GNOME
# Shell finds extensions in gnome-shell/extensions under each of $XDG_DATA_DIRS).
PENCIL_ACTIONS_DATA_DIR ?= $(PREFIX)/share/pencil-actions
GNOME_EXTENSIONS_DIR ?= $(PREFIX)/share/gnome-shell/extensions
GNOME_EXTENSION := pencil-actions-focus@pencild.org
# libinput reads its quirks from its own data folder, whatever PREFIX is. The mirror's quirk
# (libinput-quirks/) goes there only where that libinput knows AttrIsVirtual: "auto" looks
# for the key in libinput's own quirks (they use it from 1.28.901 on), "yes" installs it
# regardless (the Debian package, whose Breaks says the same), "no" never.
LIBINPUT_QUIRKS_DIR ?= /usr/share/libinput
LIBINPUT_MIRROR_QUIRK ?= auto
MIRROR_QUIRK := 20-pencild-mirror.quirks
# Under /usr the distribution's directories apply; anywhere else the PREFIX's own
# lib/systemd and lib/udev, which systemd and udev also search (for /usr/local).
ifeq ($(PREFIX),/usr)
SYSTEMD_SYSTEM_UNIT_DIR ?= $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || echo /usr/lib/systemd/system)
SYSTEMD_USER_UNIT_DIR ?= $(shell pkg-config --variable=systemduserunitdir systemd 2>/dev/null || echo /usr/lib/systemd/user)
UDEV_RULES_DIR ?= $(shell d=$$(pkg-config --variable=udevdir udev 2>/dev/null) && echo $$d/rules.d || echo /usr/lib/udev/rules.d)
SYSUSERS_DIR ?= $(shell pkg-config --variable=sysusersdir systemd 2>/dev/null || echo /usr/lib/sysusers.d)
else
SYSTEMD_SYSTEM_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
SYSTEMD_USER_UNIT_DIR ?= $(PREFIX)/lib/systemd/user
UDEV_RULES_DIR ?= $(PREFIX)/lib/udev/rules.d
SYSUSERS_DIR ?= $(PREFIX)/lib/sysusers.d
endif

PROGRAMS := pencild pencilctl pencil-actions

# The C client library (clients/c, built with meson): where it installs, and its build folders.
MESON ?= meson
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
LIBDIR ?= $(PREFIX)/lib$(if $(MULTIARCH),/$(MULTIARCH))
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
C_BUILD_DIR := .build-c
C_ASAN_BUILD_DIR := .build-c-asan
C_RELEASE_BUILD_DIR := .build-c-release
# Real pen recordings for the conformance tests: kept outside the repository.
RECORDINGS_CANDIDATE := $(abspath $(CURDIR)/../shared/recordings)
PENCILD_RECORDINGS ?= $(if $(wildcard $(RECORDINGS_CANDIDATE)/README.md),$(RECORDINGS_CANDIDATE),)
export PENCILD_RECORDINGS

# Man pages: scdoc sources in man/, built into .build/man.
MAN_SOURCES := $(wildcard man/*.scd)
MAN_PAGES := $(patsubst man/%.scd,.build/man/%,$(MAN_SOURCES))
# The settings window (apps/settings): a Python program with its desktop entry, icon and page.
SETTINGS_DIR := apps/settings
SETTINGS_MAN := .build/man/pencil-settings.1
APPLICATIONS_DIR ?= $(PREFIX)/share/applications
ICONS_DIR ?= $(PREFIX)/share/icons/hicolor/scalable/apps
# Where a source install keeps its own copy of the Python client, for a system without
# python3-pencild (the Debian package depends on that instead).
SETTINGS_LIB_DIR ?= $(PREFIX)/share/pencil-settings
SCDOC ?= scdoc
# Where `make deb` leaves the packages.
DEB_DIR ?= .build/deb

KERNEL_SUITE ?= tests/kernel/run-suite.sh
FUZZ_SECONDS ?= 20
FUZZ_LONG_SECONDS ?= 600

.PHONY: build build-debug run deps deps-test test test-generated test-new-gesture test-purity test-swift test-sanitizers test-asan test-tsan test-packaging test-client-python test-demo test-make-run test-krita test-krita6 test-settings test-palette test-focus \
        test-client-c build-client-c install-client-c uninstall-client-c test-fuzz test-boot test-readme test-desktop test-desktop-vm test-kernel demo bench fuzz install uninstall clean man deb

build:
	$(SWIFT) build -c $(CONFIGURATION) $(RELEASE_FLAGS) $(SWIFT_BUILD_FLAGS)

build-debug:
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

man: $(MAN_PAGES) $(SETTINGS_MAN)

$(SETTINGS_MAN): $(SETTINGS_DIR)/pencil-settings.1.scd
	@command -v $(SCDOC) >/dev/null || { echo "man pages: scdoc is missing (apt-get install scdoc)" >&2; exit 1; }
	@mkdir -p $(@D)
	$(SCDOC) < $< > $@.tmp && mv $@.tmp $@

.build/man/%: man/%.scd
	@command -v $(SCDOC) >/dev/null || { echo "man pages: scdoc is missing (apt-get install scdoc)" >&2; exit 1; }
	@mkdir -p $(@D)
	$(SCDOC) < $< > $@.tmp && mv $@.tmp $@

# The Debian packages (debian/), with dpkg-buildpackage. Swift is not a Debian package,
# so dpkg cannot check that build-dependency: it is checked here. Nothing is fetched
# from the network. The packages end up in $(DEB_DIR).
deb:
	@command -v $(SWIFT) >/dev/null || { echo "make deb: $(SWIFT) is not on PATH: a Swift 6 toolchain is needed (swift.org)" >&2; exit 1; }
	@command -v dpkg-buildpackage >/dev/null || { echo "make deb: dpkg-buildpackage is missing (make deps)" >&2; exit 1; }
	dpkg-buildpackage -us -uc -b
	@mkdir -p $(DEB_DIR)
	@version=$$(dpkg-parsechangelog -S Version) && arch=$$(dpkg --print-architecture) && \
	for file in $$(sed -n 's/^\([^ ]*\.d\?deb\) .*/\1/p' debian/files) \
	            pencild_$${version}_$$arch.buildinfo pencild_$${version}_$$arch.changes; do \
	    mv "../$$file" $(DEB_DIR)/ || exit 1; \
	done
	@ls -1 $(DEB_DIR)

deps:
	scripts/install-deps.sh build

deps-test:
	scripts/install-deps.sh test

run: deps build
	scripts/dev-run.sh "$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)"

# The GTK 4 sketch demo (examples/sketch) beside pencild's demo pen (and the pens this user
# can read), on a private socket; pencild stops when the demo's window closes.
demo: build
	scripts/install-deps.sh demo
	scripts/dev-run.sh "$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)" --demo-pen \
	    "$$(scripts/gi-python.sh)" examples/sketch/sketch.py

# --- tests -------------------------------------------------------------------

test: deps-test test-generated test-new-gesture build-debug test-purity test-swift test-sanitizers test-packaging test-client-python test-demo test-make-run test-settings test-palette test-krita test-focus test-client-c test-fuzz test-boot test-readme test-krita6 test-desktop test-desktop-vm test-kernel
	@echo "make test: all passed"

# The pure core (PencilInput, GestureRecognizer, PencilProtocol, JSON, ...) cannot read the
# clock or make a system call: a snippet that does fails to compile in it, and compiles in
# the daemon. Against the debug build's modules; a few seconds.
test-purity: build-debug
	PURE_CORE_MODULES="$$($(SWIFT) build $(SWIFT_BUILD_FLAGS) --show-bin-path)/Modules" scripts/check-pure-core.sh

# The files generated from interfaces/org.pencild.Pen.varlink (scripts/generate-from-interface) are up
# to date, and the check that says so fails on a stale copy.
test-generated:
	tests/interface/generated-names.sh

# A one-shot gesture with its own machine, added in six files to a copy of the tree, which then
# builds and tests whole (the Swift and fuzz packages, both clients, the settings window).
test-new-gesture:
	bash tests/interface/new-gesture.sh

# The tests' outside varlink client: the `varlink` package from PyPI in a private venv.
# A venv that could not be made fails the target first (TEST_VENV), rather than leave the tests
# whatever python3 this machine happens to have; TEST_ENV stays a plain assignment, so that what
# stands before it (LSAN_OPTIONS) still reaches swift test.
TEST_VENV = scripts/varlink-venv.sh >/dev/null
TEST_ENV = PENCILD_TEST_PYTHON=$$(scripts/varlink-venv.sh)

test-swift:
	@if [ -n "$(PENCILD_RECORDINGS)" ]; then echo "recordings: $(PENCILD_RECORDINGS)"; \
	 elif [ "$${CI:-}" = true ]; then echo "recordings: not found (set PENCILD_RECORDINGS): under CI the tests that need them fail"; \
	 else echo "recordings: not found (set PENCILD_RECORDINGS): the tests that need them are skipped (they fail under CI=true)"; fi
	$(TEST_VENV)
	$(TEST_ENV) $(SWIFT) test $(SWIFT_BUILD_FLAGS)

# The whole suite again under AddressSanitizer (with LeakSanitizer) and ThreadSanitizer, each
# in its own build folder. Leaks inside Foundation's Process and XCTest, which only the test
# harness uses, are suppressed; pencild's own code stays checked.
test-sanitizers: test-asan test-tsan

test-asan:
	$(SWIFT) build --sanitize=address --scratch-path .build-asan
	$(TEST_VENV)
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/leak-suppressions.txt:print_suppressions=0 \
	    $(TEST_ENV) $(SWIFT) test --sanitize=address --scratch-path .build-asan

test-tsan:
	$(SWIFT) build --sanitize=thread --scratch-path .build-tsan
	$(TEST_VENV)
	$(TEST_ENV) $(SWIFT) test --sanitize=thread --scratch-path .build-tsan

test-packaging:
	tests/packaging/run.sh

# The Python client library (clients/python): installed with pip into a venv, mypy --strict,
# and its tests against the debug pencild and pencilctl, on the shared recordings.
test-client-python: build-debug
	clients/python/run-tests.sh "$$($(SWIFT) build --show-bin-path)"

# The GTK 4 sketch demo on a private Broadway display, against pencild replaying a recording
# with a double-tap: the demo's log must show the switch to the eraser.
test-demo: build-debug
	examples/sketch/test-demo.sh "$$($(SWIFT) build --show-bin-path)"

# `make run` as a person without a tablet meets it: the watch in a tmux terminal, the demo
# pen's gestures a key away, pencilctl finding that pencild with nothing set.
test-make-run: build-debug
	tests/make-run/run.sh "$$($(SWIFT) build --show-bin-path)"

# The settings window (apps/settings) on a private X server (Xvfb) with its own D-Bus session,
# driven through the accessibility tree against pencild replaying a test pen; its screenshots
# go to .build/settings-screenshots.
test-settings: build-debug
	apps/settings/tests/test-settings.sh "$$($(SWIFT) build --show-bin-path)"

# The system palette (apps/palette) on a private X server (Xvfb) with its own D-Bus session,
# over an app that writes down what it receives, driven with xdotool and through the
# accessibility tree; then opened by pencil-actions for the debug pencild's demo pen.
# Its screenshots go to .build/palette-screenshots.
test-palette: build-debug
	apps/palette/tests/test-palette.sh "$$($(SWIFT) build --show-bin-path)"

# The Krita plugin (integrations/krita) in Debian's Krita on a private Xvfb display, against
# the debug pencild: absent at Krita's start, then replaying a double-tap and a squeeze.
test-krita: build-debug
	bash tests/krita/run.sh "$$($(SWIFT) build --show-bin-path)"

# The same plugin in Krita 6 (Qt 6, PyQt6) from Debian experimental, in a fresh Debian unstable
# (mmdebstrap) with the packages of `make deb` (made by test-boot before it, within make test):
# it loads, its docker shows, a double-tap toggles the eraser, a squeeze opens the pop-up
# palette, a click outside closes it without paint; Krita's log and screenshots in
# .build/krita6-logs. Two to three minutes.
test-krita6:
	bash tests/krita/krita6.sh

# pencil-actions' KDE and GNOME focus providers against a stand-in desktop on a private session
# bus (tests/focus; neither KWin nor GNOME Shell runs there), and the Wayland protocol code
# kept in the tree against what its XML gives. The X11 and sway desktops are the kernel tier's
# (focus-x11, focus-sway), where the virtual keyboard exists.
test-focus: build-debug
	scripts/generate-wayland-protocols.sh --check
	/usr/bin/python3 tests/focus/desktop_bus_test.py "$$($(SWIFT) build --show-bin-path)"

# libpencil (clients/c): its tests against the debug pencild and the shared recordings, then
# the same C programs under valgrind and in an AddressSanitizer build; then an install into a
# scratch DESTDIR, compiled against with pkg-config, and its uninstall.
# meson_setup DIR OPTIONS...: configures DIR, or reconfigures it when it exists.
meson_setup = if [ -d "$(1)/meson-private" ]; then $(MESON) setup --reconfigure "$(1)" clients/c $(2); \
	else $(MESON) setup "$(1)" clients/c $(2); fi

test-client-c: build-debug
	@bin=$$($(SWIFT) build --show-bin-path) && \
	$(call meson_setup,$(C_BUILD_DIR),-Dpencild-bin-dir=$$bin) >/dev/null && \
	$(call meson_setup,$(C_ASAN_BUILD_DIR),-Dpencild-bin-dir=$$bin -Db_sanitize=address -Db_lundef=false -Dman-pages=disabled) >/dev/null
	$(MESON) compile -C $(C_BUILD_DIR)
	$(MESON) test -C $(C_BUILD_DIR) --print-errorlogs
	$(MESON) test -C $(C_BUILD_DIR) --print-errorlogs --setup valgrind
	$(MESON) compile -C $(C_ASAN_BUILD_DIR)
	$(MESON) test -C $(C_ASAN_BUILD_DIR) --print-errorlogs
	clients/c/tests/install.sh

build-client-c:
	$(call meson_setup,$(C_RELEASE_BUILD_DIR),--buildtype=release -Dtests=false --prefix=$(PREFIX) --libdir=$(LIBDIR) --includedir=$(INCLUDEDIR) --mandir=$(MANDIR)) >/dev/null
	$(MESON) compile -C $(C_RELEASE_BUILD_DIR)

install-client-c: build-client-c
	DESTDIR="$(DESTDIR)" $(MESON) install -C $(C_RELEASE_BUILD_DIR) --no-rebuild
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi

uninstall-client-c:
	rm -f "$(DESTDIR)$(LIBDIR)"/libpencil.so "$(DESTDIR)$(LIBDIR)"/libpencil.so.0 "$(DESTDIR)$(LIBDIR)"/libpencil.so.0.* \
	    "$(DESTDIR)$(LIBDIR)/pkgconfig/pencil.pc" "$(DESTDIR)$(INCLUDEDIR)/pencil.h" "$(DESTDIR)$(MANDIR)/man3/libpencil.3"

test-fuzz:
	fuzz/run.sh --seconds $(FUZZ_SECONDS)

# The boot tier: the .deb installed in a Debian system booted with systemd as PID 1
# (tests/boot/README.md). Its own VM, before the kernel tier's.
test-boot:
	bash tests/boot/run.sh

# README's Krita and settings sections followed word for word on a fresh Debian (mmdebstrap)
# by a person with sudo: the packages of `make deb` (made by test-boot before it), Krita
# from the archive, the plugin's docker and the settings window against pencild.
test-readme:
	bash tests/readme/run.sh

# pencil-actions' per-app bindings on GNOME Shell (its extension) and KWin (its script), with
# real GTK 4 and Qt 6 apps, and Krita with its plugin, in a fresh Debian (mmdebstrap) of each
# suite people install, with the packages of `make deb`: GNOME Shell 48 and Krita 5.2 on Debian
# 13, GNOME Shell 50, KWin 6.7 and Krita 5.3 on testing, GNOME Shell 51 on unstable
# (tests/desktop/run.sh SUITE... runs some of them); logs in .build/desktop-logs/SUITE.
test-desktop:
	bash tests/desktop/run.sh

# What needs a kernel of its own: Debian booted under qemu with systemd and logind, its
# desktops reading the pen's mirror through their libinput (Debian 13: sway 1.10; Debian
# testing: KWin 6.7, then GNOME Shell 50); a GTK 4 and a Qt 6 app receive the pen, the eraser
# after a double-tap and each its own chord through pencild's keyboard. GNOME Shell 48 (Debian
# 13) passes the same in the VM when asked (DESKTOP_VM_DESKTOPS=gnome); make test leaves it to
# test-desktop, headless, which keeps CI within its time.
test-desktop-vm:
	DESKTOP_VM_DESKTOPS=sway bash tests/desktop/vm.sh
	DESKTOP_VM_SUITE=forky DESKTOP_VM_DESKTOPS="kwin gnome" README_SKIP_BUILD=1 bash tests/desktop/vm.sh

# Within `make test`, the boot tier has just made the packages from this tree.
test: export README_SKIP_BUILD = 1

# The kernel tier's suite installs what it needs and boots a VM; then the udev rule and
# pencilctl record are checked in the VM with a virtual pen.
test-kernel: build-debug
	@if [ ! -f "$(KERNEL_SUITE)" ]; then \
	    echo "test-kernel: $(KERNEL_SUITE) is missing: the kernel test tier is not in this tree" >&2; exit 1; fi
	bash "$(KERNEL_SUITE)"
	tests/kernel/vm-run.sh tests/packaging/vm-udev-record.sh "$$($(SWIFT) build --show-bin-path)"

# Figures, printed: the input pipeline on a real recording (needs PENCILD_RECORDINGS),
# then the daemon's latency, CPU and memory with 1, 16 and 64 clients.
# Every benchmark, host and VM, in one run: the figures go to docs/benchmarks.md.
bench:
	bash bench/run.sh

fuzz:
	fuzz/run.sh --seconds $(FUZZ_LONG_SECONDS)

# --- installation ------------------------------------------------------------

install: build
	@bin=$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path) && \
	for program in $(PROGRAMS); do \
	    install -D -m 0755 "$$bin/$$program" "$(DESTDIR)$(BINDIR)/$$program" || exit 1; \
	done
	$(MAKE) --no-print-directory install-data install-client-c install-settings

# The settings window: the program (a launcher for its package in SETTINGS_LIB_DIR, beside a
# private copy of the Python client, which it uses only where python3-pencild is not
# installed), its desktop entry, icon and man page.
.PHONY: install-settings uninstall-settings
install-settings: $(SETTINGS_MAN)
	install -D -m 0755 $(SETTINGS_DIR)/pencil-settings "$(DESTDIR)$(BINDIR)/pencil-settings"
	install -d "$(DESTDIR)$(SETTINGS_LIB_DIR)/pencil_settings"
	install -m 0644 $(SETTINGS_DIR)/pencil_settings/*.py "$(DESTDIR)$(SETTINGS_LIB_DIR)/pencil_settings/"
	install -D -m 0644 $(SETTINGS_DIR)/org.pencild.Settings.desktop "$(DESTDIR)$(APPLICATIONS_DIR)/org.pencild.Settings.desktop"
	install -D -m 0644 $(SETTINGS_DIR)/org.pencild.Settings.svg "$(DESTDIR)$(ICONS_DIR)/org.pencild.Settings.svg"
	install -D -m 0644 $(SETTINGS_MAN) "$(DESTDIR)$(MANDIR)/man1/pencil-settings.1"
	install -d "$(DESTDIR)$(SETTINGS_LIB_DIR)/pencild"
	install -m 0644 clients/python/src/pencild/*.py clients/python/src/pencild/py.typed "$(DESTDIR)$(SETTINGS_LIB_DIR)/pencild/"

uninstall-settings:
	rm -f "$(DESTDIR)$(BINDIR)/pencil-settings" "$(DESTDIR)$(APPLICATIONS_DIR)/org.pencild.Settings.desktop" \
	    "$(DESTDIR)$(ICONS_DIR)/org.pencild.Settings.svg" "$(DESTDIR)$(MANDIR)/man1/pencil-settings.1"
	rm -rf "$(DESTDIR)$(SETTINGS_LIB_DIR)"

# Units, rules, documents and man pages only: what a package built elsewhere needs on top of the binaries.
.PHONY: install-data
install-data: man
	install -d "$(DESTDIR)$(SYSTEMD_SYSTEM_UNIT_DIR)" "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)" \
	    "$(DESTDIR)$(UDEV_RULES_DIR)" "$(DESTDIR)$(DOCDIR)"
	for mode in system user; do \
	    case $$mode in system) dir="$(DESTDIR)$(SYSTEMD_SYSTEM_UNIT_DIR)" ;; user) dir="$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)" ;; esac; \
	    sed 's|@bindir@|$(BINDIR)|g' "systemd/$$mode/pencild.service.in" > "$$dir/pencild.service" && \
	    chmod 0644 "$$dir/pencild.service" && \
	    install -m 0644 "systemd/$$mode/pencild.socket" "systemd/$$mode/pencild-pen.target" "$$dir/" || exit 1; \
	done
	sed 's|@bindir@|$(BINDIR)|g' systemd/user/pencil-actions.service.in > "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/pencil-actions.service"
	chmod 0644 "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/pencil-actions.service"
	install -m 0644 udev-rules/70-pencild.rules "$(DESTDIR)$(UDEV_RULES_DIR)/"
	# The group that may write /dev/uinput (the system service's, for the mirrors).
	install -D -m 0644 systemd/sysusers/pencild.conf "$(DESTDIR)$(SYSUSERS_DIR)/pencild.conf"
	# The uinput rule is an administrator's opt-in (docs/pencil-actions.md, "What the uinput rule allows"):
	# installed as an example, where udev never reads it; one an earlier install put in
	# udev's directory goes.
	rm -f "$(DESTDIR)$(UDEV_RULES_DIR)/71-pencil-actions-uinput.rules"
	# README and the documents it links to, in docs/ beside it as in the source tree.
	install -m 0644 README.md "$(DESTDIR)$(DOCDIR)/"
	install -d "$(DESTDIR)$(DOCDIR)/docs"
	install -m 0644 docs/*.md docs/*.png "$(DESTDIR)$(DOCDIR)/docs/"
	install -D -m 0644 examples/actions.conf "$(DESTDIR)$(DOCDIR)/examples/actions.conf"
	# The same file is the bindings pencil-actions uses while a person has none of their own.
	install -D -m 0644 examples/actions.conf "$(DESTDIR)$(PENCIL_ACTIONS_DATA_DIR)/actions.conf"
	install -m 0644 udev-rules/71-pencil-actions-uinput.rules "$(DESTDIR)$(DOCDIR)/examples/"
	# So is the pens' uaccess rule, which only a pencild run as a user service needs
	# (docs/installing.md, "User service").
	install -m 0644 udev-rules/71-pencild-user-mode.rules "$(DESTDIR)$(DOCDIR)/examples/"
	for page in $(MAN_PAGES); do \
	    section=$${page##*.}; \
	    install -D -m 0644 "$$page" "$(DESTDIR)$(MANDIR)/man$$section/$$(basename "$$page")" || exit 1; \
	done
	$(MAKE) --no-print-directory install-krita install-focus-integrations install-palette install-libinput-quirks

# An older libinput that meets a key it does not know reads no quirk at all, so "auto" does not
# count this quirk itself, which an earlier install may have left there.
.PHONY: install-libinput-quirks uninstall-libinput-quirks
install-libinput-quirks:
	@case "$(LIBINPUT_MIRROR_QUIRK)" in \
	    yes) ;; \
	    no) echo "libinput quirk for the mirror: not installed (LIBINPUT_MIRROR_QUIRK=no)"; exit 0 ;; \
	    auto) grep -qs --exclude=$(MIRROR_QUIRK) '^AttrIsVirtual=' $(LIBINPUT_QUIRKS_DIR)/*.quirks || { \
	        echo "libinput quirk for the mirror: not installed (the libinput of $(LIBINPUT_QUIRKS_DIR) does not know AttrIsVirtual, and smooths the mirror as the pen without it)"; \
	        exit 0; } ;; \
	    *) echo "LIBINPUT_MIRROR_QUIRK is auto, yes or no, not $(LIBINPUT_MIRROR_QUIRK)" >&2; exit 1 ;; \
	esac; \
	install -D -m 0644 libinput-quirks/$(MIRROR_QUIRK) "$(DESTDIR)$(LIBINPUT_QUIRKS_DIR)/$(MIRROR_QUIRK)" && \
	echo "libinput quirk for the mirror: $(DESTDIR)$(LIBINPUT_QUIRKS_DIR)/$(MIRROR_QUIRK)"

uninstall-libinput-quirks:
	rm -f "$(DESTDIR)$(LIBINPUT_QUIRKS_DIR)/$(MIRROR_QUIRK)"

# What tells pencil-actions the focused app on KDE Plasma (a KWin script it loads) and on
# GNOME (a Shell extension, enabled by the user with gnome-extensions enable).
.PHONY: install-focus-integrations uninstall-focus-integrations
install-focus-integrations:
	install -D -m 0644 integrations/kwin/kwin-focus.js "$(DESTDIR)$(PENCIL_ACTIONS_DATA_DIR)/kwin-focus.js"
	install -d "$(DESTDIR)$(GNOME_EXTENSIONS_DIR)/$(GNOME_EXTENSION)"
	install -m 0644 integrations/gnome-shell/$(GNOME_EXTENSION)/metadata.json integrations/gnome-shell/$(GNOME_EXTENSION)/extension.js \
	    integrations/gnome-shell/$(GNOME_EXTENSION)/palette.js "$(DESTDIR)$(GNOME_EXTENSIONS_DIR)/$(GNOME_EXTENSION)/"

# The system palette pencil-actions runs: its launcher beside its package, in pencil-actions'
# own folder (it is no command a person types).
.PHONY: install-palette
install-palette:
	install -D -m 0755 apps/palette/pencil-palette "$(DESTDIR)$(PENCIL_ACTIONS_DATA_DIR)/palette/pencil-palette"
	install -d "$(DESTDIR)$(PENCIL_ACTIONS_DATA_DIR)/palette/pencil_palette"
	install -m 0644 apps/palette/pencil_palette/*.py "$(DESTDIR)$(PENCIL_ACTIONS_DATA_DIR)/palette/pencil_palette/"

uninstall-focus-integrations:
	rm -rf "$(DESTDIR)$(PENCIL_ACTIONS_DATA_DIR)" "$(DESTDIR)$(GNOME_EXTENSIONS_DIR)/$(GNOME_EXTENSION)"

# The Krita plugin: its .desktop file, its package and a copy of the Python client beside it
# (pencild_krita/client), which the plugin uses where Krita's Python has no pencild of its
# own: a source install on Debian (pip is refused there, PEP 668), Krita's AppImage and
# Flatpak. For every user of this machine by default; for one user's Krita with
# KRITA_PLUGIN_DIR=$$HOME/.local/share/krita/pykrita (the Flatpak's:
# $$HOME/.var/app/org.kde.krita/data/krita/pykrita), which needs no build and no root.
.PHONY: install-krita uninstall-krita
install-krita:
	install -d "$(DESTDIR)$(KRITA_PLUGIN_DIR)/pencild_krita/client/pencild"
	install -m 0644 integrations/krita/pencild_krita.desktop "$(DESTDIR)$(KRITA_PLUGIN_DIR)/"
	install -m 0644 integrations/krita/pencild_krita/*.py integrations/krita/pencild_krita/Manual.html \
	    "$(DESTDIR)$(KRITA_PLUGIN_DIR)/pencild_krita/"
	install -m 0644 clients/python/src/pencild/*.py clients/python/src/pencild/py.typed \
	    "$(DESTDIR)$(KRITA_PLUGIN_DIR)/pencild_krita/client/pencild/"

uninstall-krita:
	rm -f "$(DESTDIR)$(KRITA_PLUGIN_DIR)/pencild_krita.desktop"
	rm -rf "$(DESTDIR)$(KRITA_PLUGIN_DIR)/pencild_krita"

# Where install puts things (the packaging checks read it).
.PHONY: print-dirs print-programs
print-programs:
	@echo $(PROGRAMS)

print-dirs:
	@echo "bin=$(BINDIR)"
	@echo "system=$(SYSTEMD_SYSTEM_UNIT_DIR)"
	@echo "user=$(SYSTEMD_USER_UNIT_DIR)"
	@echo "udev=$(UDEV_RULES_DIR)"
	@echo "sysusers=$(SYSUSERS_DIR)"
	@echo "lib=$(LIBDIR)"
	@echo "include=$(INCLUDEDIR)"
	@echo "man=$(MANDIR)"
	@echo "krita=$(KRITA_PLUGIN_DIR)"
	@echo "actions-data=$(PENCIL_ACTIONS_DATA_DIR)"
	@echo "gnome-extensions=$(GNOME_EXTENSIONS_DIR)"
	@echo "libinput-quirks=$(LIBINPUT_QUIRKS_DIR)"

uninstall:
	for program in $(PROGRAMS); do rm -f "$(DESTDIR)$(BINDIR)/$$program"; done
	for unit in pencild.service pencild.socket pencild-pen.target; do \
	    rm -f "$(DESTDIR)$(SYSTEMD_SYSTEM_UNIT_DIR)/$$unit" "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/$$unit"; \
	done
	rm -f "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/pencil-actions.service"
	rm -f "$(DESTDIR)$(UDEV_RULES_DIR)/70-pencild.rules" "$(DESTDIR)$(UDEV_RULES_DIR)/71-pencil-actions-uinput.rules"
	rm -f "$(DESTDIR)$(SYSUSERS_DIR)/pencild.conf"
	rm -rf "$(DESTDIR)$(DOCDIR)"
	@# On the running system, udev forgets the rules, and /dev/uinput loses an ACL that a
	@# uinput rule of an earlier install gave (scripts/release-uinput.sh).
	@if [ -z "$(DESTDIR)" ]; then sh scripts/release-uinput.sh; fi
	for page in $(MAN_PAGES); do \
	    rm -f "$(DESTDIR)$(MANDIR)/man$${page##*.}/$$(basename "$$page")"; \
	done
	$(MAKE) --no-print-directory uninstall-client-c uninstall-krita uninstall-settings uninstall-focus-integrations uninstall-libinput-quirks

clean:
	$(SWIFT) package clean
	rm -rf fuzz/.build .build-asan .build-tsan .build/man $(C_BUILD_DIR) $(C_ASAN_BUILD_DIR) $(C_RELEASE_BUILD_DIR)
