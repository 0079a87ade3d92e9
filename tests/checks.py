"""checks.py: what tests/lib.sh's pass and fail are to a tier's Python driver. One line per
check, "  ok: ..." or "  FAIL: ...", which the tier's shell counts; `failures` for the
driver's exit status; `wait` asks again until a predicate holds, for trees and windows that
change under the driver (it polls what has no event to wait on: the accessibility tree of
another process)."""

from __future__ import annotations

import time
from typing import Any, Callable

failures = 0


def ok(what: str) -> None:
    print(f"  ok: {what}", flush=True)


def fail(what: str) -> None:
    global failures
    failures += 1
    print(f"  FAIL: {what}", flush=True)


def check(condition: bool, what: str, detail: str = "") -> bool:
    if condition:
        ok(what)
    else:
        fail(f"{what}{': ' + detail if detail else ''}")
    return condition


def wait(predicate: Callable[[], Any], seconds: float = 10.0, interval: float = 0.1) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        try:
            value = predicate()
        except Exception:  # the tree changes under us: ask again
            value = None
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)
