#!/usr/bin/env bash
# suite.sh BIN_DIR TEST_BUNDLE RECORDINGS [SCENARIOS [LIBINPUT_ROOT]]   (inside the VM, as root; run-suite.sh starts it)
#
# The kernel suite, in one boot: the uinput and udev smoke test, the Swift tests that need
# a real /dev/uinput (TEST_BUNDLE, when built), then the scenarios of suite.py against
# pencild as the system runs it, on the recordings BIN_DIR/pencil-test-recordings writes.
# Runs every part even when one fails; exits non-zero if any failed. RECORDINGS may be
# empty (the scenario that needs them then fails, saying so). LIBINPUT_ROOT is the tree of
# libinput-root.sh, in which the mirror-smoothing scenario runs Debian testing's libinput.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: suite.sh BIN_DIR TEST_BUNDLE RECORDINGS}
bundle=${2:-}
recordings=${3:-}
only=${4:-}   # scenario names, comma-separated: only those (and no smoke or Swift tests)
libinput_root=${5:-}
results=${VM_RESULTS:?suite.sh runs inside the VM (vm-run.sh sets VM_RESULTS)}
failed=()

part() { echo; echo "==== suite: $*"; }

# The udev rule the project installs, so that pens are tagged as on an installed system.
if [ -f udev-rules/70-pencild.rules ]; then
    cp udev-rules/70-pencild.rules /etc/udev/rules.d/
    udevadm control --reload
    echo "suite: installed udev-rules/70-pencild.rules"
fi

part "smoke: uinput and udev"
if [ -n "$only" ]; then
    echo "suite: only $only"
else
    bash "$here/smoke.sh" || failed+=(smoke)
fi

part "Swift tests that need /dev/uinput"
if [ -n "$only" ]; then
    echo "suite: only $only"
elif [ -n "$bundle" ] && [ -x "$bundle" ]; then
    PENCILD_RECORDINGS=$recordings "$bundle" --testing-library swift-testing \
        --filter 'EmulateCommandTests|VirtualDeviceTests' 2>&1 | sed 's/\x1b\[[0-9;]*m//g' | tee "$results/swift-tests.log"
    status=${PIPESTATUS[0]}
    if [ "$status" -ne 0 ]; then failed+=(swift-tests); fi
    if grep -q 'skipped: "no writable /dev/uinput' "$results/swift-tests.log"; then
        echo "suite: FAIL: the uinput tests were skipped inside the VM"
        failed+=(swift-tests-skipped)
    fi
else
    echo "suite: FAIL: no test bundle at '$bundle' (swift build --build-tests)"
    failed+=(swift-tests-missing)
fi

part "scenarios: pencild on live devices"
# The scenarios' pens, written by the project's evemu writer (tests/recordings).
scenario_recordings=$results/scenario-recordings
"$bin/pencil-test-recordings" "$scenario_recordings" || failed+=(scenario-recordings)
PENCILD_RECORDINGS=$recordings python3 "$here/suite.py" --bin "$bin" --results "$results" \
    --scenario-recordings "$scenario_recordings" ${only:+--only "$only"} ${libinput_root:+--libinput-root "$libinput_root"} || failed+=(scenarios)

echo
if [ "${#failed[@]}" -gt 0 ]; then
    echo "suite: FAILED: ${failed[*]}"
    exit 1
fi
echo "suite: PASS"
