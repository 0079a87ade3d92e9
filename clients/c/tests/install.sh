#!/usr/bin/env bash
# install.sh: `make install-client-c` into a scratch root puts the versioned library
# (soname libpencil.so.0, every symbol versioned PENCIL_0, exactly the functions pencil.h
# declares), the header, pencil.pc and libpencil(3) where they belong; a program builds
# with `pkg-config --cflags --libs pencil` and runs against the installed library; and
# `make uninstall-client-c` removes every file installed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$repo"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"

prefix=/usr/local
make --no-print-directory -s install-client-c DESTDIR="$root" PREFIX="$prefix" >"$root.log" 2>&1 ||
    { cat "$root.log"; rm -f "$root.log"; echo "FAIL: make install-client-c"; exit 1; }
rm -f "$root.log"
dirs=$(make --no-print-directory -s print-dirs PREFIX="$prefix")
libdir=$(sed -n 's/^lib=//p' <<<"$dirs")
includedir=$(sed -n 's/^include=//p' <<<"$dirs")
mandir=$(sed -n 's/^man=//p' <<<"$dirs")

library=$root$libdir/libpencil.so.0
if [ -L "$library" ] && [ -f "$(readlink -f "$library")" ] && [ -L "$root$libdir/libpencil.so" ]; then
    pass "$libdir/libpencil.so.0 -> $(readlink "$library"), and the development link"
else
    fail "libpencil.so.0 or libpencil.so missing in $libdir: $(ls "$root$libdir" 2>&1)"
fi
soname=$(readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libpencil.so.0 ] && pass "soname $soname" || fail "soname is '$soname'"

# The exported functions are exactly pencil.h's, each versioned PENCIL_0.
grep -o 'pencil_[a-z0-9_]*(' clients/c/include/pencil.h | tr -d '(' | sort -u >"$root/declared"
readelf --dyn-syms --wide "$library" | awk '$7 != "UND" && $4 == "FUNC" { print $8 }' | sort -u >"$root/exported"
if sed 's/@@PENCIL_0$//' "$root/exported" | cmp -s - "$root/declared" && ! grep -qv '@@PENCIL_0$' "$root/exported"; then
    pass "$(wc -l <"$root/exported") functions exported, all of pencil.h's, all versioned PENCIL_0"
else
    fail "exported functions differ from pencil.h's: $(diff <(sed 's/@@.*//' "$root/exported") "$root/declared" | tr '\n' ' ')"
fi

[ -f "$root$includedir/pencil.h" ] && pass "$includedir/pencil.h" || fail "pencil.h not in $includedir"
if command -v scdoc >/dev/null; then
    [ -f "$root$mandir/man3/libpencil.3" ] && pass "$mandir/man3/libpencil.3" || fail "libpencil.3 not in $mandir/man3"
elif [ "${CI:-}" = true ]; then
    fail "scdoc is not installed: the man page was not built (apt-get install scdoc)"
else
    echo "skipped: the man page (scdoc is not installed)"
fi

export PKG_CONFIG_PATH=$root$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
if flags=$(pkg-config --cflags --libs pencil); then
    pass "pkg-config --cflags --libs pencil: $flags"
    cat >"$root/program.c" <<'PROGRAM'
#include <pencil.h>
#include <stdio.h>
int main(void)
{
	struct pencil *pencil = pencil_new_from_path("/nonexistent/pencild.sock");
	int result = pencil_list_devices(pencil, &(struct pencil_device **){0}, &(size_t){0}, NULL);
	printf("%s %d\n", pencil_event_type_to_name(PENCIL_EVENT_DOUBLE_TAP), result);
	pencil_unref(pencil);
	return 0;
}
PROGRAM
    # shellcheck disable=SC2086 # the flags are words
    if cc -o "$root/program" "$root/program.c" $flags && output=$(LD_LIBRARY_PATH=$root$libdir "$root/program") &&
        [ "$output" = "doubleTap -2" ]; then
        pass "a program built with those flags runs against the installed library"
    else
        fail "building or running a program against the installed library: ${output:-}"
    fi
    # shellcheck disable=SC2086
    if cc -o "$root/gestures" clients/c/examples/pencil-gestures.c $flags; then
        pass "examples/pencil-gestures.c builds against the installed library"
    else
        fail "examples/pencil-gestures.c does not build against the installed library"
    fi
else
    fail "pkg-config --cflags --libs pencil"
fi
rm -f "$root/declared" "$root/exported" "$root/program.c" "$root/program" "$root/gestures"

make --no-print-directory -s uninstall-client-c DESTDIR="$root" PREFIX="$prefix"
left=$(cd "$root" && find . \( -type f -o -type l \) | sort)
[ -z "$left" ] && pass "make uninstall-client-c removed every file" || fail "left after uninstall: $left"
summary
