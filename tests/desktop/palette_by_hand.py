#!/usr/bin/python3
"""palette_by_hand.py ROUTE: pencil-palette started as a person starts it, in the desktop's
session, with a request of two items: it must answer that it is shown by ROUTE, with the
card and both items placed on the screen, then close when told ({"close": "again"}). Prints
what it answered and how long that took (under emulation, Python and GTK loading: what
pencil-actions' wait for a palette must allow); exits 0 when all of that holds. Standard
library only: the desktop tier runs it in its fresh Debian and in its VM."""

import json
import select
import subprocess
import sys
import time

PALETTE = "/usr/share/pencil-actions/palette/pencil-palette"
REQUEST = {"app": None, "pen": {"x": 0.25, "y": 0.25}, "items": [
    {"id": "tool.pen", "label": "Pen", "group": "tools", "checked": True},
    {"id": "undo", "label": "Undo", "group": "edit"}]}


def main():
    route = sys.argv[1]
    started = time.monotonic()
    process = subprocess.Popen([PALETTE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdin.write(json.dumps(REQUEST) + "\n")
    process.stdin.flush()
    line = process.stdout.readline() if select.select([process.stdout], [], [], 120)[0] else ""
    print(f"after {time.monotonic() - started:.1f} s: {line.strip()}")
    try:
        shown = json.loads(line).get("shown") or {}
    except ValueError:
        shown = {}
    process.stdin.write('{"close": "again"}\n')
    process.stdin.flush()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
    rest = process.stdout.read().strip()
    print(f"then: {rest}")
    errors = process.stderr.read().strip()
    if errors:
        print(f"stderr: {errors[-400:]}")
    items = shown.get("items", {})
    placed = all(isinstance(items.get(name), dict) and items[name].get("width", 0) > 0 for name in ("tool.pen", "undo"))
    ok = shown.get("route") == route and shown.get("width", 0) > 0 and placed and json.loads(rest or "{}") == {"closed": "again"}
    return 0 if ok and process.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
