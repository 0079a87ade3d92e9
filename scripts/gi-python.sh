#!/usr/bin/env bash
# gi-python.sh: prints a Python that has PyGObject with GTK 4. Debian's python3-gi and
# gir1.2-gtk-4.0 live in the system's Python, which another python3 earlier on PATH (a
# version manager's) may shadow: every python3 on PATH is tried in turn. Exits 1, saying
# what to install, when none has them.
set -euo pipefail
while read -r python; do
    if "$python" -c 'import gi; gi.require_version("Gtk", "4.0"); from gi.repository import Gtk' 2>/dev/null; then
        echo "$python"
        exit 0
    fi
done < <(type -ap python3)
echo "no Python with GTK 4's PyGObject: apt-get install python3-gi python3-gi-cairo gir1.2-gtk-4.0" >&2
exit 1
