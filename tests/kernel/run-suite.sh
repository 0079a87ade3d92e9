#!/usr/bin/env bash
# run-suite.sh: the kernel test tier (`make test-kernel`), from the host.
#
# Installs what it needs (install-deps.sh: qemu, Debian's kernel, virtme-ng), builds pencild
# and pencilctl (release) and the test bundle (debug), boots one VM and runs suite.sh inside.
# Exits non-zero on any failure, and loudly when the VM itself could not run: a kernel tier
# that did not run has not passed. The VM's console and the suite's logs stay in the
# results folder (KERNEL_RESULTS, default .build/kernel-results).
#
# Environment: PENCILD_RECORDINGS (default ../shared/recordings beside the repository, when
# there), KERNEL_RESULTS, KERNEL_SKIP_BUILD=1 (use what is built), PENCILD_SUITE_ONLY
# (scenario names, comma-separated), and vm-run.sh's VM_* variables.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"

# shellcheck source=tests/loud.sh
. "$repo/tests/loud.sh"
loud() { banner test-kernel "$@"; }

# 1. What the VM needs (root: apt and /usr/local/bin).
if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null; then
    sudo=(sudo)
else
    loud "FAILED: cannot install the VM's dependencies: not root and no sudo"
    exit 1
fi
"${sudo[@]}" bash "$here/install-deps.sh" ||
    { loud "FAILED: the VM's dependencies could not be installed (above): the kernel tier did NOT run"; exit 1; }

# 2. The binaries the guest runs (it sees this machine's filesystem).
if [ "${KERNEL_SKIP_BUILD:-0}" != 1 ]; then
    { swift build -c release --static-swift-stdlib && swift build --build-tests; } ||
        { loud "FAILED: the build failed (above): the kernel tier did NOT run"; exit 1; }
fi
release_bin=$(swift build -c release --show-bin-path)
debug_bin=$(swift build --show-bin-path)
bundle="$debug_bin/pencildPackageTests.xctest"
for program in pencild pencilctl pencil-actions pencil-test-recordings; do
    [ -x "$release_bin/$program" ] || { loud "FAILED: $release_bin/$program is not built"; exit 1; }
done

recordings=${PENCILD_RECORDINGS:-}
if [ -z "$recordings" ] && [ -f "$repo/../shared/recordings/README.md" ]; then
    recordings=$(cd "$repo/../shared/recordings" && pwd)
fi
if [ -z "$recordings" ]; then
    echo "test-kernel: PENCILD_RECORDINGS is not set and ../shared/recordings is absent: the real-devices scenario will fail" >&2
fi
case "$recordings" in *[[:space:]]*) loud "FAILED: a recordings path with spaces cannot reach the VM: $recordings"; exit 1 ;; esac

# 3. One boot for the whole suite.
results=${KERNEL_RESULTS:-$repo/.build/kernel-results}
rm -rf "$results"
mkdir -p "$results"

# Debian testing's libinput, for the mirror-smoothing scenario (built afresh: about 20 s). Without
# it the scenario fails and says why.
libinput_root=""
case ",${PENCILD_SUITE_ONLY:-mirror-smoothing}," in
    *,mirror-smoothing,*)
        if bash "$here/libinput-root.sh" "$repo/.build/kernel-libinput-root"; then
            libinput_root=$repo/.build/kernel-libinput-root
        else
            echo "test-kernel: the libinput tree could not be built (above): the mirror-smoothing scenario will fail" >&2
        fi ;;
esac
set +e
VM_RESULTS_DIR=$results VM_TIMEOUT=${VM_TIMEOUT:-900} \
    bash "$here/vm-run.sh" "$here/suite.sh" "$release_bin" "$bundle" "$recordings" "${PENCILD_SUITE_ONLY:-}" "$libinput_root"
status=$?
set -e

case $status in
    0)
        echo "test-kernel: PASS (logs in $results)"
        ;;
    2 | 124 | 125)
        loud "FAILED: the VM did not run the suite (vm-run.sh exited $status).
The kernel tier has NOT passed. Console log: $results/console.log"
        ;;
    *)
        loud "FAILED: the kernel suite failed (status $status).
$(grep -E 'FAIL' "$results/script.log" 2>/dev/null | head -n 20)
Logs: $results/script.log, $results/pencild.log, console: $results/console.log"
        ;;
esac
exit "$status"
